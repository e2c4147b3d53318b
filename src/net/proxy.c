/* proxy — the egress proxy's event loop (see proxy.h). */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "diag.h"
#include "hostlist.h"
#include "httpreq.h"
#include "netaddr.h"
#include "proxy.h"
#include "resolve.h"
#include "scrub.h"
#include "socks5.h"

#include "alloc.h"
#include "atomic.h"
#include "buf.h"
#include "banned.h"

#define IO_CHUNK (64 * 1024) /* one read; also the most a side buffers */
#define MAX_ADDRS RESOLVE_MAX_ADDRS /* addresses kept from one lookup */
#define EVENTS_PER_WAIT 256
#define PIPE_MAX (1024 * 1024) /* the most a pipe grows to */
#define HEAD_READ 4096 /* one read of a head: little early data kept */
#define SPLICE_ROUNDS 4 /* pipe-fulls one event may move: fair to others */

enum ep_kind {
	EP_LISTEN,
	EP_CONTROL,
	EP_STOP,
	EP_LOOKUP, /* a conn's lookup is done */
	EP_ORPHAN, /* a lookup whose conn has gone is done */
	EP_CLIENT,
	EP_UPSTREAM,
};

struct conn;

/* What epoll hands back: a fixed object per fd. */
struct ep {
	enum ep_kind kind;
	struct conn *c;
	int fd;
	uint32_t mask; /* the events registered now */
};

enum conn_state {
	ST_HEAD, /* reading the client's head */
	ST_RESOLVING, /* the name is looked up, or waits for a slot */
	ST_CONNECTING, /* nonblocking connect in flight */
	ST_RELAY, /* bytes both ways */
	ST_CLOSING, /* flushing a final answer to the client */
	ST_DRAIN, /* answer sent: reading what the client still sends */
};

enum conn_proto {
	P_UNKNOWN,
	P_HTTP,
	P_SOCKS,
};

/* Bytes read from one side and not yet written to the other: in a heap
 * buffer, or (for bulk transfers) in a pipe the kernel splices through
 * without copying them into the proxy. */
struct pending {
	char *data;
	size_t off, len;
	int pipe[2]; /* -1: none yet */
	size_t piped; /* bytes in the pipe */
	size_t pipe_cap; /* its size, counted in px->pipe_bytes */
};

/* Parser state, dropped once the relay starts. */
struct handshake {
	struct httpreq_req req;
	struct socks5_conn s5;
	struct httpreq_host host; /* the target as parsed */
	char *origin; /* plain HTTP: the head for the upstream */
	size_t origin_len;
};

struct conn {
	struct px *px;
	struct ep cl, up;
	enum conn_state state;
	enum conn_proto proto;
	bool http_forward; /* plain HTTP: not a tunnel */
	bool inject; /* plain HTTP for the injection rule: TLS upstream */
	bool cl_eof, up_eof; /* read side reached EOF */
	bool cl_shut, up_shut; /* SHUT_WR sent */
	bool dead;
	struct handshake *hs;
	/* the lookup: running (rj, its fd in lk) or waiting for a slot on
	 * the queue (queued); peer is the client's address it counts for */
	struct resolve_job *rj;
	struct ep lk;
	bool queued;
	struct conn *qprev, *qnext;
	struct netaddr_addr peer;
	struct pending to_up, to_cl;
	uint64_t body_left; /* plain HTTP: request body bytes to forward */
	struct netaddr_addr addrs[MAX_ADDRS];
	size_t naddrs, next_addr;
	char host[HTTPREQ_HOST_MAX + 2]; /* as judged, for answers and the audit */
	unsigned port;
	int64_t deadline;
	struct conn *tprev, *tnext; /* the time-out list it is on */
	struct conn *dnext; /* the dead list */
	int tlist; /* -1, 0 handshake, 1 idle */
	/* control endpoint: a POST body being collected */
	bool control;
	char *body;
	size_t body_len, body_want;
};

/* A lookup still running after its conn went away: kept (its fd still
 * watched) only to count against its client until it ends. */
struct orphan {
	struct ep ep;
	struct resolve_job *rj;
	struct netaddr_addr peer;
	struct orphan *prev, *next;
};

/* A client address with lookups running (its own and its orphans). */
struct peer {
	struct netaddr_addr a;
	size_t running;
};

struct override {
	char host[HOSTLIST_MAX_NAME + 1];
	struct netaddr_addr addr;
};

struct tlist {
	struct conn *head, *tail;
};

struct px {
	struct proxy_options opt;
	struct hostlist_policy *policy;
	struct netaddr_guard *guard;
	struct override *ovr;
	size_t novr;
	int epfd;
	struct ep lst, stop;
	bool accept_paused;
	bool stopping;
	bool freeing; /* in proxy_free: start no lookup */
	bool kicking; /* in lookup_kick */
	size_t nconns; /* data connections */
	size_t pipe_bytes, pipe_budget; /* all pipes' sizes, and their bound */
	size_t nctl; /* control connections */
	struct tlist tl[2];
	struct conn *dead;
	char *scratch;
	/* lookups: running ones per client (at most PROXY_LOOKUPS_MAX
	 * entries, since each has one running), the conns waiting for a
	 * slot, the orphans and those to free after this batch */
	struct peer peers[PROXY_LOOKUPS_MAX];
	size_t npeers, lookups;
	struct conn *wq_head, *wq_tail;
	struct orphan *orphans, *dead_orphans;
	struct sockaddr_storage local;
	socklen_t local_len;
	/* the control endpoint */
	struct ep ctl;
	char *token;
	size_t token_len;
	size_t nallow_base; /* allow entries before the session's */
	struct sockaddr_storage ctl_local;
	socklen_t ctl_local_len;
	unsigned ctl_port;
	struct buf psl; /* the Public Suffix List's text, or empty */
	/* credential injection */
	char *inj_host; /* lower case, no trailing dot; NULL: no rule */
	char *inj_name; /* the header's name */
	char *inj_value; /* the header's value, secret included */
	size_t inj_value_len;
	size_t inj_secret_off, inj_secret_len; /* the secret in inj_value */
	char *inj_authority; /* Host for the upstream: host[:port] */
	unsigned inj_port;
	SSL_CTX *inj_ctx;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- addresses --------------------------------------------------------- */

static socklen_t to_sockaddr(const struct netaddr_addr *a, unsigned port,
			     struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == NETADDR_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		memcpy(&s4->sin_addr, a->b, 4);
		return sizeof(*s4);
	}
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	s6->sin6_family = AF_INET6;
	s6->sin6_port = htons((uint16_t)port);
	memcpy(&s6->sin6_addr, a->b, 16);
	return sizeof(*s6);
}

/* Reads this host's interface addresses into the guard. */
static enum cordon_err load_own(struct px *p, struct cordon_diag *diag)
{
	struct ifaddrs *ifa, *i;
	struct netaddr_addr *v;
	size_t n = 0, cap = 0;
	enum cordon_err e;

	if (getifaddrs(&ifa) != 0) {
		diag_errno(diag, CORDON_E_IO, errno,
			   "getifaddrs: cannot list this host's addresses");
		return CORDON_E_IO;
	}
	for (i = ifa; i; i = i->ifa_next)
		cap++;
	if (cap > NETADDR_MAX_OWN)
		cap = NETADDR_MAX_OWN;
	v = cordon__calloc(cap ? cap : 1, sizeof(*v));
	if (!v) {
		freeifaddrs(ifa);
		return CORDON_E_NOMEM;
	}
	for (i = ifa; i && n < cap; i = i->ifa_next)
		if (i->ifa_addr && netaddr_from_sockaddr(i->ifa_addr, &v[n]))
			n++;
	freeifaddrs(ifa);
	e = netaddr_guard_set_own(p->guard, v, n, diag);
	free(v);
	return e;
}

/* Parses the --resolve overrides "host:addr". */
static enum cordon_err load_overrides(struct px *p, struct cordon_diag *diag)
{
	const struct proxy_options *o = &p->opt;

	if (o->nresolve > PROXY_MAX_RESOLVE) {
		diag_errno(diag, CORDON_E_LIMIT, 0,
			   "more than %s resolve overrides", "1024");
		return CORDON_E_LIMIT;
	}
	if (o->nresolve == 0)
		return CORDON_OK;
	p->ovr = cordon__calloc(o->nresolve, sizeof(*p->ovr));
	if (!p->ovr)
		return CORDON_E_NOMEM;
	for (size_t i = 0; i < o->nresolve; i++) {
		const char *s = o->resolve[i], *colon = strchr(s, ':');
		struct netaddr_addr dummy;
		const char *why = NULL;
		struct override *v = &p->ovr[i];

		if (!colon ||
		    hostlist_normalize_host(s, (size_t)(colon - s), v->host, &dummy,
				      &why) != NETADDR_HOST_NAME ||
		    !netaddr_parse_strict(colon + 1, strlen(colon + 1), &v->addr)) {
			diag_errno(diag, CORDON_E_CONFIG, 0,
				   "resolve override \"%s\": want NAME:ADDRESS "
				   "(a canonical IPv4 or IPv6 address)",
				   s);
			return CORDON_E_CONFIG;
		}
	}
	p->novr = o->nresolve;
	return CORDON_OK;
}

/* ---- the loop's bookkeeping -------------------------------------------- */

static int ep_set(struct px *p, struct ep *e, uint32_t mask)
{
	struct epoll_event ev;
	int op;

	if (e->fd < 0 || e->mask == mask)
		return 0;
	ev.events = mask;
	ev.data.ptr = e;
	op = e->mask == UINT32_MAX ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
	if (epoll_ctl(p->epfd, op, e->fd, &ev) != 0)
		return -1;
	e->mask = mask;
	return 0;
}

static void tl_remove(struct px *p, struct conn *c)
{
	struct tlist *l;

	if (c->tlist < 0)
		return;
	l = &p->tl[c->tlist];
	if (c->tprev)
		c->tprev->tnext = c->tnext;
	else
		l->head = c->tnext;
	if (c->tnext)
		c->tnext->tprev = c->tprev;
	else
		l->tail = c->tprev;
	c->tprev = c->tnext = NULL;
	c->tlist = -1;
}

/* Puts c at the tail of list which with a deadline ms from now: every
 * conn on one list has the same time-out, so the list stays sorted. */
static void tl_arm(struct px *p, struct conn *c, int which, unsigned ms)
{
	struct tlist *l = &p->tl[which];

	tl_remove(p, c);
	c->deadline = now_ms() + ms;
	c->tlist = which;
	c->tprev = l->tail;
	c->tnext = NULL;
	if (l->tail)
		l->tail->tnext = c;
	else
		l->head = c;
	l->tail = c;
}

/* Wipes as it frees: a head may carry an injected secret. */
static void pending_free(struct pending *b)
{
	if (b->data)
		explicit_bzero(b->data, b->len);
	free(b->data);
	b->data = NULL;
	b->off = b->len = 0;
}

static void handshake_free(struct handshake *hs)
{
	if (!hs)
		return;
	httpreq_req_free(&hs->req);
	if (hs->origin)
		explicit_bzero(hs->origin, hs->origin_len);
	free(hs->origin);
	free(hs);
}

static void pipe_close(struct px *p, struct pending *b);
static void lookup_detach(struct conn *c);

/* Every change of c's state goes through here: leaving ST_RESOLVING
 * detaches c from its lookup. */
static void conn_set_state(struct conn *c, enum conn_state st)
{
	if (c->state == ST_RESOLVING && st != ST_RESOLVING)
		lookup_detach(c);
	c->state = st;
}

/* Closes c now and frees it after the current batch of events, which may
 * still name it. */
static void conn_close(struct conn *c)
{
	struct px *p = c->px;

	if (c->dead)
		return;
	c->dead = true;
	tl_remove(p, c);
	if (c->cl.fd >= 0)
		close(c->cl.fd);
	if (c->up.fd >= 0)
		close(c->up.fd);
	c->cl.fd = c->up.fd = -1;
	lookup_detach(c);
	handshake_free(c->hs);
	c->hs = NULL;
	pending_free(&c->to_up);
	pending_free(&c->to_cl);
	pipe_close(p, &c->to_up);
	pipe_close(p, &c->to_cl);
	free(c->body);
	c->body = NULL;
	c->dnext = p->dead;
	p->dead = c;
	if (c->control)
		p->nctl--;
	else
		p->nconns--;
	if (p->accept_paused && !p->stopping) {
		p->accept_paused = false;
		ep_set(p, &p->lst, EPOLLIN);
		ep_set(p, &p->ctl, EPOLLIN);
	}
}

