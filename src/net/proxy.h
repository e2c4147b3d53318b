/* proxy — the egress proxy: HTTP CONNECT, plain-HTTP forward requests and
 * SOCKS5 CONNECT on one port, all judged by the same policy.
 *
 * Single-threaded and event-driven (epoll, nonblocking sockets); the only
 * other threads run one getaddrinfo() each (resolve.h), so a slow lookup
 * never stalls the loop. Lookups are bounded: PROXY_LOOKUPS_MAX at once,
 * PROXY_LOOKUPS_PER_CLIENT for one client address, a lookup whose client
 * left still counting for that client until it ends; a request waiting for
 * a slot is dropped when its client leaves (while its name is looked up, a
 * client that half-closes counts as gone). A connection goes through:
 *   head       the first byte picks the protocol (0x05: SOCKS5, else
 *              HTTP); the head is parsed incrementally (httpreq.h,
 *              socks5.h); parser errors answer their status and close;
 *   decision   hostlist.h (allow/deny lists); a denial answers 403 (SOCKS:
 *              reply 0x02) naming the target and the rule;
 *   resolve    a name is resolved once (a --resolve override, else a
 *              getaddrinfo in its own thread); every address in a denied class
 *              (netaddr.h, with this host's interface addresses and the
 *              extra ranges) is dropped, unless the host is an IP literal
 *              the allow-list names; none left: 403 blocked-by-address-class;
 *   connect    nonblocking, to the addresses that passed, in order (no
 *              second lookup, so DNS rebinding cannot swap them);
 *   relay      CONNECT and SOCKS: "200 Connection Established" (SOCKS
 *              reply 0x00) and bytes both ways; plain HTTP: the head again
 *              in origin-form (httpreq_write_origin, proxy headers dropped,
 *              "Connection: close" added), Content-Length bytes of body,
 *              then the answer until the upstream closes. Chunked request
 *              bodies get 501. A side is not read while the other side's
 *              pending data is unsent (backpressure); buffers exist only
 *              while data is pending, so an idle tunnel costs a few hundred
 *              bytes. Bulk directions splice through pipes sized to the
 *              traffic, all of them within pipe_budget.
 * Limits: connections (beyond: 503 and close), header bytes (431), the
 * handshake time-out (from accept until the relay starts: a head not
 * complete in time is closed, a lookup or connect not done in time answers
 * 504) and the idle time-out of a relay.
 *
 * Denials answer "HTTP/1.1 403 Forbidden: TARGET RULE" with the header
 * X-Proxy-Error: blocked-by-allowlist, blocked-by-denylist or
 * blocked-by-address-class, and the same words in the body.
 *
 * Control endpoint (optional: proxy_options.control_listen): a second
 * listening socket, served by the same loop, that speaks a small HTTP/1.1
 * API in origin-form (one request per connection, "Connection: close"):
 *   POST /allow   body: one hostlist.h entry as plain text ("example.com",
 *                 "api.example.com:8443", "*.example.org", "[::1]:8080"),
 *                 surrounding whitespace and a final newline ignored, at
 *                 most PROXY_CONTROL_BODY_MAX bytes, Content-Length required.
 *                 Appends it to the allow-list for the life of this px
 *                 only; answers 200 {"added": ENTRY, "canonical": CANON}.
 *                 A bad entry answers 400 with hostlist's reason. A
 *                 granted entry passes the same address guard as a name
 *                 does: an IP literal in a denied class (metadata,
 *                 private, loopback, ...) is refused with 403
 *                 blocked-by-address-class, and a granted literal is
 *                 never trusted past the guard (a configured one is); a
 *                 wildcard over a public suffix ("*.com", "*.co.uk",
 *                 "*.github.io": hostlist_public_suffix with the list at
 *                 public_suffix_list) is refused with 403 too.
 *   GET /status   200 {"allow": [...], "deny": [...], "session": [...]}:
 *                 the effective lists as written (allow includes the
 *                 session additions, which "session" lists again).
 * The control port has its own budget of PROXY_CONTROL_CONNS connections
 * (beyond: 503), so data clients cannot lock the operator out.
 * Every request needs "Authorization: Bearer TOKEN" (control_token,
 * compared in constant time); missing, repeated or wrong: 401 and nothing
 * changes. Other paths 404, other methods 405, a body without
 * Content-Length 411, over the limit 413. The proxy never dials its own
 * control endpoint (a loopback or unspecified address on its port) even
 * when the allow-list would let it.
 *
 * proxy_new() does everything that can fail on configuration (lists, ranges,
 * overrides, the listening socket); proxy_run_once() waits for and handles
 * one batch of events. The library prints nothing: decisions go to
 * on_decision.
 */
