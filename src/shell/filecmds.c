/* filecmds — the handlers of commands judged by the paths they touch:
 * deletion (rm, shred, truncate, dd), writes and creations, copies and
 * moves, permissions, tee, kill, and secrets read as operands or sent out.
 * Dispatched from commands.c; see commands_int.h.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "classify_int.h"
#include "codescan.h"
#include "commands_int.h"
#include "names.h"
#include "wrappers.h"
#include "banned.h"

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

void filecmds_judge_delete(struct cx *x, const struct wv *w, bool recursive,
			 bool force, const char *verb)
{
	judge_delete_capped(x, w, recursive, force, verb, CORDON_RISK_BLOCKED);
}

/* classify_rule_why, but never above cap. */
static void hit_capped(struct cx *x, enum cordon_risk cap,
		       enum cordon_risk tier, uint64_t labels,
		       enum rule_id rule, const char *reason)
{
	classify_rule_why(x, rule, tier > cap ? cap : tier, labels, reason);
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
		enum rule_id r = recursive ? RULE_DELETE_DYNAMIC_RECURSIVE :
				 x->batch  ? RULE_DELETE_DYNAMIC_BATCH :
					     RULE_DELETE_DYNAMIC;
		hit_capped(x, cap, rules_catalog[r].tier, base, r,
			   rules_reason(r));
		return;
	}
	enum path_class pc = classify_path(x, w, &abs);
	if (!abs)
		return;
	uint64_t l = base | commands_class_labels(pc);
	if (commands_is_history_file(abs))
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l,
			   RULE_HISTORY_DELETE,
			   rules_reason(RULE_HISTORY_DELETE));
	if (path_is_repo_db(abs))
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l, RULE_GIT_REPO_DB,
			   classify_rule_text(x->v, GIT_REPO_DB, verb, abs));
	switch (pc) {
	case PATH_ROOT:
	case PATH_HOME_ROOT:
		hit_capped(x, cap,
			   recursive ? CORDON_RISK_BLOCKED :
				       CORDON_RISK_DESTRUCTIVE,
			   l, pc == PATH_ROOT ? RULE_RM_ROOT : RULE_RM_HOME,
			   pc == PATH_ROOT ?
				   classify_rule_text(x->v, RM_ROOT, verb) :
				   classify_rule_text(x->v, RM_HOME, verb));
		break;
	case PATH_SYSTEM:
		hit_capped(x, cap,
			   recursive || commands_core_system(abs) ?
				   CORDON_RISK_BLOCKED :
				   CORDON_RISK_DESTRUCTIVE,
			   l, RULE_RM_SYSTEM,
			   classify_rule_text(x->v, RM_SYSTEM, verb, abs));
		break;
	case PATH_DEVICE:
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l, RULE_RM_DEVICE,
			   classify_rule_text(x->v, RM_DEVICE, verb, abs));
		break;
	case PATH_HOME:
	case PATH_OUTSIDE:
		hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l, RULE_RM_OUTSIDE,
			   classify_rule_text(x->v, RM_OUTSIDE, verb, abs));
		break;
	case PATH_WORKSPACE_ROOT:
		if (recursive || glob_takes_all(w))
			hit_capped(x, cap, CORDON_RISK_DESTRUCTIVE, l,
				   RULE_RM_WORKSPACE_ROOT,
				   classify_rule_text(x->v, RM_WORKSPACE_ROOT,
						      verb));
		else
			hit_capped(x, cap, CORDON_RISK_CAUTION, l,
				   (w->f & WV_GLOB) ? RULE_RM_WILDCARD :
						      RULE_RM_FILE,
				   (w->f & WV_GLOB) ?
					   classify_rule_text(x->v, RM_WILDCARD,
							      verb) :
					   classify_rule_text(x->v, RM_FILE,
							      verb));
		break;
	case PATH_WORKSPACE:
	case PATH_TMP:
		if (recursive || (w->f & WV_GLOB))
			hit_capped(x, cap,
				   recursive || glob_takes_all(w) ?
					   CORDON_RISK_DESTRUCTIVE :
					   CORDON_RISK_CAUTION,
				   l,
				   recursive ? RULE_RM_RECURSIVE :
					       RULE_RM_WILDCARD,
				   recursive ?
					   classify_rule_text(
						   x->v, RM_RECURSIVE, verb) :
					   classify_rule_text(x->v, RM_WILDCARD,
							      verb));
		else
			hit_capped(x, cap, CORDON_RISK_CAUTION, l, RULE_RM_FILE,
				   classify_rule_text(x->v, RM_FILE, verb));
		break;
	case PATH_DEV_HARMLESS:
		break;
	}
}