static void reap_dead(struct px *p)
{
	while (p->dead) {
		struct conn *c = p->dead;

		p->dead = c->dnext;
		free(c);
	}
}

/* Appends n bytes to a pending buffer (growing it); false when out of
 * memory or over the limit. */
static bool pending_add(struct pending *b, const void *data, size_t n,
			size_t limit)
{
	size_t have = b->len - b->off;
	char *nd;

	if (n > limit || have > limit - n)
		return false;
	nd = cordon__malloc(have + n ? have + n : 1);
	if (!nd)
		return false;
	if (have)
		memcpy(nd, b->data + b->off, have);
	memcpy(nd + have, data, n);
	if (b->data)
		explicit_bzero(b->data, b->len);
	free(b->data);
	b->data = nd;
	b->off = 0;
	b->len = have + n;
	return true;
}

/* Writes what is pending to fd. Returns 1 when drained, 0 when the socket
 * is full, -1 on error. */
static int pending_flush(struct pending *b, int fd)
{
	while (b->off < b->len) {
		ssize_t w = send(fd, b->data + b->off, b->len - b->off,
				 MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		b->off += (size_t)w;
	}
	pending_free(b);
	return 1;
}

static bool pend_empty(const struct pending *b)
{
	return b->len == 0 && b->piped == 0;
}

static void pipe_close(struct px *p, struct pending *b)
{
	if (b->pipe[0] >= 0) {
		close(b->pipe[0]);
		close(b->pipe[1]);
		p->pipe_bytes -= b->pipe_cap;
	}
	b->pipe[0] = b->pipe[1] = -1;
	b->piped = 0;
	b->pipe_cap = 0;
}

/* Pipes are sized to the traffic and bounded in total: a direction that
 * carries bulk data gets a pipe of the kernel's default size, made only
 * then (idle tunnels hold none), and a pipe that a single splice fills is
 * grown (4x, up to PIPE_MAX), as long as all pipes together stay within
 * pipe_budget. Past the budget a tunnel keeps the copy path (at most
 * IO_CHUNK pending a side), so a client that never reads pins at most one
 * pipe's worth, and --max-conns times that cannot exceed the budget. */
static void pipe_open(struct px *p, struct pending *b)
{
	int sz;

	if (p->pipe_bytes >= p->pipe_budget)
		return;
	if (pipe2(b->pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
		b->pipe[0] = b->pipe[1] = -1;
		return;
	}
	sz = fcntl(b->pipe[1], F_GETPIPE_SZ);
	b->pipe_cap = sz > 0 ? (size_t)sz : 4096;
	if (b->pipe_cap > p->pipe_budget - p->pipe_bytes) {
		close(b->pipe[0]);
		close(b->pipe[1]);
		b->pipe[0] = b->pipe[1] = -1;
		b->pipe_cap = 0;
		return;
	}
	p->pipe_bytes += b->pipe_cap;
}

/* A splice filled the pipe: grow it if the budget allows. */
static void pipe_grow(struct px *p, struct pending *b)
{
	size_t want = b->pipe_cap * 4;
	int got;

	if (want > PIPE_MAX)
		want = PIPE_MAX;
	if (want <= b->pipe_cap ||
	    want - b->pipe_cap > p->pipe_budget - p->pipe_bytes)
		return;
	got = fcntl(b->pipe[1], F_SETPIPE_SZ, (int)want);
	if (got <= 0 || (size_t)got <= b->pipe_cap)
		return; /* the system's maximum: keep the size it has */
	p->pipe_bytes += (size_t)got - b->pipe_cap;
	b->pipe_cap = (size_t)got;
}

/* Writes what the pipe holds to fd: 1 drained, 0 full, -1 error. */
static int pipe_flush(struct pending *b, int fd)
{
	while (b->piped > 0) {
		ssize_t w = splice(b->pipe[0], NULL, fd, NULL, b->piped,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		if (w == 0)
			return -1;
		b->piped -= (size_t)w;
	}
	return 1;
}

/* Buffer first (it only holds data from before the splicing began). */
static int pend_flush(struct pending *b, int fd)
{
	int r = pending_flush(b, fd);

	if (r <= 0)
		return r;
	return pipe_flush(b, fd);
}

/* ---- answers ----------------------------------------------------------- */

/* The answer is out: half-close and read until the client closes, so that
 * unread request bytes do not turn the close into a reset that could
 * destroy the answer before the client reads it. Until then, the rest of
 * the answer waits for EPOLLOUT. */
static void closing_flush(struct conn *c)
{
	int r = pending_flush(&c->to_cl, c->cl.fd);

	if (r < 0) {
		conn_close(c);
		return;
	}
	if (r == 0) {
		if (ep_set(c->px, &c->cl, EPOLLOUT) != 0)
			conn_close(c);
		return;
	}
	shutdown(c->cl.fd, SHUT_WR);
	conn_set_state(c, ST_DRAIN);
	tl_arm(c->px, c, 0, c->px->opt.handshake_timeout_ms);
	if (ep_set(c->px, &c->cl, EPOLLIN) != 0)
		conn_close(c);
}

/* A final answer is queued in to_cl: it goes now if the socket takes it
 * (an empty one does), a round of the loop sooner than on EPOLLOUT. */
static void closing_start(struct conn *c)
{
	conn_set_state(c, ST_CLOSING);
	closing_flush(c);
}

static const char *status_text(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 411:
		return "Length Required";
	case 413:
		return "Content Too Large";
	case 414:
		return "URI Too Long";
	case 431:
		return "Request Header Fields Too Large";
	case 500:
		return "Internal Server Error";
	case 501:
		return "Not Implemented";
	case 502:
		return "Bad Gateway";
	case 503:
		return "Service Unavailable";
	case 504:
		return "Gateway Timeout";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "Error";
	}
}

/* Queues a final HTTP answer to the client and closes once it is sent.
 * detail goes into the reason phrase (after "TEXT: ") and the body. */
static void answer_http(struct conn *c, int status, const char *perror,
			const char *detail)
{
	char head[1024], body[700];
	int bl, hl;

	bl = snprintf(body, sizeof(body), "cordon proxy: %d %s: %s\n", status,
		      status_text(status), detail);
	if (bl < 0)
		bl = 0;
	if ((size_t)bl >= sizeof(body))
		bl = (int)sizeof(body) - 1;
	hl = snprintf(head, sizeof(head),
		      "HTTP/1.1 %d %s: %.600s\r\n"
		      "X-Proxy-Error: %s\r\n"
		      "Content-Type: text/plain\r\n"
		      "Content-Length: %d\r\n"
		      "Connection: close\r\n\r\n",
		      status, status_text(status), detail, perror, bl);
	if (hl < 0 || (size_t)hl >= sizeof(head)) {
		conn_close(c);
		return;
	}
	pending_free(&c->to_cl);
	if (!pending_add(&c->to_cl, head, (size_t)hl, IO_CHUNK) ||
	    !pending_add(&c->to_cl, body, (size_t)bl, IO_CHUNK)) {
		conn_close(c);
		return;
	}
	if (c->up.fd >= 0) {
		close(c->up.fd);
		c->up.fd = -1;
	}
	closing_start(c);
}

static void answer_socks(struct conn *c, enum socks5_rep rep)
{
	uint8_t r[SOCKS5_REPLY_MAX];
	size_t n = socks5_reply_build(r, rep, NULL);

	pending_free(&c->to_cl);
	if (!pending_add(&c->to_cl, r, n, IO_CHUNK)) {
		conn_close(c);
		return;
	}
	if (c->up.fd >= 0) {
		close(c->up.fd);
		c->up.fd = -1;
	}
	closing_start(c);
}

static const char *proto_name(const struct conn *c)
{
	if (c->proto == P_SOCKS)
		return "socks5";
	return c->http_forward ? "http" : "connect";
}

static void report(struct conn *c, bool allowed, const char *kind,
		   const char *rule, const char *addr)
{
	struct proxy_decision d;

	if (!c->px->opt.on_decision)
		return;
	d.proto = proto_name(c);
	d.host = c->host;
	d.port = c->port;
	d.allowed = allowed;
	d.kind = kind;
	d.rule = rule;
	d.addr = addr ? addr : "";
	c->px->opt.on_decision(c->px->opt.ctx, &d);
}

/* The target as an authority, "host:port" or "[v6]:port", for answers. */
static const char *target_text(const struct conn *c, char *buf, size_t size)
{
	bool v6 = strchr(c->host, ':') != NULL;

	snprintf(buf, size, "%s%s%s:%u", v6 ? "[" : "", c->host, v6 ? "]" : "",
		 c->port);
	return buf;
}

/* A refusal: 403 (HTTP) or reply 0x02 (SOCKS), reported first. */
static void deny(struct conn *c, const char *kind, const char *rule)
{
	char detail[600], t[HTTPREQ_HOST_MAX + 12];

	report(c, false, kind, rule, NULL);
	if (c->proto == P_SOCKS) {
		answer_socks(c, SOCKS5_REP_NOT_ALLOWED);
		return;
	}
	snprintf(detail, sizeof(detail), "%s blocked by %s",
		 target_text(c, t, sizeof(t)), rule);
	answer_http(c, 403, kind, detail);
}

/* A failure that is not a policy decision. */
static void fail(struct conn *c, int status, enum socks5_rep rep,
		 const char *perror, const char *detail)
{
	if (c->proto == P_SOCKS)
		answer_socks(c, rep);
	else
		answer_http(c, status, perror, detail);
}

/* ---- connecting -------------------------------------------------------- */

static void start_relay(struct conn *c);
static void on_connected(struct conn *c, uint32_t ev);

/* Dials the next address that passed the guard; last_err is why the
 * previous one failed (for the answer when none is left). */
static void dial_next(struct conn *c, int last_err)
{
	struct px *p = c->px;

	while (c->next_addr < c->naddrs) {
		struct sockaddr_storage ss;
		const struct netaddr_addr *a = &c->addrs[c->next_addr++];
		socklen_t sl = to_sockaddr(a, c->port, &ss);
		int fd = socket(ss.ss_family,
				SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

		if (fd < 0) {
			last_err = errno;
			continue;
		}
		if (connect(fd, (struct sockaddr *)&ss, sl) != 0 &&
		    errno != EINPROGRESS) {
			last_err = errno;
			close(fd);
			continue;
		}
		c->up.fd = fd;
		c->up.mask = UINT32_MAX;
		conn_set_state(c, ST_CONNECTING);
		/* A loopback or LAN peer has often answered by the time
		 * connect() returns: go on now, not a round of the loop later
		 * (saves two epoll_ctl and an epoll_wait per tunnel). */
		struct pollfd pf = { .fd = fd, .events = POLLOUT };

		if (poll(&pf, 1, 0) == 1) {
			on_connected(c, (uint32_t)pf.revents);
			return;
		}
		if (ep_set(p, &c->up, EPOLLOUT) != 0 ||
		    ep_set(p, &c->cl, 0) != 0) {
			conn_close(c);
			return;
		}
		return;
	}
	char detail[400], t[HTTPREQ_HOST_MAX + 12];

	snprintf(detail, sizeof(detail), "cannot connect to %s: %s",
		 target_text(c, t, sizeof(t)), strerror(last_err));
	fail(c, 502,
	     last_err == ECONNREFUSED ? SOCKS5_REP_CONN_REFUSED :
					SOCKS5_REP_HOST_UNREACHABLE,
	     "connect-failed", detail);
}

/* Would dialling a:port reach this proxy's control endpoint? It listens
 * on the host's loopback; every loopback or unspecified address (also
 * v4-mapped) on its port is taken as reaching it. */
static bool hits_control(const struct px *p, const struct netaddr_addr *a,
			 unsigned port)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0,
					    0, 0, 0, 0, 0xff, 0xff };
	static const uint8_t zero[16];
	const uint8_t *v4 = NULL;

	if (p->ctl.fd < 0 || port != p->ctl_port)
		return false;
	if (a->family == NETADDR_INET)
		v4 = a->b;
	else if (memcmp(a->b, mapped, 12) == 0)
		v4 = a->b + 12;
	else
		return memcmp(a->b, zero, 15) == 0 &&
		       (a->b[15] == 0 || a->b[15] == 1);
	return v4[0] == 127 || memcmp(v4, zero, 4) == 0;
}

/* The addresses of a lookup (or the literal): drops the denied ones
 * unless the allow-list named the literal, then dials. */
static void guard_and_dial(struct conn *c, const struct netaddr_addr *addrs,
			   size_t n, bool trusted)
{
	struct px *p = c->px;
	char first_rule[160] = "";
	char abuf[NETADDR_ADDRSTRLEN];

	c->naddrs = 0;
	c->next_addr = 0;
	for (size_t i = 0; i < n; i++) {
		struct netaddr_verdict v;

		if (hits_control(p, &addrs[i], c->port)) {
			if (!first_rule[0])
				snprintf(first_rule, sizeof(first_rule),
					 "the proxy's control endpoint (%s)",
					 netaddr_format(&addrs[i], abuf));
			continue;
		}
		if (!trusted) {
			netaddr_classify(p->guard, &addrs[i], &v);
			/* DANGEROUS test-only option: see proxy.h. */
			if (netaddr_denied(&v) && !(c->inject &&
					       p->opt.inject_allow_loopback &&
					       strcmp(netaddr_verdict_name(&v),
						      "loopback") == 0)) {
				if (!first_rule[0])
					snprintf(first_rule, sizeof(first_rule),
						 "address class %s (%s)",
						 netaddr_verdict_name(&v),
						 netaddr_format(&addrs[i], abuf));
				continue;
			}
		}
		c->addrs[c->naddrs++] = addrs[i];
	}
	if (c->naddrs == 0) {
		deny(c, "blocked-by-address-class",
		     first_rule[0] ? first_rule : "no address");
		return;
	}
	netaddr_format(&c->addrs[0], abuf);
	report(c, true, "allowed",
	       trusted ? "allow-listed IP literal" : "resolved address passed",
	       abuf);
	dial_next(c, EHOSTUNREACH);
}

/* ---- lookups ----------------------------------------------------------- */

/* A lookup may hang for the resolver's whole time-out (getaddrinfo()
 * cannot be cancelled), so it runs in a thread of its own (resolve.h) and
 * is bounded twice: at most PROXY_LOOKUPS_MAX at once in all, and at most
 * PROXY_LOOKUPS_PER_CLIENT for one client address. A lookup whose conn
 * goes away keeps counting against its client until it ends (an orphan),
 * so a client that starts hanging lookups and leaves uses up only its own
 * share; a conn still waiting for a slot when it goes is just dropped. IP
 * literals and --resolve names never wait. */

static bool addr_eq(const struct netaddr_addr *a, const struct netaddr_addr *b)
{
	return a->family == b->family && memcmp(a->b, b->b, sizeof(a->b)) == 0;
}

static struct peer *peer_find(struct px *p, const struct netaddr_addr *a,
			      bool add)
{
	for (size_t i = 0; i < p->npeers; i++)
		if (addr_eq(&p->peers[i].a, a))
			return &p->peers[i];
	if (!add || p->npeers == PROXY_LOOKUPS_MAX)
		return NULL;
	p->peers[p->npeers] = (struct peer){ *a, 0 };
	return &p->peers[p->npeers++];
}

/* One lookup of client a ended. */
static void peer_done(struct px *p, const struct netaddr_addr *a)
{
	struct peer *e = peer_find(p, a, false);

	if (e && --e->running == 0)
		*e = p->peers[--p->npeers];
	p->lookups--;
}

static bool lookup_slot(struct px *p, const struct conn *c)
{
	struct peer *e;

	if (p->lookups >= PROXY_LOOKUPS_MAX)
		return false;
	e = peer_find(p, &c->peer, false);
	return !e || e->running < PROXY_LOOKUPS_PER_CLIENT;
}

static void wq_remove(struct px *p, struct conn *c)
{
	if (c->qprev)
		c->qprev->qnext = c->qnext;
	else
		p->wq_head = c->qnext;
	if (c->qnext)
		c->qnext->qprev = c->qprev;
	else
		p->wq_tail = c->qprev;
	c->qprev = c->qnext = NULL;
	c->queued = false;
}

static void wq_append(struct px *p, struct conn *c)
{
	c->qprev = p->wq_tail;
	c->qnext = NULL;
	if (p->wq_tail)
		p->wq_tail->qnext = c;
	else
		p->wq_head = c;
	p->wq_tail = c;
	c->queued = true;
}

static void lookup_begin(struct conn *c)
{
	struct px *p = c->px;

	if (resolve_start(c->host, &c->rj) != CORDON_OK) {
		c->rj = NULL;
		fail(c, 500, SOCKS5_REP_GENERAL_FAILURE, "internal",
		     "cannot start a name lookup");
		return;
	}
	c->lk = (struct ep){ EP_LOOKUP, c, resolve_fd(c->rj), UINT32_MAX };
	peer_find(p, &c->peer, true)->running++;
	p->lookups++;
	if (ep_set(p, &c->lk, EPOLLIN) != 0)
		conn_close(c);
}

/* Starts the waiting lookups that have a slot now, oldest first. */
static void lookup_kick(struct px *p)
{
	struct conn *c, *next;

	/* lookup_begin may close c, which kicks again: the outer walk
	 * finishes the job and the inner one returns at once. */
	if (p->kicking)
		return;
	p->kicking = true;
	for (c = p->wq_head; c && !p->freeing && p->lookups < PROXY_LOOKUPS_MAX;
	     c = next) {
		next = c->qnext;
		if (!lookup_slot(p, c))
			continue;
		wq_remove(p, c);
		lookup_begin(c);
	}
	p->kicking = false;
}

/* The lookup's end for whoever holds it: stops watching, releases, counts. */
static void lookup_end(struct px *p, struct resolve_job *rj, int fd,
		       const struct netaddr_addr *peer)
{
	epoll_ctl(p->epfd, EPOLL_CTL_DEL, fd, NULL);
	resolve_release(rj);
	peer_done(p, peer);
}

/* Takes c off its lookup, on every way out of ST_RESOLVING (the one
 * place that does): a waiting conn leaves the queue, a running lookup
 * goes on as an orphan, or ends here when it is done already. */
static void lookup_detach(struct conn *c)
{
	struct px *p = c->px;
	struct netaddr_addr tmp[MAX_ADDRS];
	struct orphan *o = NULL;
	size_t n;
	int err;

	if (c->queued) {
		wq_remove(p, c);
		return;
	}
	if (!c->rj)
		return;
	if (!resolve_result(c->rj, &err, tmp, &n))
		o = cordon__calloc(1, sizeof(*o));
	if (o) {
		o->ep = (struct ep){ EP_ORPHAN, NULL, c->lk.fd, c->lk.mask };
		o->rj = c->rj;
		o->peer = c->peer;
		o->next = p->orphans;
		if (p->orphans)
			p->orphans->prev = o;
		p->orphans = o;
		c->lk.mask = UINT32_MAX;
		if (epoll_ctl(p->epfd, EPOLL_CTL_MOD, o->ep.fd,
			      &(struct epoll_event){ .events = EPOLLIN,
						     .data.ptr = &o->ep }) ==
		    0) {
			c->rj = NULL;
			c->lk.fd = -1;
			return;
		}
		p->orphans = o->next;
		if (o->next)
			o->next->prev = NULL;
		free(o);
	}
	/* Done, or cannot be watched any more: it ends now (a thread
	 * still running then counts for no one). */
	lookup_end(p, c->rj, c->lk.fd, &c->peer);
	c->rj = NULL;
	c->lk.fd = -1;
	lookup_kick(p);
}

/* An orphan's lookup ended: its client's slot is free. */
static void orphan_done(struct px *p, struct orphan *o)
{
	lookup_end(p, o->rj, o->ep.fd, &o->peer);
	if (o->prev)
		o->prev->next = o->next;
	else
		p->orphans = o->next;
	if (o->next)
		o->next->prev = o->prev;
	/* Freed after this batch of events, which may name it again. */
	o->next = p->dead_orphans;
	p->dead_orphans = o;
	lookup_kick(p);
}

static void resolve(struct conn *c)
{
	struct px *p = c->px;
	struct netaddr_addr found[MAX_ADDRS];
	size_t n = 0;
	bool named = false;

	for (size_t i = 0; i < p->novr; i++) {
		if (strcmp(p->ovr[i].host, c->host) != 0)
			continue;
		named = true;
		if (n < MAX_ADDRS)
			found[n++] = p->ovr[i].addr;
	}
	if (named) {
		guard_and_dial(c, found, n, false);
		return;
	}
	conn_set_state(c, ST_RESOLVING);
	/* Only a client that leaves is of interest now: its lookup is
	 * dropped (a client that half-closes before its answer counts as
	 * gone). */
	if (ep_set(p, &c->cl, EPOLLRDHUP) != 0) {
		conn_close(c);
		return;
	}
	if (lookup_slot(p, c))
		lookup_begin(c);
	else
		wq_append(p, c);
}

/* c's lookup is done: the addresses go to the guard. */
static void on_lookup_done(struct conn *c)
{
	struct px *p = c->px;
	struct netaddr_addr addrs[MAX_ADDRS];
	size_t n = 0;
	int err = 0;

	if (!c->rj || !resolve_result(c->rj, &err, addrs, &n))
		return;
	lookup_end(p, c->rj, c->lk.fd, &c->peer);
	c->rj = NULL;
	c->lk.fd = -1;
	if (err != 0 || n == 0) {
		char detail[400];

		snprintf(detail, sizeof(detail), "cannot resolve %s: %s",
			 c->host, err ? gai_strerror(err) : "no address");
		report(c, false, "resolve-failed", detail, NULL);
		fail(c, 502, SOCKS5_REP_HOST_UNREACHABLE, "resolve-failed",
		     detail);
	} else {
		guard_and_dial(c, addrs, n, false);
	}
	lookup_kick(p);
}

/* Does h name the injection rule's host (any case, one trailing dot)? */
static bool inject_match(const struct px *p, const struct httpreq_host *h)
{
	size_t n;

	if (!p->inj_host || h->kind != HTTPREQ_HOST_NAME)
		return false;
	n = strlen(h->text);
	if (n > 0 && h->text[n - 1] == '.')
		n--;
	return n == strlen(p->inj_host) && httpreq_name_eq(h->text, n, p->inj_host);
}

/* An IP literal on the deny-list always wins, also when a permitted name
 * resolves to it (or to an IPv6 form embedding it): each such entry is
 * also a /32 or /128 denied range for the resolved-address guard, whatever
 * port it names (stricter than the entry). */
static enum cordon_err deny_literals_as_ranges(struct px *p,
					       const struct proxy_options *o,
					       struct cordon_diag *diag)
{
	enum cordon_err e = CORDON_OK;

	for (size_t i = 0; e == CORDON_OK && i < o->ndeny; i++) {
		const char *host;
		size_t hl;
		unsigned port;
		struct netaddr_addr a;
		char txt[NETADDR_ADDRSTRLEN], range[NETADDR_ADDRSTRLEN + 8];
		const char *one[1] = {range};

		if (!o->deny[i] ||
		    !hostlist_split_authority(o->deny[i], strlen(o->deny[i]), &host,
					&hl, &port))
			continue;
		if (hl >= 2 && host[0] == '[') {
			host++;
			hl -= 2;
		}
		if (!netaddr_parse_strict(host, hl, &a))
			continue;
		snprintf(range, sizeof(range), "%s/%d", netaddr_format(&a, txt),
			 a.family == NETADDR_INET ? 32 : 128);
		e = netaddr_guard_add_ranges(p->guard, one, 1, diag);
	}
	return e;
}

/* The policy for host:port, then the guard. */
static void decide(struct conn *c, const struct httpreq_host *h, unsigned port)
{
	struct hostlist_decision d;
	char rule[400], hb[HTTPREQ_HOST_MAX + 4];
	size_t hlen;

	if (h->kind == HTTPREQ_HOST_IPV6)
		hlen = (size_t)snprintf(hb, sizeof(hb), "[%s]", h->text);
	else
		hlen = (size_t)snprintf(hb, sizeof(hb), "%s", h->text);
	if (hlen >= sizeof(hb))
		hlen = sizeof(hb) - 1;
	c->port = port;
	hostlist_decide(c->px->policy, hb, hlen, port, &d);
	if (d.host[0])
		memcpy(c->host, d.host, sizeof(d.host));
	else
		memcpy(c->host, h->text, sizeof(h->text));
	hostlist_describe(&d, rule, sizeof(rule));
	if (!c->inject && inject_match(c->px, h)) {
		deny(c, "injection-needs-plain-http",
		     "the credential-injection rule (send plain HTTP to "
		     "port 80; the proxy adds TLS)");
		return;
	}
	if (!d.allowed && c->inject && d.reason != HOSTLIST_DENY_ENTRY) {
		d.allowed = true;
		snprintf(rule, sizeof(rule), "the credential-injection rule");
	}
	if (!d.allowed) {
		deny(c,
		     d.reason == HOSTLIST_DENY_ENTRY ? "blocked-by-denylist" :
						 "blocked-by-allowlist",
		     rule);
		return;
	}
	if (h->kind != HTTPREQ_HOST_NAME) {
		struct netaddr_addr a;

		if (!netaddr_parse_strict(h->text, strlen(h->text), &a)) {
			deny(c, "blocked-by-allowlist", "bad address");
			return;
		}
		/* Only a configured literal is trusted past the guard, never
		 * one granted through the control endpoint. */
		guard_and_dial(c, &a, 1,
			       d.ip_literal && d.list == HOSTLIST_ALLOW &&
				       d.index < c->px->nallow_base);
		return;
	}
	resolve(c);
}

/* ---- the relay --------------------------------------------------------- */

static void update_relay_interest(struct conn *c)
{
	struct px *p = c->px;
	uint32_t cm = 0, um = 0;

	/* Read a side only while the other side has nothing pending. */
	if (!c->cl_eof && pend_empty(&c->to_up) &&
	    (!c->http_forward || c->body_left > 0))
		cm |= EPOLLIN;
	if (!c->up_eof && pend_empty(&c->to_cl))
		um |= EPOLLIN;
	if (!pend_empty(&c->to_cl))
		cm |= EPOLLOUT;
	if (!pend_empty(&c->to_up))
		um |= EPOLLOUT;
	if (ep_set(p, &c->cl, cm) != 0 || ep_set(p, &c->up, um) != 0)
		conn_close(c);
}

/* Finishes half-closes; closes the conn when both ways are done. */
static void check_done(struct conn *c)
{
	if (c->cl_eof && pend_empty(&c->to_up) && !c->up_shut &&
	    c->up.fd >= 0) {
		shutdown(c->up.fd, SHUT_WR);
		c->up_shut = true;
	}
	if (c->up_eof && pend_empty(&c->to_cl) && !c->cl_shut) {
		shutdown(c->cl.fd, SHUT_WR);
		c->cl_shut = true;
	}
	if (c->up_eof && c->up_shut && c->up.fd >= 0) {
		/* Nothing more to read or write there; an open socket in
		 * that state would report EPOLLHUP on every wait. */
		close(c->up.fd);
		c->up.fd = -1;
	}
	/* Plain HTTP ends with the answer; a tunnel when both ways ended. */
	if ((c->up_shut && c->cl_shut) || (c->http_forward && c->cl_shut)) {
		conn_close(c);
		return;
	}
	update_relay_interest(c);
}

/* The bytes side src may send on now: a pipe's free room (or IO_CHUNK
 * for the copy path), and no more than a plain request's body has left. */
static size_t relay_want(const struct conn *c, bool from_client,
			 const struct pending *b)
{
	size_t want = b->pipe[0] >= 0 ? b->pipe_cap - b->piped : IO_CHUNK;

	if (from_client && c->http_forward && c->body_left < want)
		want = (size_t)c->body_left;
	return want;
}

/* The bulk path: socket -> pipe -> socket, no byte through the proxy's
 * memory. One event moves up to SPLICE_ROUNDS pipe-fulls while every
 * read fills what it asked for (the socket likely holds more) and the
 * other side takes it all; a short read, EAGAIN or a full destination
 * hands back to epoll, whose level-triggered interest is left as it is
 * (no epoll_ctl unless a side blocks). Returns -1 when c was closed. */
static int relay_splice(struct conn *c, bool from_client, int src, int dst,
			struct pending *b)
{
	struct px *p = c->px;

	for (int round = 0; round < SPLICE_ROUNDS; round++) {
		size_t want = relay_want(c, from_client, b);
		ssize_t r;

		if (want == 0)
			return 0;
		r = splice(src, NULL, b->pipe[1], NULL, want,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR)
				return 0;
			conn_close(c);
			return -1;
		}
		if (r == 0) {
			if (from_client)
				c->cl_eof = true;
			else
				c->up_eof = true;
			return 0;
		}
		b->piped += (size_t)r;
		if (b->piped == b->pipe_cap)
			pipe_grow(p, b);
		if (from_client && c->http_forward)
			c->body_left -= (uint64_t)r;
		if (pipe_flush(b, dst) < 0) {
			conn_close(c);
			return -1;
		}
		if (!pend_empty(b) || (size_t)r < want)
			return 0;
	}
	return 0;
}

