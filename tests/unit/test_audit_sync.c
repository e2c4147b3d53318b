/* Durability that rides with the effect (audit.h): the file id a hook's
 * rewrite names ("DEV:INO", strict), which handles owe a sync another
 * process may take (a file with an absolute path and fsync every or
 * batch; not "-", fsync never, a relative path), the file the last record
 * went to (another one after a rotation under it), and audit_sync_file()
 * finding the file at its path, at path.1 after a rotation, and refusing
 * when it is at neither (or a FIFO stands there). Which calls sync is seen
 * with strace in tests/integration/hook_durable.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "cordon.h"
#include "tap.h"

static char root[256];

static struct audit_file_id id_of(const char *path)
{
	struct stat st;
	struct audit_file_id id = { 0, 0 };

	if (stat(path, &st) == 0) {
		id.dev = (unsigned long long)st.st_dev;
		id.ino = (unsigned long long)st.st_ino;
	}
	return id;
}

static bool same(const struct audit_file_id *a, const struct audit_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

static struct cordon_audit *open_log(const char *path,
				     enum cordon_audit_fsync policy,
				     uint64_t rotate_bytes)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_diag d = { 0 };
	struct cordon_audit *a = NULL;

	o.path = path;
	o.fsync_policy = policy;
	o.rotate_bytes = rotate_bytes;
	if (cordon_audit_open(&o, &a, &d) != CORDON_OK)
		diag("open %s: %s", path ? path : "(none)", d.message);
	return a;
}

static int record(struct cordon_audit *a)
{
	struct cordon_diag diag = { 0 };

	return cordon_audit_event(a, "test", "{\"k\":\"some bytes\"}", &diag) ==
	       CORDON_OK;
}

static void test_parse(void)
{
	static const char *const bad[] = {
		"",
		":",
		"1",
		"1:",
		":2",
		"01:2",
		"1:02",
		"-1:2",
		"+1:2",
		"1:2:3",
		" 1:2",
		"1:2 ",
		"1: 2",
		"a:b",
		"1:2x",
		"18446744073709551616:1",
		"1:18446744073709551616",
	};
	struct audit_file_id id;
	char buf[48];

	ok(audit_file_id_parse("0:0", &id) == 0 && id.dev == 0 && id.ino == 0,
	   "0:0 parses");
	ok(audit_file_id_parse("65024:15041535", &id) == 0 && id.dev == 65024 &&
		   id.ino == 15041535,
	   "65024:15041535 parses");
	ok(audit_file_id_parse("18446744073709551615:1", &id) == 0 &&
		   id.dev == 18446744073709551615ULL,
	   "the largest 64-bit number parses");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(audit_file_id_parse(bad[i], &id) != 0, "refused: '%s'",
		   bad[i]);
	id.dev = 7;
	id.ino = 123456789;
	ok(audit_file_id_format(&id, buf, sizeof(buf)) == 0 &&
		   strcmp(buf, "7:123456789") == 0,
	   "formatted as DEV:INO");
	ok(audit_file_id_format(&id, buf, 4) != 0, "too small a buffer: -1");
}

static void test_target(void)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct audit_file_id id, want;
	struct cordon_audit *a;
	char cwd[PATH_MAX];

	snprintf(path, sizeof(path), "%s/every.jsonl", root);
	a = open_log(path, CORDON_AUDIT_FSYNC_EVERY, 0);
	want = id_of(path);
	ok(a && audit_sync_target(a, &id) && same(&id, &want),
	   "fsync every: the target is the open file");
	ok(a && !audit_last_file(a, &id), "no record yet: no last file");
	cordon_audit_close(a);

	snprintf(path, sizeof(path), "%s/batch.jsonl", root);
	a = open_log(path, CORDON_AUDIT_FSYNC_BATCH, 0);
	ok(a && audit_sync_target(a, &id), "fsync batch: a target too");
	cordon_audit_close(a);

	snprintf(path, sizeof(path), "%s/never.jsonl", root);
	a = open_log(path, CORDON_AUDIT_FSYNC_NEVER, 0);
	ok(a && !audit_sync_target(a, &id), "fsync never: no target");
	cordon_audit_close(a);

	a = open_log(NULL, CORDON_AUDIT_FSYNC_EVERY, 0);
	ok(a && !audit_sync_target(a, &id) && !audit_file_path(a),
	   "no file sink: no target");
	cordon_audit_close(a);

	if (!getcwd(cwd, sizeof(cwd)) || chdir(root) != 0) {
		ok(0, "chdir %s", root);
		return;
	}
	snprintf(rel, sizeof(rel), "rel.jsonl");
	a = open_log(rel, CORDON_AUDIT_FSYNC_EVERY, 0);
	ok(a && !audit_sync_target(a, &id),
	   "a relative path: no target (another process may resolve it "
	   "elsewhere)");
	cordon_audit_close(a);
	if (chdir(cwd) != 0)
		ok(0, "chdir back");
}

static void test_deferred(void)
{
	char path[PATH_MAX];
	struct audit_file_id before, last, now;
	struct cordon_diag diag = { 0 };
	struct cordon_audit *a;
	struct cordon_audit_report rep;
	int rotated = 0;

	snprintf(path, sizeof(path), "%s/deferred.jsonl", root);
	a = open_log(path, CORDON_AUDIT_FSYNC_EVERY, 0);
	ok(a && audit_sync_target(a, &before), "open");
	audit_defer_sync(a);
	ok(record(a), "a deferred record is written");
	ok(audit_last_file(a, &last) && same(&last, &before),
	   "it went to the target file");
	ok(audit_sync(a, &diag) == CORDON_OK, "audit_sync takes the sync");
	ok(cordon_audit_close(a) == CORDON_OK, "close");

	/* Rotation under the deferred record: the record is in another file
	 * than the target named before it (the hook then syncs itself). */
	snprintf(path, sizeof(path), "%s/rot.jsonl", root);
	a = open_log(path, CORDON_AUDIT_FSYNC_EVERY, 600);
	for (int i = 0; i < 3; i++)
		ok(record(a), "record %d", i);
	ok(audit_sync_target(a, &before), "target");
	audit_defer_sync(a);
	for (int i = 0; i < 5 && !rotated; i++) {
		ok(record(a), "deferred record %d", i);
		rotated = audit_last_file(a, &last) && !same(&last, &before);
	}
	now = id_of(path);
	ok(rotated && same(&last, &now),
	   "after a rotation the last record's file is the new one");
	ok(cordon_audit_close(a) == CORDON_OK, "close after deferral");
	{
		const char *files[] = { path };

		memset(&rep, 0, sizeof(rep));
		ok(cordon_audit_verify(files, 1, &rep, &diag) == CORDON_OK &&
			   rep.intact,
		   "the rotated chain verifies");
	}
}

