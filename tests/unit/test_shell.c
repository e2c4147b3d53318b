/* test_shell — cordon_shell_run for real: no shell between the caller and
 * the command, the allow-list and its message, a planted ./echo refused,
 * the time-out, the output cap, the CPU cap, the environment filter, stdin
 * from /dev/null, writes outside the workspace refused, strict mode, input
 * checks and freeing.
 *
 * Needs a working sandbox backend (root in CI).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "tap.h"

#define SAFE_PATH "/usr/bin:/bin"

static char ws[PATH_MAX]; /* the workspace, also the cwd */
static const char *const allow3[] = { "uname", "date", "echo" };

static void base_opts(struct cordon_shell_opts *o, const char *const *allow,
		      size_t nallow)
{
	memset(o, 0, sizeof(*o));
	o->allow = allow;
	o->nallow = nallow;
	o->workspace = ws;
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ULL +
	       (unsigned long long)ts.tv_nsec / 1000000ULL;
}

static bool exists(const char *name)
{
	struct stat st;

	return lstat(name, &st) == 0;
}

/* Does the NUL-free text hold this whole line? */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *s = text; s && *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		if (len == n && memcmp(s, line, n) == 0)
			return true;
		s = nl ? nl + 1 : NULL;
	}
	return false;
}

/* A string member of the report, or NULL. The caller frees *root. */
static const char *report_str(const char *json, const char *key, cJSON **root)
{
	cJSON *v;

	*root = json ? cJSON_Parse(json) : NULL;
	v = cJSON_GetObjectItemCaseSensitive(*root, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_validation(void)
{
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *none[] = { NULL };
	char *echo[] = { "echo", "x", NULL };
	char *empty[] = { "", NULL };
	const char *path_allow[] = { "/bin/echo" };
	const char *null_allow[] = { NULL };
	char *bad_env[] = { "NOEQUALS", NULL };
	char *bad_env2[] = { "=value", NULL };

	base_opts(&o, allow3, 3);
	is_int(cordon_shell_run(&o, NULL, &r, &d), CORDON_E_INVAL,
	       "validation: NULL argv is E_INVAL");
	ok(d.message[0] != '\0', "validation: NULL argv has a diag (%s)",
	   d.message);
	ok(r.output == NULL && r.report_json == NULL,
	   "validation: nothing allocated on error");
	is_int(cordon_shell_run(&o, none, &r, &d), CORDON_E_INVAL,
	       "validation: empty argv is E_INVAL");
	ok(strstr(d.message, "empty argv") != NULL,
	   "validation: empty argv named (%s)", d.message);
	is_int(cordon_shell_run(&o, empty, &r, &d), CORDON_E_INVAL,
	       "validation: an empty argv[0] is E_INVAL");
	is_int(cordon_shell_run(NULL, echo, &r, &d), CORDON_E_INVAL,
	       "validation: NULL options are E_INVAL");
	is_int(cordon_shell_run(&o, echo, NULL, &d), CORDON_E_INVAL,
	       "validation: NULL result is E_INVAL");
	is_int(cordon_shell_run(&o, echo, &r, NULL), CORDON_OK,
	       "validation: the diag is optional");
	cordon_shell_result_free(&r);

	base_opts(&o, path_allow, 1);
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_INVAL,
	       "validation: a path in the allow-list is E_INVAL");
	ok(strstr(d.message, "names only") != NULL,
	   "validation: the path entry is named (%s)", d.message);
	base_opts(&o, null_allow, 1);
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_INVAL,
	       "validation: a NULL allow-list entry is E_INVAL");
	base_opts(&o, NULL, 2);
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_INVAL,
	       "validation: nallow without allow is E_INVAL");

	base_opts(&o, allow3, 3);
	o.env = bad_env;
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_INVAL,
	       "validation: an env entry without '=' is E_INVAL");
	ok(strstr(d.message, "NOEQUALS") != NULL,
	   "validation: the env entry is named (%s)", d.message);
	o.env = bad_env2;
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_INVAL,
	       "validation: an env entry with an empty name is E_INVAL");

	base_opts(&o, allow3, 3);
	o.output_cap = (size_t)64 << 20;
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_LIMIT,
	       "validation: output_cap over 32 MiB is E_LIMIT");
	ok(strstr(d.message, "output_cap") != NULL,
	   "validation: the limit is named (%s)", d.message);
	base_opts(&o, allow3, 3);
	o.timeout_s = 8 * 24 * 3600;
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_LIMIT,
	       "validation: a timeout over a week is E_LIMIT");
	base_opts(&o, allow3, 300);
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_E_LIMIT,
	       "validation: more than 256 allowed names is E_LIMIT");
}

