/* approvals: session and durable grants, prefix rules, amendments, the
 * approvals file (validation, corruption, atomic concurrent writes). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "approvals.h"
#include "cordon.h"
#include "tap.h"

static char dir[256];
static struct arena A;
static int nfile; /* for fresh file names */

/* A new file name in the test directory (a ring of buffers: valid for the
 * next 15 calls). */
static const char *fresh(const char *stem)
{
	static char bufs[16][512];
	char *buf = bufs[nfile % 16];

	snprintf(buf, sizeof(bufs[0]), "%s/%s-%d.json", dir, stem, nfile);
	nfile++;
	return buf;
}

static void write_text(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(s, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* The file's bytes (malloc'd, NUL-terminated), NULL when missing. */
static char *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		size_t k = fread(buf + len, 1, 4096, f);
		len += k;
		if (k == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	if (n)
		*n = len;
	return buf;
}

/* A shell query; words computed from the command (NULL when not plain). */
static struct approvals_query exec_q(const char *tool, const char *cmd,
				const char *session, bool exact_only,
				struct cmdwords *cw)
{
	struct approvals_query q = { 0 };

	q.session = session;
	q.tool = tool;
	q.kind = CORDON_KIND_EXECUTE;
	q.command = cmd;
	q.exact_only = exact_only;
	q.words = cmdwords_split(&A, NULL, cmd, strlen(cmd), cw) ? cw : NULL;
	return q;
}

static struct approvals_query file_q(const char *tool, enum cordon_kind kind,
				const char *path, const char *session)
{
	struct approvals_query q = { 0 };

	q.session = session;
	q.tool = tool;
	q.kind = kind;
	q.path = path;
	return q;
}

static int lookup_cmd(const struct approvals_store *st, const char *cmd,
		      const char *session, bool exact_only,
		      enum policy_step *src)
{
	struct cmdwords cw;
	struct approvals_query q = exec_q("Bash", cmd, session, exact_only, &cw);

	return approvals_lookup(st, &q, src);
}

static bool has_warning(const struct approvals_store *st, const char *needle)
{
	for (size_t i = 0; i < st->nwarnings; i++)
		if (strstr(st->warnings[i], needle))
			return true;
	return false;
}

static void test_answer_names(void)
{
	static const char *const want[] = {
		"allow_once",	"allow_session", "allow_always", "deny_once",
		"deny_session", "deny_always",	 "abort",	 "timed_out",
	};
	for (int i = 0; i <= CORDON_ANSWER_TIMED_OUT; i++)
		is_str(cordon_answer_name((enum cordon_answer)i), want[i],
		       "answer name");
	is_str(cordon_answer_name((enum cordon_answer)99), "unknown",
	       "out of range answer");
}

static void test_missing(void)
{
	struct approvals_store st;
	const char *path = fresh("missing");

	is_int(approvals_open(&st, path), CORDON_OK, "missing file opens");
	ok(!st.corrupt && st.nrules == 0 && st.nwarnings == 0,
	   "missing file: empty store, no warning");
	is_int(lookup_cmd(&st, "ls", "s1", false, NULL), -1,
	       "empty store decides nothing");
	approvals_close(&st);
	ok(access(path, F_OK) != 0, "opening does not create the file");

	is_int(approvals_open(&st, NULL), CORDON_OK, "no path: session only");
	is_int(lookup_cmd(&st, "ls", "s1", false, NULL), -1, "nothing");
	approvals_close(&st);
	approvals_close(NULL);
}

static void test_session_vs_always(void)
{
	struct approvals_store st;
	struct cmdwords cw;
	struct approvals_query q;
	const char *path = fresh("always");
	enum policy_step src = POLICY_STEP__COUNT;
	char note[256];
	struct stat sb;
	char *text;

	approvals_open(&st, path);
	q = exec_q("Bash", "npm test", "s1", false, &cw);
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ONCE, NULL, note,
			   sizeof(note)),
	       CORDON_OK, "allow once records");
	is_int(approvals_lookup(&st, &q, NULL), -1, "allow once stores nothing");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
			   sizeof(note)),
	       CORDON_OK, "allow session records");
	is_str(note, "", "no note");
	is_int(lookup_cmd(&st, "npm test", "s1", false, &src), CORDON_ALLOW,
	       "session grant allows in its session");
	is_str(policy_step_name(src), "session_grant", "source session_grant");
	is_int(lookup_cmd(&st, "npm test", "s2", false, NULL), -1,
	       "not in another session");
	is_int(lookup_cmd(&st, "npm test", NULL, false, NULL), -1,
	       "not without a session");
	is_int(lookup_cmd(&st, "npm test --watch", "s1", false, NULL), -1,
	       "a session grant without amendment is exact");
	ok(access(path, F_OK) != 0, "a session grant writes no file");

	q = exec_q("Bash", "make build", "s1", false, &cw);
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			   sizeof(note)),
	       CORDON_OK, "allow always records");
	is_str(note, "", "no note");
	is_int(lookup_cmd(&st, "make build", "s9", false, &src), CORDON_ALLOW,
	       "always applies in any session");
	is_str(policy_step_name(src), "approvals_rule",
	       "source approvals_rule");
	ok(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600,
	   "the approvals file is 0600");
	text = read_all(path, NULL);
	ok(text && strstr(text, "\"created\"") && strstr(text, "Z\"") &&
		   strstr(text, "\"command\":") &&
		   strstr(text, "\"make build\""),
	   "the rule is written with a created time");
	free(text);
	approvals_close(&st);

	is_int(approvals_open(&st, path), CORDON_OK, "reopen");
	is_int(lookup_cmd(&st, "make build", NULL, false, NULL), CORDON_ALLOW,
	       "always survives a reopen");
	is_int(lookup_cmd(&st, "npm test", "s1", false, NULL), -1,
	       "a session grant does not survive a reopen");
	q = exec_q("Bash", "make build", "s1", false, &cw);
	approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
		    sizeof(note));
	approvals_close(&st);
	approvals_open(&st, path);
	is_int((long long)st.nrules, 1, "the same grant twice is stored once");
	approvals_close(&st);

	/* Answers that store nothing. */
	approvals_open(&st, NULL);
	q = exec_q("Bash", "id", "s1", false, &cw);
	approvals_record(&st, &q, CORDON_ANSWER_DENY_ONCE, NULL, NULL, 0);
	approvals_record(&st, &q, CORDON_ANSWER_ABORT, NULL, NULL, 0);
	approvals_record(&st, &q, CORDON_ANSWER_TIMED_OUT, NULL, NULL, 0);
	is_int((long long)st.ngrants, 0,
	       "once, abort, timed_out store nothing");
	is_int(approvals_record(&st, &q, (enum cordon_answer)42, NULL, NULL, 0),
	       CORDON_E_INVAL, "unknown answer");
	q.session = NULL;
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
			   sizeof(note)),
	       CORDON_E_INVAL, "session grant without a session id");
	ok(strstr(note, "no session id") != NULL, "note says why");
	q.session = "s1";
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			   sizeof(note)),
	       CORDON_E_INVAL, "always without a file");
	ok(strstr(note, "kept for this session") != NULL, "note says so");
	is_int(lookup_cmd(&st, "id", "s1", false, NULL), CORDON_ALLOW,
	       "kept as a session grant");
	approvals_close(&st);
}

