/* socks5 — the SOCKS5 handshake as a byte-driven state machine (socks5.h).
 *
 * Each phase asks for a fixed number of bytes (need); when buf holds them,
 * step() judges them and either asks for more or finishes. Fields are
 * requested one at a time (version, then count or command ...), so each
 * check runs as soon as its byte arrives, whatever the chunking.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "socks5.h"

#include "banned.h"

enum {
	PH_VER = 0, /* greeting: VER */
	PH_NMETHODS, /* greeting: NMETHODS */
	PH_METHODS, /* greeting: METHODS */
	PH_REQ_VER, /* request: VER */
	PH_REQ_CMD, /* request: CMD */
	PH_REQ_RSV, /* request: RSV */
	PH_REQ_ATYP, /* request: ATYP */
	PH_REQ_DLEN, /* request: length of a domain name */
	PH_REQ_ADDR, /* request: DST.ADDR and DST.PORT */
	PH_DONE,
};

void socks5_init(struct socks5_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->status = SOCKS5_MORE;
	c->phase = PH_VER;
	c->need = 1;
}

size_t socks5_reply_build(uint8_t out[SOCKS5_REPLY_MAX], enum socks5_rep rep,
		      const struct sockaddr *bound)
{
	out[0] = 5;
	out[1] = (uint8_t)rep;
	out[2] = 0;
	if (bound && bound->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a6 =
			(const struct sockaddr_in6 *)(const void *)bound;

		out[3] = 4;
		memcpy(out + 4, &a6->sin6_addr, 16);
		memcpy(out + 20, &a6->sin6_port, 2);
		return 22;
	}
	out[3] = 1;
	if (bound && bound->sa_family == AF_INET) {
		const struct sockaddr_in *a4 =
			(const struct sockaddr_in *)(const void *)bound;

		memcpy(out + 4, &a4->sin_addr, 4);
		memcpy(out + 8, &a4->sin_port, 2);
	} else {
		memset(out + 4, 0, 6);
	}
	return 10;
}

static enum socks5_status refuse(struct socks5_conn *c, enum socks5_rep rep,
			     const char *reason)
{
	c->reply_len = socks5_reply_build(c->reply, rep, NULL);
	c->reason = reason;
	c->status = SOCKS5_ERROR;
	c->phase = PH_DONE;
	return SOCKS5_ERROR;
}

static enum socks5_status ask(struct socks5_conn *c, int phase, size_t need)
{
	c->phase = phase;
	c->need = need;
	return SOCKS5_MORE;
}

/* Fills host from an address of ATYP 1 or 4. */
static void ip_host(struct socks5_conn *c, const uint8_t *a, int family)
{
	struct httpreq_host *h = &c->host;

	memset(h, 0, sizeof(*h));
	h->kind = family == AF_INET ? HTTPREQ_HOST_IPV4 : HTTPREQ_HOST_IPV6;
	memcpy(h->addr, a, family == AF_INET ? 4 : 16);
	/* Cannot fail: the family is valid and the buffer holds 46 bytes. */
	(void)inet_ntop(family, a, h->text, sizeof(h->text));
}

/* buf[0..need) is complete: judge it. */
static enum socks5_status step(struct socks5_conn *c)
{
	const uint8_t *b = c->buf;
	const char *why = NULL;
	size_t alen;

	switch (c->phase) {
	case PH_VER:
		if (b[0] != 5) {
			c->reason = "not SOCKS version 5";
			c->status = SOCKS5_ERROR;
			c->phase = PH_DONE;
			return SOCKS5_ERROR;
		}
		return ask(c, PH_NMETHODS, 2);
	case PH_NMETHODS:
		if (b[1] == 0)
			break;
		return ask(c, PH_METHODS, 2 + (size_t)b[1]);
	case PH_METHODS:
		if (!memchr(b + 2, 0x00, b[1]))
			break;
		c->reply[0] = 5;
		c->reply[1] = 0;
		c->reply_len = 2;
		c->have = 0;
		ask(c, PH_REQ_VER, 1);
		return SOCKS5_METHOD;
	case PH_REQ_VER:
		if (b[0] != 5)
			return refuse(c, SOCKS5_REP_GENERAL_FAILURE,
				      "request is not SOCKS version 5");
		return ask(c, PH_REQ_CMD, 2);
	case PH_REQ_CMD:
		if (b[1] != 1)
			return refuse(c, SOCKS5_REP_CMD_NOT_SUPPORTED,
				      b[1] == 2 ? "BIND is not supported" :
				      b[1] == 3 ? "UDP ASSOCIATE is not "
						  "supported" :
						  "unknown command");
		return ask(c, PH_REQ_RSV, 3);
	case PH_REQ_RSV:
		if (b[2] != 0)
			return refuse(c, SOCKS5_REP_GENERAL_FAILURE,
				      "reserved byte is not zero");
		return ask(c, PH_REQ_ATYP, 4);
	case PH_REQ_ATYP:
		c->atyp = b[3];
		if (b[3] == 1)
			return ask(c, PH_REQ_ADDR, 4 + 4 + 2);
		if (b[3] == 4)
			return ask(c, PH_REQ_ADDR, 4 + 16 + 2);
		if (b[3] == 3)
			return ask(c, PH_REQ_DLEN, 5);
		return refuse(c, SOCKS5_REP_ATYP_NOT_SUPPORTED,
			      "address type not supported");
	case PH_REQ_DLEN:
		if (b[4] == 0)
			return refuse(c, SOCKS5_REP_GENERAL_FAILURE,
				      "empty domain name");
		return ask(c, PH_REQ_ADDR, 5 + (size_t)b[4] + 2);
	case PH_REQ_ADDR:
		alen = c->need - 2;
		c->port = (uint16_t)((b[alen] << 8) | b[alen + 1]);
		if (c->atyp == 1) {
			ip_host(c, b + 4, AF_INET);
		} else if (c->atyp == 4) {
			ip_host(c, b + 4, AF_INET6);
		} else if (!httpreq_host_parse((const char *)b + 5, alen - 5,
					  &c->host, &why)) {
			memset(&c->host, 0, sizeof(c->host));
			return refuse(c, SOCKS5_REP_GENERAL_FAILURE, why);
		}
		if (c->port == 0) {
			memset(&c->host, 0, sizeof(c->host));
			return refuse(c, SOCKS5_REP_GENERAL_FAILURE, "port 0");
		}
		c->status = SOCKS5_REQUEST;
		c->phase = PH_DONE;
		return SOCKS5_REQUEST;
	default:
		return c->status;
	}
	/* The greeting offered no method we accept. */
	c->reply[0] = 5;
	c->reply[1] = 0xff;
	c->reply_len = 2;
	c->reason = "no acceptable authentication method";
	c->status = SOCKS5_ERROR;
	c->phase = PH_DONE;
	return SOCKS5_ERROR;
}

enum socks5_status socks5_feed(struct socks5_conn *c, const void *data, size_t len,
		       size_t *used)
{
	const uint8_t *p = data;
	size_t off = 0;

	if (used)
		*used = 0;
	if (c->status != SOCKS5_MORE)
		return c->status;
	c->reply_len = 0;
	while (off < len) {
		size_t take = c->need - c->have;
		enum socks5_status st;

		if (take > len - off)
			take = len - off;
		memcpy(c->buf + c->have, p + off, take);
		c->have += take;
		off += take;
		if (c->have < c->need)
			break;
		st = step(c);
		if (st != SOCKS5_MORE) {
			if (used)
				*used = off;
			return st;
		}
	}
	if (used)
		*used = off;
	return SOCKS5_MORE;
}