#ifndef CORDON_PROXY_H
#define CORDON_PROXY_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"

#define PROXY_MAX_CONNS 10000
#define PROXY_CONNS_CEILING 1000000
#define PROXY_HANDSHAKE_TIMEOUT_MS 10000
#define PROXY_IDLE_TIMEOUT_MS 300000
#define PROXY_MAX_RESOLVE 1024 /* --resolve overrides */
#define PROXY_LOOKUPS_MAX 64 /* name lookups running at once, in all */
#define PROXY_LOOKUPS_PER_CLIENT 16 /* ... for one client address */
#define PROXY_CONTROL_BODY_MAX 4096 /* POST /allow body bytes */
#define PROXY_CONTROL_CONNS 16 /* control connections at once, apart from
				* max_conns */
#define PROXY_PIPE_BUDGET (64u * 1024 * 1024) /* all tunnels' pipes */
#define PROXY_PSL_DEFAULT "/usr/share/publicsuffix/public_suffix_list.dat"
#define PROXY_PSL_MAX (8 * 1024 * 1024) /* bytes of that list */
#define PROXY_CONTROL_TOKEN_MIN 16 /* bytes */
#define PROXY_CONTROL_TOKEN_MAX 1024
#define PROXY_INJECT_SECRET_MAX 4096 /* bytes of an injected secret */
#define PROXY_INJECT_FORMAT_MAX 256 /* bytes of inject_format */

/* One decision, for the audit sink. Strings live during the call only. */
struct proxy_decision {
	const char *proto; /* "connect", "http" or "socks5" */
	const char *host; /* as judged (normalised), or as sent when bad */
	unsigned port;
	bool allowed;
	/* "allowed", "blocked-by-allowlist", "blocked-by-denylist",
	 * "blocked-by-address-class" or "resolve-failed" */
	const char *kind;
	const char *rule; /* the rule in words (hostlist_describe, or the class) */
	const char *addr; /* the address to dial when allowed, else "" */
};

typedef void proxy_decision_fn(void *ctx, const struct proxy_decision *d);

