/* Fuzz target: the shape reader (codeshape.c). The first byte picks the
 * passes (SHAPE_* bits); the rest is the code. Checks the promises of
 * codeshape.h: only defined flags, the same answer twice, every command
 * and SQL literal handed back non-empty, inside the input or the line
 * buffer, and readable to its last byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codescan.h"
#include "codeshape.h"
#include "fuzz.h"

#include "banned.h"

struct seen {
	size_t limit;
	unsigned calls;
	unsigned sum;
};

static void on_text(void *ud, const char *s, size_t n)
{
	struct seen *t = ud;

	if (!s || n == 0 || n > t->limit)
		abort();
	for (size_t i = 0; i < n; i++)
		t->sum += (unsigned char)s[i];
	t->calls++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen a = { 0 }, b = { 0 };
	unsigned what, f1, f2;

	if (size == 0)
		return 0;
	what = data[0] & (SHAPE_ALL | SHAPE_SQL | SHAPE_CASELESS | SHAPE_HOME);
	a.limit = b.limit = size + 4096;
	f1 = codeshape_scan((const char *)data + 1, size - 1, what, on_text,
			    on_text, &a);
	f2 = codeshape_scan((const char *)data + 1, size - 1, what, on_text,
			    on_text, &b);
	if (f1 != f2 || a.calls != b.calls || a.sum != b.sum)
		abort();
	if (f1 & ~CODE_F_ALL)
		abort();
	return 0;
}
