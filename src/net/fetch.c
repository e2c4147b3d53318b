/* fetch — an SSRF-safe HTTP(S) GET; see fetch.h for the rules. */
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "fetch.h"
#include "hostlist.h"
#include "httpreq.h"
#include "netaddr.h"
#include "resolve.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

#define FETCH_MAX_INFORMATIONAL 10 /* 1xx heads skipped before the answer */

struct fetch_url {
	bool https;
	enum netaddr_host kind;
	struct netaddr_addr addr;
	/* an IP literal as spelled (v4-mapped kept), for the guard: the
	 * loopback allowance must not reach [::ffff:127.0.0.1] */
	struct netaddr_addr spelled;
	char host[HOSTLIST_MAX_NAME + 1];
	unsigned port;
	char *path; /* path and query, starts with '/'; owned */
};

struct fetch_conn {
	int fd;
	SSL *ssl;
	bool dirty_eof; /* TLS peer closed without close_notify */
	size_t off, len;
	unsigned char buf[FETCH_MAX_HEAD];
};

struct fetch_ctx {
	const struct fetch_options *o;
	struct fetch_result *r;
	struct netaddr_guard *guard;
	SSL_CTX *tls;
	uint64_t deadline; /* CLOCK_MONOTONIC milliseconds */
	enum cordon_err err;
};

void fetch_options_default(struct fetch_options *o)
{
	memset(o, 0, sizeof(*o));
	o->max_redirects = FETCH_DEFAULT_MAX_REDIRECTS;
	o->max_body = FETCH_DEFAULT_MAX_BODY;
	o->timeout_ms = FETCH_DEFAULT_TIMEOUT_MS;
	o->connect_timeout_ms = FETCH_DEFAULT_CONNECT_TIMEOUT_MS;
}

void fetch_result_free(struct fetch_result *r)
{
	if (!r)
		return;
	free(r->final_url);
	free(r->content_type);
	free(r->body);
	memset(r, 0, sizeof(*r));
}

/* Records the first failure in r->error; later ones keep the first. */
__attribute__((format(printf, 3, 4))) static enum cordon_err
fail(struct fetch_ctx *c, enum cordon_err err, const char *fmt, ...)
{
	va_list ap;

	if (c->err != CORDON_OK)
		return c->err;
	c->err = err;
	va_start(ap, fmt);
	vsnprintf(c->r->error, sizeof(c->r->error), fmt, ap);
	va_end(ap);
	return err;
}

__attribute__((format(printf, 2, 3))) static enum cordon_err
refuse(struct fetch_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err != CORDON_OK)
		return c->err;
	c->err = CORDON_E_INVAL;
	c->r->refused = true;
	va_start(ap, fmt);
	vsnprintf(c->r->error, sizeof(c->r->error), fmt, ap);
	va_end(ap);
	return CORDON_E_INVAL;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Waits for events on fd until deadline: 1 ready, 0 timed out, -1 error. */
static int wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int rc;

	for (;;) {
		uint64_t now = now_ms();

		if (now >= deadline)
			return 0;
		uint64_t left = deadline - now;
		rc = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/* ---- URLs -------------------------------------------------------------- */

static bool ascii_ieq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		if (x >= 'A' && x <= 'Z')
			x = (unsigned char)(x - 'A' + 'a');
		if (x != y)
			return false;
	}
	return true;
}

static unsigned default_port(bool https)
{
	return https ? 443 : 80;
}

/* The URL text of u, malloc'd; NULL when out of memory. */
static char *url_text(const struct fetch_url *u)
{
	char port[16] = "";
	bool v6 = u->kind == NETADDR_HOST_IP && u->addr.family == NETADDR_INET6;
	size_t need;
	char *s;

	if (u->port != default_port(u->https))
		snprintf(port, sizeof(port), ":%u", u->port);
	need = strlen(u->host) + strlen(u->path) + strlen(port) + 16;
	s = cordon__malloc(need);
	if (!s)
		return NULL;
	snprintf(s, need, "%s://%s%s%s%s%s", u->https ? "https" : "http",
		 v6 ? "[" : "", u->host, v6 ? "]" : "", port, u->path);
	return s;
}

/* Parses s (NUL-terminated) into *u, refusing what fetch.h refuses. */
static enum cordon_err parse_url(struct fetch_ctx *c, const char *s,
				 struct fetch_url *u)
{
	size_t len = strlen(s), i, alen, hlen, plen;
	const char *auth, *rest, *host, *why = "";
	unsigned port;

	memset(u, 0, sizeof(*u));
	if (len > FETCH_MAX_URL)
		return fail(c, CORDON_E_LIMIT,
			    "URL longer than %u bytes (the URL limit)",
			    (unsigned)FETCH_MAX_URL);
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];

		if (b < 0x21 || b > 0x7e)
			return refuse(c,
				      "URL holds byte 0x%02x at offset %zu "
				      "(only printable ASCII; percent-encode "
				      "the rest)",
				      b, i);
		if (b == '\\')
			return refuse(c, "URL holds a backslash at offset %zu",
				      i);
	}
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];

		if (b == ':')
			break;
		if (!((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
		      (i > 0 && ((b >= '0' && b <= '9') || b == '+' ||
				 b == '-' || b == '.'))))
			return refuse(c, "not an absolute URL: no scheme");
	}
	if (i == len || i == 0)
		return refuse(c, "not an absolute URL: no scheme");
	if (ascii_ieq(s, i, "https")) {
		u->https = true;
	} else if (!ascii_ieq(s, i, "http")) {
		return refuse(c,
			      "scheme \"%.*s\" is not allowed (http and https "
			      "only)",
			      (int)(i > 32 ? 32 : i), s);
	}
	if (len - i < 3 || s[i + 1] != '/' || s[i + 2] != '/')
		return refuse(c, "URL has no \"//\" after the scheme");
	auth = s + i + 3;
	alen = strcspn(auth, "/?#");
	rest = auth + alen;
	if (memchr(auth, '@', alen))
		return refuse(c, "credentials in the URL (userinfo before "
				 "'@') are refused");
	if (!hostlist_split_authority(auth, alen, &host, &hlen, &port) || hlen == 0)
		return refuse(c, "bad authority \"%.*s\"",
			      (int)(alen > 300 ? 300 : alen), auth);
	u->kind = hostlist_normalize_host(host, hlen, u->host, &u->addr, &why);
	if (u->kind == NETADDR_HOST_INVALID)
		return refuse(c, "bad host \"%.*s\": %s",
			      (int)(hlen > 300 ? 300 : hlen), host, why);
	u->spelled = u->addr;
	if (u->kind == NETADDR_HOST_IP &&
	    netaddr_parse_host(host, hlen, &u->spelled) != NETADDR_HOST_IP)
		u->spelled = u->addr;
	u->port = port ? port : default_port(u->https);
	plen = strcspn(rest, "#");
	u->path = cordon__malloc(plen + 2);
	if (!u->path)
		return fail(c, CORDON_E_NOMEM, "out of memory");
	if (plen == 0 || rest[0] != '/') {
		u->path[0] = '/';
		memcpy(u->path + 1, rest, plen);
		u->path[plen + 1] = '\0';
	} else {
		memcpy(u->path, rest, plen);
		u->path[plen] = '\0';
	}
	return CORDON_OK;
}

