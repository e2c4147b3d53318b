/* Many processes appending to one audit log at once: 8 processes × 10,000
 * records (fsync never) must give 80,000 whole lines, seqs 1..80,000 in
 * one valid chain, 10,000 from each process; then 16 processes × 2,000
 * with rotation every 64 KiB, while another process verifies the log
 * over and over, must keep every record once in one chain across the
 * files, and no verify run may report a break.
 *
 * The children start together: each blocks on a pipe that the parent
 * closes once all are forked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* Reads every record of the log (path.N … path.1, path) into seen[child]
 * [i] counts; returns the number of "load" records, -1 on a bad line. */
static long count_records(const char *path, int nproc, int per,
			  unsigned char *seen)
{
	char name[600];
	long n = 0;

	for (int k = 1000; k >= 0; k--) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		FILE *f;

		if (k)
			snprintf(name, sizeof(name), "%s.%d", path, k);
		else
			snprintf(name, sizeof(name), "%s", path);
		f = fopen(name, "r");
		if (!f)
			continue;
		while ((len = getline(&line, &cap, f)) > 0) {
			cJSON *o = cJSON_ParseWithLength(line, (size_t)len);
			const cJSON *c = cJSON_GetObjectItem(o, "child");
			const cJSON *i = cJSON_GetObjectItem(o, "i");

			if (!o || line[len - 1] != '\n') {
				n = -1;
			} else if (cJSON_IsNumber(c) && cJSON_IsNumber(i) &&
				   c->valueint >= 0 && c->valueint < nproc &&
				   i->valueint >= 0 && i->valueint < per) {
				seen[c->valueint * per + i->valueint]++;
				if (n >= 0)
					n++;
			}
			cJSON_Delete(o);
		}
		free(line);
		fclose(f);
	}
	return n;
}

/* 16 writers × 2,000 records with rotation at 64 KiB while a verifier
 * checks the log over and over: nothing is lost or doubled, the chain
 * holds, and no verify run while they write reports a break. */
static void test_rotating(void)
{
	enum { NPROC = 16, PER = 2000 };
	char path[512], alarm_file[600];
	const char *files[] = { path };
	struct cordon_audit_report rep;
	struct cordon_diag d = { 0 };
	static unsigned char seen[NPROC * PER];
	enum cordon_err rc;
	int stop[2], st = 0, once = 1;
	pid_t vpid;
	long n;

	snprintf(path, sizeof(path), "%s/rot/audit.jsonl", root);
	snprintf(alarm_file, sizeof(alarm_file), "%s/alarm", root);
	{
		/* One record first, so the verifier has a log to read. */
		struct cordon_audit_opts o = { .path = path,
					       .fsync_policy =
						       CORDON_AUDIT_FSYNC_NEVER,
					       .rotate_bytes = 64 * 1024,
					       .rotate_keep = 1000 };
		struct cordon_audit *a = NULL;
		ok(cordon_audit_open(&o, &a, NULL) == CORDON_OK &&
			   cordon_audit_event(a, "start", NULL, NULL) ==
				   CORDON_OK,
		   "the log is started");
		cordon_audit_close(a);
	}
	if (pipe(stop) != 0)
		return;
	vpid = fork();
	if (vpid == 0) {
		/* The verifier: until the parent closes the pipe. */
		long runs = 0, alarms = 0;
		char buf;

		close(stop[1]);
		fcntl(stop[0], F_SETFL, O_NONBLOCK);
		for (;;) {
			struct cordon_audit_report r;
			ssize_t k = read(stop[0], &buf, 1);

			if (k == 0)
				break;
			if (cordon_audit_verify(files, 1, &r, NULL) !=
				    CORDON_OK ||
			    !r.intact) {
				if (alarms++ == 0) {
					FILE *f = fopen(alarm_file, "w");
					if (f) {
						fprintf(f, "%s:%llu: %s",
							r.bad_file,
							(unsigned long long)
								r.bad_line,
							r.why);
						fclose(f);
					}
				}
			}
			runs++;
			/* Each run holds the writers off while it reads the
			 * set: leave them room between runs (pacing, not a
			 * timed check). */
			nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 },
				  NULL);
		}
		fprintf(stderr, "# %ld verify runs while they wrote\n", runs);
		_exit(alarms ? 1 : runs > 0 ? 0 : 2);
	}
	close(stop[0]);
	is_int(run_children(path, NPROC, PER, 64 * 1024, 1000), NPROC,
	       "16 processes appended 2,000 records each with rotation every "
	       "64 KiB");
	close(stop[1]);
	waitpid(vpid, &st, 0);
	{
		char why[700] = "";
		FILE *f = fopen(alarm_file, "r");
		if (f) {
			if (!fgets(why, sizeof(why), f))
				why[0] = '\0';
			fclose(f);
		}
		ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "verify while they wrote: no false alarm (%s)",
		   why[0] ? why : "none");
	}
	n = count_records(path, NPROC, PER, seen);
	for (int k = 0; k < NPROC * PER; k++)
		once &= seen[k] == 1;
	ok(n == NPROC * PER && once,
	   "every record is there exactly once (%ld of %d)", n, NPROC * PER);
	rc = cordon_audit_verify(files, 1, &rep, &d);
	ok(rc == CORDON_OK && rep.intact &&
		   rep.records == 1 + NPROC * PER + rep.files - 1 &&
		   rep.files >= 20,
	   "one chain of 32,001 records and a rotated record per file "
	   "across %u files (%llu; %s)",
	   rep.files, (unsigned long long)rep.records, rep.why);
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
