/* Redaction speed: MB/s of cordon_redact() over a generated log that
 * looks like what an agent's audit trail and tool output hold: shell
 * commands, JSON tool calls, HTTP headers, file paths, prose, hashes and
 * UUIDs, and now and then a secret (about one line in twelve).
 *
 * Usage: cordon-bench-redact [-m MIB] [-r RUNS] [-f FILE]
 *   -m MIB   size of the generated log (default 16)
 *   -r RUNS  timed runs; the median is reported (default 7)
 *   -f FILE  time FILE (at most 1 GiB) instead of the generated log
 *   -w FILE  write the generated log to FILE and stop (to look at it)
 * The log is the same on every run (a fixed seed). Both wall-clock and
 * CPU-time throughput are printed: on a shared machine the second is the
 * steadier figure.
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

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static const char *pick(const char *const *list, size_t n)
{
	return list[next() % n];
}

#define PICK(list) pick(list, sizeof(list) / sizeof(list[0]))

static void rand_chars(char *out, size_t n, const char *alphabet)
{
	size_t k = strlen(alphabet), i;

	for (i = 0; i < n; i++)
		out[i] = alphabet[next() % k];
	out[n] = '\0';
}

static const char alnum[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
static const char hex[] = "0123456789abcdef";

static const char *const dirs[] = {
	"src",
	"lib",
	"tests/unit",
	"docs",
	"cmd/server",
	"internal/api",
	"web/components",
	"scripts",
	"pkg/store",
	"node_modules/.bin",
};
static const char *const files[] = {
	"main.c",     "index.ts",    "README.md",  "config.yaml",
	"handler.go", "test_api.py", "Cargo.toml", "package.json",
	"Makefile",   "utils.rs",
};
static const char *const words[] = {
	"the",	      "build",	    "failed",	"because",  "a",
	"test",	      "timed",	    "out",	"while",    "reading",
	"from",	      "cache",	    "retrying", "request",  "user",
	"session",    "started",    "finished", "in",	    "ms",
	"warning",    "deprecated", "function", "returned", "error",
	"connection", "refused",    "ok",
};
static const char *const cmds[] = {
	"git status",
	"git diff --stat",
	"ls -la",
	"npm test",
	"make -j2",
	"cargo build --release",
	"go test ./...",
	"pytest -q",
	"rg unwrap",
	"docker ps -a",
	"kubectl get pods -n prod",
	"cat",
	"grep -rn error",
	"sed -n 1,40p",
	"find . -name '*.c'",
};

/* Appends one line of some kind to b at *len (cap bytes). */
static void line(char *b, size_t *len, size_t cap)
{
	char t1[65], t2[65], t3[65];
	int w = 0, i, nw;
	unsigned kind = next() % 24;

	switch (kind) {
	case 0:
	case 1:
	case 2:
	case 3:
		w = snprintf(b + *len, cap - *len, "$ %s %s/%s\n", PICK(cmds),
			     PICK(dirs), PICK(files));
		break;
	case 4:
	case 5:
	case 6:
		rand_chars(t1, 40, hex);
		w = snprintf(
			b + *len, cap - *len,
			"{\"ts\":\"2024-05-01T12:%02u:%02u.%06uZ\","
			"\"tool\":\"Bash\",\"args\":{\"command\":\"%s "
			"%s/%s\"},\"decision\":\"allow\",\"prev\":\"%s\"}\n",
			next() % 60, next() % 60, next() % 1000000, PICK(cmds),
			PICK(dirs), PICK(files), t1);
		break;
	case 7:
	case 8:
		w = snprintf(b + *len, cap - *len,
			     "{\"tool\":\"Read\",\"args\":{\"file_path\":"
			     "\"/home/user/project/%s/%s\",\"offset\":%u,"
			     "\"limit\":%u}}\n",
			     PICK(dirs), PICK(files), next() % 500,
			     next() % 2000);
		break;
	case 9:
	case 10:
		w = snprintf(b + *len, cap - *len,
			     "GET /api/v1/items?page=%u&per_page=50 HTTP/1.1\n"
			     "Host: api.example.com\nAccept: application/json\n"
			     "User-Agent: agent/1.2.3\n",
			     next() % 100);
		break;
	case 11:
	case 12:
	case 13:
	case 14:
		nw = 6 + (int)(next() % 14);
		for (i = 0; i < nw && *len + (size_t)w + 32 < cap; i++)
			w += snprintf(b + *len + w, cap - *len - (size_t)w,
				      "%s%s", i ? " " : "", PICK(words));
		w += snprintf(b + *len + w, cap - *len - (size_t)w, "\n");
		break;
	case 15:
	case 16:
		rand_chars(t1, 8, hex);
		rand_chars(t2, 64, hex);
		w = snprintf(b + *len, cap - *len,
			     "commit %s%s request_id=%s-4e2a-9b1c-%s "
			     "sha256=%s\n",
			     t1, t1, t1, t1, t2);
		break;
	case 17:
		w = snprintf(b + *len, cap - *len,
			     "2024-05-01 12:00:%02u INFO %s %s/%s:%u %s\n",
			     next() % 60, PICK(words), PICK(dirs), PICK(files),
			     next() % 900, PICK(words));
		break;
	case 18:
		rand_chars(t1, 36, alnum);
		w = snprintf(b + *len, cap - *len,
			     "export GITHUB_TOKEN=ghp_%s && gh pr list\n", t1);
		break;
	case 19:
		rand_chars(t1, 24, alnum);
		w = snprintf(b + *len, cap - *len,
			     "curl -sS -H 'Authorization: Bearer %s' "
			     "https://api.example.com/v1/me\n",
			     t1);
		break;
	case 20:
		rand_chars(t1, 12, alnum);
		w = snprintf(
			b + *len, cap - *len,
			"mysql -u app -p%s -h db.internal app < dump.sql\n",
			t1);
		break;
	case 21:
		rand_chars(t1, 40, alnum);
		rand_chars(t3, 16, alnum);
		w = snprintf(b + *len, cap - *len,
			     "{\"env\":{\"OPENAI_API_KEY\":\"sk-proj-%s\","
			     "\"PATH\":\"/usr/bin:/bin\",\"DB\":\"postgres://"
			     "app:%s@db:5432/app\"}}\n",
			     t1, t3);
		break;
	case 22:
		rand_chars(t1, 40, alnum);
		w = snprintf(b + *len, cap - *len,
			     "token refreshed: %s (expires in 3600s)\n", t1);
		break;
	default:
		w = snprintf(b + *len, cap - *len, "    at %s (%s/%s:%u:%u)\n",
			     PICK(words), PICK(dirs), PICK(files), next() % 900,
			     next() % 80);
		break;
	}
	if (w > 0 && *len + (size_t)w < cap)
		*len += (size_t)w;
	else
		*len = cap;
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long arg_number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > max)
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	long mib = 16, runs = 7;
	const char *file = NULL, *write_to = NULL;
	FILE *f;
	size_t cap, len = 0, out_len = 0, count = 0, i;
	double *t, *cpu, t0, c0;
	char *b, *out;
	int c;

	while ((c = getopt(argc, argv, "m:r:f:w:h")) != -1) {
		switch (c) {
		case 'w':
			write_to = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'm':
			mib = arg_number(optarg, 1024);
			break;
		case 'r':
			runs = arg_number(optarg, 1000);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-m MIB] [-r RUNS] [-f FILE] "
				"[-w FILE]\n",
				argv[0]);
			return 2;
		}
		if (mib < 0 || runs < 0) {
			fprintf(stderr, "%s: -m wants 1..1024, -r 1..1000\n",
				argv[0]);
			return 2;
		}
	}
	cap = file ? (size_t)1 << 30 : (size_t)mib << 20;
	b = malloc(cap + 1);
	t = calloc((size_t)runs, sizeof(*t));
	cpu = calloc((size_t)runs, sizeof(*cpu));
	if (!b || !t || !cpu) {
		fputs("out of memory\n", stderr);
		return 1;
	}
	if (file) {
		f = fopen(file, "rb");
		if (!f) {
			fprintf(stderr, "%s: %s\n", file, strerror(errno));
			return 1;
		}
		len = fread(b, 1, cap, f);
		fclose(f);
	} else {
		while (len + 512 < cap)
			line(b, &len, cap);
	}
	b[len] = '\0';
	if (write_to) {
		f = fopen(write_to, "wb");
		if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0) {
			fprintf(stderr, "%s: %s\n", write_to, strerror(errno));
			return 1;
		}
		return 0;
	}

	for (i = 0; i < (size_t)runs + 1; i++) {
		t0 = now(CLOCK_MONOTONIC);
		c0 = now(CLOCK_THREAD_CPUTIME_ID);
		if (cordon_redact(b, len, &out, &out_len, &count) !=
		    CORDON_OK) {
			fputs("cordon_redact failed\n", stderr);
			return 1;
		}
		if (i > 0) { /* the first run warms the caches */
			t[i - 1] = now(CLOCK_MONOTONIC) - t0;
			cpu[i - 1] = now(CLOCK_THREAD_CPUTIME_ID) - c0;
		}
		free(out);
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp_double);
	qsort(cpu, (size_t)runs, sizeof(*cpu), cmp_double);
	printf("redact: %.1f MiB %s, %zu values redacted, output %.1f MiB\n",
	       (double)len / (1 << 20), file ? file : "generated log", count,
	       (double)out_len / (1 << 20));
	printf("redact: median %.1f MB/s (%.3f s), best %.1f MB/s, worst "
	       "%.1f MB/s over %ld runs\n",
	       (double)len / 1e6 / t[runs / 2], t[runs / 2],
	       (double)len / 1e6 / t[0], (double)len / 1e6 / t[runs - 1], runs);
	/* CPU time leaves out the waits of a busy machine. */
	printf("redact: median %.1f MB/s of CPU time (%.3f s)\n",
	       (double)len / 1e6 / cpu[runs / 2], cpu[runs / 2]);
	free(cpu);
	free(t);
	free(b);
	return 0;
}