/* Moves bytes from one side to the other: read a chunk, write what the
 * other side takes now, keep the rest pending. Returns -1 when the conn
 * was closed. */
static int relay_read(struct conn *c, bool from_client)
{
	struct px *p = c->px;
	int src = from_client ? c->cl.fd : c->up.fd;
	int dst = from_client ? c->up.fd : c->cl.fd;
	struct pending *b = from_client ? &c->to_up : &c->to_cl;
	size_t want = relay_want(c, from_client, b);
	ssize_t r;
	size_t off = 0;

	if (want == 0)
		return 0;
	if (b->pipe[0] >= 0)
		return relay_splice(c, from_client, src, dst, b);
	r = recv(src, p->scratch, want, 0);
	if (r < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		conn_close(c);
		return -1;
	}
	if (r == 0) {
		if (from_client)
			c->cl_eof = true;
		else
			c->up_eof = true;
		return 0;
	}
	if (from_client && c->http_forward)
		c->body_left -= (uint64_t)r;
	while (off < (size_t)r) {
		ssize_t w = send(dst, p->scratch + off, (size_t)r - off,
				 MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			conn_close(c);
			return -1;
		}
		off += (size_t)w;
	}
	if (off < (size_t)r &&
	    !pending_add(b, p->scratch + off, (size_t)r - off, IO_CHUNK)) {
		conn_close(c);
		return -1;
	}
	if ((size_t)r == IO_CHUNK && pend_empty(b))
		pipe_open(p, b);
	return 0;
}

