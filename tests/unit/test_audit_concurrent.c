/* Many processes appending to one audit log at once: 8 processes × 10,000
 * records (fsync never) must give 80,000 whole lines, seqs 1..80,000 in
 * one valid chain, 10,000 from each process; then 4 processes × 2,500
 * with rotation every 200 KiB must keep one chain across the files.
 *
 * The children start together: each blocks on a pipe that the parent
 * closes once all are forked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "tap.h"

static char root[256];

/* Forks nproc children that each append n records to path, all released
 * at once; returns how many children exited cleanly. */
static int run_children(const char *path, int nproc, int n,
			uint64_t rotate_bytes, unsigned keep)
{
	int gate[2];
	pid_t pids[16];
	int good = 0;

	if (pipe(gate) != 0)
		return 0;
	for (int c = 0; c < nproc; c++) {
		pids[c] = fork();
		if (pids[c] == 0) {
			struct cordon_audit_opts o = { 0 };
			struct cordon_audit *a = NULL;
			char buf;
			int bad = 0;

			close(gate[1]);
			o.path = path;
			o.fsync_policy = CORDON_AUDIT_FSYNC_NEVER;
			o.rotate_bytes = rotate_bytes;
			o.rotate_keep = keep;
			if (cordon_audit_open(&o, &a, NULL) != CORDON_OK)
				_exit(2);
			(void)read(gate[0], &buf, 1);
			for (int i = 0; i < n; i++) {
				char f[96];
				snprintf(f, sizeof(f),
					 "{\"child\":%d,\"i\":%d,\"pad\":"
					 "\"xxxxxxxxxxxxxxxx\"}",
					 c, i);
				if (cordon_audit_event(a, "load", f, NULL) !=
				    CORDON_OK)
					bad = 1;
			}
			if (cordon_audit_close(a) != CORDON_OK)
				bad = 1;
			_exit(bad);
		}
	}
	close(gate[0]);
	close(gate[1]);
	for (int c = 0; c < nproc; c++) {
		int st = 0;
		if (pids[c] > 0 && waitpid(pids[c], &st, 0) == pids[c] &&
		    WIFEXITED(st) && WEXITSTATUS(st) == 0)
			good++;
	}
	return good;
}

static void test_many(void)
{
	enum { NPROC = 8, PER = 10000 };
	char path[512];
	const char *files[] = { path };
	struct cordon_audit_report rep;
	struct cordon_diag d = { 0 };
	int per_child[NPROC] = { 0 };
	enum cordon_err rc;
	long lines = 0, bad = 0, last_seq = 0, seq_ok = 1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/many.jsonl", root);
	is_int(run_children(path, NPROC, PER, 0, 0), NPROC,
	       "8 processes appended 10,000 records each without an error");

	f = fopen(path, "r");
	while (f && (len = getline(&line, &cap, f)) > 0) {
		cJSON *o;
		const cJSON *c, *s;

		lines++;
		if (line[len - 1] != '\n') {
			bad++;
			continue;
		}
		o = cJSON_ParseWithLength(line, (size_t)len - 1);
		c = cJSON_GetObjectItem(o, "child");
		s = cJSON_GetObjectItem(o, "seq");
		if (!cJSON_IsNumber(c) || !cJSON_IsNumber(s) ||
		    c->valueint < 0 || c->valueint >= NPROC)
			bad++;
		else {
			per_child[c->valueint]++;
			if (s->valueint != last_seq + 1)
				seq_ok = 0;
			last_seq = s->valueint;
		}
		cJSON_Delete(o);
	}
	if (f)
		fclose(f);
	free(line);
	is_int(lines, NPROC * PER, "80,000 lines");
	is_int(bad, 0, "every line is one whole record (no interleaving)");
	ok(seq_ok && last_seq == NPROC * PER, "seqs run 1..80,000 in order");
	{
		int all = 1;
		for (int c = 0; c < NPROC; c++)
			all &= per_child[c] == PER;
		ok(all, "10,000 records from each process");
	}
	rc = cordon_audit_verify(files, 1, &rep, &d);
	ok(rc == CORDON_OK && rep.intact && rep.records == NPROC * PER,
	   "the chain is valid (%llu records; %s)",
	   (unsigned long long)rep.records, rep.why);
}

static void test_rotating(void)
{
	enum { NPROC = 4, PER = 2500 };
	char path[512];
	const char *files[] = { path };
	struct cordon_audit_report rep;
	struct cordon_diag d = { 0 };
	enum cordon_err rc;

	snprintf(path, sizeof(path), "%s/rot/audit.jsonl", root);
	is_int(run_children(path, NPROC, PER, 200 * 1024, 100), NPROC,
	       "4 processes appended with rotation every 200 KiB");
	rc = cordon_audit_verify(files, 1, &rep, &d);
	ok(rc == CORDON_OK && rep.intact && rep.records == NPROC * PER &&
		   rep.files >= 5,
	   "one chain of 10,000 records across %u files (%s)", rep.files,
	   rep.why);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	tap_no_plan();
	snprintf(root, sizeof(root), "%s/cordon-auditc-XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	test_many();
	test_rotating();
	{
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			diag("could not remove %s", root);
	}
	return tap_done();
}
