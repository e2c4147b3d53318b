/* httpreq: every request form, every framing refusal, the limits at their
 * edges, and the head written again for the upstream. Each table row is
 * parsed whole, byte by byte and in 7-byte chunks, and the three outcomes
 * must agree. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpreq.h"
#include "tap.h"

#define S(lit) lit, sizeof(lit) - 1
#define H(s) s "\r\n\r\n"
#define GET "GET http://example.com/ HTTP/1.1\r\n"

struct row {
	const char *in;
	size_t len;
	int want; /* 0: HTTPREQ_DONE; otherwise the HTTP status of the error */
	const char *reason; /* a piece of err.reason, or NULL */
	enum httpreq_form form; /* HTTPREQ_DONE rows: checked when not NONE */
	const char *host;
	unsigned port;
};

static const struct row rows[] = {
	/* request forms */
	{ S(H("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443")), 0,
	  NULL, HTTPREQ_FORM_AUTHORITY, "example.com", 443 },
	{ S(H("CONNECT [::1]:8080 HTTP/1.1")), 0, NULL, HTTPREQ_FORM_AUTHORITY,
	  "::1", 8080 },
	{ S(H("CONNECT [2001:DB8:0:0::1]:443 HTTP/1.1")), 0, NULL,
	  HTTPREQ_FORM_AUTHORITY, "2001:db8::1", 443 },
	{ S(H("CONNECT 10.0.0.1:22 HTTP/1.0")), 0, NULL, HTTPREQ_FORM_AUTHORITY,
	  "10.0.0.1", 22 },
	{ S(H("CONNECT git.example.org.:22 HTTP/1.1")), 0, NULL,
	  HTTPREQ_FORM_AUTHORITY, "git.example.org.", 22 },
	{ S(H("GET http://example.com/a?b=1 HTTP/1.1\r\nHost: example.com")), 0,
	  NULL, HTTPREQ_FORM_ABSOLUTE, "example.com", 80 },
	{ S(H("GET HTTP://Example.COM:8080 HTTP/1.1")), 0, NULL,
	  HTTPREQ_FORM_ABSOLUTE, "Example.COM", 8080 },
	{ S(H("POST http://[2001:db8::1]:81/x HTTP/1.1")), 0, NULL,
	  HTTPREQ_FORM_ABSOLUTE, "2001:db8::1", 81 },
	{ S(H("GET http://192.0.2.7?q HTTP/1.0")), 0, NULL, HTTPREQ_FORM_ABSOLUTE,
	  "192.0.2.7", 80 },
	{ S(H("GET http://my_host-1.example/ HTTP/1.1")), 0, NULL,
	  HTTPREQ_FORM_ABSOLUTE, "my_host-1.example", 80 },
	{ S(H("GET http://0.0.0.0/ HTTP/1.1")), 0, NULL, HTTPREQ_FORM_ABSOLUTE,
	  "0.0.0.0", 80 },
	{ S(H("GET http://example.com/ HTTP/1.1\r\nX-Empty:")), 0, NULL,
	  HTTPREQ_FORM_ABSOLUTE, "example.com", 80 },
	{ S(H("GET http://example.com/ HTTP/1.1\r\nX-Obs: caf\xc3\xa9")), 0,
	  NULL, HTTPREQ_FORM_ABSOLUTE, "example.com", 80 },

	/* targets refused */
	{ S(H("GET /index.html HTTP/1.1")), 400, "origin-form", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET https://example.com/ HTTP/1.1")), 400, "scheme",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET ftp://example.com/ HTTP/1.1")), 400, "scheme", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET example.com:80 HTTP/1.1")), 400, "absolute-form",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("OPTIONS * HTTP/1.1")), 400, "absolute-form", HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H("connect example.com:443 HTTP/1.1")), 400, "absolute-form",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com HTTP/1.1")), 400, "without a port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com: HTTP/1.1")), 400, "invalid port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:0 HTTP/1.1")), 400, "invalid port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:080 HTTP/1.1")), 400, "invalid port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:65536 HTTP/1.1")), 400, "invalid port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:+443 HTTP/1.1")), 400, "invalid port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:443:1 HTTP/1.1")), 400, "invalid port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT http://example.com/ HTTP/1.1")), 400, "host:port",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT user:pw@example.com:443 HTTP/1.1")), 400, "userinfo",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com@evil.example/ HTTP/1.1")), 400,
	  "userinfo", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http:///x HTTP/1.1")), 400, "empty host", HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H("GET http://example.com/#frag HTTP/1.1")), 400, "request target",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://exa\x80mple.com/ HTTP/1.1")), 400, "request target",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://ex%61mple.com/ HTTP/1.1")), 400, "character in host",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://ex\\ample.com/ HTTP/1.1")), 400, "character in host",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://a..b/ HTTP/1.1")), 400, "empty label", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://.a/ HTTP/1.1")), 400, "empty label", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://a.b../ HTTP/1.1")), 400, "empty label", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://1234567890123456789012345678901234567890123456789012"
	      "345678901234.com/ HTTP/1.1")),
	  400, "label longer", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://127.1/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://0x7f.0.0.1/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://0x7f000001/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://2130706433/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://010.0.0.1/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://1.2.3.4./ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://1.2.3.256/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://a.b.c.0x1/ HTTP/1.1")), 400, "numeric", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://[fe80::1%25eth0]/ HTTP/1.1")), 400, "zone",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://[::1/ HTTP/1.1")), 400, "unclosed", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://[::1]x/ HTTP/1.1")), 400, "junk", HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H("GET http://[1:2:3:4:5:6:7:8:9]/ HTTP/1.1")), 400, "IPv6",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://[v1.x]/ HTTP/1.1")), 400, "IPv6", HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H("GET http://[]/ HTTP/1.1")), 400, "IPv6", HTTPREQ_FORM_NONE, NULL, 0 },

	/* the request line itself */
	{ S(H("GET http://example.com/ HTTP/2.0")), 505, "version",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/ HTTP/1.2")), 505, "version",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/ HTTP/1.10")), 400, "version",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/ http/1.1")), 400, "version",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/ HTTP/1")), 400, "version", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H("GET http://example.com/")), 400, "malformed request line",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET")), 400, "malformed request line", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET  http://example.com/ HTTP/1.1")), 400,
	  "empty request target", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/  HTTP/1.1")), 400, "version",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/ HTTP/1.1 ")), 400, "version",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("G(T http://example.com/ HTTP/1.1")), 400, "method", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H(" GET http://example.com/ HTTP/1.1")), 400, "method",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET\thttp://example.com/ HTTP/1.1")), 400, "method",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S("\r\nGET http://example.com/ HTTP/1.1\r\n\r\n"), 400, "empty line",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S("GET http://example.com/ HTTP/1.1\n\n"), 400, "CRLF", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S("GET http://example.com/ HTTP/1.1\r\n\n"), 400, "CRLF",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S("GET http://example.com/ HTTP/1.1\r\r\n\r\n"), 400, "bare CR",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S("GET http://exa\rmple.com/ HTTP/1.1\r\n\r\n"), 400, "bare CR",
	  HTTPREQ_FORM_NONE, NULL, 0 },

	/* header fields */
	{ S(H(GET "Content-Length : 100")), 400, "whitespace before the colon",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length\t: 100")), 400, "whitespace before the colon",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Host : example.com")), 400, "whitespace before the colon",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X-A: 1\r\n continued")), 400, "obs-fold", HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H(GET "X-A: 1\r\n\tcontinued")), 400, "obs-fold", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H(GET " X-A: 1")), 400, "obs-fold", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X-A: a\0b")), 400, "control byte", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X-A: a\x7f")), 400, "control byte", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X-A: a\x01")), 400, "control byte", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X-A: a\rb")), 400, "bare CR", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X-A")), 400, "without a colon", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET ": v")), 400, "empty header name", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X@A: v")), 400, "header name", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "X\0A: v")), 400, "header name", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Host: a\r\nHost: a")), 400, "duplicate Host", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H(GET "host: a\r\nHOST: b")), 400, "duplicate Host", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H(GET "Connection: content-length")), 400, "framing", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H(GET "Connection: keep-alive, Transfer-Encoding")), 400, "framing",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Connection: close,HOST")), 400, "framing", HTTPREQ_FORM_NONE,
	  NULL, 0 },
	{ S(H(GET "Connection: a b")), 400, "malformed Connection",
	  HTTPREQ_FORM_NONE, NULL, 0 },

	/* framing */
	{ S(H(GET "Content-Length: 100")), 0, NULL, HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length:100")), 0, NULL, HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 0")), 0, NULL, HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 9223372036854775807")), 0, NULL,
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 9223372036854775808")), 400, "too large",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 99999999999999999999999")), 400, "too large",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 100\r\nContent-Length: 100")), 400,
	  "duplicate Content-Length", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 100\r\ncontent-length: 5")), 400,
	  "duplicate Content-Length", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length:  100")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length:\t100")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 100 ")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 100\t")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: +100")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: -1")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 0x10")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 1e3")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 0100")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 1,1")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 1 1")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length:")), 400, "malformed Content-Length",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: chunked")), 0, NULL, HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H(GET "Transfer-Encoding:chunked")), 0, NULL, HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H(GET "Transfer-Encoding: Chunked")), 0, NULL, HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(H(GET "Transfer-Encoding: chunked,")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: chunked, identity")), 400,
	  "other than chunked", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: identity, chunked")), 400,
	  "other than chunked", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding:  chunked")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding:\tchunked")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: chunked ")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: x-chunked")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: identity")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: \"chunked\"")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding:")), 400, "other than chunked",
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked")),
	  400, "duplicate Transfer-Encoding", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Content-Length: 5\r\nTransfer-Encoding: chunked")), 400,
	  "with Content-Length", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H(GET "Transfer-Encoding: chunked\r\nContent-Length: 5")), 400,
	  "with Transfer-Encoding", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("GET http://example.com/ HTTP/1.0\r\n"
	      "Transfer-Encoding: chunked")),
	  400, "HTTP/1.0", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:443 HTTP/1.1\r\nContent-Length: 0")), 0,
	  NULL, HTTPREQ_FORM_AUTHORITY, "example.com", 443 },
	{ S(H("CONNECT example.com:443 HTTP/1.1\r\nContent-Length: 5")), 400,
	  "CONNECT with a body", HTTPREQ_FORM_NONE, NULL, 0 },
	{ S(H("CONNECT example.com:443 HTTP/1.1\r\n"
	      "Transfer-Encoding: chunked")),
	  400, "CONNECT with a body", HTTPREQ_FORM_NONE, NULL, 0 },

	/* incomplete heads */
	{ S("GET http://example.com/ HTTP/1.1\r\nHost: x\r\n"), -1, NULL,
	  HTTPREQ_FORM_NONE, NULL, 0 },
	{ S("GET http://example.com/ HTTP/1.1\r"), -1, NULL, HTTPREQ_FORM_NONE, NULL,
	  0 },
	{ S(""), -1, NULL, HTTPREQ_FORM_NONE, NULL, 0 },
};

