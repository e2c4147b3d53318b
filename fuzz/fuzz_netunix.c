/* Fuzz target: the path of a /proc/net/unix line (mask.c). Any line (up
 * to its first NUL): no crash; a path found is absolute, inside the line,
 * and preceded by seven fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sandbox_int.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line;
	const char *path;

	if (size > 4096)
		return 0;
	line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	path = sandbox_mask_unix_path(line);
	if (path) {
		size_t len = strlen(line), fields = 0;

		if (path < line || path >= line + len || *path != '/')
			abort();
		for (const char *s = line; s < path; s++)
			if (*s != ' ' && (s == line || s[-1] == ' '))
				fields++;
		if (fields != 7)
			abort();
	}
	free(line);
	return 0;
}
