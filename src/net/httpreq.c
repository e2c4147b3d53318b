/* httpreq — incremental parser of a proxy request head (httpreq.h).
 *
 * The head is accumulated line by line: each chunk is split at LF, the
 * bytes of an unfinished line are checked against the limits before they
 * are copied, and a line is judged only once its LF has arrived. Since
 * every check depends only on bytes already seen, in order, and the length
 * checks come before the content checks, any split of the input gives the
 * same verdict. Fields are stored as offsets while the buffer may still
 * grow; the public views are set once the head is complete.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpreq.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

struct httpreq_field {
	size_t name_off, name_len, value_off, value_len;
};

/* RFC 9110 tchar: the bytes a method or a field name may hold. */
static bool is_tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return true;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static bool is_ows(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* A byte allowed in a field value: visible ASCII, obs-text, SP, HTAB. */
static bool is_value_byte(unsigned char c)
{
	return c == '\t' || (c >= 0x20 && c != 0x7f);
}

bool httpreq_name_eq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return false;
	return true;
}

static bool all_tchar(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_tchar((unsigned char)s[i]))
			return false;
	return true;
}

void httpreq_limits_default(struct httpreq_limits *lim)
{
	lim->max_line = HTTPREQ_MAX_LINE;
	lim->max_header_bytes = HTTPREQ_MAX_HEADER_BYTES;
	lim->max_headers = HTTPREQ_MAX_HEADERS;
	lim->flags = 0;
}

static bool limit_ok(size_t v)
{
	return v >= 1 && v <= HTTPREQ_LIMIT_CEILING;
}

enum cordon_err httpreq_req_init(struct httpreq_req *r, const struct httpreq_limits *lim)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->head, SIZE_MAX);
	if (lim) {
		if (!limit_ok(lim->max_line) ||
		    !limit_ok(lim->max_header_bytes) ||
		    !limit_ok(lim->max_headers))
			return CORDON_E_INVAL;
		r->lim = *lim;
	} else {
		httpreq_limits_default(&r->lim);
	}
	r->status = HTTPREQ_MORE;
	return CORDON_OK;
}

void httpreq_req_free(struct httpreq_req *r)
{
	if (!r)
		return;
	buf_free(&r->head);
	free(r->fields);
	memset(r, 0, sizeof(*r));
}

static enum httpreq_status fail(struct httpreq_req *r, int status, const char *reason,
			   size_t offset)
{
	r->err.status = status;
	r->err.reason = reason;
	r->err.offset = offset;
	r->status = HTTPREQ_ERROR;
	return HTTPREQ_ERROR;
}

/* ---- hosts and ports ---- */

/* A strict dotted quad: four decimal parts 0-255, no leading zeros. */
static bool parse_ipv4(const char *s, size_t len, uint8_t out[4])
{
	size_t i = 0;

	for (int part = 0; part < 4; part++) {
		unsigned v = 0;
		size_t start = i;

		if (part > 0) {
			if (i >= len || s[i] != '.')
				return false;
			start = ++i;
		}
		while (i < len && is_digit((unsigned char)s[i]) &&
		       i - start < 3) {
			v = v * 10 + (unsigned)(s[i] - '0');
			i++;
		}
		if (i == start || v > 255 || (s[start] == '0' && i - start > 1))
			return false;
		out[part] = (uint8_t)v;
	}
	return i == len;
}

/* Does the label look like a number a resolver would read as part of an
 * address (decimal, or 0x hex)? */
static bool numeric_label(const char *s, size_t len)
{
	size_t i = 0;

	if (len >= 2 && s[0] == '0' && lower((unsigned char)s[1]) == 'x') {
		for (i = 2; i < len; i++)
			if (text_hex_value((unsigned char)s[i]) < 0)
				return false;
		return true;
	}
	for (i = 0; i < len; i++)
		if (!is_digit((unsigned char)s[i]))
			return false;
	return len > 0;
}

static bool host_fail(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return false;
}