struct outcome {
	enum httpreq_status st;
	int status;
	const char *reason;
	size_t used;
};

/* Parses in[0..len) in chunks of chunk bytes (0: whole). r is left
 * initialised with the default limits or lim. */
static struct outcome parse(struct httpreq_req *r, const struct httpreq_limits *lim,
			    const char *in, size_t len, size_t chunk)
{
	struct outcome o = { HTTPREQ_MORE, 0, NULL, 0 };
	size_t off = 0;

	if (httpreq_req_init(r, lim) != CORDON_OK) {
		o.st = HTTPREQ_ERROR;
		return o;
	}
	do {
		size_t n = chunk && len - off > chunk ? chunk : len - off;
		size_t used = 0;

		o.st = httpreq_feed(r, in + off, n, &used);
		o.used += used;
		off += n;
	} while (o.st == HTTPREQ_MORE && off < len);
	if (o.st == HTTPREQ_ERROR) {
		o.status = r->err.status;
		o.reason = r->err.reason;
	}
	return o;
}

static bool same(const struct outcome *a, const struct outcome *b)
{
	if (a->st != b->st || a->status != b->status || a->reason != b->reason)
		return false;
	return a->st != HTTPREQ_DONE || a->used == b->used;
}

/* A printable name for a row: control bytes and non-ASCII escaped. */
static void row_name(char *out, size_t cap, size_t i, const char *in,
		     size_t len)
{
	size_t n = (size_t)snprintf(out, cap, "row %zu: ", i);

	for (size_t k = 0; k < len && n + 5 < cap; k++) {
		unsigned char c = (unsigned char)in[k];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[n++] = (char)c;
		else
			n += (size_t)snprintf(out + n, cap - n, "\\x%02x", c);
	}
	out[n < cap ? n : cap - 1] = '\0';
}