static void test_free(void)
{
	struct cordon_shell_result r;

	memset(&r, 0, sizeof(r));
	cordon_shell_result_free(&r);
	cordon_shell_result_free(NULL);
	ok(r.output == NULL && r.report_json == NULL,
	   "free: a zeroed result and NULL are accepted");
}

/* The bytes of one argument reach the command as they are: no shell. */
static void test_no_shell(void)
{
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "echo",	 "echo hi; rm -rf /", "$(touch subst)",
			 "`touch tick`", "a|touch pipe",      NULL };
	const char *want = "echo hi; rm -rf / $(touch subst) `touch tick` "
			   "a|touch pipe\n";
	cJSON *root;
	const char *enf;

	base_opts(&o, allow3, 3);
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "no shell: runs");
	is_int(r.status, 0, "no shell: status 0");
	is_int(r.exit_code, 0, "no shell: exit code 0");
	is_int(r.blocked, 0, "no shell: not blocked");
	is_str(r.output, want, "no shell: the bytes printed literally");
	is_int((long long)r.output_len, (long long)strlen(want),
	       "no shell: output_len");
	is_str(r.message, "", "no shell: no message");
	ok(!exists("subst") && !exists("tick") && !exists("pipe"),
	   "no shell: no substitution or pipe ran");
	enf = report_str(r.report_json, "enforcement", &root);
	ok(enf && (strcmp(enf, "full") == 0 || strcmp(enf, "partial") == 0),
	   "no shell: the report says the sandbox enforced (%s)",
	   enf ? enf : "?");
	cJSON_Delete(root);
	cordon_shell_result_free(&r);
	ok(r.output == NULL && r.report_json == NULL, "free: pointers cleared");
	cordon_shell_result_free(&r);
}

static void test_blocked(void)
{
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *touch[] = { "touch", "blocked-file", NULL };
	char *touch_path[] = { "/usr/bin/touch", "blocked-file", NULL };
	char *echo[] = { "echo", "x", NULL };
	cJSON *root;
	const char *err;

	base_opts(&o, allow3, 3);
	is_int(cordon_shell_run(&o, touch, &r, &d), CORDON_OK,
	       "blocked: a refusal is not an error");
	is_int(r.blocked, 1, "blocked: touch is blocked");
	is_int(r.status, 126, "blocked: status 126");
	is_int(r.exit_code, -1, "blocked: exit code -1 (never started)");
	is_str(r.message,
	       "blocked: command 'touch' is not in the allowlist [uname, "
	       "date, echo]",
	       "blocked: the CLI's message");
	ok(!exists("blocked-file"), "blocked: nothing ran");
	ok(r.output && r.output_len == 0 && r.output[0] == '\0',
	   "blocked: empty output, still a string");
	err = report_str(r.report_json, "error", &root);
	is_str(err ? err : "", r.message, "blocked: the report has the error");
	cJSON_Delete(root);
	cordon_shell_result_free(&r);

	is_int(cordon_shell_run(&o, touch_path, &r, &d), CORDON_OK,
	       "blocked: /usr/bin/touch");
	is_int(r.blocked, 1, "blocked: a path to touch is blocked too");
	is_str(r.message,
	       "blocked: command 'touch' is not in the allowlist [uname, "
	       "date, echo]",
	       "blocked: the message names the base name");
	ok(!exists("blocked-file"), "blocked: nothing ran for the path");
	cordon_shell_result_free(&r);

	base_opts(&o, NULL, 0);
	is_int(cordon_shell_run(&o, echo, &r, &d), CORDON_OK,
	       "blocked: empty allow-list");
	is_int(r.blocked, 1, "blocked: nallow 0 blocks everything");
	is_str(r.message, "blocked: command 'echo' is not in the allowlist []",
	       "blocked: the empty list in the message");
	cordon_shell_result_free(&r);
}

