/* The one list of git config keys that execute (src/base/gitexec.h) and
 * its two readers: every key either old list had (the classifier's
 * exec_keys, the sweep's) is still in it, the keys added since are, the
 * look-alikes are not; and for every row of the table the sweep finds the
 * key in a config text and the classifier flags `git -c KEY=VALUE` and
 * `git config KEY VALUE`, so a key added to the table reaches both. */
#include <stdio.h>
#include <string.h>

#include "cordon.h"
#include "gitexec.h"
#include "sandbox_int.h"
#include "tap.h"

static const char *const executes[] = {
	/* the classifier's list */
	"core.pager", "core.editor", "core.sshcommand", "core.fsmonitor",
	"core.askpass", "sequence.editor", "diff.external", "gpg.program",
	"credential.helper", "uploadpack.packobjectshook", "core.hookspath",
	"pager.log", "alias.st", "filter.lfs.clean", "filter.lfs.smudge",
	"filter.lfs.process", "diff.bin.textconv", "diff.d.command",
	"merge.m.driver", "difftool.t.cmd", "mergetool.t.cmd", "core.gitproxy",
	"protocol.ext.allow",
	/* the sweep's (filter.*.* narrowed: filter.*.required is a boolean) */
	"core.worktree", "pager.log.x", "credential.https://x.y.helper",
	"include.path", "includeif.gitdir:/x/.path", "gpg.ssh.program",
	"gpg.x509.program", "remote.origin.uploadpack",
	"remote.origin.receivepack", "web.browser", "browser.ff.cmd",
	"man.m.cmd",
	/* neither had these */
	"protocol.allow", "core.alternaterefscommand", "interactive.difffilter",
	"trailer.sign.command", "trailer.sign.cmd", "hook.pre-commit.command",
	"submodule.sub.update", "imap.tunnel", "gpg.ssh.defaultkeycommand",
	"sendemail.tocmd", "sendemail.cccmd", "sendemail.sendmailcmd",
	"sendemail.smtpserver", "sendemail.work.tocmd", "sendemail.headercmd",
	"init.templatedir", "difftool.t.path", "mergetool.t.path",
	"man.m.path", "browser.ff.path", "guitool.g.cmd", "instaweb.httpd",
	/* any case for section and name */
	"CORE.FSMONITOR", "Core.HooksPath", "Filter.lfs.Clean",
};

static const char *const harmless[] = {
	"core.bare", "user.name", "core.fsmonitorhookversion",
	"branch.fsmonitor.remote", "remote.origin.url", "filter.lfs.required",
	"diff.colormoved", "core", "", "core.", ".pager", "pager", "alias",
	"core.x.pager", "includeif.path", "merge.driver", "gpg.ssh.x",
	"http.proxy", "url.ext::x.insteadof", "diff.tool", "remote.o.vcs",
	"submodule.update",
};

/* row's key made concrete: "*" a subsection, "?" none, name "*" one */
static void concrete(const char *row, char *key, size_t cap, bool *has_sub)
{
	char sec[32], sub[32], name[32];
	const char *a = strchr(row, '.'), *b = strchr(a + 1, '.');

	(void)snprintf(sec, sizeof(sec), "%.*s", (int)(a - row), row);
	(void)snprintf(sub, sizeof(sub), "%.*s", (int)(b - a - 1), a + 1);
	(void)snprintf(name, sizeof(name), "%s", b + 1);
	if (strcmp(name, "*") == 0)
		(void)snprintf(name, sizeof(name), "log");
	*has_sub = sub[0] && strcmp(sub, "?") != 0;
	if (strcmp(sub, "*") == 0)
		(void)snprintf(sub, sizeof(sub), "Sub.Dotted");
	if (*has_sub)
		(void)snprintf(key, cap, "%s.%s.%s", sec, sub, name);
	else
		(void)snprintf(key, cap, "%s.%s", sec, name);
}