static void test_rows(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *w = &rows[i];
		struct httpreq_req r, rb, rc;
		struct outcome whole = parse(&r, NULL, w->in, w->len, 0);
		struct outcome bytes = parse(&rb, NULL, w->in, w->len, 1);
		struct outcome chunks = parse(&rc, NULL, w->in, w->len, 7);
		char name[100];
		bool pass;

		row_name(name, sizeof(name), i, w->in, w->len);
		if (w->want == 0)
			pass = whole.st == HTTPREQ_DONE && whole.used == w->len;
		else if (w->want < 0)
			pass = whole.st == HTTPREQ_MORE && whole.used == w->len;
		else
			pass = whole.st == HTTPREQ_ERROR &&
			       whole.status == w->want &&
			       (!w->reason ||
				strstr(whole.reason, w->reason) != NULL);
		if (pass && whole.st == HTTPREQ_DONE && w->form != HTTPREQ_FORM_NONE)
			pass = r.form == w->form &&
			       strcmp(r.host.text, w->host) == 0 &&
			       r.port == w->port;
		if (!ok(pass, "%s", name))
			diag("st %d status %d reason %s host %s port %u",
			     whole.st, whole.status,
			     whole.reason ? whole.reason : "-", r.host.text,
			     (unsigned)r.port);
		ok(same(&whole, &bytes) && same(&whole, &chunks),
		   "row %zu: byte-at-a-time and 7-byte chunks agree", i);
		httpreq_req_free(&r);
		httpreq_req_free(&rb);
		httpreq_req_free(&rc);
	}
}

