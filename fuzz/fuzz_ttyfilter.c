/* Fuzz target: the terminal relay's output filter (ttyfilter.h). Any
 * output: no crash; what passes never exceeds its bound; cut at any
 * points (taken from the input's first byte), the same bytes pass as in
 * one piece; and what passed passes again unchanged (nothing the filter
 * drops is left in it, none made by splicing what it kept). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ttyfilter.h"

#include "banned.h"

static size_t run(const uint8_t *in, size_t n, size_t step, uint8_t *out)
{
	struct ttyfilter f;
	size_t len = 0;

	memset(&f, 0, sizeof(f));
	for (size_t i = 0; i < n; i += step) {
		size_t k = n - i < step ? n - i : step;
		size_t w = ttyfilter_feed(&f, in + i, k, out + len);

		if (w > k + TTYFILTER_HOLD)
			abort();
		len += w;
	}
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *a, *b, *c;
	size_t step, na, nb, nc;

	if (size < 1 || size > 65536)
		return 0;
	step = (size_t)data[0] % 7 + 1;
	data++;
	size--;
	a = malloc(size + TTYFILTER_HOLD);
	b = malloc(size + TTYFILTER_HOLD * size + TTYFILTER_HOLD);
	c = malloc(size + TTYFILTER_HOLD);
	if (!a || !b || !c)
		goto out;
	na = run(data, size, size ? size : 1, a);
	if (na > size)
		abort();
	nb = run(data, size, step, b);
	if (nb != na || memcmp(a, b, na) != 0)
		abort();
	nc = run(a, na, na ? na : 1, c);
	if (nc != na || memcmp(a, c, na) != 0)
		abort();
out:
	free(a);
	free(b);
	free(c);
	return 0;
}