void filecmds_write_target(struct cx *x, const struct wv *w, bool truncates,
		     const char *how)
{
	const char *abs = NULL;

	if (!classify_word_static(w) && !(w->f & WV_DECODED)) {
		classify_rulef(x, WRITE_DYNAMIC, how);
		return;
	}
	if (w->n >= 9 && (memcmp(w->s, "/dev/tcp/", 9) == 0 ||
			  memcmp(w->s, "/dev/udp/", 9) == 0)) {
		classify_rule(x, RULE_NET_DEV_TCP);
		return;
	}
	enum path_class pc = classify_path(x, w, &abs);
	if (!abs)
		return;
	uint64_t l = commands_class_labels(pc);
	int later = path_runs_later(&x->pc, abs);
	if (truncates && commands_is_history_file(abs))
		classify_rule(x, RULE_HISTORY_TRUNCATE);
	if (path_is_repo_db(abs))
		classify_rulef(x, GIT_REPO_DB, how, abs);
	switch (pc) {
	case PATH_DEV_HARMLESS:
		return;
	case PATH_DEVICE:
		classify_rulef(x, WRITE_DEVICE, how, abs);
		return;
	case PATH_ROOT:
	case PATH_SYSTEM:
		if (commands_core_system(abs) || pc == PATH_ROOT)
			classify_rulef_plus(x, WRITE_SYSTEM, l, how, abs);
		else
			classify_rulef_plus(x, WRITE_SYSTEM_DATA, l, how, abs);
		break;
	case PATH_HOME:
	case PATH_HOME_ROOT:
	case PATH_OUTSIDE:
		classify_rulef_plus(x, WRITE_OUTSIDE, l, how, abs);
		break;
	default:
		break;
	}
	if (later == 1)
		classify_rulef(x, WRITE_SHELL_RC, how, abs);
	else if (later == 2)
		classify_rulef(x, WRITE_PERSISTENCE, how, abs);
	else if (path_is_secret(abs)) {
		/* replacing a key outside the workspace loses it; a .env
		 * in the workspace is written from a template every day */
		bool loses = truncates && pc != PATH_WORKSPACE && pc != PATH_WORKSPACE_ROOT &&
			     pc != PATH_TMP;
		classify_rule_why(
			x, RULE_WRITE_SECRETS,
			loses ? CORDON_RISK_DESTRUCTIVE : CORDON_RISK_CAUTION,
			loses ? CORDON_L(DATA_LOSS) : 0,
			classify_rule_text(x->v, WRITE_SECRETS, how, abs));
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
bool filecmds_operand_secret(struct cx *x, const struct wv *w)
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
static const char *const readers[] = {
	"cat", "less", "more", "head", "tail", "bat", "batcat", "strings",
	"xxd", "od", "hexdump", "base64", "grep", "egrep", "fgrep", "rg",
	"cp", "scp", "rsync", "nano", "vi", "vim", "nvim", "emacs", "code",
	"source", ".", "sort", "uniq", "awk", "sed", "jq", "yq", "tac",
	"nl", "diff", "openssl", "gpg", "zip", "tar", "curl", "wget",
	"xclip", "pbcopy", "sh", "bash", "python", "python3", "node"};

/* Commands whose operands are never file contents read: names, refs,
 * text. */
static const char *const never_readers[] = {
	"echo", "printf", "git", "ls", "touch", "mkdir", "test", "[", "stat",
	"file", "which", "type", "ssh-keygen", "ssh-add", "chmod", "chown",
	"rm", "shred", "mv"};

const char *const *filecmds_readers(size_t *n)
{
	*n = sizeof(readers) / sizeof(*readers);
	return readers;
}

const char *const *filecmds_never_readers(size_t *n)
{
	*n = sizeof(never_readers) / sizeof(*never_readers);
	return never_readers;
}

/* Without the name index (names_ready()), the lists are searched. */
static bool in_list(const char *const *list, size_t count, const char *name,
		    size_t n)
{
	for (size_t i = 0; i < count; i++)
		if (list[i][0] == name[0] && strlen(list[i]) == n &&
		    memcmp(list[i], name, n) == 0)
			return true;
	return false;
}

static bool reads_files(const char *name, size_t n)
{
	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);
		return r && (r->flags & NAMES_F_READS_FILES);
	}
	return in_list(readers, sizeof(readers) / sizeof(*readers), name, n);
}

static bool never_reads(const char *name, size_t n)
{
	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);
		return r && (r->flags & NAMES_F_NEVER_READS);
	}
	return in_list(never_readers,
		       sizeof(never_readers) / sizeof(*never_readers), name, n);
}

/* Secrets on their way out: a secret in an argument ($GITHUB_TOKEN, a
 * variable read from id_rsa), on stdin, or in a file a network command
 * sends, and copies of secrets written to files for later. */