/* A log at path holding one deferred record; the file's id. */
static struct audit_file_id deferred_file(const char *path)
{
	struct cordon_audit *a = open_log(path, CORDON_AUDIT_FSYNC_EVERY, 0);
	struct audit_file_id id = { 0, 0 };

	audit_defer_sync(a);
	ok(record(a), "a deferred record");
	ok(audit_last_file(a, &id), "its file");
	cordon_audit_close(a);
	return id;
}

static void test_sync_file(void)
{
	char path[PATH_MAX - 16], one[PATH_MAX], away[PATH_MAX];
	struct cordon_diag diag = { 0 };
	struct audit_file_id id, other;

	snprintf(path, sizeof(path), "%s/sf.jsonl", root);
	snprintf(one, sizeof(one), "%s.1", path);
	snprintf(away, sizeof(away), "%s/away.jsonl", root);
	id = deferred_file(path);

	ok(audit_sync_file(path, &id, &diag) == CORDON_OK,
	   "found at its path: synced");
	ok(rename(path, one) == 0, "rotated by hand to path.1");
	ok(audit_sync_file(path, &id, &diag) == CORDON_OK,
	   "found at path.1: synced");
	ok(rename(one, away) == 0, "moved elsewhere");
	memset(&diag, 0, sizeof(diag));
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO &&
		   strstr(diag.message, "is neither") &&
		   strstr(diag.message, "the command does not run"),
	   "at neither: refused, saying so (%s)", diag.message);
	ok(mkfifo(path, 0600) == 0, "a FIFO at the path");
	memset(&diag, 0, sizeof(diag));
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO,
	   "a FIFO is not the file (and opening it did not wait)");
	unlink(path);
	other = id_of(away);
	other.ino++;
	ok(audit_sync_file(away, &other, &diag) == CORDON_E_IO,
	   "another inode at the path: refused");
}

/* mark PATH ID: appends "DEV:INO\n" of id to PATH.syncfail, as a process
 * whose fdatasync of that file failed leaves it. */
static bool mark(const char *path, const struct audit_file_id *id)
{
	char name[PATH_MAX], text[64];
	FILE *f;
	bool ok;

	snprintf(name, sizeof(name), "%s" AUDIT_MARK_SUFFIX, path);
	if (audit_file_id_format(id, text, sizeof(text)) != 0)
		return false;
	f = fopen(name, "a");
	if (!f)
		return false;
	ok = fprintf(f, "%s\n", text) > 0;
	return fclose(f) == 0 && ok && chmod(name, 0600) == 0;
}

