/* commands — what cordon knows about individual commands whose judgement
 * needs more than words and flags: paths (rm, chmod, mv, dd, find,
 * redirections), payloads (shells, eval, xargs, ssh, interpreters, git -c)
 * and wrappers (sudo, env, timeout …), whose own option grammars are in the
 * wrapper table below. Words-and-flags knowledge is in cmdtab.c.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "classify_int.h"
#include "codescan.h"
#include "wrappers.h"
#include "banned.h"

typedef void handler_fn(struct cx *x, struct wv *argv, size_t argc,
			const struct sh_redir *redirs, struct cinfo *ci);

static handler_fn *find_handler(const char *name, size_t n);
static void h_shell(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);

/* ---- small helpers ------------------------------------------------------------ */

static bool is_opt(const struct wv *w)
{
	return w->n > 1 && w->s[0] == '-' && classify_word_static(w);
}

static bool is_dashdash(const struct wv *w)
{
	return w->n == 2 && w->s[0] == '-' && w->s[1] == '-' && classify_word_static(w);
}

/* "--name" or "--name=value": returns the value (or NULL) via *val. */
static bool long_opt(const struct wv *w, const char *name, const char **val,
		     size_t *vn)
{
	size_t n = strlen(name);

	if (w->n < n || memcmp(w->s, name, n) != 0)
		return false;
	if (w->n == n) {
		if (val)
			*val = NULL;
		return true;
	}
	if (w->s[n] != '=')
		return false;
	if (val) {
		*val = w->s + n + 1;
		*vn = w->n - n - 1;
	}
	return true;
}

/* Is the command name (name, n) exactly lit? */
static bool name_is(const char *name, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n == k && memcmp(name, lit, k) == 0;
}

/* GNU getopt takes any unambiguous prefix of a long option: "--rec" is
 * "--recursive". min is the shortest prefix accepted (with the dashes). */
static bool long_abbrev(const struct wv *w, const char *opt, size_t min)
{
	size_t n = w->n;
	const char *eq = memchr(w->s, '=', w->n);

	if (eq)
		n = (size_t)(eq - w->s);
	return classify_word_static(w) && n >= min && n <= strlen(opt) &&
	       memcmp(w->s, opt, n) == 0;
}

/* Is short flag c in the cluster w ("-rf")? Only for clusters of letters. */
static bool cluster_has(const struct wv *w, char c)
{
	if (!is_opt(w) || w->s[1] == '-')
		return false;
	for (size_t i = 1; i < w->n; i++)
		if (w->s[i] == c)
			return true;
	return false;
}

static uint64_t class_labels(enum path_class pc)
{
	switch (pc) {
	case PATH_ROOT:
		return CORDON_L(ROOT_PATH);
	case PATH_HOME_ROOT:
		return CORDON_L(HOME_PATH) | CORDON_L(OUTSIDE_WORKSPACE);
	case PATH_HOME:
		return CORDON_L(HOME_PATH) | CORDON_L(OUTSIDE_WORKSPACE);
	case PATH_SYSTEM:
		return CORDON_L(SYSTEM_PATH) | CORDON_L(OUTSIDE_WORKSPACE);
	case PATH_OUTSIDE:
		return CORDON_L(OUTSIDE_WORKSPACE);
	case PATH_DEVICE:
		return CORDON_L(DISK);
	default:
		return 0;
	}
}

/* /etc, /boot, /usr, the binaries and libraries: writing there changes the
 * system itself. Other system places (/var, /opt, /srv …) are rated one
 * tier lower. */
static bool core_system(const char *abs)
{
	static const char *const core[] = {"/etc", "/boot", "/usr", "/bin",
					   "/sbin", "/lib", "/lib32", "/lib64",
					   "/libx32", "/sys", "/proc", "/root",
					   "/System", "/Library", "/private/etc",
					   "/dev"};
	for (size_t i = 0; i < sizeof(core) / sizeof(*core); i++)
		if (path_under(abs, core[i]))
			return true;
	return false;
}

static bool is_history_file(const char *abs)
{
	const char *b = strrchr(abs, '/');
	b = b ? b + 1 : abs;
	return strcmp(b, ".bash_history") == 0 || strcmp(b, ".zsh_history") == 0 ||
	       strcmp(b, ".history") == 0 || strcmp(b, "fish_history") == 0 ||
	       strcmp(b, ".sh_history") == 0 || strcmp(b, ".python_history") == 0;
}

/* Joins argv[from..argc) with spaces (static text only). */
static const char *join(struct cx *x, struct wv *argv, size_t from, size_t argc,
			size_t *n, bool *dynamic)
{
	size_t len = 0;
	*dynamic = false;
	for (size_t i = from; i < argc; i++) {
		len += argv[i].n + 1;
		if (!classify_word_static(&argv[i]))
			*dynamic = true;
	}
	char *s = arena_alloc(x->a, len + 1);
	if (!s) {
		x->v->oom = true;
		*n = 0;
		return "";
	}
	size_t o = 0;
	for (size_t i = from; i < argc; i++) {
		if (o)
			s[o++] = ' ';
		memcpy(s + o, argv[i].s, argv[i].n);
		o += argv[i].n;
	}
	s[o] = '\0';
	*n = o;
	return s;
}

/* Classifies the text of word w as a shell program. */
static void payload_word(struct cx *x, const struct wv *w, uint64_t labels,
			 const char *why)
{
	if (!classify_word_static(w) && !(w->f & WV_DECODED)) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DYNAMIC_COMMAND) | labels,
		       "payload.dynamic",
		       "runs a command built at run time that cordon cannot read");
		if (w->dyn_at == 0)
			return;
	}
	classify_payload(x, w->s, w->n, labels, why);
}

/* ---- downloaded files ------------------------------------------------------ */

/* Remembers a file a download wrote, to recognise it being run later on
 * the same line (curl -o x.sh URL && sh x.sh). */
static void note_download(struct cx *x, const struct wv *w)
{
	const char *abs;

	if (!classify_word_static(w) || x->ndownloads >= sizeof(x->downloads) / sizeof(*x->downloads))
		return;
	(void)classify_path(x, w, &abs);
	if (abs)
		x->downloads[x->ndownloads++] = abs;
}

/* curl -o FILE, wget -O FILE: the file is written (judged as any other
 * write: a shell startup file, outside the workspace …) and remembered as
 * downloaded. "-" is stdout. */
static void download_to(struct cx *x, const struct wv *w)
{
	if (w->n == 1 && w->s[0] == '-')
		return;
	commands_write_target(x, w, true, "downloads to");
	note_download(x, w);
}

/* Remembers a file written on this line with text cordon knows
 * (echo 'cmd' > x.sh, cat <<EOF > x.sh). */
static void note_written(struct cx *x, const struct sh_redir *redirs,
			 const struct cinfo *ci)
{
	if (!(ci->f & CI_TEXT) || !ci->text)
		return;
	for (const struct sh_redir *r = redirs; r; r = r->next) {
		if (r->op != SH_R_OUT && r->op != SH_R_APPEND && r->op != SH_R_CLOBBER &&
		    r->op != SH_R_ALL && r->op != SH_R_ALL_APPEND)
			continue;
		if (r->fd > 1 || x->nwritten >= sizeof(x->written) / sizeof(*x->written))
			continue;
		struct wv t = classify_eval(x, r->target);
		const char *abs = classify_word_static(&t) ? classify_abs(x, &t) : NULL;
		if (!abs)
			continue;
		x->written[x->nwritten].path = abs;
		x->written[x->nwritten].text = ci->text;
		x->written[x->nwritten].len = ci->tlen;
		x->nwritten++;
	}
}

/* Running a file that a download on this line wrote runs remote code;
 * running one that was written with known text runs that text (lang is
 * -1 for a shell, else the interpreter's enum code_lang). */
static void check_downloaded_as(struct cx *x, const struct wv *w, int lang);

static void check_downloaded(struct cx *x, const struct wv *w)
{
	check_downloaded_as(x, w, -1);
}

static void check_downloaded_as(struct cx *x, const struct wv *w, int lang)
{
	const char *abs;

	if ((!x->ndownloads && !x->nwritten) || !classify_word_static(w))
		return;
	abs = classify_abs(x, w);
	for (unsigned i = 0; abs && i < x->nwritten; i++)
		if (strcmp(abs, x->written[i].path) == 0) {
			if (lang < 0)
				classify_payload(x, x->written[i].text, x->written[i].len,
					   CORDON_L(RUNS_SCRIPT),
					   "a script written on this line");
			else
				classify_code(x, lang, x->written[i].text, x->written[i].len);
			break;
		}
	for (unsigned i = 0; abs && i < x->ndownloads; i++)
		if (strcmp(abs, x->downloads[i]) == 0) {
			classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(REMOTE_CODE),
			       "remote-code.downloaded-file",
			       "runs a file that was just downloaded");
			return;
		}
}

/* ---- deletion, writes and paths ------------------------------------------ */

/* A glob whose last component is "*" or ".*" takes everything in its
 * directory. */
static bool glob_takes_all(const struct wv *w)
{
	const char *s = w->s;
	size_t n = w->n;
	const char *last = s;

	if (!(w->f & WV_GLOB))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' && i + 1 < n)
			last = s + i + 1;
	size_t ln = n - (size_t)(last - s);
	if (ln && last[ln - 1] == '/')
		ln--;
	return (ln == 1 && last[0] == '*') || (ln == 2 && last[0] == '.' && last[1] == '*');
}

static void judge_delete_capped(struct cx *x, const struct wv *w, bool recursive,
				bool force, const char *verb, enum cordon_risk cap);

static void judge_delete(struct cx *x, const struct wv *w, bool recursive,
			 bool force, const char *verb)
{
	judge_delete_capped(x, w, recursive, force, verb, CORDON_RISK_BLOCKED);
}

/* classify_hit, but never above cap. */
static void hit_capped(struct cx *x, enum cordon_risk cap, enum cordon_risk tier,
		       uint64_t labels, const char *rule, const char *reason)
{
	classify_hit(x, tier > cap ? cap : tier, labels, rule, reason);
}

static void judge_delete_capped(struct cx *x, const struct wv *w, bool recursive,
				bool force, const char *verb, enum cordon_risk cap)
{
	const char *abs = NULL;
	uint64_t base = (recursive ? CORDON_L(DELETE_RECURSIVE) : CORDON_L(DELETE)) |
			(force ? CORDON_L(FORCE) : 0);

	if (w->f & WV_GLOB)
		base |= CORDON_L(WILDCARD);
	if (!classify_word_static(w) && !(w->f & WV_DECODED)) {
		/* The static part before the unknown may still say enough:
		 * rm -rf "$DIR/" with DIR empty is rm -rf /. */
		/* fed by xargs or find -exec, it deletes a stream of paths */
		hit_capped(x, cap,
			   recursive ? CORDON_RISK_DESTRUCTIVE : CORDON_RISK_CAUTION,
			   base, "delete.dynamic",
			   recursive ? "deletes recursively a path decided at run time"
			   : x->batch ? "deletes every path it is fed"
				      : "deletes a path decided at run time");
		return;
	}
	enum path_class pc = classify_path(x, w, &abs);
	if (!abs)
		return;
	uint64_t l = base | class_labels(pc);
	if (is_history_file(abs))
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l | CORDON_L(HISTORY_WIPE),
		       "history.delete", "deletes shell history");
	switch (pc) {
	case PATH_ROOT:
	case PATH_HOME_ROOT:
		hit_capped(x, cap, recursive ? CORDON_RISK_BLOCKED : CORDON_RISK_DESTRUCTIVE,
		       l, pc == PATH_ROOT ? "rm.root" : "rm.home",
		       verdict_printf(x->v, "%s %s", verb,
				      pc == PATH_ROOT ? "the root directory"
						      : "the home directory"));
		break;
	case PATH_SYSTEM:
		hit_capped(x, cap,
			   recursive || core_system(abs) ? CORDON_RISK_BLOCKED
							 : CORDON_RISK_DESTRUCTIVE,
		       l, "rm.system",
		       verdict_printf(x->v, "%s a system path (%s)", verb, abs));
		break;
	case PATH_DEVICE:
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l, "rm.device",
		       verdict_printf(x->v, "%s a device node (%s)", verb, abs));
		break;
	case PATH_HOME:
	case PATH_OUTSIDE:
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l, "rm.outside",
		       verdict_printf(x->v, "%s outside the workspace (%s)", verb, abs));
		break;
	case PATH_WORKSPACE_ROOT:
		if (recursive || glob_takes_all(w))
			hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE,
				   l | CORDON_L(DATA_LOSS), "rm.workspace-root",
				   verdict_printf(x->v, "%s everything in the workspace", verb));
		else
			hit_capped(x, cap, CORDON_RISK_CAUTION, l,
				   (w->f & WV_GLOB) ? "rm.wildcard" : "rm.file",
				   verdict_printf(x->v, (w->f & WV_GLOB)
						? "%s files matching a wildcard"
						: "%s a file", verb));
		break;
	case PATH_WORKSPACE:
	case PATH_TMP:
		if (recursive || (w->f & WV_GLOB))
			hit_capped(x, cap,
			       recursive || glob_takes_all(w) ? CORDON_RISK_DESTRUCTIVE
							      : CORDON_RISK_CAUTION,
			       l, recursive ? "rm.recursive" : "rm.wildcard",
			       verdict_printf(x->v, recursive ? "%s recursively"
							    : "%s files matching a wildcard",
					      verb));
		else
			hit_capped(x, cap, CORDON_RISK_CAUTION, l, "rm.file",
			       verdict_printf(x->v, "%s a file", verb));
		break;
	case PATH_DEV_HARMLESS:
		break;
	}
}

void commands_write_target(struct cx *x, const struct wv *w, bool truncates,
		     const char *how)
{
	const char *abs = NULL;

	if (!classify_word_static(w) && !(w->f & WV_DECODED)) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(OVERWRITE), "write.dynamic",
		       verdict_printf(x->v, "%s a path decided at run time", how));
		return;
	}
	if (w->n >= 9 && (memcmp(w->s, "/dev/tcp/", 9) == 0 ||
			  memcmp(w->s, "/dev/udp/", 9) == 0)) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NETWORK), "net.dev-tcp",
		       "opens a network connection through /dev/tcp");
		return;
	}
	enum path_class pc = classify_path(x, w, &abs);
	if (!abs)
		return;
	uint64_t l = class_labels(pc);
	int later = path_runs_later(&x->pc, abs);
	if (truncates && is_history_file(abs))
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(HISTORY_WIPE),
		       "history.truncate", "empties shell history");
	switch (pc) {
	case PATH_DEV_HARMLESS:
		return;
	case PATH_DEVICE:
		classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(DISK), "write.device",
		       verdict_printf(x->v, "%s a raw disk device (%s)", how, abs));
		return;
	case PATH_ROOT:
	case PATH_SYSTEM:
		if (core_system(abs) || pc == PATH_ROOT)
			classify_hit(x, CORDON_RISK_BLOCKED,
			       l | CORDON_L(WRITES_OUTSIDE_WORKSPACE), "write.system",
			       verdict_printf(x->v, "%s a system file (%s)", how, abs));
		else
			classify_hit(x, CORDON_RISK_DESTRUCTIVE,
			       l | CORDON_L(WRITES_OUTSIDE_WORKSPACE), "write.system-data",
			       verdict_printf(x->v, "%s a system path (%s)", how, abs));
		break;
	case PATH_HOME:
	case PATH_HOME_ROOT:
	case PATH_OUTSIDE:
		classify_hit(x, CORDON_RISK_CAUTION, l | CORDON_L(WRITES_OUTSIDE_WORKSPACE),
		       "write.outside",
		       verdict_printf(x->v, "%s outside the workspace (%s)", how, abs));
		break;
	default:
		break;
	}
	if (later == 1)
		classify_hit(x, CORDON_RISK_DESTRUCTIVE,
		       CORDON_L(SHELL_RC) | CORDON_L(PERSISTENCE), "write.shell-rc",
		       verdict_printf(x->v, "%s a shell startup file (%s)", how, abs));
	else if (later == 2)
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(PERSISTENCE),
		       "write.persistence",
		       verdict_printf(x->v, "%s a file that runs later (%s)", how, abs));
	else if (path_is_secret(abs)) {
		/* replacing a key outside the workspace loses it; a .env
		 * in the workspace is written from a template every day */
		bool loses = truncates && pc != PATH_WORKSPACE && pc != PATH_WORKSPACE_ROOT &&
			     pc != PATH_TMP;
		classify_hit(x, loses ? CORDON_RISK_DESTRUCTIVE : CORDON_RISK_CAUTION,
		       CORDON_L(SECRETS) | (loses ? CORDON_L(DATA_LOSS) : 0),
		       "write.secrets",
		       verdict_printf(x->v, "%s a credential file (%s)", how, abs));
	}
}

/* A file that now holds a copy of a credential (cp id_rsa /tmp/k,
 * base64 id_rsa > k.txt): sending it later is sending the secret. */
static void note_secret_file(struct cx *x, const struct wv *w)
{
	const char *abs;

	if (!classify_word_static(w) ||
	    x->nsecret_files >= sizeof(x->secret_files) / sizeof(*x->secret_files))
		return;
	abs = classify_abs(x, w);
	if (abs)
		x->secret_files[x->nsecret_files++] = abs;
}

/* Credentials named as operands: reading them is worth a look, sending
 * them anywhere is exfiltration (decided by the callers). */
static bool operand_secret(struct cx *x, const struct wv *w)
{
	const char *abs;
	const char *s = w->s;
	size_t n = w->n;

	if (!classify_word_static(w) || n == 0)
		return false;
	/* --file=PATH, name=@PATH, @PATH */
	const char *eq = memchr(s, '=', n);
	if (s[0] == '-' && eq) {
		n -= (size_t)(eq + 1 - s);
		s = eq + 1;
	}
	const char *at = memchr(s, '@', n);
	if (at && (at == s || at[-1] == '=')) {
		n -= (size_t)(at + 1 - s);
		s = at + 1;
	} else if (s[0] == '-') {
		return false;
	}
	if (n == 0 || memchr(s, ':', n) || (n > 4 && memcmp(s, "http", 4) == 0))
		return false;
	struct wv t = classify_lit(s, n);
	t.f = w->f & WV_TILDE;
	abs = classify_abs(x, &t);
	if (!abs)
		return false;
	for (unsigned i = 0; i < x->nsecret_files; i++)
		if (strcmp(abs, x->secret_files[i]) == 0)
			return true;
	return path_is_secret(abs);
}

