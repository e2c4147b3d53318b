/* scrub — a secret's bytes masked out of a stream (see scrub.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scrub.h"
#include "text.h"

#include "alloc.h"
#include "banned.h"

static bool add_pattern(struct scrub *s, const char *p, size_t n, bool own)
{
	char *copy;

	if (n == 0 || s->npat == SCRUB_PATTERNS)
		return true;
	for (size_t i = 0; i < s->npat; i++)
		if (s->plen[i] == n && memcmp(s->pat[i], p, n) == 0)
			return true;
	copy = own ? (char *)p : cordon__malloc(n);
	if (!copy)
		return false;
	if (!own)
		memcpy(copy, p, n);
	s->pat[s->npat] = copy;
	s->plen[s->npat++] = n;
	if (n > s->longest)
		s->longest = n;
	return true;
}

/* The base64 characters that secret[from..) alone decides, in alphabet
 * std (else URL-safe): whole 3-byte groups only. */
static bool add_b64(struct scrub *s, const char *secret, size_t len,
		    size_t from, bool std)
{
	size_t groups = from < len ? (len - from) / 3 : 0, n;
	char *e, *end;

	if (groups * 4 < SCRUB_MIN_ENCODED)
		return true;
	e = text_b64_encode(secret + from, groups * 3);
	if (!e)
		return false;
	n = groups * 4;
	end = e + n;
	for (char *c = e; !std && c < end; c++)
		*c = *c == '+' ? '-' : *c == '/' ? '_' : *c;
	if (!add_pattern(s, e, n, false)) {
		explicit_bzero(e, n);
		free(e);
		return false;
	}
	explicit_bzero(e, n);
	free(e);
	return true;
}

enum cordon_err scrub_init(struct scrub *s, const char *secret, size_t len)
{
	char *hex;
	bool okay;

	memset(s, 0, sizeof(*s));
	if (len == 0 || len > SCRUB_SECRET_MAX)
		return CORDON_E_INVAL;
	hex = cordon__malloc(2 * len + 1);
	okay = hex && add_pattern(s, secret, len, false);
	if (okay && 2 * len >= SCRUB_MIN_ENCODED) {
		text_hex_encode(secret, len, hex);
		okay = add_pattern(s, hex, 2 * len, false);
		for (size_t i = 0; i < 2 * len; i++)
			if (hex[i] >= 'a' && hex[i] <= 'f')
				hex[i] = (char)(hex[i] - 'a' + 'A');
		okay = okay && add_pattern(s, hex, 2 * len, false);
	}
	for (size_t from = 0; okay && from < 3; from++)
		okay = add_b64(s, secret, len, from, true) &&
		       add_b64(s, secret, len, from, false);
	if (hex)
		explicit_bzero(hex, 2 * len + 1);
	free(hex);
	if (okay) {
		s->carry = cordon__malloc(s->longest);
		s->orig = cordon__malloc(SCRUB_PIECE + s->longest);
	}
	if (!okay || !s->carry || !s->orig) {
		scrub_free(s);
		return CORDON_E_NOMEM;
	}
	return CORDON_OK;
}

void scrub_free(struct scrub *s)
{
	for (size_t i = 0; i < s->npat; i++) {
		explicit_bzero(s->pat[i], s->plen[i]);
		free(s->pat[i]);
	}
	if (s->carry)
		explicit_bzero(s->carry, s->longest);
	free(s->carry);
	free(s->orig);
	memset(s, 0, sizeof(*s));
}

size_t scrub_out_max(const struct scrub *s, size_t n)
{
	return n + s->ncarry;
}

/* Masks work where pattern k occurs in orig[0..m) (the same bytes as they
 * came: what one pattern masks never hides another's occurrence), writing
 * only below emit (the rest is held back as it came), and returns how far
 * an occurrence that starts below emit reaches past it (0: none). */
static size_t mask(const struct scrub *s, size_t k, const char *orig,
		   char *work, size_t m, size_t emit)
{
	const char *pat = s->pat[k], *hit;
	size_t plen = s->plen[k], over = 0, i = 0;

	while (i + plen <= m && (hit = memmem(orig + i, m - i, pat, plen))) {
		size_t at = (size_t)(hit - orig), end = at + plen;

		if (at >= emit)
			break;
		memset(work + at, '*', (end < emit ? end : emit) - at);
		if (end > emit && end - emit > over)
			over = end - emit;
		i = at + 1;
	}
	return over;
}

/* One piece of at most SCRUB_PIECE input bytes: the held-back bytes and
 * the piece into out, masked below what is held back now. */
static size_t feed_piece(struct scrub *s, const char *in, size_t n,
			 char *out, bool last)
{
	size_t m = s->ncarry + n, keep = last ? 0 : s->longest - 1, emit;
	size_t over;

	memcpy(s->orig, s->carry, s->ncarry);
	memcpy(s->orig + s->ncarry, in, n);
	memcpy(out, s->orig, m);
	if (keep > m)
		keep = m;
	emit = m - keep;
	/* the tail of an occurrence found before */
	memset(out, '*', s->masked < emit ? s->masked : emit);
	over = s->masked > emit ? s->masked - emit : 0;
	for (size_t k = 0; k < s->npat; k++) {
		size_t o = mask(s, k, s->orig, out, m, emit);

		if (o > over)
			over = o;
	}
	s->masked = over;
	memcpy(s->carry, s->orig + emit, keep);
	s->ncarry = keep;
	explicit_bzero(s->orig, m);
	explicit_bzero(out + emit, keep);
	return emit;
}

size_t scrub_feed(struct scrub *s, const char *in, size_t n, char *out)
{
	size_t w = 0;

	while (n > 0) {
		size_t k = n < SCRUB_PIECE ? n : SCRUB_PIECE;

		w += feed_piece(s, in, k, out + w, false);
		in += k;
		n -= k;
	}
	return w;
}

size_t scrub_finish(struct scrub *s, char *out)
{
	/* What was held back may hold whole occurrences of the shorter
	 * patterns: everything is emitted now. */
	size_t n = feed_piece(s, "", 0, out, true);

	s->masked = 0;
	return n;
}