static void test_exact_only(void)
{
	struct approvals_store st;
	const char *path = fresh("exact");
	const char *json = "{\"version\": 1, \"rules\": ["
			   "{\"tool\": \"Bash\", \"decision\": \"allow\", "
			   "\"commandPrefix\": [\"rm\"]},"
			   "{\"tool\": \"Bash\", \"decision\": \"allow\", "
			   "\"command\": \"rm -rf dist\"},"
			   "{\"tool\": \"Shell\", \"decision\": \"allow\"}]}";
	struct cmdwords cw;
	struct approvals_query q;
	char note[512];
	enum policy_step src = POLICY_STEP__COUNT;

	write_text(path, json, strlen(json));
	is_int(approvals_open(&st, path), CORDON_OK, "open");
	is_int((long long)st.nrules, 3, "three rules");
	is_int(lookup_cmd(&st, "rm -rf build", NULL, false, NULL), CORDON_ALLOW,
	       "a prefix rule allows a non-destructive match");
	is_int(lookup_cmd(&st, "rm -rf build", NULL, true, NULL), -1,
	       "a prefix rule does not allow it when exact_only");
	is_int(lookup_cmd(&st, "rm -rf dist", NULL, true, &src), CORDON_ALLOW,
	       "an exact rule does");
	{
		struct approvals_query sq =
			exec_q("Shell", "rm -rf x", NULL, true, &cw);
		is_int(approvals_lookup(&st, &sq, NULL), -1,
		       "a tool-wide allow does not allow exact_only");
		sq.exact_only = false;
		is_int(approvals_lookup(&st, &sq, NULL), CORDON_ALLOW,
		       "a tool-wide allow covers other calls");
	}
	approvals_close(&st);

	/* A grant for a destructive command is exact, amendment or not. */
	approvals_open(&st, fresh("exact2"));
	q = exec_q("Bash", "git reset --hard", "s1", true, &cw);
	char *gw[] = { "git", "reset" };
	struct strlist amend = { gw, 2 };
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, &amend, note,
			   sizeof(note)),
	       CORDON_OK, "destructive with an amendment records");
	ok(strstr(note, "amendment refused") && strstr(note, "destructive"),
	   "note: refused for a destructive command (%s)", note);
	ok(st.nrules == 1 && st.rules[0].match == APPROVALS_EXACT &&
		   strcmp(st.rules[0].value, "git reset --hard") == 0,
	   "an exact rule is stored instead");
	is_int(lookup_cmd(&st, "git reset --hard HEAD~1", NULL, true, NULL), -1,
	       "it covers nothing else");
	approvals_close(&st);
}

static void test_segments(void)
{
	struct approvals_store st;
	enum policy_step src = POLICY_STEP__COUNT;
	static const char *const files[] = {
		/* 0: status only */
		"{\"version\":1,\"rules\":[{\"tool\":\"Bash\",\"decision\":"
		"\"allow\",\"commandPrefix\":[\"git\",\"status\"]}]}",
		/* 1: both */
		"{\"version\":1,\"rules\":[{\"tool\":\"Bash\",\"decision\":"
		"\"allow\",\"commandPrefix\":[\"git\",\"status\"]},"
		"{\"tool\":\"*\",\"decision\":\"allow\",\"commandPrefix\":"
		"[\"git\",\"push\"]}]}",
		/* 2: status allowed, push denied */
		"{\"version\":1,\"rules\":[{\"tool\":\"Bash\",\"decision\":"
		"\"allow\",\"commandPrefix\":[\"git\",\"status\"]},"
		"{\"tool\":\"Bash\",\"decision\":\"deny\",\"commandPrefix\":"
		"[\"git\",\"push\"]}]}",
		/* 3: allow git first, deny git push second */
		"{\"version\":1,\"rules\":[{\"tool\":\"Bash\",\"decision\":"
		"\"allow\",\"commandPrefix\":[\"git\"]},"
		"{\"tool\":\"Bash\",\"decision\":\"deny\",\"commandPrefix\":"
		"[\"git\",\"push\"]}]}",
		/* 4: deny git push first, allow git second */
		"{\"version\":1,\"rules\":[{\"tool\":\"Bash\",\"decision\":"
		"\"deny\",\"commandPrefix\":[\"git\",\"push\"]},"
		"{\"tool\":\"Bash\",\"decision\":\"allow\",\"commandPrefix\":"
		"[\"git\"]}]}",
		/* 5: prefix for status, exact for a not-plain line */
		"{\"version\":1,\"rules\":[{\"tool\":\"Bash\",\"decision\":"
		"\"allow\",\"commandPrefix\":[\"git\",\"status\"]},"
		"{\"tool\":\"Bash\",\"decision\":\"allow\",\"command\":"
		"\"git status > out.txt\"}]}",
	};
	const char *p[6];

	for (int i = 0; i < 6; i++) {
		p[i] = fresh("seg");
		write_text(p[i], files[i], strlen(files[i]));
	}
	approvals_open(&st, p[0]);
	is_int(lookup_cmd(&st, "git status", NULL, false, &src), CORDON_ALLOW,
	       "prefix allows its command");
	is_str(policy_step_name(src), "approvals_rule", "from the file");
	is_int(lookup_cmd(&st, "git status && git push", NULL, false, NULL), -1,
	       "one segment uncovered: undecided");
	is_int(lookup_cmd(&st, "git status | rm -rf x", NULL, false, NULL), -1,
	       "a pipe into an uncovered command: undecided");
	is_int(lookup_cmd(&st, "git status; $(rm -rf x)", NULL, false, NULL),
	       -1, "a not-plain line never matches a prefix rule");
	is_int(lookup_cmd(&st, "/usr/bin/git status", NULL, false, NULL), -1,
	       "command name compared as written");
	{
		struct cmdwords cw;
		struct approvals_query q =
			exec_q("Write", "git status", NULL, false, &cw);
		is_int(approvals_lookup(&st, &q, NULL), -1,
		       "a rule for another tool does not apply");
	}
	approvals_close(&st);

	approvals_open(&st, p[1]);
	is_int(lookup_cmd(&st, "git status && git push", NULL, false, NULL),
	       CORDON_ALLOW, "every segment covered: allow");
	is_int(lookup_cmd(&st, "git status && git push; ls", NULL, false, NULL),
	       -1, "one more uncovered segment: undecided");
	approvals_close(&st);

	approvals_open(&st, p[2]);
	is_int(lookup_cmd(&st, "git status && git push", NULL, false, NULL),
	       CORDON_DENY, "a denied segment denies the line");
	is_int(lookup_cmd(&st, "ls; git push origin", NULL, false, NULL),
	       CORDON_DENY, "even next to an undecided one");
	is_int(lookup_cmd(&st, "git push", NULL, true, NULL), CORDON_DENY,
	       "deny prefix rules apply to destructive commands too");
	approvals_close(&st);

	approvals_open(&st, p[3]);
	is_int(lookup_cmd(&st, "git push", NULL, false, NULL), CORDON_ALLOW,
	       "first match decides (allow git before deny git push)");
	approvals_close(&st);
	approvals_open(&st, p[4]);
	is_int(lookup_cmd(&st, "git push", NULL, false, NULL), CORDON_DENY,
	       "first match decides (deny git push before allow git)");
	is_int(lookup_cmd(&st, "git log", NULL, false, NULL), CORDON_ALLOW,
	       "the later rule covers the rest");
	approvals_close(&st);

	approvals_open(&st, p[5]);
	is_int(lookup_cmd(&st, "git status > out.txt", NULL, false, NULL),
	       CORDON_ALLOW, "a not-plain command matches an exact rule");
	is_int(lookup_cmd(&st, "git status > other.txt", NULL, false, NULL), -1,
	       "and only an exact rule");
	approvals_close(&st);
}

