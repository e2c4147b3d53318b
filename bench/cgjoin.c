/* cgjoin — what joining a cgroup v1 pids leaf costs a new sandbox, the
 * two ways cordon has done it, interleaved round by round:
 *
 *	procs  the parent writes the child's pid to the leaf's cgroup.procs
 *	       while the child waits (cordon before sbxstart)
 *	tasks  the child writes "0" to the leaf's tasks file, opened by the
 *	       parent before the clone (src/sandbox/cgroup.c)
 *
 * Each round clones a child into new user, PID and mount namespaces (as
 * cordon run does), times from the clone until the child is in the leaf
 * (it checks /proc/self/cgroup), and waits GAP ms before the next, as
 * consecutive runs do: a join that finds another one's RCU grace period
 * still going does not wait for its own. Prints the median, mean, p90
 * and worst join of each way.
 *
 * Usage (root, a cgroup v1 pids hierarchy at /sys/fs/cgroup/pids):
 *	cordon-bench-cgjoin [-n ROUNDS] [-g GAP_MS]
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define LEAF "/sys/fs/cgroup/pids/cordon-bench-cgjoin"
#define MAX_ROUNDS 10000

/* One join; returns its time in ns, or 0 on a failure (said on stderr). */
static uint64_t join_once(bool by_tasks)
{
	struct clone_args ca = { .flags = CLONE_NEWUSER | CLONE_NEWPID |
					  CLONE_NEWNS,
				 .exit_signal = SIGCHLD };
	int fd = open(by_tasks ? LEAF "/tasks" : LEAF "/cgroup.procs",
		      O_WRONLY | O_CLOEXEC);
	int go[2], back[2];
	uint64_t t0, took = 0;
	pid_t pid;

	if (fd < 0 || pipe2(go, O_CLOEXEC) != 0 ||
	    pipe2(back, O_CLOEXEC) != 0) {
		perror("cgjoin: open or pipe");
		exit(1);
	}
	t0 = now_ns();
	pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0) {
		char c, buf[1024];
		int cg;
		ssize_t n;
		uint64_t d;

		if (by_tasks ? write(fd, "0", 1) != 1 : read(go[0], &c, 1) != 1)
			_exit(2);
		cg = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
		n = cg < 0 ? -1 : read(cg, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		if (!strstr(buf, ":pids:/cordon-bench-cgjoin"))
			_exit(3);
		d = now_ns() - t0;
		_exit(write(back[1], &d, sizeof(d)) == sizeof(d) ? 0 : 4);
	}
	if (pid < 0) {
		perror("cgjoin: clone3");
		exit(1);
	}
	if (!by_tasks) {
		char num[24];
		int n = snprintf(num, sizeof(num), "%d", (int)pid);

		if (write(fd, num, (size_t)n) != n)
			perror("cgjoin: write cgroup.procs");
		if (write(go[1], "J", 1) != 1)
			perror("cgjoin: pipe");
	}
	close(back[1]);
	if (read(back[0], &took, sizeof(took)) != sizeof(took))
		took = 0;
	{
		int st;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!took)
			fprintf(stderr, "cgjoin: the child failed (%d)\n",
				WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	close(fd);
	close(go[0]);
	close(go[1]);
	close(back[0]);
	return took;
}

static void report(const char *name, uint64_t *t, long n)
{
	double sum = 0;

	for (long i = 0; i < n; i++)
		sum += (double)t[i];
	qsort(t, (size_t)n, sizeof(t[0]), cmp_u64);
	printf("%-6s median %7.3f ms  mean %7.3f ms  p90 %7.3f ms  worst "
	       "%7.3f ms  (%ld joins)\n",
	       name, (double)t[n / 2] / 1e6, sum / (double)n / 1e6,
	       (double)t[n * 9 / 10] / 1e6, (double)t[n - 1] / 1e6, n);
}

int main(int argc, char **argv)
{
	long rounds = 60, gap = 30;
	uint64_t *t[2];
	int opt;

	while ((opt = getopt(argc, argv, "n:g:")) != -1) {
		long *v = opt == 'n' ? &rounds : &gap;

		if ((opt != 'n' && opt != 'g') ||
		    (*v = bench_count(optarg, MAX_ROUNDS)) < 1) {
			fprintf(stderr,
				"usage: cordon-bench-cgjoin [-n ROUNDS] "
				"[-g GAP_MS]\n");
			return 2;
		}
	}
	if (mkdir(LEAF, 0755) != 0 && errno != EEXIST) {
		perror("cgjoin: " LEAF);
		return 1;
	}
	t[0] = calloc((size_t)rounds, sizeof(uint64_t));
	t[1] = calloc((size_t)rounds, sizeof(uint64_t));
	if (!t[0] || !t[1])
		return 1;
	for (long i = 0; i < rounds; i++) {
		for (int way = 0; way < 2; way++) {
			t[way][i] = join_once(way == 1);
			if (!t[way][i])
				return 1;
			usleep((useconds_t)gap * 1000);
		}
	}
	report("procs", t[0], rounds);
	report("tasks", t[1], rounds);
	(void)rmdir(LEAF);
	return 0;
}