void filecmds_secrets_out(struct cx *x, struct wv *argv, size_t argc,
			const struct sh_redir *redirs, struct cinfo *ci,
			const char *name, size_t n)
{
	bool arg_secret = false;

	for (size_t i = 1; i < argc; i++)
		if (argv[i].f & WV_SECRET)
			arg_secret = true;
	if (commands_name_is(name, n, "gpg"))
		for (size_t i = 1; i < argc; i++)
			if (commands_long_opt(&argv[i], "--export-secret-keys", NULL, NULL) ||
			    commands_long_opt(&argv[i], "--export-secret-subkeys", NULL, NULL))
				arg_secret = true;
	if (arg_secret) {
		classify_rule(x, RULE_SECRETS_ARG);
		ci->f |= CI_SECRETS;
	}
	if (((ci->f & (CI_SECRETS | CI_STDIN_SECRET)) &&
	     (ci->f & (CI_NETSEND | CI_NETCAT))) ||
	    (arg_secret && (ci->f & CI_NETWORK)))
		classify_rule(x, RULE_EXFIL_SEND);
	if (ci->f & CI_SECRETS)
		for (const struct sh_redir *r = redirs; r; r = r->next)
			if ((r->op == SH_R_OUT || r->op == SH_R_APPEND ||
			     r->op == SH_R_CLOBBER) && r->fd <= 1) {
				struct wv t = classify_eval(x, r->target);
				note_secret_file(x, &t);
			}
}

void filecmds_secrets_pass(struct cx *x, struct wv *argv, size_t argc,
			 struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool reader = reads_files(name, n);
	bool ssh = (n == 3 && (memcmp(name, "ssh", 3) == 0 || memcmp(name, "scp", 3) == 0)) ||
		   (commands_name_is(name, n, "sftp"));

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
		    !memchr(w->s, '/', w->n) &&
		    ((w->f & WV_PLAIN) || !memchr(w->s, '@', w->n)))
			continue;
		if (!(w->f & WV_PLAIN) &&
		    (memchr(w->s, ' ', w->n) || memchr(w->s, '\n', w->n)))
			continue;
		if (filecmds_operand_secret(x, &argv[i])) {
			classify_rule(x, RULE_SECRETS_READ);
			ci->f |= CI_SECRETS;
			return;
		}
	}
}

/* ---- files, permissions, processes --------------------------------------------- */

void filecmds_rm(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	bool rec = false, force = false, dashdash = false, any = false;
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool unlink = commands_name_is(name, n, "unlink");
	bool rmdir = commands_name_is(name, n, "rmdir");

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (dashdash || !commands_is_opt(w))
			continue;
		if (commands_is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		if (commands_long_abbrev(w, "--recursive", 5))
			rec = true;
		else if (commands_long_abbrev(w, "--force", 3))
			force = true;
		else if (commands_long_abbrev(w, "--no-preserve-root", 6))
			classify_rule(x, RULE_RM_NO_PRESERVE_ROOT);
		else if (w->s[1] != '-') {
			if (commands_cluster_has(w, 'r') || commands_cluster_has(w, 'R'))
				rec = true;
			if (commands_cluster_has(w, 'f'))
				force = true;
		}
	}
	dashdash = false;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!dashdash && commands_is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		if (!dashdash && commands_is_opt(w))
			continue;
		any = true;
		filecmds_judge_delete(x, w, rec && !unlink && !rmdir, force,
			     rmdir ? "removes directories in" : "deletes");
	}
	(void)any;
}

void filecmds_shred(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (commands_is_opt(w)) {
			if (classify_word_is(w, "-n") || classify_word_is(w, "-s") || classify_word_is(w, "--iterations") ||
			    classify_word_is(w, "--size") || classify_word_is(w, "--random-source"))
				i++;
			continue;
		}
		classify_rule(x, RULE_SHRED);
		filecmds_write_target(x, w, true, "shreds");
		filecmds_judge_delete(x, w, false, true, "shreds");
	}
}

void filecmds_truncate(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (commands_is_opt(w)) {
			if (classify_word_is(w, "-s") || classify_word_is(w, "-r") || classify_word_is(w, "--size") ||
			    classify_word_is(w, "--reference"))
				i++;
			continue;
		}
		classify_rule(x, RULE_TRUNCATE);
		filecmds_write_target(x, w, true, "truncates");
	}
}

void filecmds_dd(struct cx *x, struct wv *argv, size_t argc,
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
			classify_rule(x, RULE_DD_WRITE);
			filecmds_write_target(x, &t, true, "dd writes");
		} else if (w->n > 3 && memcmp(w->s, "if=", 3) == 0) {
			struct wv t = *w;
			const char *abs;
			t.s += 3;
			t.n -= 3;
			if (classify_word_static(&t) && classify_path(x, &t, &abs) == PATH_DEVICE)
				classify_rule(x, RULE_DD_READ_DEVICE);
		}
	}
}

