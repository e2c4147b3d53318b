/* Fuzz target: the first byte picks the secret's length (1..32), the next
 * bytes are the secret, the rest a stream fed to scrub_feed in chunks of
 * pseudo-random sizes (seeded by the input), and once whole. Both outputs
 * must be as long as the stream and equal, and equal to a naive reference
 * that masks every occurrence of every pattern (the secret and its
 * encodings, read from the scrub) in the input as it came; every
 * occurrence of the secret itself must be all '*'. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scrub.h"

#include "banned.h"

static size_t next_chunk(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (size_t)(*s % 97);
}

static size_t scrub_all(const char *secret, size_t len, const char *in,
			size_t n, char *out, uint64_t seed, bool whole)
{
	struct scrub s;
	size_t got = 0, off = 0;

	if (scrub_init(&s, secret, len) != CORDON_OK)
		abort();
	while (off < n) {
		size_t k = whole ? n : next_chunk(&seed);
		char *chunk;

		if (k > n - off)
			k = n - off;
		chunk = malloc(scrub_out_max(&s, k) + 1);
		if (!chunk)
			abort();
		size_t w = scrub_feed(&s, in + off, k, chunk);

		if (w > scrub_out_max(&s, k) || got + w > n)
			abort();
		memcpy(out + got, chunk, w);
		got += w;
		off += k;
		free(chunk);
	}
	got += scrub_finish(&s, out + got);
	scrub_free(&s);
	return got;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, n;
	const char *secret, *in;
	char *a, *b;
	uint64_t seed = 0x9e3779b97f4a7c15u;

	if (size < 2)
		return 0;
	len = (size_t)(data[0] % 32) + 1;
	if (size < 1 + len)
		return 0;
	secret = (const char *)data + 1;
	in = secret + len;
	n = size - 1 - len;
	for (size_t i = 0; i < size && i < 8; i++)
		seed = seed * 31 + data[i];
	a = malloc(n + SCRUB_PATTERN_MAX);
	b = malloc(n + SCRUB_PATTERN_MAX);
	if (!a || !b)
		abort();
	if (scrub_all(secret, len, in, n, a, seed, false) != n ||
	    scrub_all(secret, len, in, n, b, seed, true) != n ||
	    memcmp(a, b, n) != 0)
		abort();
	/* the reference: every occurrence of every pattern, in the input as
	 * it came, masked; nothing else touched */
	{
		struct scrub ref;

		if (scrub_init(&ref, secret, len) != CORDON_OK)
			abort();
		memcpy(b, in, n);
		for (size_t k = 0; k < ref.npat; k++)
			for (size_t i = 0; i + ref.plen[k] <= n; i++)
				if (memcmp(in + i, ref.pat[k], ref.plen[k]) == 0)
					memset(b + i, '*', ref.plen[k]);
		scrub_free(&ref);
		if (memcmp(a, b, n) != 0)
			abort();
	}
	for (size_t i = 0; i + len <= n; i++)
		if (memcmp(in + i, secret, len) == 0)
			for (size_t j = 0; j < len; j++)
				if (a[i + j] != '*')
					abort();
	free(a);
	free(b);
	return 0;
}