/* The absolute URL that location (len bytes) names from base; malloc'd. */
static enum cordon_err resolve_location(struct fetch_ctx *c,
					const struct fetch_url *base,
					const char *loc, size_t len, char **out)
{
	char *origin, *s;
	size_t olen, dir = 0, need;
	const char *mid = "", *tail = loc;
	size_t i;

	*out = NULL;
	if (len == 0)
		return fail(c, CORDON_E_PARSE,
			    "redirect with an empty Location");
	if (len > FETCH_MAX_URL)
		return fail(c, CORDON_E_LIMIT,
			    "Location longer than %u bytes (the URL limit)",
			    (unsigned)FETCH_MAX_URL);
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)loc[i];

		if (b == ':')
			break;
		if (!((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
		      (i > 0 && ((b >= '0' && b <= '9') || b == '+' ||
				 b == '-' || b == '.'))))
			break;
	}
	if (i > 0 && i < len && loc[i] == ':') {
		s = cordon__malloc(len + 1);
		if (!s)
			return fail(c, CORDON_E_NOMEM, "out of memory");
		memcpy(s, loc, len);
		s[len] = '\0';
		*out = s;
		return CORDON_OK;
	}
	if (len >= 2 && loc[0] == '/' && loc[1] == '/') {
		const char *scheme = base->https ? "https:" : "http:";

		need = strlen(scheme) + len + 1;
		s = cordon__malloc(need);
		if (!s)
			return fail(c, CORDON_E_NOMEM, "out of memory");
		snprintf(s, need, "%s%.*s", scheme, (int)len, loc);
		*out = s;
		return CORDON_OK;
	}
	/* Same origin: the base URL up to its path. */
	origin = url_text(base);
	if (!origin)
		return fail(c, CORDON_E_NOMEM, "out of memory");
	olen = strlen(origin) - strlen(base->path);
	if (loc[0] == '/') {
		dir = 0;
	} else if (loc[0] == '?' || loc[0] == '#') {
		dir = strcspn(base->path, "?");
		if (loc[0] == '#') {
			/* A fragment alone: the same resource. */
			dir = strlen(base->path);
			tail = "";
			len = 0;
		}
	} else {
		size_t q = strcspn(base->path, "?");

		for (i = 0; i < q; i++)
			if (base->path[i] == '/')
				dir = i + 1;
	}
	need = olen + dir + strlen(mid) + len + 1;
	s = cordon__malloc(need);
	if (!s) {
		free(origin);
		return fail(c, CORDON_E_NOMEM, "out of memory");
	}
	snprintf(s, need, "%.*s%.*s%.*s", (int)olen, origin, (int)dir,
		 base->path, (int)len, tail);
	free(origin);
	*out = s;
	return CORDON_OK;
}

/* ---- the guard --------------------------------------------------------- */

static bool addr_passes(const struct fetch_ctx *c, const struct netaddr_verdict *v)
{
	if (!netaddr_denied(v))
		return true;
	if (v->embed != NETADDR_EMBED_NONE || v->cls == NETADDR_CLASS_INVALID ||
	    v->cls == NETADDR_CLASS_PUBLIC || v->cls >= 32)
		return false;
	return (c->o->allow_classes & (1u << v->cls)) != 0;
}

/* Tells the guard this host's own interface addresses. */
static enum cordon_err gather_own(struct fetch_ctx *c)
{
	struct ifaddrs *ifs, *it;
	struct netaddr_addr *own = NULL;
	size_t n = 0;
	struct cordon_diag diag;
	enum cordon_err err;

	if (getifaddrs(&ifs) != 0)
		return fail(c, CORDON_E_IO,
			    "cannot list this host's addresses: %s",
			    strerror(errno));
	own = cordon__calloc(NETADDR_MAX_OWN, sizeof(*own));
	if (!own) {
		freeifaddrs(ifs);
		return fail(c, CORDON_E_NOMEM, "out of memory");
	}
	for (it = ifs; it && n < NETADDR_MAX_OWN; it = it->ifa_next)
		if (netaddr_from_sockaddr(it->ifa_addr, &own[n]))
			n++;
	freeifaddrs(ifs);
	err = netaddr_guard_set_own(c->guard, own, n, &diag);
	free(own);
	if (err != CORDON_OK)
		return fail(c, err, "own addresses: %s", diag.message);
	return CORDON_OK;
}

/* Splits a resolve override "host:addr"; false when malformed. */
static bool split_override(const char *ov, char host[HOSTLIST_MAX_NAME + 1],
			   struct netaddr_addr *addr)
{
	const char *colon = strchr(ov, ':'), *why;
	struct netaddr_addr dummy;

	if (!colon || colon == ov)
		return false;
	if (hostlist_normalize_host(ov, (size_t)(colon - ov), host, &dummy, &why) !=
	    NETADDR_HOST_NAME)
		return false;
	return netaddr_parse(colon + 1, strlen(colon + 1), addr);
}

static bool add_unique(struct netaddr_addr *list, size_t *n, const struct netaddr_addr *a)
{
	for (size_t i = 0; i < *n; i++)
		if (netaddr_equal(&list[i], a))
			return true;
	if (*n >= FETCH_MAX_ADDRS)
		return false;
	list[(*n)++] = *a;
	return true;
}

/* Looks name up within the deadline (resolve.h: a lookup that hangs is
 * abandoned, its thread ends by itself). */
