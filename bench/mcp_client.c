/* cordon-bench-mcp-client — times tools/call round trips to a stdio MCP
 * server.
 *
 *   cordon-bench-mcp-client [-n CALLS] [-w WARMUP] [-o FILE] -- ARGV...
 *
 * Starts ARGV with pipes, sends initialize, notifications/initialized and
 * tools/list, then WARMUP untimed and CALLS timed tools/call requests for
 * "echo", one at a time (each waits for its answer), timing each round
 * trip with CLOCK_MONOTONIC. Prints "median p90 p99 mean" in microseconds
 * on one line; -o FILE also writes every sample (ns, one a line). Exit 1
 * when an answer is missing or is not a result.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define INIT_MSG                                                               \
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","             \
	"\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"  \
	"\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n"
#define INITIALIZED_MSG                                                        \
	"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
#define LIST_MSG "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"

static FILE *to_srv, *from_srv;

/* Sends one line and reads lines until the answer to id (others, such as
 * notifications, are skipped). 0 when it is a result. */
static int round_trip(const char *msg, long id)
{
	static char *line;
	static size_t cap;
	char want[48];

	if (fputs(msg, to_srv) == EOF || fflush(to_srv) == EOF)
		return -1;
	if (id < 0)
		return 0;
	snprintf(want, sizeof(want), "\"id\":%ld,", id);
	for (;;) {
		if (getline(&line, &cap, from_srv) < 0)
			return -1;
		if (strstr(line, want))
			return strstr(line, "\"result\"") &&
					       !strstr(line,
						       "\"isError\":true") ?
				       0 :
				       -1;
	}
}

int main(int argc, char **argv)
{
	long calls = 2000, warm = 200;
	const char *outfile = NULL;
	int in[2], out[2], i = 1, status;
	char msg[256];
	uint64_t *t, sum = 0;
	pid_t pid;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			calls = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
			warm = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			outfile = argv[++i];
		else
			break;
	}
	if (i >= argc - 1 || strcmp(argv[i], "--") != 0 || calls <= 0 ||
	    warm < 0) {
		fputs("usage: cordon-bench-mcp-client [-n CALLS] [-w WARMUP] "
		      "[-o FILE] -- ARGV...\n",
		      stderr);
		return 2;
	}
	if (pipe(in) != 0 || pipe(out) != 0)
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execvp(argv[i + 1], argv + i + 1);
		perror(argv[i + 1]);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	signal(SIGPIPE, SIG_IGN);
	to_srv = fdopen(in[1], "w");
	from_srv = fdopen(out[0], "r");
	t = calloc((size_t)calls, sizeof(*t));
	if (!to_srv || !from_srv || !t)
		return 1;
	if (round_trip(INIT_MSG, 1) || round_trip(INITIALIZED_MSG, -1) ||
	    round_trip(LIST_MSG, 2)) {
		fputs("cordon-bench-mcp-client: the handshake failed\n",
		      stderr);
		return 1;
	}
	for (long k = 0; k < warm + calls; k++) {
		long id = 10 + k;
		uint64_t t0;

		snprintf(msg, sizeof(msg),
			 "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":"
			 "\"tools/call\",\"params\":{\"name\":\"echo\","
			 "\"arguments\":{\"text\":\"hello\"}}}\n",
			 id);
		t0 = now_ns();
		if (round_trip(msg, id) != 0) {
			fprintf(stderr,
				"cordon-bench-mcp-client: call %ld was not "
				"answered with a result\n",
				k);
			return 1;
		}
		if (k >= warm)
			t[k - warm] = now_ns() - t0;
	}
	fclose(to_srv);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (outfile) {
		FILE *f = fopen(outfile, "w");
		for (long k = 0; f && k < calls; k++)
			fprintf(f, "%llu\n", (unsigned long long)t[k]);
		if (f)
			fclose(f);
	}
	qsort(t, (size_t)calls, sizeof(*t), cmp_u64);
	for (long k = 0; k < calls; k++)
		sum += t[k];
	printf("%.1f %.1f %.1f %.1f\n", t[calls / 2] / 1000.0,
	       t[calls * 9 / 10] / 1000.0, t[calls * 99 / 100] / 1000.0,
	       (double)sum / (double)calls / 1000.0);
	free(t);
	return 0;
}
