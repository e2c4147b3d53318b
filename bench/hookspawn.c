/* Hook start-up time: runs ARGV N times (fork, exec, wait), run i with
 * stdin from INPUT[i % count] (a hook's JSON) and stdout and stderr on
 * /dev/null, and prints one line:
 *
 *	median MS p90 MS min MS cpu MS runs N failed F
 *
 * cpu is the median user+system time of a run (wait4's rusage): what the
 * call costs in CPU, which a loaded machine does not inflate the way it
 * does wall time. "failed" counts runs that did not exit 0 (or could not
 * be started). A
 * few untimed runs (one per input at least) warm the page cache first.
 * This is what an agent pays per tool call for a command hook.
 *
 * Usage: hookspawn [-n RUNS] [-w WARMUP] -i INPUT [-i INPUT]... -- ARGV...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define MAX_RUNS 100000
#define MAX_INPUTS 256

/* Runs argv once with stdin from input and stdout, stderr on devnull;
 * returns its wait status (*cpu_ns its user+system time), or -1 when it
 * could not be started. */
static int run_once(char *const argv[], const char *input, int devnull,
		    uint64_t *cpu_ns)
{
	struct rusage ru;
	int status, in = open(input, O_RDONLY | O_CLOEXEC);
	pid_t pid;

	if (in < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(in);
		return -1;
	}
	if (pid == 0) {
		if (dup2(in, 0) < 0 || dup2(devnull, 1) < 0 ||
		    dup2(devnull, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(in);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*cpu_ns =
		((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
			1000000000u +
		((uint64_t)ru.ru_utime.tv_usec +
		 (uint64_t)ru.ru_stime.tv_usec) *
			1000u;
	return status;
}

static void usage(void)
{
	fputs("usage: hookspawn [-n RUNS] [-w WARMUP] -i INPUT [-i INPUT]... "
	      "-- ARGV...\n",
	      stderr);
}

int main(int argc, char **argv)
{
	const char *inputs[MAX_INPUTS];
	size_t ninputs = 0;
	long runs = 200, warmup = -1;
	int i = 1, devnull, failed = 0;
	uint64_t *t, *cpu;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (i + 1 >= argc) {
			usage();
			return 2;
		}
		if (strcmp(argv[i], "-n") == 0) {
			runs = bench_count(argv[++i], MAX_RUNS);
		} else if (strcmp(argv[i], "-w") == 0) {
			warmup = bench_count(argv[++i], MAX_RUNS);
		} else if (strcmp(argv[i], "-i") == 0) {
			if (ninputs == MAX_INPUTS) {
				fprintf(stderr,
					"hookspawn: more than %d "
					"inputs\n",
					MAX_INPUTS);
				return 2;
			}
			inputs[ninputs++] = argv[++i];
		} else {
			usage();
			return 2;
		}
	}
	if (i >= argc - 1 || runs <= 0 || ninputs == 0 ||
	    (warmup < 0 && warmup != -1)) {
		usage();
		return 2;
	}
	if (warmup == -1)
		warmup = (long)ninputs > 5 ? (long)ninputs : 5;
	char **cmd = argv + i + 1;
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	t = calloc((size_t)runs, sizeof(*t));
	cpu = calloc((size_t)runs, sizeof(*cpu));
	if (devnull < 0 || !t || !cpu) {
		perror("hookspawn");
		return 1;
	}
	for (long k = 0; k < warmup; k++)
		run_once(cmd, inputs[(size_t)k % ninputs], devnull, &cpu[0]);
	for (long k = 0; k < runs; k++) {
		uint64_t s = now_ns();
		int st = run_once(cmd, inputs[(size_t)k % ninputs], devnull,
				  &cpu[k]);

		t[k] = now_ns() - s;
		if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp_u64);
	qsort(cpu, (size_t)runs, sizeof(*cpu), cmp_u64);
	printf("median %.3f ms p90 %.3f ms min %.3f ms cpu %.3f ms runs %ld "
	       "failed %d\n",
	       (double)t[runs / 2] / 1e6, (double)t[runs * 9 / 10] / 1e6,
	       (double)t[0] / 1e6, (double)cpu[runs / 2] / 1e6, runs, failed);
	free(t);
	free(cpu);
	close(devnull);
	return 0;
}