static void relay_event(struct conn *c, bool client, uint32_t ev)
{
	struct px *p = c->px;

	if (ev & EPOLLERR) {
		conn_close(c);
		return;
	}
	if (ev & EPOLLOUT) {
		struct pending *b = client ? &c->to_cl : &c->to_up;

		if (pend_flush(b, client ? c->cl.fd : c->up.fd) < 0) {
			conn_close(c);
			return;
		}
	}
	if (ev & (EPOLLIN | EPOLLHUP)) {
		bool can = client ? !c->cl_eof && pend_empty(&c->to_up) &&
					    (!c->http_forward ||
					     c->body_left > 0) :
				    !c->up_eof && pend_empty(&c->to_cl);

		if (can) {
			if (relay_read(c, client) < 0)
				return;
		} else if (ev & EPOLLHUP) {
			/* Gone both ways with nothing more to read. */
			conn_close(c);
			return;
		}
	}
	tl_arm(p, c, 1, p->opt.idle_timeout_ms);
	check_done(c);
}

static void start_relay(struct conn *c)
{
	struct px *p = c->px;
	struct handshake *hs = c->hs;

	if (c->proto == P_SOCKS) {
		uint8_t r[SOCKS5_REPLY_MAX];
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		size_t n;

		if (getsockname(c->up.fd, (struct sockaddr *)&ss, &sl) != 0)
			n = socks5_reply_build(r, SOCKS5_REP_SUCCEEDED, NULL);
		else
			n = socks5_reply_build(r, SOCKS5_REP_SUCCEEDED,
					   (struct sockaddr *)&ss);
		if (!pending_add(&c->to_cl, r, n, IO_CHUNK)) {
			conn_close(c);
			return;
		}
	} else if (!c->http_forward) {
		static const char ok[] =
			"HTTP/1.1 200 Connection Established\r\n\r\n";

		if (!pending_add(&c->to_cl, ok, sizeof(ok) - 1, IO_CHUNK)) {
			conn_close(c);
			return;
		}
	} else {
		/* The origin head goes before any early body bytes. */
		struct pending early = c->to_up;

		c->to_up.data = hs->origin;
		c->to_up.off = 0;
		c->to_up.len = hs->origin_len;
		hs->origin = NULL;
		if (early.len > early.off &&
		    !pending_add(&c->to_up, early.data + early.off,
				 early.len - early.off, SIZE_MAX / 2)) {
			pending_free(&early);
			conn_close(c);
			return;
		}
		pending_free(&early);
	}
	handshake_free(c->hs);
	c->hs = NULL;
	conn_set_state(c, ST_RELAY);
	{
		int one = 1;

		setsockopt(c->up.fd, IPPROTO_TCP, TCP_NODELAY, &one,
			   sizeof(one));
	}
	tl_arm(p, c, 1, p->opt.idle_timeout_ms);
	/* The reply (and a plain request's head) go now, not a round of the
	 * loop later: the set-up costs the client one round trip less. */
	if (pend_flush(&c->to_cl, c->cl.fd) < 0 ||
	    pend_flush(&c->to_up, c->up.fd) < 0) {
		conn_close(c);
		return;
	}
	update_relay_interest(c);
}

/* ---- credential injection: the TLS side -------------------------------- */

/* One injected request's TLS leg, run by its own detached thread: the
 * loop relays plain bytes to and from one end of a socketpair as for any
 * plain-HTTP request; the thread speaks TLS to the upstream on the other
 * end. Blocking code in a thread keeps the loop free of TLS states. */
struct tls_job {
	SSL_CTX *ctx; /* a reference of its own */
	struct scrub sc; /* the secret out of the answer */
	int tcp, plain;
	int handshake_ms, idle_ms;
	unsigned port;
	char host[HTTPREQ_HOST_MAX + 2];
};

static bool plain_write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		b += w;
		n -= (size_t)w;
	}
	return true;
}

/* SSL_write of all of b on a nonblocking socket, waiting at most ms for
 * each step. */
static bool tls_write_all(SSL *ssl, int fd, const char *b, size_t n, int ms)
{
	while (n > 0) {
		size_t w = 0;
		int rc = SSL_write_ex(ssl, b, n, &w);
		int e;
		struct pollfd pf;

		if (rc == 1) {
			b += w;
			n -= w;
			continue;
		}
		e = SSL_get_error(ssl, rc);
		if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
			return false;
		pf.fd = fd;
		pf.events = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
		pf.revents = 0;
		if (poll(&pf, 1, ms) <= 0)
			return false;
	}
	return true;
}

/* Answers 502 on the plain side when the TLS leg cannot start. */
static void tls_fail(struct tls_job *t, const char *why)
{
	char body[512], head[256];
	int bl, hl;

	bl = snprintf(body, sizeof(body), "TLS to %s:%u failed: %s\n",
		      t->host, t->port, why);
	if (bl < 0 || (size_t)bl >= sizeof(body))
		bl = (int)strlen(body);
	hl = snprintf(head, sizeof(head),
		      "HTTP/1.1 502 Bad Gateway\r\n"
		      "X-Proxy-Error: upstream-tls-failed\r\n"
		      "Content-Type: text/plain\r\n"
		      "Content-Length: %d\r\n"
		      "Connection: close\r\n\r\n",
		      bl);
	if (hl < 0 || (size_t)hl >= sizeof(head))
		return;
	if (plain_write_all(t->plain, head, (size_t)hl))
		plain_write_all(t->plain, body, (size_t)bl);
}

/* Bytes both ways until the upstream ends its answer, a side fails or
 * nothing moves for idle_ms. The answer goes through the scrub (into
 * clean, IO_CHUNK + SCRUB_PATTERN_MAX bytes): an upstream that echoes the
 * request must not hand the secret to the client. */
static void tls_pump(struct tls_job *t, SSL *ssl, char *buf, size_t size,
		     char *clean)
{
	bool plain_eof = false;

	for (;;) {
		struct pollfd pf[2] = {
			{ t->tcp, POLLIN, 0 },
			{ plain_eof ? -1 : t->plain, POLLIN, 0 },
		};

		if (SSL_pending(ssl) == 0) {
			int rc = poll(pf, 2, t->idle_ms);

			if (rc < 0 && errno == EINTR)
				continue;
			if (rc <= 0)
				return;
		} else {
			pf[0].revents = POLLIN;
		}
		if (pf[0].revents) {
			size_t got = 0;
			int rc = SSL_read_ex(ssl, buf, size, &got);

			if (rc == 1) {
				got = scrub_feed(&t->sc, buf, got, clean);
				if (!plain_write_all(t->plain, clean, got))
					return;
			} else {
				int e = SSL_get_error(ssl, rc);

				/* A record that is not data yet (a session
				 * ticket, half a record): wait again. */
				if (e != SSL_ERROR_WANT_READ &&
				    e != SSL_ERROR_WANT_WRITE)
					return;
			}
		}
		if (pf[1].revents) {
			ssize_t n = recv(t->plain, buf, size, 0);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				plain_eof = true; /* the answer may follow */
			else if (!tls_write_all(ssl, t->tcp, buf, (size_t)n,
						t->idle_ms))
				return;
		}
	}
}