static bool parse_ipv6(const char *s, size_t len, struct httpreq_host *out,
		       const char **why)
{
	char tmp[48];

	if (len == 0 || len > 45)
		return host_fail(why, "malformed IPv6 literal");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%')
			return host_fail(why, "IPv6 zone identifier");
		if (text_hex_value(c) < 0 && c != ':' && c != '.')
			return host_fail(why, "malformed IPv6 literal");
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (inet_pton(AF_INET6, tmp, out->addr) != 1)
		return host_fail(why, "malformed IPv6 literal");
	if (!inet_ntop(AF_INET6, out->addr, out->text, sizeof(out->text)))
		return host_fail(why, "malformed IPv6 literal");
	out->kind = HTTPREQ_HOST_IPV6;
	return true;
}

bool httpreq_host_parse(const char *s, size_t len, struct httpreq_host *out,
		   const char **why)
{
	size_t name_len = len, label = 0, last = 0;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return host_fail(why, "empty host");
	if (s[0] == '[') {
		if (len < 2 || s[len - 1] != ']')
			return host_fail(why, "unclosed '[' in host");
		return parse_ipv6(s + 1, len - 2, out, why);
	}
	if (parse_ipv4(s, len, out->addr)) {
		memcpy(out->text, s, len);
		out->text[len] = '\0';
		out->kind = HTTPREQ_HOST_IPV4;
		return true;
	}
	if (s[len - 1] == '.')
		name_len--;
	if (name_len == 0 || name_len > HTTPREQ_HOST_MAX)
		return host_fail(why, name_len ? "host name longer than 253" :
						 "empty host");
	for (size_t i = 0; i <= name_len; i++) {
		unsigned char c = i < name_len ? (unsigned char)s[i] : '.';

		if (c == '.') {
			if (i == label)
				return host_fail(why, "empty label in host");
			if (i - label > 63)
				return host_fail(why,
						 "host label longer than 63");
			last = label;
			label = i + 1;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      is_digit(c) || c == '-' || c == '_'))
			return host_fail(why, "invalid character in host");
	}
	if (numeric_label(s + last, name_len - last))
		return host_fail(why, "numeric host that is not a dotted quad");
	memcpy(out->text, s, len);
	out->text[len] = '\0';
	out->kind = HTTPREQ_HOST_NAME;
	return true;
}

/* A port: 1-5 digits, no leading zero, 1..65535. */
static bool parse_port(const char *s, size_t len, uint16_t *port)
{
	unsigned v = 0;

	if (len == 0 || len > 5 || s[0] == '0')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit((unsigned char)s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > 65535)
		return false;
	*port = (uint16_t)v;
	return true;
}

/* Splits "host[:port]" and parses both. need_port: the port is required. */
static const char *parse_authority(struct httpreq_req *r, const char *s, size_t len,
				   bool need_port)
{
	size_t host_len = len;
	const char *why = NULL;

	if (memchr(s, '@', len))
		return "userinfo in target";
	if (len > 0 && s[0] == '[') {
		const char *close = memchr(s, ']', len);

		if (!close)
			return "unclosed '[' in host";
		host_len = (size_t)(close - s) + 1;
		if (host_len < len && s[host_len] != ':')
			return "junk after IPv6 literal";
	} else {
		const char *colon = memchr(s, ':', len);

		if (colon)
			host_len = (size_t)(colon - s);
	}
	if (!httpreq_host_parse(s, host_len, &r->host, &why))
		return why;
	if (host_len < len) {
		if (!parse_port(s + host_len + 1, len - host_len - 1, &r->port))
			return "invalid port";
		r->port_given = true;
	} else if (need_port) {
		return "CONNECT target without a port";
	} else {
		r->port = 80;
	}
	return NULL;
}

/* ---- the request line ---- */

static enum httpreq_status request_line(struct httpreq_req *r, size_t off, size_t len)
{
	const char *s = r->head.p + off;
	const char *sp1 = memchr(s, ' ', len), *sp2, *tgt, *ver, *why;
	size_t tlen, vlen;
	bool connect;