/* The results of a complete request, and the bytes after the head left to
 * the caller. */
static void test_results(void)
{
	static const char in[] =
		"POST http://api.example.com:8443/v1/x?y=1 HTTP/1.1\r\n"
		"Host: api.example.com:8443\r\n"
		"content-LENGTH: 4\r\n"
		"Cookie:   a=b  \r\n"
		"X-Dup: 1\r\n"
		"COOKIE: c=d\r\n"
		"\r\n"
		"BODY";
	struct httpreq_req r;
	struct httpreq_header h;
	size_t used = 0, pos = 0, head = sizeof(in) - 1 - 4;

	httpreq_req_init(&r, NULL);
	is_int(httpreq_feed(&r, in, sizeof(in) - 1, &used), HTTPREQ_DONE, "POST parses");
	is_int((long long)used, (long long)head, "the body is not consumed");
	is_int((long long)r.head_len, (long long)head, "head_len");
	ok(r.method_len == 4 && memcmp(r.method, "POST", 4) == 0, "method");
	ok(r.path_len == 9 && memcmp(r.path, "/v1/x?y=1", 9) == 0, "path view");
	is_int(r.form, HTTPREQ_FORM_ABSOLUTE, "absolute-form");
	is_int(r.host.kind, HTTPREQ_HOST_NAME, "host is a name");
	is_int(r.port, 8443, "port");
	ok(r.port_given, "port_given");
	is_int(r.version_minor, 1, "HTTP/1.1");
	ok(r.has_length && r.content_length == 4, "Content-Length 4");
	ok(!r.chunked, "not chunked");
	is_int((long long)httpreq_header_count(&r), 5, "five fields");
	h = httpreq_header_at(&r, 2);
	ok(h.name_len == 6 && memcmp(h.name, "Cookie", 6) == 0 &&
		   h.value_len == 3 && memcmp(h.value, "a=b", 3) == 0,
	   "value has its whitespace trimmed");
	ok(httpreq_header_next(&r, "cookie", &pos, &h) && h.value[0] == 'a',
	   "first cookie found case-insensitively");
	ok(httpreq_header_next(&r, "cookie", &pos, &h) && h.value[0] == 'c',
	   "second cookie (COOKIE) found");
	ok(!httpreq_header_next(&r, "cookie", &pos, &h), "no third cookie");
	pos = 0;
	ok(!httpreq_header_next(&r, "x-missing", &pos, &h), "absent field");
	h = httpreq_header_at(&r, 99);
	ok(h.name == NULL, "out-of-range index gives an empty view");
	is_int(httpreq_feed(&r, "more", 4, &used), HTTPREQ_DONE,
	       "feeding after DONE stays DONE");
	is_int((long long)used, 0, "and uses nothing");
	httpreq_req_free(&r);
	httpreq_req_free(&r);
	httpreq_req_free(NULL);

	/* the IPv4 address is stored too */
	httpreq_req_init(&r, NULL);
	httpreq_feed(&r, S(H("CONNECT 192.0.2.1:443 HTTP/1.1")), NULL);
	ok(r.host.kind == HTTPREQ_HOST_IPV4 && r.host.addr[0] == 192 &&
		   r.host.addr[3] == 1,
	   "IPv4 bytes");
	httpreq_req_free(&r);
	httpreq_req_init(&r, NULL);
	httpreq_feed(&r, S(H("CONNECT [::ffff:10.0.0.1]:443 HTTP/1.1")), NULL);
	ok(r.host.kind == HTTPREQ_HOST_IPV6 && r.host.addr[10] == 0xff &&
		   r.host.addr[12] == 10 &&
		   strcmp(r.host.text, "::ffff:10.0.0.1") == 0,
	   "v4-mapped IPv6 bytes and text");
	httpreq_req_free(&r);

	/* chunked flag; the caller answers 501 in injection mode */
	httpreq_req_init(&r, NULL);
	httpreq_feed(&r, S(H(GET "Transfer-Encoding: chunked")), NULL);
	ok(r.chunked && !r.has_length, "chunked flagged");
	httpreq_req_free(&r);

	/* errors are sticky */
	httpreq_req_init(&r, NULL);
	is_int(httpreq_feed(&r, S("GET /x HTTP/1.1\r\n"), NULL), HTTPREQ_ERROR,
	       "origin-form refused");
	is_int(httpreq_feed(&r, S("\r\n"), &used), HTTPREQ_ERROR, "stays refused");
	is_int((long long)used, 0, "nothing used after the error");
	httpreq_req_free(&r);
}