/* Commands that take file names and read the files. A bare word such as
 * "secrets" is only a path for them (kubectl get secrets is not a read). */
static bool reads_files(const char *name, size_t n)
{
	static const char *const readers[] = {
		"cat", "less", "more", "head", "tail", "bat", "batcat", "strings",
		"xxd", "od", "hexdump", "base64", "grep", "egrep", "fgrep", "rg",
		"cp", "scp", "rsync", "nano", "vi", "vim", "nvim", "emacs", "code",
		"source", ".", "sort", "uniq", "awk", "sed", "jq", "yq", "tac",
		"nl", "diff", "openssl", "gpg", "zip", "tar", "curl", "wget",
		"xclip", "pbcopy", "sh", "bash", "python", "python3", "node"};
	for (size_t i = 0; i < sizeof(readers) / sizeof(*readers); i++)
		if (readers[i][0] == name[0] && strlen(readers[i]) == n &&
		    memcmp(readers[i], name, n) == 0)
			return true;
	return false;
}

/* Commands whose operands are never file contents read: names, refs,
 * text. */
static bool never_reads(const char *name, size_t n)
{
	static const char *const names[] = {"echo", "printf", "git", "ls",
					    "touch", "mkdir", "test", "[",
					    "stat", "file", "which", "type",
					    "ssh-keygen", "ssh-add", "chmod",
					    "chown", "rm", "shred", "mv"};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (names[i][0] == name[0] && strlen(names[i]) == n &&
		    memcmp(names[i], name, n) == 0)
			return true;
	return false;
}

/* Secrets on their way out: a secret in an argument ($GITHUB_TOKEN, a
 * variable read from id_rsa), on stdin, or in a file a network command
 * sends, and copies of secrets written to files for later. */
static void secrets_out(struct cx *x, struct wv *argv, size_t argc,
			const struct sh_redir *redirs, struct cinfo *ci,
			const char *name, size_t n)
{
	bool arg_secret = false;

	for (size_t i = 1; i < argc; i++)
		if (argv[i].f & WV_SECRET)
			arg_secret = true;
	if (name_is(name, n, "gpg"))
		for (size_t i = 1; i < argc; i++)
			if (long_opt(&argv[i], "--export-secret-keys", NULL, NULL) ||
			    long_opt(&argv[i], "--export-secret-subkeys", NULL, NULL))
				arg_secret = true;
	if (arg_secret) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS), "secrets.arg",
		       "handles a secret (a token, key or password)");
		ci->f |= CI_SECRETS;
	}
	if (((ci->f & (CI_SECRETS | CI_STDIN_SECRET)) &&
	     (ci->f & (CI_NETSEND | CI_NETCAT))) ||
	    (arg_secret && (ci->f & CI_NETWORK)))
		classify_hit(x, CORDON_RISK_DESTRUCTIVE,
		       CORDON_L(EXFILTRATION) | CORDON_L(SECRETS) | CORDON_L(NETWORK),
		       "exfil.send", "sends a secret over the network");
	if (ci->f & CI_SECRETS)
		for (const struct sh_redir *r = redirs; r; r = r->next)
			if ((r->op == SH_R_OUT || r->op == SH_R_APPEND ||
			     r->op == SH_R_CLOBBER) && r->fd <= 1) {
				struct wv t = classify_eval(x, r->target);
				note_secret_file(x, &t);
			}
}

static void secrets_pass(struct cx *x, struct wv *argv, size_t argc,
			 struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool reader = reads_files(name, n);
	bool ssh = (n == 3 && (memcmp(name, "ssh", 3) == 0 || memcmp(name, "scp", 3) == 0)) ||
		   (name_is(name, n, "sftp"));

	if (never_reads(name, n))
		return;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (ssh && classify_word_is(w, "-i")) {
			i++; /* the identity ssh is meant to use */
			continue;
		}
		if (!reader && w->n && w->s[0] != '/' && w->s[0] != '.' &&
		    w->s[0] != '~' && !(w->f & WV_TILDE) && w->s[0] != '@' &&
		    !memchr(w->s, '/', w->n) && !memchr(w->s, '@', w->n))
			continue;
		if (memchr(w->s, ' ', w->n) || memchr(w->s, '\n', w->n))
			continue;
		if (operand_secret(x, &argv[i])) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS_READ),
			       "secrets.read", "reads a credential file");
			ci->f |= CI_SECRETS;
			return;
		}
	}
}

/* ---- redirections -------------------------------------------------------------- */

static const char *heredoc_text(struct cx *x, const struct sh_redir *r, size_t *n)
{
	if (r->op == SH_R_HERESTRING) {
		struct wv w = classify_eval(x, r->target);
		*n = w.n;
		return w.s;
	}
	*n = r->body_len;
	return r->body ? r->body : "";
}

static void judge_redirs(struct cx *x, const struct sh_redir *redirs,
			 struct cinfo *ci, bool shell)
{
	for (const struct sh_redir *r = redirs; r; r = r->next) {
		struct wv t = classify_eval(x, r->target);
		if (shell && (r->op == SH_R_DUP_IN || r->op == SH_R_DUP_OUT) &&
		    classify_word_static(&t)) {
			/* exec 5<>/dev/tcp/h/p earlier; sh <&5 now */
			long fd = strtol(t.s, NULL, 10);
			for (unsigned k = 0; k < x->ntcp; k++)
				if (fd == x->tcp_fds[k])
					classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(REVERSE_SHELL),
					       "reverse-shell.fd",
					       "connects a shell to a network socket (reverse shell)");
		}
		bool tcp = t.n >= 9 && (memcmp(t.s, "/dev/tcp/", 9) == 0 ||
					memcmp(t.s, "/dev/udp/", 9) == 0);
		if (tcp) {
			ci->f |= CI_NETWORK | CI_NETSEND;
			if (r->fd > 2 && x->ntcp < sizeof(x->tcp_fds) / sizeof(*x->tcp_fds))
				x->tcp_fds[x->ntcp++] = r->fd;
			if (shell)
				classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(REVERSE_SHELL),
				       "reverse-shell.dev-tcp",
				       "connects a shell to a network socket (reverse shell)");
			else
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NETWORK),
				       "net.dev-tcp",
				       "opens a network connection through /dev/tcp");
			continue;
		}
		switch (r->op) {
		case SH_R_OUT:
		case SH_R_CLOBBER:
		case SH_R_ALL:
			commands_write_target(x, &t, true, "overwrites");
			break;
		case SH_R_APPEND:
		case SH_R_ALL_APPEND:
		case SH_R_RDWR:
			commands_write_target(x, &t, false, "writes to");
			break;
		case SH_R_IN:
			if (operand_secret(x, &t)) {
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS_READ),
				       "secrets.read", "reads a credential file");
				ci->f |= CI_SECRETS | CI_STDIN_SECRET;
			}
			break;
		default:
			break;
		}
	}
}

/* What runs the here-doc / here-string / input file it is given. */
static void feed_stdin(struct cx *x, const struct sh_redir *redirs,
		       struct cinfo *ci)
{
	for (const struct sh_redir *r = redirs; r; r = r->next) {
		if (r->fd > 0)
			continue;
		/* bash < <(curl …), sh <<< "$(curl …)": what it reads runs */
		if ((ci->f & (CI_RUNS_STDIN | CI_CODE_STDIN)) &&
		    (r->op == SH_R_IN || r->op == SH_R_RDWR || r->op == SH_R_HEREDOC ||
		     r->op == SH_R_HERESTRING))
			ci->f |= CI_EXEC_ARGS;
		if (r->op == SH_R_IN || r->op == SH_R_RDWR) {
			if (ci->f & (CI_RUNS_STDIN | CI_CODE_STDIN))
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT),
				       "runs-script.stdin", "runs a script read from a file");
			ci->f &= ~(CI_RUNS_STDIN | CI_CODE_STDIN | CI_SQL_STDIN);
			continue;
		}
		if (r->op != SH_R_HEREDOC && r->op != SH_R_HERESTRING)
			continue;
		size_t n;
		const char *text = heredoc_text(x, r, &n);
		if (ci->f & CI_RUNS_STDIN)
			classify_payload(x, text, n, CORDON_L(NESTED_SHELL),
				   "a here-document fed to a shell");
		else if (ci->f & CI_CODE_STDIN)
			classify_code(x, ci->lang, text, n);
		else if (ci->f & CI_SQL_STDIN)
			classify_sql(x, text, n);
		ci->f &= ~(CI_RUNS_STDIN | CI_CODE_STDIN | CI_SQL_STDIN);
		ci->f |= CI_TEXT;
		ci->text = text;
		ci->tlen = n;
	}
}

/* ---- wrappers ------------------------------------------------------------------ */

/* wrappers_scan reads the classifier's words: one with parts known only
 * at run time is dynamic. */
static bool scan_word(const void *ctx, size_t i, const char **s, size_t *n)
{
	const struct wv *w = (const struct wv *)ctx + i;

	if (!classify_word_static(w))
		return false;
	*s = w->s;
	*n = w->n;
	return true;
}

/* The wrapper h_wrapper reads for argv (base name, n), or NULL: shells,
 * runners and the wrappers with handlers of their own are not. */
static const struct wrapper *find_wrapper(struct wv *argv, size_t argc,
					  const char *name, size_t n)
{
	const struct wv *sub = argc > 1 && classify_word_static(&argv[1]) ?
				       &argv[1] :
				       NULL;
	const struct wrapper *w = wrappers_find(name, n, sub ? sub->s : NULL,
						sub ? sub->n : 0);

	if (!w || w->kind != WRAPPER_RUNS || (w->flags & WF_HANDLER))
		return NULL;
	return w;
}

/* sudo -D DIR, sudo --chdir=DIR, unshare --wd=DIR: the command runs in
 * DIR, so its relative paths are judged from there. */
static void wrapper_chdir(struct cx *x, const struct wrapper *wr,
			  struct wv *argv, size_t argc)
{
	for (size_t k = 1; k < argc && is_opt(&argv[k]); k++) {
		const struct wv *w = &argv[k];
		const char *val = NULL;
		size_t vn = 0;
		struct wv d;
		if ((classify_word_is(w, "-D") || classify_word_is(w, "--chdir") || classify_word_is(w, "-w") ||
		     classify_word_is(w, "--wd")) && k + 1 < argc &&
		    (strcmp(wr->name, "sudo") == 0 || strcmp(wr->name, "unshare") == 0 ||
		     strcmp(wr->name, "nsenter") == 0)) {
			d = argv[k + 1];
		} else if (long_opt(w, "--chdir", &val, &vn) && val) {
			d = classify_lit(val, vn);
		} else if (long_opt(w, "--wd", &val, &vn) && val) {
			d = classify_lit(val, vn);
		} else {
			continue;
		}
		if (!classify_word_static(&d)) {
			x->pc.cwd = "/nonexistent-cwd";
			continue;
		}
		const char *abs = classify_abs(x, &d);
		if (abs)
			x->pc.cwd = abs;
	}
}

static void h_wrapper(struct cx *x, const struct wrapper *wr, struct wv *argv,
		      size_t argc, const struct sh_redir *redirs, struct cinfo *ci)
{
	struct wrapper_scan sc;
	size_t i;
	bool shell_flag = false;

	if (wr->tier != CORDON_RISK_SAFE || wr->labels)
		classify_hit(x, wr->tier, wr->labels, wr->rule, wr->reason);
	wrappers_scan(wr, argc, scan_word, argv, &sc);
	if (sc.payload < argc) {
		struct wv t = argv[sc.payload];
		t.s += sc.payload_off;
		t.n -= sc.payload_off;
		payload_word(x, &t, 0, "the command line given to a wrapper");
		return;
	}
	if (strcmp(wr->name, "sudo") == 0 || strcmp(wr->name, "doas") == 0) {
		/* the options end where the scan says, not at the first
		 * option's value (sudo -u root -s) */
		size_t opt_end = sc.opt_end;
		for (size_t k = 1; k < opt_end; k++)
			if (cluster_has(&argv[k], 's') || cluster_has(&argv[k], 'i') ||
			    long_opt(&argv[k], "--shell", NULL, NULL) ||
			    long_opt(&argv[k], "--login", NULL, NULL))
				shell_flag = true;
		for (size_t k = 1; k < opt_end; k++)
			if (cluster_has(&argv[k], 'e') ||
			    long_opt(&argv[k], "--edit", NULL, NULL)) {
				/* sudoedit: the operands are files it writes */
				for (size_t j = opt_end; j < argc; j++)
					commands_write_target(x, &argv[j], false, "edits");
				return;
			}
	}
	const char *cwd_before = x->pc.cwd;
	wrapper_chdir(x, wr, argv, argc);
	i = sc.assigns;
	/* sudo NAME=value cmd: the variables are set for cmd */
	while (i < argc && argv[i].w && classify_word_static(&argv[i]) && argv[i].n &&
	       (isalpha((unsigned char)argv[i].s[0]) || argv[i].s[0] == '_') &&
	       memchr(argv[i].s, '=', argv[i].n)) {
		size_t k = 0;
		while (k < argv[i].n && (isalnum((unsigned char)argv[i].s[k]) ||
					 argv[i].s[k] == '_'))
			k++;
		if (k >= argv[i].n || argv[i].s[k] != '=')
			break;
		classify_assign(x, argv[i].w);
		i++;
	}
	if (i >= argc) {
		judge_redirs(x, redirs, ci, false);
		if (shell_flag) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL),
			       "privilege.shell", "opens a shell as another user");
			ci->f |= CI_RUNS_STDIN;
		}
		return;
	}
	if (shell_flag) {
		/* sudo -s CMD runs CMD through the target user's shell */
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL),
		       "privilege.shell", "runs through a shell as another user");
	}
	classify_command(x, argv + i, argc - i, redirs, ci);
	x->pc.cwd = cwd_before;
}

static void h_env(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	while (i < argc) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if (is_dashdash(w)) {
			i++;
			break;
		}
		if (classify_word_is(w, "-S") || long_opt(w, "--split-string", &val, &vn)) {
			/* env -S 'cmd args': the string is the command line */
			if (classify_word_is(w, "-S")) {
				if (i + 1 < argc)
					payload_word(x, &argv[i + 1], 0,
						     "the command line given to env -S");
			} else if (val) {
				struct wv t = classify_lit(val, vn);
				payload_word(x, &t, 0, "the command line given to env -S");
			}
			return;
		}
		if (w->n > 2 && w->s[0] == '-' && w->s[1] == 'S') {
			struct wv t = classify_lit(w->s + 2, w->n - 2);
			payload_word(x, &t, 0, "the command line given to env -S");
			return;
		}
		/* -iS 'cmd': S at the end of a cluster takes the next word */
		if (is_opt(w) && w->s[1] != '-' && w->s[w->n - 1] == 'S' && i + 1 < argc) {
			payload_word(x, &argv[i + 1], 0, "the command line given to env -S");
			return;
		}
		if ((classify_word_is(w, "-C") || classify_word_is(w, "--chdir")) && i + 1 < argc) {
			/* the command runs there */
			const char *abs = classify_word_static(&argv[i + 1])
						  ? classify_abs(x, &argv[i + 1])
						  : "/nonexistent-cwd";
			if (abs)
				x->pc.cwd = abs;
			i += 2;
			continue;
		}
		if (long_opt(w, "--chdir", &val, &vn) && val) {
			struct wv d = classify_lit(val, vn);
			const char *abs = classify_abs(x, &d);
			if (abs)
				x->pc.cwd = abs;
			i++;
			continue;
		}
		if (classify_word_is(w, "-u") || classify_word_is(w, "--unset")) {
			i += 2;
			continue;
		}
		if (is_opt(w) || classify_word_is(w, "-")) {
			i++;
			continue;
		}
		if (w->w && memchr(w->s, '=', w->n) && w->s[0] != '=') {
			classify_assign(x, w->w);
			i++;
			continue;
		}
		break;
	}
	if (i >= argc) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS), "secrets.env-dump",
		       "prints the environment, which may hold secrets");
		ci->f |= CI_ENVDUMP;
		return;
	}
	classify_command(x, argv + i, argc - i, redirs, ci);
}

static void h_command(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	for (; i < argc && is_opt(&argv[i]); i++) {
		if (cluster_has(&argv[i], 'v') || cluster_has(&argv[i], 'V'))
			return; /* lookup only */
		if (is_dashdash(&argv[i])) {
			i++;
			break;
		}
	}
	if (i < argc)
		classify_command(x, argv + i, argc - i, redirs, ci);
}

/* ---- shells, eval, source ------------------------------------------------------ */

/* bash <(echo 'cmd') and source <(printf …): the program is the output of
 * the substitution, when that output is static. */
static bool procsub_payload(struct cx *x, const struct wv *w)
{
	const struct sh_wpart *pt = w->w ? w->w->parts : NULL;
	const char *o;
	size_t on;

	if (!pt || pt->next || pt->kind != SH_WP_PROCSUB_IN)
		return false;
	if (!classify_static_output(x, pt->body, &o, &on))
		return false;
	classify_payload(x, o, on, CORDON_L(NESTED_SHELL), "the output of a process substitution");
	return true;
}

static void bind_var(struct cx *x, const char *name, const char *val,
		     size_t vn, bool known)
{
	if (x->nvars >= CLASSIFY_MAX_VARS)
		return;
	unsigned k = x->nvars++;
	x->vars[k].name = name;
	x->vars[k].secret = false;
	x->vars[k].nlen = strlen(name);
	x->vars[k].val = known ? val : NULL;
	x->vars[k].vlen = vn;
}

