/* netproxy — the sandbox's side of --network proxy (sandbox_int.h).
 *
 * Namespaces backend: the child makes the listening socket on
 * 127.0.0.1:SANDBOX_PROXY_PORT of its new network namespace and hands it to
 * the parent, which serves it with the egress proxy (proxy.h) on a thread.
 * Landlock backend: the proxy listens on the host's loopback. The
 * command's environment points the proxy variables at it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <sys/socket.h>

#include "envfilter.h"
#include "proxy.h"
#include "sandbox_int.h"
#include "unixmsg.h"

#include "banned.h"

/* network proxy: the listening socket on 127.0.0.1:proxy_port of the new
 * network namespace, handed to the parent (SCM_RIGHTS), which serves it
 * from outside with the proxy. */
void sandbox_netproxy_child_socket(struct sandbox_plan *p)
{
	struct sockaddr_in sin;
	char c = 'L';
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), e;

	if (s < 0)
		sandbox_child_die(p, ST_SETUP, errno, "network proxy: socket");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(p->proxy_port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof(sin)) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "network proxy: bind 127.0.0.1:%u",
				  (unsigned)p->proxy_port);
	if (listen(s, SOMAXCONN) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "network proxy: listen");
	e = unixmsg_send(p->pxs_w, &c, 1, s);
	if (e != 0)
		sandbox_child_die(p, ST_SETUP, e,
				  "network proxy: hand the socket out");
	close(s);
	close(p->pxs_w);
	p->pxs_w = -1;
}

static enum cordon_err plan_proxy_new(struct sandbox_plan *p, int fd,
				      struct cordon_diag *d)
{
	const struct sandbox_opts *o = p->o;
	struct proxy_options po;

	proxy_options_default(&po);
	po.listen = "127.0.0.1:0";
	po.listen_fd = fd;
	po.allow = o->allow_hosts;
	po.nallow = o->nallow_hosts;
	po.deny = o->deny_hosts;
	po.ndeny = o->ndeny_hosts;
	po.deny_ranges = o->deny_ranges;
	po.ndeny_ranges = o->ndeny_ranges;
	po.control_listen = o->control_listen;
	po.control_token = o->control_token;
	po.inject_host = o->inject_host;
	po.inject_secret = o->inject_secret;
	po.inject_header = o->inject_header;
	po.inject_format = o->inject_format;
	po.inject_cacert = o->inject_cacert;
	po.inject_port = o->inject_port;
	po.inject_allow_loopback = o->inject_allow_loopback;
	po.on_decision = o->proxy_decision;
	po.ctx = o->proxy_decision_ctx;
	return proxy_new(&po, &p->px, d);
}

/* Before the clone: the port the command is told about. Namespaces: a
 * fixed port of the sandbox's own network namespace (nothing else
 * listens there), the socket comes from the child; otherwise the proxy
 * listens on the host's loopback now, on a port of the kernel's choice. */
int sandbox_netproxy_prepare(struct sandbox_plan *p)
{
	struct cordon_diag d;
	char addr[64], *colon, *end;
	unsigned long port;

	if (p->o->network != SANDBOX_NET_PROXY)
		return 0;
	if (p->netns) {
		p->proxy_port = SANDBOX_PROXY_PORT;
		return 0;
	}
	memset(&d, 0, sizeof(d));
	if (plan_proxy_new(p, -1, &d) != CORDON_OK)
		return sandbox_plan_fail(p, "network proxy: %s", d.message);
	proxy_local_addr(p->px, addr, sizeof(addr));
	colon = strrchr(addr, ':');
	errno = 0;
	port = colon ? strtoul(colon + 1, &end, 10) : 0;
	if (!colon || errno || *end || port == 0 || port > 65535)
		return sandbox_plan_fail(p, "network proxy: no port in '%s'",
					 addr);
	p->proxy_port = (unsigned short)port;
	return 0;
}

/* The command's environment: the filtered one, and in proxy mode the
 * proxy variables (NO_PROXY emptied: nothing goes around the proxy). */
