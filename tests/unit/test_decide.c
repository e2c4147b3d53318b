/* cordon_policy_decide(): the policy with approvals, the prompt callback,
 * the decision sink and the file system, through the public API.
 *
 * Each test builds a real workspace and home under a mkdtemp directory, so
 * symlink escapes and the approvals file are tested for real.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cordon.h"
#include "tap.h"

static char root[256], ws[512], home[512], apf[512];

/* What the fake prompt answers, and what it saw. */
static struct {
	enum cordon_answer answer;
	const char *const *amend;
	size_t amend_len;
	unsigned sleep_ms;
	int calls;
	char last_reason[1024];
	int last_risk;
} fake;

static void fake_prompt(void *ud, const struct cordon_result *asked,
			struct cordon_reply *reply)
{
	(void)ud;
	fake.calls++;
	snprintf(fake.last_reason, sizeof(fake.last_reason), "%s",
		 cordon_result_reason(asked));
	fake.last_risk = cordon_result_risk(asked);
	if (fake.sleep_ms) {
		struct timespec ts = {fake.sleep_ms / 1000,
				      (long)(fake.sleep_ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	reply->answer = fake.answer;
	reply->amend_prefix = fake.amend;
	reply->amend_len = fake.amend_len;
}

static int sink_calls;
static enum cordon_decision sink_last;

static void sink(void *ud, const struct cordon_result *r)
{
	(void)ud;
	sink_calls++;
	sink_last = cordon_result_decision(r);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		ok(0, "write %s: %s", path, strerror(errno));
}

static struct cordon_config *config(const char *json)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_diag d = {0};

	if (cfg && json &&
	    cordon_config_load_json(cfg, json, strlen(json), "test.json",
				    CORDON_CONFIG_EXPLICIT, &d) != CORDON_OK) {
		ok(0, "config: %s", d.message);
		cordon_config_free(cfg);
		return NULL;
	}
	return cfg;
}

static struct cordon_policy *policy(const struct cordon_config *cfg,
				    const char *approvals)
{
	struct cordon_context ctx = {NULL, ws, home, "/tmp"};
	struct cordon_policy *p = NULL;
	struct cordon_diag d = {0};

	if (cordon_policy_new(cfg, &ctx, &p, &d) != CORDON_OK) {
		ok(0, "policy: %s", d.message);
		return NULL;
	}
	if (approvals && cordon_policy_open_approvals(p, approvals) != CORDON_OK)
		ok(0, "open approvals");
	cordon_policy_set_prompt(p, fake_prompt, NULL);
	cordon_policy_set_on_decision(p, sink, NULL);
	return p;
}

/* Decides tool(args) in session; returns the decision, step in *step. */
static enum cordon_decision run(struct cordon_policy *p, const char *tool,
				const char *args, const char *session,
				unsigned flags, char *step, size_t stepcap)
{
	struct cordon_result *r = cordon_result_new();
	struct cordon_call call = {tool, args, 0, ws, session, NULL};
	enum cordon_decision d = CORDON_DENY;

	if (r && cordon_policy_decide(p, &call, flags, r, NULL) == CORDON_OK) {
		d = cordon_result_decision(r);
		if (step)
			snprintf(step, stepcap, "%s", cordon_result_step(r));
	}
	cordon_result_free(r);
	return d;
}

#define BASH(cmd) "{\"command\": \"" cmd "\"}"

static void test_session_and_always(void)
{
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, apf);
	char step[64];

	/* session: granted for s1, not for s2, gone with the process */
	fake.answer = CORDON_ANSWER_ALLOW_SESSION;
	fake.calls = 0;
	is_int(run(p, "Bash", BASH("npm install"), "s1", 0, step, sizeof(step)),
	       CORDON_ALLOW, "allow_session answers allow");
	is_str(step, "user", "decided by the user");
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	is_int(run(p, "Bash", BASH("npm install"), "s1", 0, step, sizeof(step)),
	       CORDON_ALLOW, "the session grant allows again in s1");
	is_str(step, "session_grant", "by the session grant");
	is_int(fake.calls, 1, "without asking again");
	is_int(run(p, "Bash", BASH("npm install"), "s2", 0, step, sizeof(step)),
	       CORDON_DENY, "another session is asked (and says no)");
	is_int(fake.calls, 2, "s2 was asked");
	cordon_policy_free(p);

	p = policy(cfg, apf);
	is_int(run(p, "Bash", BASH("npm install"), "s1", CORDON_DECIDE_NO_PROMPT,
		   step, sizeof(step)),
	       CORDON_ASK, "session grants do not outlive the policy");

	/* always: written to the file, seen by a new policy */
	fake.answer = CORDON_ANSWER_ALLOW_ALWAYS;
	is_int(run(p, "Bash", BASH("cargo build"), "s1", 0, step, sizeof(step)),
	       CORDON_ALLOW, "allow_always answers allow");
	cordon_policy_free(p);
	p = policy(cfg, apf);
	fake.calls = 0;
	is_int(run(p, "Bash", BASH("cargo build"), "s9", 0, step, sizeof(step)),
	       CORDON_ALLOW, "an always grant holds in a new process and session");
	is_str(step, "approvals_rule", "from the approvals file");
	is_int(fake.calls, 0, "nobody was asked");

	/* deny always sticks, also where the mode would allow */
	fake.answer = CORDON_ANSWER_DENY_ALWAYS;
	is_int(run(p, "Bash", BASH("make deploy"), "s1", 0, step, sizeof(step)),
	       CORDON_DENY, "deny_always answers deny");
	cordon_policy_free(p);
	cordon_config_free(cfg);
	cfg = config("{\"safety\": {\"permission_mode\": \"auto\"}}");
	p = policy(cfg, apf);
	is_int(run(p, "Bash", BASH("make deploy"), "s1", 0, step, sizeof(step)),
	       CORDON_DENY, "a durable deny applies even where auto mode allows");
	is_str(step, "approvals_rule", "by the approvals rule");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_destructive_exact(void)
{
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, apf);
	static const char *const amend_rm[] = {"rm", "-rf"};
	char step[64];

	fake.answer = CORDON_ANSWER_ALLOW_ALWAYS;
	fake.amend = amend_rm;
	fake.amend_len = 2;
	is_int(run(p, "Bash", BASH("rm -rf build"), "s1", 0, step, sizeof(step)),
	       CORDON_ALLOW, "destructive: allowed once asked");
	is_int(fake.last_risk, CORDON_RISK_DESTRUCTIVE,
	       "the prompt saw the destructive tier");
	fake.amend = NULL;
	fake.amend_len = 0;
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	fake.calls = 0;
	is_int(run(p, "Bash", BASH("rm -rf build"), "s2", 0, step, sizeof(step)),
	       CORDON_ALLOW, "the exact command is granted");
	is_int(run(p, "Bash", BASH("rm -rf dist"), "s2", 0, step, sizeof(step)),
	       CORDON_DENY, "another destructive command is asked again");
	is_int(fake.calls, 1, "the prefix amendment was not kept for rm -rf");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_amendments(void)
{
	static const char *const amend_py[] = {"python3", "-c"};
	static const char *const amend_git[] = {"git", "push"};
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, apf);
	char step[64];

	fake.answer = CORDON_ANSWER_ALLOW_ALWAYS;
	fake.amend = amend_py;
	fake.amend_len = 2;
	is_int(run(p, "Bash", BASH("python3 -c 'print(1)'"), "s1", 0, step,
		   sizeof(step)),
	       CORDON_ALLOW, "python3 -c allowed once");
	fake.amend = amend_git;
	is_int(run(p, "Bash", BASH("git push origin main"), "s1", 0, step,
		   sizeof(step)),
	       CORDON_ALLOW, "git push allowed with an amendment");
	fake.amend = NULL;
	fake.amend_len = 0;
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	fake.calls = 0;
	is_int(run(p, "Bash", BASH("python3 -c 'import os'"), "s3", 0, step,
		   sizeof(step)),
	       CORDON_DENY, "the python3 -c amendment was refused");
	is_int(run(p, "Bash", BASH("git push origin dev"), "s3", 0, step,
		   sizeof(step)),
	       CORDON_ALLOW, "the git push amendment became a prefix rule");
	is_str(step, "approvals_rule", "through the approvals file");
	is_int(run(p, "Bash", BASH("git push origin dev && curl -s x.y"), "s3",
		   0, step, sizeof(step)),
	       CORDON_DENY, "a prefix rule does not cover another segment");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_no_prompt_and_timeout(void)
{
	struct cordon_config *cfg =
		config("{\"approvals\": {\"timeout_s\": 1}}");
	struct cordon_policy *p = policy(cfg, NULL);
	char step[64];

	fake.answer = CORDON_ANSWER_ALLOW_ONCE;
	fake.sleep_ms = 1300;
	is_int(run(p, "Bash", BASH("npm ci"), "s1", 0, step, sizeof(step)),
	       CORDON_DENY, "an answer after the deadline denies");
	is_str(step, "timed_out", "as timed_out");
	fake.sleep_ms = 0;
	cordon_policy_set_prompt(p, NULL, NULL);
	is_int(run(p, "Bash", BASH("npm ci"), "s1", 0, step, sizeof(step)),
	       CORDON_DENY, "no callback: ASK denies");
	is_str(step, "no_prompt", "as no_prompt");
	is_int(run(p, "Bash", BASH("npm ci"), "s1", CORDON_DECIDE_NO_PROMPT,
		   step, sizeof(step)),
	       CORDON_ASK, "NO_PROMPT leaves ASK");
	fake.answer = CORDON_ANSWER_ABORT;
	cordon_policy_set_prompt(p, fake_prompt, NULL);
	is_int(run(p, "Bash", BASH("npm ci"), "s1", 0, step, sizeof(step)),
	       CORDON_DENY, "abort denies");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_require_confirm(void)
{
	struct cordon_config *cfg = config(
		"{\"safety\": {\"require_confirm\": [\"deploy\"]}, \"tools\": "
		"{\"deploy\": {\"kind\": \"mcp\"}}}");
	struct cordon_policy *p = policy(cfg, apf);
	char step[64];

	fake.answer = CORDON_ANSWER_ALLOW_ALWAYS;
	fake.calls = 0;
	is_int(run(p, "deploy", "{}", "s1", 0, step, sizeof(step)),
	       CORDON_ALLOW, "require_confirm: a yes allows");
	is_int(run(p, "deploy", "{}", "s1", 0, step, sizeof(step)),
	       CORDON_ALLOW, "and the next call...");
	is_int(fake.calls, 2, "...is asked again: always counted as once");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_corrupt_file(void)
{
	char bad[512], step[64];
	snprintf(bad, sizeof(bad), "%s/bad.json", root);
	write_file(bad, "{\"version\": 1, \"rules\": [{\"tool\": \"Bash\", "
			"\"decision\": \"allow\"");
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, bad);
	ok(p && cordon_policy_warning_count(p) >= 1,
	   "a half-written approvals file gives a warning");
	is_int(run(p, "Bash", BASH("ls"), "s1", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_ASK, "and no durable grant: the call still asks");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

/* An approvals file from which no rule can be read (not JSON, a FIFO):
 * a "never" in it cannot be checked, so what the mode allows asks (and,
 * with no one to ask, is denied); an answer resolves it. */
static void test_unusable_file(void)
{
	char bad[512], fifo[512], step[64];
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p;
	char read_args[700];

	snprintf(read_args, sizeof(read_args), "{\"file_path\": \"%s/a.c\"}",
		 ws);
	snprintf(bad, sizeof(bad), "%s/garbage.json", root);
	write_file(bad, "{\"version\": 1, \"rules\": [{\"tool\": \"Bash\", "
			"\"decision\": \"deny\"");
	p = policy(cfg, bad);
	is_int(run(p, "Read", read_args, "s1", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_ASK, "unusable approvals: an allowed read asks");
	is_str(step, "approvals_unreadable", "its step");
	fake.answer = CORDON_ANSWER_ALLOW_ONCE;
	is_int(run(p, "Read", read_args, "s1", 0, NULL, 0), CORDON_ALLOW,
	       "unusable approvals: a yes allows it");
	cordon_policy_set_prompt(p, NULL, NULL);
	is_int(run(p, "Read", read_args, "s1", 0, step, sizeof(step)),
	       CORDON_DENY, "unusable approvals: no one to ask denies");
	cordon_policy_free(p);

	snprintf(fifo, sizeof(fifo), "%s/fifo.json", root);
	mkfifo(fifo, 0600);
	p = policy(cfg, NULL);
	ok(p && cordon_policy_open_approvals(p, fifo) != CORDON_E_NOMEM,
	   "a FIFO approvals file opens without waiting");
	is_int(run(p, "Read", read_args, "s1", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_ASK, "FIFO approvals: an allowed read asks");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_symlinks(void)
{
	char ssh[600], key[700], link[700], dlink[700], args[2048], step[64];
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, NULL);

	snprintf(ssh, sizeof(ssh), "%s/.ssh", home);
	snprintf(key, sizeof(key), "%s/id_rsa", ssh);
	snprintf(link, sizeof(link), "%s/notes.txt", ws);
	snprintf(dlink, sizeof(dlink), "%s/cfg", ws);
	if (mkdir(ssh, 0700) != 0 && errno != EEXIST)
		ok(0, "mkdir %s", ssh);
	write_file(key, "PRIVATE KEY\n");
	if (symlink(key, link) != 0 || symlink(ssh, dlink) != 0)
		ok(0, "symlink: %s", strerror(errno));

	snprintf(args, sizeof(args), "{\"file_path\": \"%s\"}", link);
	is_int(run(p, "Read", args, "s", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_DENY, "a link in the workspace to ~/.ssh/id_rsa is denied");
	is_str(step, "denied_paths", "at denied_paths (after resolving)");
	is_int(run(p, "Read", "{\"file_path\": \"cfg/id_rsa\"}", "s",
		   CORDON_DECIDE_NO_PROMPT, step, sizeof(step)),
	       CORDON_DENY, "through a linked directory, relative to the cwd");
	snprintf(args, sizeof(args),
		 "{\"file_path\": \"%s/cfg/authorized_keys\", \"content\": \"x\"}",
		 ws);
	is_int(run(p, "Write", args, "s", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_DENY, "a new file under a linked directory is judged "
			    "where it lands");
	snprintf(args, sizeof(args), "%s/README.md", ws);
	write_file(args, "hello\n");
	is_int(run(p, "Read", "{\"file_path\": \"README.md\"}", "s",
		   CORDON_DECIDE_NO_PROMPT, step, sizeof(step)),
	       CORDON_ALLOW, "an ordinary workspace file is read");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_sink(void)
{
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, NULL);

	sink_calls = 0;
	fake.answer = CORDON_ANSWER_ALLOW_ONCE;
	run(p, "Read", "{\"file_path\": \"/etc/shadow\"}", "s", 0, NULL, 0);
	is_int(sink_calls, 1, "the sink sees a denial");
	is_int(sink_last, CORDON_DENY, "as a deny");
	run(p, "Read", "{\"file_path\": \"README.md\"}", "s", 0, NULL, 0);
	run(p, "Bash", BASH("ls"), "s", 0, NULL, 0);
	is_int(sink_calls, 3, "and every allowed call, asked or not");
	is_int(sink_last, CORDON_ALLOW, "the last one allowed by the user");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_result_json(void)
{
	struct cordon_config *cfg = config(NULL);
	struct cordon_policy *p = policy(cfg, NULL);
	struct cordon_result *r = cordon_result_new();
	struct cordon_call call = {"Bash", BASH("rm -rf /"), 0, ws, "s", NULL};

	cordon_policy_evaluate(p, &call, r, NULL);
	char *js = cordon_result_to_json(r);
	ok(js && strstr(js, "\"decision\":\"deny\"") &&
		   strstr(js, "\"step\":\"denied_commands\"") &&
		   strstr(js, "\"risk\":\"blocked\"") &&
		   strstr(js, "\"labels\":[") && strstr(js, "\"reason\":\"blocked: "),
	   "the check object: %s", js ? js : "(null)");
	free(js);
	call.tool = "Read";
	call.args_json = "{\"file_path\": \"x\\u0000/../../.ssh/id_rsa\"}";
	cordon_policy_evaluate(p, &call, r, NULL);
	is_int(cordon_result_decision(r), CORDON_DENY,
	       "a \\u0000 in the arguments is refused");
	call.args_json = "{\"file_path\": \"a\\\\u0000b\"}";
	cordon_policy_evaluate(p, &call, r, NULL);
	is_int(cordon_result_decision(r), CORDON_ALLOW,
	       "an escaped backslash before u0000 is just text");
	cordon_result_free(r);
	cordon_policy_free(p);
	cordon_config_free(cfg);
}


static void test_redteam_fs(void)
{
	char etc[600], link[700], args[2048], step[64], cfgdir[700];
	struct cordon_config *cfg = config(
		"{\"safety\": {\"permission_mode\": \"auto-accept-edits\"}}");
	struct cordon_policy *p;

	/* ".." after a link is walked where the link points: l/../shadow
	 * with l -> <root>/etc/ssl is <root>/etc/shadow. */
	snprintf(etc, sizeof(etc), "%s/etc", root);
	mkdir(etc, 0755);
	snprintf(link, sizeof(link), "%s/ssl", etc);
	mkdir(link, 0755);
	snprintf(args, sizeof(args), "%s/shadow", etc);
	write_file(args, "root:x\n");
	snprintf(args, sizeof(args), "%s/l", ws);
	if (symlink(link, args) != 0)
		ok(0, "symlink l");
	snprintf(args, sizeof(args), "%s/id_rsa", etc);
	write_file(args, "KEY\n");
	setenv("XDG_CONFIG_HOME", root, 1);
	p = policy(cfg, apf);
	is_int(run(p, "Read", "{\"file_path\": \"l/../id_rsa\"}", "s",
		   CORDON_DECIDE_NO_PROMPT, step, sizeof(step)),
	       CORDON_DENY, "l/../id_rsa lands beside the link's target");
	is_str(step, "denied_paths", "and is judged there");
	is_int(run(p, "Write", "{\"file_path\": \"l/../new.txt\"}", "s",
		   CORDON_DECIDE_NO_PROMPT, step, sizeof(step)),
	       CORDON_ASK, "a write through l/.. is outside the workspace: asks");

	/* cordon's own configuration cannot be written by a tool or named
	 * by a shell command, whatever the mode. */
	snprintf(cfgdir, sizeof(cfgdir), "{\"file_path\": \"%s/cordon/config.json\"}",
		 root);
	is_int(run(p, "Write", cfgdir, "s", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_DENY, "Write into $XDG_CONFIG_HOME/cordon is denied");
	snprintf(args, sizeof(args),
		 "{\"command\": \"echo '{}' > %s/cordon/approvals.json\"}", root);
	is_int(run(p, "Bash", args, "s", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_DENY, "a shell command writing the approvals file is denied");
	snprintf(args, sizeof(args), "{\"file_path\": \"%s\"}", apf);
	is_int(run(p, "Edit", args, "s", CORDON_DECIDE_NO_PROMPT, step,
		   sizeof(step)),
	       CORDON_DENY, "so is an edit of the approvals file in use");
	unsetenv("XDG_CONFIG_HOME");

	/* A path grant is for where the path lands: swapping the file for
	 * a link afterwards does not carry the grant over. */
	snprintf(args, sizeof(args), "%s/notes.md", ws);
	write_file(args, "x\n");
	fake.answer = CORDON_ANSWER_ALLOW_SESSION;
	is_int(run(p, "Write", "{\"file_path\": \"/tmp/cordon-decide-out.txt\"}",
		   "s7", 0, step, sizeof(step)),
	       CORDON_ALLOW, "a write outside the workspace, granted for the session");
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	fake.calls = 0;
	is_int(run(p, "Write", "{\"file_path\": \"/tmp/cordon-decide-out.txt\"}",
		   "s7", 0, step, sizeof(step)),
	       CORDON_ALLOW, "the grant holds for the same path");
	char target[700];
	snprintf(target, sizeof(target), "%s/.bashrc", home);
	write_file(target, "# rc\n");
	unlink("/tmp/cordon-decide-out.txt");
	if (symlink(target, "/tmp/cordon-decide-out.txt") != 0)
		ok(0, "symlink out");
	is_int(run(p, "Write", "{\"file_path\": \"/tmp/cordon-decide-out.txt\"}",
		   "s7", 0, step, sizeof(step)),
	       CORDON_DENY, "once it is a link to ~/.bashrc the grant is gone");
	is_int(fake.calls, 1, "and the user is asked again");
	unlink("/tmp/cordon-decide-out.txt");

	cordon_policy_free(p);
	cordon_config_free(cfg);

	/* A fetch grant is for the URL, not the whole tool. */
	cfg = config(NULL);
	p = policy(cfg, apf);
	fake.answer = CORDON_ANSWER_ALLOW_ALWAYS;
	is_int(run(p, "WebFetch", "{\"url\": \"https://docs.example.com/a\"}",
		   "s", 0, step, sizeof(step)),
	       CORDON_ALLOW, "a fetch allowed always");
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	fake.calls = 0;
	is_int(run(p, "WebFetch", "{\"url\": \"https://docs.example.com/a\"}",
		   "s2", 0, step, sizeof(step)),
	       CORDON_ALLOW, "the same URL is granted");
	is_int(run(p, "WebFetch", "{\"url\": \"https://evil.example/x?k=1\"}",
		   "s2", 0, step, sizeof(step)),
	       CORDON_DENY, "another URL is asked again");
	is_int(fake.calls, 1, "once");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_list_grant(void)
{
	struct cordon_config *cfg = config(
		"{\"safety\": {\"path_rules\": [{\"pattern\": \"/srv/**\", "
		"\"access\": \"read\", \"decision\": \"ask\"}]}}");
	struct cordon_policy *p = policy(cfg, NULL);
	char step[64];

	fake.answer = CORDON_ANSWER_ALLOW_SESSION;
	is_int(run(p, "read_many_files",
		   "{\"paths\": [\"/srv/a.txt\", \"/srv/b.txt\"]}", "s", 0, step,
		   sizeof(step)),
	       CORDON_ALLOW, "a list of paths allowed for the session");
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	fake.calls = 0;
	is_int(run(p, "Read", "{\"file_path\": \"/srv/a.txt\"}", "s", 0, step,
		   sizeof(step)),
	       CORDON_DENY, "the list's answer is no grant for its first path");
	is_int(fake.calls, 1, "which is asked about again");
	fake.answer = CORDON_ANSWER_ALLOW_SESSION;
	run(p, "Read", "{\"file_path\": \"/srv/a.txt\"}", "s", 0, step,
	    sizeof(step));
	fake.answer = CORDON_ANSWER_DENY_ONCE;
	is_int(run(p, "Read", "{\"file_path\": \"/srv/a.txt\"}", "s", 0, step,
		   sizeof(step)),
	       CORDON_ALLOW, "while a single path's answer is a grant");
	is_str(step, "session_grant", "a session grant");
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

int main(void)
{
	tap_no_plan();
	snprintf(root, sizeof(root), "/tmp/cordon-decide-XXXXXX");
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	snprintf(ws, sizeof(ws), "%s/work", root);
	snprintf(home, sizeof(home), "%s/home", root);
	snprintf(apf, sizeof(apf), "%s/state/approvals.json", root);
	if (mkdir(ws, 0700) != 0 || mkdir(home, 0700) != 0) {
		ok(0, "mkdir");
		return tap_done();
	}
	test_session_and_always();
	test_destructive_exact();
	test_amendments();
	test_no_prompt_and_timeout();
	test_require_confirm();
	test_corrupt_file();
	test_unusable_file();
	test_symlinks();
	test_sink();
	test_result_json();
	test_redteam_fs();
	test_list_grant();
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
	return tap_done();
}
