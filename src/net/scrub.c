/* scrub — a secret's bytes masked out of a stream (see scrub.h). */
#include <stdlib.h>
#include <string.h>

#include "scrub.h"

#include "alloc.h"
#include "banned.h"

enum cordon_err scrub_init(struct scrub *s, const char *secret, size_t len)
{
	memset(s, 0, sizeof(*s));
	if (len == 0 || len > SCRUB_SECRET_MAX)
		return CORDON_E_INVAL;
	s->secret = cordon__malloc(len);
	s->carry = cordon__malloc(len);
	if (!s->secret || !s->carry) {
		free(s->secret);
		free(s->carry);
		memset(s, 0, sizeof(*s));
		return CORDON_E_NOMEM;
	}
	memcpy(s->secret, secret, len);
	s->len = len;
	return CORDON_OK;
}

void scrub_free(struct scrub *s)
{
	if (s->secret)
		explicit_bzero(s->secret, s->len);
	if (s->carry)
		explicit_bzero(s->carry, s->len);
	free(s->secret);
	free(s->carry);
	memset(s, 0, sizeof(*s));
}

size_t scrub_out_max(const struct scrub *s, size_t n)
{
	return n + s->ncarry;
}

/* Masks work[0..m) where the secret occurs, writing only below emit (the
 * rest is held back as it came), and returns how far an occurrence that
 * starts below emit reaches past it (0: none). Bytes below s->masked
 * belong to an occurrence found before. */
static size_t mask(struct scrub *s, char *work, size_t m, size_t emit)
{
	size_t ms = 0, me = s->masked < emit ? s->masked : emit, i = 0;
	size_t over = s->masked > emit ? s->masked - emit : 0;
	const char *hit;

	/* Occurrences are found in the bytes as they came: an interval is
	 * written only once no later occurrence can start inside it. */
	while (i + s->len <= m &&
	       (hit = memmem(work + i, m - i, s->secret, s->len))) {
		size_t at = (size_t)(hit - work), end = at + s->len;

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
	size_t m = s->ncarry + n, keep = s->len - 1, emit;

	memcpy(out, s->carry, s->ncarry);
	memcpy(out + s->ncarry, in, n);
	if (keep > m)
		keep = m;
	emit = m - keep;
	s->masked = mask(s, out, m, emit);
	memcpy(s->carry, out + emit, keep);
	s->ncarry = keep;
	explicit_bzero(out + emit, keep);
	return emit;
}

size_t scrub_finish(struct scrub *s, char *out)
{
	size_t n = s->ncarry, masked = s->masked < n ? s->masked : n;

	memcpy(out, s->carry, n);
	memset(out, '*', masked);
	explicit_bzero(s->carry, s->len);
	s->ncarry = 0;
	s->masked = 0;
	return n;
}