static void test_origin_flag(void)
{
	struct httpreq_limits lim;
	struct httpreq_req r;

	httpreq_limits_default(&lim);
	lim.flags = HTTPREQ_ORIGIN_FORM;
	httpreq_req_init(&r, &lim);
	is_int(httpreq_feed(&r, S(H("POST /allow HTTP/1.1\r\nHost: x")), NULL),
	       HTTPREQ_DONE, "origin-form accepted with HTTPREQ_ORIGIN_FORM");
	ok(r.form == HTTPREQ_FORM_ORIGIN && r.path_len == 6 &&
		   memcmp(r.path, "/allow", 6) == 0 &&
		   r.host.kind == HTTPREQ_HOST_NONE,
	   "origin-form path, no host");
	httpreq_req_free(&r);
}

/* A bare CR is refused as soon as the byte after it arrives, without
 * waiting for an LF that may never come: fed a byte at a time, in the
 * request line and in a header, and split right after the CR. */
static void test_bare_cr_early(void)
{
	static const char *const heads[] = {
		"GET http://a/ HTTP/1.1\rX",
		"GET http://a/\r HTTP/1.1",
		"GET http://a/ HTTP/1.1\r\nX-A: 1\r2",
		"GET http://a/ HTTP/1.1\r\nX-A: 1\r\n\r\r",
	};
	struct httpreq_limits lim;

	httpreq_limits_default(&lim);
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		struct httpreq_req r;
		enum httpreq_status st = HTTPREQ_MORE;
		size_t n = strlen(heads[i]);

		httpreq_req_init(&r, &lim);
		for (size_t k = 0; k < n && st == HTTPREQ_MORE; k++)
			st = httpreq_feed(&r, heads[i] + k, 1, NULL);
		ok(st == HTTPREQ_ERROR && r.err.status == 400 &&
			   strcmp(r.err.reason, "bare CR") == 0,
		   "bare CR refused at the byte after it, no LF needed (%zu)",
		   i);
		httpreq_req_free(&r);
	}
}

static char *repeat(const char *head, char c, size_t n, const char *tail)
{
	size_t hl = strlen(head), tl = strlen(tail);
	char *s = malloc(hl + n + tl + 1);

	if (!s)
		abort();
	memcpy(s, head, hl);
	memset(s + hl, c, n);
	memcpy(s + hl + n, tail, tl + 1);
	return s;
}

/* Runs s whole and byte by byte; returns the whole outcome, and checks
 * that the two agree. */
static struct outcome both(const struct httpreq_limits *lim, const char *s,
			   const char *name)
{
	struct httpreq_req r1, r2;
	struct outcome a = parse(&r1, lim, s, strlen(s), 0);
	struct outcome b = parse(&r2, lim, s, strlen(s), 1);

	ok(same(&a, &b), "%s: byte-at-a-time agrees", name);
	httpreq_req_free(&r1);
	httpreq_req_free(&r2);
	return a;
}

