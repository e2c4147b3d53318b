/* In-process classification speed on the shared corpora.
 *
 * Loads every command of classifier-open.jsonl ("command") and parser.jsonl
 * ("input"), classifies each corpus once to warm caches and the allocator,
 * then times every cordon_classify() call with CLOCK_MONOTONIC over several
 * passes and prints the median, p90 and p99 in microseconds. Throughput
 * (commands per second) comes from separate passes without per-call clock
 * reads, so the timer's own cost does not lower it.
 *
 * Usage: cordon-bench-speed [-p PASSES] [CORPUS_DIR]
 * CORPUS_DIR defaults to $CORDON_CORPUS, then ../shared/corpus.
 * Build it without sanitizers (bench/run-speed does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "bench.h"

#include "cordon.h"

struct corpus {
	const char *file;
	const char *field;
	char **cmd;
	size_t *len;
	size_t n;
};

/* Reads field `c->field` of every JSONL row of dir/c->file. Returns 0, or -1
 * with a message on stderr. */
static int load(struct corpus *c, const char *dir)
{
	char path[4096];
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	ssize_t n;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, c->file) >=
	    sizeof(path)) {
		fprintf(stderr, "%s: path too long\n", dir);
		return -1;
	}
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		cJSON *row = cJSON_ParseWithLength(line, (size_t)n);
		const cJSON *s = cJSON_GetObjectItem(row, c->field);

		if (cJSON_IsString(s)) {
			if (c->n == alloc) {
				size_t na = alloc ? alloc * 2 : 1024;
				char **nc = realloc(c->cmd, na * sizeof(*nc));
				size_t *nl;

				if (!nc)
					goto nomem;
				c->cmd = nc;
				nl = realloc(c->len, na * sizeof(*nl));
				if (!nl)
					goto nomem;
				c->len = nl;
				alloc = na;
			}
			c->len[c->n] = strlen(s->valuestring);
			c->cmd[c->n] = strdup(s->valuestring);
			if (!c->cmd[c->n])
				goto nomem;
			c->n++;
		}
		cJSON_Delete(row);
		continue;
nomem:
		cJSON_Delete(row);
		free(line);
		fclose(f);
		fprintf(stderr, "out of memory\n");
		return -1;
	}
	free(line);
	fclose(f);
	return 0;
}

static void unload(struct corpus *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->cmd[i]);
	free(c->cmd);
	free(c->len);
}

/* Times corpus c and prints one line. Returns 0, or -1 on allocation
 * failure. */
static int bench(struct cordon_classifier *cls, struct cordon_verdict *v,
		 const struct cordon_context *ctx, const struct corpus *c,
		 unsigned passes)
{
	uint64_t *t, total = 0, t0;
	size_t n = 0;

	if (c->n == 0 || c->n > SIZE_MAX / sizeof(*t) / passes)
		return -1;
	t = malloc(c->n * passes * sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < c->n; i++)
		(void)cordon_classify(cls, ctx, c->cmd[i], c->len[i], v, NULL);
	for (unsigned p = 0; p < passes; p++) {
		for (size_t i = 0; i < c->n; i++) {
			uint64_t a = now_ns();

			(void)cordon_classify(cls, ctx, c->cmd[i], c->len[i], v,
					      NULL);
			t[n++] = now_ns() - a;
		}
	}
	t0 = now_ns();
	for (unsigned p = 0; p < passes; p++)
		for (size_t i = 0; i < c->n; i++)
			(void)cordon_classify(cls, ctx, c->cmd[i], c->len[i],
					      v, NULL);
	total = now_ns() - t0;
	qsort(t, n, sizeof(*t), cmp_u64);
	printf("%-22s %6zu %8.3f %8.3f %8.3f %8.3f %12.0f\n", c->file, c->n,
	       t[n / 2] / 1e3, t[n * 90 / 100] / 1e3, t[n * 99 / 100] / 1e3,
	       (double)total / (double)n / 1e3,
	       (double)n / ((double)total / 1e9));
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	struct corpus corpora[] = {
		{ .file = "classifier-open.jsonl", .field = "command" },
		{ .file = "parser.jsonl", .field = "input" },
	};
	struct cordon_context ctx = {
		.cwd = "/home/user/project",
		.workspace = "/home/user/project",
		.home = "/home/user",
		.tmpdir = "/tmp",
	};
	const char *dir = getenv("CORDON_CORPUS");
	struct cordon_classifier *cls;
	struct cordon_verdict *v;
	unsigned long passes = 5;
	int i = 1, rc = 0, dir_given = 0;

	for (; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
			errno = 0;
			passes = strtoul(argv[++i], &end, 10);
			if (errno || *end || passes == 0 || passes > 1000) {
				fprintf(stderr, "-p: passes, 1 to 1000\n");
				return 2;
			}
		} else if (argv[i][0] != '-' && !dir_given) {
			dir = argv[i];
			dir_given = 1;
		} else {
			fprintf(stderr, "usage: %s [-p PASSES] [CORPUS_DIR]\n",
				argv[0]);
			return 2;
		}
	}
	if (!dir)
		dir = "../shared/corpus";

	for (size_t k = 0; k < sizeof(corpora) / sizeof(corpora[0]); k++)
		if (load(&corpora[k], dir) < 0)
			rc = 1;
	cls = cordon_classifier_new(NULL);
	v = cordon_verdict_new();
	if (!cls || !v) {
		fprintf(stderr, "out of memory\n");
		rc = 1;
	}
	if (rc == 0) {
		printf("in-process cordon_classify(), %lu timed passes after "
		       "one warm-up pass; times in microseconds\n",
		       passes);
		printf("%-22s %6s %8s %8s %8s %8s %12s\n", "corpus", "cmds",
		       "median", "p90", "p99", "mean", "commands/s");
		for (size_t k = 0; k < sizeof(corpora) / sizeof(corpora[0]);
		     k++) {
			if (bench(cls, v, &ctx, &corpora[k],
				  (unsigned)passes) < 0) {
				fprintf(stderr, "%s: nothing to time\n",
					corpora[k].file);
				rc = 1;
			}
		}
	}
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	for (size_t k = 0; k < sizeof(corpora) / sizeof(corpora[0]); k++)
		unload(&corpora[k]);
	return rc;
}
