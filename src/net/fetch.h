/* fetch — an SSRF-safe HTTP(S) GET for web tools (`cordon fetch`).
 *
 * fetch_fetch() takes a URL and returns the answer's status, final URL,
 * content type and body, refusing every destination the resolved-address
 * guard of netaddr.h denies. What it does, hop by hop:
 *
 *   URL      "http" or "https" (any case) and "//" only; every other scheme
 *            is refused. Printable ASCII only (no space, no control byte, no
 *            non-ASCII: write the A-label and percent-encode), no '\' (some
 *            parsers read it as '/', which would split one URL into two
 *            different hosts), no userinfo ("user:pw@host" is refused, not
 *            stripped). The fragment is dropped; an empty path is "/".
 *   host     normalised by hostlist_normalize_host(). An IP literal in any
 *            spelling ("127.1", "0x7f000001", "2130706433",
 *            "[::ffff:127.0.0.1]") is parsed and judged by the guard. A name
 *            is resolved once (getaddrinfo, or a resolve override), every
 *            address in a denied class is dropped, and the connection goes
 *            to an address that passed, in the resolver's order: the address
 *            is pinned, there is no second lookup, so DNS rebinding between
 *            check and connect cannot happen. The guard knows this host's own
 *            interface addresses (getifaddrs, gathered on every call) and the
 *            extra denied ranges of the options.
 *   TLS      OpenSSL, TLS 1.2 or later, certificate verified against the
 *            system trust store plus the optional ca_file, SNI and the
 *            hostname check (SSL_set1_host; an IP literal is checked against
 *            the certificate's IP addresses) using the URL's host, never the
 *            pinned address.
 *   request  "GET path HTTP/1.1" with Host, User-Agent FETCH_USER_AGENT,
 *            Accept: any, Accept-Encoding: identity and Connection: close.
 *            No other header is ever sent: no cookies, no Authorization, no
 *            caller-supplied header, so nothing can leak to another origin
 *            on a redirect.
 *   answer   status line "HTTP/1.x NNN reason"; the head (status line and
 *            header lines with their CRLFs) at most FETCH_MAX_HEAD bytes and
 *            FETCH_MAX_HEADERS fields; lines end in CRLF. Framing is refused
 *            when ambiguous, like the request parser (httpreq.h): more than
 *            one Content-Length (even equal), a Content-Length that is not
 *            canonical decimal, Transfer-Encoding with Content-Length, more
 *            than one Transfer-Encoding or one other than "chunked", obs-fold,
 *            a space before ':'. The body is Content-Length bytes, chunked
 *            (chunk-size lines at most FETCH_MAX_CHUNK_LINE bytes, trailers
 *            within FETCH_MAX_HEAD) or up to the close; none for 1xx (skipped,
 *            101 refused), 204 and 304. Over TLS a body that ends by the
 *            peer closing without close_notify is refused unless its
 *            length was known (Content-Length or chunked): the cut could
 *            be an attacker's.
 *   redirect 301, 302, 303, 307 and 308 with a Location are followed (as a
 *            GET), at most max_redirects times; one more is an error naming
 *            the limit. Each hop is checked from the top (scheme, userinfo,
 *            host, guard, pinning). A redirect from https to http is refused.
 *            Relative locations are resolved against the current URL.
 *   limits   a body beyond max_body bytes is cut there and flagged truncated
 *            (not an error: the caller gets what fits); one deadline of
 *            timeout_ms covers every hop, lookups included (a lookup
 *            that hangs is abandoned, resolve.h; a name with a resolve
 *            override does not look up), and each connect also ends at
 *            connect_timeout_ms.
 *            Every wait is a poll() bounded by the deadline.
 *
 * The guard may be told to let through addresses of chosen classes
 * (allow_classes): only for tests, which must reach a server on loopback.
 * It is an explicit, named option, exact (a class is allowed only as itself:
 * allowing "loopback" lets 127.0.0.1 and ::1 through, never a v4-mapped or
 * NAT64 spelling of them, which stay "embedded-ipv4:loopback"), and the CLI
 * flag that sets it is documented as dangerous.
 *
 * Relative redirects are joined to the current URL without removing dot
 * segments ("../"); the server resolves them, and they cannot leave the
 * origin.
 *
 * No global state besides OpenSSL's own initialisation. Writes over TLS go
 * through write(2): the caller should ignore SIGPIPE (cordon fetch does).
 */
#ifndef CORDON_FETCH_H
#define CORDON_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon.h"
#include "netaddr.h"

