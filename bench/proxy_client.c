/* cordon-bench-proxy — the egress proxy's benchmark peer, in C so that the
 * client and servers cost little next to the proxy.
 *
 *   cordon-bench-proxy serve sink|echo|hold
 *       listens on 127.0.0.1 (port printed first); sink: an 8-byte
 *       big-endian length, that many bytes, then "k"; echo: echoes; hold:
 *       keeps connections open. One thread per connection.
 *   cordon-bench-proxy serve floor
 *       a bare CONNECT relay (port printed first), one tunnel at a time:
 *       poll() and splice(), nothing else; the floor any splice relay
 *       stands on.
 *   cordon-bench-proxy throughput PROXY|- TARGET MIB RUNS
 *       RUNS transfers of MIB MiB through a CONNECT tunnel (PROXY "-":
 *       direct); prints the median MiB/s.
 *   cordon-bench-proxy latency PROXY|- TARGET RUNS
 *       RUNS times connect + CONNECT + 200 + a 1-byte echo; prints the
 *       median in microseconds.
 * Exit 1 on any failure, naming it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static void die(const char *what)
{
	fprintf(stderr, "cordon-bench-proxy: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void parse_hp(const char *hp, struct sockaddr_in *sa)
{
	const char *colon = strrchr(hp, ':');
	char host[64];

	if (!colon || (size_t)(colon - hp) >= sizeof(host)) {
		fprintf(stderr, "cordon-bench-proxy: want HOST:PORT: %s\n", hp);
		exit(1);
	}
	memcpy(host, hp, (size_t)(colon - hp));
	host[colon - hp] = '\0';
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)strtoul(colon + 1, NULL, 10));
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) {
		fprintf(stderr, "cordon-bench-proxy: not IPv4: %s\n", host);
		exit(1);
	}
}

static int dial(const char *hp)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	parse_hp(hp, &sa);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void send_all(int fd, const void *b, size_t n)
{
	const char *p = b;

	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("send");
		}
		p += w;
		n -= (size_t)w;
	}
}

static void recv_all(int fd, void *b, size_t n)
{
	char *p = b;

	while (n > 0) {
		ssize_t r = recv(fd, p, n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("recv (closed early)");
		p += r;
		n -= (size_t)r;
	}
}

/* A tunnel to target, through proxy or direct ("-"). */
static int open_tunnel(const char *proxy, const char *target)
{
	char req[256], head[1024];
	size_t hl = 0;
	int fd;

	if (strcmp(proxy, "-") == 0)
		return dial(target);
	fd = dial(proxy);
	snprintf(req, sizeof(req), "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n",
		 target, target);
	send_all(fd, req, strlen(req));
	/* The answer's head, and not a byte of the tunnel after it: peek,
	 * then take up to the blank line (two calls, as a client with a
	 * buffer would spend, not one a byte). */
	for (;;) {
		ssize_t r =
			recv(fd, head + hl, sizeof(head) - 1 - hl, MSG_PEEK);
		size_t from = hl > 3 ? hl - 3 : 0, take;
		char *end;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("recv (closed before the answer)");
		head[hl + (size_t)r] = '\0';
		end = strstr(head + from, "\r\n\r\n");
		take = end ? (size_t)(end + 4 - head) - hl : (size_t)r;
		recv_all(fd, head + hl, take);
		hl += take;
		if (end)
			break;
		if (hl + 1 >= sizeof(head))
			die("answer head too long");
	}
	head[hl] = '\0';
	if (!strstr(head, " 200 ")) {
		fprintf(stderr, "cordon-bench-proxy: refused: %s\n", head);
		exit(1);
	}
	return fd;
}

static void *serve_one(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char *buf = malloc(CHUNK);
	uint8_t lenb[8];
	uint64_t left = 0;
	size_t have = 0;
	const char *kind = getenv("BENCH_KIND");

	if (!buf)
		die("malloc");
	for (;;) {
		ssize_t r = recv(fd, buf, CHUNK, 0);

		if (r <= 0)
			break;
		if (kind[0] == 'e') {
			send_all(fd, buf, (size_t)r);
			continue;
		}
		size_t off = 0;

		while (have < 8 && off < (size_t)r)
			lenb[have++] = (uint8_t)buf[off++];
		if (have < 8)
			continue;
		if (have == 8) {
			for (int i = 0; i < 8; i++)
				left = left << 8 | lenb[i];
			have = 9;
		}
		left -= (uint64_t)r - off < left ? (uint64_t)r - off : left;
		if (left == 0) {
			send_all(fd, "k", 1);
			break;
		}
	}
	free(buf);
	close(fd);
	return NULL;
}

/* The floor: the least a CONNECT relay can do in user space on this
 * kernel. One tunnel at a time, in the accepting thread: read the head,
 * dial TARGET, answer 200, then poll() both sockets and move what is
 * readable through a 1 MiB pipe with splice() (the write blocks until the
 * other side took it all). No policy, no audit, no bookkeeping, no
 * thread: its CPU per GiB and its set-up time are what any splice relay
 * pays here, and the proxy's figures are read against them. */
