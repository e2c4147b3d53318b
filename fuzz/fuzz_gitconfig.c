/* Fuzz target: the sweep's reading of a git config for keys that execute
 * (sweep.c). Any bytes: no crash, no read past the input; the answer is
 * the same for the text and for a copy, and appending a line that
 * executes always makes it true. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sandbox_int.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char tail[] = "\n[core]\nfsmonitor = x\n";
	char *copy;
	bool a;

	if (size > 1 << 16)
		return 0;
	copy = malloc(size + sizeof(tail));
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	a = sandbox_sweep_config_executes((const char *)data, size);
	if (a != sandbox_sweep_config_executes(copy, size))
		abort();
	memcpy(copy + size, tail, sizeof(tail) - 1);
	if (!sandbox_sweep_config_executes(copy, size + sizeof(tail) - 1))
		abort();
	free(copy);
	return 0;
}
