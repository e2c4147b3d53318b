/* socks5: greetings, CONNECT with each address type, refused commands,
 * truncated and garbage input, reply bytes. Every case is run whole, byte
 * by byte and in 3-byte chunks, and the three must agree. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "socks5.h"
#include "tap.h"

#define B(...)                                                                 \
	(const uint8_t[]){ __VA_ARGS__ },                                      \
		sizeof((const uint8_t[]){ __VA_ARGS__ })

/* What a client sees: every reply sent, the final status, the target. */
struct run {
	enum socks5_status st;
	uint8_t sent[64];
	size_t sent_len;
	size_t used; /* bytes consumed in total */
	const char *reason;
	char host[300];
	enum httpreq_host_kind kind;
	uint16_t port;
};

/* Drives c over in[0..len) in chunks of chunk bytes (0: whole), as the
 * proxy would: after SOCKS5_METHOD it sends the reply and goes on with the
 * rest of the chunk. */
static struct run drive(const uint8_t *in, size_t len, size_t chunk)
{
	struct socks5_conn c;
	struct run r;
	size_t off = 0;

	memset(&r, 0, sizeof(r));
	socks5_init(&c);
	r.st = SOCKS5_MORE;
	while (off < len) {
		size_t n = chunk && len - off > chunk ? chunk : len - off;
		size_t pos = 0;

		while (pos < n) {
			size_t used = 0;

			r.st = socks5_feed(&c, in + off + pos, n - pos, &used);
			pos += used;
			r.used += used;
			if (c.reply_len &&
			    r.sent_len + c.reply_len <= sizeof(r.sent)) {
				memcpy(r.sent + r.sent_len, c.reply,
				       c.reply_len);
				r.sent_len += c.reply_len;
			}
			if (r.st != SOCKS5_METHOD)
				break;
		}
		off += n;
		if (r.st == SOCKS5_REQUEST || r.st == SOCKS5_ERROR)
			break;
	}
	r.reason = c.reason;
	if (r.st == SOCKS5_REQUEST) {
		snprintf(r.host, sizeof(r.host), "%s", c.host.text);
		r.kind = c.host.kind;
		r.port = c.port;
	}
	return r;
}

static bool same(const struct run *a, const struct run *b)
{
	return a->st == b->st && a->sent_len == b->sent_len &&
	       memcmp(a->sent, b->sent, a->sent_len) == 0 &&
	       a->reason == b->reason && strcmp(a->host, b->host) == 0 &&
	       a->port == b->port && a->used == b->used;
}

/* Runs in whole, byte by byte and in chunks of 3; checks agreement and
 * returns the whole run. */
static struct run check(const uint8_t *in, size_t len, const char *name)
{
	struct run w = drive(in, len, 0);
	struct run b = drive(in, len, 1);
	struct run c = drive(in, len, 3);

	ok(same(&w, &b) && same(&w, &c), "%s: split feeds agree", name);
	return w;
}

static bool sent_is(const struct run *r, const uint8_t *want, size_t len)
{
	return r->sent_len == len && memcmp(r->sent, want, len) == 0;
}

#define GREET 5, 1, 0
#define OKR 5, 0
#define FAIL(code) 5, code, 0, 1, 0, 0, 0, 0, 0, 0

static void test_greeting(void)
{
	struct run r;

	r = check(B(5, 1, 0), "greeting with no-auth");
	ok(r.st == SOCKS5_METHOD && sent_is(&r, B(OKR)),
	   "no-auth chosen: SOCKS5_METHOD, 05 00 sent");
	r = check(B(5, 3, 2, 1, 0), "greeting offering three methods");
	ok(r.st == SOCKS5_METHOD && sent_is(&r, B(OKR)),
	   "no-auth chosen among user/pass and GSSAPI");
	r = check(B(5, 2, 2, 1), "greeting without no-auth");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(5, 0xff)) &&
		   strstr(r.reason, "no acceptable"),
	   "without no-auth: 05 FF and the end");
	r = check(B(5, 0), "greeting with zero methods");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(5, 0xff)), "zero methods: 05 FF");
	r = check(B(4, 1, 0, 80, 127, 0, 0, 1, 0), "a SOCKS4 request");
	ok(r.st == SOCKS5_ERROR && r.sent_len == 0 && strstr(r.reason, "version 5"),
	   "SOCKS4: closed without a reply");
	r = check((const uint8_t *)"GET / HTTP/1.1\r\n\r\n", 18,
		  "HTTP on the SOCKS port");
	ok(r.st == SOCKS5_ERROR && r.sent_len == 0, "HTTP: closed, no reply");
	r = check(B(5), "truncated greeting");
	ok(r.st == SOCKS5_MORE && r.sent_len == 0, "one byte: waiting");
	r = check(B(5, 3, 1, 2), "greeting missing a method byte");
	ok(r.st == SOCKS5_MORE && r.sent_len == 0, "short method list: waiting");
	{
		uint8_t g[2 + 255];

		g[0] = 5;
		g[1] = 255;
		memset(g + 2, 0x80, 255);
		g[2 + 254] = 0;
		r = check(g, sizeof(g), "255 methods");
		ok(r.st == SOCKS5_METHOD && sent_is(&r, B(OKR)),
		   "255 methods, no-auth last: accepted");
	}
}

