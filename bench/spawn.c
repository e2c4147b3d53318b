/* Process start-up time: runs one or more commands N times each (fork,
 * exec, wait4), interleaved round by round so that a change in the
 * machine's load falls on all of them alike, each with stdin, stdout and
 * stderr on /dev/null, and prints one line per command, in order:
 *
 *	median MS p90 MS min MS cpu MS runs N failed F
 *
 * "cpu" is the median CPU time (utime + stime from wait4, the command and
 * every descendant it waited for) of one run; it does not depend on how
 * busy the machine is, as wall time on a shared VM does. "failed" counts
 * runs that did not exit 0 (or could not be started). With ARGV /bin/true
 * this is the bare fork+exec baseline; with `cordon run -- /bin/true`,
 * `bwrap ... /bin/true` and so on it times the whole sandboxed start,
 * measured the same way. A few untimed rounds warm the page cache first.
 *
 * Usage: cordon-bench-spawn [-n RUNS] [-w WARMUP] -- ARGV... [--- ARGV...]...
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
#define MAX_CMDS 16

struct cmd {
	char **argv;
	uint64_t *wall; /* ns per run */
	uint64_t *cpu; /* ns per run */
	long failed;
};

/* Runs argv once with its standard streams on devnull; returns its wait
 * status, or -1 when fork failed. *cpu gets the CPU time it used. */
static int run_once(char *const argv[], int devnull, uint64_t *cpu)
{
	struct rusage ru;
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
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*cpu = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
		       1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) *
		       1000u;
	return status;
}

static double median_ms(uint64_t *v, long n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return (n % 2 ? (double)v[n / 2] :
			((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) /
	       1e6;
}

int main(int argc, char **argv)
{
	struct cmd cmds[MAX_CMDS];
	long runs = 200, warmup = 5;
	int devnull, i, ncmd = 0;

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
	/* The commands: ARGV lists cut at "---" (argv is ours to write). */
	for (i++; i < argc && ncmd < MAX_CMDS;) {
		int j = i;

		while (j < argc && strcmp(argv[j], "---"))
			j++;
		if (j == i)
			break;
		memset(&cmds[ncmd], 0, sizeof(cmds[ncmd]));
		cmds[ncmd++].argv = argv + i;
		if (j < argc)
			argv[j] = NULL;
		i = j + 1;
	}
	if (runs < 1 || warmup < 0 || ncmd == 0 || i < argc) {
		fprintf(stderr,
			"usage: cordon-bench-spawn [-n RUNS 1..%d] "
			"[-w WARMUP] -- ARGV... [--- ARGV...] (at most %d)\n",
			MAX_RUNS, MAX_CMDS);
		return 2;
	}
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0) {
		perror("cordon-bench-spawn");
		return 2;
	}
	for (int c = 0; c < ncmd; c++) {
		cmds[c].wall = calloc((size_t)runs, sizeof(uint64_t));
		cmds[c].cpu = calloc((size_t)runs, sizeof(uint64_t));
		if (!cmds[c].wall || !cmds[c].cpu) {
			perror("cordon-bench-spawn");
			return 2;
		}
	}
	for (long k = 0; k < warmup; k++)
		for (int c = 0; c < ncmd; c++) {
			uint64_t cpu;

			run_once(cmds[c].argv, devnull, &cpu);
		}
	for (long k = 0; k < runs; k++) {
		for (int c = 0; c < ncmd; c++) {
			uint64_t t0 = now_ns(), cpu = 0;
			int st = run_once(cmds[c].argv, devnull, &cpu);

			cmds[c].wall[k] = now_ns() - t0;
			cmds[c].cpu[k] = cpu;
			if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
				cmds[c].failed++;
		}
	}
	for (int c = 0; c < ncmd; c++) {
		struct cmd *m = &cmds[c];
		double med = median_ms(m->wall, runs);

		printf("median %.3f p90 %.3f min %.3f cpu %.3f runs %ld "
		       "failed %ld\n",
		       med, (double)m->wall[runs * 9 / 10] / 1e6,
		       (double)m->wall[0] / 1e6, median_ms(m->cpu, runs), runs,
		       m->failed);
		free(m->wall);
		free(m->cpu);
	}
	return 0;
}