struct proxy_options {
	/* "ADDR:PORT" or "[V6]:PORT" (port 0: any); ignored when
	 * listen_fd >= 0 */
	const char *listen;
	int listen_fd; /* a bound, listening socket to serve (-1: none);
			* px takes it over and closes it in proxy_free */
	const char *const *allow; /* hostlist.h entries */
	size_t nallow;
	const char *const *deny;
	size_t ndeny;
	const char *const *deny_ranges; /* CIDR, netaddr.h */
	size_t ndeny_ranges;
	/* "host:addr": host resolves to addr (repeat for more addresses), no
	 * lookup; like curl --resolve, for tests */
	const char *const *resolve;
	size_t nresolve;
	size_t max_conns; /* 1..PROXY_CONNS_CEILING */
	size_t max_header_bytes; /* httpreq.h limit, 1..HTTPREQ_LIMIT_CEILING */
	unsigned handshake_timeout_ms; /* > 0 */
	unsigned idle_timeout_ms; /* > 0 */
	/* bytes all splice pipes may hold together (0: PROXY_PIPE_BUDGET);
	 * past it tunnels copy through a bounded buffer instead */
	size_t pipe_budget;
	bool skip_own_addresses; /* do not read getifaddrs (tests only) */
	proxy_decision_fn *on_decision; /* may be NULL */
	void *ctx;
	/* The control endpoint: "ADDR:PORT" (port 0: any) or NULL for none.
	 * control_token is required with it: PROXY_CONTROL_TOKEN_MIN to
	 * PROXY_CONTROL_TOKEN_MAX visible ASCII bytes (px keeps a copy and
	 * wipes it in proxy_free). */
	const char *control_listen;
	const char *control_token;
	/* The Public Suffix List for POST /allow's wildcards: NULL reads
	 * PROXY_PSL_DEFAULT when it exists (else only single labels count
	 * as public suffixes); a path given must be readable. */
	const char *public_suffix_list;
	/* Credential injection (optional: inject_host NULL for none). A
	 * plain-HTTP request for http://inject_host/... (port 80, given or
	 * not) is sent to https://inject_host:inject_port with the
	 * certificate checked against inject_host (system trust store plus
	 * inject_cacert), in origin-form with the client's Authorization,
	 * Proxy-Authorization, Cookie and X-Api-Key dropped and
	 * "inject_header: inject_format" added, "%s" replaced by
	 * inject_secret (px keeps a copy and wipes it in proxy_free). The rule
	 * allows inject_host:inject_port by itself (the deny-list still wins;
	 * the address guard still applies). A CONNECT or SOCKS5 request for
	 * inject_host is refused (403 injection-needs-plain-http), as is a
	 * plain request for it on another port; chunked bodies get 501.
	 * The request goes out with Host as inject_host[:inject_port],
	 * Accept-Encoding: identity and no Range/If-Range; TRACE and TRACK
	 * (any case) get 405; every occurrence of the secret in the answer
	 * is masked as it streams (scrub.h).
	 * Other hosts follow the lists as usual. The TLS side of each
	 * injected request runs in its own short-lived thread. */
	const char *inject_host; /* a DNS name */
	const char *inject_secret; /* required with inject_host, 1..4096 */
	const char *inject_header; /* NULL: "Authorization" */
	const char *inject_format; /* NULL: "Bearer %s"; exactly one %s */
	const char *inject_cacert; /* PEM file of extra CAs, or NULL */
	unsigned inject_port; /* 0: 443 */
	/* DANGEROUS, for tests only: lets inject_host resolve to a loopback
	 * address (a --resolve override to a test server). */
	bool inject_allow_loopback;
};

struct px;

/* Fills o with the defaults: listen "127.0.0.1:3128", no fd, empty lists
 * (everything denied), PROXY_* limits, HTTPREQ_MAX_HEADER_BYTES. */
void proxy_options_default(struct proxy_options *o);

/* Builds a proxy and its listening socket. Errors: CORDON_E_CONFIG (a list
 * entry, range, override or listen address; diag says which),
 * CORDON_E_INVAL (a limit out of range), CORDON_E_IO (socket, bind,
 * listen, epoll, threads; diag->sys_errno), CORDON_E_NOMEM. A control
 * endpoint without a valid token is CORDON_E_CONFIG. */
enum cordon_err proxy_new(const struct proxy_options *o, struct px **out,
		       struct cordon_diag *diag);

/* The bound address as "ADDR:PORT" ("[V6]:PORT"); truncated to size. */
const char *proxy_local_addr(const struct px *p, char *buf, size_t size);

/* The control endpoint's bound address, as proxy_local_addr; "" when there
 * is none. */
const char *proxy_control_addr(const struct px *p, char *buf, size_t size);

/* Waits at most timeout_ms (-1: until something happens) for events and
 * handles them, time-outs included. CORDON_E_IO when epoll fails. */
enum cordon_err proxy_run_once(struct px *p, int timeout_ms);

/* Runs until proxy_stop(). */
enum cordon_err proxy_run(struct px *p);

/* Makes proxy_run() return; async-signal-safe (writes an eventfd). */
void proxy_stop(struct px *p);

/* Open client connections right now. */
size_t proxy_conn_count(const struct px *p);

/* Closes every connection and the listening socket. Accepts NULL. */
void proxy_free(struct px *p);

#endif