static void test_connect(void)
{
	struct run r;

	r = check(B(GREET, 5, 1, 0, 3, 11, 'e', 'x', 'a', 'm', 'p', 'l', 'e',
		    '.', 'c', 'o', 'm', 0x01, 0xbb),
		  "CONNECT example.com:443 pipelined with the greeting");
	ok(r.st == SOCKS5_REQUEST && r.kind == HTTPREQ_HOST_NAME &&
		   strcmp(r.host, "example.com") == 0 && r.port == 443,
	   "domain CONNECT parsed: example.com:443");
	ok(sent_is(&r, B(OKR)), "only the method reply was sent");
	is_int((long long)r.used, 3 + 4 + 1 + 11 + 2, "all bytes consumed");

	r = check(B(GREET, 5, 1, 0, 3, 11, 'g', 'i', 't', 'h', 'u', 'b', '.',
		    'c', 'o', 'm', '.', 0, 22, 'S', 'S', 'H'),
		  "CONNECT with early tunnel data");
	ok(r.st == SOCKS5_REQUEST && strcmp(r.host, "github.com.") == 0 &&
		   r.port == 22,
	   "trailing dot kept, port 22");
	is_int((long long)r.used, 3 + 4 + 1 + 11 + 2,
	       "early tunnel data is not consumed");

	r = check(B(GREET, 5, 1, 0, 1, 93, 184, 216, 34, 0, 80),
		  "CONNECT IPv4");
	ok(r.st == SOCKS5_REQUEST && r.kind == HTTPREQ_HOST_IPV4 &&
		   strcmp(r.host, "93.184.216.34") == 0 && r.port == 80,
	   "IPv4 CONNECT accepted as an IPv4 host");
	r = check(B(GREET, 5, 1, 0, 4, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0,
		    0, 0, 0, 0, 0, 1, 0x1f, 0x90),
		  "CONNECT IPv6");
	ok(r.st == SOCKS5_REQUEST && r.kind == HTTPREQ_HOST_IPV6 &&
		   strcmp(r.host, "2001:db8::1") == 0 && r.port == 8080,
	   "IPv6 CONNECT accepted, canonical text");
	r = check(B(GREET, 5, 1, 0, 3, 9, '1', '2', '7', '.', '0', '.', '0',
		    '.', '1', 0, 22),
		  "CONNECT to a domain that is an IPv4 literal");
	ok(r.st == SOCKS5_REQUEST && r.kind == HTTPREQ_HOST_IPV4,
	   "an address spelt as a name is judged as an address");
}