static void test_grants_by_kind(void)
{
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	const char *path = fresh("kinds");
	enum policy_step src = POLICY_STEP__COUNT;
	char note[256];

	approvals_open(&st, path);
	q = exec_q("Bash", "curl https://x.example", "s1", false, &cw);
	approvals_record(&st, &q, CORDON_ANSWER_DENY_SESSION, NULL, note,
		    sizeof(note));
	is_int(approvals_lookup(&st, &q, &src), CORDON_DENY,
	       "deny session grant applies");
	is_str(policy_step_name(src), "session_grant", "from the session");

	q = file_q("Write", CORDON_KIND_WRITE, "/home/u/p/.env", "s1");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_DENY_ALWAYS, NULL, note,
			   sizeof(note)),
	       CORDON_OK, "deny always for a path");
	q = file_q("Read", CORDON_KIND_READ, "/home/u/p/README", "s1");
	approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
		    sizeof(note));
	q = file_q("WebFetch", CORDON_KIND_FETCH, NULL, "s1");
	approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
		    sizeof(note));
	q = file_q("mcp__github__create_issue", CORDON_KIND_MCP, NULL, NULL);
	approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
		    sizeof(note));
	approvals_close(&st);

	approvals_open(&st, path);
	q = file_q("Write", CORDON_KIND_WRITE, "/home/u/p/.env", NULL);
	is_int(approvals_lookup(&st, &q, NULL), CORDON_DENY,
	       "durable deny for the path");
	q.path = "/home/u/p/.env2";
	is_int(approvals_lookup(&st, &q, NULL), -1, "not another path");
	q = file_q("Edit", CORDON_KIND_WRITE, "/home/u/p/.env", NULL);
	is_int(approvals_lookup(&st, &q, NULL), -1, "not another tool");
	q = file_q("mcp__github__create_issue", CORDON_KIND_MCP, NULL, NULL);
	is_int(approvals_lookup(&st, &q, NULL), CORDON_ALLOW,
	       "an MCP grant covers the tool");
	q = file_q("WebFetch", CORDON_KIND_FETCH, NULL, "s1");
	is_int(approvals_lookup(&st, &q, NULL), -1,
	       "session grants are gone after a reopen");
	approvals_close(&st);
}

/* One refused amendment: the note's reason and the exact rule stored. */
static void refused(const char *cmd, char **words, size_t n, bool plain_cmd,
		    const char *reason)
{
	struct approvals_store st;
	struct cmdwords cw;
	struct approvals_query q;
	struct strlist amend = { words, n };
	char note[512];
	const char *path = fresh("amend");

	approvals_open(&st, path);
	q = exec_q("Bash", cmd, "s1", false, &cw);
	ok((q.words != NULL) == plain_cmd, "%s: plain as expected", cmd);
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, &amend, note,
			   sizeof(note)),
	       CORDON_OK, "recorded");
	ok(strstr(note, "amendment refused: ") && strstr(note, reason) &&
		   strstr(note, "exact command only"),
	   "%s: note says why (%s)", cmd, note);
	approvals_close(&st);
	approvals_open(&st, path);
	ok(st.nrules == 1 && st.rules[0].match == APPROVALS_EXACT &&
		   strcmp(st.rules[0].value, cmd) == 0,
	   "%s: the exact command is stored", cmd);
	approvals_close(&st);
}

static void test_amendments(void)
{
	static const char opens[] = "runs code given in its arguments";
	char *py[] = { "python3", "-c" };
	char *bash[] = { "bash", "-lc" };
	char *sh[] = { "sh", "-c" };
	char *env[] = { "env" };
	char *sudo[] = { "sudo" };
	char *node[] = { "node", "-e" };
	char *perl[] = { "perl", "-e" };
	char *xargs[] = { "xargs" };
	char *eval[] = { "eval" };
	char *yash[] = { "yash" };
	char *mksh[] = { "mksh", "-c" };
	char *eatmydata[] = { "eatmydata" };
	char *upy[] = { "/usr/bin/python3" };
	char *git_push[] = { "git", "push" };
	char *npm[] = { "npm", "test" };
	struct approvals_store st;
	struct cmdwords cw;
	struct approvals_query q;
	struct strlist amend;
	char note[512];

	refused("python3 -c 'print(1)'", py, 2, true, opens);
	refused("bash -lc 'make'", bash, 2, true, opens);
	refused("sh -c 'ls'", sh, 2, true, opens);
	refused("env FOO=1 make", env, 1, true, opens);
	refused("sudo apt update", sudo, 1, true, opens);
	refused("node -e '1'", node, 2, true, opens);
	refused("perl -e 'print 1'", perl, 2, true, opens);
	refused("xargs rm", xargs, 1, true, opens);
	refused("eval ls", eval, 1, true, opens);
	refused("yash -c 'make'", yash, 1, true, opens);
	refused("mksh -c 'make'", mksh, 2, true, opens);
	refused("eatmydata make", eatmydata, 1, true, opens);
	refused("/usr/bin/python3 x.py", upy, 1, true, opens);
	refused("npm test", NULL, 0, true, "empty");
	refused("npm test && git push", npm, 2, true,
		"not a prefix of every command");
	refused("git pull", git_push, 2, true, "not a prefix");
	refused("git push $(cat remote)", git_push, 2, false, "not plain");

	/* An acceptable amendment becomes a prefix rule. */
	approvals_open(&st, fresh("amend-ok"));
	q = exec_q("Bash", "git push origin main", "s1", false, &cw);
	amend.v = git_push;
	amend.n = 2;
	ok(approvals_amendment_refusal(&amend, &q) == NULL, "git push accepted");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, &amend, note,
			   sizeof(note)),
	       CORDON_OK, "prefix grant recorded");
	is_str(note, "", "no note");
	ok(st.nrules == 1 && st.rules[0].match == APPROVALS_PREFIX &&
		   st.rules[0].prefix.n == 2,
	   "a prefix rule is stored");
	is_int(lookup_cmd(&st, "git push origin dev", NULL, false, NULL),
	       CORDON_ALLOW, "it covers commands like this");
	is_int(lookup_cmd(&st, "git pull", NULL, false, NULL), -1,
	       "and not others");
	/* A deny amendment works the same way. */
	q = exec_q("Bash", "git push --tags", "s1", false, &cw);
	approvals_record(&st, &q, CORDON_ANSWER_DENY_SESSION, &amend, note,
		    sizeof(note));
	is_int(lookup_cmd(&st, "git push x", "s1", false, NULL), CORDON_DENY,
	       "a session deny prefix comes before file rules");
	/* Amendments on non-shell calls. */
	q = file_q("Write", CORDON_KIND_WRITE, "/p/x", "s1");
	ok(approvals_amendment_refusal(&amend, &q) != NULL,
	   "an amendment on a file call is refused");
	approvals_close(&st);
}