static enum cordon_err lookup(struct fetch_ctx *c, const char *name,
			      struct netaddr_addr all[FETCH_MAX_ADDRS],
			      size_t *nall)
{
	struct netaddr_addr got[RESOLVE_MAX_ADDRS];
	struct resolve_job *j;
	size_t n = 0;
	int w, err = 0;

	switch (resolve_start(name, &j)) {
	case CORDON_OK:
		break;
	case CORDON_E_NOMEM:
		return fail(c, CORDON_E_NOMEM, "out of memory");
	default:
		return fail(c, CORDON_E_IO, "cannot start looking up %s: %s",
			    name, strerror(errno));
	}
	w = wait_fd(resolve_fd(j), POLLIN, c->deadline);
	if (w > 0)
		resolve_result(j, &err, got, &n);
	resolve_release(j);
	if (w == 0)
		return fail(c, CORDON_E_IO,
			    "timed out resolving %s (total limit %u ms)", name,
			    c->o->timeout_ms);
	if (w < 0)
		return fail(c, CORDON_E_IO, "poll: %s", strerror(errno));
	if (err != 0)
		return fail(c, CORDON_E_IO, "cannot resolve %s: %s", name,
			    gai_strerror(err));
	for (size_t i = 0; i < n; i++)
		if (!add_unique(all, nall, &got[i]))
			break;
	if (*nall == 0)
		return fail(c, CORDON_E_IO, "%s has no address", name);
	return CORDON_OK;
}

/* The addresses of u's host that the guard lets through, in order. */
static enum cordon_err pick_addrs(struct fetch_ctx *c, const struct fetch_url *u,
				  struct netaddr_addr out[FETCH_MAX_ADDRS], size_t *n)
{
	struct netaddr_addr all[FETCH_MAX_ADDRS];
	size_t nall = 0, i;
	struct netaddr_verdict v;
	char buf[NETADDR_ADDRSTRLEN], denied[256] = "";
	size_t dlen = 0;

	*n = 0;
	if (u->kind == NETADDR_HOST_IP) {
		netaddr_classify(c->guard, &u->spelled, &v);
		if (!addr_passes(c, &v))
			return refuse(c, "address %s is %s (a denied class)",
				      netaddr_format(&u->spelled, buf),
				      netaddr_verdict_name(&v));
		out[(*n)++] = u->addr;
		return CORDON_OK;
	}
	for (i = 0; i < c->o->nresolve; i++) {
		char h[HOSTLIST_MAX_NAME + 1];
		struct netaddr_addr a;

		if (split_override(c->o->resolve[i], h, &a) &&
		    strcmp(h, u->host) == 0 && !add_unique(all, &nall, &a))
			break;
	}
	if (nall == 0) {
		enum cordon_err e = lookup(c, u->host, all, &nall);

		if (e != CORDON_OK)
			return e;
	}
	for (i = 0; i < nall; i++) {
		netaddr_classify(c->guard, &all[i], &v);
		if (addr_passes(c, &v)) {
			out[(*n)++] = all[i];
			continue;
		}
		if (dlen < sizeof(denied)) {
			int w = snprintf(denied + dlen, sizeof(denied) - dlen,
					 "%s%s is %s", dlen ? ", " : "",
					 netaddr_format(&all[i], buf),
					 netaddr_verdict_name(&v));
			if (w > 0)
				dlen += (size_t)w;
		}
	}
	if (*n == 0)
		return refuse(c, "every address of %s is denied: %s", u->host,
			      denied);
	return CORDON_OK;
}

/* ---- connections ------------------------------------------------------- */

static void conn_close(struct fetch_conn *k)
{
	if (k->ssl) {
		SSL_free(k->ssl);
		k->ssl = NULL;
	}
	if (k->fd >= 0) {
		close(k->fd);
		k->fd = -1;
	}
}

/* Connects to one of addrs[0..n) on port, in order, within the deadlines. */
static enum cordon_err conn_open(struct fetch_ctx *c, struct fetch_conn *k,
				 const struct netaddr_addr *addrs, size_t n,
				 unsigned port)
{
	char buf[NETADDR_ADDRSTRLEN], why[160] = "no address";
	uint64_t limit = now_ms() + c->o->connect_timeout_ms;

	if (limit > c->deadline)
		limit = c->deadline;
	for (size_t i = 0; i < n; i++) {
		struct sockaddr_storage ss;
		socklen_t sl;
		int fd, rc, soerr = 0;
		socklen_t el = sizeof(soerr);

		memset(&ss, 0, sizeof(ss));
		if (addrs[i].family == NETADDR_INET) {
			struct sockaddr_in *in = (struct sockaddr_in *)&ss;

			in->sin_family = AF_INET;
			in->sin_port = htons((uint16_t)port);
			memcpy(&in->sin_addr, addrs[i].b, 4);
			sl = sizeof(*in);
		} else {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons((uint16_t)port);
			memcpy(&in6->sin6_addr, addrs[i].b, 16);
			sl = sizeof(*in6);
		}
		fd = socket(ss.ss_family,
			    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(why, sizeof(why), "%s: socket: %s",
				 netaddr_format(&addrs[i], buf), strerror(errno));
			continue;
		}
		rc = connect(fd, (struct sockaddr *)&ss, sl);
		if (rc != 0 && errno == EINPROGRESS) {
			rc = wait_fd(fd, POLLOUT, limit);
			if (rc == 0) {
				close(fd);
				return fail(c, CORDON_E_IO,
					    "connect to %s port %u timed out",
					    netaddr_format(&addrs[i], buf), port);
			}
			if (rc < 0 ||
			    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &el))
				soerr = errno;
			rc = soerr ? -1 : 0;
			errno = soerr;
		}
		if (rc != 0) {
			snprintf(why, sizeof(why), "%s port %u: %s",
				 netaddr_format(&addrs[i], buf), port,
				 strerror(errno));
			close(fd);
			continue;
		}
		k->fd = fd;
		return CORDON_OK;
	}
	return fail(c, CORDON_E_IO, "cannot connect: %s", why);
}

static enum cordon_err tls_error(struct fetch_ctx *c, const char *what)
{
	char buf[256];
	unsigned long e = ERR_get_error();

	if (e == 0)
		return fail(c, CORDON_E_IO, "TLS %s failed", what);
	ERR_error_string_n(e, buf, sizeof(buf));
	ERR_clear_error();
	return fail(c, CORDON_E_IO, "TLS %s failed: %s", what, buf);
}