/* $0 … $9, $@ and $* from argv[from..argc). */
static void bind_positional(struct cx *x, struct wv *argv, size_t from,
			    size_t argc)
{
	static const char *const digits[] = {"0", "1", "2", "3", "4",
					     "5", "6", "7", "8", "9"};
	if (from >= argc)
		return;
	for (size_t k = 0; k < 10 && from + k < argc; k++)
		bind_var(x, digits[k], argv[from + k].s, argv[from + k].n,
			 classify_word_static(&argv[from + k]));
	size_t jn;
	bool dyn;
	const char *j = join(x, argv, from + 1, argc, &jn, &dyn);
	bind_var(x, "@", j, jn, !dyn);
	bind_var(x, "*", j, jn, !dyn);
}

static void h_shell(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool has_c = false, interactive = false, read_stdin = false;

	while (i < argc) {
		const struct wv *w = &argv[i];
		if (is_dashdash(w) || classify_word_is(w, "-")) {
			i++;
			break;
		}
		if (!(w->n > 1 && (w->s[0] == '-' || w->s[0] == '+')) ||
		    !classify_word_static(w))
			break;
		if (w->s[1] == '-') {
			if (classify_word_is(w, "--rcfile") || classify_word_is(w, "--init-file") ||
			    classify_word_is(w, "--init-command"))
				i++;
			if (classify_word_is(w, "--command") || classify_word_is(w, "-command"))
				has_c = true;
			if (long_opt(w, "--command", NULL, NULL) && w->n > 9) {
				struct wv t = classify_lit(w->s + 10, w->n - 10);
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL),
				       "nested-shell", "starts a nested shell");
				payload_word(x, &t, CORDON_L(NESTED_SHELL),
					     "the command given to a shell");
				return;
			}
			i++;
			continue;
		}
		bool takes = false;
		for (size_t k = 1; k < w->n; k++) {
			if (w->s[k] == 'c')
				has_c = true;
			else if (w->s[k] == 'i')
				interactive = true;
			else if (w->s[k] == 's')
				read_stdin = true;
			else if (w->s[k] == 'o' || w->s[k] == 'O')
				takes = true;
		}
		i += takes ? 2 : 1;
	}
	(void)interactive;
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "nested-shell",
	       "starts a nested shell");
	judge_redirs(x, redirs, ci, true);
	if (has_c) {
		ci->f |= CI_EXEC_ARGS;
		if (i < argc) {
			/* sh -c 'CMD' $0 $1 …: the payload sees them as
			 * positional parameters ("$@" runs them) */
			unsigned saved = x->nvars;
			bind_positional(x, argv, i + 1, argc);
			payload_word(x, &argv[i], CORDON_L(NESTED_SHELL),
				     "the command given to a shell");
			x->nvars = saved;
		}
		return;
	}
	if (i < argc && (classify_word_is(&argv[i], "/dev/stdin") || classify_word_is(&argv[i], "/dev/fd/0") ||
			 classify_word_is(&argv[i], "/proc/self/fd/0")))
		read_stdin = true;
	if (i < argc && !read_stdin) {
		ci->f |= CI_EXEC_ARGS;
		if (procsub_payload(x, &argv[i]))
			return;
		check_downloaded(x, &argv[i]);
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT),
		       "runs-script.shell", "runs a shell script cordon has not read");
		return;
	}
	ci->f |= CI_RUNS_STDIN;
	feed_stdin(x, redirs, ci);
}

static void h_busybox(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	if (argc > 1)
		classify_command(x, argv + 1, argc - 1, redirs, ci);
}

static void h_eval(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	bool dyn;
	const char *s = join(x, argv, 1, argc, &n, &dyn);

	(void)redirs;
	ci->f |= CI_EXEC_ARGS;
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(EVAL), "eval",
	       "evaluates its arguments as a command");
	if (dyn)
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DYNAMIC_COMMAND),
		       "eval.dynamic", "evaluates text built at run time");
	if (n)
		classify_payload(x, s, n, CORDON_L(EVAL), "the text given to eval");
}

static void h_source(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	ci->f |= CI_EXEC_ARGS;
	if (argc < 2)
		return;
	const struct wv *w = &argv[1];
	if (procsub_payload(x, w))
		return;
	if ((w->f & WV_PROCSUB) || classify_word_is(w, "/dev/stdin") || classify_word_is(w, "-")) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "source.stream",
		       "runs commands from a stream");
		ci->f |= CI_RUNS_STDIN;
		feed_stdin(x, redirs, ci);
		return;
	}
	check_downloaded(x, w);
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT), "runs-script.source",
	       "runs a script in the current shell, where it can change anything the shell can");
}

static void h_alias(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const char *eq = memchr(argv[i].s, '=', argv[i].n);
		if (!eq)
			continue;
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(PERSISTENCE), "alias",
		       "defines an alias that changes what a name runs");
		struct wv t = argv[i];
		t.s = eq + 1;
		t.n = argv[i].n - (size_t)(eq + 1 - argv[i].s);
		payload_word(x, &t, 0, "the text of an alias");
	}
}

/* ---- batch executors ------------------------------------------------------------ */

/* Runs argv once per input item. repl ("{}") marks where an item goes;
 * with append_unknown an item is appended. item: the item's value when it
 * is known (find's root, parallel's ::: arguments), else unknown. */
static void run_template_item(struct cx *x, struct wv *argv, size_t argc,
			      const char *repl, bool append_unknown,
			      uint64_t labels, const struct wv *item);

static void run_template(struct cx *x, struct wv *argv, size_t argc,
			 const char *repl, bool append_unknown, uint64_t labels)
{
	run_template_item(x, argv, argc, repl, append_unknown, labels, NULL);
}

static void run_template_item(struct cx *x, struct wv *argv, size_t argc,
			      const char *repl, bool append_unknown,
			      uint64_t labels, const struct wv *item)
{
	struct wv *a = arena_alloc(x->a, (argc + 2) * sizeof(*a));
	struct cinfo ci;

	if (!a) {
		x->v->oom = true;
		return;
	}
	size_t n = 0;
	size_t rl = repl ? strlen(repl) : 0;
	for (size_t i = 0; i < argc; i++) {
		a[n] = argv[i];
		if (rl && argv[i].n >= rl && memmem(argv[i].s, argv[i].n, repl, rl)) {
			if (argv[i].n == rl) {
				a[n] = item ? *item : classify_unknown();
			} else {
				a[n].f |= WV_DYNAMIC;
				a[n].dyn_at = (size_t)((const char *)memmem(argv[i].s,
						argv[i].n, repl, rl) - argv[i].s);
			}
		}
		n++;
	}
	if (append_unknown)
		a[n++] = item ? *item : classify_unknown();
	memset(&ci, 0, sizeof(ci));
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(BATCH_EXEC) | labels, "batch-exec",
	       "runs a command for every input item");
	if (argc == 1 && argv[0].n && memchr(argv[0].s, ' ', argv[0].n)) {
		/* one quoted word: a command line, the item where {} is or at
		 * the end */
		struct wv line = argv[0];
		if (item && classify_word_static(item) && classify_word_static(&line)) {
			const char *at = rl ? memmem(line.s, line.n, repl, rl) : NULL;
			size_t pre = at ? (size_t)(at - line.s) : line.n;
			size_t post = at ? line.n - pre - rl : 0;
			char *t = arena_alloc_raw(x->a, line.n + item->n + 2);
			if (t) {
				memcpy(t, line.s, pre);
				size_t o = pre;
				if (!at)
					t[o++] = ' ';
				memcpy(t + o, item->s, item->n);
				o += item->n;
				memcpy(t + o, line.s + pre + (at ? rl : 0), post);
				o += post;
				t[o] = '\0';
				line = classify_lit(t, o);
			}
		}
		payload_word(x, &line, CORDON_L(BATCH_EXEC),
			     "the command line of a batch executor");
		return;
	}
	bool was = x->batch;
	x->batch = item == NULL;
	classify_command(x, a, n, NULL, &ci);
	x->batch = was;
}

static void h_xargs(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	const char *repl = NULL;

	(void)redirs;
	while (i < argc && is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if (is_dashdash(w)) {
			i++;
			break;
		}
		if (classify_word_is(w, "-I")) {
			if (i + 1 < argc)
				repl = arena_strndup(x->a, argv[i + 1].s, argv[i + 1].n);
			i += 2;
			continue;
		}
		if (w->n > 2 && w->s[1] == 'I') {
			repl = arena_strndup(x->a, w->s + 2, w->n - 2);
			i++;
			continue;
		}
		if (classify_word_is(w, "-i") || long_opt(w, "--replace", &val, &vn)) {
			repl = "{}";
			i++;
			continue;
		}
		if (w->n == 2 && strchr("LnPsdEa", w->s[1])) {
			i += 2;
			continue;
		}
		if (!memchr(w->s, '=', w->n) &&
		    (classify_word_is(w, "--max-procs") || classify_word_is(w, "--max-args") ||
		     classify_word_is(w, "--max-lines") || classify_word_is(w, "--arg-file") ||
		     classify_word_is(w, "--delimiter") || classify_word_is(w, "--eof") ||
		     classify_word_is(w, "--max-chars") || classify_word_is(w, "--process-slot-var"))) {
			i += 2;
			continue;
		}
		i++;
	}
	ci->f |= CI_EXEC_ARGS;
	if (i >= argc)
		return; /* xargs alone runs echo */
	size_t bn;
	const char *b = classify_cmd_base(&argv[i], &bn);
	if (find_handler(b, bn) == h_shell || wrappers_find_interp(b, bn))
		ci->f |= CI_RUNS_STDIN; /* curl … | xargs sh -c: the input runs */
	run_template(x, argv + i, argc - i, repl, repl == NULL, 0);
}

static void h_parallel(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1, end;

	(void)redirs;
	while (i < argc && is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		if (w->n == 2 && strchr("jSaIdC", w->s[1])) {
			i += 2;
			continue;
		}
		if (classify_word_is(w, "--jobs") || classify_word_is(w, "--sshlogin") ||
		    classify_word_is(w, "--arg-file") || classify_word_is(w, "--delay") ||
		    classify_word_is(w, "--timeout") || classify_word_is(w, "--joblog") ||
		    classify_word_is(w, "--results") || classify_word_is(w, "--colsep") ||
		    classify_word_is(w, "--halt")) {
			i += 2;
			continue;
		}
		i++;
	}
	for (end = i; end < argc; end++)
		if (classify_word_is(&argv[end], ":::") || classify_word_is(&argv[end], "::::") ||
		    classify_word_is(&argv[end], ":::+") || classify_word_is(&argv[end], "::::+"))
			break;
	if (end == i) {
		/* no command: every input line, or every ::: argument, is a
		 * command */
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(BATCH_EXEC), "batch-exec",
		       "runs every input line as a command");
		for (size_t k = end + 1, tried = 0; k < argc && tried < 16; k++, tried++)
			payload_word(x, &argv[k], CORDON_L(BATCH_EXEC),
				     "a command run by parallel");
		if (end >= argc)
			ci->f |= CI_RUNS_STDIN;
		return;
	}
	bool has_repl = false;
	for (size_t k = i; k < end; k++)
		if (memmem(argv[k].s, argv[k].n, "{}", 2))
			has_repl = true;
	/* The arguments after ::: are known: try each (a few). */
	size_t tried = 0;
	for (size_t k = end + 1; k < argc && tried < 16; k++) {
		if (classify_word_is(&argv[k], ":::") || classify_word_is(&argv[k], "::::"))
			break;
		run_template_item(x, argv + i, end - i, "{}", !has_repl, 0, &argv[k]);
		tried++;
	}
	if (!tried)
		run_template(x, argv + i, end - i, "{}", !has_repl, 0);
}

static void h_find(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	size_t roots_from, roots_to;

	(void)redirs;
	(void)ci;
	while (i < argc && (classify_word_is(&argv[i], "-H") || classify_word_is(&argv[i], "-L") ||
			    classify_word_is(&argv[i], "-P")))
		i++;
	if (i < argc && classify_word_is(&argv[i], "-D"))
		i += 2;
	while (i < argc && argv[i].n >= 2 && argv[i].s[0] == '-' && argv[i].s[1] == 'O')
		i++; /* -O0 … -O3 */
	roots_from = i;
	while (i < argc && argv[i].n && argv[i].s[0] != '-' &&
	       !classify_word_is(&argv[i], "(") && !classify_word_is(&argv[i], "!") &&
	       !classify_word_is(&argv[i], ")"))
		i++;
	roots_to = i;
	/* With a test (-name, -type, -mtime …) find -delete removes what
	 * matches, not the whole tree: never blocked, still destructive. */
	enum cordon_risk cap = CORDON_RISK_BLOCKED;
	static const char *const not_tests[] = {
		"-delete", "-depth", "-xdev", "-mount", "-print", "-print0",
		"-maxdepth", "-mindepth", "-ls", "-follow", "-noleaf", "-d"};
	for (size_t k = roots_to; k < argc; k++) {
		const struct wv *w = &argv[k];
		if (classify_word_is(w, "-exec") || classify_word_is(w, "-execdir") || classify_word_is(w, "-ok") ||
		    classify_word_is(w, "-okdir")) {
			while (k < argc && !classify_word_is(&argv[k], ";") && !classify_word_is(&argv[k], "+"))
				k++;
			continue;
		}
		if (w->n < 2 || w->s[0] != '-')
			continue;
		bool test = true;
		for (size_t t = 0; t < sizeof(not_tests) / sizeof(*not_tests); t++)
			if (classify_word_is(w, not_tests[t]))
				test = false;
		if (classify_word_is(w, "-maxdepth") || classify_word_is(w, "-mindepth"))
			k++;
		if (test)
			cap = CORDON_RISK_DESTRUCTIVE;
	}
	/* … and a filtered clean-up of temporary files only asks for a look */
	bool all_tmp = roots_to > roots_from && cap == CORDON_RISK_DESTRUCTIVE;
	for (size_t r = roots_from; r < roots_to && all_tmp; r++) {
		const char *abs;
		enum path_class pc = classify_word_static(&argv[r]) ? classify_path(x, &argv[r], &abs)
							 : PATH_OUTSIDE;
		all_tmp = pc == PATH_TMP ||
			  (pc == PATH_SYSTEM && abs &&
			   (strcmp(abs, "/tmp") == 0 || strcmp(abs, "/var/tmp") == 0));
	}
	if (all_tmp)
		cap = CORDON_RISK_CAUTION;
	for (; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (classify_word_is(w, "-delete")) {
			struct wv dot = classify_lit(".", 1);
			size_t r0 = roots_from, r1 = roots_to;
			for (size_t r = r0; r < r1 || r == r0; r++) {
				const struct wv *root = r < r1 ? &argv[r] : &dot;
				if (all_tmp) {
					classify_hit(x, CORDON_RISK_CAUTION,
					       CORDON_L(DELETE) | CORDON_L(DELETE_RECURSIVE),
					       "find.delete-tmp",
					       "deletes matching temporary files");
				} else if (cap == CORDON_RISK_DESTRUCTIVE) {
					/* -delete removes directories too, depth
					 * first: a recursive delete, whatever the
					 * filter (rm {} without -r cannot) */
					const char *abs = NULL;
					enum path_class pc = classify_word_static(root)
						? classify_path(x, root, &abs) : PATH_OUTSIDE;
					classify_hit(x, CORDON_RISK_DESTRUCTIVE,
					       CORDON_L(DELETE) | CORDON_L(DELETE_RECURSIVE) |
					       class_labels(pc), "find.delete",
					       "deletes every file and directory that matches, in a whole tree");
				} else {
					classify_hit(x, CORDON_RISK_SAFE, CORDON_L(DELETE), NULL, NULL);
					judge_delete(x, root, true, false,
						     "find -delete removes everything in");
				}
				if (r >= r1)
					break;
			}
			continue;
		}
		if (classify_word_is(w, "-exec") || classify_word_is(w, "-execdir") || classify_word_is(w, "-ok") ||
		    classify_word_is(w, "-okdir")) {
			size_t s = i + 1, e = s;
			while (e < argc && !classify_word_is(&argv[e], ";") && !classify_word_is(&argv[e], "+"))
				e++;
			if (e > s) {
				/* without a test the items are the whole tree,
				 * root first; with one, some file below the
				 * root (below / that includes /etc) */
				if (cap == CORDON_RISK_BLOCKED && roots_to == roots_from + 1) {
					run_template_item(x, argv + s, e - s, "{}", false,
							  0, &argv[roots_from]);
				} else if (roots_to == roots_from + 1 &&
					   classify_word_static(&argv[roots_from])) {
					const char *abs = classify_abs(x, &argv[roots_from]);
					const char *item = !abs ? NULL
						: strcmp(abs, "/") == 0 ? "/etc/x"
						: verdict_printf(x->v, "%s/x", abs);
					struct wv it = item ? classify_lit(item, strlen(item))
							    : classify_unknown();
					run_template_item(x, argv + s, e - s, "{}", false,
							  0, &it);
				} else {
					run_template(x, argv + s, e - s, "{}", false, 0);
				}
			}
			i = e;
			continue;
		}
		if ((classify_word_is(w, "-fprint") || classify_word_is(w, "-fprint0") ||
		     classify_word_is(w, "-fls") || classify_word_is(w, "-fprintf")) && i + 1 < argc) {
			commands_write_target(x, &argv[i + 1], true, "overwrites");
			i++;
		}
	}
}

static void h_watch(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool exec = false;

	while (i < argc && is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		if (classify_word_is(w, "-x") || classify_word_is(w, "--exec"))
			exec = true;
		if (classify_word_is(w, "-n") || classify_word_is(w, "--interval") || classify_word_is(w, "-q") ||
		    classify_word_is(w, "--equexit")) {
			i += 2;
			continue;
		}
		i++;
	}
	if (i >= argc)
		return;
	if (exec) {
		classify_command(x, argv + i, argc - i, redirs, ci);
		return;
	}
	size_t n;
	bool dyn;
	const char *s = join(x, argv, i, argc, &n, &dyn);
	classify_payload(x, s, n, 0, "the command run by watch");
}

