/* test_proxy_loop — the proxy's event loop driven a round at a time
 * (proxy_run_once): what one round of epoll does for a CONNECT.
 *
 * An upstream on loopback has finished the handshake by the time connect()
 * returns, and the proxy then answers 200 in the round that read the head,
 * not a round later (one epoll_ctl pair and one epoll_wait fewer a
 * tunnel). The kernel may defer its network work to ksoftirqd under load,
 * so each case is tried a few times and must be seen at least once: before
 * the change it could not happen at all. A refused upstream gets its 502
 * in the same way, a denied target its 403 (always: no network there),
 * and the tunnel carries bytes both ways.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proxy.h"
#include "tap.h"

#define TRIES 8

/* A socket bound on 127.0.0.1, its port in *port: listening, or a port
 * where nothing listens (bound, never listening: connects are refused). */
static int bound(bool listening, unsigned *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    (listening && listen(s, 64) != 0) ||
	    getsockname(s, (struct sockaddr *)&sa, &sl) != 0) {
		perror("bound");
		exit(1);
	}
	*port = ntohs(sa.sin_port);
	return s;
}

static int dial(const char *hostport)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = strrchr(hostport, ':');
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)strtoul(colon + 1, NULL, 10));
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		perror("dial");
		exit(1);
	}
	return fd;
}

/* What the client has been sent so far, without waiting. */
static size_t have(int fd, char *buf, size_t size)
{
	ssize_t r = recv(fd, buf, size - 1, MSG_DONTWAIT | MSG_PEEK);

	buf[r > 0 ? r : 0] = '\0';
	return r > 0 ? (size_t)r : 0;
}

/* Sends CONNECT 127.0.0.1:port and runs the loop until the answer's head
 * is there; the rounds it took, or -1 when none came in 50. */
static int rounds_to_answer(struct px *p, const char *px, unsigned port,
			    int *client, char *ans, size_t size)
{
	char req[128];
	int fd = dial(px), n;

	snprintf(req, sizeof(req),
		 "CONNECT 127.0.0.1:%u HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n\r\n",
		 port, port);
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req)) {
		perror("send");
		exit(1);
	}
	for (n = 1; n <= 50; n++) {
		if (proxy_run_once(p, 1000) != CORDON_OK)
			break;
		if (have(fd, ans, size) && strstr(ans, "\r\n\r\n")) {
			*client = fd;
			return n;
		}
	}
	*client = fd;
	return -1;
}

int main(void)
{
	const char *allow[2];
	char a0[64], a1[64], px[64], ans[512];
	struct proxy_options o;
	struct cordon_diag diag = { 0 };
	struct px *p = NULL;
	unsigned up_port, no_port;
	int up = bound(true, &up_port), no = bound(false, &no_port);
	int once = 0, once502 = 0, fd, n;

	tap_plan(7);
	snprintf(a0, sizeof(a0), "127.0.0.1:%u", up_port);
	snprintf(a1, sizeof(a1), "127.0.0.1:%u", no_port);
	allow[0] = a0;
	allow[1] = a1;
	proxy_options_default(&o);
	o.listen = "127.0.0.1:0";
	o.allow = allow;
	o.nallow = 2;
	o.skip_own_addresses = true;
	ok(proxy_new(&o, &p, &diag) == CORDON_OK, "proxy_new (%s)",
	   diag.message);
	if (!p)
		return tap_done();
	proxy_local_addr(p, px, sizeof(px));

	for (int i = 0; i < TRIES; i++) {
		n = rounds_to_answer(p, px, up_port, &fd, ans, sizeof(ans));
		if (n == 1 && strncmp(ans, "HTTP/1.1 200 ", 13) == 0)
			once++;
		if (i == TRIES - 1) {
			/* The last one carries bytes there and back. */
			int s = accept(up, NULL, NULL);
			char b[8] = "";

			recv(fd, ans,
			     strlen("HTTP/1.1 200 Connection "
				    "Established\r\n\r\n"),
			     0);
			send(fd, "ping", 4, MSG_NOSIGNAL);
			for (int k = 0; k < 20 && !have(s, b, sizeof(b)); k++)
				proxy_run_once(p, 100);
			ok(have(s, b, sizeof(b)) == 4 && strcmp(b, "ping") == 0,
			   "the tunnel carries the client's bytes (%s)", b);
			recv(s, b, 4, 0);
			send(s, "pong", 4, MSG_NOSIGNAL);
			for (int k = 0; k < 20 && !have(fd, b, sizeof(b)); k++)
				proxy_run_once(p, 100);
			ok(have(fd, b, sizeof(b)) == 4 &&
				   strcmp(b, "pong") == 0,
			   "and the upstream's back (%s)", b);
			close(s);
		} else {
			/* Drop what the listener holds for it. */
			close(accept(up, NULL, NULL));
		}
		close(fd);
		for (int k = 0; k < 3; k++)
			proxy_run_once(p, 0);
	}
	ok(once > 0,
	   "a loopback upstream: the 200 in the round that read the head "
	   "(%d of %d tries)",
	   once, TRIES);

	for (int i = 0; i < TRIES; i++) {
		n = rounds_to_answer(p, px, no_port, &fd, ans, sizeof(ans));
		if (n == 1 && strncmp(ans, "HTTP/1.1 502 ", 13) == 0 &&
		    strstr(ans, "X-Proxy-Error: connect-failed"))
			once502++;
		if (i == 0)
			ok(n > 0 && strncmp(ans, "HTTP/1.1 502 ", 13) == 0,
			   "a refusing upstream: 502 (%.40s)", ans);
		close(fd);
		for (int k = 0; k < 3; k++)
			proxy_run_once(p, 0);
	}
	ok(once502 > 0,
	   "a refusing upstream: the 502 in the round that read the head "
	   "(%d of %d tries)",
	   once502, TRIES);
	/* A refusal needs no network: its 403 goes out in the same round
	 * always (it waited for EPOLLOUT before). */
	n = rounds_to_answer(p, px, 1, &fd, ans, sizeof(ans));
	ok(n == 1 && strncmp(ans, "HTTP/1.1 403 ", 13) == 0 &&
		   strstr(ans, "X-Proxy-Error: blocked-by-allowlist"),
	   "a denied target: the 403 in the round that read the head (round "
	   "%d: %.40s)",
	   n, ans);
	close(fd);
	proxy_free(p);
	close(up);
	close(no);
	return tap_done();
}