static void floor_one(int cl)
{
	static const char ok[] = "HTTP/1.1 200 Connection Established\r\n\r\n";
	char head[1024], target[256];
	size_t hl = 0;
	int up, one = 1, pp[2][2], open_ = 2;
	struct pollfd pf[2];

	while (hl < 4 || !memmem(head, hl, "\r\n\r\n", 4)) {
		ssize_t r = recv(cl, head + hl, sizeof(head) - 1 - hl, 0);

		if (r <= 0 || (size_t)r >= sizeof(head) - 1 - hl)
			die("floor: head");
		hl += (size_t)r;
	}
	head[hl] = '\0';
	if (sscanf(head, "CONNECT %255s ", target) != 1)
		die("floor: not CONNECT");
	up = dial(target);
	setsockopt(cl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	send_all(cl, ok, sizeof(ok) - 1);
	for (int i = 0; i < 2; i++) {
		if (pipe2(pp[i], O_CLOEXEC) != 0)
			die("pipe");
		fcntl(pp[i][1], F_SETPIPE_SZ, CHUNK);
	}
	pf[0] = (struct pollfd){ .fd = cl, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = up, .events = POLLIN };
	while (open_ > 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		for (int i = 0; i < 2; i++) {
			int to = i == 0 ? up : cl;
			ssize_t r;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			r = splice(pf[i].fd, NULL, pp[i][1], NULL, CHUNK,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (r < 0 && errno == EAGAIN)
				continue;
			if (r <= 0) {
				shutdown(to, SHUT_WR);
				pf[i].fd = -1;
				open_--;
				continue;
			}
			while (r > 0) {
				ssize_t w = splice(pp[i][0], NULL, to, NULL,
						   (size_t)r, SPLICE_F_MOVE);

				if (w <= 0)
					die("floor: splice out");
				r -= w;
			}
		}
	}
	for (int i = 0; i < 2; i++) {
		close(pp[i][0]);
		close(pp[i][1]);
	}
	close(cl);
	close(up);
}

static void serve(const char *kind)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	int one = 1, s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	setenv("BENCH_KIND", kind, 1);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(s, 4096) != 0 ||
	    getsockname(s, (struct sockaddr *)&sa, &sl) != 0)
		die("listen");
	printf("%u\n", ntohs(sa.sin_port));
	fflush(stdout);
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		pthread_t t;

		if (c < 0)
			continue;
		if (kind[0] == 'h')
			continue; /* held: never closed, never read */
		if (kind[0] == 'f') {
			floor_one(c); /* one tunnel at a time, no thread */
			continue;
		}
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (pthread_create(&t, NULL, serve_one, (void *)(intptr_t)c))
			die("thread");
		pthread_detach(t);
	}
}

static void throughput(const char *proxy, const char *target, long mib,
		       long runs)
{
	char *chunk = calloc(1, CHUNK);
	double *v = calloc((size_t)runs, sizeof(*v));

	if (!chunk || !v)
		die("calloc");
	for (long i = 0; i < runs; i++) {
		double t0 = now_s();
		int fd = open_tunnel(proxy, target);
		uint64_t n = (uint64_t)mib << 20;
		uint8_t lenb[8];
		char k;

		for (int b = 0; b < 8; b++)
			lenb[b] = (uint8_t)(n >> (56 - 8 * b));
		send_all(fd, lenb, 8);
		for (long m = 0; m < mib; m++)
			send_all(fd, chunk, CHUNK);
		recv_all(fd, &k, 1);
		v[i] = (double)mib / (now_s() - t0);
		close(fd);
	}
	printf("%.1f\n", median(v, (size_t)runs));
}

static void latency(const char *proxy, const char *target, long runs)
{
	double *v = calloc((size_t)runs, sizeof(*v));

	if (!v)
		die("calloc");
	for (long i = 0; i < runs; i++) {
		double t0 = now_s();
		int fd = open_tunnel(proxy, target);
		char b = 'x';

		send_all(fd, &b, 1);
		recv_all(fd, &b, 1);
		v[i] = (now_s() - t0) * 1e6;
		close(fd);
	}
	printf("%.1f\n", median(v, (size_t)runs));
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "serve") == 0)
		serve(argv[2]);
	else if (argc == 6 && strcmp(argv[1], "throughput") == 0)
		throughput(argv[2], argv[3], atol(argv[4]), atol(argv[5]));
	else if (argc == 5 && strcmp(argv[1], "latency") == 0)
		latency(argv[2], argv[3], atol(argv[4]));
	else {
		fputs("usage: cordon-bench-proxy serve sink|echo|hold|floor\n"
		      "       cordon-bench-proxy throughput PROXY|- TARGET MIB "
		      "RUNS\n"
		      "       cordon-bench-proxy latency PROXY|- TARGET RUNS\n",
		      stderr);
		return 2;
	}
	return 0;
}
