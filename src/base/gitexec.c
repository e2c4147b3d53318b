/* gitexec — the git config keys that execute (gitexec.h). From
 * git-config(1) and the manual pages it points to (githooks,
 * gitattributes' drivers, git-credential, git-send-email, git-difftool,
 * git-mergetool, gitprotocol's ext::, git-interpret-trailers, git-hook).
 * Left out, each decided: http.proxy and url.*.insteadOf (they route a
 * fetch; an ext:: URL runs only with protocol.*.allow, which is here),
 * diff.tool and merge.tool (they name a tool: its command is
 * difftool.*.cmd / mergetool.*.cmd), remote.*.vcs (a git-remote-VCS
 * already on PATH), filter.*.required (a boolean).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gitexec.h"

#include "banned.h"

/* sub: "" none, "*" any (one is needed), "?" any or none, else that one;
 * name "*": any. No pointers in the rows (HACKING.md "Tables without
 * pointers"). */
static const struct {
	char sec[16], sub[8], name[24];
	unsigned char kind;
} rows[] = {
	{ "alias", "", "*", GITEXEC_BANG },
	{ "browser", "*", "cmd", GITEXEC_RUNS },
	{ "browser", "*", "path", GITEXEC_RUNS },
	{ "core", "", "alternaterefscommand", GITEXEC_RUNS },
	{ "core", "", "askpass", GITEXEC_RUNS },
	{ "core", "", "editor", GITEXEC_RUNS },
	{ "core", "", "fsmonitor", GITEXEC_RUNS },
	{ "core", "", "gitproxy", GITEXEC_RUNS },
	{ "core", "", "hookspath", GITEXEC_HOOKS },
	{ "core", "", "pager", GITEXEC_RUNS },
	{ "core", "", "sshcommand", GITEXEC_RUNS },
	{ "core", "", "worktree", GITEXEC_LOADS },
	{ "credential", "?", "helper", GITEXEC_RUNS },
	{ "diff", "", "external", GITEXEC_RUNS },
	{ "diff", "*", "command", GITEXEC_RUNS },
	{ "diff", "*", "textconv", GITEXEC_RUNS },
	{ "difftool", "*", "cmd", GITEXEC_RUNS },
	{ "difftool", "*", "path", GITEXEC_RUNS },
	{ "filter", "*", "clean", GITEXEC_RUNS },
	{ "filter", "*", "process", GITEXEC_RUNS },
	{ "filter", "*", "smudge", GITEXEC_RUNS },
	{ "gpg", "?", "program", GITEXEC_RUNS },
	{ "gpg", "ssh", "defaultkeycommand", GITEXEC_RUNS },
	{ "guitool", "*", "cmd", GITEXEC_RUNS },
	{ "hook", "*", "command", GITEXEC_RUNS },
	{ "imap", "", "tunnel", GITEXEC_RUNS },
	{ "include", "", "path", GITEXEC_LOADS },
	{ "includeif", "*", "path", GITEXEC_LOADS },
	{ "init", "", "templatedir", GITEXEC_HOOKS },
	{ "instaweb", "", "httpd", GITEXEC_RUNS },
	{ "interactive", "", "difffilter", GITEXEC_RUNS },
	{ "man", "*", "cmd", GITEXEC_RUNS },
	{ "man", "*", "path", GITEXEC_RUNS },
	{ "merge", "*", "driver", GITEXEC_RUNS },
	{ "mergetool", "*", "cmd", GITEXEC_RUNS },
	{ "mergetool", "*", "path", GITEXEC_RUNS },
	{ "pager", "?", "*", GITEXEC_RUNS },
	{ "protocol", "", "allow", GITEXEC_ALLOWS },
	{ "protocol", "*", "allow", GITEXEC_ALLOWS },
	{ "remote", "*", "receivepack", GITEXEC_RUNS },
	{ "remote", "*", "uploadpack", GITEXEC_RUNS },
	{ "sendemail", "?", "cccmd", GITEXEC_RUNS },
	{ "sendemail", "?", "headercmd", GITEXEC_RUNS },
	{ "sendemail", "?", "sendmailcmd", GITEXEC_RUNS },
	{ "sendemail", "?", "smtpserver", GITEXEC_RUNS },
	{ "sendemail", "?", "tocmd", GITEXEC_RUNS },
	{ "sequence", "", "editor", GITEXEC_RUNS },
	{ "submodule", "*", "update", GITEXEC_BANG },
	{ "trailer", "*", "cmd", GITEXEC_RUNS },
	{ "trailer", "*", "command", GITEXEC_RUNS },
	{ "uploadpack", "", "packobjectshook", GITEXEC_RUNS },
	{ "web", "", "browser", GITEXEC_RUNS },
};

static bool is(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && strncasecmp(s, want, n) == 0;
}

enum gitexec_kind gitexec_match(const char *sec, size_t secn, const char *sub,
				size_t subn, bool has_sub, const char *name,
				size_t namen)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *rs = rows[i].sub;

		if (!is(sec, secn, rows[i].sec))
			continue;
		if (rs[0] == '\0' ? has_sub :
		    rs[0] == '*' ? !has_sub :
		    rs[0] == '?' ? false :
				   !has_sub || !is(sub, subn, rs))
			continue;
		if (strcmp(rows[i].name, "*") == 0 ||
		    is(name, namen, rows[i].name))
			return (enum gitexec_kind)rows[i].kind;
	}
	return GITEXEC_NONE;
}

enum gitexec_kind gitexec_key(const char *key, size_t n)
{
	const char *first = memchr(key, '.', n), *last = NULL;

	if (!first)
		return GITEXEC_NONE;
	for (const char *p = key + n; p > first; p--)
		if (p[-1] == '.') {
			last = p - 1;
			break;
		}
	return gitexec_match(key, (size_t)(first - key), first + 1,
			     last > first ? (size_t)(last - first - 1) : 0,
			     last > first, last + 1,
			     (size_t)(key + n - last - 1));
}

bool gitexec_value_runs(enum gitexec_kind k, const char *val, size_t n)
{
	size_t i = 0;

	if (k != GITEXEC_BANG)
		return k != GITEXEC_NONE;
	while (i < n && (val[i] == ' ' || val[i] == '\t' || val[i] == '"'))
		i++;
	return i < n && (val[i] == '!' || val[i] == '\\');
}

bool gitexec_row(size_t i, char *out, size_t cap, enum gitexec_kind *kind)
{
	int w;

	if (i >= sizeof(rows) / sizeof(rows[0]))
		return false;
	w = snprintf(out, cap, "%s.%s.%s", rows[i].sec, rows[i].sub,
		     rows[i].name);
	*kind = (enum gitexec_kind)rows[i].kind;
	return w >= 0 && (size_t)w < cap;
}