static void *tls_main(void *arg)
{
	struct tls_job *t = arg;
	SSL *ssl = NULL;
	char *buf = cordon__malloc(IO_CHUNK);
	char *clean = cordon__malloc(IO_CHUNK + SCRUB_PATTERN_MAX);
	char why[256] = "";
	struct timeval tv;
	sigset_t ss;
	int fl;

	/* Writes to a closed upstream must not raise SIGPIPE. */
	sigemptyset(&ss);
	sigaddset(&ss, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &ss, NULL);
	fl = fcntl(t->tcp, F_GETFL);
	tv.tv_sec = t->handshake_ms / 1000;
	tv.tv_usec = (t->handshake_ms % 1000) * 1000;
	if (!buf || !clean || fl < 0 || fcntl(t->tcp, F_SETFL, fl & ~O_NONBLOCK) != 0 ||
	    setsockopt(t->tcp, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(t->tcp, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))) {
		snprintf(why, sizeof(why), "set-up: %s", strerror(errno));
		goto out;
	}
	ssl = SSL_new(t->ctx);
	if (!ssl || !SSL_set_fd(ssl, t->tcp)) {
		snprintf(why, sizeof(why), "out of memory");
		goto out;
	}
	SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
	if (!SSL_set_tlsext_host_name(ssl, t->host) ||
	    !SSL_set1_host(ssl, t->host)) {
		snprintf(why, sizeof(why), "cannot set the host name");
		goto out;
	}
	if (SSL_connect(ssl) != 1) {
		long v = SSL_get_verify_result(ssl);
		unsigned long e = ERR_get_error();

		if (v != X509_V_OK)
			snprintf(why, sizeof(why), "certificate: %s",
				 X509_verify_cert_error_string(v));
		else if (e)
			ERR_error_string_n(e, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "handshake: %s",
				 errno ? strerror(errno) : "closed");
		goto out;
	}
	if (fcntl(t->tcp, F_SETFL, fl | O_NONBLOCK) != 0) {
		snprintf(why, sizeof(why), "set-up: %s", strerror(errno));
		goto out;
	}
	tls_pump(t, ssl, buf, IO_CHUNK, clean);
	plain_write_all(t->plain, clean, scrub_finish(&t->sc, clean));
	SSL_shutdown(ssl);
out:
	if (why[0])
		tls_fail(t, why);
	ERR_clear_error();
	SSL_free(ssl);
	/* Unread bytes at close would make the loop's side see a reset and
	 * lose the answer: take what is there first. */
	shutdown(t->plain, SHUT_WR);
	if (buf)
		while (recv(t->plain, buf, IO_CHUNK, MSG_DONTWAIT) > 0)
			;
	if (buf)
		explicit_bzero(buf, IO_CHUNK);
	if (clean)
		explicit_bzero(clean, IO_CHUNK + SCRUB_PATTERN_MAX);
	free(buf);
	free(clean);
	scrub_free(&t->sc);
	close(t->plain);
	close(t->tcp);
	SSL_CTX_free(t->ctx);
	free(t);
	return NULL;
}

/* The TCP connection to the injection host is up: hands it to a TLS
 * thread and relays through a socketpair. */
static void inject_start(struct conn *c)
{
	struct px *p = c->px;
	struct tls_job *t;
	pthread_attr_t at;
	int sv[2], e;

	if (c->up.mask != UINT32_MAX)
		epoll_ctl(p->epfd, EPOLL_CTL_DEL, c->up.fd, NULL);
	t = cordon__calloc(1, sizeof(*t));
	if (!t ||
	    scrub_init(&t->sc, p->inj_value + p->inj_secret_off,
		       p->inj_secret_len) != CORDON_OK ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		if (t)
			scrub_free(&t->sc);
		free(t);
		fail(c, 500, SOCKS5_REP_GENERAL_FAILURE, "internal",
		     "cannot start the TLS leg");
		return;
	}
	t->tcp = c->up.fd;
	t->plain = sv[1];
	t->handshake_ms = (int)p->opt.handshake_timeout_ms;
	t->idle_ms = (int)p->opt.idle_timeout_ms;
	t->port = c->port;
	memcpy(t->host, p->inj_host, strlen(p->inj_host) + 1);
	t->ctx = p->inj_ctx;
	SSL_CTX_up_ref(t->ctx);
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) != 0 ||
	    pthread_attr_init(&at) != 0) {
		e = -1;
	} else {
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		e = pthread_create(&(pthread_t){ 0 }, &at, tls_main, t);
		pthread_attr_destroy(&at);
	}
	if (e != 0) {
		close(sv[0]);
		close(sv[1]);
		SSL_CTX_free(t->ctx);
		scrub_free(&t->sc);
		free(t);
		fail(c, 500, SOCKS5_REP_GENERAL_FAILURE, "internal",
		     "cannot start the TLS leg");
		return;
	}
	/* The thread owns the TCP socket now. */
	c->up.fd = sv[0];
	c->up.mask = UINT32_MAX;
	start_relay(c);
}

_Static_assert(POLLOUT == EPOLLOUT && POLLERR == EPOLLERR &&
		       POLLHUP == EPOLLHUP,
	       "poll and epoll name the same events");

/* The upstream's connect ended; ev is what poll or epoll said of it
 * (POLLOUT, POLLERR and POLLHUP are EPOLLOUT, EPOLLERR and EPOLLHUP). A
 * socket that is writable with neither error nor hang-up is connected
 * (TCP reports no POLLOUT while the handshake runs): only the others
 * ask SO_ERROR why. */
static void on_connected(struct conn *c, uint32_t ev)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if ((ev & (EPOLLERR | EPOLLHUP) || !(ev & EPOLLOUT)) &&
	    getsockopt(c->up.fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err != 0) {
		if (c->up.mask != UINT32_MAX)
			epoll_ctl(c->px->epfd, EPOLL_CTL_DEL, c->up.fd, NULL);
		close(c->up.fd);
		c->up.fd = -1;
		dial_next(c, err);
		return;
	}
	if (c->inject) {
		inject_start(c);
		return;
	}
	start_relay(c);
}

/* ---- the control endpoint ---------------------------------------------- */

/* Queues a complete answer from the control endpoint and closes once it is
 * sent. extra is more header lines ("Name: value\r\n...") or "". */
static void ctl_answer(struct conn *c, int status, const char *ctype,
		       const char *extra, const char *body)
{
	char head[512];
	size_t bl = strlen(body);
	int hl;

	hl = snprintf(head, sizeof(head),
		      "HTTP/1.1 %d %s\r\n"
		      "Content-Type: %s\r\n"
		      "Content-Length: %zu\r\n"
		      "Cache-Control: no-store\r\n"
		      "%s"
		      "Connection: close\r\n\r\n",
		      status, status_text(status), ctype, bl, extra);
	if (hl < 0 || (size_t)hl >= sizeof(head)) {
		conn_close(c);
		return;
	}
	pending_free(&c->to_cl);
	if (!pending_add(&c->to_cl, head, (size_t)hl, SIZE_MAX / 2) ||
	    !pending_add(&c->to_cl, body, bl, SIZE_MAX / 2)) {
		conn_close(c);
		return;
	}
	closing_start(c);
}

/* An error answer: "cordon proxy control: STATUS TEXT: why" in plain
 * text, bytes outside printable ASCII shown as '?'. */
static void ctl_error(struct conn *c, int status, const char *extra,
		      const char *why)
{
	char body[700];
	int n = snprintf(body, sizeof(body),
			 "cordon proxy control: %d %s: %s\n", status,
			 status_text(status), why);

	if (n < 0)
		body[0] = '\0';
	for (size_t i = 0; body[i]; i++) {
		unsigned char ch = (unsigned char)body[i];

		if ((ch < 0x20 || ch >= 0x7f) && body[i + 1] != '\0')
			body[i] = '?';
	}
	ctl_answer(c, status, "text/plain", extra, body);
}

static void ctl_json(struct conn *c, cJSON *j)
{
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;

	cJSON_Delete(j);
	if (!text) {
		ctl_error(c, 500, "", "out of memory");
		return;
	}
	ctl_answer(c, 200, "application/json", "", text);
	free(text);
}

/* Equal without a data-dependent early exit: the time depends only on
 * the length of the token we hold. */
static bool token_eq(const char *got, size_t glen, const char *want,
		     size_t wlen)
{
	volatile unsigned char d = glen != wlen;

	for (size_t i = 0; i < wlen; i++)
		d |= (unsigned char)((i < glen ? got[i] : 0) ^ want[i]);
	return d == 0;
}

/* Exactly one "Authorization: Bearer TOKEN" with the right token. */
static bool ctl_authorized(const struct conn *c)
{
	const struct httpreq_req *r = &c->hs->req;
	struct httpreq_header h, extra;
	size_t pos = 0;

	if (!httpreq_header_next(r, "authorization", &pos, &h) ||
	    httpreq_header_next(r, "authorization", &pos, &extra))
		return false;
	if (h.value_len < 7 || !httpreq_name_eq(h.value, 6, "bearer") ||
	    h.value[6] != ' ')
		return false;
	return token_eq(h.value + 7, h.value_len - 7, c->px->token,
			c->px->token_len);
}

static cJSON *ctl_list(const struct hostlist_policy *pol, enum hostlist_list which,
		       size_t from)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = from; a && i < hostlist_policy_count(pol, which); i++) {
		cJSON *s = cJSON_CreateString(hostlist_policy_entry(pol, which, i));

		if (!s) {
			cJSON_Delete(a);
			return NULL;
		}
		cJSON_AddItemToArray(a, s);
	}
	return a;
}

static void ctl_status(struct conn *c)
{
	struct px *p = c->px;
	cJSON *j = cJSON_CreateObject();
	cJSON *al = ctl_list(p->policy, HOSTLIST_ALLOW, 0);
	cJSON *dl = ctl_list(p->policy, HOSTLIST_DENY, 0);
	cJSON *sl = ctl_list(p->policy, HOSTLIST_ALLOW, p->nallow_base);

	if (!j || !al || !dl || !sl) {
		cJSON_Delete(j);
		cJSON_Delete(al);
		cJSON_Delete(dl);
		cJSON_Delete(sl);
		ctl_error(c, 500, "", "out of memory");
		return;
	}
	cJSON_AddItemToObject(j, "allow", al);
	cJSON_AddItemToObject(j, "deny", dl);
	cJSON_AddItemToObject(j, "session", sl);
	ctl_json(c, j);
}

static bool ctl_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Would granting entry[0..n) open more than a name: an IP literal in a
 * denied class, or a wildcard over a public suffix? Answers 403 and
 * returns false then. A bad entry passes here: hostlist says why. */
static bool ctl_grant_ok(struct conn *c, const char *entry, size_t n)
{
	struct px *p = c->px;
	char norm[HOSTLIST_MAX_NAME + 1], why[400];
	const char *host, *bad = NULL, *kind;
	struct netaddr_addr a;
	struct netaddr_verdict v;
	size_t hl;
	unsigned port;
	bool wild;

	if (!hostlist_split_authority(entry, n, &host, &hl, &port))
		return true;
	wild = hl > 2 && host[0] == '*' && host[1] == '.';
	if (wild) {
		host += 2;
		hl -= 2;
	}
	switch (hostlist_normalize_host(host, hl, norm, &a, &bad)) {
	case NETADDR_HOST_IP:
		if (wild)
			return true;
		/* as spelled: a v4-mapped form is judged as such */
		if (netaddr_parse_host(host, hl, &a) != NETADDR_HOST_IP)
			return true;
		netaddr_classify(p->guard, &a, &v);
		if (!netaddr_denied(&v))
			return true;
		snprintf(why, sizeof(why),
			 "%.*s: address class %s: a granted entry passes the "
			 "address guard",
			 (int)(n > 200 ? 200 : n), entry,
			 netaddr_verdict_name(&v));
		kind = "X-Proxy-Error: blocked-by-address-class\r\n";
		break;
	case NETADDR_HOST_NAME:
		if (!wild || !hostlist_public_suffix(p->psl.p, p->psl.len, norm,
						     strlen(norm)))
			return true;
		snprintf(why, sizeof(why),
			 "*.%s is a public suffix: a wildcard over it lets in "
			 "anyone who registers a name there",
			 norm);
		kind = "X-Proxy-Error: wildcard-over-public-suffix\r\n";
		break;
	default:
		return true;
	}
	ctl_error(c, 403, kind, why);
	return false;
}

