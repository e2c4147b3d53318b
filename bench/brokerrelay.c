/* The broker relay's judge: what `cordon run` spends on each ask a door
 * inside its sandbox hands to the console (broker_relay_judge(), the
 * pure part of src/policy/broker.h's relay), on a typical request line: a
 * destructive Bash command with a few labels, as cordon hook sends it.
 *
 * Usage: cordon-bench-brokerrelay [-n CALLS]
 *   -n CALLS  judged lines (default 100000)
 * Prints CPU time per call; under valgrind --tool=callgrind
 * --toggle-collect=broker_relay_judge the instruction count is the figure
 * to go by (bench/run-console prints the whole round trip).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "broker.h"

static const char line[] =
	"{\"v\":1,\"door\":\"hook\",\"tool\":\"Bash\",\"kind\":\"execute\","
	"\"args\":{\"command\":\"rm -rf build dist && npm run clean\","
	"\"description\":\"Clean the build output\"},"
	"\"command\":\"rm -rf build dist && npm run clean\",\"path\":null,"
	"\"risk\":\"destructive\",\"labels\":[\"delete-recursive\",\"force\"],"
	"\"reason\":\"rm -rf deletes build and dist recursively\","
	"\"session\":\"9b2f4c1e-3a7d-4e55-8c0b-61f2d9a0c7e4\","
	"\"exactOnly\":true,\"sandbox\":\"none\",\"timeoutMs\":120000}\n";

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const struct broker_relay_run run = {
		.id = "0123456789abcdef0123456789abcdef",
		.command = "cordon run --agent claude -- claude",
		.sandbox = "full",
		.max_timeout_ms = 120000,
	};
	long n = 100000;
	int c;
	double t0;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n' || (n = bench_count(optarg, 100000000)) <= 0) {
			fprintf(stderr, "usage: cordon-bench-brokerrelay "
					"[-n CALLS]\n");
			return 2;
		}
	}
	t0 = cpu_s();
	for (long i = 0; i < n; i++) {
		char *out = NULL, why[256];
		size_t len = 0;
		unsigned t = 0;

		if (broker_relay_judge(line, sizeof(line) - 1, &run, &out, &len,
				       &t, why, sizeof(why)) != CORDON_OK) {
			fprintf(stderr, "judge: %s\n", why);
			return 1;
		}
		free(out);
	}
	printf("broker_relay_judge: %ld calls, %.2f us of CPU per call "
	       "(%zu-byte line)\n",
	       n, (cpu_s() - t0) * 1e6 / (double)n, sizeof(line) - 1);
	return 0;
}
