/* httpreq — the head of an HTTP/1.x request to a forward proxy, parsed
 * incrementally and refused at the first ambiguity.
 *
 * Pure: no sockets, no clock, no locale. The proxy reads a client socket in
 * chunks and hands each chunk to httpreq_feed(); the parser copies what belongs
 * to the head into its own buffer (grown on demand, never past the limits)
 * and stops at the blank line that ends it. *used says how many bytes of
 * the chunk were taken: the rest is body or tunnel data and stays with the
 * caller. Any split of the same bytes into chunks gives the same result
 * and the same error, and on HTTPREQ_DONE the same total of *used.
 *
 * Request line: method SP request-target SP version CRLF, single spaces.
 * The method is a token (case-sensitive: "connect" is not CONNECT). The
 * version is "HTTP/1.1" or "HTTP/1.0"; another HTTP/d.d gets 505. Targets
 * are printable ASCII (0x21-0x7e) without '#':
 *   CONNECT host:port       authority-form, only with CONNECT, port required
 *   http://host[:port]/p?q  absolute-form, any other method; scheme "http"
 *                           (any case), port 80 when absent; the path may be
 *                           empty or start with '?'
 *   /p?q                    origin-form, refused (400) unless the limits
 *                           carry HTTPREQ_ORIGIN_FORM (a server, not a proxy)
 * "*", other schemes, userinfo ("user@host"), an empty port, port 0 or a
 * port with leading zeros are refused.
 *
 * Hosts (httpreq_host_parse, also used for SOCKS5 names): "[v6]" an IPv6
 * literal (no zone id; stored canonical, without brackets); a dotted quad
 * with four decimal parts 0-255 and no leading zeros; or a DNS name of
 * labels of [A-Za-z0-9_-], 1-63 bytes each, at most 253 bytes plus one
 * trailing dot. A name whose last label is numeric ("127.1", "0x7f.1",
 * "2130706433", "010.0.0.1", "1.2.3.4.") is refused: resolvers read those
 * as addresses, which would slip past a name-based policy. Names keep their
 * case and trailing dot; normalising them is the policy's job.
 *
 * Lines end in CRLF; a bare LF or CR is refused. No empty line may precede
 * the request line. Header fields: a token name, ':' right after it
 * ("Content-Length : 100" is refused), optional whitespace, a value of
 * visible ASCII, obs-text, SP and HTAB; any other control byte (NUL, CR,
 * LF, DEL ...) is refused, as is a line starting with whitespace (obs-fold).
 *
 * Framing, all 400: more than one Content-Length (even equal), a
 * Content-Length value that is not the canonical decimal (signs, leading
 * zeros, more than one space or any tab before it, anything after it,
 * above 2^63-1); more than one Transfer-Encoding; Transfer-Encoding with
 * Content-Length; a Transfer-Encoding value other than "chunked" (any case)
 * after at most one space ("chunked,", "chunked, identity", "x-chunked",
 * "  chunked", "chunked " are refused); Transfer-Encoding in an HTTP/1.0
 * request; a CONNECT with Transfer-Encoding or a non-zero Content-Length;
 * more than one Host; a Connection header naming Host, Content-Length or
 * Transfer-Encoding (stripping those would change the framing). A chunked
 * body is accepted and flagged (chunked); the proxy answers 501 where it
 * cannot stream one.
 *
 * Limits (struct httpreq_limits, defaults HTTPREQ_MAX_*): the request line without
 * its CRLF (414), all header lines with their CRLFs plus the final CRLF
 * (431), the number of header fields (431). An over-long line is refused
 * as soon as enough of it has arrived, before the rest is read.
 *
 * Errors carry the status to answer (400, 414, 431, 505; 500 when memory
 * ran out), a static reason naming the rule or the limit, and the offset in
 * the head where the faulty line (or byte) starts.
 *
 * Forwarding: httpreq_write_origin() writes the head again for the upstream in
 * origin-form: the request line with the path, "Host:" with the target's
 * authority (the client's Host is dropped: the upstream must see the host
 * the policy judged), the remaining fields in order as "Name: value", the
 * caller's extra fields, and the blank line. Always dropped: Host,
 * Connection, Proxy-Connection, Keep-Alive, TE, Trailer, Upgrade,
 * Proxy-Authorization, Proxy-Authenticate, every field named by a
 * Connection header, and every field named like an extra field (an
 * injected credential replaces the client's). With HTTPREQ_STRIP_CREDENTIALS
 * also Authorization, Cookie and X-Api-Key; with HTTPREQ_STRIP_ENCODING
 * also Accept-Encoding, Range and If-Range. An extra field named Host
 * gives the Host line's value in place of the target's authority (the
 * credential-injection host, named as TLS names it). Transfer-Encoding and
 * Content-Length are kept: the body is forwarded as sent.
 */