	if (len == 0)
		return fail(r, 400, "empty line before the request line", off);
	if (!sp1)
		return fail(r, 400, "malformed request line", off);
	if (!all_tchar(s, (size_t)(sp1 - s)))
		return fail(r, 400, "invalid method", off);
	tgt = sp1 + 1;
	sp2 = memchr(tgt, ' ', len - (size_t)(tgt - s));
	if (!sp2)
		return fail(r, 400, "malformed request line", off);
	tlen = (size_t)(sp2 - tgt);
	if (tlen == 0)
		return fail(r, 400, "empty request target", off);
	ver = sp2 + 1;
	vlen = len - (size_t)(ver - s);
	if (vlen == 8 && memcmp(ver, "HTTP/1.", 7) == 0 &&
	    (ver[7] == '0' || ver[7] == '1')) {
		r->version_minor = ver[7] - '0';
	} else if (vlen == 8 && memcmp(ver, "HTTP/", 5) == 0 &&
		   is_digit((unsigned char)ver[5]) && ver[6] == '.' &&
		   is_digit((unsigned char)ver[7])) {
		return fail(r, 505, "HTTP version not supported",
			    off + (size_t)(ver - s));
	} else {
		return fail(r, 400, "malformed HTTP version",
			    off + (size_t)(ver - s));
	}
	for (size_t i = 0; i < tlen; i++) {
		unsigned char c = (unsigned char)tgt[i];

		if (c < 0x21 || c > 0x7e || c == '#')
			return fail(r, 400, "invalid byte in request target",
				    off + (size_t)(tgt - s) + i);
	}

	r->meth_off = off;
	r->method_len = (size_t)(sp1 - s);
	connect = r->method_len == 7 && memcmp(s, "CONNECT", 7) == 0;
	if (connect) {
		r->form = HTTPREQ_FORM_AUTHORITY;
		if (memchr(tgt, '/', tlen))
			return fail(r, 400, "CONNECT target is not host:port",
				    off + (size_t)(tgt - s));
		why = parse_authority(r, tgt, tlen, true);
		if (why)
			return fail(r, 400, why, off + (size_t)(tgt - s));
		return HTTPREQ_MORE;
	}
	if (tgt[0] == '/') {
		if (!(r->lim.flags & HTTPREQ_ORIGIN_FORM))
			return fail(r, 400,
				    "origin-form target sent to a proxy",
				    off + (size_t)(tgt - s));
		r->form = HTTPREQ_FORM_ORIGIN;
		r->path_off = off + (size_t)(tgt - s);
		r->path_len = tlen;
		return HTTPREQ_MORE;
	}
	if (tlen >= 7 && httpreq_name_eq(tgt, 7, "http://")) {
		const char *auth = tgt + 7, *end = tgt + tlen, *p = auth;

		while (p < end && *p != '/' && *p != '?')
			p++;
		r->form = HTTPREQ_FORM_ABSOLUTE;
		why = parse_authority(r, auth, (size_t)(p - auth), false);
		if (why)
			return fail(r, 400, why, off + (size_t)(auth - s));
		r->path_off = off + (size_t)(p - s);
		r->path_len = (size_t)(end - p);
		return HTTPREQ_MORE;
	}
	if (tlen >= 3 && memmem(tgt, tlen, "://", 3))
		return fail(r, 400, "target scheme is not http",
			    off + (size_t)(tgt - s));
	return fail(r, 400, "request target is not absolute-form",
		    off + (size_t)(tgt - s));
}

/* ---- header fields ---- */

static const struct httpreq_field *find_field(const struct httpreq_req *r,
					 const char *name)
{
	for (size_t i = 0; i < r->nfields; i++) {
		const struct httpreq_field *f = &r->fields[i];

		if (httpreq_name_eq(r->head.p + f->name_off, f->name_len, name))
			return f;
	}
	return NULL;
}

