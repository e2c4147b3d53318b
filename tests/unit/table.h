/* table.h — reading the test tables under tests/ (and any other whole file)
 * for cordon's unit tests.
 *
 *	char path[4096];
 *	table_path(path, sizeof(path), "cases/audit/redact.jsonl");
 *	char *text = table_read(path, &len);     (free() it)
 *
 * Everything is static to the including test program, like tap.h.
 */
#ifndef CORDON_TABLE_H
#define CORDON_TABLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file at path, malloc'd and NUL-terminated, its length in *len
 * (len may be NULL). NULL when it cannot be opened or memory runs out. */
static inline char *table_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb;

			cap = (n + 4096 + 1) * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* The path of tests/REL: under $CORDON_SOURCE_ROOT (meson sets it), else
 * found relative to this header (tests/unit/). */
static inline void table_path(char *buf, size_t cap, const char *rel)
{
	const char *root = getenv("CORDON_SOURCE_ROOT");
	const char *file = __FILE__;
	const char *slash = strrchr(file, '/');

	if (root)
		snprintf(buf, cap, "%s/tests/%s", root, rel);
	else if (!slash)
		snprintf(buf, cap, "../%s", rel);
	else
		snprintf(buf, cap, "%.*s/../%s", (int)(slash - file), file,
			 rel);
}

#endif