/* The sync mark: a file some process saw an fdatasync fail for is refused
 * by every later sync on a new descriptor, whatever that sync returns
 * (Linux reports the error once); another file's mark is not; a mark
 * that cannot be trusted refuses; the message names the file synced
 * (path.1 after a rotation); a rotation does not rename a marked file. */
static void test_mark(void)
{
	char path[PATH_MAX - 32], name[PATH_MAX], one[PATH_MAX];
	struct cordon_diag diag = { 0 };
	struct audit_file_id id, other;
	struct audit_sync_job *job;
	struct cordon_audit *a;
	struct stat st;

	snprintf(path, sizeof(path), "%s/mk.jsonl", root);
	snprintf(name, sizeof(name), "%s" AUDIT_MARK_SUFFIX, path);
	snprintf(one, sizeof(one), "%s.1", path);
	id = deferred_file(path);

	other = id;
	other.ino++;
	ok(mark(path, &other), "a mark naming another file");
	ok(audit_sync_file(path, &id, &diag) == CORDON_OK,
	   "another file's mark: synced");
	ok(mark(path, &id), "a mark naming this file");
	memset(&diag, 0, sizeof(diag));
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO &&
		   strstr(diag.message, "had an fsync fail before") &&
		   strstr(diag.message, name) &&
		   strstr(diag.message, "the command does not run"),
	   "its mark: refused although fdatasync passes (%s)", diag.message);
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO,
	   "and again: a sync that passes does not clear it");
	ok(rename(path, one) == 0, "rotated by hand to path.1");
	memset(&diag, 0, sizeof(diag));
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO &&
		   strstr(diag.message, one),
	   "found at path.1, still marked: the message names path.1 (%s)",
	   diag.message);
	ok(rename(one, path) == 0 && unlink(name) == 0,
	   "moved back, the mark removed");
	ok(audit_sync_file(path, &id, &diag) == CORDON_OK,
	   "without the mark: synced");
	ok(stat(name, &st) == 0 && st.st_size == 0 &&
		   (st.st_mode & 07777) == 0600,
	   "the sync made the mark file it locks: empty, 0600");
	ok(mark(path, &id) && truncate(name, 0) == 0 &&
		   audit_sync_file(path, &id, &diag) == CORDON_OK,
	   "a mark emptied: synced");

	ok(unlink(name) == 0 && symlink("/dev/null", name) == 0,
	   "a symlink at the mark");
	memset(&diag, 0, sizeof(diag));
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO &&
		   strstr(diag.message, "cannot open"),
	   "a mark that is a symlink: refused (%s)", diag.message);
	unlink(name);
	ok(mark(path, &other) && chmod(name, 0622) == 0,
	   "a mark others can write");
	ok(audit_sync_file(path, &id, &diag) == CORDON_E_IO,
	   "refused: it could have been emptied");
	unlink(name);

	/* A job whose run never happened (a caller that did not wait for
	 * its thread) does not pass. */
	job = audit_sync_job_new(path, &id, &diag);
	ok(job != NULL, "a job");
	memset(&diag, 0, sizeof(diag));
	ok(job && audit_sync_job_result(job, &diag) == CORDON_E_IO &&
		   strstr(diag.message, "was not taken"),
	   "not run: refused (%s)", diag.message);
	if (job)
		audit_sync_job_run(job);
	ok(job && audit_sync_job_result(job, &diag) == CORDON_OK,
	   "run: synced");
	audit_sync_job_free(job);

	/* A rotation syncs the file it renames away and reads the mark: a
	 * marked file stays where it is, and the record is refused. */
	snprintf(path, sizeof(path), "%s/mkrot.jsonl", root);
	snprintf(name, sizeof(name), "%s" AUDIT_MARK_SUFFIX, path);
	snprintf(one, sizeof(one), "%s.1", path);
	a = open_log(path, CORDON_AUDIT_FSYNC_EVERY, 300);
	ok(a && record(a), "a record");
	id = id_of(path);
	ok(mark(path, &id), "the file marked");
	memset(&diag, 0, sizeof(diag));
	for (int i = 0;
	     i < 4 && cordon_audit_event(a, "test", "{\"k\":\"some bytes\"}",
					 &diag) == CORDON_OK;
	     i++)
		;
	ok(strstr(diag.message, "the log is not rotated") != NULL,
	   "the record that would rotate it fails (%s)", diag.message);
	ok(stat(one, &st) != 0 && id_of(path).ino == id.ino,
	   "no path.1; the marked file is still at the path");
	cordon_audit_close(a);
	unlink(name);
}

static int verify1(const char *path, struct cordon_audit_report *rep,
		   struct cordon_diag *diag)
{
	const char *files[1] = { path };