/* The raw value of a framing field (everything after the colon) minus at
 * most one leading space; NULL when it starts with other whitespace. */
static const char *framing_value(const char *raw, size_t raw_len, size_t *len)
{
	if (raw_len > 0 && raw[0] == ' ') {
		raw++;
		raw_len--;
	}
	if (raw_len > 0 && is_ows((unsigned char)raw[0]))
		return NULL;
	*len = raw_len;
	return raw;
}

static const char *content_length(struct httpreq_req *r, const char *raw,
				  size_t raw_len)
{
	size_t len = 0;
	const char *v = framing_value(raw, raw_len, &len);
	uint64_t n = 0;

	if (r->has_length)
		return "duplicate Content-Length";
	if (r->chunked)
		return "Content-Length with Transfer-Encoding";
	if (!v || len == 0 || (v[0] == '0' && len > 1))
		return "malformed Content-Length";
	for (size_t i = 0; i < len; i++) {
		unsigned d;

		if (!is_digit((unsigned char)v[i]))
			return "malformed Content-Length";
		d = (unsigned)(v[i] - '0');
		if (n > (UINT64_C(0x7fffffffffffffff) - d) / 10)
			return "Content-Length too large";
		n = n * 10 + d;
	}
	if (r->form == HTTPREQ_FORM_AUTHORITY && n != 0)
		return "CONNECT with a body";
	r->has_length = true;
	r->content_length = n;
	return NULL;
}

static const char *transfer_encoding(struct httpreq_req *r, const char *raw,
				     size_t raw_len)
{
	size_t len = 0;
	const char *v = framing_value(raw, raw_len, &len);

	if (r->chunked)
		return "duplicate Transfer-Encoding";
	if (r->has_length)
		return "Transfer-Encoding with Content-Length";
	if (r->version_minor == 0)
		return "Transfer-Encoding in an HTTP/1.0 request";
	if (r->form == HTTPREQ_FORM_AUTHORITY)
		return "CONNECT with a body";
	if (!v || !httpreq_name_eq(v, len, "chunked"))
		return "Transfer-Encoding other than chunked";
	r->chunked = true;
	return NULL;
}

/* Connection: a comma list of tokens; naming a framing field is refused,
 * since the forwarder drops what Connection names. */
static const char *connection(const char *v, size_t len)
{
	size_t i = 0;

	while (i <= len) {
		size_t start, end;

		while (i < len && is_ows((unsigned char)v[i]))
			i++;
		start = i;
		while (i < len && v[i] != ',')
			i++;
		end = i;
		while (end > start && is_ows((unsigned char)v[end - 1]))
			end--;
		if (end > start) {
			if (!all_tchar(v + start, end - start))
				return "malformed Connection";
			if (httpreq_name_eq(v + start, end - start, "host") ||
			    httpreq_name_eq(v + start, end - start,
				       "content-length") ||
			    httpreq_name_eq(v + start, end - start,
				       "transfer-encoding"))
				return "Connection names a framing field";
		}
		i++;
	}
	return NULL;
}

static enum httpreq_status header_line(struct httpreq_req *r, size_t off, size_t len)
{
	const char *s = r->head.p + off, *colon, *raw, *why = NULL;
	size_t name_len, raw_len, vs, ve;
	struct httpreq_field *f;

	if (r->nfields >= r->lim.max_headers)
		return fail(r, 431, "more header fields than max_headers", off);
	if (is_ows((unsigned char)s[0]))
		return fail(r, 400, "obs-fold (line folding) in header", off);
	colon = memchr(s, ':', len);
	if (!colon)
		return fail(r, 400, "header line without a colon", off);
	name_len = (size_t)(colon - s);
	for (size_t i = 0; i < name_len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (is_tchar(c))
			continue;
		return fail(r, 400,
			    is_ows(c) ? "whitespace before the colon" :
					"invalid byte in header name",
			    off + i);
	}
	if (name_len == 0)
		return fail(r, 400, "empty header name", off);
	raw = colon + 1;
	raw_len = len - name_len - 1;
	for (size_t i = 0; i < raw_len; i++)
		if (!is_value_byte((unsigned char)raw[i]))
			return fail(r, 400, "control byte in header value",
				    off + name_len + 1 + i);
	vs = 0;
	ve = raw_len;
	while (vs < ve && is_ows((unsigned char)raw[vs]))
		vs++;
	while (ve > vs && is_ows((unsigned char)raw[ve - 1]))
		ve--;