static void test_examples(void)
{
	struct approvals_store st;
	const char *path = fresh("examples");
	const char *json =
		"{\"version\": 1, \"rules\": ["
		"{\"tool\": \"Bash\", \"decision\": \"allow\", "
		"\"commandPrefix\": [\"git\", \"push\"], "
		"\"match\": [\"git push origin main\"], "
		"\"not_match\": [\"git pull\"]},"
		"{\"tool\": \"Bash\", \"decision\": \"allow\", "
		"\"commandPrefix\": [\"npm\"], \"match\": [\"npx x\"]},"
		"{\"tool\": \"Bash\", \"decision\": \"allow\", "
		"\"commandPrefix\": [\"make\"], "
		"\"not_match\": [\"make install\"]},"
		"{\"tool\": \"Read\", \"decision\": \"allow\", "
		"\"match\": [\"x\"]},"
		"{\"tool\": \"Bash\", \"decision\": \"allow\", "
		"\"command\": \"ls -la\", \"match\": [\"ls -la\"], "
		"\"not_match\": [\"ls\"]},"
		"{\"tool\": \"Bash\", \"decision\": \"allow\", "
		"\"command\": \"id\", \"match\": [\"id -u\"]}]}";

	write_text(path, json, strlen(json));
	is_int(approvals_open(&st, path), CORDON_OK, "opens");
	ok(!st.corrupt, "failing examples do not make the file corrupt");
	is_int((long long)st.nrules, 2, "two rules kept");
	ok(has_warning(&st, "rules[1]: match[0] does not match"),
	   "warning names rules[1]");
	ok(has_warning(&st, "rules[2]: not_match[0] matches"),
	   "warning names rules[2]");
	ok(has_warning(&st, "rules[3]"), "warning names rules[3]");
	ok(has_warning(&st, "rules[5]: match[0]"), "warning names rules[5]");
	ok(!has_warning(&st, "rules[0]") && !has_warning(&st, "rules[4]"),
	   "no warning for the good rules");
	is_int(lookup_cmd(&st, "git push", NULL, false, NULL), CORDON_ALLOW,
	       "the good prefix rule applies");
	is_int(lookup_cmd(&st, "npm test", NULL, false, NULL), -1,
	       "the dropped rule does not");
	is_int(lookup_cmd(&st, "make", NULL, false, NULL), -1,
	       "the other dropped rule does not");
	is_int(lookup_cmd(&st, "ls -la", NULL, false, NULL), CORDON_ALLOW,
	       "the good exact rule applies");
	approvals_close(&st);
}

/* A corrupt file: no allow rules, a warning, never an allow, and an
 * "always" grant does not overwrite it; unusable when no rule could be
 * read at all. */
static void corrupt_case_u(const char *name, const char *bytes, size_t n,
			   const char *want_warning, bool unusable)
{
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	const char *path = fresh("corrupt");
	char pathcopy[512], note[512];
	size_t after_n = 0;
	char *after;

	snprintf(pathcopy, sizeof(pathcopy), "%s", path);
	write_text(pathcopy, bytes, n);
	is_int(approvals_open(&st, pathcopy), CORDON_OK, "corrupt file opens");
	ok(st.corrupt && st.nrules == 0, "%s: corrupt, no rules", name);
	ok(st.unusable == unusable, "%s: %s", name,
	   unusable ? "unusable: nothing could be read" :
		      "not unusable: its rules could be read");
	ok(has_warning(&st, pathcopy) && has_warning(&st, want_warning),
	   "%s: warning names the file and '%s' (%s)", name, want_warning,
	   st.nwarnings ? st.warnings[0] : "none");
	is_int(lookup_cmd(&st, "git status", "s1", false, NULL), -1,
	       "lookup decides nothing");
	q = exec_q("Bash", "git status", "s1", false, &cw);
	ok(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
		       sizeof(note)) != CORDON_OK,
	   "%s: always cannot be written", name);
	ok(strstr(note, "corrupt") && strstr(note, "session"),
	   "note explains (%s)", note);
	after = read_all(pathcopy, &after_n);
	ok(after && after_n == n && memcmp(after, bytes, n) == 0,
	   "%s: file bytes unchanged", name);
	free(after);
	is_int(lookup_cmd(&st, "git status", "s1", false, NULL), CORDON_ALLOW,
	       "the grant is kept for the session");
	approvals_close(&st);
}

static void corrupt_case(const char *name, const char *bytes, size_t n,
			 const char *want_warning)
{
	corrupt_case_u(name, bytes, n, want_warning, true);
}

/* The same for a file whose rules could be read one by one. */
static void corrupt_rule_case(const char *name, const char *bytes, size_t n,
			      const char *want_warning)
{
	corrupt_case_u(name, bytes, n, want_warning, false);
}