static bool has_rule(struct cordon_classifier *cls, struct cordon_verdict *v,
		     const char *cmd, const char *rule)
{
	(void)cordon_classify(cls, NULL, cmd, strlen(cmd), v, NULL);
	for (size_t i = 0; i < cordon_verdict_rule_count(v); i++)
		if (strcmp(cordon_verdict_rule(v, i), rule) == 0)
			return true;
	return false;
}

int main(void)
{
	struct cordon_classifier *cls = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	enum gitexec_kind kind;
	char row[96], key[96], text[256], cmd[256];
	bool has_sub;

	tap_no_plan();
	for (size_t i = 0; i < sizeof(executes) / sizeof(executes[0]); i++)
		ok(gitexec_key(executes[i], strlen(executes[i])) !=
			   GITEXEC_NONE,
		   "executes: %s", executes[i]);
	for (size_t i = 0; i < sizeof(harmless) / sizeof(harmless[0]); i++)
		ok(gitexec_key(harmless[i], strlen(harmless[i])) ==
			   GITEXEC_NONE,
		   "does not: %s", harmless[i]);
	ok(gitexec_value_runs(GITEXEC_BANG, "!sh", 3) &&
		   gitexec_value_runs(GITEXEC_BANG, " \"!sh\"", 6) &&
		   gitexec_value_runs(GITEXEC_BANG, "\\\n!sh", 5) &&
		   !gitexec_value_runs(GITEXEC_BANG, "status", 6) &&
		   !gitexec_value_runs(GITEXEC_BANG, "", 0) &&
		   gitexec_value_runs(GITEXEC_RUNS, "less", 4),
	   "a '!' value runs for alias.* and submodule.*.update, any for the rest");

	/* every row, through both readers */
	for (size_t i = 0; gitexec_row(i, row, sizeof(row), &kind); i++) {
		const char *dot;

		concrete(row, key, sizeof(key), &has_sub);
		ok(gitexec_key(key, strlen(key)) == kind, "row %s: %s", row,
		   key);
		dot = strrchr(key, '.');
		if (has_sub) {
			const char *first = strchr(key, '.');

			(void)snprintf(text, sizeof(text),
				       "[user]\n\tname = x\n[%.*s \"%.*s\"]\n"
				       "\t%s = !x\n",
				       (int)(first - key), key,
				       (int)(dot - first - 1), first + 1,
				       dot + 1);
		} else {
			(void)snprintf(text, sizeof(text),
				       "[user]\n\tname = x\n[%.*s]\n\t%s = !x\n",
				       (int)(dot - key), key, dot + 1);
		}
		ok(sandbox_sweep_config_executes(text, strlen(text)),
		   "the sweep finds %s in a config", key);
		(void)snprintf(cmd, sizeof(cmd), "git -c '%s=!rm -rf ~' status",
			       key);
		ok(has_rule(cls, v, cmd, "git.config-exec"),
		   "the classifier flags git -c %s", key);
		(void)snprintf(cmd, sizeof(cmd), "git config '%s' '!rm -rf ~'",
			       key);
		ok(has_rule(cls, v, cmd, "git.config-exec-store"),
		   "the classifier flags git config %s", key);
	}
	/* a key longer than the classifier's old 128-byte buffer */
	(void)snprintf(cmd, sizeof(cmd),
		       "git -c 'credential.https://%0150d.example.helper=!rm "
		       "-rf ~' push",
		       0);
	ok(has_rule(cls, v, cmd, "git.config-exec"),
	   "the classifier flags a key with a long subsection");
	/* the sweep: a BANG key without '!' is an alias of a git command */
	ok(!sandbox_sweep_config_executes("[alias]\n\tst = status\n",
					  strlen("[alias]\n\tst = status\n")),
	   "the sweep: alias.st = status runs nothing");
	ok(!sandbox_sweep_config_executes(
		   "[submodule \"s\"]\n\tupdate = checkout\n",
		   strlen("[submodule \"s\"]\n\tupdate = checkout\n")),
	   "the sweep: submodule.s.update = checkout runs nothing");
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return tap_done();
}