static void h_flock(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	const struct wv *cmd = NULL;

	while (i < argc) {
		const struct wv *w = &argv[i];
		if (classify_word_is(w, "-c") || classify_word_is(w, "--command")) {
			if (i + 1 < argc)
				cmd = &argv[i + 1];
			i += 2;
			continue;
		}
		if (classify_word_is(w, "-w") || classify_word_is(w, "--timeout") || classify_word_is(w, "-E") ||
		    classify_word_is(w, "--conflict-exit-code")) {
			i += 2;
			continue;
		}
		if (is_opt(w)) {
			i++;
			continue;
		}
		break;
	}
	if (cmd) {
		payload_word(x, cmd, 0, "the command run by flock");
		return;
	}
	i++; /* the lock file */
	for (; i < argc; i++) {
		if (classify_word_is(&argv[i], "-c") || classify_word_is(&argv[i], "--command")) {
			if (i + 1 < argc)
				payload_word(x, &argv[i + 1], 0, "the command run by flock");
			return;
		}
		if (!is_opt(&argv[i]))
			break;
	}
	if (i < argc)
		classify_command(x, argv + i, argc - i, redirs, ci);
}

static void h_su(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	bool cmd = false;

	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(PRIVILEGE), "privilege.su",
	       "switches to another user (su)");
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--command") ||
		     classify_word_is(w, "--session-command")) && i + 1 < argc) {
			payload_word(x, &argv[i + 1], CORDON_L(PRIVILEGE),
				     "the command given to su");
			cmd = true;
			i++;
		} else if (long_opt(w, "--command", &val, &vn) && val) {
			struct wv t = classify_lit(val, vn);
			payload_word(x, &t, CORDON_L(PRIVILEGE), "the command given to su");
			cmd = true;
		} else if (classify_word_is(w, "-s") || classify_word_is(w, "--shell") || classify_word_is(w, "-g") ||
			   classify_word_is(w, "-G") || classify_word_is(w, "-w")) {
			i++;
		}
	}
	if (!cmd) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL),
		       "privilege.shell", "opens a shell as another user");
		ci->f |= CI_RUNS_STDIN;
		feed_stdin(x, redirs, ci);
	}
}

/* runuser -u USER [--] CMD…, runuser [-l] USER -c CMD: su without a
 * password prompt. */
static void h_runuser(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	bool by_u = false;
	size_t i = 1;

	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(PRIVILEGE), "privilege.runuser",
	       "runs as another user (runuser)");
	while (i < argc) {
		const struct wv *w = &argv[i];
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--command")) && i + 1 < argc) {
			payload_word(x, &argv[i + 1], CORDON_L(PRIVILEGE),
				     "the command given to runuser");
			return;
		}
		if (is_dashdash(w)) {
			i++;
			break;
		}
		if (classify_word_is(w, "-u") || classify_word_is(w, "--user")) {
			by_u = true;
			i += 2;
			continue;
		}
		if (classify_word_is(w, "-g") || classify_word_is(w, "-G") || classify_word_is(w, "-s") ||
		    classify_word_is(w, "-w") || classify_word_is(w, "--group") || classify_word_is(w, "--shell")) {
			i += 2;
			continue;
		}
		if (is_opt(w)) {
			i++;
			continue;
		}
		if (!by_u) {
			i++; /* the user; then options may follow */
			by_u = true;
			continue;
		}
		break;
	}
	if (i < argc)
		classify_command(x, argv + i, argc - i, redirs, ci);
}

/* sg GROUP -c CMD, sg GROUP CMD: the command is one shell string. */
static void h_sg(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(PRIVILEGE), "privilege.sg",
	       "runs with another group (sg)");
	for (size_t i = 1; i < argc; i++) {
		if (classify_word_is(&argv[i], "-") || is_opt(&argv[i])) {
			if (classify_word_is(&argv[i], "-c") && i + 1 < argc) {
				payload_word(x, &argv[i + 1], CORDON_L(PRIVILEGE),
					     "the command given to sg");
				return;
			}
			continue;
		}
		/* the group, then the command */
		if (i + 1 < argc) {
			size_t k = i + 1;
			if (classify_word_is(&argv[k], "-c"))
				k++;
			if (k < argc)
				payload_word(x, &argv[k], CORDON_L(PRIVILEGE),
					     "the command given to sg");
		}
		return;
	}
}

/* script -c CMD [FILE]: runs CMD under a pseudo-terminal. */
static void h_script(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--command")) && i + 1 < argc) {
			payload_word(x, &argv[i + 1], 0, "the command given to script");
			return;
		}
		if (long_opt(w, "--command", &val, &vn) && val) {
			struct wv t = classify_lit(val, vn);
			payload_word(x, &t, 0, "the command given to script");
			return;
		}
		if (is_opt(w) && w->s[1] != '-' && w->s[w->n - 1] == 'c' &&
		    strspn(w->s + 1, "aefqkc") == w->n - 1 && i + 1 < argc) {
			payload_word(x, &argv[i + 1], 0, "the command given to script");
			return;
		}
	}
}

/* trap 'CMD' SIGNAL…: CMD runs when the signal (or EXIT) comes. */
static void h_trap(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	(void)redirs;
	(void)ci;
	if (i < argc && is_dashdash(&argv[i]))
		i++;
	if (i + 1 >= argc || is_opt(&argv[i]) || classify_word_is(&argv[i], "-"))
		return;
	payload_word(x, &argv[i], 0, "the command a trap runs");
}

/* ---- remote and container payloads ----------------------------------------------- */

static void h_ssh(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	(void)redirs;
	ci->f |= CI_NETWORK | CI_NETSEND;
	while (i < argc && is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		/* -o ProxyCommand=… and LocalCommand run here, not remotely */
		const struct wv *opt = NULL;
		struct wv t;
		if (classify_word_is(w, "-o") && i + 1 < argc)
			opt = &argv[i + 1];
		else if (w->n > 2 && w->s[1] == 'o') {
			t = classify_lit(w->s + 2, w->n - 2);
			opt = &t;
		}
		if (opt) {
			const char *eq = memchr(opt->s, '=', opt->n);
			size_t kn = eq ? (size_t)(eq - opt->s) : 0;
			if (eq && ((kn == 12 && strncasecmp(opt->s, "ProxyCommand", 12) == 0) ||
				   (kn == 12 && strncasecmp(opt->s, "LocalCommand", 12) == 0))) {
				struct wv c = classify_lit(eq + 1, opt->n - kn - 1);
				c.f = opt->f & (WV_DYNAMIC | WV_SUBST);
				payload_word(x, &c, 0, "a command ssh runs locally");
			}
		}
		bool takes = false;
		if (w->s[1] != '-')
			for (size_t k = 1; k < w->n; k++)
				if (strchr("bcDEeFIiJLlmOopQRSWwBP", w->s[k])) {
					takes = k + 1 == w->n;
					break;
				}
		i += takes ? 2 : 1;
	}
	if (i >= argc)
		return;
	i++; /* the host */
	/* OpenSSH reads options after the host too: ssh host -p 22 cmd */
	while (i < argc && is_opt(&argv[i]) && !is_dashdash(&argv[i])) {
		const struct wv *w = &argv[i];
		bool takes = false;
		if (w->s[1] != '-')
			for (size_t k = 1; k < w->n; k++)
				if (strchr("bcDEeFIiJLlmOopQRSWwBP", w->s[k])) {
					takes = k + 1 == w->n;
					break;
				}
		i += takes ? 2 : 1;
	}
	if (i < argc && is_dashdash(&argv[i]))
		i++;
	if (i >= argc) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(REMOTE), "remote.shell",
		       "opens a shell on another machine");
		ci->f |= CI_RUNS_STDIN;
		return;
	}
	size_t n;
	bool dyn;
	const char *s = join(x, argv, i, argc, &n, &dyn);
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(REMOTE), "remote.exec",
	       "runs a command on another machine");
	if (dyn)
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DYNAMIC_COMMAND),
		       "remote.dynamic", "the remote command is built at run time");
	classify_payload(x, s, n, CORDON_L(REMOTE), "the command run remotely");
}

static void h_container_exec(struct cx *x, struct wv *argv, size_t argc,
			     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool kube = (name_is(name, n, "kubectl")) ||
		    (n == 1 && name[0] == 'k') || (name_is(name, n, "oc"));
	size_t i;

	if (kube) {
		for (i = 1; i < argc; i++)
			if (is_dashdash(&argv[i]))
				break;
		if (i + 1 >= argc)
			return;
		i++;
	} else {
		/* docker exec [opts] CONTAINER CMD…; docker compose exec SVC … */
		for (i = 1; i < argc && !classify_word_is(&argv[i], "exec"); i++)
			;
		i++;
		while (i < argc && is_opt(&argv[i])) {
			const struct wv *w = &argv[i];
			if (classify_word_is(w, "-e") || classify_word_is(w, "--env") || classify_word_is(w, "-u") ||
			    classify_word_is(w, "--user") || classify_word_is(w, "-w") ||
			    classify_word_is(w, "--workdir") || classify_word_is(w, "--env-file") ||
			    classify_word_is(w, "--detach-keys") || classify_word_is(w, "--index"))
				i += 2;
			else
				i++;
		}
		i++; /* the container */
		if (i >= argc)
			return;
	}
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(REMOTE), "remote.container-exec",
	       "runs a command inside a container");
	struct cinfo sub;
	memset(&sub, 0, sizeof(sub));
	uint64_t saved = x->seg_labels;
	classify_command(x, argv + i, argc - i, redirs, &sub);
	(void)saved;
	ci->f |= sub.f & ~(CI_RUNS_STDIN);
}

/* ---- interpreters ---------------------------------------------------------------- */

static bool in_list(const char *list, const struct wv *w)
{
	char key[48];

	if (!list || w->n + 3 > sizeof(key))
		return false;
	key[0] = ' ';
	memcpy(key + 1, w->s, w->n);
	key[w->n + 1] = ' ';
	key[w->n + 2] = '\0';
	return strstr(list, key) != NULL;
}

static void h_interp(struct cx *x, const struct wrappers_interp *ip, struct wv *argv,
		     size_t argc, const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool code = false;

	judge_redirs(x, redirs, ci, false);
	while (i < argc) {
		const struct wv *w = &argv[i];
		if (in_list(ip->code_opt, w)) {
			if (i + 1 < argc) {
				if (!classify_word_static(&argv[i + 1]))
					classify_hit(x, CORDON_RISK_CAUTION,
					       CORDON_L(DYNAMIC_COMMAND), "code.dynamic",
					       "runs inline code built at run time");
				classify_code(x, (int)ip->lang, argv[i + 1].s, argv[i + 1].n);
			}
			code = true;
			i += 2;
			continue;
		}
		/* A short cluster: python -Ic CODE, perl -ne CODE, -c'code'
		 * glued, -Im pip. Letters before the code option are flags;
		 * the code is the rest of the cluster or the next word. */
		if (w->n > 2 && w->s[0] == '-' && w->s[1] != '-' && classify_word_static(w)) {
			int what = 0; /* 1 code, 2 module, 3 value */
			size_t k;
			for (k = 1; k < w->n && !what; k++) {
				char key[5] = {' ', '-', w->s[k], ' ', '\0'};
				if (strstr(ip->code_opt, key))
					what = 1;
				else if (ip->module_opt && strstr(ip->module_opt, key))
					what = 2;
				else if (strstr(ip->arg_opt, key))
					what = 3;
			}
			if (what) {
				struct wv rest = classify_lit(w->s + k, w->n - k);
				bool glued = k < w->n;
				const struct wv *val = glued ? &rest
					: i + 1 < argc ? &argv[i + 1] : NULL;
				if (what == 1 && val) {
					classify_code(x, (int)ip->lang, val->s, val->n);
					code = true;
				} else if (what == 2 && val) {
					if (glued) {
						argv[i] = rest;
						classify_command(x, argv + i, argc - i, NULL, ci);
					} else {
						classify_command(x, argv + i + 1, argc - i - 1,
							   NULL, ci);
					}
					return;
				}
				i += glued ? 1 : 2;
				continue;
			}
		}
		if (in_list(ip->module_opt, w) && i + 1 < argc) {
			/* python -m pip install x is pip install x */
			classify_command(x, argv + i + 1, argc - i - 1, NULL, ci);
			return;
		}
		if (in_list(ip->arg_opt, w)) {
			i += 2;
			continue;
		}
		if (is_dashdash(w)) {
			i++;
			break;
		}
		if (is_opt(w)) {
			i++;
			continue;
		}
		break;
	}
	ci->f |= CI_EXEC_ARGS;
	if (code) {
		/* perl -pi -e CODE FILE…: the files are rewritten */
		bool inplace = false;
		for (size_t k = 1; k < argc && k < i; k++)
			if (is_opt(&argv[k]) && argv[k].s[1] != '-' &&
			    (ip->lang == CODE_PERL || ip->lang == CODE_RUBY) &&
			    memchr(argv[k].s, 'i', argv[k].n))
				inplace = true;
		for (size_t k = i; inplace && k < argc; k++)
			if (!is_opt(&argv[k]))
				commands_write_target(x, &argv[k], false, "edits in place");
		return;
	}
	if (i < argc && !classify_word_is(&argv[i], "-")) {
		check_downloaded_as(x, &argv[i], (int)ip->lang);
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT),
		       "runs-script.interpreter",
		       "runs a program file cordon has not read");
		return;
	}
	ci->f |= CI_CODE_STDIN;
	ci->lang = (int)ip->lang;
	feed_stdin(x, redirs, ci);
}

/* awk -v NAME=VALUE: the program sees NAME set before BEGIN. They are
 * handed to the scanner as a BEGIN block in front of the program, so
 * system(c) with -v c='rm -rf /' reads the command. */
static void awk_code(struct cx *x, struct wv *argv, size_t prog)
{
	struct sb_local {
		char *s;
		size_t n;
	} b = {NULL, 0};
	size_t cap = argv[prog].n + 16;

	for (size_t i = 1; i + 1 < prog; i++)
		if (classify_word_is(&argv[i], "-v") || classify_word_is(&argv[i], "--assign"))
			cap += argv[i + 1].n * 2 + 16;
	b.s = arena_alloc_raw(x->a, cap);
	if (!b.s) {
		x->v->oom = true;
		return;
	}
	for (size_t i = 1; i + 1 < prog; i++) {
		if (!(classify_word_is(&argv[i], "-v") || classify_word_is(&argv[i], "--assign")))
			continue;
		const struct wv *a = &argv[i + 1];
		const char *eq = memchr(a->s, '=', a->n);
		if (!eq || !classify_word_static(a))
			continue;
		size_t nl = (size_t)(eq - a->s);
		memcpy(b.s + b.n, "BEGIN{", 6);
		b.n += 6;
		memcpy(b.s + b.n, a->s, nl);
		b.n += nl;
		memcpy(b.s + b.n, "=\"", 2);
		b.n += 2;
		for (const char *c = eq + 1; c < a->s + a->n; c++) {
			if (*c == '"' || *c == '\\')
				b.s[b.n++] = '\\';
			b.s[b.n++] = *c;
		}
		memcpy(b.s + b.n, "\"}", 2);
		b.n += 2;
	}
	memcpy(b.s + b.n, argv[prog].s, argv[prog].n);
	b.n += argv[prog].n;
	classify_code(x, CODE_AWK, b.s, b.n);
}

static void h_awk(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	(void)redirs;
	(void)ci;
	while (i < argc && is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		if (classify_word_is(w, "-f") || classify_word_is(w, "--file")) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT),
			       "runs-script.awk", "runs an awk program file");
			return;
		}
		if ((classify_word_is(w, "-e") || classify_word_is(w, "--source")) && i + 1 < argc) {
			classify_code(x, CODE_AWK, argv[i + 1].s, argv[i + 1].n);
			return;
		}
		if (classify_word_is(w, "-F") || classify_word_is(w, "-v") || classify_word_is(w, "--assign") ||
		    classify_word_is(w, "--field-separator") || classify_word_is(w, "-i") ||
		    classify_word_is(w, "--include") || classify_word_is(w, "-l") || classify_word_is(w, "--load"))
			i += 2;
		else if (is_dashdash(w)) {
			i++;
			break;
		} else
			i++;
	}
	if (i < argc)
		awk_code(x, argv, i);
}

static void h_sed(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool script = false, inplace = false;
	size_t first_file = 0;

	(void)redirs;
	(void)ci;
	for (; i < argc; i++) {
		const struct wv *w = &argv[i];
		if ((classify_word_is(w, "-e") || classify_word_is(w, "--expression")) && i + 1 < argc) {
			classify_code(x, CODE_SED, argv[i + 1].s, argv[i + 1].n);
			script = true;
			i++;
			continue;
		}
		const char *ev;
		size_t evn;
		if (w->n > 2 && w->s[0] == '-' && w->s[1] == 'e' && classify_word_static(w)) {
			classify_code(x, CODE_SED, w->s + 2, w->n - 2);
			script = true;
			continue;
		}
		if (long_opt(w, "--expression", &ev, &evn) && ev) {
			classify_code(x, CODE_SED, ev, evn);
			script = true;
			continue;
		}
		if (classify_word_is(w, "-f") || classify_word_is(w, "--file")) {
			script = true;
			i++;
			continue;
		}
		if (classify_word_is(w, "-l")) {
			i++;
			continue;
		}
		if (is_opt(w)) {
			if (w->s[1] == '-' ? long_opt(w, "--in-place", NULL, NULL)
					   : cluster_has(w, 'i'))
				inplace = true;
			continue;
		}
		if (!script) {
			classify_code(x, CODE_SED, w->s, w->n);
			script = true;
			continue;
		}
		if (!first_file)
			first_file = i;
		if (inplace)
			commands_write_target(x, w, false, "edits in place");
	}
}

/* ---- database clients ------------------------------------------------------------ */