static void test_corrupt(void)
{
	static const char good_rule[] =
		"{\"tool\":\"*\",\"decision\":\"allow\"}";
	char buf[512];
	char *huge;
	size_t hn = 4 * 1024 * 1024 + 100;

	corrupt_case("garbage", "\x01\x02garbage", 9, "not valid JSON");
	snprintf(buf, sizeof(buf), "{\"version\":1,\"rules\":[%s,", good_rule);
	corrupt_case("truncated", buf, strlen(buf), "not valid JSON");
	snprintf(buf, sizeof(buf), "{\"version\":1,\"rules\":[%s]} x",
		 good_rule);
	corrupt_case("trailing garbage", buf, strlen(buf), "not valid JSON");
	corrupt_case("array", "[]", 2, "expected a JSON object");
	corrupt_case("rules not an array", "{\"version\":1,\"rules\":{}}", 24,
		     "rules: expected an array");
	snprintf(buf, sizeof(buf), "{\"version\":2,\"rules\":[%s]}", good_rule);
	corrupt_case("version 2", buf, strlen(buf), "version");
	snprintf(buf, sizeof(buf), "{\"rules\":[%s]}", good_rule);
	corrupt_case("no version", buf, strlen(buf), "version");
	snprintf(buf, sizeof(buf),
		 "{\"version\":1,\"rules\":[%s,{\"tool\":\"Bash\","
		 "\"decision\":\"allow\",\"comandPrefix\":[\"git\"]}]}",
		 good_rule);
	corrupt_rule_case("misspelt key", buf, strlen(buf),
			  "rules[1]: unknown key \"comandPrefix\"");
	snprintf(buf, sizeof(buf),
		 "{\"version\":1,\"rules\":[%s,{\"tool\":\"Bash\","
		 "\"decision\":\"maybe\"}]}",
		 good_rule);
	corrupt_rule_case("bad decision", buf, strlen(buf),
			  "rules[1].decision");
	snprintf(buf, sizeof(buf),
		 "{\"version\":1,\"rules\":[%s,{\"tool\":\"Bash\","
		 "\"decision\":\"allow\",\"command\":\"ls\",\"path\":\"/x\"}]}",
		 good_rule);
	corrupt_rule_case("two kinds", buf, strlen(buf), "at most one");
	snprintf(buf, sizeof(buf),
		 "{\"version\":1,\"rules\":[%s,{\"tool\":\"Bash\","
		 "\"decision\":\"allow\",\"commandPrefix\":[]}]}",
		 good_rule);
	corrupt_rule_case("empty prefix", buf, strlen(buf), "commandPrefix");
	snprintf(
		buf, sizeof(buf),
		"{\"version\":1,\"rules\":[%s,{\"tool\":\"Bash\","
		"\"decision\":\"allow\",\"commandPrefix\":[\"git\\u0000x\"]}]}",
		good_rule);
	corrupt_case("NUL escape", buf, strlen(buf), "NUL");
	snprintf(buf, sizeof(buf),
		 "{\"version\":1,\"rules\":[%s,{\"tool\":\"Bash\","
		 "\"decision\":\"allow\",\"decision\":\"deny\"}]}",
		 good_rule);
	corrupt_rule_case("duplicate key", buf, strlen(buf), "duplicate key");

	/* Over the size limit, even though it is valid JSON. */
	huge = malloc(hn);
	if (!huge)
		exit(2);
	memset(huge, ' ', hn);
	memcpy(huge, "{\"version\":1,\"rules\":[]}", 24);
	corrupt_case("huge", huge, hn, "limit 4194304 bytes");
	free(huge);

	/* Over the rule count limit. */
	{
		const char *one = "{\"tool\":\"x\",\"decision\":\"deny\"},";
		size_t per = strlen(one), n = 10001;
		size_t cap = 64 + per * n, o = 0;
		char *many = malloc(cap);
		if (!many)
			exit(2);
		o += (size_t)snprintf(many, cap, "{\"version\":1,\"rules\":[");
		for (size_t i = 0; i < n; i++) {
			memcpy(many + o, one, per);
			o += per;
		}
		o--; /* the last comma */
		memcpy(many + o, "]}", 2);
		o += 2;
		corrupt_case("10001 rules", many, o, "limit 10000");
		free(many);
	}

	/* A path that cannot be read is an I/O error and corrupt. */
	{
		struct approvals_store st;
		const char *path = fresh("isdir");
		char p2[512];
		snprintf(p2, sizeof(p2), "%s", path);
		mkdir(p2, 0700);
		is_int(approvals_open(&st, p2), CORDON_E_IO,
		       "a directory is an I/O error");
		ok(st.corrupt && st.nwarnings > 0, "corrupt with a warning");
		approvals_close(&st);
		rmdir(p2);
	}
}

/* A symlinked approvals file (dotfiles) is written at its target: the
 * link stays, the target gets the grant; a link to nothing is refused
 * with a note, the grant kept for the session. */
static void test_symlinked_file(void)
{
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	const char *lp = fresh("link");
	char link[512], target[600], lockp[700], note[512] = "";
	struct stat sb;
	size_t n = 0;
	char *after;

	snprintf(link, sizeof(link), "%s", lp);
	snprintf(target, sizeof(target), "%s.real", link);
	write_text(target, "{\"version\":1,\"rules\":[]}\n", 25);
	if (symlink(target, link) != 0)
		ok(0, "symlink: %s", strerror(errno));
	is_int(approvals_open(&st, link), CORDON_OK, "symlinked: opens");
	q = exec_q("Bash", "git status", "s1", false, &cw);
	ok(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			    sizeof(note)) == CORDON_OK,
	   "symlinked: an always answer is written (%s)", note);
	ok(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode),
	   "symlinked: the link is still a link");
	after = read_all(target, &n);
	ok(after && strstr(after, "\"git status\""),
	   "symlinked: the target got the grant");
	free(after);
	snprintf(lockp, sizeof(lockp), "%s.lock", target);
	ok(access(lockp, F_OK) == 0, "symlinked: locked at the target");
	approvals_close(&st);

	unlink(target);
	is_int(approvals_open(&st, link), CORDON_OK, "dangling: opens");
	q = exec_q("Bash", "git log", "s1", false, &cw);
	ok(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			    sizeof(note)) != CORDON_OK &&
		   strstr(note, "missing file"),
	   "dangling: refused with a note (%s)", note);
	ok(access(target, F_OK) != 0, "dangling: nothing made");
	is_int(lookup_cmd(&st, "git log", "s1", false, NULL), CORDON_ALLOW,
	       "dangling: the grant is kept for the session");
	approvals_close(&st);
}

/* An empty file is an empty store: nothing is corrupt, and the first
 * "always" answer writes it. */
static void test_empty_file(void)
{
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	const char *path = fresh("empty");
	char p2[512], note[512] = "";
	size_t n = 0;
	char *after;

	snprintf(p2, sizeof(p2), "%s", path);
	write_text(p2, "", 0);
	is_int(approvals_open(&st, p2), CORDON_OK, "empty file opens");
	ok(!st.corrupt && !st.unusable && st.nrules == 0 && st.nwarnings == 0,
	   "empty: an empty store, no warning");
	q = exec_q("Bash", "git status", "s1", false, &cw);
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
				sizeof(note)),
	       CORDON_OK, "empty: an always answer is written");
	after = read_all(p2, &n);
	ok(after && strstr(after, "\"git status\""),
	   "empty: the file now holds the rule");
	free(after);
	approvals_close(&st);
	write_text(p2, " \n\t\n", 4);
	is_int(approvals_open(&st, p2), CORDON_OK, "white space opens");
	ok(!st.corrupt && st.nrules == 0, "white space: an empty store");
	approvals_close(&st);
}

/* A file with one bad rule keeps its deny rules: a "never" answer is
 * not lost to a broken neighbour; its allow rules are not used. */