/* A long allow-list does not fit the message: it ends in "...". */
static void test_long_message(void)
{
	static char names[40][16];
	const char *list[40];
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *rm[] = { "rm", "-rf", "x", NULL };
	size_t n;

	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "command%02d", i);
		list[i] = names[i];
	}
	base_opts(&o, list, 40);
	is_int(cordon_shell_run(&o, rm, &r, &d), CORDON_OK, "long list: runs");
	is_int(r.blocked, 1, "long list: blocked");
	n = strlen(r.message);
	is_int((long long)n, (long long)sizeof(r.message) - 1,
	       "long list: the message fills the buffer");
	ok(n >= 3 && strcmp(r.message + n - 3, "...") == 0,
	   "long list: the cut is marked (%s)", r.message + n - 3);
	cordon_shell_result_free(&r);
}

/* The bare name ran /usr/bin/echo (or was refused), not ./echo. */
static void not_planted(const struct cordon_shell_result *r, const char *what)
{
	const char *out = r->output ? r->output : "";

	if (!ok(r->blocked || strcmp(out, "x\n") == 0,
		"paths: %s: echo is not the planted one", what))
		diag("output: %.*s", (int)strcspn(out, "\n"), out);
}

/* /bin/echo is echo; a planted ./echo in the workspace is not. */
static void test_paths(void)
{
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *bin_echo[] = { "/bin/echo", "from-bin", NULL };
	char *planted[] = { "./echo", "x", NULL };
	char *bare[] = { "echo", "x", NULL };
	const char *script = "#!/bin/sh\ntouch planted-ran\necho PLANTED\n";
	int fd;

	base_opts(&o, allow3, 3);
	is_int(cordon_shell_run(&o, bin_echo, &r, &d), CORDON_OK,
	       "paths: /bin/echo runs");
	is_int(r.blocked, 0, "paths: /bin/echo is echo");
	is_str(r.output, "from-bin\n", "paths: /bin/echo printed");
	cordon_shell_result_free(&r);

	fd = open("echo", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, script, strlen(script)) < 0 || close(fd))
		diag("could not plant ./echo: %s", strerror(errno));
	is_int(cordon_shell_run(&o, planted, &r, &d), CORDON_OK,
	       "paths: ./echo");
	is_int(r.blocked, 1, "paths: a planted ./echo is not echo");
	is_int(r.status, 126, "paths: status 126");
	is_str(r.message,
	       "blocked: command './echo' is not the 'echo' found on PATH",
	       "paths: the message says why");
	ok(!exists("planted-ran"), "paths: the planted echo did not run");
	cordon_shell_result_free(&r);

	/* A relative entry in the caller's PATH must not let the workspace
	 * stand in for a PATH directory. */
	setenv("PATH", ".:" SAFE_PATH, 1);
	is_int(cordon_shell_run(&o, bare, &r, &d), CORDON_OK,
	       "paths: echo with '.' in PATH");
	not_planted(&r, "'.' in PATH");
	cordon_shell_result_free(&r);
	is_int(cordon_shell_run(&o, planted, &r, &d), CORDON_OK,
	       "paths: ./echo with '.' in PATH");
	is_int(r.blocked, 1, "paths: '.' in PATH: ./echo is still blocked");
	cordon_shell_result_free(&r);
	setenv("PATH", ":" SAFE_PATH, 1);
	is_int(cordon_shell_run(&o, bare, &r, &d), CORDON_OK,
	       "paths: echo with an empty PATH entry");
	not_planted(&r, "empty PATH entry");
	cordon_shell_result_free(&r);
	setenv("PATH", SAFE_PATH, 1);
	ok(!exists("planted-ran"), "paths: the planted echo never ran");
	unlink("planted-ran");
	unlink("echo");
}

static void test_timeout(void)
{
	const char *allow[] = { "sleep" };
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "sleep", "5", NULL };
	unsigned long long t0, ms;

	base_opts(&o, allow, 1);
	o.timeout_s = 1;
	t0 = now_ms();
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "timeout: runs");
	ms = now_ms() - t0;
	is_int(r.timed_out, 1, "timeout: timed out");
	is_int(r.status, 124, "timeout: status 124");
	is_int(r.exit_code, -1, "timeout: killed, no exit code");
	ok(ms < 3000, "timeout: returned in %llu ms (< 3 s)", ms);
	cordon_shell_result_free(&r);
}

