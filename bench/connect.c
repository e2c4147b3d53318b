/* cordon-bench-connect — the cost of one connect(), for the connect
 * supervisor (src/sandbox/unixnotif.c): run bare and under `cordon run`.
 *
 * Usage: cordon-bench-connect unix|tcp N
 *   unix: a listener on ./bench-connect.sock (the workspace), N connects
 *   tcp:  a listener on 127.0.0.1:0, N connects (needs --network host
 *         under cordon run: Landlock refuses TCP for none)
 * A thread accepts and closes. Prints one line: the median and p90 of
 * one connect in µs, and the process's user+system CPU per connect in µs
 * (the supervisor's own CPU is cordon's, outside: bench/run-connect
 * takes it from cordon's rusage).
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int lfd;

static void *acceptor(void *arg)
{
	(void)arg;
	for (;;) {
		int c = accept(lfd, NULL, NULL);

		if (c < 0 && errno != EINTR)
			return NULL;
		if (c >= 0)
			close(c);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct rusage ru;
	pthread_t t;
	double *d, cpu;
	long n;
	int tcp;

	if (argc != 3 || (strcmp(argv[1], "unix") && strcmp(argv[1], "tcp")) ||
	    (n = strtol(argv[2], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: cordon-bench-connect unix|tcp N\n");
		return 2;
	}
	tcp = strcmp(argv[1], "tcp") == 0;
	memset(&ss, 0, sizeof(ss));
	if (tcp) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*sin);
	} else {
		struct sockaddr_un *sun = (struct sockaddr_un *)&ss;

		sun->sun_family = AF_UNIX;
		memcpy(sun->sun_path, "bench-connect.sock",
		       sizeof("bench-connect.sock"));
		unlink(sun->sun_path);
		len = sizeof(*sun);
	}
	lfd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&ss, len) != 0 ||
	    listen(lfd, 4096) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&ss, &len) != 0) {
		perror("listen");
		return 1;
	}
	if (pthread_create(&t, NULL, acceptor, NULL) != 0)
		return 1;
	d = calloc((size_t)n, sizeof(*d));
	if (!d)
		return 1;
	for (long i = 0; i < n; i++) {
		int s = socket(ss.ss_family, SOCK_STREAM, 0);
		double t0 = now_us();

		if (s < 0 || connect(s, (struct sockaddr *)&ss, len) != 0) {
			perror("connect");
			return 1;
		}
		d[i] = now_us() - t0;
		close(s);
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	      (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	qsort(d, (size_t)n, sizeof(*d), cmp);
	printf("median_us %.1f p90_us %.1f cpu_us_per_connect %.1f\n", d[n / 2],
	       d[n * 9 / 10], cpu / (double)n);
	if (!tcp)
		unlink("bench-connect.sock");
	return 0;
}
