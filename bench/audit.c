/* Chained audit appends per second, with fsync never, batch and every, side
 * by side.
 *
 * Each pass opens a fresh log in DIR and appends RECORDS records through
 * the public API, then closes it (a batched fsync's last flush counts);
 * the median rate over PASSES passes is printed, with the fastest and
 * slowest pass, and the median CPU time per record (user and system: on
 * a shared machine the wall clock also counts other people's work). Two
 * record shapes: an event (a proxy verdict: parse the fields, redact,
 * chain, write) and a decision (a real policy result for a shell call:
 * its arguments parsed, the command replaced, redacted). With
 * fsync every, each record waits for the disk, so that row uses fewer
 * records (-e). Issue 6's target: 100,000 records/s or more without
 * fsync.
 *
 * Usage: cordon-bench-audit [-n RECORDS] [-e RECORDS_EVERY] [-p PASSES]
 *                           [-d DIR]
 * DIR defaults to /var/tmp (a disk, where fsync means something). Build it
 * without sanitizers (bench/run-audit does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#include "cordon.h"

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char event_fields[] =
	"{\"session\":\"3f2b8c1e-5d4a-4b7e-9c1a-2e8f6d0b7a91\","
	"\"proto\":\"https\",\"target\":\"registry.npmjs.org:443\","
	"\"verdict\":\"allow\",\"rule\":\"allowedDomains[2]\","
	"\"addr\":\"104.16.2.35\"}";

/* One pass: n records of shape (0 event, 1 decision) with policy pol;
 * returns records per second of wall-clock time, or -1 on an error;
 * *cpu_us gets the process's CPU time per record (user and system). */
static double pass(const char *dir, int pol, size_t n, int shape,
		   const struct cordon_result *res, double *cpu_us)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_audit *a = NULL;
	struct cordon_diag d = { 0 };
	char path[512];
	double t0, t1, c0, c1;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/bench-audit-%ld.jsonl", dir,
		 (long)getpid());
	unlink(path);
	o.path = path;
	o.fsync_policy = (enum cordon_audit_fsync)pol;
	o.rotate_bytes = (uint64_t)1 << 40;
	if (cordon_audit_open(&o, &a, &d) != CORDON_OK) {
		fprintf(stderr, "open %s: %s\n", path, d.message);
		return -1;
	}
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (size_t i = 0; i < n && !bad; i++) {
		enum cordon_err rc =
			shape == 0 ? cordon_audit_event(a, "proxy",
							event_fields, &d) :
				     cordon_audit_decision(a, res, NULL, &d);
		bad = rc != CORDON_OK;
	}
	bad |= cordon_audit_close(a) != CORDON_OK;
	t1 = clock_s(CLOCK_MONOTONIC);
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	unlink(path);
	*cpu_us = (c1 - c0) * 1e6 / (double)n;
	if (bad) {
		fprintf(stderr, "append: %s\n", d.message);
		return -1;
	}
	return (double)n / (t1 - t0);
}

int main(int argc, char **argv)
{
	static const char *const pol_names[] = { "every", "batch (64)",
						 "never" };
	static const char *const shape_names[] = { "event (proxy)",
						   "decision (Bash)" };
	size_t n = 200000, n_every = 300;
	unsigned passes = 5;
	const char *dir = "/var/tmp";
	struct cordon_config *cfg;
	struct cordon_policy *p = NULL;
	struct cordon_result *res;
	struct cordon_call call = {
		"Bash",
		"{\"command\":\"git push origin main --force-with-lease\","
		"\"description\":\"push the branch\"}",
		0,
		NULL,
		"3f2b8c1e-5d4a-4b7e-9c1a-2e8f6d0b7a91",
		NULL
	};
	struct cordon_context ctx = { NULL, "/var/tmp", "/root", "/tmp" };
	int opt;

	while ((opt = getopt(argc, argv, "n:e:p:d:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 'e':
			n_every = strtoul(optarg, NULL, 10);
			break;
		case 'p':
			passes = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: cordon-bench-audit [-n RECORDS] [-e "
				"RECORDS_EVERY] [-p PASSES] [-d DIR]\n");
			return 2;
		}
	}
	if (n == 0 || n_every == 0 || passes == 0 || passes > 100)
		return 2;
	cfg = cordon_config_new();
	res = cordon_result_new();
	if (!cfg || !res || cordon_policy_new(cfg, &ctx, &p, NULL) != CORDON_OK)
		return 1;
	(void)cordon_policy_evaluate(p, &call, res, NULL);

	printf("chained appends per second, %u passes each, log in %s\n",
	       passes, dir);
	printf("%-16s %-11s %8s %13s %10s %11s %21s\n", "record", "fsync",
	       "records", "median rec/s", "µs/record", "CPU µs/rec",
	       "range rec/s");
	for (int shape = 0; shape < 2; shape++) {
		for (int pol = 2; pol >= 0; pol--) {
			size_t count = pol == 0 ? n_every : n;
			double r[100], cpu[100];

			for (unsigned i = 0; i < passes; i++) {
				r[i] = pass(dir, pol, count, shape, res,
					    &cpu[i]);
				if (r[i] < 0)
					return 1;
			}
			qsort(r, passes, sizeof(r[0]), cmp_double);
			qsort(cpu, passes, sizeof(cpu[0]), cmp_double);
			printf("%-16s %-11s %8zu %13.0f %10.2f %11.2f "
			       "%9.0f..%-9.0f\n",
			       shape_names[shape], pol_names[pol], count,
			       r[passes / 2], 1e6 / r[passes / 2],
			       cpu[passes / 2], r[0], r[passes - 1]);
		}
	}
	cordon_result_free(res);
	cordon_policy_free(p);
	cordon_config_free(cfg);
	return 0;
}