static void h_sqlclient(struct cx *x, struct wv *argv, size_t argc,
			const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool sqlite = n >= 6 && memcmp(name, "sqlite", 6) == 0;
	bool mongo = n >= 5 && memcmp(name, "mongo", 5) == 0;
	bool any = false;
	size_t ops = 0;

	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		bool flag_sql = classify_word_is(w, "-c") || classify_word_is(w, "-e") || classify_word_is(w, "-q") ||
				classify_word_is(w, "--eval") || classify_word_is(w, "--query") ||
				classify_word_is(w, "--command") || classify_word_is(w, "--execute") ||
				classify_word_is(w, "-cmd");
		if (flag_sql && i + 1 < argc) {
			classify_sql(x, argv[i + 1].s, argv[i + 1].n);
			/* psql -c DROP TABLE users: the words the shell split
			 * off are the rest of the statement the author meant */
			if (argv[i + 1].n && !memchr(argv[i + 1].s, ' ', argv[i + 1].n) &&
			    i + 2 < argc) {
				size_t jn;
				bool dyn;
				const char *j = join(x, argv, i + 1, argc, &jn, &dyn);
				classify_sql(x, j, jn);
			}
			any = true;
			i++;
			continue;
		}
		if ((long_opt(w, "--command", &val, &vn) ||
		     long_opt(w, "--execute", &val, &vn) ||
		     long_opt(w, "--eval", &val, &vn) ||
		     long_opt(w, "--query", &val, &vn)) && val) {
			classify_sql(x, val, vn);
			any = true;
			continue;
		}
		if (w->n > 2 && w->s[0] == '-' && (w->s[1] == 'c' || w->s[1] == 'e') &&
		    !sqlite && !mongo && classify_word_static(w) && w->s[2] != '-' &&
		    !isalpha((unsigned char)w->s[2])) {
			classify_sql(x, w->s + 2, w->n - 2);
			any = true;
			continue;
		}
		if (!is_opt(w)) {
			ops++;
			/* sqlite3 DB "SQL …"; mysql DB (a lone db name);
			 * raw SQL words after the db for sqlite */
			if (sqlite && ops >= 2) {
				classify_sql(x, w->s, w->n);
				any = true;
			} else if (mongo && ops >= 1 && memchr(w->s, '(', w->n)) {
				classify_sql(x, w->s, w->n);
				any = true;
			}
		}
	}
	if (!any) {
		ci->f |= CI_SQL_STDIN;
		feed_stdin(x, redirs, ci);
	}
}

/* ---- files, permissions, processes --------------------------------------------- */

static void h_rm(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	bool rec = false, force = false, dashdash = false, any = false;
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool unlink = name_is(name, n, "unlink");
	bool rmdir = name_is(name, n, "rmdir");

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (dashdash || !is_opt(w))
			continue;
		if (is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		if (long_abbrev(w, "--recursive", 5))
			rec = true;
		else if (long_abbrev(w, "--force", 3))
			force = true;
		else if (long_abbrev(w, "--no-preserve-root", 6))
			classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(ROOT_PATH) |
			       CORDON_L(DELETE_RECURSIVE), "rm.no-preserve-root",
			       "turns off rm's protection of /");
		else if (w->s[1] != '-') {
			if (cluster_has(w, 'r') || cluster_has(w, 'R'))
				rec = true;
			if (cluster_has(w, 'f'))
				force = true;
		}
	}
	dashdash = false;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!dashdash && is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		if (!dashdash && is_opt(w))
			continue;
		any = true;
		judge_delete(x, w, rec && !unlink && !rmdir, force,
			     rmdir ? "removes directories in" : "deletes");
	}
	(void)any;
}

static void h_shred(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (is_opt(w)) {
			if (classify_word_is(w, "-n") || classify_word_is(w, "-s") || classify_word_is(w, "--iterations") ||
			    classify_word_is(w, "--size") || classify_word_is(w, "--random-source"))
				i++;
			continue;
		}
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(DATA_LOSS) | CORDON_L(DELETE),
		       "shred", "overwrites a file so it cannot be recovered");
		commands_write_target(x, w, true, "shreds");
		judge_delete(x, w, false, true, "shreds");
	}
}

static void h_truncate(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (is_opt(w)) {
			if (classify_word_is(w, "-s") || classify_word_is(w, "-r") || classify_word_is(w, "--size") ||
			    classify_word_is(w, "--reference"))
				i++;
			continue;
		}
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(DATA_LOSS) | CORDON_L(OVERWRITE),
		       "truncate", "cuts a file to a new size, losing its contents");
		commands_write_target(x, w, true, "truncates");
	}
}

static void h_dd(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (w->n > 3 && memcmp(w->s, "of=", 3) == 0) {
			struct wv t = *w;
			t.s += 3;
			t.n -= 3;
			t.dyn_at = t.dyn_at > 3 ? t.dyn_at - 3 : 0;
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(OVERWRITE), "dd.write",
			       "writes raw bytes to a file");
			commands_write_target(x, &t, true, "dd writes");
		} else if (w->n > 3 && memcmp(w->s, "if=", 3) == 0) {
			struct wv t = *w;
			const char *abs;
			t.s += 3;
			t.n -= 3;
			if (classify_word_static(&t) && classify_path(x, &t, &abs) == PATH_DEVICE)
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DISK),
				       "dd.read-device", "reads a raw disk");
		}
	}
}

/* touch and mkdir create (or touch) every operand: each is a write to
 * that path, judged like a redirection (touch /etc/x is a write to /etc).
 * Options that take a value: touch -d -t -r, mkdir -m. */
static void h_create(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool touch = name_is(name, n, "touch");
	const char *short_val = touch ? "dtr" : "m";
	bool opts = true;

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (opts && classify_word_is(w, "--")) {
			opts = false;
			continue;
		}
		if (opts && w->n > 1 && w->s[0] == '-') {
			if (w->s[1] == '-') {
				/* --date X, --reference X, --mode X */
				if (!memchr(w->s, '=', w->n) &&
				    (classify_word_is(w, "--date") || classify_word_is(w, "--reference") ||
				     classify_word_is(w, "--mode")))
					i++;
				continue;
			}
			/* a short cluster: a value option last takes the next */
			if (strchr(short_val, w->s[w->n - 1]))
				i++;
			continue;
		}
		commands_write_target(x, w, false, touch ? "touches" : "creates");
	}
}

/* mv, cp, install, ln: the destination is written; mv also removes the
 * sources from where they were. */
static void h_copy(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool mv = name_is(name, n, "mv");
	bool ln = name_is(name, n, "ln");
	size_t ops[256];
	size_t nops = 0;
	const struct wv *target = NULL;
	bool dashdash = false;
	struct wv tdir;

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if (!dashdash && is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		if (!dashdash && is_opt(w)) {
			if ((classify_word_is(w, "-t") || classify_word_is(w, "--target-directory")) &&
			    i + 1 < argc) {
				target = &argv[++i];
			} else if (long_opt(w, "--target-directory", &val, &vn) && val) {
				tdir = classify_lit(val, vn);
				target = &tdir;
			} else if (classify_word_is(w, "-S") || classify_word_is(w, "--suffix") ||
				   classify_word_is(w, "-m") || classify_word_is(w, "-o") || classify_word_is(w, "-g") ||
				   classify_word_is(w, "--mode") || classify_word_is(w, "--owner") ||
				   classify_word_is(w, "--group")) {
				i++;
			}
			continue;
		}
		if (nops < 256)
			ops[nops++] = i;
	}
	if (!target) {
		if (nops < 2 && !ln)
			return;
		if (nops == 0)
			return;
		if (ln && nops == 1)
			return; /* ln -s x: link in the cwd */
		target = &argv[ops[--nops]];
	}
	bool devnull = classify_word_is(target, "/dev/null");
	for (size_t k = 0; k < nops; k++)
		devnull = devnull || classify_word_is(&argv[ops[k]], "/dev/null");
	if (devnull && mv) {
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(DATA_LOSS) | CORDON_L(DELETE),
		       "mv.dev-null", "moves files into /dev/null, which deletes them");
		return;
	}
	commands_write_target(x, target, true, ln ? "links" : mv ? "moves files to" : "copies files to");
	for (size_t k = 0; k < nops && !ln; k++)
		if (operand_secret(x, &argv[ops[k]])) {
			note_secret_file(x, target);
			break;
		}
	if (!mv)
		return;
	for (size_t k = 0; k < nops; k++) {
		const struct wv *w = &argv[ops[k]];
		const char *abs;
		if (!classify_word_static(w))
			continue;
		enum path_class pc = classify_path(x, w, &abs);
		if (!abs)
			continue;
		if (pc == PATH_ROOT || pc == PATH_HOME_ROOT ||
		    (pc == PATH_SYSTEM && core_system(abs)))
			classify_hit(x, CORDON_RISK_BLOCKED, class_labels(pc) | CORDON_L(DELETE),
			       "mv.system-source",
			       verdict_printf(x->v, "moves away %s", abs));
		else if (pc == PATH_SYSTEM || pc == PATH_HOME || pc == PATH_OUTSIDE)
			classify_hit(x, CORDON_RISK_CAUTION, class_labels(pc),
			       "mv.outside-source",
			       verdict_printf(x->v, "moves %s from outside the workspace",
					      abs));
	}
}

static bool setuid_mode(const struct wv *w)
{
	const char *s = w->s;
	size_t n = w->n;

	if (n >= 4 && isdigit((unsigned char)s[0])) {
		bool digits = true;
		for (size_t i = 0; i < n; i++)
			if (!isdigit((unsigned char)s[i]))
				digits = false;
		return digits && n == 4 && (s[0] == '2' || s[0] == '4' ||
					    s[0] == '6' || s[0] == '7');
	}
	for (size_t i = 0; i + 1 < n; i++)
		if ((s[i] == '+' || s[i] == '=') && memchr(s + i, 's', n - i))
			return true;
	return false;
}

static bool world_writable(const struct wv *w)
{
	const char *s = w->s;
	size_t n = w->n;

	if (n == 3 && isdigit((unsigned char)s[0]))
		return s[2] == '7' || s[2] == '6' || s[2] == '3' || s[2] == '2';
	if (n == 4 && isdigit((unsigned char)s[0]))
		return s[3] == '7' || s[3] == '6' || s[3] == '3' || s[3] == '2';
	return memmem(s, n, "o+w", 3) || memmem(s, n, "a+w", 3) ||
	       memmem(s, n, "a+rwx", 5) || memmem(s, n, "+rwx", 4) ||
	       (n >= 2 && s[0] == '+' && memchr(s, 'w', n) && !memchr(s, 'u', n));
}

/* A chmod mode (755, u+x,g-w, =rw) or a chown owner (user, user:group,
 * :group, 1000): not a path. */
static bool looks_like_mode(const struct wv *w, bool chmod)
{
	if (!classify_word_static(w) || w->n == 0)
		return !classify_word_static(w);
	if (chmod)
		return strspn(w->s, "01234567ugoarwxXstST+-=,") == w->n;
	return !memchr(w->s, '/', w->n) && !(w->f & WV_GLOB) &&
	       !(w->n <= 3 && strspn(w->s, ".") == w->n);
}

static void h_chmod(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool chmod = name_is(name, n, "chmod");
	bool rec = false, ref = false, dashdash = false;
	size_t ops[256], nops = 0;

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!dashdash && is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		/* chmod -w / -x are modes, not options */
		if (!dashdash && is_opt(w) &&
		    !(chmod && w->n > 1 && strchr("rwxXst", w->s[1]) && w->s[1] != '-')) {
			if (long_opt(w, "--recursive", NULL, NULL) || cluster_has(w, 'R'))
				rec = true;
			if (long_opt(w, "--reference", NULL, NULL))
				ref = true;
			continue;
		}
		if (nops < 256)
			ops[nops++] = i;
	}
	if (nops == 0)
		return;
	/* "chmod -R /" names no mode: the operand is a target */
	bool has_mode = !ref && looks_like_mode(&argv[ops[0]], chmod);
	size_t first = has_mode ? 1 : 0;
	const struct wv *mode = has_mode ? &argv[ops[0]] : NULL;
	uint64_t base = CORDON_L(PERMISSIONS);
	if (mode && chmod && setuid_mode(mode))
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(PRIVILEGE) | base,
		       "chmod.setuid", "sets the setuid or setgid bit");
	for (size_t k = first; k < nops; k++) {
		const struct wv *w = &argv[ops[k]];
		const char *abs;
		if (!classify_word_static(w)) {
			if (rec)
				classify_hit(x, CORDON_RISK_DESTRUCTIVE, base | CORDON_L(DYNAMIC_COMMAND),
				       "chmod.recursive-dynamic",
				       "changes permissions recursively on a path decided at run time");
			continue;
		}
		enum path_class pc = classify_path(x, w, &abs);
		if (!abs)
			continue;
		uint64_t l = base | class_labels(pc);
		bool protected_ = pc == PATH_ROOT || pc == PATH_HOME_ROOT ||
				  pc == PATH_SYSTEM || pc == PATH_DEVICE;
		if (rec && protected_)
			classify_hit(x, CORDON_RISK_BLOCKED, l, "chmod.recursive-system",
			       verdict_printf(x->v, "changes ownership or permissions of everything under %s",
					      abs));
		else if (rec)
			classify_hit(x, CORDON_RISK_DESTRUCTIVE, l, "chmod.recursive",
			       "changes ownership or permissions recursively");
		else if (protected_)
			classify_hit(x, CORDON_RISK_DESTRUCTIVE, l, "chmod.system",
			       verdict_printf(x->v, "changes ownership or permissions of %s", abs));
		else if (pc == PATH_HOME || pc == PATH_OUTSIDE)
			classify_hit(x, CORDON_RISK_CAUTION, l, "chmod.outside",
			       "changes permissions outside the workspace");
		else if (!chmod)
			classify_hit(x, CORDON_RISK_CAUTION, l, "chown",
			       "changes the owner of files");
		if (mode && chmod && world_writable(mode))
			classify_hit(x, CORDON_RISK_CAUTION, l, "chmod.world-writable",
			       "makes files writable by every user");
	}
}

static void h_tee(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	bool append = false;

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++)
		if (cluster_has(&argv[i], 'a') || classify_word_is(&argv[i], "--append"))
			append = true;
	for (size_t i = 1; i < argc; i++)
		if (!is_opt(&argv[i]))
			commands_write_target(x, &argv[i], !append,
					append ? "appends to" : "overwrites");
}

static void h_kill(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool all = false, init = false;

	(void)redirs;
	(void)ci;
	if (i < argc && (classify_word_is(&argv[i], "-l") || classify_word_is(&argv[i], "-L")))
		return;
	if (i < argc && (classify_word_is(&argv[i], "-s") || classify_word_is(&argv[i], "-n") ||
			 classify_word_is(&argv[i], "--signal")))
		i += 2;
	else if (i < argc && is_opt(&argv[i]) && !is_dashdash(&argv[i]))
		i++; /* the signal: -9, -KILL, -SIGTERM */
	for (; i < argc; i++) {
		if (is_dashdash(&argv[i]))
			continue;
		if (classify_word_is(&argv[i], "-1"))
			all = true;
		if (classify_word_is(&argv[i], "1"))
			init = true;
	}
	if (all || init)
		classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(KILLS_PROCESSES),
		       all ? "kill.all" : "kill.init",
		       all ? "signals every process the user can reach"
			   : "signals init, the first process");
	else if (argc > 1)
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(KILLS_PROCESSES), "kill",
		       "signals a process");
}

/* ---- small families ------------------------------------------------------------ */

/* Bash evaluates array subscripts in arithmetic contexts (test -v,
 * declare -i, printf -v, let, (( )), $(( x )) of a variable holding one),
 * and a $( ) inside a subscript runs: 'a[$(cmd)]' is a command. */
static void subscript_injection(struct cx *x, const struct wv *w)
{
	const char *s = w->s;
	size_t n = w->n;

	for (size_t i = 0; i + 2 < n; i++) {
		if (s[i] != '[' || !(s[i + 1] == '`' || (s[i + 1] == '$' && s[i + 2] == '(')))
			continue;
		const char *close = memchr(s + i, ']', n - i);
		size_t e = close ? (size_t)(close - s) : n;
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(COMMAND_SUBSTITUTION),
		       "subscript.exec",
		       "an array subscript that runs a command when evaluated");
		classify_payload(x, s + i + 1, e - i - 1, 0, "a command in an array subscript");
		return;
	}
}

static void h_subscripts(struct cx *x, struct wv *argv, size_t argc,
			 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++)
		if (classify_word_static(&argv[i]))
			subscript_injection(x, &argv[i]);
}

/* Partitioning, encryption and block-device tools pointed at a raw disk:
 * even the forms that only read open the disk with a tool that can
 * rewrite it, so every use asks. */
/* The disk tools' erase forms: like mkfs, they destroy what is on the
 * disk at once. */
static bool disk_wipe(struct wv *argv, size_t argc)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);

	if ((name_is(name, n, "blkdiscard")) ||
	    (name_is(name, n, "mkswap")))
		return true;
	for (size_t i = 1; i < argc; i++)
		if (cluster_has(&argv[i], 'n') || classify_word_is(&argv[i], "--no-act"))
			return false; /* wipefs -n: only says what it would do */
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (name_is(name, n, "wipefs") &&
		    (cluster_has(w, 'a') || classify_word_is(w, "--all") || long_opt(w, "--offset", NULL, NULL)))
			return true;
		if (name_is(name, n, "sgdisk") &&
		    (cluster_has(w, 'Z') || cluster_has(w, 'z') || cluster_has(w, 'o') ||
		     classify_word_is(w, "--zap-all") || classify_word_is(w, "--zap") || classify_word_is(w, "--clear")))
			return true;
		if (name_is(name, n, "hdparm") &&
		    (long_opt(w, "--security-erase", NULL, NULL) ||
		     long_opt(w, "--security-erase-enhanced", NULL, NULL) ||
		     long_opt(w, "--trim-sector-ranges", NULL, NULL)))
			return true;
	}
	return false;
}

