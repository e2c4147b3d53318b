/* socks5 — the server side of a SOCKS5 (RFC 1928) handshake, parsed
 * incrementally.
 *
 * Pure: no sockets. The proxy hands each chunk it reads to socks5_feed(),
 * which consumes bytes until it has something to say, and returns:
 *   SOCKS5_METHOD   the greeting is parsed and no-auth (0x00) was offered:
 *               send c->reply (05 00), then feed the rest of the chunk
 *               (bytes after *used) and what follows;
 *   SOCKS5_REQUEST  a CONNECT request is parsed: c->host and c->port say where
 *               to; the caller judges it and sends socks5_reply_build(...)
 *               (0x00 with the bound address, 0x02 "connection not allowed
 *               by ruleset" for a denial, 0x04/0x05 when dialling failed);
 *               bytes after *used are early tunnel data;
 *   SOCKS5_MORE     need more bytes;
 *   SOCKS5_ERROR    refused: send c->reply if c->reply_len > 0, then close;
 *               c->reason says why (static text).
 * Any split of the same bytes into chunks gives the same sequence of
 * results, replies and reasons: every check is made as soon as its byte
 * arrives, in the order of the bytes.
 *
 * Greeting: VER 5 (anything else: SOCKS5_ERROR with no reply; a SOCKS4 or
 * HTTP client on the wrong port gets closed), NMETHODS 1-255, METHODS.
 * Only "no authentication" is offered; without 0x00 in the list (or with
 * NMETHODS 0) the reply is 05 FF and the connection ends.
 *
 * Request: VER 5, CMD, RSV 0, ATYP, DST.ADDR, DST.PORT. Only CONNECT (1);
 * BIND (2), UDP ASSOCIATE (3) and unknown commands get reply 0x07 "command
 * not supported". ATYP domain name (3): 1-255 bytes checked by
 * httpreq_host_parse (httpreq.h), so NUL bytes, '%', '/', numeric forms like
 * "127.1" and the like are refused; a name that is an IP literal
 * ("10.0.0.1", "[::1]") comes back with kind IPV4/IPV6 so the policy
 * judges it as an address. ATYP IPv4 (1) and IPv6 (4) are accepted too and
 * come back as IPV4/IPV6 hosts with canonical text: the allow-list takes IP
 * literals and the address guard judges every address, so an address
 * request is no side door. Other ATYPs: reply 0x08 "address type not
 * supported". A wrong VER or RSV, an empty or invalid name, or port 0:
 * reply 0x01 "general failure".
 *
 * The messages have fixed maxima (2 + 255 and 4 + 1 + 255 + 2 bytes), so
 * the state is a fixed buffer: nothing is allocated and nothing to free.
 * Time-outs are the caller's.
 */
#ifndef CORDON_SOCKS5_H
#define CORDON_SOCKS5_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "httpreq.h"

#define SOCKS5_REPLY_MAX 22 /* 4 + 16 (IPv6) + 2 */

enum socks5_status {
	SOCKS5_ERROR = -1,
	SOCKS5_MORE = 0,
	SOCKS5_METHOD = 1,
	SOCKS5_REQUEST = 2,
};

/* RFC 1928 reply codes. */
enum socks5_rep {
	SOCKS5_REP_SUCCEEDED = 0x00,
	SOCKS5_REP_GENERAL_FAILURE = 0x01,
	SOCKS5_REP_NOT_ALLOWED = 0x02, /* connection not allowed by ruleset */
	SOCKS5_REP_NET_UNREACHABLE = 0x03,
	SOCKS5_REP_HOST_UNREACHABLE = 0x04,
	SOCKS5_REP_CONN_REFUSED = 0x05,
	SOCKS5_REP_TTL_EXPIRED = 0x06,
	SOCKS5_REP_CMD_NOT_SUPPORTED = 0x07,
	SOCKS5_REP_ATYP_NOT_SUPPORTED = 0x08,
};

/* The fields above the line are results: host, port, atyp once socks5_feed()
 * returned SOCKS5_REQUEST; reply and reply_len after SOCKS5_METHOD and SOCKS5_ERROR;
 * reason after SOCKS5_ERROR. reply is cleared by the next socks5_feed(): send it
 * before feeding again. The rest is private. */
struct socks5_conn {
	struct httpreq_host host;
	uint16_t port;
	uint8_t atyp; /* as sent: 1, 3 or 4 */
	uint8_t reply[SOCKS5_REPLY_MAX];
	size_t reply_len;
	const char *reason;
	/* ---- private ---- */
	enum socks5_status status;
	int phase;
	size_t have, need;
	uint8_t buf[4 + 1 + 255 + 2];
};

/* Prepares c for a new client connection. */
void socks5_init(struct socks5_conn *c);

/* Feeds data[0..len). *used (may be NULL) gets how many bytes were
 * consumed; the rest of the chunk is to be fed again after SOCKS5_METHOD, and
 * is tunnel data after SOCKS5_REQUEST. After SOCKS5_REQUEST or SOCKS5_ERROR further
 * calls return the same status and use nothing. */
enum socks5_status socks5_feed(struct socks5_conn *c, const void *data, size_t len,
		       size_t *used);

/* Writes a reply to a request into out and returns its length (10 or 22).
 * bound is the address the proxy's outgoing socket is bound to
 * (sockaddr_in or sockaddr_in6, from getsockname), or NULL for 0.0.0.0:0,
 * as in every failure reply. */
size_t socks5_reply_build(uint8_t out[SOCKS5_REPLY_MAX], enum socks5_rep rep,
		      const struct sockaddr *bound);

#endif