static void test_corrupt_keeps_denials(void)
{
	static const char text[] =
		"{\"version\":1,\"rules\":["
		"{\"tool\":\"Bash\",\"decision\":\"deny\",\"command\":\"git push\"},"
		"{\"tool\":\"Bash\",\"decision\":\"allow\",\"command\":\"ls\"},"
		"{\"tool\":\"Bash\",\"decision\":\"deny\",\"comand\":\"x\"},"
		"{\"tool\":\"Write\",\"decision\":\"deny\",\"path\":\"/p/.env\"}],"
		"\"extra\":1}";
	struct approvals_store st;
	struct approvals_query q = { 0 };
	const char *path = fresh("denials");
	char p2[512];
	enum policy_step src;

	snprintf(p2, sizeof(p2), "%s", path);
	write_text(p2, text, strlen(text));
	is_int(approvals_open(&st, p2), CORDON_OK, "opens");
	ok(st.corrupt && !st.unusable && st.nrules == 2,
	   "bad rule: corrupt, the two deny rules kept (%zu)", st.nrules);
	ok(has_warning(&st, "unknown key \"extra\"") &&
		   has_warning(&st, "only its deny rules"),
	   "bad rule: the warning names the first problem and what is used "
	   "(%s)",
	   st.nwarnings ? st.warnings[0] : "none");
	is_int(lookup_cmd(&st, "git push", "s1", false, NULL), CORDON_DENY,
	       "bad rule: the deny rule still denies");
	is_int(lookup_cmd(&st, "ls", "s1", false, NULL), -1,
	       "bad rule: the allow rule is not used");
	q.tool = "Write";
	q.kind = CORDON_KIND_WRITE;
	q.path = "/p/.env";
	is_int(approvals_lookup(&st, &q, &src), CORDON_DENY,
	       "bad rule: the path denial holds");
	approvals_close(&st);
}

/* The file becomes corrupt between open and the grant: nothing is
 * written, the rules read earlier are dropped. */
static void test_corrupt_later(void)
{
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	char path[512], note[512];
	const char *good = "{\"version\":1,\"rules\":[{\"tool\":\"Bash\","
			   "\"decision\":\"allow\",\"command\":\"ls\"}]}";
	const char *bad = "{\"version\":1,\"rules\":[";
	char *after;

	snprintf(path, sizeof(path), "%s", fresh("later"));
	write_text(path, good, strlen(good));
	approvals_open(&st, path);
	is_int(lookup_cmd(&st, "ls", NULL, false, NULL), CORDON_ALLOW,
	       "rule loaded");
	write_text(path, bad, strlen(bad));
	q = exec_q("Bash", "pwd", "s1", false, &cw);
	ok(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
		       sizeof(note)) != CORDON_OK,
	   "corrupt under the lock: not written");
	after = read_all(path, NULL);
	is_str(after, bad, "file unchanged");
	free(after);
	ok(st.corrupt && has_warning(&st, "not valid JSON"), "now corrupt");
	is_int(lookup_cmd(&st, "ls", NULL, false, NULL), -1,
	       "earlier rules no longer apply");
	is_int(lookup_cmd(&st, "pwd", "s1", false, NULL), CORDON_ALLOW,
	       "the grant is kept for the session");
	approvals_close(&st);
}

static void test_parent_dir(void)
{
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	char path[600], sub[512], note[256];
	struct stat sb;

	snprintf(sub, sizeof(sub), "%s/new/deeper", dir);
	snprintf(path, sizeof(path), "%s/approvals.json", sub);
	approvals_open(&st, path);
	q = exec_q("Bash", "ls", NULL, false, &cw);
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			   sizeof(note)),
	       CORDON_OK, "written into a missing directory");
	ok(stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		   (sb.st_mode & 0777) == 0700,
	   "parent created 0700");
	approvals_close(&st);
	approvals_open(&st, path);
	is_int(lookup_cmd(&st, "ls", NULL, false, NULL), CORDON_ALLOW,
	       "and read back");
	approvals_close(&st);
}

/* Commands with backslashes, quotes, newlines and UTF-8 survive the file;
 * answers that cannot become rules are refused. */
static void test_roundtrip(void)
{
	static const char *const cmds[] = {
		"printf '\\u0000'",
		"echo \"a\\\"b\"",
		"echo 'line1\nline2'",
		"echo h\xc3\xa9llo \xe2\x9c\x93",
	};
	struct approvals_store st;
	struct approvals_query q;
	struct cmdwords cw;
	char path[512], note[256];

	snprintf(path, sizeof(path), "%s", fresh("roundtrip"));
	approvals_open(&st, path);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++) {
		q = exec_q("Bash", cmds[i], NULL, false, &cw);
		is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL,
				   note, sizeof(note)),
		       CORDON_OK, "recorded");
	}
	approvals_close(&st);
	is_int(approvals_open(&st, path), CORDON_OK, "reopen");
	ok(!st.corrupt && st.nrules == 4, "not corrupt, four rules (%s)",
	   st.nwarnings ? st.warnings[0] : "no warning");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++)
		is_int(lookup_cmd(&st, cmds[i], NULL, false, NULL),
		       CORDON_ALLOW, "the command round-trips");

	q = file_q("*", CORDON_KIND_OTHER, NULL, "s1");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			   sizeof(note)),
	       CORDON_E_INVAL, "a tool named * cannot be granted");
	ok(strstr(note, "cannot be granted") != NULL, "note says why");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
			   sizeof(note)),
	       CORDON_E_INVAL, "not even for the session");
	q = file_q("Other", CORDON_KIND_OTHER, NULL, "s1");
	is_int(approvals_lookup(&st, &q, NULL), -1, "nothing was granted");
	is_int((long long)st.nrules, 4, "nothing written");
	q = exec_q("Bash", "", "s1", false, &cw);
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL, note,
			   sizeof(note)),
	       CORDON_E_INVAL, "an empty command cannot be granted");
	q = file_q("Write", CORDON_KIND_WRITE, NULL, "s1");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
			   sizeof(note)),
	       CORDON_E_INVAL, "a file call without a path cannot be granted");
	approvals_close(&st);
	is_int(approvals_open(&st, path), CORDON_OK, "reopen");
	ok(!st.corrupt && st.nrules == 4, "the file is still good");
	approvals_close(&st);
}

/* Eight processes record different "always" grants at the same moment;
 * none may be lost, and no temp file may stay behind. */