static void h_disktool(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const char *abs;
		if (!classify_word_static(&argv[i]) || is_opt(&argv[i]))
			continue;
		/* a device is under /dev, or named from the cwd there */
		if (!memmem(argv[i].s, argv[i].n, "dev", 3) &&
		    strncmp(x->pc.cwd, "/dev", 4) != 0)
			continue;
		if (classify_path(x, &argv[i], &abs) == PATH_DEVICE) {
			if (disk_wipe(argv, argc))
				classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(DISK) | CORDON_L(DATA_LOSS),
				       "disk.wipe",
				       verdict_printf(x->v, "erases the disk %s", abs));
			else
				classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(DISK), "disk.tool",
				       verdict_printf(x->v, "runs a disk tool on %s", abs));
			return;
		}
	}
}

/* Archive tools extract where they are told: the destination is written. */
static void h_archive(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		struct wv t;
		if ((classify_word_is(w, "-C") || classify_word_is(w, "--directory") || classify_word_is(w, "-d")) &&
		    i + 1 < argc) {
			commands_write_target(x, &argv[i + 1], false, "extracts into");
			i++;
		} else if (long_opt(w, "--directory", &val, &vn) && val) {
			t = classify_lit(val, vn);
			commands_write_target(x, &t, false, "extracts into");
		} else if (w->n > 2 && memcmp(w->s, "-o", 2) == 0 && classify_word_static(w)) {
			t = classify_lit(w->s + 2, w->n - 2);
			commands_write_target(x, &t, false, "extracts into");
		}
	}
}

/* crontab - (or crontab with no file in a pipe) replaces every scheduled
 * job with what it reads: what comes down the pipe will run later. */
static void h_crontab(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++)
		if (classify_word_is(&argv[i], "-"))
			classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(PERSISTENCE),
			       "persist.crontab-stdin",
			       "replaces every scheduled job with text from a pipe");
}

/* at TIME and batch read shell commands on stdin and run them later. */
static void h_at(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	for (size_t i = 1; i < argc; i++) {
		if (classify_word_is(&argv[i], "-l") || classify_word_is(&argv[i], "-d") ||
		    classify_word_is(&argv[i], "-r") || classify_word_is(&argv[i], "-c"))
			return; /* list, delete, show: nothing runs */
		if (classify_word_is(&argv[i], "-f") && i + 1 < argc) {
			check_downloaded(x, &argv[i + 1]);
			return;
		}
	}
	ci->f |= CI_RUNS_STDIN;
	feed_stdin(x, redirs, ci);
}

/* make runs recipe lines as shell commands: a makefile from a here-doc
 * (make -f - / -f /dev/stdin) or from --eval is read here. */
static void h_make(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	bool stdin_mk = false;

	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if ((classify_word_is(w, "-f") || classify_word_is(w, "--file") || classify_word_is(w, "--makefile")) &&
		    i + 1 < argc &&
		    (classify_word_is(&argv[i + 1], "-") || classify_word_is(&argv[i + 1], "/dev/stdin")))
			stdin_mk = true;
		if (long_opt(w, "--eval", &val, &vn) && val) {
			/* "target: ; recipe" */
			const char *semi = memchr(val, ';', vn);
			if (semi)
				classify_payload(x, semi + 1, vn - (size_t)(semi + 1 - val),
					   CORDON_L(NESTED_SHELL), "a make recipe");
		}
	}
	for (const struct sh_redir *r = redirs; stdin_mk && r; r = r->next) {
		size_t n;
		const char *t;
		if (r->op != SH_R_HEREDOC && r->op != SH_R_HERESTRING)
			continue;
		t = heredoc_text(x, r, &n);
		for (size_t i = 0; i < n;) {
			size_t e = i;
			while (e < n && t[e] != '\n')
				e++;
			if (t[i] == '\t' && e > i + 1)
				classify_payload(x, t + i + 1, e - i - 1, CORDON_L(NESTED_SHELL),
					   "a make recipe");
			i = e + 1;
		}
	}
}

/* ansible HOSTS -m shell|command|raw -a CMD runs CMD on every host. */
static void h_ansible(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	const struct wv *args = NULL;
	bool shell = true; /* the default module is command */

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i + 1 < argc; i++) {
		if (classify_word_is(&argv[i], "-m") || classify_word_is(&argv[i], "--module-name"))
			shell = classify_word_is(&argv[i + 1], "shell") || classify_word_is(&argv[i + 1], "command") ||
				classify_word_is(&argv[i + 1], "raw") ||
				classify_word_is(&argv[i + 1], "ansible.builtin.shell") ||
				classify_word_is(&argv[i + 1], "ansible.builtin.command");
		if (classify_word_is(&argv[i], "-a") || classify_word_is(&argv[i], "--args"))
			args = &argv[i + 1];
	}
	if (args && shell) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(REMOTE), "remote.ansible",
		       "runs a command on every host of an inventory");
		payload_word(x, args, CORDON_L(REMOTE), "the command ansible runs");
	}
}

/* cd changes where later relative paths point. */
static void h_cd(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	size_t i = 1;
	while (i < argc && is_opt(&argv[i]) && !classify_word_is(&argv[i], "-"))
		i++;
	if (i >= argc) {
		x->pc.cwd = x->pc.home;
		return;
	}
	if (!classify_word_static(&argv[i]) || classify_word_is(&argv[i], "-")) {
		/* somewhere we cannot know: judge later paths from "/" down
		 * rather than as if still in the workspace */
		x->pc.cwd = "/nonexistent-cwd";
		return;
	}
	const char *abs = path_normalize(x->a, x->pc.cwd, argv[i].s, argv[i].n);
	if (abs)
		x->pc.cwd = abs;
}

/* Runs a script of another platform that cordon cannot read. */
static void h_foreign_shell(struct cx *x, struct wv *argv, size_t argc,
			    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	ci->f |= CI_EXEC_ARGS;
	classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "foreign-shell",
	       "runs a command in another shell (cmd, PowerShell) that cordon cannot read");
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (memmem(w->s, w->n, "DownloadString", 14) ||
		    memmem(w->s, w->n, "Invoke-WebRequest", 17) ||
		    memmem(w->s, w->n, "iwr ", 4) || memmem(w->s, w->n, "DownloadFile", 12) ||
		    memmem(w->s, w->n, "Net.WebClient", 13))
			classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(REMOTE_CODE),
			       "foreign-shell.download",
			       "downloads and runs code in PowerShell");
	}
}

static void h_echo(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool pf = name_is(name, n, "printf");

	(void)redirs;
	if (pf)
		for (size_t i = 1; i + 1 < argc; i++)
			if (classify_word_is(&argv[i], "-v"))
				subscript_injection(x, &argv[i + 1]);
	ci->text = classify_echo_text(x, argv, argc, pf, &ci->tlen);
	if (ci->text)
		ci->f |= CI_TEXT;
}

static void h_decode(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);

	bool xxd = name_is(name, n, "xxd");
	bool openssl = name_is(name, n, "openssl");
	bool b64 = !xxd && !openssl;

	(void)x;
	(void)redirs;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (openssl && (classify_word_is(w, "s_client") || classify_word_is(w, "s_server")))
			ci->f |= CI_NETWORK | CI_NETSEND | CI_NETCAT;
		if (openssl && (classify_word_is(w, "base64") || classify_word_is(w, "-base64") || classify_word_is(w, "-a")))
			b64 = true;
		if (cluster_has(w, 'd') || cluster_has(w, 'D') ||
		    classify_word_is(w, "--decode") || (cluster_has(w, 'r') && xxd))
			ci->f |= CI_DECODE;
	}
	if (name_is(name, n, "uudecode"))
		ci->f |= CI_DECODE;
	if (ci->f & CI_DECODE)
		ci->xf = xxd ? XF_HEX : b64 ? XF_BASE64 : XF_NONE;
}

/* rev and tr SET1 SET2 rewrite text on its way to whatever reads it. */
static void h_filter(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);

	(void)x;
	(void)redirs;
	if (name_is(name, n, "rev")) {
		if (argc == 1) {
			ci->xf = XF_REV;
			ci->f |= CI_DECODE;
		}
		return;
	}
	if (argc == 3 && classify_word_static(&argv[1]) && classify_word_static(&argv[2]) &&
	    !is_opt(&argv[1])) {
		ci->xf = XF_TR;
		ci->tr1 = argv[1].s;
		ci->tr1n = argv[1].n;
		ci->tr2 = argv[2].s;
		ci->tr2n = argv[2].n;
		ci->f |= CI_DECODE;
	}
}

static void h_envdump(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool dump = false;

	(void)redirs;
	if (name_is(name, n, "printenv")) {
		dump = true;
		for (size_t i = 1; i < argc; i++)
			if (!is_opt(&argv[i])) {
				/* printenv NAME prints one variable: a secret
				 * if its name says so */
				const struct wv *w = &argv[i];
				bool sec = memmem(w->s, w->n, "KEY", 3) ||
					   memmem(w->s, w->n, "TOKEN", 5) ||
					   memmem(w->s, w->n, "SECRET", 6) ||
					   memmem(w->s, w->n, "PASS", 4);
				dump = sec;
				break;
			}
	} else if (argc == 1) {
		dump = true; /* set, export, declare alone */
	} else {
		for (size_t i = 1; i < argc; i++)
			if (classify_word_is(&argv[i], "-p") || classify_word_is(&argv[i], "-x"))
				dump = argc == 2;
	}
	if (name_is(name, n, "unset")) {
		for (size_t i = 1; i < argc; i++)
			if (classify_word_is(&argv[i], "HISTFILE"))
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(HISTORY_WIPE),
				       "history.unset", "stops shell history from being saved");
		return;
	}
	if (name_is(name, n, "set")) {
		/* set -- a b c: the positional parameters become a b c */
		for (size_t i = 1; i < argc; i++)
			if (is_dashdash(&argv[i])) {
				bind_positional(x, argv, i, argc);
				break;
			}
		for (size_t i = 1; i + 1 < argc; i++)
			if (classify_word_is(&argv[i], "+o") && classify_word_is(&argv[i + 1], "history"))
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(HISTORY_WIPE),
				       "history.off", "turns shell history off");
	}
	for (size_t i = 1; i < argc; i++)
		if (classify_word_static(&argv[i]))
			subscript_injection(x, &argv[i]);
	/* export/declare/local/readonly NAME=value assign */
	for (size_t i = 1; i < argc; i++)
		if (argv[i].w && memchr(argv[i].s, '=', argv[i].n) &&
		    argv[i].s[0] != '-')
			classify_assign(x, argv[i].w);
	if (dump) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS), "secrets.env-dump",
		       "prints the environment, which may hold secrets");
		ci->f |= CI_ENVDUMP;
	}
}

static void h_history(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	if (argc == 1) {
		ci->f |= CI_HISTORY;
		return;
	}
	for (size_t i = 1; i < argc; i++)
		if (cluster_has(&argv[i], 'c') || cluster_has(&argv[i], 'd'))
			classify_hit(x, CORDON_RISK_DESTRUCTIVE, CORDON_L(HISTORY_WIPE),
			       "history.clear", "erases shell history");
}

static void h_network(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool curl = name_is(name, n, "curl");
	bool wget = name_is(name, n, "wget");
	bool netcat = (name_is(name, n, "nc")) ||
		      (name_is(name, n, "ncat")) ||
		      (name_is(name, n, "netcat"));
	bool socat = name_is(name, n, "socat");
	bool dns = (name_is(name, n, "ping")) ||
		   (name_is(name, n, "ping6")) ||
		   (name_is(name, n, "traceroute")) ||
		   (name_is(name, n, "drill")) ||
		   (name_is(name, n, "whois")) ||
		   (name_is(name, n, "dig")) ||
		   (name_is(name, n, "host")) ||
		   (name_is(name, n, "nslookup"));
	bool copy = (name_is(name, n, "scp")) ||
		    (name_is(name, n, "rsync")) ||
		    (name_is(name, n, "sftp"));

	(void)redirs;
	ci->f |= CI_NETWORK;
	if (netcat || socat || (name_is(name, n, "telnet")))
		ci->f |= CI_NETCAT | CI_NETSEND;
	if (copy || dns)
		ci->f |= CI_NETSEND; /* a looked-up name is data sent out */
	bool secret = false, remote = false, exec = false, tcp = false;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *oval;
		size_t on;
		/* curl -O URL and wget URL save under the URL's last name */
		if ((curl || wget) && !is_opt(w) && classify_word_static(w) &&
		    (memmem(w->s, w->n, "://", 3) || wget)) {
			const char *sl = NULL;
			for (size_t k = 0; k < w->n; k++)
				if (w->s[k] == '/')
					sl = w->s + k;
			if (sl && sl + 1 < w->s + w->n) {
				size_t bn = (size_t)(w->s + w->n - sl - 1);
				const char *q = memchr(sl + 1, '?', bn);
				if (q)
					bn = (size_t)(q - sl - 1);
				struct wv t = classify_lit(sl + 1, bn);
				note_download(x, &t);
			}
		}
		bool out_next = (curl && (classify_word_is(w, "-o") || classify_word_is(w, "--output"))) ||
				(wget && (classify_word_is(w, "-O") || classify_word_is(w, "--output-document")));
		/* a cluster ending in the output option: curl -sLo FILE */
		if ((curl || wget) && is_opt(w) && w->s[1] != '-' && w->n > 2 &&
		    w->s[w->n - 1] == (curl ? 'o' : 'O') &&
		    strspn(w->s + 1, curl ? "sSLfkvqo#" : "qcnNO") == w->n - 1)
			out_next = true;
		if (out_next) {
			if (i + 1 < argc)
				download_to(x, &argv[i + 1]);
		} else if (wget && long_opt(w, "--output-document", &oval, &on) && oval) {
			struct wv t = classify_lit(oval, on);
			download_to(x, &t);
		} else if ((curl || wget) && w->n > 2 && w->s[0] == '-' &&
			   w->s[1] == (curl ? 'o' : 'O') && classify_word_static(w) &&
			   w->s[w->n - 1] != (curl ? 'o' : 'O')) {
			struct wv t = classify_lit(w->s + 2, w->n - 2);
			download_to(x, &t);
		} else if (wget && (classify_word_is(w, "-P") ||
				    classify_word_is(w, "--directory-prefix")) &&
			   i + 1 < argc) {
			commands_write_target(x, &argv[i + 1], false, "downloads into");
		} else if (wget && long_opt(w, "--directory-prefix", &oval, &on) &&
			   oval) {
			struct wv t = classify_lit(oval, on);
			commands_write_target(x, &t, false, "downloads into");
		}
		if (curl && (classify_word_is(w, "-d") || classify_word_is(w, "--data") ||
			     classify_word_is(w, "--data-binary") || classify_word_is(w, "--data-raw") ||
			     classify_word_is(w, "--data-urlencode") || classify_word_is(w, "-F") ||
			     classify_word_is(w, "--form") || classify_word_is(w, "-T") ||
			     classify_word_is(w, "--upload-file") || classify_word_is(w, "--json"))) {
			ci->f |= CI_NETSEND;
			if (i + 1 < argc && operand_secret(x, &argv[i + 1]))
				secret = true;
			i++;
			continue;
		}
		if (curl && w->n > 2 && w->s[0] == '-' && (w->s[1] == 'd' || w->s[1] == 'F' ||
							   w->s[1] == 'T')) {
			ci->f |= CI_NETSEND;
			struct wv t = classify_lit(w->s + 2, w->n - 2);
			if (operand_secret(x, &t))
				secret = true;
			continue;
		}
		if (wget && (long_opt(w, "--post-file", NULL, NULL) ||
			     long_opt(w, "--body-file", NULL, NULL))) {
			ci->f |= CI_NETSEND;
			if (operand_secret(x, w))
				secret = true;
			continue;
		}
		if (netcat && (cluster_has(w, 'e') || cluster_has(w, 'c') ||
			       classify_word_is(w, "--exec") || classify_word_is(w, "--sh-exec") ||
			       classify_word_is(w, "--lua-exec") ||
			       long_opt(w, "--exec", NULL, NULL) ||
			       long_opt(w, "--sh-exec", NULL, NULL)))
			exec = true;
		if (socat) {
			if (w->n > 5 && (strncasecmp(w->s, "exec:", 5) == 0 ||
					 strncasecmp(w->s, "system:", 7) == 0))
				exec = true;
			if (w->n > 4 && (strncasecmp(w->s, "tcp", 3) == 0 ||
					 strncasecmp(w->s, "udp", 3) == 0 ||
					 strncasecmp(w->s, "openssl", 7) == 0 ||
					 strncasecmp(w->s, "ssl", 3) == 0))
				tcp = true;
		}
		if (copy && !is_opt(w)) {
			const char *colon = memchr(w->s, ':', w->n);
			const char *slash = memchr(w->s, '/', w->n);
			if (colon && (!slash || colon < slash))
				remote = true;
			else if (operand_secret(x, w))
				secret = true;
		}
	}
	/* rsync --delete makes the destination match the source: what is
	 * not in the source is deleted there */
	if (name_is(name, n, "rsync")) {
		bool del = false;
		const struct wv *dest = NULL;
		for (size_t i = 1; i < argc; i++) {
			if (long_opt(&argv[i], "--delete", NULL, NULL) ||
			    long_abbrev(&argv[i], "--delete-before", 8) ||
			    long_abbrev(&argv[i], "--delete-after", 8) ||
			    long_abbrev(&argv[i], "--delete-during", 8) ||
			    long_abbrev(&argv[i], "--delete-excluded", 8))
				del = true;
			if (!is_opt(&argv[i]))
				dest = &argv[i];
		}
		bool dry = false;
		for (size_t i = 1; i < argc; i++)
			if (cluster_has(&argv[i], 'n') || classify_word_is(&argv[i], "--dry-run"))
				dry = true;
		if (del && !dry && dest && classify_word_static(dest) && !memchr(dest->s, ':', dest->n)) {
			const char *abs;
			enum path_class pc = classify_path(x, dest, &abs);
			if (pc == PATH_ROOT || pc == PATH_HOME_ROOT ||
			    (pc == PATH_SYSTEM && abs && core_system(abs)))
				classify_hit(x, CORDON_RISK_BLOCKED, class_labels(pc) | CORDON_L(DELETE_RECURSIVE),
				       "rsync.delete-system",
				       verdict_printf(x->v, "rsync --delete can delete everything in %s", abs));
		}
	}
	if (exec && (netcat || tcp))
		classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(REVERSE_SHELL) | CORDON_L(NETWORK),
		       "reverse-shell.exec",
		       "connects a shell to a network socket (reverse shell)");
	else if (exec)
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "socat.exec",
		       "starts a program for a socket");
	if (secret && (!copy || remote))
		classify_hit(x, CORDON_RISK_DESTRUCTIVE,
		       CORDON_L(EXFILTRATION) | CORDON_L(SECRETS) | CORDON_L(NETWORK),
		       "exfil.upload", "uploads a credential file");
}

