/* Fuzz target: the input is what a SOCKS5 client sends, fed to socks5_feed
 * once whole and once in chunks of pseudo-random sizes drawn from a
 * generator seeded by the input, continuing after SOCKS5_METHOD as the proxy
 * does. Both runs must send the same replies, end in the same status with
 * the same reason, consume the same bytes and, for a request, name the
 * same host and port. A parsed request must have a host and a non-zero
 * port; every reply must be a well-formed SOCKS5 message. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "socks5.h"

#include "banned.h"

struct run {
	enum socks5_status st;
	uint8_t sent[64];
	size_t sent_len, used;
	const char *reason;
	struct httpreq_host host;
	uint16_t port;
};

static size_t next_chunk(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return 1 + (size_t)(*s % 9);
}

static void check_reply(const struct socks5_conn *c, enum socks5_status st)
{
	if (c->reply_len == 0)
		return;
	if (c->reply[0] != 5)
		abort();
	if (c->reply_len == 2) {
		if (!(st == SOCKS5_METHOD && c->reply[1] == 0) &&
		    !(st == SOCKS5_ERROR && c->reply[1] == 0xff))
			abort();
		return;
	}
	if (st != SOCKS5_ERROR || c->reply_len != 10 || c->reply[1] == 0 ||
	    c->reply[3] != 1)
		abort();
}

static struct run drive(const uint8_t *data, size_t size, uint64_t *rng)
{
	struct socks5_conn c;
	struct run r;
	size_t off = 0;

	memset(&r, 0, sizeof(r));
	socks5_init(&c);
	r.st = SOCKS5_MORE;
	while (off < size) {
		size_t n = size - off, u = 0;

		size_t want = rng ? next_chunk(rng) : n;

		if (want < n)
			n = want;
		r.st = socks5_feed(&c, data + off, n, &u);
		if (u > n || (r.st == SOCKS5_MORE && u != n))
			abort();
		check_reply(&c, r.st);
		if (r.sent_len + c.reply_len > sizeof(r.sent))
			abort();
		memcpy(r.sent + r.sent_len, c.reply, c.reply_len);
		r.sent_len += c.reply_len;
		r.used += u;
		off += u;
		if (r.st == SOCKS5_REQUEST || r.st == SOCKS5_ERROR)
			break;
	}
	r.reason = c.reason;
	if (r.st == SOCKS5_ERROR && !r.reason)
		abort();
	if (r.st == SOCKS5_REQUEST) {
		if (c.host.kind == HTTPREQ_HOST_NONE || c.port == 0 ||
		    !memchr(c.host.text, '\0', sizeof(c.host.text)) ||
		    c.host.text[0] == '\0')
			abort();
		r.host = c.host;
		r.port = c.port;
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	struct run a, b;

	for (size_t i = 0; i < size; i++)
		rng = (rng ^ data[i]) * 1099511628211ull;
	rng |= 1;
	a = drive(data, size, NULL);
	b = drive(data, size, &rng);
	if (a.st != b.st || a.sent_len != b.sent_len ||
	    memcmp(a.sent, b.sent, a.sent_len) != 0 || a.reason != b.reason ||
	    a.used != b.used || a.port != b.port ||
	    a.host.kind != b.host.kind || strcmp(a.host.text, b.host.text) != 0)
		abort();
	return 0;
}