static void test_limits(void)
{
	struct httpreq_limits lim = { 64, 128, 3, 0 };
	struct httpreq_req r;
	struct outcome o;
	char *s;
	size_t used;

	/* "GET http://a/" + n + " HTTP/1.1" is 22 + n bytes */
	s = repeat("GET http://a/", 'x', 42, " HTTP/1.1\r\n\r\n");
	o = both(&lim, s, "line of max_line");
	is_int(o.st, HTTPREQ_DONE, "a request line of exactly max_line passes");
	free(s);
	s = repeat("GET http://a/", 'x', 43, " HTTP/1.1\r\n\r\n");
	o = both(&lim, s, "line of max_line + 1");
	ok(o.st == HTTPREQ_ERROR && o.status == 414 && strstr(o.reason, "max_line"),
	   "max_line + 1 gets 414 naming max_line");
	free(s);

	/* an endless line is refused before it is all read */
	httpreq_req_init(&r, &lim);
	s = repeat("GET http://a/", 'x', 100000, "");
	is_int(httpreq_feed(&r, s, strlen(s), &used), HTTPREQ_ERROR,
	       "an endless request line is refused");
	is_int(r.err.status, 414, "with 414");
	ok(r.head.cap <= 1024, "and nothing past the limit was buffered (%zu)",
	   r.head.cap);
	free(s);
	httpreq_req_free(&r);

	/* header bytes: "A: " n "\r\n" "B: b\r\n" "\r\n" is n + 13 */
	s = repeat(GET "A: ", 'a', 114, "\r\nB: b\r\n\r\n");
	o = both(&lim, s, "header bytes under the limit");
	is_int(o.st, HTTPREQ_DONE, "127 header bytes pass");
	free(s);
	s = repeat(GET "A: ", 'a', 115, "\r\nB: b\r\n\r\n");
	o = both(&lim, s, "header bytes at the limit");
	is_int(o.st, HTTPREQ_DONE, "128 header bytes pass");
	free(s);
	s = repeat(GET "A: ", 'a', 116, "\r\nB: b\r\n\r\n");
	o = both(&lim, s, "header bytes over the limit");
	ok(o.st == HTTPREQ_ERROR && o.status == 431 &&
		   strstr(o.reason, "max_header_bytes"),
	   "129 header bytes get 431 naming max_header_bytes");
	free(s);

	o = both(&lim, GET "A: 1\r\nB: 2\r\nC: 3\r\n\r\n", "three fields");
	is_int(o.st, HTTPREQ_DONE, "max_headers fields pass");
	o = both(&lim, GET "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
		 "four fields");
	ok(o.st == HTTPREQ_ERROR && o.status == 431 &&
		   strstr(o.reason, "max_headers"),
	   "max_headers + 1 fields get 431 naming max_headers");

	/* the defaults: 16 KiB of header bytes */
	s = repeat(GET "X: ", 'v', 16384 - 7, "\r\n\r\n");
	o = both(NULL, s, "16 KiB header section");
	is_int(o.st, HTTPREQ_DONE, "exactly 16384 header bytes pass by default");
	free(s);
	s = repeat(GET "X: ", 'v', 16384 - 6, "\r\n\r\n");
	o = both(NULL, s, "16 KiB + 1 header section");
	is_int(o.status, 431, "16385 header bytes get 431 by default");
	free(s);
	s = repeat("GET http://a/", 'x', 8192, " HTTP/1.1\r\n\r\n");
	o = both(NULL, s, "long default line");
	is_int(o.status, 414, "a line over 8192 gets 414 by default");
	free(s);

	/* many fields at the default ceiling of 100 */
	{
		char buf[4096];
		size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", GET);

		for (int i = 0; i < 101; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "F%d: x\r\n", i);
		snprintf(buf + n, sizeof(buf) - n, "\r\n");
		o = both(NULL, buf, "101 fields");
		is_int(o.status, 431, "101 fields get 431 by default");
	}

	lim.max_line = 0;
	is_int(httpreq_req_init(&r, &lim), CORDON_E_INVAL,
	       "a zero limit is refused");
	lim.max_line = (size_t)HTTPREQ_LIMIT_CEILING + 1;
	is_int(httpreq_req_init(&r, &lim), CORDON_E_INVAL,
	       "a limit above the ceiling is refused");
}