/* git config [--global|--local|--system|--file F] KEY VALUE: a key that
 * runs a command stores it to run on later git calls. */
static void git_config_set(struct cx *x, struct wv *argv, size_t argc,
			   const char *const *keys, size_t nkeys)
{
	size_t i = 1;
	size_t ops[3], nops = 0;

	/* git's own options before "config" */
	while (i < argc && is_opt(&argv[i])) {
		if (classify_word_is(&argv[i], "-C") || classify_word_is(&argv[i], "-c"))
			i++;
		i++;
	}
	if (i >= argc || !classify_word_is(&argv[i], "config"))
		return;
	for (i++; i < argc && nops < 3; i++) {
		if (classify_word_is(&argv[i], "--file") || classify_word_is(&argv[i], "-f") ||
		    classify_word_is(&argv[i], "--blob") || classify_word_is(&argv[i], "--type")) {
			i++;
			continue;
		}
		if (is_opt(&argv[i]))
			continue;
		ops[nops++] = i;
	}
	if (nops < 2 || !classify_word_static(&argv[ops[0]]))
		return;
	char key[128];
	const struct wv *k = &argv[ops[0]];
	if (k->n >= sizeof(key))
		return;
	for (size_t j = 0; j < k->n; j++)
		key[j] = (char)tolower((unsigned char)k->s[j]);
	key[k->n] = '\0';
	for (size_t j = 0; j < nkeys; j++) {
		if (fnmatch(keys[j], key, 0) != 0)
			continue;
		struct wv val = argv[ops[1]];
		/* an alias runs a shell command only when it starts with '!' */
		if (strncmp(key, "alias.", 6) == 0 && !(val.n && val.s[0] == '!'))
			return;
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(PERSISTENCE), "git.config-exec-store",
		       verdict_printf(x->v, "stores a command in git's %s, to run on later git calls",
				      key));
		if (val.n && val.s[0] == '!') {
			val.s++;
			val.n--;
		}
		if (strcmp(key, "core.hookspath") != 0)
			payload_word(x, &val, CORDON_L(PERSISTENCE), "a command stored in git config");
		return;
	}
}

static void h_git(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	static const char *const exec_keys[] = {
		"core.pager", "core.editor", "core.sshcommand", "core.fsmonitor",
		"core.askpass", "sequence.editor", "diff.external", "gpg.program",
		"credential.helper", "uploadpack.packobjectshook", "core.hookspath",
		"pager.*", "alias.*", "filter.*.clean", "filter.*.smudge",
		"filter.*.process", "diff.*.textconv", "diff.*.command",
		"merge.*.driver", "difftool.*.cmd", "mergetool.*.cmd",
		"core.gitproxy", "protocol.*.allow",
	};

	(void)redirs;
	(void)ci;
	git_config_set(x, argv, argc, exec_keys,
		       sizeof(exec_keys) / sizeof(*exec_keys));
	/* git submodule foreach CMD…, git bisect run CMD… */
	for (size_t i = 1; i + 2 < argc; i++) {
		if (classify_word_is(&argv[i], "submodule") && classify_word_is(&argv[i + 1], "foreach")) {
			size_t k = i + 2;
			while (k < argc && is_opt(&argv[k]))
				k++;
			if (k < argc) {
				size_t jn;
				bool dyn;
				const char *j = join(x, argv, k, argc, &jn, &dyn);
				classify_payload(x, j, jn, CORDON_L(BATCH_EXEC),
					   "the command run in every submodule");
			}
			break;
		}
		if (classify_word_is(&argv[i], "bisect") && classify_word_is(&argv[i + 1], "run")) {
			struct cinfo sub;
			memset(&sub, 0, sizeof(sub));
			classify_command(x, argv + i + 2, argc - i - 2, NULL, &sub);
			break;
		}
	}
	/* git diff/log/show --output=FILE writes FILE (the patch goes there,
	 * not to stdout): judged as any other write. */
	for (size_t i = 1; i < argc; i++) {
		const char *val;
		size_t vn;
		if (classify_word_is(&argv[i], "--"))
			break;
		if (long_opt(&argv[i], "--output", &val, &vn)) {
			if (val) {
				struct wv t = argv[i];
				t.s = val;
				t.n = vn;
				t.dyn_at = t.dyn_at > (size_t)(val - argv[i].s)
						   ? t.dyn_at - (size_t)(val - argv[i].s)
						   : 0;
				commands_write_target(x, &t, true, "git writes its output to");
			} else if (i + 1 < argc) {
				commands_write_target(x, &argv[i + 1], true,
						"git writes its output to");
			}
		}
	}
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const struct wv *kv = NULL;
		struct wv t;
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--config")) && i + 1 < argc) {
			kv = &argv[i + 1];
		} else if (w->n > 2 && w->s[0] == '-' && w->s[1] == 'c' && w->s[2] != '-') {
			t = classify_lit(w->s + 2, w->n - 2);
			kv = &t;
		} else if (long_opt(w, "--config-env", NULL, NULL)) {
			/* the value comes from an environment variable cordon
			 * cannot see */
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DYNAMIC_COMMAND),
			       "git.config-env", "sets git configuration from the environment");
			continue;
		} else if (w->n > 5 && memcmp(w->s, "ext::", 5) == 0 && classify_word_static(w)) {
			/* git's ext transport runs its URL as a command:
			 * words split at spaces, "% " is a space inside a
			 * word, "%%" a percent sign */
			struct wv *ea = arena_alloc(x->a, (w->n + 1) * sizeof(*ea));
			char *buf = arena_alloc_raw(x->a, w->n + 1);
			size_t na = 0, o = 0, start = 0;
			for (size_t k = 5; ea && buf && k <= w->n; k++) {
				if (k == w->n || w->s[k] == ' ') {
					if (o > start) {
						buf[o] = '\0';
						ea[na++] = classify_lit(buf + start, o - start);
						o++;
						start = o;
					}
					continue;
				}
				if (w->s[k] == '%' && k + 1 < w->n) {
					buf[o++] = w->s[++k];
					continue;
				}
				buf[o++] = w->s[k];
			}
			if (na) {
				struct cinfo sub;
				memset(&sub, 0, sizeof(sub));
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL),
				       "git.ext", "git's ext:: transport runs a command");
				classify_command(x, ea, na, NULL, &sub);
			}
			continue;
		} else if (long_opt(w, "--upload-pack", NULL, NULL) ||
			   long_opt(w, "--receive-pack", NULL, NULL) ||
			   long_opt(w, "--exec", NULL, NULL)) {
			const char *eq = memchr(w->s, '=', w->n);
			if (eq) {
				struct wv c = classify_lit(eq + 1, w->n - (size_t)(eq + 1 - w->s));
				payload_word(x, &c, CORDON_L(NESTED_SHELL),
					     "a command git runs");
			}
			continue;
		}
		if (!kv)
			continue;
		const char *eq = memchr(kv->s, '=', kv->n);
		if (!eq)
			continue;
		size_t kl = (size_t)(eq - kv->s);
		char key[128];
		if (kl >= sizeof(key))
			continue;
		for (size_t k = 0; k < kl; k++)
			key[k] = (char)tolower((unsigned char)kv->s[k]);
		key[kl] = '\0';
		for (size_t k = 0; k < sizeof(exec_keys) / sizeof(*exec_keys); k++) {
			if (fnmatch(exec_keys[k], key, 0) != 0)
				continue;
			struct wv val = classify_lit(eq + 1, kv->n - kl - 1);
			val.f = kv->f & (WV_DYNAMIC | WV_SUBST);
			if (strncmp(key, "alias.", 6) == 0 && !(val.n && val.s[0] == '!'))
				break;
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "git.config-exec",
			       verdict_printf(x->v, "sets %s, which runs a command", key));
			if (strncmp(key, "alias.", 6) == 0) {
				if (val.n && val.s[0] == '!') {
					val.s++;
					val.n--;
					payload_word(x, &val, CORDON_L(NESTED_SHELL),
						     "a git alias");
				}
			} else if (strcmp(key, "core.hookspath") == 0) {
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(PERSISTENCE),
				       "git.hookspath", "points git at other hooks");
			} else {
				if (val.n && val.s[0] == '!') {
					val.s++;
					val.n--;
				}
				payload_word(x, &val, CORDON_L(NESTED_SHELL),
					     "a command git runs");
			}
			break;
		}
	}
}

static void h_rg(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const char *val;
		size_t vn;
		if (classify_word_is(&argv[i], "--pre") && i + 1 < argc) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "rg.pre",
			       "runs a preprocessor command on every file");
			payload_word(x, &argv[i + 1], CORDON_L(NESTED_SHELL),
				     "the preprocessor rg runs");
			i++;
		} else if (long_opt(&argv[i], "--pre", &val, &vn) && val) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL), "rg.pre",
			       "runs a preprocessor command on every file");
			struct wv t = classify_lit(val, vn);
			t.f = argv[i].f & (WV_DYNAMIC | WV_SUBST);
			payload_word(x, &t, CORDON_L(NESTED_SHELL),
				     "the preprocessor rg runs");
		}
	}
}

static void h_fifo(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	(void)x;
	(void)redirs;
	if (name_is(name, n, "mkfifo"))
		ci->f |= CI_FIFO;
	for (size_t i = 1; i < argc; i++)
		if (classify_word_is(&argv[i], "p"))
			ci->f |= CI_FIFO;
}

static void h_identity(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)x;
	(void)argv;
	(void)argc;
	(void)redirs;
	ci->f |= CI_IDENTITY;
}

static void h_cat(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)argv;
	/* cat <<EOF … EOF | sh: the here-doc is the text */
	if (argc == 1)
		feed_stdin(x, redirs, ci);
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (classify_word_static(w) && w->n > 14 && memcmp(w->s, "/proc/", 6) == 0 &&
		    memmem(w->s, w->n, "/environ", 8)) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS), "secrets.environ",
			       "reads a process environment");
			ci->f |= CI_ENVDUMP;
		}
		const char *abs = NULL;
		if (classify_word_static(w) && !is_opt(w))
			classify_path(x, w, &abs);
		if (abs && (strcmp(abs, "/etc/passwd") == 0 ||
			    strcmp(abs, "/etc/shadow") == 0 ||
			    strcmp(abs, "/etc/gshadow") == 0)) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(SECRETS_READ),
			       "secrets.accounts", "reads the system account database");
			ci->f |= CI_SECRETS;
		}
	}
}

/* ---- options that run a command ------------------------------------------------- */

#define EO_NEXT 1u  /* the value is the next argument: -e CMD */
#define EO_EQ 2u    /* --opt=CMD */
#define EO_GLUED 4u /* -eCMD, +CMD */
#define EO_MUST_STRIP 8u /* only a value starting with strip runs a command */

/* Options of ordinary programs whose value is a command line the program
 * runs: tar --to-command, rsync -e, man -P, vim -c '!…', gdb -ex 'shell …'.
 * strip is removed from the front of the value (case-insensitive). */
static const struct exec_opt {
	const char *cmd;
	const char *opt;
	const char *strip;
	unsigned how;
} exec_opts[] = {
	{"tar", "--to-command", NULL, EO_NEXT | EO_EQ},
	{"tar", "--checkpoint-action", "exec=", EO_NEXT | EO_EQ | EO_MUST_STRIP},
	{"tar", "--use-compress-program", NULL, EO_NEXT | EO_EQ},
	{"tar", "-I", NULL, EO_NEXT | EO_GLUED},
	{"tar", "--info-script", NULL, EO_NEXT | EO_EQ},
	{"tar", "--new-volume-script", NULL, EO_NEXT | EO_EQ},
	{"zip", "-TT", NULL, EO_NEXT},
	{"zip", "--unzip-command", NULL, EO_NEXT | EO_EQ},
	{"rsync", "-e", NULL, EO_NEXT | EO_GLUED},
	{"rsync", "--rsh", NULL, EO_NEXT | EO_EQ},
	{"rsync", "--rsync-path", NULL, EO_NEXT | EO_EQ},
	{"man", "-P", NULL, EO_NEXT | EO_GLUED},
	{"man", "--pager", NULL, EO_NEXT | EO_EQ},
	{"vim", "-c", "!", EO_NEXT | EO_MUST_STRIP},
	{"vim", "+", "!", EO_GLUED | EO_MUST_STRIP},
	{"vim", "--cmd", "!", EO_NEXT | EO_MUST_STRIP},
	{"vi", "-c", "!", EO_NEXT | EO_MUST_STRIP},
	{"vi", "+", "!", EO_GLUED | EO_MUST_STRIP},
	{"nvim", "-c", "!", EO_NEXT | EO_MUST_STRIP},
	{"nvim", "+", "!", EO_GLUED | EO_MUST_STRIP},
	{"ex", "-c", "!", EO_NEXT | EO_MUST_STRIP},
	{"ex", "+", "!", EO_GLUED | EO_MUST_STRIP},
	{"view", "-c", "!", EO_NEXT | EO_MUST_STRIP},
	{"less", "+", "!", EO_GLUED | EO_MUST_STRIP},
	{"gdb", "-ex", "shell ", EO_NEXT | EO_MUST_STRIP},
	{"gdb", "--eval-command", "shell ", EO_NEXT | EO_EQ | EO_MUST_STRIP},
	{"scp", "-o", "ProxyCommand=", EO_NEXT | EO_GLUED | EO_MUST_STRIP},
	{"sftp", "-o", "ProxyCommand=", EO_NEXT | EO_GLUED | EO_MUST_STRIP},
	{"ssh", "-o", "RemoteCommand=", EO_NEXT | EO_GLUED | EO_MUST_STRIP},
	{"git", "-x", NULL, EO_NEXT},
	{"xterm", "-e", NULL, EO_NEXT},
	{"nix-shell", "--run", NULL, EO_NEXT},
	{"nix-shell", "--command", NULL, EO_NEXT},
};

/* vim's ':!cmd' and gdb's '!cmd' are the same as '!cmd' and 'shell cmd'. */
static bool take_prefix(struct wv *v, const char *strip)
{
	size_t k = strlen(strip);

	while (v->n && (v->s[0] == ':' || v->s[0] == ' ') && strip[0] == '!') {
		v->s++;
		v->n--;
	}
	if (v->n >= k && strncasecmp(v->s, strip, k) == 0) {
		v->s += k;
		v->n -= k;
		return true;
	}
	if (strcmp(strip, "shell ") == 0 && v->n && v->s[0] == '!') {
		v->s++;
		v->n--;
		return true;
	}
	return false;
}

static void exec_options(struct cx *x, struct wv *argv, size_t argc,
			 const char *name, size_t n)
{
	for (size_t t = 0; t < sizeof(exec_opts) / sizeof(*exec_opts); t++) {
		const struct exec_opt *e = &exec_opts[t];
		if (e->cmd[0] != name[0] || strlen(e->cmd) != n ||
		    memcmp(e->cmd, name, n) != 0)
			continue;
		size_t ol = strlen(e->opt);
		for (size_t i = 1; i < argc; i++) {
			const struct wv *w = &argv[i];
			struct wv v;
			if ((e->how & EO_NEXT) && w->n == ol &&
			    memcmp(w->s, e->opt, ol) == 0 && i + 1 < argc) {
				v = argv[++i];
			} else if ((e->how & EO_EQ) && w->n > ol + 1 &&
				   memcmp(w->s, e->opt, ol) == 0 && w->s[ol] == '=') {
				v = *w;
				v.s += ol + 1;
				v.n -= ol + 1;
				v.dyn_at = v.dyn_at > ol + 1 ? v.dyn_at - ol - 1 : 0;
			} else if ((e->how & EO_GLUED) && w->n > ol &&
				   memcmp(w->s, e->opt, ol) == 0) {
				v = *w;
				v.s += ol;
				v.n -= ol;
				v.dyn_at = v.dyn_at > ol ? v.dyn_at - ol : 0;
			} else {
				continue;
			}
			if (e->strip && !take_prefix(&v, e->strip) &&
			    (e->how & EO_MUST_STRIP))
				continue;
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(NESTED_SHELL),
			       "option.exec",
			       verdict_printf(x->v, "%.*s %s runs a command", (int)n,
					      name, e->opt));
			payload_word(x, &v, CORDON_L(NESTED_SHELL),
				     "a command an option runs");
		}
	}
}

/* ---- dispatch ------------------------------------------------------------------- */