static enum cordon_err tls_ctx(struct fetch_ctx *c)
{
	if (c->tls)
		return CORDON_OK;
	c->tls = SSL_CTX_new(TLS_client_method());
	if (!c->tls)
		return tls_error(c, "setup");
	if (!SSL_CTX_set_min_proto_version(c->tls, TLS1_2_VERSION) ||
	    !SSL_CTX_set_default_verify_paths(c->tls))
		return tls_error(c, "setup");
	if (c->o->ca_file &&
	    !SSL_CTX_load_verify_locations(c->tls, c->o->ca_file, NULL))
		return tls_error(c, "loading the CA file");
	SSL_CTX_set_verify(c->tls, SSL_VERIFY_PEER, NULL);
	return CORDON_OK;
}

/* Handshakes on k->fd, verifying the certificate against u's host. */
static enum cordon_err tls_open(struct fetch_ctx *c, struct fetch_conn *k,
				const struct fetch_url *u)
{
	enum cordon_err err = tls_ctx(c);

	if (err != CORDON_OK)
		return err;
	k->ssl = SSL_new(c->tls);
	if (!k->ssl || !SSL_set_fd(k->ssl, k->fd))
		return tls_error(c, "setup");
	SSL_set_hostflags(k->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
	if (u->kind == NETADDR_HOST_NAME) {
		if (!SSL_set_tlsext_host_name(k->ssl, u->host) ||
		    !SSL_set1_host(k->ssl, u->host))
			return tls_error(c, "setup");
	} else if (!X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(k->ssl),
						  u->host)) {
		return tls_error(c, "setup");
	}
	for (;;) {
		int rc = SSL_connect(k->ssl), w;

		if (rc == 1)
			return CORDON_OK;
		switch (SSL_get_error(k->ssl, rc)) {
		case SSL_ERROR_WANT_READ:
			w = wait_fd(k->fd, POLLIN, c->deadline);
			break;
		case SSL_ERROR_WANT_WRITE:
			w = wait_fd(k->fd, POLLOUT, c->deadline);
			break;
		default: {
			long v = SSL_get_verify_result(k->ssl);

			if (v != X509_V_OK)
				return fail(c, CORDON_E_IO,
					    "TLS certificate of %s not "
					    "accepted: %s",
					    u->host,
					    X509_verify_cert_error_string(v));
			return tls_error(c, "handshake");
		}
		}
		if (w == 0)
			return fail(c, CORDON_E_IO,
				    "timed out in the TLS handshake (total "
				    "limit %u ms)",
				    c->o->timeout_ms);
		if (w < 0)
			return fail(c, CORDON_E_IO, "poll: %s",
				    strerror(errno));
	}
}

/* Writes data[0..len) before the deadline. */
static enum cordon_err conn_write(struct fetch_ctx *c, struct fetch_conn *k,
				  const char *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		short ev = POLLOUT;
		int w;

		if (k->ssl) {
			size_t n = 0;
			int rc = SSL_write_ex(k->ssl, data + done, len - done,
					      &n);

			if (rc == 1) {
				done += n;
				continue;
			}
			switch (SSL_get_error(k->ssl, rc)) {
			case SSL_ERROR_WANT_READ:
				ev = POLLIN;
				break;
			case SSL_ERROR_WANT_WRITE:
				break;
			default:
				return tls_error(c, "write");
			}
		} else {
			ssize_t n = send(k->fd, data + done, len - done,
					 MSG_NOSIGNAL);

			if (n > 0) {
				done += (size_t)n;
				continue;
			}
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				return fail(c, CORDON_E_IO,
					    "sending the request: %s",
					    strerror(errno));
		}
		w = wait_fd(k->fd, ev, c->deadline);
		if (w == 0)
			return fail(c, CORDON_E_IO,
				    "timed out sending the request (total "
				    "limit %u ms)",
				    c->o->timeout_ms);
		if (w < 0)
			return fail(c, CORDON_E_IO, "poll: %s",
				    strerror(errno));
	}
	return CORDON_OK;
}

/* Reads more into k->buf: 1 got bytes, 0 end of stream, -1 failed. */
static int conn_fill(struct fetch_ctx *c, struct fetch_conn *k)
{
	if (k->off > 0) {
		memmove(k->buf, k->buf + k->off, k->len - k->off);
		k->len -= k->off;
		k->off = 0;
	}
	if (k->len == sizeof(k->buf))
		return 1;
	for (;;) {
		short ev = POLLIN;
		int w;

		if (k->ssl) {
			size_t n = 0;
			int rc = SSL_read_ex(k->ssl, k->buf + k->len,
					     sizeof(k->buf) - k->len, &n);

			if (rc == 1) {
				k->len += n;
				return 1;
			}
			switch (SSL_get_error(k->ssl, rc)) {
			case SSL_ERROR_ZERO_RETURN:
				return 0;
			case SSL_ERROR_WANT_READ:
				break;
			case SSL_ERROR_WANT_WRITE:
				ev = POLLOUT;
				break;
			case SSL_ERROR_SSL:
				if (ERR_GET_REASON(ERR_peek_error()) ==
				    SSL_R_UNEXPECTED_EOF_WHILE_READING) {
					ERR_clear_error();
					k->dirty_eof = true;
					return 0;
				}
				tls_error(c, "read");
				return -1;
			default:
				tls_error(c, "read");
				return -1;
			}
		} else {
			ssize_t n = recv(k->fd, k->buf + k->len,
					 sizeof(k->buf) - k->len, 0);

			if (n > 0) {
				k->len += (size_t)n;
				return 1;
			}
			if (n == 0)
				return 0;
			if (errno != EAGAIN && errno != EINTR) {
				fail(c, CORDON_E_IO, "reading the answer: %s",
				     strerror(errno));
				return -1;
			}
		}
		w = wait_fd(k->fd, ev, c->deadline);
		if (w == 0) {
			fail(c, CORDON_E_IO,
			     "timed out waiting for the answer (total limit "
			     "%u ms)",
			     c->o->timeout_ms);
			return -1;
		}
		if (w < 0) {
			fail(c, CORDON_E_IO, "poll: %s", strerror(errno));
			return -1;
		}
	}
}

/* ---- the answer -------------------------------------------------------- */