/* The whole body is in: one entry, added to the allow-list. */
static void ctl_allow(struct conn *c)
{
	struct px *p = c->px;
	char *b = c->body;
	size_t n = c->body_len, i;
	struct cordon_diag d;
	const char *entry[1];
	enum cordon_err e;
	cJSON *j;

	while (n > 0 && ctl_space(b[n - 1]))
		n--;
	for (i = 0; i < n && ctl_space(b[i]); i++)
		;
	b[n] = '\0';
	if (memchr(b, '\0', n)) {
		ctl_error(c, 400, "", "a NUL byte in the body");
		return;
	}
	if (i == n) {
		ctl_error(c, 400, "", "empty body: want one host entry");
		return;
	}
	entry[0] = b + i;
	if (!ctl_grant_ok(c, b + i, n - i))
		return;
	memset(&d, 0, sizeof(d));
	e = hostlist_policy_add(p->policy, HOSTLIST_ALLOW, entry, 1, &d);
	if (e != CORDON_OK) {
		ctl_error(c, e == CORDON_E_NOMEM ? 500 : 400, "",
			  d.message[0] ? d.message : "cannot add the entry");
		return;
	}
	size_t last = hostlist_policy_count(p->policy, HOSTLIST_ALLOW) - 1;
	const char *added = hostlist_policy_entry(p->policy, HOSTLIST_ALLOW, last);
	const char *canon = hostlist_policy_canon(p->policy, HOSTLIST_ALLOW, last);

	j = cJSON_CreateObject();
	if (j && (!cJSON_AddStringToObject(j, "added", added) ||
		  !cJSON_AddStringToObject(j, "canonical", canon))) {
		cJSON_Delete(j);
		j = NULL;
	}
	ctl_json(c, j);
}

/* Body bytes of a POST /allow; answers once all Content-Length arrived. */
static void ctl_body(struct conn *c, const char *data, size_t n)
{
	size_t take = c->body_want - c->body_len;

	if (n < take)
		take = n;
	memcpy(c->body + c->body_len, data, take);
	c->body_len += take;
	if (c->body_len == c->body_want)
		ctl_allow(c);
}

/* A control request's head is complete: route, check, answer. */
static void ctl_head(struct conn *c, const char *rest, size_t nrest)
{
	struct httpreq_req *r = &c->hs->req;
	size_t plen = 0;
	bool allow, status;

	if (r->form != HTTPREQ_FORM_ORIGIN) {
		ctl_error(c, 400, "", "want an origin-form request (/allow, "
				      "/status)");
		return;
	}
	while (plen < r->path_len && r->path[plen] != '?')
		plen++;
	allow = plen == 6 && memcmp(r->path, "/allow", 6) == 0;
	status = plen == 7 && memcmp(r->path, "/status", 7) == 0;
	if (!allow && !status) {
		ctl_error(c, 404, "", "no such endpoint (/allow, /status)");
		return;
	}
	if (allow && !(r->method_len == 4 && !memcmp(r->method, "POST", 4))) {
		ctl_error(c, 405, "Allow: POST\r\n", "/allow takes POST");
		return;
	}
	if (status && !(r->method_len == 3 && !memcmp(r->method, "GET", 3))) {
		ctl_error(c, 405, "Allow: GET\r\n", "/status takes GET");
		return;
	}
	if (!ctl_authorized(c)) {
		ctl_error(c, 401, "WWW-Authenticate: Bearer\r\n",
			  "missing or wrong bearer token");
		return;
	}
	if (status) {
		ctl_status(c);
		return;
	}
	if (r->chunked || !r->has_length) {
		ctl_error(c, 411, "", "POST /allow needs a Content-Length");
		return;
	}
	if (r->content_length > PROXY_CONTROL_BODY_MAX) {
		ctl_error(c, 413, "", "body over 4096 bytes");
		return;
	}
	c->body_want = (size_t)r->content_length;
	c->body = cordon__malloc(c->body_want + 1);
	if (!c->body) {
		ctl_error(c, 500, "", "out of memory");
		return;
	}
	ctl_body(c, rest, nrest);
}

/* ---- the head ---------------------------------------------------------- */

/* Keeps bytes after the head as early data for the upstream. */
static bool keep_early(struct conn *c, const char *data, size_t n)
{
	if (n == 0)
		return true;
	return pending_add(&c->to_up, data, n, IO_CHUNK);
}

/* Methods whose answer is the request itself, in any case (servers differ
 * on whether method names are case-sensitive). */
static bool inject_echoes(const struct httpreq_req *r)
{
	return r->method_len == 5 && (httpreq_name_eq(r->method, 5, "trace") ||
				      httpreq_name_eq(r->method, 5, "track"));
}

static void http_head_done(struct conn *c, const char *rest, size_t nrest)
{
	struct httpreq_req *r = &c->hs->req;

	struct px *p = c->px;
	unsigned port = r->port;

	c->http_forward = r->form == HTTPREQ_FORM_ABSOLUTE;
	c->inject = c->http_forward && r->port == 80 &&
		    inject_match(p, &r->host);
	if (c->http_forward && p->inj_host && !c->inject &&
	    !inject_match(p, &r->host)) {
		/* Injection mode: plain HTTP exists for the injection host.
		 * A Host header naming that host on a request for another
		 * URI host is a try to get the secret sent elsewhere (or the
		 * other way round): 403. Anything else needs CONNECT: 405. */
		size_t pos = 0;
		struct httpreq_header h;
		while (httpreq_header_next(r, "host", &pos, &h)) {
			size_t n = h.value_len;
			const char *colon = memchr(h.value, ':', n);
			if (colon && h.value[0] != '[')
				n = (size_t)(colon - h.value);
			if (n > 0 && h.value[n - 1] == '.')
				n--;
			char host[256];
			if (n >= sizeof(host))
				continue;
			memcpy(host, h.value, n);
			host[n] = '\0';
			if (httpreq_name_eq(host, n, p->inj_host)) {
				answer_http(c, 403, "injection-host-mismatch",
					    "the request's absolute URI names "
					    "another host than its Host header "
					    "(the credential-injection host)");
				return;
			}
		}
		answer_http(c, 405, "method-not-allowed",
			    "with credential injection, plain HTTP is only "
			    "for the injection host; use CONNECT");
		return;
	}
	if (c->inject && inject_echoes(r)) {
		answer_http(c, 405, "method-not-allowed",
			    "TRACE and TRACK echo the request: refused where "
			    "a credential is injected");
		return;
	}
	if (c->http_forward) {
		struct httpreq_header extra[4] = {
			{ "Connection", 10, "close", 5 },
		};
		size_t need = 0, nextra = 1;
		unsigned strip = 0;

		if (c->inject) {
			/* The secret, Host as TLS names the peer (not as the
			 * client spelled it), and an answer the scrub can
			 * read: no compression, no ranges that cut the
			 * secret apart. */
			extra[1] = (struct httpreq_header){
				p->inj_name, strlen(p->inj_name), p->inj_value,
				p->inj_value_len
			};
			extra[2] = (struct httpreq_header){
				"Host", 4, p->inj_authority,
				strlen(p->inj_authority)
			};
			extra[3] = (struct httpreq_header){
				"Accept-Encoding", 15, "identity", 8
			};
			nextra = 4;
			strip = HTTPREQ_STRIP_CREDENTIALS |
				HTTPREQ_STRIP_ENCODING;
			port = p->inj_port;
		}

		if (r->chunked) {
			answer_http(c, 501, "chunked-body",
				    "chunked request bodies are not "
				    "forwarded");
			return;
		}
		httpreq_write_origin(r, strip, extra, nextra, NULL, 0, &need);
		c->hs->origin = cordon__malloc(need ? need : 1);
		c->hs->origin_len = need;
		if (!c->hs->origin ||
		    httpreq_write_origin(r, strip, extra, nextra, c->hs->origin,
				    need, &c->hs->origin_len) != CORDON_OK) {
			answer_http(c, 500, "internal",
				    "cannot write the request");
			return;
		}
		c->body_left = r->has_length ? r->content_length : 0;
		if (nrest > c->body_left)
			nrest = (size_t)c->body_left;
		c->body_left -= nrest;
	}
	if (!keep_early(c, rest, nrest)) {
		conn_close(c);
		return;
	}
	c->hs->host = r->host;
	decide(c, &c->hs->host, port);
}

static void feed_http(struct conn *c, const char *data, size_t n)
{
	struct httpreq_req *r = &c->hs->req;
	size_t used = 0;
	enum httpreq_status st = httpreq_feed(r, data, n, &used);

	if (st == HTTPREQ_MORE)
		return;
	if (st == HTTPREQ_ERROR) {
		if (c->control)
			ctl_error(c, r->err.status, "", r->err.reason);
		else
			answer_http(c, r->err.status, "bad-request",
				    r->err.reason);
		return;
	}
	if (c->control) {
		ctl_head(c, data + used, n - used);
		return;
	}
	if (r->form != HTTPREQ_FORM_AUTHORITY && r->form != HTTPREQ_FORM_ABSOLUTE) {
		answer_http(c, 400, "bad-request", "not a proxy request");
		return;
	}
	http_head_done(c, data + used, n - used);
}

static void feed_socks(struct conn *c, const char *data, size_t n)
{
	struct socks5_conn *s = &c->hs->s5;

	while (!c->dead) {
		size_t used = 0;
		enum socks5_status st = socks5_feed(s, data, n, &used);

		data += used;
		n -= used;
		switch (st) {
		case SOCKS5_MORE:
			return;
		case SOCKS5_ERROR:
			if (s->reply_len == 0) {
				conn_close(c);
				return;
			}
			pending_free(&c->to_cl);
			if (!pending_add(&c->to_cl, s->reply, s->reply_len,
					 IO_CHUNK)) {
				conn_close(c);
				return;
			}
			closing_start(c);
			return;
		case SOCKS5_METHOD:
			/* A 2-byte reply into an empty socket: send() takes
			 * it whole or the client is misbehaving. */
			if (send(c->cl.fd, s->reply, s->reply_len,
				 MSG_NOSIGNAL) != (ssize_t)s->reply_len) {
				conn_close(c);
				return;
			}
			continue;
		case SOCKS5_REQUEST:
			if (!keep_early(c, data, n)) {
				conn_close(c);
				return;
			}
			c->hs->host = s->host;
			decide(c, &c->hs->host, s->port);
			return;
		}
	}
}

static void head_read(struct conn *c)
{
	struct px *p = c->px;
	ssize_t r = recv(c->cl.fd, p->scratch, HEAD_READ, 0);

	if (r < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			conn_close(c);
		return;
	}
	if (r == 0) {
		conn_close(c);
		return;
	}
	if (c->proto == P_UNKNOWN && !c->control) {
		c->proto = (unsigned char)p->scratch[0] == 0x05 ? P_SOCKS :
								  P_HTTP;
		if (c->proto == P_SOCKS)
			socks5_init(&c->hs->s5);
	}
	if (c->control && c->body)
		ctl_body(c, p->scratch, (size_t)r);
	else if (c->proto == P_SOCKS)
		feed_socks(c, p->scratch, (size_t)r);
	else
		feed_http(c, p->scratch, (size_t)r);
}

/* ---- events ------------------------------------------------------------ */