	memset(diag, 0, sizeof(*diag));
	return cordon_audit_verify(files, 1, rep, diag);
}

/* `cordon audit verify` reads the sync mark: a file it names fails
 * although its chain is whole (the page cache is what verify reads, and
 * what a failed write-back lost is not on disk), a mark naming another
 * file does not, a mark that cannot be trusted is an error (as a sync
 * refuses it), a rotated file is found under the newest file's mark, and
 * so is a rotated file given by itself. Verify never makes the mark. */
static void test_verify_mark(void)
{
	char path[PATH_MAX - 32], name[PATH_MAX], one[PATH_MAX];
	struct cordon_audit_report rep;
	struct cordon_diag diag = { 0 };
	struct audit_file_id id, other;
	struct cordon_audit *a;
	struct stat st;
	const char *files[2];

	snprintf(path, sizeof(path), "%s/vm.jsonl", root);
	snprintf(name, sizeof(name), "%s" AUDIT_MARK_SUFFIX, path);
	snprintf(one, sizeof(one), "%s.1", path);
	a = open_log(path, CORDON_AUDIT_FSYNC_NEVER, 0);
	ok(a && record(a) && record(a), "two records");
	cordon_audit_close(a);
	id = id_of(path);
	other = id;
	other.ino++;

	ok(verify1(path, &rep, &diag) == CORDON_OK && rep.intact &&
		   rep.records == 2,
	   "no mark: intact");
	ok(lstat(name, &st) != 0 && errno == ENOENT,
	   "verify did not make the mark");
	ok(mark(path, &other) && verify1(path, &rep, &diag) == CORDON_OK &&
		   rep.intact,
	   "a mark naming another file: intact");
	ok(mark(path, &id) && verify1(path, &rep, &diag) == CORDON_OK &&
		   !rep.intact && rep.bad_line == 0 && rep.records == 2 &&
		   strcmp(rep.bad_file, path) == 0 &&
		   strstr(rep.why, "fsync of this file failed") &&
		   strstr(rep.why, name),
	   "its mark: not intact, no line at fault, the mark named (%s)",
	   rep.why);

	/* rotated by hand: the set is vm.jsonl.1 (marked) and a new file */
	ok(rename(path, one) == 0, "rotated by hand to path.1");
	a = open_log(path, CORDON_AUDIT_FSYNC_NEVER, 0);
	ok(a && record(a), "a record in the new file");
	cordon_audit_close(a);
	ok(verify1(path, &rep, &diag) == CORDON_OK && !rep.intact &&
		   strcmp(rep.bad_file, one) == 0 && rep.bad_line == 0,
	   "the newest file's mark names path.1: not intact at path.1 (%s)",
	   rep.bad_file);
	files[0] = one;
	files[1] = path;
	memset(&diag, 0, sizeof(diag));
	ok(cordon_audit_verify(files, 2, &rep, &diag) == CORDON_OK &&
		   !rep.intact && strcmp(rep.bad_file, one) == 0,
	   "path.1 and path given: path.1 is found under path's mark");

	/* a chain break is reported before the mark */
	{
		FILE *f = fopen(path, "a");

		ok(f && fputs("not a record\n", f) >= 0 && fclose(f) == 0,
		   "a line that is no record appended");
	}
	ok(verify1(path, &rep, &diag) == CORDON_OK && !rep.intact &&
		   rep.bad_line != 0,
	   "a broken chain: the break is named, with its line (%s)", rep.why);

	ok(unlink(name) == 0 && symlink("/dev/null", name) == 0,
	   "a symlink at the mark");
	ok(verify1(path, &rep, &diag) == CORDON_E_IO &&
		   strstr(diag.message, "symlink"),
	   "a mark that is a symlink: an error (%s)", diag.message);
	unlink(name);
	ok(mkfifo(name, 0600) == 0 &&
		   verify1(path, &rep, &diag) == CORDON_E_IO &&
		   strstr(diag.message, "not trusted"),
	   "a FIFO at the mark: an error, not a hang (%s)", diag.message);
	unlink(name);
	ok(mark(path, &other) && chmod(name, 0622) == 0 &&
		   verify1(path, &rep, &diag) == CORDON_E_IO,
	   "a mark others can write: an error (it could have been emptied)");
	unlink(name);
	unlink(one);
	unlink(path);
}

int main(void)
{
	tap_no_plan();
	if (tap_mkdtemp(root, sizeof(root), "cordon-auditsync") != 0)
		return tap_done();
	test_parse();
	test_target();
	test_deferred();
	test_sync_file();
	test_mark();
	test_verify_mark();
	tap_rmtree(root);
	return tap_done();
}