/* touch and mkdir create (or touch) every operand: each is a write to
 * that path, judged like a redirection (touch /etc/x is a write to /etc).
 * Options that take a value: touch -d -t -r, mkdir -m. */
void filecmds_create(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool touch = commands_name_is(name, n, "touch");
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
		filecmds_write_target(x, w, false, touch ? "touches" : "creates");
	}
}

/* mv, cp, install, ln: the destination is written; mv also removes the
 * sources from where they were. */
void filecmds_copy(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool mv = commands_name_is(name, n, "mv");
	bool ln = commands_name_is(name, n, "ln");
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
		if (!dashdash && commands_is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		if (!dashdash && commands_is_opt(w)) {
			if ((classify_word_is(w, "-t") || classify_word_is(w, "--target-directory")) &&
			    i + 1 < argc) {
				target = &argv[++i];
			} else if (commands_long_opt(w, "--target-directory", &val, &vn) && val) {
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
		classify_rule(x, RULE_MV_DEV_NULL);
		return;
	}
	filecmds_write_target(x, target, true, ln ? "links" : mv ? "moves files to" : "copies files to");
	for (size_t k = 0; k < nops && !ln; k++)
		if (filecmds_operand_secret(x, &argv[ops[k]])) {
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
		    (pc == PATH_SYSTEM && commands_core_system(abs)))
			classify_rulef_plus(x, MV_SYSTEM_SOURCE,
					    commands_class_labels(pc), abs);
		else if (pc == PATH_SYSTEM || pc == PATH_HOME || pc == PATH_OUTSIDE)
			classify_rulef_plus(x, MV_OUTSIDE_SOURCE,
					    commands_class_labels(pc), abs);
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

void filecmds_chmod(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool chmod = commands_name_is(name, n, "chmod");
	bool rec = false, ref = false, dashdash = false;
	size_t ops[256], nops = 0;

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!dashdash && commands_is_dashdash(w)) {
			dashdash = true;
			continue;
		}
		/* chmod -w / -x are modes, not options */
		if (!dashdash && commands_is_opt(w) &&
		    !(chmod && w->n > 1 && strchr("rwxXst", w->s[1]) && w->s[1] != '-')) {
			if (commands_long_opt(w, "--recursive", NULL, NULL) || commands_cluster_has(w, 'R'))
				rec = true;
			if (commands_long_opt(w, "--reference", NULL, NULL))
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
		classify_rule_plus(x, RULE_CHMOD_SETUID, base);
	for (size_t k = first; k < nops; k++) {
		const struct wv *w = &argv[ops[k]];
		const char *abs;
		if (!classify_word_static(w)) {
			if (rec)
				classify_rule_plus(
					x, RULE_CHMOD_RECURSIVE_DYNAMIC, base);
			continue;
		}
		enum path_class pc = classify_path(x, w, &abs);
		if (!abs)
			continue;
		uint64_t l = base | commands_class_labels(pc);
		bool protected_ = pc == PATH_ROOT || pc == PATH_HOME_ROOT ||
				  pc == PATH_SYSTEM || pc == PATH_DEVICE;
		if (rec && protected_)
			classify_rulef_plus(x, CHMOD_RECURSIVE_SYSTEM, l, abs);
		else if (rec)
			classify_rule_plus(x, RULE_CHMOD_RECURSIVE, l);
		else if (protected_)
			classify_rulef_plus(x, CHMOD_SYSTEM, l, abs);
		else if (pc == PATH_HOME || pc == PATH_OUTSIDE)
			classify_rule_plus(x, RULE_CHMOD_OUTSIDE, l);
		else if (!chmod)
			classify_rule_plus(x, RULE_CHOWN, l);
		if (mode && chmod && world_writable(mode))
			classify_rule_plus(x, RULE_CHMOD_WORLD_WRITABLE, l);
	}
}

void filecmds_tee(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	bool append = false;

	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++)
		if (commands_cluster_has(&argv[i], 'a') || classify_word_is(&argv[i], "--append"))
			append = true;
	for (size_t i = 1; i < argc; i++)
		if (!commands_is_opt(&argv[i]))
			filecmds_write_target(x, &argv[i], !append,
					append ? "appends to" : "overwrites");
}

void filecmds_kill(struct cx *x, struct wv *argv, size_t argc,
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
	else if (i < argc && commands_is_opt(&argv[i]) && !commands_is_dashdash(&argv[i]))
		i++; /* the signal: -9, -KILL, -SIGTERM */
	for (; i < argc; i++) {
		if (commands_is_dashdash(&argv[i]))
			continue;
		if (classify_word_is(&argv[i], "-1"))
			all = true;
		if (classify_word_is(&argv[i], "1"))
			init = true;
	}
	if (all || init)
		classify_rule(x, all ? RULE_KILL_ALL : RULE_KILL_INIT);
	else if (argc > 1)
		classify_rule(x, RULE_KILL);
}
