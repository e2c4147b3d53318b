/* Fuzz target: the first byte picks the secret's length (1..32), the next
 * bytes are the secret, the rest a stream fed to scrub_feed in chunks of
 * pseudo-random sizes (seeded by the input). The output must be as long
 * as the stream, equal to a naive reference that masks every occurrence
 * (overlapping ones too) and keeps every other byte, and hold no
 * occurrence of the secret unless the secret is all '*'. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scrub s;
	size_t len, n, got = 0, off = 0;
	const char *secret, *in;
	char *want, *out;
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
	want = malloc(n + 1);
	out = malloc(n + len + 97);
	if (!want || !out || scrub_init(&s, secret, len) != CORDON_OK)
		abort();
	memcpy(want, in, n);
	for (size_t i = 0; i + len <= n; i++)
		if (memcmp(in + i, secret, len) == 0)
			memset(want + i, '*', len);
	while (off < n) {
		size_t k = next_chunk(&seed);
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
	if (got != n || memcmp(out, want, n) != 0)
		abort();
	scrub_free(&s);
	free(want);
	free(out);
	return 0;
}