static void on_accept(struct px *p, struct ep *l)
{
	bool control = l == &p->ctl;

	for (;;) {
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);
		int fd = accept4(l->fd, (struct sockaddr *)&peer, &plen,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c;
		struct httpreq_limits lim;

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				/* Wait for a conn to close. */
				if (p->nconns + p->nctl > 0) {
					p->accept_paused = true;
					ep_set(p, &p->lst, 0);
					ep_set(p, &p->ctl, 0);
				}
			}
			return;
		}
		if (control ? p->nctl >= PROXY_CONTROL_CONNS :
			      p->nconns >= p->opt.max_conns) {
			static const char busy[] =
				"HTTP/1.1 503 Service Unavailable: too many "
				"connections\r\nX-Proxy-Error: "
				"too-many-connections\r\nContent-Length: "
				"0\r\nConnection: close\r\n\r\n";

			if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL) <
			    0) {
				/* Closed anyway. */
			}
			close(fd);
			continue;
		}
		c = cordon__calloc(1, sizeof(*c));
		if (c)
			c->hs = cordon__calloc(1, sizeof(*c->hs));
		httpreq_limits_default(&lim);
		lim.max_header_bytes = p->opt.max_header_bytes;
		if (control)
			lim.flags |= HTTPREQ_ORIGIN_FORM;
		if (!c || !c->hs ||
		    httpreq_req_init(&c->hs->req, &lim) != CORDON_OK) {
			if (c)
				free(c->hs);
			free(c);
			close(fd);
			continue;
		}
		c->px = p;
		c->tlist = -1;
		if (plen > sizeof(peer) ||
		    !netaddr_from_sockaddr((struct sockaddr *)&peer, &c->peer))
			memset(&c->peer, 0, sizeof(c->peer));
		c->lk.fd = -1;
		c->to_up.pipe[0] = c->to_up.pipe[1] = -1;
		c->to_cl.pipe[0] = c->to_cl.pipe[1] = -1;
		c->cl = (struct ep){ EP_CLIENT, c, fd, UINT32_MAX };
		c->up = (struct ep){ EP_UPSTREAM, c, -1, UINT32_MAX };
		c->state = ST_HEAD;
		c->control = control;
		if (control)
			c->proto = P_HTTP;
		if (control)
			p->nctl++;
		else
			p->nconns++;
		if (ep_set(p, &c->cl, EPOLLIN) != 0) {
			c->cl.mask = 0;
			conn_close(c);
			continue;
		}
		tl_arm(p, c, 0, p->opt.handshake_timeout_ms);
		/* The head usually follows the connect at once: reading now
		 * saves a round of the loop (EAGAIN costs one recv). */
		head_read(c);
	}
}

static void drain(struct conn *c)
{
	for (int i = 0; i < 16; i++) {
		ssize_t r = recv(c->cl.fd, c->px->scratch, IO_CHUNK, 0);

		if (r > 0)
			continue;
		if (r < 0 &&
		    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return;
		conn_close(c);
		return;
	}
}

static void conn_event(struct conn *c, bool client, uint32_t ev)
{
	switch (c->state) {
	case ST_HEAD:
		if (client)
			head_read(c);
		break;
	case ST_RESOLVING:
	case ST_CONNECTING:
		/* The client is watched only for leaving now (a reset is
		 * reported anyway, and again on every wait): give up on it. */
		if (client && (ev & (EPOLLERR | EPOLLHUP | EPOLLRDHUP)))
			conn_close(c);
		else if (!client)
			on_connected(c, ev);
		break;
	case ST_RELAY:
		relay_event(c, client, ev);
		break;
	case ST_CLOSING:
		if (client)
			closing_flush(c);
		break;
	case ST_DRAIN:
		if (client)
			drain(c);
		break;
	}
}

static void expire(struct px *p)
{
	int64_t now = now_ms();

	while (p->tl[0].head && p->tl[0].head->deadline <= now) {
		struct conn *c = p->tl[0].head;

		if (c->state == ST_RESOLVING || c->state == ST_CONNECTING) {
			/* Answer, and give the answer one more period. */
			tl_arm(p, c, 0, p->opt.handshake_timeout_ms);
			fail(c, 504, SOCKS5_REP_TTL_EXPIRED, "timeout",
			     "handshake time-out: lookup or connect not done");
		} else {
			conn_close(c);
		}
	}
	while (p->tl[1].head && p->tl[1].head->deadline <= now)
		conn_close(p->tl[1].head);
}

static int next_timeout(const struct px *p, int timeout_ms)
{
	int64_t now = now_ms(), best = -1;

	for (int i = 0; i < 2; i++) {
		if (!p->tl[i].head)
			continue;
		int64_t d = p->tl[i].head->deadline - now;

		if (d < 0)
			d = 0;
		if (best < 0 || d < best)
			best = d;
	}
	if (best < 0)
		return timeout_ms;
	if (timeout_ms >= 0 && timeout_ms < best)
		return timeout_ms;
	return best > INT_MAX ? INT_MAX : (int)best;
}

enum cordon_err proxy_run_once(struct px *p, int timeout_ms)
{
	struct epoll_event evs[EVENTS_PER_WAIT];
	int n;

	n = epoll_wait(p->epfd, evs, EVENTS_PER_WAIT,
		       next_timeout(p, timeout_ms));
	if (n < 0) {
		if (errno == EINTR)
			return CORDON_OK;
		return CORDON_E_IO;
	}
	for (int i = 0; i < n; i++) {
		struct ep *e = evs[i].data.ptr;

		switch (e->kind) {
		case EP_LISTEN:
		case EP_CONTROL:
			if (!p->stopping)
				on_accept(p, e);
			break;
		case EP_STOP: {
			uint64_t v;

			if (read(e->fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				return CORDON_E_IO;
			p->stopping = true;
			break;
		}
		case EP_LOOKUP:
			if (!e->c->dead)
				on_lookup_done(e->c);
			break;
		case EP_ORPHAN:
			orphan_done(p, (struct orphan *)e);
			break;
		case EP_CLIENT:
		case EP_UPSTREAM:
			if (!e->c->dead)
				conn_event(e->c, e->kind == EP_CLIENT,
					   evs[i].events);
			break;
		}
	}
	expire(p);
	reap_dead(p);
	while (p->dead_orphans) {
		struct orphan *o = p->dead_orphans;

		p->dead_orphans = o->next;
		free(o);
	}
	return CORDON_OK;
}

enum cordon_err proxy_run(struct px *p)
{
	while (!p->stopping) {
		enum cordon_err e = proxy_run_once(p, -1);

		if (e != CORDON_OK)
			return e;
	}
	return CORDON_OK;
}

void proxy_stop(struct px *p)
{
	uint64_t one = 1;

	if (write(p->stop.fd, &one, sizeof(one)) < 0) {
		/* An eventfd write only fails when the counter is full,
		 * and then a stop is pending already. */
	}
}

size_t proxy_conn_count(const struct px *p)
{
	return p->nconns + p->nctl;
}

/* ---- set-up ------------------------------------------------------------ */

void proxy_options_default(struct proxy_options *o)
{
	memset(o, 0, sizeof(*o));
	o->listen = "127.0.0.1:3128";
	o->listen_fd = -1;
	o->max_conns = PROXY_MAX_CONNS;
	o->max_header_bytes = HTTPREQ_MAX_HEADER_BYTES;
	o->handshake_timeout_ms = PROXY_HANDSHAKE_TIMEOUT_MS;
	o->idle_timeout_ms = PROXY_IDLE_TIMEOUT_MS;
}

static enum cordon_err open_listener(const char *s, const char *what,
				     int *out, struct cordon_diag *diag);

/* Opens the listening socket for "ADDR:PORT" or "[V6]:PORT" (port 0:
 * any), or takes over the caller's. */
static enum cordon_err listen_setup(struct px *p, struct cordon_diag *diag)
{
	if (p->opt.listen_fd >= 0) {
		int fl = fcntl(p->opt.listen_fd, F_GETFL);

		if (fl < 0 ||
		    fcntl(p->opt.listen_fd, F_SETFL, fl | O_NONBLOCK) != 0) {
			diag_errno(diag, CORDON_E_IO, errno,
				   "the listening socket: %s", strerror(errno));
			return CORDON_E_IO;
		}
		p->lst.fd = p->opt.listen_fd;
		return CORDON_OK;
	}
	return open_listener(p->opt.listen, "listen address", &p->lst.fd,
			     diag);
}

/* A nonblocking listening socket on s ("ADDR:PORT", "[V6]:PORT"); what
 * names the option in errors. */
static enum cordon_err open_listener(const char *s, const char *what,
				     int *out, struct cordon_diag *diag)
{
	const char *colon, *h;
	size_t hl;
	char hb[NETADDR_MAX_TEXT], *end;
	unsigned long port;
	struct netaddr_addr a;
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, one = 1;

	colon = s ? strrchr(s, ':') : NULL;
	if (!colon || colon == s || !isdigit((unsigned char)colon[1]))
		goto bad;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || port > 65535 ||
	    (colon[1] == '0' && colon[2] != '\0'))
		goto bad;
	h = s;
	hl = (size_t)(colon - s);
	if (h[0] == '[') {
		if (hl < 2 || h[hl - 1] != ']')
			goto bad;
		h++;
		hl -= 2;
	}
	if (hl == 0 || hl >= sizeof(hb))
		goto bad;
	memcpy(hb, h, hl);
	hb[hl] = '\0';
	if (!netaddr_parse_strict(hb, hl, &a) ||
	    (a.family == NETADDR_INET6 && s[0] != '['))
		goto bad;
	sl = to_sockaddr(&a, (unsigned)port, &ss);
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0) {
		diag_errno(diag, CORDON_E_IO, errno, "socket: %s",
			   strerror(errno));
		return CORDON_E_IO;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) != 0 ||
	    listen(fd, 4096) != 0) {
		int e = errno;

		close(fd);
		diag_errno(diag, CORDON_E_IO, e, "cannot listen on %s", s);
		if (diag) {
			size_t ml = strlen(diag->message);

			snprintf(diag->message + ml, sizeof(diag->message) - ml,
				 ": %s", strerror(e));
		}
		return CORDON_E_IO;
	}
	*out = fd;
	return CORDON_OK;
bad:
	diag_errno(diag, CORDON_E_CONFIG, 0,
		   "%s \"%s\": want ADDR:PORT or [V6]:PORT", what, s ? s : "");
	return CORDON_E_CONFIG;
}

/* Reads the Public Suffix List (see proxy_options.public_suffix_list). */
static enum cordon_err psl_load(struct px *p, struct cordon_diag *diag)
{
	const char *path = p->opt.public_suffix_list;
	int fd = open(path ? path : PROXY_PSL_DEFAULT, O_RDONLY | O_CLOEXEC |
							O_NOCTTY | O_NONBLOCK);
	struct stat st;
	int rc;

	p->opt.public_suffix_list = NULL; /* the caller's memory */
	buf_init(&p->psl, PROXY_PSL_MAX);
	if (fd < 0 && !path && errno == ENOENT)
		return CORDON_OK;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		diag_errno(diag, CORDON_E_CONFIG, fd < 0 ? errno : 0,
			   "public suffix list %s: %s",
			   path ? path : PROXY_PSL_DEFAULT,
			   fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return CORDON_E_CONFIG;
	}
	rc = atomic_read_all(fd, &p->psl);
	close(fd);
	if (rc != 0) {
		diag_errno(diag, CORDON_E_CONFIG, errno,
			   "public suffix list %s: %s",
			   path ? path : PROXY_PSL_DEFAULT, strerror(errno));
		return errno == ENOMEM ? CORDON_E_NOMEM : CORDON_E_CONFIG;
	}
	return CORDON_OK;
}

/* The control endpoint: checks and copies the token, opens the socket. */
static enum cordon_err control_setup(struct px *p, struct cordon_diag *diag)
{
	const char *t = p->opt.control_token;
	size_t n = t ? strlen(t) : 0;
	enum cordon_err e;

	if (n < PROXY_CONTROL_TOKEN_MIN || n > PROXY_CONTROL_TOKEN_MAX) {
		diag_errno(diag, CORDON_E_CONFIG, 0,
			   "the control token must be %d to %d bytes",
			   PROXY_CONTROL_TOKEN_MIN, PROXY_CONTROL_TOKEN_MAX);
		return CORDON_E_CONFIG;
	}
	for (size_t i = 0; i < n; i++) {
		if (t[i] < 0x21 || t[i] > 0x7e) {
			diag_errno(diag, CORDON_E_CONFIG, 0,
				   "the control token must be visible ASCII "
				   "(no spaces or control bytes)");
			return CORDON_E_CONFIG;
		}
	}
	p->token = cordon__malloc(n + 1);
	if (!p->token)
		return CORDON_E_NOMEM;
	memcpy(p->token, t, n + 1);
	p->token_len = n;
	p->opt.control_token = NULL; /* the caller's memory */
	if ((e = psl_load(p, diag)) != CORDON_OK)
		return e;
	e = open_listener(p->opt.control_listen, "control address", &p->ctl.fd,
			  diag);
	if (e != CORDON_OK)
		return e;
	p->ctl_local_len = sizeof(p->ctl_local);
	if (getsockname(p->ctl.fd, (struct sockaddr *)&p->ctl_local,
			&p->ctl_local_len) != 0) {
		diag_errno(diag, CORDON_E_IO, errno, "control socket: %s",
			   strerror(errno));
		return CORDON_E_IO;
	}
	if (p->ctl_local.ss_family == AF_INET)
		p->ctl_port = ntohs(
			((struct sockaddr_in *)&p->ctl_local)->sin_port);
	else
		p->ctl_port = ntohs(
			((struct sockaddr_in6 *)&p->ctl_local)->sin6_port);
	return CORDON_OK;
}