/* CPU time is capped separately from the wall clock. */
static void test_cpu(void)
{
	const char *allow[] = { "sha256sum" };
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "sha256sum", "/dev/zero", NULL };
	unsigned long long t0, ms;

	base_opts(&o, allow, 1);
	o.timeout_s = 20;
	o.cpu_s = 1;
	t0 = now_ms();
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "cpu: runs");
	ms = now_ms() - t0;
	is_int(r.timed_out, 0, "cpu: not the time-out");
	ok(r.signal == SIGXCPU || r.signal == SIGKILL,
	   "cpu: killed by the CPU cap (signal %d)", r.signal);
	is_int(r.status, 128 + r.signal, "cpu: status 128 + signal");
	ok(ms < 10000, "cpu: stopped in %llu ms", ms);
	cordon_shell_result_free(&r);
}

static void test_output_cap(void)
{
	const char *allow[] = { "head" };
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "head", "-c", "10000", "/dev/zero", NULL };
	const char *note = "[cordon: output truncated after 100 bytes]";
	bool zeros = true;
	cJSON *root;

	base_opts(&o, allow, 1);
	o.output_cap = 100;
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "cap: runs");
	is_int(r.truncated, 1, "cap: truncated");
	ok(r.output_len >= 100 && r.output_len < 200,
	   "cap: output_len small (%zu)", r.output_len);
	for (size_t i = 0; i < 100 && i < r.output_len; i++)
		zeros = zeros && r.output[i] == '\0';
	ok(zeros, "cap: the first 100 bytes are the command's");
	ok(r.output_len > 100 && memmem(r.output + 100, r.output_len - 100,
					note, strlen(note)) != NULL,
	   "cap: the note follows");
	root = cJSON_Parse(r.report_json);
	ok(cJSON_IsTrue(
		   cJSON_GetObjectItemCaseSensitive(root, "outputTruncated")),
	   "cap: the report says outputTruncated");
	cJSON_Delete(root);
	cordon_shell_result_free(&r);
}

static void test_env(void)
{
	const char *allow[] = { "env" };
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "env", NULL };
	char *extra[] = { "MY_TOKEN=y", NULL };

	setenv("OPENAI_API_KEY", "x", 1);
	setenv("CORDON_SHELL_PLAIN", "z", 1);
	base_opts(&o, allow, 1);
	o.env = extra;
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "env: runs");
	is_int(r.status, 0, "env: status 0");
	ok(r.output && strstr(r.output, "OPENAI_API_KEY") == NULL,
	   "env: the host's OPENAI_API_KEY is not visible");
	ok(r.output && strstr(r.output, "CORDON_SHELL_PLAIN") == NULL,
	   "env: a host variable off the allow-list is not visible");
	ok(has_line(r.output, "MY_TOKEN=y"),
	   "env: MY_TOKEN from the host program is, unfiltered");
	ok(has_line(r.output, "PATH=" SAFE_PATH),
	   "env: PATH is passed through");
	cordon_shell_result_free(&r);
	unsetenv("OPENAI_API_KEY");
	unsetenv("CORDON_SHELL_PLAIN");
}

/* Our own stdin is a pipe with bytes in it and a writer that stays open:
 * a command that inherited it would print them and then wait. */
static void test_stdin(void)
{
	const char *allow[] = { "cat" };
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "cat", NULL };
	unsigned long long t0, ms;
	int fds[2], saved = dup(0);

	if (saved < 0 || pipe(fds) != 0 || write(fds[1], "leak\n", 5) != 5 ||
	    dup2(fds[0], 0) < 0) {
		diag("stdin pipe: %s", strerror(errno));
		return;
	}
	base_opts(&o, allow, 1);
	o.timeout_s = 5;
	t0 = now_ms();
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "stdin: runs");
	ms = now_ms() - t0;
	is_int(r.timed_out, 0, "stdin: cat did not wait for input");
	is_int(r.status, 0, "stdin: status 0");
	is_int((long long)r.output_len, 0, "stdin: empty output");
	ok(ms < 3000, "stdin: returned at once (%llu ms)", ms);
	cordon_shell_result_free(&r);
	dup2(saved, 0);
	close(saved);
	close(fds[0]);
	close(fds[1]);
}

