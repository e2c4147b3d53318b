/* prompt: answers, re-asking, end of input, the deadline, what is shown. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon.h"
#include "prompt.h"
#include "tap.h"

static char out[65536];
static size_t outn;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void write_str(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t k = write(fd, s, n);
		if (k <= 0)
			exit(2);
		s += k;
		n -= (size_t)k;
	}
}

/* Everything left in fd (non-blocking once the writer is done). */
static void drain(int fd)
{
	outn = 0;
	for (;;) {
		ssize_t k = read(fd, out + outn, sizeof(out) - 1 - outn);
		if (k <= 0)
			break;
		outn += (size_t)k;
	}
	out[outn] = '\0';
}

static const struct prompt_info shell_info = {
	.tool = "Bash",
	.args_json = "{\"command\":\"rm -rf build\"}",
	.kind = "execute",
	.risk = "destructive",
	.labels = "delete-recursive, force",
	.reason = "destructive commands ask",
};

/* The family flag of the last ask(). */
static bool last_family;

/* Runs the prompt with input already written (and the writer closed when
 * close_in), output captured in out. */
static enum cordon_answer ask(const char *input, bool close_in,
			      const struct prompt_info *info,
			      unsigned timeout_ms, long long *elapsed)
{
	int in[2], o[2];
	enum cordon_answer a;
	long long t0;

	if (pipe(in) != 0 || pipe(o) != 0)
		exit(2);
	write_str(in[1], input);
	if (close_in) {
		close(in[1]);
		in[1] = -1;
	}
	t0 = now_ms();
	a = prompt_ask(in[0], o[1], info, timeout_ms, &last_family);
	if (elapsed)
		*elapsed = now_ms() - t0;
	close(o[1]);
	drain(o[0]);
	close(o[0]);
	close(in[0]);
	if (in[1] >= 0)
		close(in[1]);
	return a;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_answers(void)
{
	static const struct {
		const char *in;
		enum cordon_answer want;
	} rows[] = {
		{ "y\n", CORDON_ANSWER_ALLOW_ONCE },
		{ "yes\n", CORDON_ANSWER_ALLOW_ONCE },
		{ "Y\n", CORDON_ANSWER_ALLOW_ONCE },
		{ "  YES \r\n", CORDON_ANSWER_ALLOW_ONCE },
		{ "n\n", CORDON_ANSWER_DENY_ONCE },
		{ "no\n", CORDON_ANSWER_DENY_ONCE },
		{ "s\n", CORDON_ANSWER_ALLOW_SESSION },
		{ "session\n", CORDON_ANSWER_ALLOW_SESSION },
		{ "a\n", CORDON_ANSWER_ALLOW_ALWAYS },
		{ "always\n", CORDON_ANSWER_ALLOW_ALWAYS },
		{ "Always\n", CORDON_ANSWER_ALLOW_ALWAYS },
		{ "d\n", CORDON_ANSWER_DENY_ALWAYS },
		{ "never\n", CORDON_ANSWER_DENY_ALWAYS },
		{ "q\n", CORDON_ANSWER_ABORT },
		{ "abort\n", CORDON_ANSWER_ABORT },
		{ "\tn\t\n", CORDON_ANSWER_DENY_ONCE },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		char name[64];
		size_t k = 0;
		for (const char *p = rows[i].in; *p && k + 1 < sizeof(name);
		     p++)
			name[k++] = (*p == '\n' || *p == '\r' || *p == '\t') ?
					    '.' :
					    *p;
		name[k] = '\0';
		is_int(ask(rows[i].in, true, &shell_info, 2000, NULL),
		       rows[i].want, name);
	}
}

static void test_reask(void)
{
	is_int(ask("maybe\ny\n", true, &shell_info, 2000, NULL),
	       CORDON_ANSWER_ALLOW_ONCE, "garbage then y: allows");
	is_int(count(out, "Please answer"), 1, "asked again once");
	is_int(ask("\nyess\nsure\nn\n", true, &shell_info, 2000, NULL),
	       CORDON_ANSWER_DENY_ONCE, "three bad lines then n");
	is_int(count(out, "Please answer"), 3, "asked again three times");
	{
		char big[1100];
		memset(big, 'y', 1000);
		memcpy(big + 1000, "\na\n", 4);
		is_int(ask(big, true, &shell_info, 2000, NULL),
		       CORDON_ANSWER_ALLOW_ALWAYS,
		       "an over-long line is not an answer; the next is");
	}
	is_int(ask("y\nn\n", false, &shell_info, 2000, NULL),
	       CORDON_ANSWER_ALLOW_ONCE, "the first answer counts");
}

static void test_eof(void)
{
	is_int(ask("", true, &shell_info, 2000, NULL), CORDON_ANSWER_DENY_ONCE,
	       "end of input: deny once");
	is_int(ask("y", true, &shell_info, 2000, NULL), CORDON_ANSWER_DENY_ONCE,
	       "an unfinished line at end of input: deny once");
	is_int(ask("what\n", true, &shell_info, 2000, NULL),
	       CORDON_ANSWER_DENY_ONCE, "garbage then end of input: deny once");
}

static void test_timeout(void)
{
	long long el = 0;

	is_int(ask("", false, &shell_info, 200, &el), CORDON_ANSWER_TIMED_OUT,
	       "no input within 200 ms: timed_out");
	ok(el >= 150 && el < 900, "returned after the deadline, in %lld ms",
	   el);
	ok(strstr(out, "no answer in time") != NULL, "says so");
	is_int(ask("y", false, &shell_info, 200, &el), CORDON_ANSWER_TIMED_OUT,
	       "a line never finished: timed_out");
	ok(el < 900, "in %lld ms", el);

	/* A stream of garbage must not extend the deadline. */
	int in[2], o[2];
	pid_t pid;
	if (pipe(in) != 0 || pipe(o) != 0)
		exit(2);
	pid = fork();
	if (pid == 0) {
		const struct timespec nap = { 0, 20 * 1000 * 1000 };
		close(in[0]);
		signal(SIGPIPE, SIG_DFL);
		for (int i = 0; i < 100; i++) {
			if (write(in[1], "x\n", 2) != 2)
				_exit(0);
			nanosleep(&nap, NULL);
		}
		_exit(0);
	}
	close(in[1]);
	long long t0 = now_ms();
	enum cordon_answer a = prompt_ask(in[0], o[1], &shell_info, 300, NULL);
	el = now_ms() - t0;
	is_int(a, CORDON_ANSWER_TIMED_OUT, "re-asking keeps the deadline");
	ok(el < 900, "in %lld ms", el);
	close(in[0]);
	close(o[1]);
	close(o[0]);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);

	/* Input that never runs dry, and output that is always ready. */
	if (pipe(in) != 0 || pipe(o) != 0)
		exit(2);
	pid = fork();
	if (pid == 0) {
		close(in[0]);
		close(o[1]);
		if (fork() == 0) {
			char sink[4096];
			while (read(o[0], sink, sizeof(sink)) > 0)
				;
			_exit(0);
		}
		while (write(in[1], "garbage\n", 8) == 8)
			;
		_exit(0);
	}
	close(in[1]);
	close(o[0]);
	t0 = now_ms();
	a = prompt_ask(in[0], o[1], &shell_info, 300, NULL);
	el = now_ms() - t0;
	is_int(a, CORDON_ANSWER_TIMED_OUT, "an endless stream of garbage");
	ok(el < 900, "still stops at the deadline (%lld ms)", el);
	close(in[0]);
	close(o[1]);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

static void test_display(void)
{
	struct prompt_info evil = shell_info;
	char args[5200];

	ask("n\n", true, &shell_info, 2000, NULL);
	ok(strstr(out, "Bash") != NULL, "shows the tool");
	ok(strstr(out, "{\"command\":\"rm -rf build\"}") != NULL,
	   "shows the arguments");
	ok(strstr(out, "risk: destructive") != NULL, "shows the risk");
	ok(strstr(out, "labels: delete-recursive, force") != NULL,
	   "shows the labels");
	ok(strstr(out, "destructive commands ask") != NULL, "shows the reason");
	ok(strstr(out, "[y]es") && strstr(out, "[s]ession") &&
		   strstr(out, "[a]lways") && strstr(out, "[n]o"),
	   "offers yes / no / session / always");

	evil.tool = "Ba\x1b]0;pwned\x07sh\r\n";
	evil.args_json = "{\"c\":\"\x1b[2J\xc2\x9b"
			 "31m\xe2\x80\xae"
			 "txt\"}";
	evil.labels = "a\x1b[1mb";
	ask("n\n", true, &evil, 2000, NULL);
	ok(strstr(out, "Ba?]0;pwned?sh??") != NULL,
	   "control characters in the tool name shown as '?'");
	ok(strstr(out, "{\"c\":\"?[2J?31m?txt\"}") != NULL,
	   "escape, C1 CSI and bidi override in the args shown as '?'");
	ok(strstr(out, "a?[1mb") != NULL, "labels cleaned too");
	ok(memchr(out, 0x1b, outn) == NULL && memchr(out, 0x07, outn) == NULL &&
		   memchr(out, '\r', outn) == NULL,
	   "no escape, bell or carriage return reaches the terminal");

	evil = shell_info;
	evil.args_json = "{\"s\":\"h\xc3\xa9llo \xff\"}";
	ask("n\n", true, &evil, 2000, NULL);
	ok(strstr(out, "h\xc3\xa9llo ?") != NULL,
	   "valid UTF-8 kept, an invalid byte shown as '?'");

	memset(args, 'a', 5000);
	args[5000] = '\0';
	evil.args_json = args;
	ask("n\n", true, &evil, 2000, NULL);
	ok(strstr(out, "\xe2\x80\xa6 (3000 more bytes)") != NULL,
	   "long arguments are cut at 2000 bytes");
	ok(count(out, "a") < 2100, "and no more is shown");

	evil = shell_info;
	evil.risk = NULL;
	evil.labels = NULL;
	evil.kind = "write";
	evil.tool = "Write";
	ask("n\n", true, &evil, 2000, NULL);
	ok(strstr(out, "risk:") == NULL && strstr(out, "labels:") == NULL &&
		   strstr(out, "Write (write)") != NULL,
	   "no risk or labels lines for a file tool");
}

static void test_broken_output(void)
{
	int in[2], o[2];
	sigset_t pending;
	enum cordon_answer a;

	if (pipe(in) != 0 || pipe(o) != 0)
		exit(2);
	write_str(in[1], "y\n");
	close(o[0]);
	a = prompt_ask(in[0], o[1], &shell_info, 1000, NULL);
	is_int(a, CORDON_ANSWER_DENY_ONCE,
	       "output closed: the question was not seen, deny");
	sigpending(&pending);
	ok(!sigismember(&pending, SIGPIPE), "no SIGPIPE left pending");
	ok(1, "the process survived the closed pipe");
	close(o[1]);
	is_int(prompt_ask(in[0], -1, &shell_info, 1000, NULL),
	       CORDON_ANSWER_DENY_ONCE, "a bad output descriptor denies");
	close(in[0]);
	close(in[1]);
}

/* With a family: what s and a cover is shown, e and ea are offered, s
 * and a say "family", e and ea and the rest do not. */
static void test_family(void)
{
	static const char *const words[] = { "npm", "test" };
	static const char *const odd[] = { "my tool", "run\x1b[2J" };
	struct prompt_info fi = {
		.tool = "Bash",
		.args_json = "{\"command\":\"npm test -- --watch\"}",
		.kind = "execute",
		.risk = "caution",
		.reason = "the mode asks",
		.family = words,
		.family_len = 2,
	};
	static const struct {
		const char *in;
		enum cordon_answer want;
		bool family;
	} rows[] = {
		{ "s\n", CORDON_ANSWER_ALLOW_SESSION, true },
		{ "session\n", CORDON_ANSWER_ALLOW_SESSION, true },
		{ "a\n", CORDON_ANSWER_ALLOW_ALWAYS, true },
		{ "e\n", CORDON_ANSWER_ALLOW_SESSION, false },
		{ "exact\n", CORDON_ANSWER_ALLOW_SESSION, false },
		{ "ea\n", CORDON_ANSWER_ALLOW_ALWAYS, false },
		{ "Exact Always\n", CORDON_ANSWER_ALLOW_ALWAYS, false },
		{ "y\n", CORDON_ANSWER_ALLOW_ONCE, false },
		{ "d\n", CORDON_ANSWER_DENY_ALWAYS, false },
		{ "n\n", CORDON_ANSWER_DENY_ONCE, false },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		last_family = !rows[i].family;
		enum cordon_answer a = ask(rows[i].in, true, &fi, 2000, NULL);
		ok(a == rows[i].want && last_family == rows[i].family,
		   "with a family, %.*s: answer %d, family %d",
		   (int)strlen(rows[i].in) - 1, rows[i].in, a, last_family);
	}
	ask("s\n", true, &fi, 2000, NULL);
	ok(strstr(out, "[s]ession and [a]lways cover `npm test \xe2\x80\xa6`") &&
		   strstr(out, "commands starting with these words") &&
		   strstr(out, "destructive ones still ask") &&
		   strstr(out, "[e]xact session") && strstr(out, "[ea] exact always"),
	   "the prompt shows what s and a cover and offers e and ea");
	ask("x\ns\n", true, &fi, 2000, NULL);
	ok(strstr(out, "Please answer y, n, s, a, e, ea, d or q") != NULL,
	   "re-asking names e and ea");
	/* the words are shown quoted and cleaned */
	fi.family = odd;
	ask("s\n", true, &fi, 2000, NULL);
	ok(strstr(out, "'my tool' 'run?[2J'") && !strchr(out, '\x1b'),
	   "odd family words are quoted, control bytes shown as ?");

	/* without one: s is exact and the prompt says so */
	last_family = true;
	is_int(ask("s\n", true, &shell_info, 2000, NULL),
	       CORDON_ANSWER_ALLOW_SESSION, "no family: s is allow_session");
	ok(!last_family, "and it is not a family grant");
	ok(strstr(out, "[s]ession and [a]lways cover this exact command only") &&
		   !strstr(out, "[e]xact"),
	   "the prompt says s and a cover the exact command");
	last_family = true;
	ask("e\n", true, &shell_info, 2000, NULL);
	ok(!last_family, "e without a family is exact too");
}

/* The whole path as cordon check --prompt takes it: the policy proposes
 * the family, the terminal answers s, the grant covers another command
 * of the family and not a destructive sibling or another family. */
static struct {
	const char *input;
	int calls;
	char shown[8192];
} tty;

static void tty_prompt(void *ud, const struct cordon_result *asked,
		       struct cordon_reply *reply)
{
	struct prompt_info info = {
		.tool = cordon_result_tool(asked),
		.args_json = cordon_result_args(asked),
		.kind = cordon_kind_name(cordon_result_kind(asked)),
		.reason = cordon_result_reason(asked),
	};
	bool family = false;

	(void)ud;
	tty.calls++;
	info.family = cordon_result_family(asked, &info.family_len);
	last_family = false;
	reply->answer = ask(tty.input, true, &info, 2000, NULL);
	family = last_family;
	snprintf(tty.shown, sizeof(tty.shown), "%.*s",
		 (int)sizeof(tty.shown) - 1, out);
	if (family) {
		reply->amend_prefix = info.family;
		reply->amend_len = info.family_len;
	}
}

static enum cordon_decision decide_cmd(struct cordon_policy *p,
				       struct cordon_result *r,
				       const char *cmd, const char *session)
{
	char args[512];
	struct cordon_call call = { 0 };

	snprintf(args, sizeof(args), "{\"command\":\"%s\"}", cmd);
	call.tool = "Bash";
	call.args_json = args;
	call.session = session;
	if (cordon_policy_decide(p, &call, 0, r, NULL) != CORDON_OK)
		return CORDON_DENY;
	return cordon_result_decision(r);
}

static void test_family_grant(void)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_context ctx = { NULL, "/tmp", "/tmp", "/tmp" };
	struct cordon_policy *p = NULL;
	struct cordon_result *r = cordon_result_new();
	struct cordon_diag d = { 0 };

	if (!cfg || !r || cordon_policy_new(cfg, &ctx, &p, &d) != CORDON_OK ||
	    cordon_policy_open_approvals(p, NULL) != CORDON_OK) {
		ok(0, "policy: %s", d.message);
		return;
	}
	/* only session grants: no file */
	cordon_policy_set_prompt(p, tty_prompt, NULL);

	tty.input = "s\n";
	is_int(decide_cmd(p, r, "npm test -- --watch", "s1"), CORDON_ALLOW,
	       "npm test -- --watch: s allows it");
	ok(tty.calls == 1 && strstr(tty.shown, "cover `npm test \xe2\x80\xa6`"),
	   "the prompt named the family npm test");
	tty.input = "n\n";
	is_int(decide_cmd(p, r, "npm test -- --grep foo", "s1"), CORDON_ALLOW,
	       "npm test -- --grep foo: allowed by the family grant");
	is_int(tty.calls, 1, "without asking again");
	ok(strcmp(cordon_result_step(r), "session_grant") == 0,
	   "at step session_grant (%s)", cordon_result_step(r));
	is_int(decide_cmd(p, r, "npm run build", "s1"), CORDON_DENY,
	       "npm run build is another family: asked (and denied)");
	is_int(tty.calls, 2, "it asked");
	is_int(decide_cmd(p, r, "npm test -- --grep foo", "s2"), CORDON_DENY,
	       "another session is asked again");

	tty.input = "s\n";
	is_int(decide_cmd(p, r, "git push origin main", "s1"), CORDON_ALLOW,
	       "git push origin main: s");
	tty.input = "n\n";
	tty.calls = 0;
	is_int(decide_cmd(p, r, "git push upstream dev", "s1"), CORDON_ALLOW,
	       "git push upstream dev: the family grant");
	is_int(tty.calls, 0, "not asked");
	is_int(decide_cmd(p, r, "git push --force origin main", "s1"),
	       CORDON_DENY, "git push --force (destructive) asks again");
	is_int(tty.calls, 1, "it was asked");
	ok(!strstr(tty.shown, "cover `") &&
		   strstr(tty.shown, "this exact command only"),
	   "and its prompt offers the exact command only");

	/* the grant is bounded by the labels of the command answered */
	tty.input = "s\n";
	is_int(decide_cmd(p, r, "git config user.name x", "s1"), CORDON_ALLOW,
	       "git config user.name x: s (the family git config)");
	tty.input = "n\n";
	tty.calls = 0;
	is_int(decide_cmd(p, r, "git config user.email y", "s1"), CORDON_ALLOW,
	       "git config user.email y: the family grant");
	is_int(tty.calls, 0, "not asked");
	is_int(decide_cmd(p, r, "git config core.hooksPath .evil", "s1"),
	       CORDON_DENY,
	       "git config core.hooksPath (a persistence label the granted "
	       "command did not have) asks again");
	is_int(tty.calls, 1, "it was asked");

	/* e: the exact bytes only */
	tty.input = "e\n";
	is_int(decide_cmd(p, r, "cargo build --release", "s1"), CORDON_ALLOW,
	       "cargo build --release: e");
	tty.input = "n\n";
	tty.calls = 0;
	is_int(decide_cmd(p, r, "cargo build --release", "s1"), CORDON_ALLOW,
	       "the same bytes: granted");
	is_int(decide_cmd(p, r, "cargo build", "s1"), CORDON_DENY,
	       "cargo build: asked again (exact grant)");
	is_int(tty.calls, 1, "asked once");

	cordon_result_free(r);
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

int main(void)
{
	tap_no_plan();
	test_answers();
	test_reask();
	test_eof();
	test_timeout();
	test_display();
	test_broken_output();
	test_family();
	test_family_grant();
	return tap_done();
}