/* Checks the injection rule and builds what it needs: the host, the
 * header, the secret-bearing value and the TLS context. */
static enum cordon_err inject_setup(struct px *p, struct cordon_diag *diag)
{
	const struct proxy_options *o = &p->opt;
	const char *name = o->inject_header ? o->inject_header :
					      "Authorization";
	const char *fmt = o->inject_format ? o->inject_format : "Bearer %s";
	const char *mark = strstr(fmt, "%s");
	size_t hl = strlen(o->inject_host), sl, fl = strlen(fmt), nl;
	struct httpreq_host h;
	const char *why = NULL;

	if (!httpreq_host_parse(o->inject_host, hl, &h, &why) ||
	    h.kind != HTTPREQ_HOST_NAME) {
		diag_errno(diag, CORDON_E_CONFIG, 0, "inject host '%s': %s",
			   o->inject_host, why ? why : "not a DNS name");
		return CORDON_E_CONFIG;
	}
	if (!o->inject_secret || !*o->inject_secret ||
	    strlen(o->inject_secret) > PROXY_INJECT_SECRET_MAX) {
		diag_errno(diag, CORDON_E_CONFIG, 0,
			   "the injected secret must be 1 to %d bytes",
			   PROXY_INJECT_SECRET_MAX);
		return CORDON_E_CONFIG;
	}
	sl = strlen(o->inject_secret);
	for (size_t i = 0; i < sl; i++) {
		unsigned char ch = (unsigned char)o->inject_secret[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			diag_errno(diag, CORDON_E_CONFIG, 0,
				   "the injected secret holds a control byte");
			return CORDON_E_CONFIG;
		}
	}
	if (fl > PROXY_INJECT_FORMAT_MAX || !mark || strchr(mark + 2, '%') ||
	    strchr(fmt, '%') != mark) {
		diag_errno(diag, CORDON_E_CONFIG, 0,
			   "inject format: at most %d bytes with exactly one "
			   "%%s and no other %%",
			   PROXY_INJECT_FORMAT_MAX);
		return CORDON_E_CONFIG;
	}
	nl = strlen(name);
	if (nl == 0 || nl > 64 ||
	    strspn(name, "!#$%&'*+-.^_`|~0123456789"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "abcdefghijklmnopqrstuvwxyz") != nl) {
		diag_errno(diag, CORDON_E_CONFIG, 0,
			   "inject header '%s' is not a header name (at most "
			   "64 token bytes)",
			   name);
		return CORDON_E_CONFIG;
	}
	if (hl > 0 && o->inject_host[hl - 1] == '.')
		hl--;
	p->inj_host = cordon__strndup(o->inject_host, hl);
	p->inj_name = cordon__strdup(name);
	p->inj_value_len = fl - 2 + sl;
	p->inj_value = cordon__malloc(p->inj_value_len + 1);
	if (!p->inj_host || !p->inj_name || !p->inj_value)
		return CORDON_E_NOMEM;
	for (size_t i = 0; i < hl; i++)
		p->inj_host[i] = (char)tolower((unsigned char)p->inj_host[i]);
	memcpy(p->inj_value, fmt, (size_t)(mark - fmt));
	memcpy(p->inj_value + (mark - fmt), o->inject_secret, sl);
	memcpy(p->inj_value + (mark - fmt) + sl, mark + 2,
	       fl - (size_t)(mark - fmt) - 2);
	p->inj_value[p->inj_value_len] = '\0';
	p->inj_secret_off = (size_t)(mark - fmt);
	p->inj_secret_len = sl;
	for (size_t i = 0; i < p->inj_value_len; i++) {
		unsigned char ch = (unsigned char)p->inj_value[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			diag_errno(diag, CORDON_E_CONFIG, 0,
				   "inject format holds a control byte");
			return CORDON_E_CONFIG;
		}
	}
	p->inj_port = o->inject_port ? o->inject_port : 443;
	if (p->inj_port > 65535) {
		diag_errno(diag, CORDON_E_CONFIG, 0, "inject port %u",
			   p->inj_port);
		return CORDON_E_CONFIG;
	}
	p->inj_authority = cordon__malloc(hl + 8);
	if (!p->inj_authority)
		return CORDON_E_NOMEM;
	if (p->inj_port == 443)
		snprintf(p->inj_authority, hl + 8, "%s", p->inj_host);
	else
		snprintf(p->inj_authority, hl + 8, "%s:%u", p->inj_host,
			 p->inj_port);
	p->inj_ctx = SSL_CTX_new(TLS_client_method());
	if (!p->inj_ctx) {
		/* Out of memory, or (the cordon binary loads libssl on first
		 * use: cli/ssl_lazy.c) no TLS library: the queue says which. */
		char lib_why[256] = "out of memory";
		unsigned long err = ERR_get_error();

		if (err)
			ERR_error_string_n(err, lib_why, sizeof(lib_why));
		ERR_clear_error();
		diag_errno(diag, CORDON_E_IO, 0,
			   "TLS: cannot set up the injection's client: %s",
			   lib_why);
		return CORDON_E_IO;
	}
	if (!SSL_CTX_set_min_proto_version(p->inj_ctx, TLS1_2_VERSION) ||
	    !SSL_CTX_set_default_verify_paths(p->inj_ctx)) {
		ERR_clear_error();
		diag_errno(diag, CORDON_E_IO, 0,
			   "TLS: cannot load the system "
			   "trust store");
		return CORDON_E_IO;
	}
	if (o->inject_cacert &&
	    !SSL_CTX_load_verify_locations(p->inj_ctx, o->inject_cacert,
					   NULL)) {
		ERR_clear_error();
		diag_errno(diag, CORDON_E_CONFIG, 0,
			   "inject CA file '%s' cannot be loaded",
			   o->inject_cacert);
		return CORDON_E_CONFIG;
	}
	SSL_CTX_set_verify(p->inj_ctx, SSL_VERIFY_PEER, NULL);
	return CORDON_OK;
}

enum cordon_err proxy_new(const struct proxy_options *o, struct px **out,
		       struct cordon_diag *diag)
{
	struct px *p;
	enum cordon_err e;
	struct epoll_event ev;

	*out = NULL;
	if (o->max_conns == 0 || o->max_conns > PROXY_CONNS_CEILING ||
	    o->max_header_bytes == 0 ||
	    o->max_header_bytes > HTTPREQ_LIMIT_CEILING ||
	    o->handshake_timeout_ms == 0 || o->idle_timeout_ms == 0) {
		diag_errno(diag, CORDON_E_INVAL, 0,
			   "a proxy limit is out of range");
		return CORDON_E_INVAL;
	}
	p = cordon__calloc(1, sizeof(*p));
	if (!p)
		return CORDON_E_NOMEM;
	p->opt = *o;
	p->pipe_budget = o->pipe_budget ? o->pipe_budget : PROXY_PIPE_BUDGET;
	p->epfd = p->lst.fd = p->stop.fd = -1;
	p->lst = (struct ep){ EP_LISTEN, NULL, -1, UINT32_MAX };
	p->stop = (struct ep){ EP_STOP, NULL, -1, UINT32_MAX };
	p->ctl = (struct ep){ EP_CONTROL, NULL, -1, UINT32_MAX };
	p->scratch = cordon__malloc(IO_CHUNK);
	p->policy = hostlist_policy_new();
	p->guard = netaddr_guard_new();
	if (!p->scratch || !p->policy || !p->guard) {
		e = CORDON_E_NOMEM;
		goto fail;
	}
	e = hostlist_policy_add(p->policy, HOSTLIST_ALLOW, o->allow, o->nallow, diag);
	if (e == CORDON_OK)
		e = hostlist_policy_add(p->policy, HOSTLIST_DENY, o->deny, o->ndeny, diag);
	if (e == CORDON_OK)
		e = netaddr_guard_add_ranges(p->guard, o->deny_ranges,
					o->ndeny_ranges, diag);
	if (e == CORDON_OK)
		e = deny_literals_as_ranges(p, o, diag);
	if (e != CORDON_OK) {
		if (e != CORDON_E_NOMEM && e != CORDON_E_LIMIT)
			e = CORDON_E_CONFIG;
		goto fail;
	}
	if (!o->skip_own_addresses && (e = load_own(p, diag)) != CORDON_OK)
		goto fail;
	if ((e = load_overrides(p, diag)) != CORDON_OK)
		goto fail;
	if (o->inject_host)
		e = inject_setup(p, diag);
	p->opt.inject_secret = NULL; /* the caller's memory */
	if (e != CORDON_OK)
		goto fail;
	p->nallow_base = o->nallow;
	if ((e = listen_setup(p, diag)) != CORDON_OK)
		goto fail;
	if (o->control_listen && (e = control_setup(p, diag)) != CORDON_OK)
		goto fail;
	p->local_len = sizeof(p->local);
	if (getsockname(p->lst.fd, (struct sockaddr *)&p->local,
			&p->local_len) != 0)
		p->local_len = 0;
	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	p->stop.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->epfd < 0 || p->stop.fd < 0) {
		diag_errno(diag, CORDON_E_IO, errno, "epoll/eventfd: %s",
			   strerror(errno));
		e = CORDON_E_IO;
		goto fail;
	}
	struct ep *fixed[] = { &p->lst, &p->stop, &p->ctl };

	for (size_t i = 0; i < 3; i++) {
		struct ep *x = fixed[i];

		if (x->fd < 0)
			continue;
		ev.events = EPOLLIN;
		ev.data.ptr = x;
		if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, x->fd, &ev) != 0) {
			diag_errno(diag, CORDON_E_IO, errno, "epoll_ctl: %s",
				   strerror(errno));
			e = CORDON_E_IO;
			goto fail;
		}
		x->mask = EPOLLIN;
	}
	*out = p;
	return CORDON_OK;
fail:
	proxy_free(p);
	return e;
}

static const char *format_local(const struct sockaddr_storage *ss,
				socklen_t len, char *buf, size_t size)
{
	struct netaddr_addr a;
	char t[NETADDR_ADDRSTRLEN];
	unsigned port = 0;
	const struct sockaddr *sa = (const struct sockaddr *)ss;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	if (len == 0 || !netaddr_from_sockaddr(sa, &a))
		return buf;
	if (sa->sa_family == AF_INET)
		port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	else
		port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	netaddr_format(&a, t);
	snprintf(buf, size, a.family == NETADDR_INET6 ? "[%s]:%u" : "%s:%u", t,
		 port);
	return buf;
}

const char *proxy_local_addr(const struct px *p, char *buf, size_t size)
{
	return format_local(&p->local, p->local_len, buf, size);
}

const char *proxy_control_addr(const struct px *p, char *buf, size_t size)
{
	if (p->ctl.fd < 0) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	return format_local(&p->ctl_local, p->ctl_local_len, buf, size);
}

/* Lookups still running are abandoned: their threads end by themselves. */
void proxy_free(struct px *p)
{
	struct orphan *o;

	if (!p)
		return;
	p->freeing = true;
	for (int i = 0; i < 2; i++)
		while (p->tl[i].head)
			conn_close(p->tl[i].head);
	/* Conns on no list: resolving ones are on list 0, relays on 1,
	 * closing ones on list 0 as well (armed at accept). */
	reap_dead(p);
	while ((o = p->orphans)) {
		p->orphans = o->next;
		resolve_release(o->rj);
		free(o);
	}
	while ((o = p->dead_orphans)) {
		p->dead_orphans = o->next;
		free(o);
	}
	if (p->lst.fd >= 0)
		close(p->lst.fd);
	if (p->ctl.fd >= 0)
		close(p->ctl.fd);
	if (p->token) {
		explicit_bzero(p->token, p->token_len);
		free(p->token);
	}
	if (p->inj_value) {
		explicit_bzero(p->inj_value, p->inj_value_len);
		free(p->inj_value);
	}
	buf_free(&p->psl);
	free(p->inj_host);
	free(p->inj_name);
	free(p->inj_authority);
	SSL_CTX_free(p->inj_ctx);
	if (p->stop.fd >= 0)
		close(p->stop.fd);
	if (p->epfd >= 0)
		close(p->epfd);
	hostlist_policy_free(p->policy);
	netaddr_guard_free(p->guard);
	free(p->ovr);
	free(p->scratch);
	free(p);
}