static void test_refusals(void)
{
	struct run r;

	r = check(B(GREET, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0), "BIND");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(7))) &&
		   strstr(r.reason, "BIND"),
	   "BIND: reply 07 command not supported");
	r = check(B(GREET, 5, 3, 0, 1, 0, 0, 0, 0, 0, 0), "UDP ASSOCIATE");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(7))) &&
		   strstr(r.reason, "UDP"),
	   "UDP ASSOCIATE: reply 07");
	r = check(B(GREET, 5, 9), "unknown command");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(7))),
	   "unknown command refused as soon as the byte arrives");
	r = check(B(GREET, 5, 1, 0, 2, 1, 2, 3), "ATYP 2");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(8))),
	   "unknown address type: reply 08");
	r = check(B(GREET, 4, 1, 0, 1), "request version 4");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(1))),
	   "request version not 5: reply 01");
	r = check(B(GREET, 5, 1, 1, 1), "reserved byte set");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(1))),
	   "reserved byte not zero: reply 01");
	r = check(B(GREET, 5, 1, 0, 3, 0, 0, 80), "empty domain");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(1))) &&
		   strstr(r.reason, "empty"),
	   "empty domain: reply 01");
	r = check(B(GREET, 5, 1, 0, 3, 13, 'o', 'k', '.', 'c', 'o', 'm', 0, 'e',
		    'v', 'i', 'l', '.', 'x', 0, 80),
		  "NUL inside the domain");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(1))),
	   "a NUL inside the name is refused");
	r = check(B(GREET, 5, 1, 0, 3, 5, '1', '2', '7', '.', '1', 0, 80),
		  "numeric name");
	ok(r.st == SOCKS5_ERROR && strstr(r.reason, "numeric"), "127.1 is refused");
	r = check(B(GREET, 5, 1, 0, 3, 3, 'a', '/', 'b', 0, 80),
		  "slash in the name");
	ok(r.st == SOCKS5_ERROR, "a '/' in the name is refused");
	r = check(B(GREET, 5, 1, 0, 3, 1, 'a', 0, 0), "port 0");
	ok(r.st == SOCKS5_ERROR && sent_is(&r, B(OKR, FAIL(1))) &&
		   strstr(r.reason, "port 0"),
	   "port 0: reply 01");
	r = check(B(GREET, 5, 1, 0, 3, 200, 'a', 'b'), "truncated domain");
	ok(r.st == SOCKS5_MORE && sent_is(&r, B(OKR)),
	   "a truncated name waits for more");
	r = check(B(GREET, 5, 1, 0, 1, 10, 0, 0), "truncated IPv4");
	ok(r.st == SOCKS5_MORE, "a truncated address waits for more");
	{
		uint8_t req[3 + 5 + 255 + 2];

		memcpy(req, B(GREET));
		memcpy(req + 3, B(5, 1, 0, 3, 255));
		memset(req + 8, 'a', 255);
		req[8 + 63] = '.';
		req[8 + 127] = '.';
		req[8 + 191] = '.';
		req[8 + 255] = 0;
		req[8 + 256] = 80;
		r = check(req, sizeof(req), "255-byte name");
		ok(r.st == SOCKS5_ERROR && strstr(r.reason, "253"),
		   "a 255-byte name is longer than a DNS name");
	}
}

static void test_sticky(void)
{
	struct socks5_conn c;
	size_t used = 1;

	socks5_init(&c);
	is_int(socks5_feed(&c, B(5, 1, 0), &used), SOCKS5_METHOD, "greeting");
	is_int(socks5_feed(&c, B(5, 1, 0, 3, 1, 'a', 0, 80), &used), SOCKS5_REQUEST,
	       "request");
	is_int(socks5_feed(&c, B(1, 2, 3), &used), SOCKS5_REQUEST,
	       "after the request, feeding stays SOCKS5_REQUEST");
	is_int((long long)used, 0, "and uses nothing");
	is_int((long long)c.reply_len, 0, "no stale reply left to send");
	socks5_init(&c);
	is_int(socks5_feed(&c, B(9), &used), SOCKS5_ERROR, "garbage");
	is_int(socks5_feed(&c, B(5, 1, 0), &used), SOCKS5_ERROR, "stays an error");
	is_int(socks5_feed(&c, NULL, 0, &used), SOCKS5_ERROR,
	       "an empty feed changes nothing");
}

static void test_replies(void)
{
	uint8_t out[SOCKS5_REPLY_MAX];
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	size_t n;

	n = socks5_reply_build(out, SOCKS5_REP_NOT_ALLOWED, NULL);
	ok(n == 10 && memcmp(out, B(5, 2, 0, 1, 0, 0, 0, 0, 0, 0)) == 0,
	   "not allowed by ruleset: 05 02 00 01 0.0.0.0:0");
	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	a4.sin_port = htons(40000);
	inet_pton(AF_INET, "10.1.2.3", &a4.sin_addr);
	n = socks5_reply_build(out, SOCKS5_REP_SUCCEEDED, (const struct sockaddr *)&a4);
	ok(n == 10 && memcmp(out, B(5, 0, 0, 1, 10, 1, 2, 3, 0x9c, 0x40)) == 0,
	   "success with an IPv4 bound address");
	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	a6.sin6_port = htons(443);
	inet_pton(AF_INET6, "2001:db8::7", &a6.sin6_addr);
	n = socks5_reply_build(out, SOCKS5_REP_SUCCEEDED, (const struct sockaddr *)&a6);
	ok(n == 22 && out[3] == 4 && out[4] == 0x20 && out[19] == 7 &&
		   out[20] == 1 && out[21] == 0xbb,
	   "success with an IPv6 bound address");
	n = socks5_reply_build(out, SOCKS5_REP_HOST_UNREACHABLE, NULL);
	ok(n == 10 && out[1] == 4, "host unreachable");
}

int main(void)
{
	tap_no_plan();
	test_greeting();
	test_connect();
	test_refusals();
	test_sticky();
	test_replies();
	return tap_done();
}