/* The command runs in the sandbox: the workspace is writable, /etc is
 * not; a missing command is 127. */
static void test_sandboxed(void)
{
	const char *allow[] = { "touch", "nosuchcommand-cordon" };
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *inside[] = { "touch", "inside", NULL };
	char *outside[] = { "touch", "/etc/cordon-shell-test", NULL };
	char *missing[] = { "nosuchcommand-cordon", NULL };

	base_opts(&o, allow, 2);
	is_int(cordon_shell_run(&o, inside, &r, &d), CORDON_OK,
	       "sandbox: touch inside");
	is_int(r.status, 0, "sandbox: a write in the workspace works");
	ok(exists("inside"), "sandbox: the file is there");
	cordon_shell_result_free(&r);
	unlink("inside");

	is_int(cordon_shell_run(&o, outside, &r, &d), CORDON_OK,
	       "sandbox: touch /etc");
	ok(r.status != 0 && r.exit_code > 0,
	   "sandbox: a write to /etc fails (status %d)", r.status);
	ok(!exists("/etc/cordon-shell-test"), "sandbox: /etc untouched");
	ok(r.output && strstr(r.output, "cordon-shell-test") != NULL,
	   "sandbox: touch's error is in the output");
	cordon_shell_result_free(&r);
	unlink("/etc/cordon-shell-test");

	is_int(cordon_shell_run(&o, missing, &r, &d), CORDON_OK,
	       "sandbox: a missing command");
	is_int(r.status, 127, "sandbox: status 127");
	is_int(r.exit_code, -1, "sandbox: never started");
	is_int(r.blocked, 0, "sandbox: not blocked");
	ok(r.message[0] != '\0', "sandbox: the message says why (%s)",
	   r.message);
	cordon_shell_result_free(&r);
}

/* strict refuses exactly when auto would run with partial enforcement. */
static void test_strict(void)
{
	struct cordon_shell_opts o;
	struct cordon_shell_result r;
	struct cordon_diag d;
	char *argv[] = { "echo", "s", NULL };
	cJSON *root;
	const char *enf;
	bool full;

	base_opts(&o, allow3, 3);
	if (cordon_shell_run(&o, argv, &r, &d) != CORDON_OK) {
		diag("strict: %s", d.message);
		return;
	}
	enf = report_str(r.report_json, "enforcement", &root);
	full = enf && strcmp(enf, "full") == 0;
	cJSON_Delete(root);
	cordon_shell_result_free(&r);

	o.strict = 1;
	is_int(cordon_shell_run(&o, argv, &r, &d), CORDON_OK, "strict: runs");
	if (full) {
		is_int(r.status, 0, "strict: full enforcement runs");
		is_str(r.output, "s\n", "strict: output");
	} else {
		is_int(r.status, 125, "strict: partial enforcement refused");
		ok(strncmp(r.message, "strict mode:", 12) == 0,
		   "strict: the message says why (%s)", r.message);
	}
	cordon_shell_result_free(&r);
}

static void cleanup_tree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	if (strncmp(dir, "/tmp/cordon-", 12) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
}

int main(void)
{
	char wst[] = "/tmp/cordon-shell-ws-XXXXXX";
	char cat[] = "/tmp/cordon-shell-cache-XXXXXX";

	tap_no_plan();
	if (!mkdtemp(wst) || !mkdtemp(cat) || chdir(wst) != 0) {
		diag("workspace: %s", strerror(errno));
		return 1;
	}
	memcpy(ws, wst, sizeof(wst));
	setenv("XDG_CACHE_HOME", cat, 1);
	setenv("PATH", SAFE_PATH, 1);

	test_validation();
	test_free();
	test_no_shell();
	test_blocked();
	test_long_message();
	test_paths();
	test_timeout();
	test_cpu();
	test_output_cap();
	test_env();
	test_stdin();
	test_sandboxed();
	test_strict();

	if (chdir("/") != 0)
		diag("chdir /: %s", strerror(errno));
	cleanup_tree(wst);
	cleanup_tree(cat);
	return tap_done();
}