#ifndef CORDON_HTTPREQ_H
#define CORDON_HTTPREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cordon.h"

#define HTTPREQ_MAX_LINE 8192 /* request line, without CRLF */
#define HTTPREQ_MAX_HEADER_BYTES 16384 /* field lines and the final CRLF */
#define HTTPREQ_MAX_HEADERS 100 /* field lines */
#define HTTPREQ_LIMIT_CEILING (1u << 24) /* no limit may be set higher */

#define HTTPREQ_HOST_MAX 253 /* a DNS name without its trailing dot */

/* httpreq_limits.flags */
#define HTTPREQ_ORIGIN_FORM 0x1u /* accept origin-form targets */

/* httpreq_write_origin() strip flags */
#define HTTPREQ_STRIP_CREDENTIALS 0x1u /* Authorization, Cookie, X-Api-Key */
#define HTTPREQ_STRIP_ENCODING 0x2u /* Accept-Encoding, Range, If-Range */

struct httpreq_limits {
	size_t max_line;
	size_t max_header_bytes;
	size_t max_headers;
	unsigned flags;
};

enum httpreq_status {
	HTTPREQ_ERROR = -1, /* r->err says why; feeding more changes nothing */
	HTTPREQ_MORE = 0, /* the head is not complete: feed more */
	HTTPREQ_DONE = 1, /* the head is complete: results are valid */
};

enum httpreq_form {
	HTTPREQ_FORM_NONE = 0,
	HTTPREQ_FORM_AUTHORITY = 1, /* CONNECT host:port */
	HTTPREQ_FORM_ABSOLUTE = 2, /* http://host[:port]/path */
	HTTPREQ_FORM_ORIGIN = 3, /* /path, only with HTTPREQ_ORIGIN_FORM */
};

enum httpreq_host_kind {
	HTTPREQ_HOST_NONE = 0,
	HTTPREQ_HOST_NAME = 1,
	HTTPREQ_HOST_IPV4 = 2,
	HTTPREQ_HOST_IPV6 = 3,
};

struct httpreq_host {
	enum httpreq_host_kind kind;
	/* NAME: as sent; IPV4: the dotted quad; IPV6: canonical text
	 * (inet_ntop) without brackets. NUL-terminated. */
	char text[HTTPREQ_HOST_MAX + 2];
	uint8_t addr[16]; /* IPV4: addr[0..4); IPV6: addr[0..16) */
};

struct httpreq_error {
	int status; /* the HTTP status to answer */
	const char *reason; /* static text naming the rule or limit */
	size_t offset; /* where in the head the fault starts */
};

/* A view of one header field (or an extra field for httpreq_write_origin). The
 * value has its surrounding whitespace removed. */
struct httpreq_header {
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
};

struct httpreq_field; /* private */

/* The fields above the line are results: valid once httpreq_feed() returned
 * HTTPREQ_DONE (err: once it returned HTTPREQ_ERROR). Pointers are views into the
 * parser's buffer and live until httpreq_req_free(). The rest is private. */