char **sandbox_netproxy_env(struct sandbox_plan *p)
{
	static const char *const names[] = { "HTTP_PROXY",  "http_proxy",
					     "HTTPS_PROXY", "https_proxy",
					     "ALL_PROXY",   "all_proxy",
					     "NO_PROXY",    "no_proxy" };
	const size_t nn = sizeof(names) / sizeof(names[0]);
	const struct sandbox_opts *o = p->o;
	extern char **environ;
	char **extra;
	size_t nx = 0, n = 0;

	if (o->network != SANDBOX_NET_PROXY)
		return envfilter_build(environ, o->env_allow, o->env_deny,
				       o->extra_env);
	while (o->extra_env && o->extra_env[nx])
		nx++;
	if (nx > SIZE_MAX / sizeof(char *) - nn - 1)
		return NULL;
	extra = arena_alloc(&p->arena, (nx + nn + 1) * sizeof(char *));
	if (!extra)
		return NULL;
	for (size_t i = 0; i < nx; i++) {
		const char *e = o->extra_env[i];
		const char *eq = strchr(e, '=');
		size_t nl = eq ? (size_t)(eq - e) : strlen(e);
		bool ours = false;

		for (size_t j = 0; j < nn; j++)
			if (strlen(names[j]) == nl &&
			    memcmp(names[j], e, nl) == 0)
				ours = true;
		if (!ours)
			extra[n++] = (char *)e;
	}
	for (size_t j = 0; j < nn; j++) {
		char buf[96];

		if (j >= 6)
			(void)snprintf(buf, sizeof(buf), "%s=", names[j]);
		else
			(void)snprintf(buf, sizeof(buf), "%s=%s://127.0.0.1:%u",
				       names[j], j >= 4 ? "socks5h" : "http",
				       (unsigned)p->proxy_port);
		extra[n] = sandbox_plan_strdup(p, buf);
		if (!extra[n])
			return NULL;
		n++;
	}
	extra[n] = NULL;
	return envfilter_build(environ, o->env_allow, o->env_deny, extra);
}

static void *proxy_thread(void *arg)
{
	(void)proxy_run(arg);
	return NULL;
}

/* Receives the listening socket from the child (namespaces backend);
 * -1 when the child died first (its own error says why). */
static int proxy_recv_socket(struct sandbox_plan *p)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg;
	struct cmsghdr *cm;
	struct iovec iov;
	char c;
	int fd = -1;
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = &c;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = u.buf;
	msg.msg_controllen = sizeof(u.buf);
	do
		n = recvmsg(p->pxs_r, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* After the clone: the proxy serves its socket on a thread of its own
 * until sandbox_netproxy_end(). -1 with proxy_diag set when it cannot:
 * the caller kills the child (no command runs with a dead proxy
 * endpoint). */
int sandbox_netproxy_start(struct sandbox_plan *p)
{
	struct cordon_diag d;
	int fd, e;

	if (!p->px) {
		fd = proxy_recv_socket(p);
		close(p->pxs_r);
		p->pxs_r = -1;
		if (fd < 0)
			return 0; /* the child failed and says why */
		memset(&d, 0, sizeof(d));
		if (plan_proxy_new(p, fd, &d) != CORDON_OK) {
			(void)snprintf(p->proxy_diag, sizeof(p->proxy_diag),
				       "network proxy: %s", d.message);
			return -1;
		}
	}
	e = pthread_create(&p->proxy_thread, NULL, proxy_thread, p->px);
	if (e != 0) {
		(void)snprintf(p->proxy_diag, sizeof(p->proxy_diag),
			       "network proxy: thread: %s", strerror(e));
		return -1;
	}
	p->proxy_running = true;
	return 0;
}

void sandbox_netproxy_end(struct sandbox_plan *p)
{
	if (p->proxy_running) {
		proxy_stop(p->px);
		(void)pthread_join(p->proxy_thread, NULL);
		p->proxy_running = false;
	}
	proxy_free(p->px);
	p->px = NULL;
}
