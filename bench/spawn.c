/* Process start-up time: runs ARGV N times (fork, exec, wait), each with
 * stdin, stdout and stderr on /dev/null, and prints one line:
 *
 *	median MS p90 MS min MS runs N failed F
 *
 * "failed" counts runs that did not exit 0 (or could not be started).
 * With ARGV /bin/true this is the bare fork+exec baseline; with
 * `cordon run -- /bin/true`, `bwrap ... /bin/true` and so on it times the
 * whole sandboxed start, measured the same way. A few untimed runs warm
 * the page cache first.
 *
 * Usage: cordon-bench-spawn [-n RUNS] [-w WARMUP] -- ARGV...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define MAX_RUNS 100000

/* Parses a count in [1, MAX_RUNS]; -1 when it is not one. */
/* Runs argv once with its standard streams on devnull; returns its wait
 * status, or -1 when fork failed. */
static int run_once(char *const argv[], int devnull)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int main(int argc, char **argv)
{
	long runs = 200, warmup = 5, failed = 0;
	uint64_t *t;
	double median;
	int devnull, i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			runs = bench_count(argv[++i], MAX_RUNS);
		else if (!strcmp(argv[i], "-w") && i + 1 < argc)
			warmup = bench_count(argv[++i], MAX_RUNS);
		else
			runs = -1;
		if (runs < 1 || warmup < 0)
			break;
	}
	if (runs < 1 || warmup < 0 || i + 1 >= argc) {
		fprintf(stderr, "usage: cordon-bench-spawn [-n RUNS 1..%d] "
				"[-w WARMUP] -- ARGV...\n", MAX_RUNS);
		return 2;
	}
	argv += i + 1;
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	t = calloc((size_t)runs, sizeof(*t));
	if (devnull < 0 || !t) {
		perror("cordon-bench-spawn");
		return 2;
	}
	for (long k = 0; k < warmup; k++)
		run_once(argv, devnull);
	for (long k = 0; k < runs; k++) {
		uint64_t t0 = now_ns();
		int st = run_once(argv, devnull);

		t[k] = now_ns() - t0;
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp_u64);
	median = runs % 2 ? (double)t[runs / 2]
			  : ((double)t[runs / 2 - 1] + (double)t[runs / 2]) / 2;
	printf("median %.3f p90 %.3f min %.3f runs %ld failed %ld\n",
	       median / 1e6, (double)t[runs * 9 / 10] / 1e6,
	       (double)t[0] / 1e6, runs, failed);
	free(t);
	return 0;
}