struct httpreq_req {
	const char *method;
	size_t method_len;
	enum httpreq_form form;
	struct httpreq_host host; /* AUTHORITY, ABSOLUTE; kind NONE for ORIGIN */
	uint16_t port; /* AUTHORITY, ABSOLUTE (80 if absent) */
	bool port_given; /* the target spelt a port */
	const char *path; /* ABSOLUTE, ORIGIN: path and query as sent */
	size_t path_len;
	int version_minor; /* 0 or 1 */
	bool chunked; /* Transfer-Encoding: chunked */
	bool has_length; /* a Content-Length was given */
	uint64_t content_length;
	size_t head_len; /* bytes of the head, final CRLF included */
	struct httpreq_error err;
	/* ---- private ---- */
	struct httpreq_limits lim;
	enum httpreq_status status;
	bool in_headers;
	struct buf head; /* the bytes so far; check_length bounds it */
	size_t line_start, header_bytes;
	size_t meth_off, path_off;
	struct httpreq_field *fields;
	size_t nfields, fields_cap;
};

/* Fills lim with the defaults (HTTPREQ_MAX_*, no flags). */
void httpreq_limits_default(struct httpreq_limits *lim);

/* Prepares r for a new request. lim NULL means the defaults. Every limit
 * must be between 1 and HTTPREQ_LIMIT_CEILING (CORDON_E_INVAL otherwise). Owns
 * nothing until fed; release with httpreq_req_free(). */
enum cordon_err httpreq_req_init(struct httpreq_req *r, const struct httpreq_limits *lim);

/* Releases what r holds (r may be NULL) and leaves it zeroed. */
void httpreq_req_free(struct httpreq_req *r);

/* Feeds data[0..len) (may hold any byte). *used (may be NULL) gets how many
 * bytes of this chunk belong to the head: all of them while HTTPREQ_MORE, up to
 * and including the final LF on HTTPREQ_DONE; on HTTPREQ_ERROR the ones examined
 * (the caller answers r->err and closes). Once DONE or ERROR, further calls
 * return the same status and use nothing. */
enum httpreq_status httpreq_feed(struct httpreq_req *r, const void *data, size_t len,
		       size_t *used);

/* Header fields of a finished request: the count, and the i-th in the
 * order sent (i < count). */
size_t httpreq_header_count(const struct httpreq_req *r);
struct httpreq_header httpreq_header_at(const struct httpreq_req *r, size_t i);

/* Finds the next field named name (ASCII case-insensitive) at or after
 * *pos. On a hit fills *out, sets *pos past it and returns true:
 *	size_t pos = 0; struct httpreq_header h;
 *	while (httpreq_header_next(r, "cookie", &pos, &h)) ...
 */
bool httpreq_header_next(const struct httpreq_req *r, const char *name, size_t *pos,
		    struct httpreq_header *out);

/* Are a[0..alen) and the NUL-terminated b equal, ASCII case-insensitive? */
bool httpreq_name_eq(const char *a, size_t alen, const char *b);

/* Parses a host as it appears in a target (see the head comment) into
 * *out. Returns false with *why (may be NULL) set to a static reason. */
bool httpreq_host_parse(const char *s, size_t len, struct httpreq_host *out,
		   const char **why);

/* Writes the head for the upstream in origin-form (see the head comment)
 * into out[0..cap); *len gets the size it needs, written or not. strip is 0
 * or HTTPREQ_STRIP_* flags. extra[0..nextra) are appended after the client's
 * fields (names must be tokens, values free of control bytes other than
 * HTAB). Returns CORDON_E_INVAL when r is not a finished ABSOLUTE
 * request or an extra field is malformed, CORDON_E_LIMIT when cap is too
 * small (nothing useful is in out; call again with *len bytes). The output
 * is not NUL-terminated. */
enum cordon_err httpreq_write_origin(const struct httpreq_req *r, unsigned strip,
				const struct httpreq_header *extra, size_t nextra,
				char *out, size_t cap, size_t *len);

#endif