static void test_concurrent(void)
{
	enum { N = 8 };
	char sub[512], path[600];
	int barrier[2];
	pid_t pids[N];
	int good = 0;
	struct approvals_store st;

	snprintf(sub, sizeof(sub), "%s/concurrent", dir);
	mkdir(sub, 0700);
	snprintf(path, sizeof(path), "%s/approvals.json", sub);
	if (pipe(barrier) != 0)
		exit(2);
	fflush(stdout);
	for (int i = 0; i < N; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			struct approvals_store cst;
			struct approvals_query q;
			struct cmdwords cw;
			char cmd[64], note[256], c;
			close(barrier[1]);
			if (approvals_open(&cst, path) != CORDON_OK)
				_exit(3);
			snprintf(cmd, sizeof(cmd), "echo child-%d", i);
			q = exec_q("Bash", cmd, NULL, false, &cw);
			/* Blocks until the parent closes its end. */
			while (read(barrier[0], &c, 1) < 0 && errno == EINTR)
				;
			enum cordon_err e = approvals_record(
				&cst, &q, CORDON_ANSWER_ALLOW_ALWAYS, NULL,
				note, sizeof(note));
			approvals_close(&cst);
			_exit(e == CORDON_OK ? 0 : 4);
		}
	}
	close(barrier[0]);
	close(barrier[1]);
	for (int i = 0; i < N; i++) {
		int status = 0;
		if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			good++;
	}
	is_int(good, N, "every child recorded its grant");
	is_int(approvals_open(&st, path), CORDON_OK, "reopen");
	is_int((long long)st.nrules, N, "all grants present");
	for (int i = 0; i < N; i++) {
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "echo child-%d", i);
		if (lookup_cmd(&st, cmd, NULL, false, NULL) != CORDON_ALLOW)
			diag("missing grant: %s", cmd);
	}
	approvals_close(&st);

	DIR *d = opendir(sub);
	int stray = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, "approvals.json") == 0 ||
		    strcmp(de->d_name, "approvals.json.lock") == 0)
			continue;
		diag("stray file: %s", de->d_name);
		stray++;
	}
	if (d)
		closedir(d);
	is_int(stray, 0, "no temp file left behind");
}

/* rm -r of the test directory (two levels are enough here). */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		char p[1024];
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
		remove_tree(p);
	}
	closedir(d);
	rmdir(path);
}

/* The family cordon proposes, as one string ("" for none), and why not. */
static const char *family_of(const char *cmd, bool exact_only,
			     const char **why)
{
	static char out[512];
	struct cmdwords cw;
	struct approvals_query q = exec_q("Bash", cmd, "s1", exact_only, &cw);
	struct strlist f;

	out[0] = '\0';
	if (approvals_family(&q, &f, why) != CORDON_OK)
		return "(out of memory)";
	for (size_t i = 0; i < f.n; i++) {
		strncat(out, i ? " " : "", sizeof(out) - strlen(out) - 1);
		strncat(out, f.v[i], sizeof(out) - strlen(out) - 1);
	}
	if (f.n && *why)
		return "(a family with a reason)";
	if (!f.n && !*why)
		return "(no family and no reason)";
	strlist_clear(&f);
	return out;
}

static void test_families(void)
{
	static const struct {
		const char *cmd;
		bool exact_only;
		const char *family; /* "" none */
		const char *why;    /* when none: in the reason */
	} t[] = {
		/* git: the subcommand, then a further word only where the
		 * table's subcommands go on */
		{ "git commit -m x", false, "git commit", NULL },
		{ "git status", false, "git status", NULL },
		{ "git push origin main", false, "git push", NULL },
		{ "git push", false, "git push", NULL },
		{ "git stash pop", false, "git stash pop", NULL },
		{ "git stash -p", false, "git stash", NULL },
		{ "git remote add o https://x", false, "git remote add", NULL },
		{ "git worktree add ../w", false, "git worktree add", NULL },
		{ "/usr/bin/git log --oneline", false, "/usr/bin/git log", NULL },
		{ "git -C sub status", false, "", "not where a prefix" },
		{ "git --version", false, "", "not where a prefix" },
		{ "git", false, "", "not where a prefix" },
		{ "git push --force origin main", true, "", "destructive" },
		/* npm and friends: the script a run names is the family */
		{ "npm test -- --watch", false, "npm test", NULL },
		{ "npm test", false, "npm test", NULL },
		{ "npm run build", false, "npm run build", NULL },
		{ "npm run lint -- --fix", false, "npm run lint", NULL },
		{ "pnpm run test", false, "pnpm run test", NULL },
		{ "yarn install --frozen-lockfile", false, "yarn install", NULL },
		{ "npm exec eslint .", false, "", "runs other commands" },
		{ "npm x cowsay", false, "", "runs other commands" },
		{ "npm", false, "", "not where a prefix" },
		/* cargo, kubectl, docker, aws */
		{ "cargo build --release", false, "cargo build", NULL },
		{ "cargo test -p core", false, "cargo test", NULL },
		{ "kubectl get pods -n x", false, "kubectl get pods", NULL },
		{ "kubectl get secrets", false, "kubectl get secrets", NULL },
		{ "kubectl describe pod web", false, "kubectl describe", NULL },
		{ "kubectl -n prod get pods", false, "", "not where a prefix" },
		{ "kubectl config view", false, "kubectl config view", NULL },
		{ "docker ps -a", false, "docker ps", NULL },
		{ "docker build -t x .", false, "docker build", NULL },
		{ "docker compose up -d", false, "docker compose", NULL },
		{ "aws s3 ls s3://bucket", false, "aws s3 ls s3://bucket", NULL },
		{ "curl https://api.x/v1 -o f", false, "curl https://api.x/v1", NULL },
		{ "curl -s https://api.x/v1", false, "", "not where a prefix" },
		{ "aws ec2 describe-instances", false, "aws ec2 describe-instances",
		  NULL },
		/* make takes targets (the table has make install); a name the
		 * table has no rows for is its own family */
		{ "make -j4", false, "", "not where a prefix" },
		{ "make test", false, "make test", NULL },
		{ "pytest tests/unit -q", false, "pytest", NULL },
		{ "./build.sh --fast", false, "./build.sh", NULL },
		{ "ls -la", false, "ls", NULL },
		/* shells, interpreters, wrappers: refused */
		{ "bash build.sh", false, "", "runs code given" },
		{ "sh -c 'make'", false, "", "runs code given" },
		{ "python3 x.py", false, "", "runs code given" },
		{ "node server.js", false, "", "runs code given" },
		{ "env FOO=1 make", false, "", "runs code given" },
		{ "sudo apt update", false, "", "runs code given" },
		{ "xargs -n1 echo", false, "", "runs code given" },
		{ "timeout 5 make", false, "", "runs code given" },
		{ "nice make", false, "", "runs code given" },
		{ "uv run pytest", false, "", "runs other commands" },
		{ "poetry run pytest", false, "", "runs other commands" },
		{ "go test ./...", false, "", "runs code given" },
		/* several segments: one family or none */
		{ "npm test && npm test -- --watch", false, "npm test", NULL },
		{ "git add . && git commit -m x", false, "",
		  "different families" },
		{ "ls | wc -l", false, "", "different families" },
		{ "make; make install", false, "", "not where a prefix" },
		{ "make test; make test V=1", false, "make test", NULL },
		{ "cargo build | tee log", false, "", "different families" },
		/* not plain, destructive, globs */
		{ "git push $(cat remote)", false, "", "not plain" },
		{ "FOO=1 npm test", false, "", "not plain" },
		{ "npm test > out.txt", false, "", "not plain" },
		{ "rm -rf build", true, "", "destructive" },
		{ "git rm *.o", false, "git rm", NULL },
		{ "kubectl get pod*", false, "kubectl get", NULL },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *why = NULL;
		const char *got = family_of(t[i].cmd, t[i].exact_only, &why);
		if (t[i].family[0])
			ok(strcmp(got, t[i].family) == 0, "family of %s: %s",
			   t[i].cmd, got);
		else
			ok(got[0] == '\0' && why && strstr(why, t[i].why),
			   "%s: exact only (%s)", t[i].cmd, why ? why : "");
	}
}

