/* Hook start-up time: runs each ARGV N times (fork, exec, wait), run i
 * with stdin from INPUT[i % count] (a hook's JSON) and stdout and stderr on
 * /dev/null, and prints one line per ARGV, in the order given:
 *
 *	median MS p90 MS min MS cpu MS cpu/wall R runs N failed F [added MS]
 *
 * With several ARGVs (separated by ":::") the runs are interleaved: call i
 * of every ARGV runs before call i + 1 of any (starting with a different
 * ARGV each round), so a machine that gets busier or quieter during the
 * run shifts all of them alike. "added" (every ARGV but the first) is the
 * median over i of this ARGV's call i minus the first ARGV's call i: what
 * it adds over the first (give /bin/true first for the floor).
 *
 * cpu is the median user+system time of a run (wait4's rusage, threads
 * and children included): what the call costs in CPU, which a loaded
 * machine does not inflate the way it does wall time. cpu/wall is the
 * median of each run's CPU time over its wall time: above 1, the process
 * ran on more than one CPU at once. "failed" counts runs that did not exit
 * 0 (or could not be started). A few untimed runs (one per input at least)
 * of each ARGV warm the page cache first. This is what an agent pays per
 * tool call for a command hook.
 *
 * Usage: hookspawn [-n RUNS] [-w WARMUP] -i INPUT [-i INPUT]...
 *		    -- ARGV... [::: ARGV...]...
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
#define MAX_CMDS 12

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
	      "-- ARGV... [::: ARGV...]...\n",
	      stderr);
}

struct cmd {
	char **argv;
	uint64_t *t, *cpu;
	double *ratio;
	int failed;
};

int main(int argc, char **argv)
{
	const char *inputs[MAX_INPUTS];
	struct cmd cmds[MAX_CMDS];
	size_t ninputs = 0, ncmds = 0;
	long runs = 200, warmup = -1;
	int i = 1, devnull;

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
	/* the ARGVs: argv[i + 1 ..] cut at each ":::" */
	for (int a = i + 1; a < argc;) {
		int e = a;

		while (e < argc && strcmp(argv[e], ":::") != 0)
			e++;
		if (e == a || ncmds == MAX_CMDS) {
			usage();
			return 2;
		}
		memset(&cmds[ncmds], 0, sizeof(cmds[ncmds]));
		cmds[ncmds].argv = argv + a;
		cmds[ncmds].t = calloc((size_t)runs, sizeof(uint64_t));
		cmds[ncmds].cpu = calloc((size_t)runs, sizeof(uint64_t));
		cmds[ncmds].ratio = calloc((size_t)runs, sizeof(double));
		if (!cmds[ncmds].t || !cmds[ncmds].cpu || !cmds[ncmds].ratio) {
			perror("hookspawn");
			return 1;
		}
		ncmds++;
		argv[e] = NULL; /* ends this ARGV (argv[argc] is NULL) */
		a = e + 1;
	}
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0) {
		perror("hookspawn");
		return 1;
	}
	for (long k = 0; k < warmup; k++)
		for (size_t c = 0; c < ncmds; c++) {
			uint64_t cpu;

			run_once(cmds[c].argv, inputs[(size_t)k % ninputs],
				 devnull, &cpu);
		}
	for (long k = 0; k < runs; k++)
		for (size_t j = 0; j < ncmds; j++) {
			struct cmd *c = &cmds[((size_t)k + j) % ncmds];
			uint64_t s = now_ns();
			int st = run_once(c->argv, inputs[(size_t)k % ninputs],
					  devnull, &c->cpu[k]);

			c->t[k] = now_ns() - s;
			c->ratio[k] = c->t[k] ? (double)c->cpu[k] /
							(double)c->t[k] :
						0;
			if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
				c->failed++;
		}
	for (size_t c = 0; c < ncmds; c++) {
		struct cmd *x = &cmds[c];
		double added = 0;

		if (c > 0) {
			/* paired with the first ARGV's call of the same round,
			 * before either is sorted */
			size_t nd = 0;
			double *dd = calloc((size_t)runs, sizeof(*dd));

			if (!dd) {
				perror("hookspawn");
				return 1;
			}
			for (long k = 0; k < runs; k++)
				dd[nd++] = (double)x->t[k] - (double)cmds[0].t[k];
			qsort(dd, nd, sizeof(*dd), cmp_double);
			added = dd[nd / 2] / 1e6;
			free(dd);
		}
		qsort(x->t, (size_t)runs, sizeof(*x->t), cmp_u64);
		qsort(x->cpu, (size_t)runs, sizeof(*x->cpu), cmp_u64);
		qsort(x->ratio, (size_t)runs, sizeof(*x->ratio), cmp_double);
		printf("median %.3f ms p90 %.3f ms min %.3f ms cpu %.3f ms "
		       "cpu/wall %.2f runs %ld failed %d",
		       (double)x->t[runs / 2] / 1e6,
		       (double)x->t[runs * 9 / 10] / 1e6, (double)x->t[0] / 1e6,
		       (double)x->cpu[runs / 2] / 1e6, x->ratio[runs / 2], runs,
		       x->failed);
		if (c > 0)
			printf(" added %.3f ms", added);
		putchar('\n');
	}
	return 0;
}