#define FETCH_USER_AGENT "cordon-fetch/" CORDON_VERSION
#define FETCH_DEFAULT_MAX_REDIRECTS 5
#define FETCH_DEFAULT_MAX_BODY (10u * 1024 * 1024)
#define FETCH_DEFAULT_TIMEOUT_MS 30000u
#define FETCH_DEFAULT_CONNECT_TIMEOUT_MS 10000u
#define FETCH_MAX_REDIRECTS 100 /* no option may be set higher */
#define FETCH_MAX_URL 8192 /* bytes of one URL (given or redirected to) */
#define FETCH_MAX_HEAD 16384 /* status line and header lines, CRLFs included */
#define FETCH_MAX_HEADERS 100
#define FETCH_MAX_CHUNK_LINE 1024
#define FETCH_MAX_RESOLVE 64 /* resolve overrides */
#define FETCH_MAX_ADDRS 64 /* addresses of one name considered */

struct fetch_options {
	unsigned max_redirects; /* 0..FETCH_MAX_REDIRECTS */
	size_t max_body; /* bytes; at least 1 */
	unsigned timeout_ms; /* total, every hop; at least 1 */
	unsigned connect_timeout_ms; /* each connect; at least 1 */
	const char *ca_file; /* extra trusted CAs (PEM), NULL: none */
	/* "host:addr" pairs answering for host instead of the resolver, e.g.
	 * "test.cordon:127.0.0.1", "h.example:[::1]" or "h.example:::1";
	 * several for one host give several addresses. */
	const char *const *resolve;
	size_t nresolve;
	/* Extra denied ranges (netaddr.h CIDR syntax). */
	const char *const *deny_ranges;
	size_t ndeny_ranges;
	/* Bit (1u << NETADDR_CLASS_x) lets addresses of that class through. For
	 * tests only; 0 by default. PUBLIC and INVALID bits are ignored. */
	uint32_t allow_classes;
};

struct fetch_result {
	int status; /* the final answer's status; 0 when there was none */
	char *final_url; /* the URL of the final answer (or of the hop that
			  * failed); malloc'd, may be NULL */
	char *content_type; /* the Content-Type value, NULL when absent */
	unsigned char *body; /* malloc'd, body_len bytes and a NUL after */
	size_t body_len;
	bool truncated; /* the body went past max_body and was cut */
	bool refused; /* failed because a rule refused the URL/address */
	unsigned redirects; /* how many were followed */
	char error[512]; /* why it failed; "" on success */
};

/* Fills o with the defaults above. */
void fetch_options_default(struct fetch_options *o);

/* Fetches url (NUL-terminated) with o (NULL: the defaults) into *r, which is
 * cleared first; release with fetch_result_free() whatever is returned.
 * Returns CORDON_OK when an answer was read (any status: the caller judges
 * it), otherwise an error with r->error saying why, naming the limit, the
 * address and its class ("127.0.0.1 is loopback"):
 *   CORDON_E_INVAL   refused (r->refused): scheme, userinfo, bad host, a
 *                    denied address, https->http; or o is out of range
 *   CORDON_E_LIMIT   too many redirects, a URL or head over its limit
 *   CORDON_E_PARSE   a malformed or ambiguous answer
 *   CORDON_E_IO      lookup, connect, TLS or read failure, or the deadline
 *   CORDON_E_NOMEM   out of memory */
enum cordon_err fetch_fetch(const char *url, const struct fetch_options *o,
			 struct fetch_result *r);

/* Releases what r holds (r may be NULL) and leaves it zeroed. */
void fetch_result_free(struct fetch_result *r);

/* One answer head, as fetch_parse_head() reads it. */
struct fetch_head {
	int status; /* 100..999 */
	int minor; /* HTTP/1.minor: 0 or 1 */
	bool has_length;
	uint64_t length; /* Content-Length, when has_length */
	bool chunked; /* Transfer-Encoding: chunked */
	char *location; /* trimmed Location value, malloc'd, or NULL */
	char *content_type; /* the first Content-Type, trimmed, or NULL */
	size_t len; /* bytes of the head */
};

/* Parses one answer head p[0..len): the status line and header lines, up
 * to and including the empty line that ends the head (len ends just after
 * the first CRLF CRLF). A pure function of its input, with the answer
 * rules above: CRLF line ends only, at most FETCH_MAX_HEAD bytes and
 * FETCH_MAX_HEADERS fields, no obs-fold, one Location at most, unambiguous
 * framing. Returns CORDON_OK, CORDON_E_PARSE (malformed or ambiguous) or
 * CORDON_E_LIMIT (a limit named), CORDON_E_NOMEM, with why in
 * err[0..errlen) ("" on success). *h is cleared first; release it with
 * fetch_head_free() whatever is returned. */
enum cordon_err fetch_parse_head(const char *p, size_t len, struct fetch_head *h,
			      char *err, size_t errlen);

/* Releases what h holds (h may be NULL) and leaves it zeroed. */
void fetch_head_free(struct fetch_head *h);

/* Parses a chunk-size line line[0..len) (its CRLF removed): hex digits,
 * then nothing or ";" and extensions (ignored). *size gets the size (0 on
 * failure). Returns CORDON_OK or CORDON_E_PARSE with why in err. */
enum cordon_err fetch_parse_chunk_size(const char *line, size_t len,
				    uint64_t *size, char *err, size_t errlen);

#endif
