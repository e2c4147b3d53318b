/* scrub — a secret's bytes masked out of a stream (see scrub.h). */
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
	if (okay)
		s->carry = cordon__malloc(s->longest);
	if (!okay || !s->carry) {
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
	memset(s, 0, sizeof(*s));
}

size_t scrub_out_max(const struct scrub *s, size_t n)
{
	return n + s->ncarry;
}

/* Masks work[0..m) where pattern k occurs, writing only below emit (the
 * rest is held back as it came), and returns how far an occurrence that
 * starts below emit reaches past it (0: none). Bytes below s->masked
 * belong to an occurrence found before. Patterns are masked one after the
 * other: an occurrence of one that overlaps another's is found only where
 * the first left it whole. */
static size_t mask(struct scrub *s, size_t k, char *work, size_t m,
		   size_t emit)
{
	const char *pat = s->pat[k];
	size_t plen = s->plen[k];
	size_t ms = 0, me = s->masked < emit ? s->masked : emit, i = 0;
	size_t over = s->masked > emit ? s->masked - emit : 0;
	const char *hit;

	/* Occurrences are found in the bytes as they came: an interval is
	 * written only once no later occurrence can start inside it. */
	while (i + plen <= m && (hit = memmem(work + i, m - i, pat, plen))) {
		size_t at = (size_t)(hit - work), end = at + plen;

		if (at >= emit)
			break;
		if (at > me) {
			memset(work + ms, '*', me - ms);
			ms = at;
		}
		if (end > me)
			me = end;
		i = at + 1;
	}
	if (me > emit) {
		if (me - emit > over)
			over = me - emit;
		me = emit;
	}
	if (me > ms)
		memset(work + ms, '*', me - ms);
	return over;
}

size_t scrub_feed(struct scrub *s, const char *in, size_t n, char *out)
{
	size_t m = s->ncarry + n, keep = s->longest - 1, emit, over = 0;

	memcpy(out, s->carry, s->ncarry);
	memcpy(out + s->ncarry, in, n);
	if (keep > m)
		keep = m;
	emit = m - keep;
	for (size_t k = 0; k < s->npat; k++) {
		size_t o = mask(s, k, out, m, emit);

		if (o > over)
			over = o;
	}
	s->masked = over;
	memcpy(s->carry, out + emit, keep);
	s->ncarry = keep;
	explicit_bzero(out + emit, keep);
	return emit;
}

size_t scrub_finish(struct scrub *s, char *out)
{
	size_t n = s->ncarry;

	/* What was held back may hold whole occurrences of the shorter
	 * patterns: everything is emitted now. */
	memcpy(out, s->carry, n);
	for (size_t k = 0; k < s->npat; k++)
		mask(s, k, out, n, n);
	explicit_bzero(s->carry, s->longest);
	s->ncarry = 0;
	s->masked = 0;
	return n;
}