	if (httpreq_name_eq(s, name_len, "content-length"))
		why = content_length(r, raw, raw_len);
	else if (httpreq_name_eq(s, name_len, "transfer-encoding"))
		why = transfer_encoding(r, raw, raw_len);
	else if (httpreq_name_eq(s, name_len, "host") && find_field(r, "host"))
		why = "duplicate Host";
	else if (httpreq_name_eq(s, name_len, "connection"))
		why = connection(raw + vs, ve - vs);
	if (why)
		return fail(r, 400, why, off);

	if (r->nfields == r->fields_cap) {
		size_t ncap = r->fields_cap ? r->fields_cap * 2 : 16;
		struct httpreq_field *nf;

		if (ncap > r->lim.max_headers)
			ncap = r->lim.max_headers;
		nf = cordon__realloc(r->fields, ncap * sizeof(*nf));
		if (!nf)
			return fail(r, 500, "out of memory", off);
		r->fields = nf;
		r->fields_cap = ncap;
	}
	f = &r->fields[r->nfields++];
	f->name_off = off;
	f->name_len = name_len;
	f->value_off = off + name_len + 1 + vs;
	f->value_len = ve - vs;
	return HTTPREQ_MORE;
}

/* The blank line: the head is complete; set the public views. */
static enum httpreq_status finish(struct httpreq_req *r)
{
	r->method = r->head.p + r->meth_off;
	if (r->form == HTTPREQ_FORM_ABSOLUTE || r->form == HTTPREQ_FORM_ORIGIN)
		r->path = r->head.p + r->path_off;
	r->head_len = r->head.len;
	r->status = HTTPREQ_DONE;
	return HTTPREQ_DONE;
}

/* A complete line buf[line_start..len) ending in LF. */
static enum httpreq_status line_done(struct httpreq_req *r)
{
	size_t off = r->line_start, n = r->head.len - off;
	const char *s = r->head.p + off;

	if (n < 2 || s[n - 2] != '\r')
		return fail(r, 400, "line not ended by CRLF", r->head.len - 1);
	for (size_t i = 0; i < n - 2; i++)
		if (s[i] == '\r')
			return fail(r, 400, "bare CR", off + i);
	r->line_start = r->head.len;
	if (!r->in_headers) {
		r->in_headers = true;
		return request_line(r, off, n - 2);
	}
	r->header_bytes += n;
	if (n == 2)
		return finish(r);
	return header_line(r, off, n - 2);
}

/* A CR not followed by LF is refused as soon as the byte after it is in,
 * not when the line ends: a head of bare CRs and no LF would otherwise
 * wait for the proxy's time-out. from is where the new bytes start (the
 * byte before may be a CR whose next byte just came). */
static enum httpreq_status bare_cr(struct httpreq_req *r, size_t from)
{
	const char *s = r->head.p;

	if (from > r->line_start)
		from--;
	for (size_t i = from; i + 1 < r->head.len; i++)
		if (s[i] == '\r' && s[i + 1] != '\n')
			return fail(r, 400, "bare CR", i);
	return HTTPREQ_MORE;
}

/* Would the current line, at n bytes so far (complete: LF included),
 * break a length limit? */