/* Writes the head of in for the upstream and compares it with want. */
static void check_write(const char *in, unsigned strip,
			const struct httpreq_header *extra, size_t nextra,
			const char *want, const char *name)
{
	struct httpreq_req r;
	char out[2048];
	size_t len = 0;
	enum cordon_err rc;

	httpreq_req_init(&r, NULL);
	if (httpreq_feed(&r, in, strlen(in), NULL) != HTTPREQ_DONE) {
		ok(0, "%s: the input parses", name);
		httpreq_req_free(&r);
		return;
	}
	rc = httpreq_write_origin(&r, strip, extra, nextra, out, sizeof(out) - 1,
			     &len);
	if (rc == CORDON_OK)
		out[len] = '\0';
	else
		out[0] = '\0';
	is_str(out, want, name);
	httpreq_req_free(&r);
}

static const char client[] = "GET http://api.example.com/v1/x?y=1 HTTP/1.1\r\n"
			     "Host: evil.example\r\n"
			     "User-Agent: t\r\n"
			     "Proxy-Authorization: Basic Zm9v\r\n"
			     "Authorization: Bearer client\r\n"
			     "X-Api-Key: k\r\n"
			     "Cookie: a=b\r\n"
			     "Connection: keep-alive, X-Secret-Hop\r\n"
			     "x-secret-hop: 1\r\n"
			     "Proxy-Connection: keep-alive\r\n"
			     "Keep-Alive: timeout=5\r\n"
			     "TE: trailers\r\n"
			     "Trailer: X-T\r\n"
			     "Upgrade: h2c\r\n"
			     "Content-Length: 3\r\n"
			     "Accept:   */*  \r\n"
			     "\r\n";

static void test_write(void)
{
	static const char secret[] = "Bearer s3cret";
	struct httpreq_header inject = { "Authorization", 13, secret,
				    sizeof(secret) - 1 };
	struct httpreq_header bad = { "X-Bad", 5, "a\r\nInjected: 1", 14 };
	struct httpreq_header badname = { "X Bad", 5, "v", 1 };
	struct httpreq_req r;
	char out[64];
	size_t len = 0, need;

	check_write(client, HTTPREQ_STRIP_CREDENTIALS, &inject, 1,
		    "GET /v1/x?y=1 HTTP/1.1\r\n"
		    "Host: api.example.com\r\n"
		    "User-Agent: t\r\n"
		    "Content-Length: 3\r\n"
		    "Accept: */*\r\n"
		    "Authorization: Bearer s3cret\r\n"
		    "\r\n",
		    "injection: credentials and hop-by-hop stripped, secret "
		    "added");
	check_write(client, 0, NULL, 0,
		    "GET /v1/x?y=1 HTTP/1.1\r\n"
		    "Host: api.example.com\r\n"
		    "User-Agent: t\r\n"
		    "Authorization: Bearer client\r\n"
		    "X-Api-Key: k\r\n"
		    "Cookie: a=b\r\n"
		    "Content-Length: 3\r\n"
		    "Accept: */*\r\n"
		    "\r\n",
		    "plain forward: hop-by-hop stripped, credentials kept");
	check_write(client, 0, &inject, 1,
		    "GET /v1/x?y=1 HTTP/1.1\r\n"
		    "Host: api.example.com\r\n"
		    "User-Agent: t\r\n"
		    "X-Api-Key: k\r\n"
		    "Cookie: a=b\r\n"
		    "Content-Length: 3\r\n"
		    "Accept: */*\r\n"
		    "Authorization: Bearer s3cret\r\n"
		    "\r\n",
		    "an extra field replaces the client's of that name");
	check_write(
		"GET http://[::1]:8080 HTTP/1.0\r\n\r\n", 0, NULL, 0,
		"GET / HTTP/1.0\r\nHost: [::1]:8080\r\n\r\n",
		"empty path becomes '/', IPv6 host bracketed, version kept");
	check_write("GET http://a.example?q=1 HTTP/1.1\r\n"
		    "Transfer-Encoding: chunked\r\n\r\n",
		    0, NULL, 0,
		    "GET /?q=1 HTTP/1.1\r\nHost: a.example\r\n"
		    "Transfer-Encoding: chunked\r\n\r\n",
		    "query-only path gets '/'; Transfer-Encoding kept");
	{
		static const struct httpreq_header inj[] = {
			{ "Authorization", 13, "Bearer S", 8 },
			{ "host", 4, "api.example.com:8443", 20 },
			{ "Accept-Encoding", 15, "identity", 8 },
		};

		check_write("GET http://API.Example.COM.:80/x HTTP/1.1\r\n"
			    "Host: evil.example\r\nAccept-Encoding: gzip\r\n"
			    "Range: bytes=5-\r\nIf-Range: x\r\n"
			    "X-Kept: 1\r\n\r\n",
			    HTTPREQ_STRIP_CREDENTIALS | HTTPREQ_STRIP_ENCODING,
			    inj, 3,
			    "GET /x HTTP/1.1\r\nHost: api.example.com:8443\r\n"
			    "X-Kept: 1\r\nAuthorization: Bearer S\r\n"
			    "Accept-Encoding: identity\r\n\r\n",
			    "an extra Host names the upstream as given, once; "
			    "STRIP_ENCODING drops Accept-Encoding, Range, "
			    "If-Range");
	}

	httpreq_req_init(&r, NULL);
	httpreq_feed(&r, client, sizeof(client) - 1, NULL);
	is_int(httpreq_write_origin(&r, 0, NULL, 0, out, sizeof(out), &len),
	       CORDON_E_LIMIT, "a short buffer is E_LIMIT");
	need = len;
	ok(need > sizeof(out), "and *len says how much is needed (%zu)", need);
	is_int(httpreq_write_origin(&r, 0, NULL, 0, NULL, 0, &len), CORDON_E_LIMIT,
	       "sizing with a NULL buffer");
	is_int((long long)len, (long long)need, "gives the same size");
	is_int(httpreq_write_origin(&r, 0, &bad, 1, NULL, 0, &len), CORDON_E_INVAL,
	       "an extra value with CRLF is refused");
	is_int(httpreq_write_origin(&r, 0, &badname, 1, NULL, 0, &len),
	       CORDON_E_INVAL, "an extra name that is not a token is refused");
	httpreq_req_free(&r);

	httpreq_req_init(&r, NULL);
	httpreq_feed(&r, S(H("CONNECT a.example:443 HTTP/1.1")), NULL);
	is_int(httpreq_write_origin(&r, 0, NULL, 0, NULL, 0, &len), CORDON_E_INVAL,
	       "CONNECT has no origin-form");
	httpreq_req_free(&r);
	httpreq_req_init(&r, NULL);
	httpreq_feed(&r, S("GET http://a.example/ HTTP/1.1\r\n"), NULL);
	is_int(httpreq_write_origin(&r, 0, NULL, 0, NULL, 0, &len), CORDON_E_INVAL,
	       "an unfinished head cannot be written");
	httpreq_req_free(&r);
}

