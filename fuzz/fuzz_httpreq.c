/* Fuzz target: the input is a request head fed to httpreq_feed, once whole and
 * once in chunks of pseudo-random sizes drawn from a generator seeded by
 * the input, under the default limits and under small ones (which also
 * accept origin-form). The outcomes must agree: status, error status and
 * reason, bytes used, and on success the target and every field. A finished
 * absolute-form request is then written for the upstream; the result must
 * parse again as an origin-form head with the same framing, the same host,
 * and none of the stripped fields. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "httpreq.h"

#include "banned.h"

static uint64_t seed_of(const uint8_t *data, size_t size)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211ull;
	return h | 1;
}

static size_t next_chunk(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return 1 + (size_t)(*s % 24);
}

/* Feeds data in chunks (whole when rng is NULL); the total used is *used. */
static enum httpreq_status run(struct httpreq_req *r, const struct httpreq_limits *lim,
			  const uint8_t *data, size_t size, uint64_t *rng,
			  size_t *used)
{
	enum httpreq_status st = HTTPREQ_MORE;
	size_t off = 0;

	if (httpreq_req_init(r, lim) != CORDON_OK)
		abort();
	*used = 0;
	do {
		size_t n = size - off, u = 0;

		size_t want = rng ? next_chunk(rng) : n;

		if (want < n)
			n = want;
		st = httpreq_feed(r, data + off, n, &u);
		if (u > n)
			abort();
		*used += u;
		off += n;
	} while (st == HTTPREQ_MORE && off < size);
	return st;
}

static bool same_view(const char *a, size_t al, const char *b, size_t bl)
{
	return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

static void compare(const struct httpreq_req *a, enum httpreq_status sa, size_t ua,
		    const struct httpreq_req *b, enum httpreq_status sb, size_t ub)
{
	if (sa != sb)
		abort();
	if (sa == HTTPREQ_ERROR) {
		if (a->err.status != b->err.status ||
		    a->err.reason != b->err.reason || !a->err.reason)
			abort();
		return;
	}
	if (sa != HTTPREQ_DONE)
		return;
	if (ua != ub || a->head_len != ua || a->form != b->form ||
	    a->port != b->port || a->host.kind != b->host.kind ||
	    strcmp(a->host.text, b->host.text) != 0 ||
	    a->chunked != b->chunked || a->has_length != b->has_length ||
	    a->content_length != b->content_length ||
	    !same_view(a->method, a->method_len, b->method, b->method_len) ||
	    !same_view(a->path, a->path_len, b->path, b->path_len) ||
	    httpreq_header_count(a) != httpreq_header_count(b))
		abort();
	if (a->chunked && a->has_length)
		abort();
	for (size_t i = 0; i < httpreq_header_count(a); i++) {
		struct httpreq_header x = httpreq_header_at(a, i), y = httpreq_header_at(b, i);

		if (!same_view(x.name, x.name_len, y.name, y.name_len) ||
		    !same_view(x.value, x.value_len, y.value, y.value_len))
			abort();
	}
}

static const char *const stripped[] = {
	"proxy-authorization",
	"authorization",
	"cookie",
	"x-api-key",
	"connection",
	"proxy-connection",
	"keep-alive",
	"te",
	"trailer",
	"upgrade",
};

/* Writes r for the upstream and checks the result parses back. */
static void rewrite(const struct httpreq_req *r)
{
	static const struct httpreq_header inject = { "Authorization", 13,
						 "Bearer k", 8 };
	struct httpreq_limits big = { HTTPREQ_LIMIT_CEILING, HTTPREQ_LIMIT_CEILING,
				 HTTPREQ_LIMIT_CEILING, HTTPREQ_ORIGIN_FORM };
	struct httpreq_req back;
	size_t len = 0, len2 = 0, used = 0, n = 0, pos;
	struct httpreq_header h;
	char *out;

	if (httpreq_write_origin(r, HTTPREQ_STRIP_CREDENTIALS, &inject, 1, NULL, 0,
			    &len) != CORDON_E_LIMIT)
		abort();
	out = malloc(len);
	if (!out)
		abort();
	if (httpreq_write_origin(r, HTTPREQ_STRIP_CREDENTIALS, &inject, 1, out, len,
			    &len2) != CORDON_OK ||
	    len2 != len)
		abort();
	if (run(&back, &big, (const uint8_t *)out, len, NULL, &used) !=
		    HTTPREQ_DONE ||
	    used != len)
		abort();
	if (back.form != HTTPREQ_FORM_ORIGIN || back.chunked != r->chunked ||
	    back.has_length != r->has_length ||
	    back.content_length != r->content_length ||
	    back.version_minor != r->version_minor)
		abort();
	for (size_t i = 0; i < sizeof(stripped) / sizeof(stripped[0]); i++) {
		pos = 0;
		n = 0;
		while (httpreq_header_next(&back, stripped[i], &pos, &h))
			n++;
		if (n != (i == 1 ? 1u : 0u))
			abort();
	}
	pos = 0;
	if (!httpreq_header_next(&back, "host", &pos, &h) ||
	    httpreq_header_next(&back, "host", &pos, &h))
		abort();
	httpreq_req_free(&back);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct httpreq_limits small = { 64, 256, 8, HTTPREQ_ORIGIN_FORM };
	const struct httpreq_limits *lims[] = { NULL, &small };

	for (size_t k = 0; k < 2; k++) {
		struct httpreq_req a, b;
		uint64_t rng = seed_of(data, size) + k;
		size_t ua, ub;
		enum httpreq_status sa = run(&a, lims[k], data, size, NULL, &ua);
		enum httpreq_status sb = run(&b, lims[k], data, size, &rng, &ub);

		compare(&a, sa, ua, &b, sb, ub);
		if (sa == HTTPREQ_DONE && a.form == HTTPREQ_FORM_ABSOLUTE)
			rewrite(&a);
		httpreq_req_free(&a);
		httpreq_req_free(&b);
	}
	return 0;
}