static enum httpreq_status check_length(struct httpreq_req *r, size_t n, bool complete)
{
	if (!r->in_headers) {
		/* The bytes before the LF hold the line and its CR: past
		 * max_line + 1 the line is too long whatever comes next. */
		size_t before_lf = complete ? n - 1 : n;

		if (before_lf > r->lim.max_line + 1)
			return fail(r, 414, "request line longer than max_line",
				    r->line_start);
		return HTTPREQ_MORE;
	}
	if (n > r->lim.max_header_bytes - r->header_bytes)
		return fail(r, 431,
			    "header section longer than max_header_bytes",
			    r->line_start);
	return HTTPREQ_MORE;
}

enum httpreq_status httpreq_feed(struct httpreq_req *r, const void *data, size_t len,
		       size_t *used)
{
	const char *p = data;
	size_t off = 0;

	if (used)
		*used = 0;
	if (r->status != HTTPREQ_MORE)
		return r->status;
	while (off < len) {
		const char *lf = memchr(p + off, '\n', len - off);
		size_t take = lf ? (size_t)(lf - (p + off)) + 1 : len - off;
		size_t have = r->head.len - r->line_start;

		off += take;
		if (check_length(r, have + take, lf != NULL) != HTTPREQ_MORE)
			break;
		size_t was = r->head.len;

		if (!buf_add(&r->head, p + off - take, take)) {
			fail(r, 500, "out of memory", r->head.len);
			break;
		}
		if (bare_cr(r, was) != HTTPREQ_MORE)
			break;
		if (lf && line_done(r) != HTTPREQ_MORE)
			break;
	}
	if (used)
		*used = off;
	return r->status;
}

/* ---- accessors ---- */

size_t httpreq_header_count(const struct httpreq_req *r)
{
	return r->status == HTTPREQ_DONE ? r->nfields : 0;
}

struct httpreq_header httpreq_header_at(const struct httpreq_req *r, size_t i)
{
	struct httpreq_header h = { 0 };

	if (r->status == HTTPREQ_DONE && i < r->nfields) {
		const struct httpreq_field *f = &r->fields[i];

		h.name = r->head.p + f->name_off;
		h.name_len = f->name_len;
		h.value = r->head.p + f->value_off;
		h.value_len = f->value_len;
	}
	return h;
}

bool httpreq_header_next(const struct httpreq_req *r, const char *name, size_t *pos,
		    struct httpreq_header *out)
{
	size_t n = httpreq_header_count(r);

	for (size_t i = *pos; i < n; i++) {
		struct httpreq_header h = httpreq_header_at(r, i);

		if (httpreq_name_eq(h.name, h.name_len, name)) {
			*out = h;
			*pos = i + 1;
			return true;
		}
	}
	*pos = n;
	return false;
}

/* ---- writing the head for the upstream ---- */

static const char *const hop_by_hop[] = {
	"host",
	"connection",
	"proxy-connection",
	"keep-alive",
	"te",
	"trailer",
	"upgrade",
	"proxy-authorization",
	"proxy-authenticate",
};

static const char *const credentials[] = {
	"authorization",
	"cookie",
	"x-api-key",
};

static const char *const encodings[] = {
	"accept-encoding",
	"range",
	"if-range",
};

static bool in_list(const struct httpreq_header *h, const char *const *list,
		    size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (httpreq_name_eq(h->name, h->name_len, list[i]))
			return true;
	return false;
}

static bool eq_views(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return false;
	return true;
}

/* Is the field named in any Connection header of r? */
static bool named_by_connection(const struct httpreq_req *r,
				const struct httpreq_header *h)
{
	struct httpreq_header c;
	size_t pos = 0;

	while (httpreq_header_next(r, "connection", &pos, &c)) {
		size_t i = 0;

		while (i <= c.value_len) {
			size_t start, end;

			while (i < c.value_len &&
			       is_ows((unsigned char)c.value[i]))
				i++;
			start = i;
			while (i < c.value_len && c.value[i] != ',')
				i++;
			end = i;
			while (end > start &&
			       is_ows((unsigned char)c.value[end - 1]))
				end--;
			if (eq_views(c.value + start, end - start, h->name,
				     h->name_len))
				return true;
			i++;
		}
	}
	return false;
}