static void test_host_parse(void)
{
	struct httpreq_host h;
	const char *why = NULL;

	ok(httpreq_host_parse(S("localhost"), &h, &why) && h.kind == HTTPREQ_HOST_NAME,
	   "localhost is a name");
	ok(!httpreq_host_parse(S("a\0b.com"), &h, &why) && why,
	   "a NUL inside a name is refused");
	ok(!httpreq_host_parse(S("::1"), &h, &why), "unbracketed IPv6 is refused");
	ok(httpreq_host_parse(S("[::1]"), &h, &why) && h.kind == HTTPREQ_HOST_IPV6,
	   "bracketed IPv6");
	ok(!httpreq_host_parse(S("1.2.3"), &h, &why), "three-part IPv4 refused");
	ok(httpreq_host_parse(S("1.2.3.example"), &h, &why),
	   "numeric labels before a name are fine");
	ok(httpreq_host_parse(S("0xab.example"), &h, &why),
	   "a hex-looking label before a name is fine");
	ok(!httpreq_host_parse(S("example.0xab"), &h, &why),
	   "a hex last label is refused");
	ok(httpreq_host_parse(S("example.0xg"), &h, &why), "0xg is not a number");
	{
		char name[300];

		memset(name, 'a', sizeof(name));
		for (size_t i = 63; i < 253; i += 64)
			name[i] = '.';
		ok(httpreq_host_parse(name, 253, &h, &why),
		   "a 253-byte name passes");
		name[253] = '.';
		ok(httpreq_host_parse(name, 254, &h, &why),
		   "with its trailing dot too");
		name[253] = 'a';
		ok(!httpreq_host_parse(name, 254, &h, &why),
		   "a 254-byte name is refused");
	}
}

int main(void)
{
	tap_no_plan();
	test_rows();
	test_results();
	test_origin_flag();
	test_bare_cr_early();
	test_limits();
	test_write();
	test_host_parse();
	return tap_done();
}