static const struct {
	const char *name;
	size_t len;
	handler_fn *fn;
} handlers[] = {
#define H(name, fn) {name, sizeof(name) - 1, fn}
	H(".", h_source),
	H("7z", h_archive),
	H("7za", h_archive),
	H("7zz", h_archive),
	H("[", h_subscripts),
	H("alias", h_alias),
	H("ansible", h_ansible),
	H("at", h_at),
	H("awk", h_awk),
	H("badblocks", h_disktool),
	H("base64", h_decode),
	H("basenc", h_decode),
	H("batch", h_at),
	H("blkdiscard", h_disktool),
	H("blockdev", h_disktool),
	H("bsdtar", h_archive),
	H("busybox", h_busybox),
	H("cat", h_cat),
	H("cd", h_cd),
	H("cfdisk", h_disktool),
	H("chgrp", h_chmod),
	H("chmod", h_chmod),
	H("chown", h_chmod),
	H("clickhouse-client", h_sqlclient),
	H("command", h_command),
	H("cp", h_copy),
	H("cqlsh", h_sqlclient),
	H("crontab", h_crontab),
	H("cryptsetup", h_disktool),
	H("curl", h_network),
	H("dd", h_dd),
	H("declare", h_envdump),
	H("dig", h_network),
	H("docker", h_container_exec),
	H("drill", h_network),
	H("echo", h_echo),
	H("env", h_env),
	H("eval", h_eval),
	H("export", h_envdump),
	H("fdisk", h_disktool),
	H("find", h_find),
	H("flock", h_flock),
	H("gawk", h_awk),
	H("gdisk", h_disktool),
	H("git", h_git),
	H("gmake", h_make),
	H("gsed", h_sed),
	H("hdparm", h_disktool),
	H("head", h_cat),
	H("history", h_history),
	H("host", h_network),
	H("hostname", h_identity),
	H("id", h_identity),
	H("install", h_copy),
	H("k", h_container_exec),
	H("kill", h_kill),
	H("kubectl", h_container_exec),
	H("less", h_cat),
	H("let", h_subscripts),
	H("ln", h_copy),
	H("local", h_envdump),
	H("make", h_make),
	H("mariadb", h_sqlclient),
	H("mawk", h_awk),
	H("mkdir", h_create),
	H("mkfifo", h_fifo),
	H("mknod", h_fifo),
	H("mkswap", h_disktool),
	H("mongo", h_sqlclient),
	H("mongosh", h_sqlclient),
	H("more", h_cat),
	H("mv", h_copy),
	H("mysql", h_sqlclient),
	H("nawk", h_awk),
	H("nc", h_network),
	H("ncat", h_network),
	H("netcat", h_network),
	H("nslookup", h_network),
	H("oc", h_container_exec),
	H("openssl", h_decode),
	H("parallel", h_parallel),
	H("parted", h_disktool),
	H("partprobe", h_disktool),
	H("ping", h_network),
	H("ping6", h_network),
	H("podman", h_container_exec),
	H("printenv", h_envdump),
	H("printf", h_echo),
	H("psql", h_sqlclient),
	H("pushd", h_cd),
	H("readonly", h_envdump),
	H("rev", h_filter),
	H("rg", h_rg),
	H("rm", h_rm),
	H("rmdir", h_rm),
	H("rsync", h_network),
	H("runuser", h_runuser),
	H("scp", h_network),
	H("script", h_script),
	H("sed", h_sed),
	H("set", h_envdump),
	H("sfdisk", h_disktool),
	H("sftp", h_network),
	H("sg", h_sg),
	H("sgdisk", h_disktool),
	H("shred", h_shred),
	H("socat", h_network),
	H("source", h_source),
	H("sqlite3", h_sqlclient),
	H("ssh", h_ssh),
	H("su", h_su),
	H("tail", h_cat),
	H("tar", h_archive),
	H("tee", h_tee),
	H("telnet", h_network),
	H("test", h_subscripts),
	H("touch", h_create),
	H("toybox", h_busybox),
	H("tr", h_filter),
	H("traceroute", h_network),
	H("trap", h_trap),
	H("truncate", h_truncate),
	H("typeset", h_envdump),
	H("uname", h_identity),
	H("unlink", h_rm),
	H("unset", h_envdump),
	H("unzip", h_archive),
	H("uudecode", h_decode),
	H("watch", h_watch),
	H("wget", h_network),
	H("whoami", h_identity),
	H("whois", h_network),
	H("wipefs", h_disktool),
	H("xargs", h_xargs),
	H("xxd", h_decode),
#undef H
};

static handler_fn *find_handler_row(const char *name, size_t n)
{
	size_t lo = 0, hi = sizeof(handlers) / sizeof(*handlers);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *h = handlers[mid].name;
		size_t hn = handlers[mid].len;
		int c = memcmp(h, name, hn < n ? hn : n);
		if (c == 0)
			c = hn == n ? 0 : hn < n ? -1 : 1;
		if (c == 0)
			return handlers[mid].fn;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The handler for a command name: its row, or the shells' handlers for the
 * shells of the wrapper table. */
static handler_fn *find_handler(const char *name, size_t n)
{
	handler_fn *h = find_handler_row(name, n);
	const struct wrapper *w;

	if (h)
		return h;
	w = wrappers_find(name, n, NULL, 0);
	if (w && w->kind == WRAPPER_SHELL)
		return h_shell;
	if (w && w->kind == WRAPPER_FOREIGN)
		return h_foreign_shell;
	return NULL;
}

/* Re-splits words that hold $IFS, as the shell would. */
static size_t ifs_split(struct cx *x, struct wv *argv, size_t argc,
			struct wv **out)
{
	size_t cap = argc;
	for (size_t i = 0; i < argc; i++)
		if (argv[i].f & (WV_IFS | WV_SPLIT))
			for (size_t k = 0; k < argv[i].n; k++)
				cap += classify_is_ifs(x, argv[i].s[k]);
	struct wv *a = arena_alloc(x->a, (cap + 1) * sizeof(*a));
	size_t n = 0;
	if (!a) {
		x->v->oom = true;
		*out = argv;
		return argc;
	}
	for (size_t i = 0; i < argc; i++) {
		if (!(argv[i].f & (WV_IFS | WV_SPLIT))) {
			a[n++] = argv[i];
			continue;
		}
		const char *s = argv[i].s, *end = s + argv[i].n;
		while (s < end) {
			while (s < end && classify_is_ifs(x, *s))
				s++;
			const char *e = s;
			while (e < end && !classify_is_ifs(x, *e))
				e++;
			if (e > s) {
				a[n] = classify_lit(s, (size_t)(e - s));
				a[n].f = argv[i].f & ~(WV_IFS | WV_SPLIT);
				a[n].dyn_at = a[n].n;
				n++;
			}
			s = e;
		}
	}
	*out = a;
	return n;
}

/* Names of script and program files: running one runs code nobody showed. */
bool commands_script_suffix(const char *s, size_t n)
{
	static const char *const ext[] = {"sh", "bash", "zsh", "bat", "cmd",
					  "ps1", "vbs", "py", "pl", "rb", "js",
					  "php", "run", "bin", "com", "msi",
					  "AppImage"};
	const char *dot = NULL;

	for (size_t i = n; i-- > 1;)
		if (s[i] == '.') {
			dot = s + i + 1;
			break;
		}
	if (!dot)
		return false;
	size_t e = n - (size_t)(dot - s);
	for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++)
		if (strlen(ext[i]) == e && strncasecmp(dot, ext[i], e) == 0)
			return true;
	return false;
}

bool commands_tables_sorted(void)
{
	for (size_t i = 1; i < sizeof(handlers) / sizeof(*handlers); i++)
		if (strcmp(handlers[i - 1].name, handlers[i].name) >= 0 ||
		    handlers[i].len != strlen(handlers[i].name))
			return false;
	return wrappers_table_sorted();
}

bool commands_known(const char *name, size_t n)
{
	if (!name || n == 0)
		return false;
	static const char *const builtins[] = {
		"cd", "echo", "printf", "test", "[", "read", "exit", "return",
		"export", "set", "unset", "trap", "type", "hash", "alias", "ls",
		"cat", "pwd", "sudo", "exec", "eval", "source", "command", "builtin",
		"git", "rm", "cp", "mv", "ssh", "curl", "wget", "python", "python3",
		"node", "npm", "make", "grep", "find", "kill", "which", "true",
		"false", "wait", "jobs", "fg", "bg", "umask", "ulimit", "shift",
		"local", "declare", "history", "man", "env", "time"};
	for (size_t i = 0; i < sizeof(builtins) / sizeof(*builtins); i++)
		if (builtins[i][0] == name[0] && strlen(builtins[i]) == n &&
		    memcmp(builtins[i], name, n) == 0)
			return true;
	return find_handler(name, n) != NULL;
}

static bool trusted_bin(const struct wv *w)
{
	static const char *const dirs[] = {"/bin/", "/usr/bin/", "/sbin/",
					   "/usr/sbin/", "/usr/local/bin/",
					   "/opt/homebrew/bin/"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		size_t n = strlen(dirs[i]);
		if (w->n > n && memcmp(w->s, dirs[i], n) == 0 &&
		    !memchr(w->s + n, '/', w->n - n))
			return true;
	}
	return false;
}

/* Is (name, n) a command name cordon knows anything about, or a function
 * defined on the line? */
static bool name_known(const struct cx *x, const char *name, size_t n)
{
	for (unsigned i = 0; i < x->nfuncs; i++)
		if (x->funcs[i].nlen == n && memcmp(x->funcs[i].name, name, n) == 0)
			return true;
	return find_handler(name, n) || wrappers_find_interp(name, n) ||
	       wrappers_find(name, n, NULL, 0) || commands_known(name, n) ||
	       classify_family_known(x, name, n);
}

/* A command cordon does not know may be a wrapper nobody told it about
 * (eatmydata rm -rf ~, foo -x bar rm -rf ~): returns the index of the
 * first later word that is a command name cordon knows, bare or in a
 * system bin directory, or 0. Options, NAME=value words and operands it
 * does not know are passed over (they may be the wrapper's own); words
 * that are the usual subcommands of tools (mytool install, mytool test)
 * are too; a word known only at run time ends the search. So
 * "mytool build src/" stays what it was. */
static size_t unknown_wrapper_at(const struct cx *x, struct wv *argv,
				 size_t argc)
{
	static const char *const verbs[] = {
		"cat",	 "cd",	   "echo", "export", "false", "help",
		"history", "install", "ls",	"man",	  "printf", "pwd",
		"read",	 "set",	   "test", "time",   "true",   "type",
		"unset",	 "wait",   "which",
	};

	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *b;
		size_t bn;
		bool verb = false;

		if (!classify_word_static(w))
			return 0;
		if (w->n == 0 || w->s[0] == '-' || memchr(w->s, '=', w->n))
			continue;
		if (memchr(w->s, '/', w->n) && !trusted_bin(w))
			continue;
		b = classify_cmd_base(w, &bn);
		for (size_t k = 0; k < sizeof(verbs) / sizeof(*verbs); k++)
			verb = verb || name_is(b, bn, verbs[k]);
		if (!verb && bn && name_known(x, b, bn))
			return i;
	}
	return 0;
}

static void commands_classify_1(struct cx *x, struct wv *argv, size_t argc,
				const struct sh_redir *redirs, struct cinfo *ci);

/* Wrappers nest (nohup nohup … rm): each hop is a call, so there is a
 * ceiling, and going past it fails closed. */
#define MAX_HOPS 64

void commands_classify(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	if (x->hops >= MAX_HOPS) {
		classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(DEPTH_LIMIT), "limit.wrappers",
		       "wrappers nested deeper than cordon reads");
		return;
	}
	x->hops++;
	commands_classify_1(x, argv, argc, redirs, ci);
	x->hops--;
}

static void commands_classify_1(struct cx *x, struct wv *argv, size_t argc,
				const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;

	if (argc == 0) {
		classify_note_command(x, argv, 0, redirs);
		judge_redirs(x, redirs, ci, false);
		return;
	}
	for (size_t i = 0; i < argc; i++) {
		if (argv[i].f & (WV_IFS | WV_SPLIT)) {
			struct wv *a;
			bool ifs = false;
			for (size_t k = 0; k < argc; k++)
				ifs = ifs || (argv[k].f & WV_IFS);
			size_t c = ifs_split(x, argv, argc, &a);
			if (ifs)
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(OBFUSCATION),
				       "obfuscation.ifs",
				       "uses $IFS to hide spaces between words");
			for (size_t k = 0; k < c; k++)
				a[k].f &= ~(WV_IFS | WV_SPLIT);
			commands_classify(x, a, c, redirs, ci);
			return;
		}
	}
	classify_note_command(x, argv, argc, redirs);
	struct wv *name = &argv[0];
	for (size_t i = 0; i < argc; i++)
		if (argv[i].f & WV_ESCAPED) {
			classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(OBFUSCATION),
			       "obfuscation.ansi-c",
			       "spells text with escapes or base64, which hides what it says");
			break;
		}
	if (name->f & WV_DECODED)
		classify_hit(x, CORDON_RISK_CAUTION,
		       CORDON_L(OBFUSCATION) | CORDON_L(DYNAMIC_COMMAND),
		       "obfuscation.name", "the command name is computed by a substitution");
	else if (name->f & WV_LINEVAR)
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DYNAMIC_COMMAND),
		       "dynamic-command.var", "the command name comes from variables");
	if ((!classify_word_static(name) && !(name->f & WV_DECODED)) || (name->f & WV_GLOB)) {
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(DYNAMIC_COMMAND),
		       "dynamic-command", "the command name is decided at run time");
		/* An unknown command aimed at a protected place is judged by
		 * the place. */
		for (size_t i = 1; i < argc; i++) {
			const char *abs;
			if (!classify_word_static(&argv[i]) || is_opt(&argv[i]) || !argv[i].n)
				continue;
			if (argv[i].s[0] != '/' && argv[i].s[0] != '~' &&
			    !(argv[i].f & WV_TILDE))
				continue;
			enum path_class pc = classify_path(x, &argv[i], &abs);
			if (pc == PATH_ROOT || pc == PATH_SYSTEM ||
			    pc == PATH_HOME_ROOT || pc == PATH_DEVICE)
				classify_hit(x, CORDON_RISK_DESTRUCTIVE,
				       CORDON_L(DYNAMIC_COMMAND) | class_labels(pc),
				       "dynamic-command.protected-path",
				       "an unknown command is aimed at a protected path");
		}
		judge_redirs(x, redirs, ci, false);
		return;
	}
	const char *base = classify_cmd_base(name, &n);
	if (argc == 2 && (classify_word_is(&argv[1], "--help") || classify_word_is(&argv[1], "--version"))) {
		/* prints and exits; what it prints still goes where the
		 * redirections say */
		judge_redirs(x, redirs, ci, false);
		return;
	}
	/* what cordon knows the name as, looked up once */
	const struct wrapper *wr = find_wrapper(argv, argc, base, n);
	const struct wrappers_interp *ip = wrappers_find_interp(base, n);
	handler_fn *h = find_handler(base, n);
	bool script = commands_script_suffix(base, n);

	if (script ||
	    (name->n > 4 && strncasecmp(name->s + name->n - 4, ".exe", 4) == 0 &&
	     !h))
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT), "runs-script.name",
		       "runs a script or program file cordon has not read");
	if (memchr(name->s, '/', name->n))
		check_downloaded(x, name);
	if (memchr(name->s, '/', name->n) && !trusted_bin(name) && !h)
		classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(RUNS_SCRIPT), "runs-script.path",
		       "runs a program from a path cordon has not read");

	/* On a case-insensitive file system (macOS) "SuDo Rm" runs sudo rm:
	 * a name with capitals that cordon does not know is judged as the
	 * name in lower case too. */
	bool upper = false;
	for (size_t k = 0; k < n; k++)
		if (base[k] >= 'A' && base[k] <= 'Z')
			upper = true;
	if (upper && n < 64 && !h && !ip && !wr) {
		char *low = arena_alloc(x->a, n + 1);
		if (low) {
			for (size_t k = 0; k < n; k++)
				low[k] = (char)tolower((unsigned char)base[k]);
			struct wv saved = argv[0];
			argv[0] = classify_lit(low, n);
			size_t ln;
			const char *lb = classify_cmd_base(&argv[0], &ln);
			if (find_handler(lb, ln) || wrappers_find_interp(lb, ln) ||
			    find_wrapper(argv, argc, lb, ln) || commands_known(lb, ln)) {
				classify_hit(x, CORDON_RISK_CAUTION, CORDON_L(OBFUSCATION),
				       "obfuscation.case",
				       "a command name in mixed case, which a case-insensitive file system runs as the lower-case command");
				commands_classify(x, argv, argc, redirs, ci);
				argv[0] = saved;
				return;
			}
			argv[0] = saved;
		}
	}
	if (wr) {
		h_wrapper(x, wr, argv, argc, redirs, ci);
		/* the wrapper's own rows (npm exec runs a package) and deny
		 * entries (a configured "sudo") */
		classify_apply_table(x, argv, argc);
		classify_apply_denylist(x, argv, argc);
		return;
	}
	if (!h && !ip) {
		/* nc.traditional is nc; deploy.sh is not "deploy" */
		const char *dot = memchr(base, '.', n);
		if (dot && dot > base && !script) {
			h = find_handler(base, (size_t)(dot - base));
			if (h) {
				/* handlers read the name again: give them "nc" */
				argv[0] = classify_lit(base, (size_t)(dot - base));
				n = (size_t)(dot - base);
			}
		}
	}
	if (!h && !ip && !name_known(x, base, n)) {
		size_t j = unknown_wrapper_at(x, argv, argc);
		if (j) {
			classify_hit(x, CORDON_RISK_CAUTION,
				     CORDON_L(DYNAMIC_COMMAND), "wrapper.unknown",
				     "an unknown command followed by a command line: it may run it");
			classify_command(x, argv + j, argc - j, redirs, ci);
			classify_apply_denylist(x, argv, argc);
			return;
		}
	}
	bool shellish = h == h_shell;
	if (ip) {
		h_interp(x, ip, argv, argc, redirs, ci);
	} else if (h) {
		if (!shellish)
			judge_redirs(x, redirs, ci, false);
		h(x, argv, argc, redirs, ci);
	} else {
		judge_redirs(x, redirs, ci, false);
	}
	if (!shellish && !ip && h != h_cat && h != h_echo)
		feed_stdin(x, redirs, ci);
	exec_options(x, argv, argc, base, n);
	note_written(x, redirs, ci);
	secrets_pass(x, argv, argc, ci);
	secrets_out(x, argv, argc, redirs, ci, base, n);
	classify_apply_table(x, argv, argc);
	classify_apply_denylist(x, argv, argc);
	x->line_ci |= ci->f;
}