static bool is_tchar(unsigned char b)
{
	return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
	       (b >= '0' && b <= '9') || (b && strchr("!#$%&'*+-.^_`|~", b));
}

static bool is_field_byte(unsigned char b)
{
	return b == '\t' || (b >= 0x20 && b != 0x7f);
}

/* A Content-Length or Transfer-Encoding value, as the request parser takes
 * it: at most one space before, nothing after. */
static bool framing_value(const char *v, size_t n, const char **out,
			  size_t *olen)
{
	if (n > 0 && v[0] == ' ') {
		v++;
		n--;
	}
	if (n == 0 || v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' ||
	    v[n - 1] == '\t')
		return false;
	*out = v;
	*olen = n;
	return true;
}

static bool parse_length(const char *v, size_t n, uint64_t *out)
{
	uint64_t x = 0;

	if (n == 0 || (n > 1 && v[0] == '0'))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		if (x > ((uint64_t)INT64_MAX - (uint64_t)(v[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(v[i] - '0');
	}
	*out = x;
	return true;
}

static char *dup_trimmed(const char *v, size_t n)
{
	char *s;

	while (n > 0 && (v[0] == ' ' || v[0] == '\t')) {
		v++;
		n--;
	}
	while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	s = cordon__malloc(n + 1);
	if (s) {
		memcpy(s, v, n);
		s[n] = '\0';
	}
	return s;
}

void fetch_head_free(struct fetch_head *h)
{
	if (!h)
		return;
	free(h->location);
	free(h->content_type);
	memset(h, 0, sizeof(*h));
}

/* Writes why into err[0..errlen) and returns code; fetch_parse_head's and
 * fetch_parse_chunk_size's way of failing without a fetch context. */
__attribute__((format(printf, 4, 5))) static enum cordon_err
perr(char *err, size_t errlen, enum cordon_err code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vsetf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

enum cordon_err fetch_parse_head(const char *p, size_t len, struct fetch_head *h,
			      char *err, size_t errlen)
{
	size_t pos, eol, nfields = 0;
	unsigned ncl = 0, nte = 0, nloc = 0;

	memset(h, 0, sizeof(*h));
	if (errlen > 0)
		err[0] = '\0';
	if (len < 4 || memcmp(p + len - 4, "\r\n\r\n", 4) != 0)
		return perr(err, errlen, CORDON_E_PARSE,
			    "answer head not ended by an empty line");
	if (len > FETCH_MAX_HEAD)
		return perr(err, errlen, CORDON_E_LIMIT,
			    "answer head longer than %u bytes (the head limit)",
			    (unsigned)FETCH_MAX_HEAD);
	h->len = len;
	for (size_t i = 0; i < len; i++)
		if ((p[i] == '\n' && (i == 0 || p[i - 1] != '\r')) ||
		    (p[i] == '\r' && (i + 1 == len || p[i + 1] != '\n')))
			return perr(err, errlen, CORDON_E_PARSE,
				    "answer head: bare CR or LF at offset %zu",
				    i);
	eol = (size_t)((const char *)memchr(p, '\r', len) - p);
	if (eol < 12 || memcmp(p, "HTTP/1.", 7) != 0 ||
	    (p[7] != '0' && p[7] != '1') || p[8] != ' ' || p[9] < '1' ||
	    p[9] > '9' || p[10] < '0' || p[10] > '9' || p[11] < '0' ||
	    p[11] > '9' || (eol > 12 && p[12] != ' '))
		return perr(err, errlen, CORDON_E_PARSE,
			    "malformed status line");
	for (size_t i = 13; i < eol; i++)
		if (!is_field_byte((unsigned char)p[i]))
			return perr(err, errlen, CORDON_E_PARSE,
				    "control byte in the status line");
	h->minor = p[7] - '0';
	h->status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
	for (pos = eol + 2; pos + 2 < len; pos = eol + 2) {
		const char *line = p + pos, *colon, *v, *fv;
		size_t ll, nl, vl, fvl;

		eol = pos +
		      (size_t)((const char *)memchr(line, '\r', len - pos) -
			       line);
		ll = eol - pos;
		if (++nfields > FETCH_MAX_HEADERS)
			return perr(err, errlen, CORDON_E_LIMIT,
				    "answer has more than %u header fields "
				    "(the header limit)",
				    (unsigned)FETCH_MAX_HEADERS);
		if (line[0] == ' ' || line[0] == '\t')
			return perr(
				err, errlen, CORDON_E_PARSE,
				"answer head: folded header line (obs-fold)");
		colon = memchr(line, ':', ll);
		if (!colon || colon == line)
			return perr(err, errlen, CORDON_E_PARSE,
				    "answer head: header line without a name");
		nl = (size_t)(colon - line);
		for (size_t i = 0; i < nl; i++)
			if (!is_tchar((unsigned char)line[i]))
				return perr(err, errlen, CORDON_E_PARSE,
					    "answer head: bad header name "
					    "(byte 0x%02x)",
					    (unsigned char)line[i]);
		v = colon + 1;
		vl = ll - nl - 1;
		for (size_t i = 0; i < vl; i++)
			if (!is_field_byte((unsigned char)v[i]))
				return perr(err, errlen, CORDON_E_PARSE,
					    "answer head: control byte in "
					    "header %.*s",
					    (int)nl, line);
		if (httpreq_name_eq(line, nl, "content-length")) {
			if (++ncl > 1)
				return perr(err, errlen, CORDON_E_PARSE,
					    "ambiguous framing: more than "
					    "one Content-Length");
			if (!framing_value(v, vl, &fv, &fvl) ||
			    !parse_length(fv, fvl, &h->length))
				return perr(err, errlen, CORDON_E_PARSE,
					    "ambiguous framing: Content-Length "
					    "is not a canonical number");
			h->has_length = true;
		} else if (httpreq_name_eq(line, nl, "transfer-encoding")) {
			if (++nte > 1)
				return perr(err, errlen, CORDON_E_PARSE,
					    "ambiguous framing: more than "
					    "one Transfer-Encoding");
			if (!framing_value(v, vl, &fv, &fvl) ||
			    !ascii_ieq(fv, fvl, "chunked"))
				return perr(err, errlen, CORDON_E_PARSE,
					    "ambiguous framing: Transfer-"
					    "Encoding other than \"chunked\"");
			h->chunked = true;
		} else if (httpreq_name_eq(line, nl, "location")) {
			if (++nloc > 1)
				return perr(err, errlen, CORDON_E_PARSE,
					    "answer has more than one "
					    "Location");
			h->location = dup_trimmed(v, vl);
			if (!h->location)
				return perr(err, errlen, CORDON_E_NOMEM,
					    "out of memory");
		} else if (httpreq_name_eq(line, nl, "content-type") &&
			   !h->content_type) {
			h->content_type = dup_trimmed(v, vl);
			if (!h->content_type)
				return perr(err, errlen, CORDON_E_NOMEM,
					    "out of memory");
		}
	}
	if (h->chunked && h->has_length)
		return perr(err, errlen, CORDON_E_PARSE,
			    "ambiguous framing: Transfer-Encoding with "
			    "Content-Length");
	if (h->chunked && h->minor == 0)
		return perr(err, errlen, CORDON_E_PARSE,
			    "ambiguous framing: Transfer-Encoding in an "
			    "HTTP/1.0 answer");
	return CORDON_OK;
}

/* Parses the head p[0..len) (final CRLF CRLF included) into *h, recording a
 * failure in c. */
static enum cordon_err parse_head(struct fetch_ctx *c, const char *p, size_t len,
				  struct fetch_head *h)
{
	char why[sizeof(c->r->error)];
	enum cordon_err err = fetch_parse_head(p, len, h, why, sizeof(why));

	if (err != CORDON_OK)
		return fail(c, err, "%s", why);
	return CORDON_OK;
}

/* Reads one answer head (1xx skipped) from k into *h. */
static enum cordon_err read_head(struct fetch_ctx *c, struct fetch_conn *k,
				 struct fetch_head *h)
{
	for (unsigned info = 0;; info++) {
		const unsigned char *end = NULL;
		enum cordon_err err;

		for (;;) {
			size_t have = k->len - k->off;
			int rc;

			end = memmem(k->buf + k->off, have, "\r\n\r\n", 4);
			if (end)
				break;
			if (have >= sizeof(k->buf))
				return fail(c, CORDON_E_LIMIT,
					    "answer head longer than %u bytes "
					    "(the head limit)",
					    (unsigned)FETCH_MAX_HEAD);
			rc = conn_fill(c, k);
			if (rc < 0)
				return c->err;
			if (rc == 0)
				return fail(c, CORDON_E_IO,
					    have ? "connection closed inside "
						   "the answer head" :
						   "connection closed without "
						   "an answer");
		}
		err = parse_head(c, (const char *)k->buf + k->off,
				 (size_t)(end + 4 - (k->buf + k->off)), h);
		if (err != CORDON_OK)
			return err;
		k->off += h->len;
		if (h->status >= 200)
			return CORDON_OK;
		if (h->status == 101)
			return fail(c, CORDON_E_PARSE,
				    "answer 101 (switching protocols) to a "
				    "plain GET");
		if (info >= FETCH_MAX_INFORMATIONAL)
			return fail(c, CORDON_E_LIMIT,
				    "more than %u informational (1xx) answers",
				    (unsigned)FETCH_MAX_INFORMATIONAL);
		fetch_head_free(h);
	}
}

/* Appends data to the result's body, up to max_body; sets truncated. */
static enum cordon_err body_add(struct fetch_ctx *c, size_t *cap,
				const unsigned char *data, size_t n)
{
	struct fetch_result *r = c->r;
	size_t room = c->o->max_body - r->body_len;

	if (n > room) {
		n = room;
		r->truncated = true;
	}
	if (r->body_len + n + 1 > *cap) {
		size_t ncap = *cap ? *cap : 16384;
		unsigned char *nb;

		while (ncap < r->body_len + n + 1)
			ncap = ncap > SIZE_MAX / 2 ? SIZE_MAX : ncap * 2;
		if (ncap > c->o->max_body + 1)
			ncap = c->o->max_body + 1;
		nb = cordon__realloc(r->body, ncap);
		if (!nb)
			return fail(c, CORDON_E_NOMEM, "out of memory");
		r->body = nb;
		*cap = ncap;
	}
	memcpy(r->body + r->body_len, data, n);
	r->body_len += n;
	r->body[r->body_len] = '\0';
	return CORDON_OK;
}

/* Takes up to want bytes of body from k (reading when empty): *got bytes,
 * 0 at end of stream. */
static enum cordon_err take(struct fetch_ctx *c, struct fetch_conn *k, size_t *cap,
			    uint64_t want, size_t *got)
{
	size_t have;

	*got = 0;
	if (k->off == k->len) {
		int rc = conn_fill(c, k);

		if (rc < 0)
			return c->err;
		if (rc == 0)
			return CORDON_OK;
	}
	have = k->len - k->off;
	if (have > want)
		have = (size_t)want;
	*got = have;
	enum cordon_err err = body_add(c, cap, k->buf + k->off, have);
	k->off += have;
	return err;
}

/* Reads one CRLF-terminated line of at most max bytes into line. */
static enum cordon_err read_line(struct fetch_ctx *c, struct fetch_conn *k,
				 char *line, size_t max, size_t *len)
{
	for (;;) {
		unsigned char *lf =
			memchr(k->buf + k->off, '\n', k->len - k->off);

		if (lf) {
			size_t n = (size_t)(lf - (k->buf + k->off));

			if (n == 0 || k->buf[k->off + n - 1] != '\r')
				return fail(c, CORDON_E_PARSE,
					    "chunked body: line not ended by "
					    "CRLF");
			if (n - 1 > max)
				break;
			memcpy(line, k->buf + k->off, n - 1);
			*len = n - 1;
			k->off += n + 1;
			return CORDON_OK;
		}
		if (k->len - k->off > max + 1)
			break;
		int rc = conn_fill(c, k);
		if (rc < 0)
			return c->err;
		if (rc == 0)
			return fail(c, CORDON_E_IO,
				    "connection closed inside a chunked body");
	}
	return fail(c, CORDON_E_LIMIT,
		    "chunked body: line longer than %zu bytes (the chunk line "
		    "limit)",
		    max);
}

enum cordon_err fetch_parse_chunk_size(const char *line, size_t len,
				    uint64_t *size, char *err, size_t errlen)
{
	uint64_t x = 0;
	size_t i;

	*size = 0;
	if (errlen > 0)
		err[0] = '\0';
	for (i = 0; i < len; i++) {
		int d;
		char b = line[i];

		if (b >= '0' && b <= '9')
			d = b - '0';
		else if (b >= 'a' && b <= 'f')
			d = b - 'a' + 10;
		else if (b >= 'A' && b <= 'F')
			d = b - 'A' + 10;
		else
			break;
		if (x > (UINT64_MAX >> 4))
			return perr(err, errlen, CORDON_E_PARSE,
				    "chunked body: chunk size overflows");
		x = x * 16 + (uint64_t)d;
	}
	if (i == 0 || (i < len && line[i] != ';'))
		return perr(err, errlen, CORDON_E_PARSE,
			    "chunked body: malformed chunk size line");
	*size = x;
	return CORDON_OK;
}

static enum cordon_err read_chunked(struct fetch_ctx *c, struct fetch_conn *k,
				    size_t *cap)
{
	char line[FETCH_MAX_CHUNK_LINE], why[128];
	size_t len, trailer = 0;
	enum cordon_err err;

	for (;;) {
		uint64_t size = 0;

		err = read_line(c, k, line, sizeof(line), &len);
		if (err != CORDON_OK)
			return err;
		err = fetch_parse_chunk_size(line, len, &size, why, sizeof(why));
		if (err != CORDON_OK)
			return fail(c, err, "%s", why);
		if (size == 0)
			break;
		while (size > 0) {
			size_t got;

			err = take(c, k, cap, size, &got);
			if (err != CORDON_OK)
				return err;
			if (c->r->truncated)
				return CORDON_OK;
			if (got == 0)
				return fail(c, CORDON_E_IO,
					    "connection closed inside a chunk");
			size -= got;
		}
		err = read_line(c, k, line, sizeof(line), &len);
		if (err != CORDON_OK)
			return err;
		if (len != 0)
			return fail(c, CORDON_E_PARSE,
				    "chunked body: chunk data longer than "
				    "its size");
	}
	/* Trailer fields are read and dropped. */
	for (;;) {
		err = read_line(c, k, line, sizeof(line), &len);
		if (err != CORDON_OK)
			return err;
		if (len == 0)
			return CORDON_OK;
		trailer += len + 2;
		if (trailer > FETCH_MAX_HEAD)
			return fail(c, CORDON_E_LIMIT,
				    "chunked trailer longer than %u bytes "
				    "(the head limit)",
				    (unsigned)FETCH_MAX_HEAD);
	}
}

static enum cordon_err read_body(struct fetch_ctx *c, struct fetch_conn *k,
				 const struct fetch_head *h)
{
	size_t cap = 0, got;
	enum cordon_err err;

	if (h->status == 204 || h->status == 304)
		return CORDON_OK;
	if (h->chunked)
		return read_chunked(c, k, &cap);
	if (h->has_length) {
		uint64_t left = h->length;

		while (left > 0 && !c->r->truncated) {
			err = take(c, k, &cap, left, &got);
			if (err != CORDON_OK)
				return err;
			if (got == 0)
				return fail(c, CORDON_E_IO,
					    "connection closed after %zu of "
					    "%llu body bytes",
					    c->r->body_len,
					    (unsigned long long)h->length);
			left -= got;
		}
		return CORDON_OK;
	}
	for (;;) {
		err = take(c, k, &cap, UINT64_MAX, &got);
		if (err != CORDON_OK)
			return err;
		if (c->r->truncated)
			return CORDON_OK;
		if (got == 0)
			break;
	}
	if (k->dirty_eof)
		return fail(c, CORDON_E_IO,
			    "TLS connection closed without close_notify: the "
			    "body may be cut short");
	return CORDON_OK;
}

/* ---- one hop ----------------------------------------------------------- */

static enum cordon_err send_request(struct fetch_ctx *c, struct fetch_conn *k,
				    const struct fetch_url *u)
{
	bool v6 = u->kind == NETADDR_HOST_IP && u->addr.family == NETADDR_INET6;
	char port[16] = "";
	size_t need;
	char *req;
	int w;
	enum cordon_err err;

	if (u->port != default_port(u->https))
		snprintf(port, sizeof(port), ":%u", u->port);
	need = strlen(u->path) + strlen(u->host) + 256;
	req = cordon__malloc(need);
	if (!req)
		return fail(c, CORDON_E_NOMEM, "out of memory");
	w = snprintf(req, need,
		     "GET %s HTTP/1.1\r\n"
		     "Host: %s%s%s%s\r\n"
		     "User-Agent: " FETCH_USER_AGENT "\r\n"
		     "Accept: */*\r\n"
		     "Accept-Encoding: identity\r\n"
		     "Connection: close\r\n"
		     "\r\n",
		     u->path, v6 ? "[" : "", u->host, v6 ? "]" : "", port);
	if (w < 0 || (size_t)w >= need) {
		free(req);
		return fail(c, CORDON_E_LIMIT, "request too long");
	}
	err = conn_write(c, k, req, (size_t)w);
	free(req);
	return err;
}

static bool is_redirect(int status)
{
	return status == 301 || status == 302 || status == 303 ||
	       status == 307 || status == 308;
}

/* Fetches u. On a redirect *next gets the absolute URL to go to. */
static enum cordon_err hop(struct fetch_ctx *c, const struct fetch_url *u,
			   char **next)
{
	struct netaddr_addr addrs[FETCH_MAX_ADDRS];
	size_t naddrs;
	struct fetch_conn *k;
	struct fetch_head h;
	enum cordon_err err;

	*next = NULL;
	memset(&h, 0, sizeof(h));
	err = pick_addrs(c, u, addrs, &naddrs);
	if (err != CORDON_OK)
		return err;
	k = cordon__calloc(1, sizeof(*k));
	if (!k)
		return fail(c, CORDON_E_NOMEM, "out of memory");
	k->fd = -1;
	err = conn_open(c, k, addrs, naddrs, u->port);
	if (err == CORDON_OK && u->https)
		err = tls_open(c, k, u);
	if (err == CORDON_OK)
		err = send_request(c, k, u);
	if (err == CORDON_OK)
		err = read_head(c, k, &h);
	if (err == CORDON_OK && is_redirect(h.status) && h.location) {
		err = resolve_location(c, u, h.location, strlen(h.location),
				       next);
	} else if (err == CORDON_OK) {
		c->r->status = h.status;
		c->r->content_type = h.content_type;
		h.content_type = NULL;
		err = read_body(c, k, &h);
	}
	fetch_head_free(&h);
	conn_close(k);
	free(k);
	return err;
}

/* Checks the options before anything is dialled. */
static enum cordon_err check_options(struct fetch_ctx *c)
{
	const struct fetch_options *o = c->o;
	struct cordon_diag diag;
	enum cordon_err err;

	if (o->max_redirects > FETCH_MAX_REDIRECTS)
		return fail(c, CORDON_E_INVAL,
			    "max_redirects above %u (the redirect ceiling)",
			    (unsigned)FETCH_MAX_REDIRECTS);
	if (o->max_body == 0 || o->max_body == SIZE_MAX)
		return fail(c, CORDON_E_INVAL, "max_body out of range");
	if (o->timeout_ms == 0 || o->connect_timeout_ms == 0)
		return fail(c, CORDON_E_INVAL, "a time-out of 0");
	if (o->nresolve > FETCH_MAX_RESOLVE)
		return fail(c, CORDON_E_LIMIT,
			    "more than %u resolve overrides (the override "
			    "limit)",
			    (unsigned)FETCH_MAX_RESOLVE);
	for (size_t i = 0; i < o->nresolve; i++) {
		char h[HOSTLIST_MAX_NAME + 1];
		struct netaddr_addr a;

		if (!o->resolve[i] || !split_override(o->resolve[i], h, &a))
			return fail(c, CORDON_E_INVAL,
				    "resolve override %zu \"%.200s\": not "
				    "HOST:ADDRESS",
				    i, o->resolve[i] ? o->resolve[i] : "");
	}
	c->guard = netaddr_guard_new();
	if (!c->guard)
		return fail(c, CORDON_E_NOMEM, "out of memory");
	if (o->ndeny_ranges) {
		err = netaddr_guard_add_ranges(c->guard, o->deny_ranges,
					  o->ndeny_ranges, &diag);
		if (err != CORDON_OK)
			return fail(
				c, err == CORDON_E_NOMEM ? err : CORDON_E_INVAL,
				"%s", diag.message);
	}
	return gather_own(c);
}

/* Says which redirect failed: "redirect 2 to URL: " before the reason. */
static void prefix_hop(struct fetch_result *r, const char *url)
{
	char tmp[sizeof(r->error)];

	if (r->redirects == 0)
		return;
	memcpy(tmp, r->error, sizeof(tmp));
	snprintf(r->error, sizeof(r->error), "redirect %u to %.200s: %.280s",
		 r->redirects, url, tmp);
}

enum cordon_err fetch_fetch(const char *url, const struct fetch_options *o,
			 struct fetch_result *r)
{
	struct fetch_options defaults;
	struct fetch_ctx c;
	struct fetch_url u;
	char *cur = NULL;
	bool was_https = false;
	enum cordon_err err;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	memset(&u, 0, sizeof(u));
	if (!o) {
		fetch_options_default(&defaults);
		o = &defaults;
	}
	c.o = o;
	c.r = r;
	if (!url)
		return fail(&c, CORDON_E_INVAL, "no URL");
	err = check_options(&c);
	if (err != CORDON_OK)
		goto out;
	c.deadline = now_ms() + o->timeout_ms;
	cur = cordon__strdup(url);
	if (!cur) {
		err = fail(&c, CORDON_E_NOMEM, "out of memory");
		goto out;
	}
	for (;;) {
		char *next = NULL;

		free(u.path);
		err = parse_url(&c, cur, &u);
		if (err != CORDON_OK) {
			prefix_hop(r, cur);
			break;
		}
		free(cur);
		cur = url_text(&u);
		if (!cur) {
			err = fail(&c, CORDON_E_NOMEM, "out of memory");
			break;
		}
		if (was_https && !u.https) {
			err = refuse(&c,
				     "redirect %u from https to http (%s) "
				     "refused",
				     r->redirects, cur);
			break;
		}
		was_https = u.https;
		err = hop(&c, &u, &next);
		if (err != CORDON_OK) {
			prefix_hop(r, cur);
			break;
		}
		if (!next)
			break;
		if (r->redirects >= o->max_redirects) {
			free(next);
			err = fail(&c, CORDON_E_LIMIT,
				   "too many redirects (limit %u)",
				   o->max_redirects);
			break;
		}
		r->redirects++;
		free(cur);
		cur = next;
	}
out:
	r->final_url = cur;
	free(u.path);
	netaddr_guard_free(c.guard);
	SSL_CTX_free(c.tls);
	return err;
}

/* ---- the public API ---------------------------------------------------- */

/* cordon.h: the public options mapped onto fetch_options (zero fields take
 * the defaults; no loopback or other class allowance, no resolve
 * overrides: those are for tests through the internal API only), the
 * answer moved into the public result. */
enum cordon_err cordon_fetch(const char *url, const struct cordon_fetch_opts *o,
			     struct cordon_fetch_result *res)
{
	struct fetch_options fo;
	struct fetch_result r;
	enum cordon_err err;

	if (!res)
		return CORDON_E_INVAL;
	memset(res, 0, sizeof(*res));
	fetch_options_default(&fo);
	if (o) {
		if (o->no_redirects)
			fo.max_redirects = 0;
		else if (o->max_redirects)
			fo.max_redirects = o->max_redirects;
		if (o->max_body)
			fo.max_body = o->max_body;
		if (o->timeout_ms)
			fo.timeout_ms = o->timeout_ms;
		if (fo.connect_timeout_ms > fo.timeout_ms)
			fo.connect_timeout_ms = fo.timeout_ms;
		fo.ca_file = o->ca_file;
	}
	_Static_assert(sizeof(res->error) == sizeof(r.error),
		       "the public and internal error buffers differ");
	err = fetch_fetch(url, &fo, &r);
	res->status = r.status;
	res->final_url = r.final_url;
	res->content_type = r.content_type;
	res->body = r.body;
	res->body_len = r.body_len;
	res->truncated = r.truncated;
	res->refused = r.refused;
	memcpy(res->error, r.error, sizeof(res->error));
	res->error[sizeof(res->error) - 1] = '\0';
	return err;
}

void cordon_fetch_result_free(struct cordon_fetch_result *res)
{
	if (!res)
		return;
	free(res->final_url);
	free(res->content_type);
	free(res->body);
	memset(res, 0, sizeof(*res));
}