/* A family grant from an answer: it covers the family's other commands,
 * not a destructive sibling, not another family. */
static void test_family_grant(void)
{
	struct approvals_store st;
	struct cmdwords cw;
	struct approvals_query q;
	struct strlist f;
	const char *why;
	char note[512];

	approvals_open(&st, NULL);
	q = exec_q("Bash", "npm test -- --watch", "s1", false, &cw);
	ok(approvals_family(&q, &f, &why) == CORDON_OK && f.n == 2,
	   "npm test -- --watch: a family");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, &f, note,
				sizeof(note)),
	       CORDON_OK, "a session grant for the family");
	is_str(note, "", "no note");
	strlist_clear(&f);
	is_int(lookup_cmd(&st, "npm test -- --grep foo", "s1", false, NULL),
	       CORDON_ALLOW, "it covers npm test -- --grep foo");
	is_int(lookup_cmd(&st, "npm test", "s1", false, NULL), CORDON_ALLOW,
	       "and npm test");
	is_int(lookup_cmd(&st, "npm run build", "s1", false, NULL), -1,
	       "not npm run build");
	is_int(lookup_cmd(&st, "npm exec evil", "s1", false, NULL), -1,
	       "not npm exec");
	is_int(lookup_cmd(&st, "npm test -- --grep foo", "s2", false, NULL), -1,
	       "not in another session");

	q = exec_q("Bash", "git push origin main", "s1", false, &cw);
	ok(approvals_family(&q, &f, &why) == CORDON_OK && f.n == 2,
	   "git push origin main: a family");
	approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, &f, note,
			 sizeof(note));
	strlist_clear(&f);
	is_int(lookup_cmd(&st, "git push upstream dev", "s1", false, NULL),
	       CORDON_ALLOW, "git push upstream dev is of the family");
	is_int(lookup_cmd(&st, "git push --force origin main", "s1", true,
			  NULL),
	       -1, "git push --force (destructive) asks again");
	is_int(lookup_cmd(&st, "git push origin :main", "s1", true, NULL), -1,
	       "git push origin :main (destructive) asks again");
	is_int(lookup_cmd(&st, "git pull", "s1", false, NULL), -1,
	       "git pull is another family");

	/* without the family (the exact answer) only the bytes */
	q = exec_q("Bash", "cargo build --release", "s1", false, &cw);
	approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, NULL, note,
			 sizeof(note));
	is_int(lookup_cmd(&st, "cargo build --release", "s1", false, NULL),
	       CORDON_ALLOW, "an exact grant covers its command");
	is_int(lookup_cmd(&st, "cargo build", "s1", false, NULL), -1,
	       "and nothing else");
	approvals_close(&st);

	/* a prefix grant keeps the labels of the command answered: one
	 * with another label asks again, also from the file */
	const char *lp = fresh("labels");
	approvals_open(&st, lp);
	q = exec_q("Bash", "git push origin main", "s1", false, &cw);
	q.labels = CORDON_L(NETWORK);
	ok(approvals_family(&q, &f, &why) == CORDON_OK && f.n == 2,
	   "git push: a family");
	is_int(approvals_record(&st, &q, CORDON_ANSWER_ALLOW_ALWAYS, &f, note,
				sizeof(note)),
	       CORDON_OK, "an always grant for the family");
	strlist_clear(&f);
	approvals_close(&st);
	char *text = read_all(lp, NULL);
	ok(text && strstr(text, "\"labels\"") && strstr(text, "\"network\""),
	   "the rule is written with its labels");
	free(text);
	approvals_open(&st, lp);
	ok(!st.corrupt && st.nrules == 1 && st.rules[0].bounded &&
		   st.rules[0].labels == CORDON_L(NETWORK),
	   "and read back with them");
	q = exec_q("Bash", "git push upstream dev", NULL, false, &cw);
	q.labels = CORDON_L(NETWORK);
	is_int(approvals_lookup(&st, &q, NULL), CORDON_ALLOW,
	       "the same labels: allowed");
	q.labels = 0;
	is_int(approvals_lookup(&st, &q, NULL), CORDON_ALLOW, "fewer: allowed");
	q.labels = CORDON_L(NETWORK) | CORDON_L(PERSISTENCE);
	is_int(approvals_lookup(&st, &q, NULL), -1, "another label: asks");
	approvals_close(&st);
	static const char *const bad_labels[] = {
		"{\"version\": 1, \"rules\": [{\"tool\": \"Bash\", "
		"\"decision\": \"allow\", \"commandPrefix\": [\"git\"], "
		"\"labels\": [\"no-such-label\"]}]}",
		"{\"version\": 1, \"rules\": [{\"tool\": \"Bash\", "
		"\"decision\": \"allow\", \"command\": \"git push\", "
		"\"labels\": []}]}",
		"{\"version\": 1, \"rules\": [{\"tool\": \"Bash\", "
		"\"decision\": \"allow\", \"commandPrefix\": [\"git\"], "
		"\"labels\": \"network\"}]}",
	};
	for (size_t i = 0; i < 3; i++) {
		const char *bp = fresh("badlabels");
		write_text(bp, bad_labels[i], strlen(bad_labels[i]));
		approvals_open(&st, bp);
		ok(st.corrupt && has_warning(&st, "labels"),
		   "bad labels %zu: the file is corrupt, the warning names "
		   "labels",
		   i);
		approvals_close(&st);
	}

	/* the refusal turns down what a page or a host could send */
	char *npm1[] = { "npm" };
	char *npmx[] = { "npm", "exec" };
	char *uvr[] = { "uv", "run" };
	struct strlist a1 = { npm1, 1 }, a2 = { npmx, 2 }, a3 = { uvr, 2 };
	q = exec_q("Bash", "npm exec eslint", "s1", false, &cw);
	ok(approvals_amendment_refusal(&a1, &q) != NULL,
	   "npm alone is refused (it would cover npm exec)");
	ok(approvals_amendment_refusal(&a2, &q) != NULL, "npm exec is refused");
	q = exec_q("Bash", "uv run pytest", "s1", false, &cw);
	ok(approvals_amendment_refusal(&a3, &q) != NULL, "uv run is refused");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	tap_no_plan();
	snprintf(dir, sizeof(dir), "%s/cordon-appr-XXXXXX",
		 tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	arena_init(&A, 64u * 1024 * 1024);
	test_answer_names();
	test_missing();
	test_session_vs_always();
	test_exact_only();
	test_segments();
	test_grants_by_kind();
	test_amendments();
	test_families();
	test_family_grant();
	test_examples();
	test_corrupt();
	test_corrupt_later();
	test_empty_file();
	test_symlinked_file();
	test_corrupt_keeps_denials();
	test_parent_dir();
	test_roundtrip();
	test_concurrent();
	arena_release(&A);
	remove_tree(dir);
	return tap_done();
}