struct writer {
	char *out;
	size_t cap, len;
};

static void put(struct writer *w, const char *s, size_t n)
{
	if (w->len <= w->cap && n <= w->cap - w->len)
		memcpy(w->out + w->len, s, n);
	w->len += n;
}

static void puts_z(struct writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void put_field(struct writer *w, const struct httpreq_header *h)
{
	put(w, h->name, h->name_len);
	put(w, ": ", 2);
	put(w, h->value, h->value_len);
	put(w, "\r\n", 2);
}

static bool extra_ok(const struct httpreq_header *h)
{
	if (!h->name || !all_tchar(h->name, h->name_len))
		return false;
	if (h->value_len && !h->value)
		return false;
	for (size_t i = 0; i < h->value_len; i++)
		if (!is_value_byte((unsigned char)h->value[i]))
			return false;
	return true;
}

enum cordon_err httpreq_write_origin(const struct httpreq_req *r, unsigned strip,
				const struct httpreq_header *extra, size_t nextra,
				char *out, size_t cap, size_t *len)
{
	struct writer w = { out, out ? cap : 0, 0 };
	const struct httpreq_header *host = NULL;
	char port[8];

	*len = 0;
	if (r->status != HTTPREQ_DONE || r->form != HTTPREQ_FORM_ABSOLUTE)
		return CORDON_E_INVAL;
	for (size_t i = 0; i < nextra; i++)
		if (!extra_ok(&extra[i]))
			return CORDON_E_INVAL;

	put(&w, r->method, r->method_len);
	put(&w, " ", 1);
	if (r->path_len == 0 || r->path[0] != '/')
		put(&w, "/", 1);
	put(&w, r->path, r->path_len);
	puts_z(&w, r->version_minor ? " HTTP/1.1\r\nHost: " :
				      " HTTP/1.0\r\nHost: ");
	for (size_t i = 0; i < nextra && !host; i++)
		if (eq_views(extra[i].name, extra[i].name_len, "host", 4))
			host = &extra[i];
	if (host) {
		put(&w, host->value, host->value_len);
	} else if (r->host.kind == HTTPREQ_HOST_IPV6) {
		put(&w, "[", 1);
		puts_z(&w, r->host.text);
		put(&w, "]", 1);
	} else {
		puts_z(&w, r->host.text);
	}
	if (r->port_given && !host) {
		int n = snprintf(port, sizeof(port), ":%u", (unsigned)r->port);

		if (n < 0 || (size_t)n >= sizeof(port))
			return CORDON_E_INVAL;
		put(&w, port, (size_t)n);
	}
	put(&w, "\r\n", 2);

	for (size_t i = 0; i < r->nfields; i++) {
		struct httpreq_header h = httpreq_header_at(r, i);
		bool drop = in_list(&h, hop_by_hop,
				    sizeof(hop_by_hop) / sizeof(hop_by_hop[0]));

		if (!drop && (strip & HTTPREQ_STRIP_CREDENTIALS))
			drop = in_list(&h, credentials,
				       sizeof(credentials) /
					       sizeof(credentials[0]));
		if (!drop && (strip & HTTPREQ_STRIP_ENCODING))
			drop = in_list(&h, encodings,
				       sizeof(encodings) / sizeof(encodings[0]));
		for (size_t j = 0; !drop && j < nextra; j++)
			drop = eq_views(h.name, h.name_len, extra[j].name,
					extra[j].name_len);
		if (!drop)
			drop = named_by_connection(r, &h);
		if (!drop)
			put_field(&w, &h);
	}
	for (size_t i = 0; i < nextra; i++)
		if (&extra[i] != host)
			put_field(&w, &extra[i]);
	put(&w, "\r\n", 2);

	*len = w.len;
	return w.len <= w.cap ? CORDON_OK : CORDON_E_LIMIT;
}
