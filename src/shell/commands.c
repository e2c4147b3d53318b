/* commands — what cordon knows about individual commands whose judgement
 * needs more than words and flags. This file is the dispatch: the small
 * helpers every handler shares, downloaded files, redirections, options
 * that run a command, the handler table and commands_classify(). The
 * handlers are in runners.c (wrappers, shells, eval, batch executors,
 * remote and container payloads, interpreters, database clients),
 * filecmds.c (rm, writes, paths, copies, permissions, kill, secrets read
 * as operands) and families.c (git, network tools, archives, disks, make,
 * echo, cat and the other small families); commands_int.h declares what
 * they share. Which commands are wrappers, shells or interpreters is in
 * wrappers.c; words-and-flags knowledge is in cmdtab.c.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "classify_int.h"
#include "codescan.h"
#include "commands_int.h"
#include "names.h"
#include "text.h"
#include "wrappers.h"
#include "banned.h"

/* ---- small helpers ------------------------------------------------------------ */

/* GNU getopt takes any unambiguous prefix of a long option: "--rec" is
 * "--recursive". min is the shortest prefix accepted (with the dashes). */
bool commands_long_abbrev(const struct wv *w, const char *opt, size_t min)
{
	size_t n = w->n;
	const char *eq = memchr(w->s, '=', w->n);

	if (eq)
		n = (size_t)(eq - w->s);
	return classify_word_static(w) && n >= min && n <= strlen(opt) &&
	       memcmp(w->s, opt, n) == 0;
}

/* Is short flag c in the cluster w ("-rf")? Only for clusters of letters. */
bool commands_cluster_has(const struct wv *w, char c)
{
	if (!commands_is_opt(w) || w->s[1] == '-')
		return false;
	for (size_t i = 1; i < w->n; i++)
		if (w->s[i] == c)
			return true;
	return false;
}

uint64_t commands_class_labels(enum path_class pc)
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
bool commands_core_system(const char *abs)
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

bool commands_is_history_file(const char *abs)
{
	const char *b = strrchr(abs, '/');
	b = b ? b + 1 : abs;
	return strcmp(b, ".bash_history") == 0 || strcmp(b, ".zsh_history") == 0 ||
	       strcmp(b, ".history") == 0 || strcmp(b, "fish_history") == 0 ||
	       strcmp(b, ".sh_history") == 0 || strcmp(b, ".python_history") == 0;
}

/* Joins argv[from..argc) with spaces (static text only). */
const char *commands_join(struct cx *x, struct wv *argv, size_t from, size_t argc,
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
void commands_payload_word(struct cx *x, const struct wv *w, uint64_t labels,
			 const char *why)
{
	if (!classify_word_static(w) && !(w->f & WV_DECODED)) {
		classify_rule_plus(x, RULE_PAYLOAD_DYNAMIC, labels);
		if (w->dyn_at == 0)
			return;
	}
	classify_payload(x, w->s, w->n, labels, why);
}

/* ---- downloaded files ------------------------------------------------------ */

/* Remembers a file a download wrote, to recognise it being run later on
 * the same line (curl -o x.sh URL && sh x.sh). */
void commands_note_download(struct cx *x, const struct wv *w)
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
void commands_download_to(struct cx *x, const struct wv *w)
{
	if (w->n == 1 && w->s[0] == '-')
		return;
	filecmds_write_target(x, w, true, "downloads to");
	commands_note_download(x, w);
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
void commands_check_downloaded_as(struct cx *x, const struct wv *w, int lang);

void commands_check_downloaded(struct cx *x, const struct wv *w)
{
	commands_check_downloaded_as(x, w, -1);
}

void commands_check_downloaded_as(struct cx *x, const struct wv *w, int lang)
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
			classify_rule(x, RULE_REMOTE_CODE_DOWNLOADED_FILE);
			return;
		}
}

/* ---- redirections -------------------------------------------------------------- */

const char *commands_heredoc_text(struct cx *x, const struct sh_redir *r, size_t *n)
{
	if (r->op == SH_R_HERESTRING) {
		struct wv w = classify_eval(x, r->target);
		*n = w.n;
		return w.s;
	}
	*n = r->body_len;
	return r->body ? r->body : "";
}

void commands_judge_redirs(struct cx *x, const struct sh_redir *redirs,
			 struct cinfo *ci, bool shell)
{
	for (const struct sh_redir *r = redirs; r; r = r->next) {
		struct wv t = classify_eval(x, r->target);
		/* zsh's ztcp leaves the socket's fd in $REPLY: a shell whose
		 * fds are dup'ed from a number known only at run time, after
		 * a connection was opened */
		if (shell && (r->op == SH_R_DUP_IN || r->op == SH_R_DUP_OUT) &&
		    !classify_word_static(&t) && x->tcp_seen)
			classify_rule(x, RULE_REVERSE_SHELL_FD);
		if (shell && (r->op == SH_R_DUP_IN || r->op == SH_R_DUP_OUT) &&
		    classify_word_static(&t)) {
			/* exec 5<>/dev/tcp/h/p earlier; sh <&5 now */
			long fd = strtol(t.s, NULL, 10);
			for (unsigned k = 0; k < x->ntcp; k++)
				if (fd == x->tcp_fds[k])
					classify_rule(x, RULE_REVERSE_SHELL_FD);
		}
		bool tcp = t.n >= 9 && (memcmp(t.s, "/dev/tcp/", 9) == 0 ||
					memcmp(t.s, "/dev/udp/", 9) == 0);
		if (tcp) {
			x->tcp_seen = true;
			ci->f |= CI_NETWORK | CI_NETSEND;
			if (r->fd > 2 && x->ntcp < sizeof(x->tcp_fds) / sizeof(*x->tcp_fds))
				x->tcp_fds[x->ntcp++] = r->fd;
			if (shell)
				classify_rule(x, RULE_REVERSE_SHELL_DEV_TCP);
			else
				classify_rule(x, RULE_NET_DEV_TCP);
			continue;
		}
		switch (r->op) {
		case SH_R_OUT:
		case SH_R_CLOBBER:
		case SH_R_ALL:
			filecmds_write_target(x, &t, true, "overwrites");
			break;
		case SH_R_APPEND:
		case SH_R_ALL_APPEND:
		case SH_R_RDWR:
			filecmds_write_target(x, &t, false, "writes to");
			break;
		case SH_R_IN:
			if (filecmds_operand_secret(x, &t)) {
				classify_rule(x, RULE_SECRETS_READ);
				ci->f |= CI_SECRETS | CI_STDIN_SECRET;
			}
			break;
		default:
			break;
		}
	}
}

/* What runs the here-doc / here-string / input file it is given. */
void commands_feed_stdin(struct cx *x, const struct sh_redir *redirs,
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
				classify_rule(x, RULE_RUNS_SCRIPT_STDIN);
			ci->f &= ~(CI_RUNS_STDIN | CI_CODE_STDIN |
				   CI_SQL_STDIN | CI_EDIT_STDIN);
			continue;
		}
		if (r->op != SH_R_HEREDOC && r->op != SH_R_HERESTRING)
			continue;
		size_t n;
		const char *text = commands_heredoc_text(x, r, &n);
		if (ci->f & CI_EDIT_STDIN)
			commands_editor_lines(x, text, n);
		else if (ci->f & CI_RUNS_STDIN)
			classify_payload(x, text, n, CORDON_L(NESTED_SHELL),
				   "a here-document fed to a shell");
		else if (ci->f & CI_CODE_STDIN)
			classify_code(x, ci->lang, text, n);
		else if (ci->f & CI_SQL_STDIN)
			classify_sql(x, text, n);
		ci->f &= ~(CI_RUNS_STDIN | CI_CODE_STDIN | CI_SQL_STDIN |
			   CI_EDIT_STDIN);
		ci->f |= CI_TEXT;
		ci->text = text;
		ci->tlen = n;
	}
}

/* ---- options that run a command ------------------------------------------------- */

#define EO_NEXT 1u  /* the value is the next argument: -e CMD */
#define EO_EQ 2u    /* --opt=CMD */
#define EO_GLUED 4u /* -eCMD, +CMD */
#define EO_MUST_STRIP 8u /* only a value starting with strip runs a command */
#define EO_SCRIPT 16u /* else the value is code, read by its shape */
#define EO_FILE 32u /* the value is a script file it runs (nvim -l, gdb -x) */
#define EO_PYTHON 64u /* the value after strip is Python (gdb's python) */
#define EO_CLUSTER 128u /* a one-letter option may end a cluster: -sc CMD */
#define EO_DQUOTED 256u /* the command after strip is a "string" (AppleScript) */

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
	{"man", "--html", NULL, EO_EQ},
	{"man", "-H", NULL, EO_GLUED},
	/* an editor's command: ':!cmd' is a command line, anything else
	 * Vim script (call system(…), lua os.execute(…), py3 …) read by
	 * its shape */
	{"vim", "-c", "!", EO_NEXT | EO_CLUSTER | EO_MUST_STRIP | EO_SCRIPT},
	{"vim", "+", "!", EO_GLUED | EO_MUST_STRIP | EO_SCRIPT},
	{"vim", "--cmd", "!", EO_NEXT | EO_MUST_STRIP | EO_SCRIPT},
	{"vi", "-c", "!", EO_NEXT | EO_CLUSTER | EO_MUST_STRIP | EO_SCRIPT},
	{"vi", "+", "!", EO_GLUED | EO_MUST_STRIP | EO_SCRIPT},
	{"vi", "--cmd", "!", EO_NEXT | EO_MUST_STRIP | EO_SCRIPT},
	{"nvim", "-c", "!", EO_NEXT | EO_CLUSTER | EO_MUST_STRIP | EO_SCRIPT},
	{"nvim", "+", "!", EO_GLUED | EO_MUST_STRIP | EO_SCRIPT},
	{"nvim", "--cmd", "!", EO_NEXT | EO_MUST_STRIP | EO_SCRIPT},
	{"nvim", "-l", NULL, EO_NEXT | EO_FILE},
	{"nvim", "-S", NULL, EO_NEXT | EO_FILE},
	{"vim", "-S", NULL, EO_NEXT | EO_FILE},
	{"ex", "-c", "!", EO_NEXT | EO_CLUSTER | EO_MUST_STRIP | EO_SCRIPT},
	{"ex", "+", "!", EO_GLUED | EO_MUST_STRIP | EO_SCRIPT},
	{"view", "-c", "!", EO_NEXT | EO_CLUSTER | EO_MUST_STRIP | EO_SCRIPT},
	{"view", "+", "!", EO_GLUED | EO_MUST_STRIP | EO_SCRIPT},
	{"gvim", "-c", "!", EO_NEXT | EO_CLUSTER | EO_MUST_STRIP | EO_SCRIPT},
	{"gvim", "+", "!", EO_GLUED | EO_MUST_STRIP | EO_SCRIPT},
	{"gvim", "--cmd", "!", EO_NEXT | EO_MUST_STRIP | EO_SCRIPT},
	{"less", "+", "!", EO_GLUED | EO_MUST_STRIP},
	/* Emacs Lisp evaluated at start-up or in a running Emacs */
	{"emacs", "--eval", NULL, EO_NEXT | EO_EQ | EO_SCRIPT},
	{"emacs", "-eval", NULL, EO_NEXT | EO_SCRIPT},
	{"emacs", "-l", NULL, EO_NEXT | EO_FILE},
	{"emacs", "--load", NULL, EO_NEXT | EO_EQ | EO_FILE},
	{"emacsclient", "--eval", NULL, EO_NEXT | EO_EQ | EO_SCRIPT},
	{"emacsclient", "-e", NULL, EO_NEXT | EO_SCRIPT},
	{"gdb", "-ex", "shell ", EO_NEXT | EO_MUST_STRIP},
	{"gdb", "--eval-command", "shell ", EO_NEXT | EO_EQ | EO_MUST_STRIP},
	/* gdb's pipe COMMAND | SHELL-COMMAND (the whole value read as a
	 * line), its python, gdb -x FILE; lldb's shell and script */
	{"gdb", "-ex", "pipe ", EO_NEXT | EO_MUST_STRIP},
	{"gdb", "--eval-command", "pipe ", EO_NEXT | EO_EQ | EO_MUST_STRIP},
	{"gdb", "-ex", "python ", EO_NEXT | EO_MUST_STRIP | EO_PYTHON},
	{"gdb", "--eval-command", "python ", EO_NEXT | EO_EQ | EO_MUST_STRIP | EO_PYTHON},
	{"gdb", "-x", NULL, EO_NEXT | EO_FILE},
	{"lldb", "-o", "platform shell ", EO_NEXT | EO_MUST_STRIP},
	{"lldb", "--one-line", "platform shell ", EO_NEXT | EO_EQ | EO_MUST_STRIP},
	{"lldb", "-o", "shell ", EO_NEXT | EO_MUST_STRIP},
	{"lldb", "--one-line", "shell ", EO_NEXT | EO_EQ | EO_MUST_STRIP},
	{"lldb", "-o", "script ", EO_NEXT | EO_MUST_STRIP | EO_PYTHON},
	{"lldb", "--one-line", "script ", EO_NEXT | EO_EQ | EO_MUST_STRIP | EO_PYTHON},
	{"scp", "-o", "ProxyCommand=", EO_NEXT | EO_GLUED | EO_MUST_STRIP},
	{"sftp", "-o", "ProxyCommand=", EO_NEXT | EO_GLUED | EO_MUST_STRIP},
	{"ssh", "-o", "RemoteCommand=", EO_NEXT | EO_GLUED | EO_MUST_STRIP},
	{"git", "-x", NULL, EO_NEXT},
	{"xterm", "-e", NULL, EO_NEXT},
	{"nix-shell", "--run", NULL, EO_NEXT},
	{"nix-shell", "--command", NULL, EO_NEXT},
	/* a command line as the option's value, run through a shell: git
	 * rebase --exec, npm exec/npx -c (--call), asciinema rec -c, entr -s */
	{"git", "--exec", NULL, EO_NEXT | EO_EQ},
	{"npx", "-c", NULL, EO_NEXT},
	{"npx", "--call", NULL, EO_NEXT | EO_EQ},
	{"npm", "-c", NULL, EO_NEXT},
	{"npm", "--call", NULL, EO_NEXT | EO_EQ},
	/* the program npm and pnpm run scripts with: SHELL -c SCRIPT */
	{"npm", "--script-shell", NULL, EO_NEXT | EO_EQ},
	{"pnpm", "--script-shell", NULL, EO_NEXT | EO_EQ},
	{"asciinema", "-c", NULL, EO_NEXT},
	{"asciinema", "--command", NULL, EO_NEXT | EO_EQ},
	{"entr", "-s", NULL, EO_NEXT},
	/* AppleScript's do shell script "CMD" runs CMD with sh */
	{"osascript", "-e", "do shell script ", EO_NEXT | EO_MUST_STRIP | EO_DQUOTED},
	/* nodemon --exec, watchman-make --run: run on every change; sbatch
	 * --wrap: a batch job of one line; bpftrace -c: the traced command */
	{"nodemon", "--exec", NULL, EO_NEXT | EO_EQ},
	{"nodemon", "-x", NULL, EO_NEXT},
	{"watchman-make", "--run", NULL, EO_NEXT | EO_EQ},
	{"watchman-make", "-r", NULL, EO_NEXT},
	{"sbatch", "--wrap", NULL, EO_NEXT | EO_EQ},
	{"bpftrace", "-c", NULL, EO_NEXT},
};

/* vim's ':!cmd' and gdb's '!cmd' are the same as '!cmd' and 'shell cmd'. */
static bool take_prefix(struct wv *v, const char *strip)
{
	/* the words before vim's '!' that still run it: modifiers, a
	 * range, read and write (:silent !cmd, :%!cmd, :r !cmd, :w !cmd) */
	static const char *const before_bang[] = {
		"silent!", "silent", "sil!", "sil",   "noautocmd",
		"keepalt", "read",   "r",    "write", "w",
		"%",	   ".",	     "$",
	};
	size_t k = strlen(strip);
	bool more = strip[0] == '!';
	struct wv w = *v;

	while (more) {
		more = false;
		while (w.n && (w.s[0] == ':' || w.s[0] == ' ')) {
			w.s++;
			w.n--;
			more = true;
		}
		for (size_t i = 0;
		     i < sizeof(before_bang) / sizeof(*before_bang); i++) {
			size_t bn = strlen(before_bang[i]);
			if (w.n > bn && memcmp(w.s, before_bang[i], bn) == 0 &&
			    (w.s[bn] == ' ' || w.s[bn] == '!' ||
			     before_bang[i][bn - 1] == '!')) {
				w.s += bn;
				w.n -= bn;
				more = true;
				break;
			}
		}
	}
	if (strip[0] == '!' && w.n && w.s[0] == '!')
		*v = w;
	else if (strip[0] == '!')
		while (v->n && (v->s[0] == ':' || v->s[0] == ' ')) {
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

/* -sc, -Nesc: flags of one letter, the last one opt's letter (opt is
 * "-c"), so the next word is its value. */
static bool in_cluster(const struct wv *w, const char *opt)
{
	if (strlen(opt) != 2 || w->n < 3 || w->s[0] != '-' ||
	    w->s[w->n - 1] != opt[1])
		return false;
	for (size_t k = 1; k + 1 < w->n; k++)
		if (!isalpha((unsigned char)w->s[k]))
			return false;
	return true;
}

void commands_editor_lines(struct cx *x, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && s[e] != '\n')
			e++;
		struct wv v = classify_lit(s + i, e - i);
		/* ed's and ex's address before the command: 1,$w !cmd */
		while (v.n && (strchr(" \t:", v.s[0]) ||
			       (v.s[0] >= '0' && v.s[0] <= '9') ||
			       strchr(",;.$%+-", v.s[0]))) {
			v.s++;
			v.n--;
		}
		/* ed's e !cmd, beside the r and w that take_prefix knows */
		if (v.n > 2 && v.s[0] == 'e' && v.s[1] == ' ') {
			struct wv t = classify_lit(v.s + 1, v.n - 1);
			while (t.n && t.s[0] == ' ') {
				t.s++;
				t.n--;
			}
			if (t.n && t.s[0] == '!')
				v = t;
		}
		if (take_prefix(&v, "!") && v.n)
			classify_payload(x, v.s, v.n, CORDON_L(NESTED_SHELL),
					 "a shell command an editor runs");
		i = e + 1;
	}
}

size_t commands_exec_opt_count(void)
{
	return sizeof(exec_opts) / sizeof(*exec_opts);
}

const char *commands_exec_opt_cmd(size_t i)
{
	return exec_opts[i].cmd;
}

static void exec_options(struct cx *x, struct wv *argv, size_t argc,
			 const char *name, size_t n)
{
	/* the rows of this name, from the name index when it is built */
	uint64_t rows = ~UINT64_C(0);
	size_t first = 0;
	bool indexed = names_ready();
	if (indexed) {
		const struct name_roles *r = names_find(name, n);
		rows = r ? r->exec_rows : 0;
		first = r ? r->exec_first : 0;
	}
	for (size_t t = first; t < sizeof(exec_opts) / sizeof(*exec_opts);
	     t++) {
		const struct exec_opt *e = &exec_opts[t];
		if (indexed) {
			uint64_t rest = t - first < 64 ? rows >> (t - first) :
							 0;
			if (!rest)
				break;
			t += (size_t)__builtin_ctzll(rest);
			e = &exec_opts[t];
		} else if (e->cmd[0] != name[0] || strlen(e->cmd) != n ||
			   memcmp(e->cmd, name, n) != 0) {
			continue;
		}
		size_t ol = strlen(e->opt);
		for (size_t i = 1; i < argc; i++) {
			const struct wv *w = &argv[i];
			struct wv v;
			if ((e->how & EO_NEXT) && w->n == ol &&
			    memcmp(w->s, e->opt, ol) == 0 && i + 1 < argc) {
				v = argv[++i];
			} else if ((e->how & EO_CLUSTER) && i + 1 < argc &&
				   in_cluster(w, e->opt)) {
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
			if (e->how & EO_FILE) {
				commands_check_downloaded_as(x, &v, CODE_SHAPE);
				classify_rule(x, RULE_RUNS_SCRIPT_INTERPRETER);
				break;
			}
			bool stripped = e->strip && take_prefix(&v, e->strip);
			if ((e->how & EO_SCRIPT) && !stripped) {
				if (!classify_word_static(&v))
					classify_rule(x, RULE_CODE_DYNAMIC);
				classify_code(x, CODE_SHAPE, v.s, v.n);
				continue;
			}
			if (e->strip && !stripped && (e->how & EO_MUST_STRIP))
				continue;
			if ((e->how & EO_DQUOTED) && v.n && v.s[0] == '"') {
				size_t q = 1;
				while (q < v.n && v.s[q] != '"')
					q += v.s[q] == '\\' ? 2 : 1;
				v.s++;
				v.n = (q < v.n ? q : v.n) - 1;
				v.dyn_at = v.dyn_at ? v.dyn_at - 1 : 0;
			}
			if (e->how & EO_PYTHON) {
				classify_rulef(x, OPTION_EXEC, (int)n, name,
					       e->opt);
				if (!classify_word_static(&v))
					classify_rule(x, RULE_CODE_DYNAMIC);
				classify_code(x, CODE_PYTHON, v.s, v.n);
				continue;
			}
			classify_rulef(x, OPTION_EXEC, (int)n, name, e->opt);
			commands_payload_word(x, &v, CORDON_L(NESTED_SHELL),
				     "a command an option runs");
		}
	}
}

/* ---- dispatch ------------------------------------------------------------------- */

/* The handler functions, once each: the rows of handlers name one by its
 * number, so neither table holds a pointer per row for the loader to
 * relocate in every process; a row naming a function not listed here
 * does not compile. */
#define HANDLER_FNS(X)                                                         \
	X(families_ansible)                                                    \
	X(families_archive)                                                    \
	X(families_at)                                                         \
	X(families_cargo)                                                      \
	X(families_cat)                                                        \
	X(families_cd)                                                         \
	X(families_crontab)                                                    \
	X(families_decode)                                                     \
	X(families_disktool)                                                   \
	X(families_echo)                                                       \
	X(families_envdump)                                                    \
	X(families_fifo)                                                       \
	X(families_filter)                                                     \
	X(families_git)                                                        \
	X(families_history)                                                    \
	X(families_identity)                                                   \
	X(families_make)                                                       \
	X(families_network)                                                    \
	X(families_rg)                                                         \
	X(families_subscripts)                                                 \
	X(families_upload)                                                     \
	X(filecmds_chmod)                                                      \
	X(filecmds_copy)                                                       \
	X(filecmds_create)                                                     \
	X(filecmds_dd)                                                         \
	X(filecmds_kill)                                                       \
	X(filecmds_rm)                                                         \
	X(filecmds_shred)                                                      \
	X(filecmds_tee)                                                        \
	X(filecmds_truncate)                                                   \
	X(runners_alias)                                                       \
	X(runners_awk)                                                         \
	X(runners_builtin_eval)                                                \
	X(runners_busybox)                                                     \
	X(runners_capsh_wsl)                                                   \
	X(runners_cmake)                                                       \
	X(runners_command)                                                     \
	X(runners_container_exec)                                              \
	X(runners_editor)                                                      \
	X(runners_env)                                                         \
	X(runners_eval)                                                        \
	X(runners_find)                                                        \
	X(runners_flock)                                                       \
	X(runners_line_operands)                                               \
	X(runners_parallel)                                                    \
	X(runners_remote_opts)                                                 \
	X(runners_runuser)                                                     \
	X(runners_screen)                                                      \
	X(runners_script)                                                      \
	X(runners_sed)                                                         \
	X(runners_sg)                                                          \
	X(runners_source)                                                      \
	X(runners_sqlclient)                                                   \
	X(runners_ssh)                                                         \
	X(runners_su)                                                          \
	X(runners_trap)                                                        \
	X(runners_watch)                                                       \
	X(runners_xargs)

enum handler_fn_id {
#define X(fn) HF_##fn,
	HANDLER_FNS(X)
#undef X
};

static handler_fn *const handler_fns[] = {
#define X(fn) [HF_##fn] = fn,
	HANDLER_FNS(X)
#undef X
};

/* Sorted by name, bytewise (commands_tables_sorted). */
static const struct {
	char name[18];
	uint8_t len;
	uint8_t fn; /* enum handler_fn_id */
} handlers[] = {
#define H(name, fn)                                                            \
	{                                                                      \
		name, sizeof(name) - 1 + TEXT_FITS(name, 18), HF_##fn          \
	}
	H(".", runners_source),
	H("7z", families_archive),
	H("7za", families_archive),
	H("7zz", families_archive),
	H("[", families_subscripts),
	H("alias", runners_alias),
	H("ansible", families_ansible),
	H("aria2c", families_network),
	H("at", families_at),
	H("awk", runners_awk),
	H("aws", families_upload),
	H("axel", families_network),
	H("az", families_upload),
	H("badblocks", families_disktool),
	H("base64", families_decode),
	H("basenc", families_decode),
	H("batch", families_at),
	H("bind", runners_builtin_eval),
	H("blkdiscard", families_disktool),
	H("blockdev", families_disktool),
	H("bsdtar", families_archive),
	H("busybox", runners_busybox),
	H("byobu", runners_line_operands),
	H("capsh", runners_capsh_wsl),
	H("cargo", families_cargo),
	H("cat", families_cat),
	H("cd", families_cd),
	H("cfdisk", families_disktool),
	H("chgrp", filecmds_chmod),
	H("chmod", filecmds_chmod),
	H("chown", filecmds_chmod),
	H("clickhouse-client", runners_sqlclient),
	H("clush", runners_remote_opts),
	H("cmake", runners_cmake),
	H("colima", runners_remote_opts),
	H("command", runners_command),
	H("compgen", runners_builtin_eval),
	H("complete", runners_builtin_eval),
	H("concurrently", runners_line_operands),
	H("coreutils", runners_busybox),
	H("cp", filecmds_copy),
	H("cqlsh", runners_sqlclient),
	H("crontab", families_crontab),
	H("cryptsetup", families_disktool),
	H("curl", families_network),
	H("curlie", families_network),
	H("dd", filecmds_dd),
	H("declare", families_envdump),
	H("dig", families_network),
	H("docker", runners_container_exec),
	H("drill", families_network),
	H("echo", families_echo),
	H("ed", runners_editor),
	H("elinks", families_network),
	H("enable", runners_builtin_eval),
	H("env", runners_env),
	H("eval", runners_eval),
	H("ex", runners_editor),
	H("export", families_envdump),
	H("fdisk", families_disktool),
	H("find", runners_find),
	H("flock", runners_flock),
	H("fly", runners_remote_opts),
	H("flyctl", runners_remote_opts),
	H("gawk", runners_awk),
	H("gcloud", families_upload),
	H("gdisk", families_disktool),
	H("gh", families_upload),
	H("git", families_git),
	H("gmake", families_make),
	H("gsed", runners_sed),
	H("gsutil", families_upload),
	H("hash", runners_builtin_eval),
	H("hdparm", families_disktool),
	H("head", families_cat),
	H("heroku", runners_remote_opts),
	H("history", families_history),
	H("host", families_network),
	H("hostname", families_identity),
	H("http", families_network),
	H("httpie", families_network),
	H("https", families_network),
	H("hyperfine", runners_line_operands),
	H("id", families_identity),
	H("install", filecmds_copy),
	H("k", runners_container_exec),
	H("kill", filecmds_kill),
	H("kubectl", runners_container_exec),
	H("less", families_cat),
	H("let", families_subscripts),
	H("ln", filecmds_copy),
	H("local", families_envdump),
	H("lynx", families_network),
	H("make", families_make),
	H("mapfile", runners_builtin_eval),
	H("mariadb", runners_sqlclient),
	H("mawk", runners_awk),
	H("minikube", runners_remote_opts),
	H("mkdir", filecmds_create),
	H("mkfifo", families_fifo),
	H("mknod", families_fifo),
	H("mkswap", families_disktool),
	H("mongo", runners_sqlclient),
	H("mongosh", runners_sqlclient),
	H("more", families_cat),
	H("mosh", runners_remote_opts),
	H("mv", filecmds_copy),
	H("mysql", runners_sqlclient),
	H("nawk", runners_awk),
	H("nc", families_network),
	H("ncat", families_network),
	H("netcat", families_network),
	H("newgrp", runners_sg),
	H("nslookup", families_network),
	H("nvim", runners_editor),
	H("oc", runners_container_exec),
	H("openssl", families_decode),
	H("parallel", runners_parallel),
	H("parted", families_disktool),
	H("partprobe", families_disktool),
	H("ping", families_network),
	H("ping6", families_network),
	H("podman", runners_container_exec),
	H("printenv", families_envdump),
	H("printf", families_echo),
	H("psql", runners_sqlclient),
	H("pushd", families_cd),
	H("rclone", families_upload),
	H("read", families_subscripts),
	H("readarray", runners_builtin_eval),
	H("readonly", families_envdump),
	H("rev", families_filter),
	H("rg", families_rg),
	H("rm", filecmds_rm),
	H("rmdir", filecmds_rm),
	H("rsync", families_network),
	H("runuser", runners_runuser),
	H("s3cmd", families_upload),
	H("salt", runners_remote_opts),
	H("scp", families_network),
	H("screen", runners_screen),
	H("script", runners_script),
	H("sed", runners_sed),
	H("set", families_envdump),
	H("sfdisk", families_disktool),
	H("sftp", families_network),
	H("sg", runners_sg),
	H("sgdisk", families_disktool),
	H("shred", filecmds_shred),
	H("socat", families_network),
	H("sops", runners_line_operands),
	H("source", runners_source),
	H("sqlite3", runners_sqlclient),
	H("ssh", runners_ssh),
	H("su", runners_su),
	H("tail", families_cat),
	H("tar", families_archive),
	H("tee", filecmds_tee),
	H("telnet", families_network),
	H("test", families_subscripts),
	H("tmux", runners_line_operands),
	H("touch", filecmds_create),
	H("toybox", runners_busybox),
	H("tr", families_filter),
	H("traceroute", families_network),
	H("trap", runners_trap),
	H("truncate", filecmds_truncate),
	H("typeset", families_envdump),
	H("uname", families_identity),
	H("unlink", filecmds_rm),
	H("unset", families_envdump),
	H("unzip", families_archive),
	H("uudecode", families_decode),
	H("vagrant", runners_remote_opts),
	H("vi", runners_editor),
	H("vim", runners_editor),
	H("w3m", families_network),
	H("watch", runners_watch),
	H("watchexec", runners_line_operands),
	H("wget", families_network),
	H("wget2", families_network),
	H("whoami", families_identity),
	H("whois", families_network),
	H("wipefs", families_disktool),
	H("wsl", runners_capsh_wsl),
	H("xargs", runners_xargs),
	H("xh", families_network),
	H("xhs", families_network),
	H("xxd", families_decode),
	H("ztcp", families_network),
#undef H
};

size_t commands_handler_count(void)
{
	return sizeof(handlers) / sizeof(*handlers);
}

const char *commands_handler_row(size_t i, size_t *len, handler_fn **fn)
{
	*len = handlers[i].len;
	*fn = handler_fns[handlers[i].fn];
	return handlers[i].name;
}

static handler_fn *find_handler_row(const char *name, size_t n)
{
	size_t lo = 0, hi = sizeof(handlers) / sizeof(*handlers);

	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);
		return r && r->handler ?
			       handler_fns[handlers[r->handler - 1].fn] :
			       NULL;
	}

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *h = handlers[mid].name;
		size_t hn = handlers[mid].len;
		int c = memcmp(h, name, hn < n ? hn : n);
		if (c == 0)
			c = hn == n ? 0 : hn < n ? -1 : 1;
		if (c == 0)
			return handler_fns[handlers[mid].fn];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The handler for a command name: its row, or the shells' handlers for the
 * shells of the wrapper table. */
handler_fn *commands_find_handler(const char *name, size_t n)
{
	handler_fn *h = find_handler_row(name, n);
	const struct wrapper *w;

	if (h)
		return h;
	w = wrappers_find(name, n, NULL, 0);
	if (w && w->kind == WRAPPER_SHELL)
		return runners_shell;
	if (w && w->kind == WRAPPER_FOREIGN)
		return families_foreign_shell;
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

static const char *const builtins[] = {
	"cd", "echo", "printf", "test", "[", "read", "exit", "return",
	"export", "set", "unset", "trap", "type", "hash", "alias", "ls",
	"cat", "pwd", "sudo", "exec", "eval", "source", "command", "builtin",
	"git", "rm", "cp", "mv", "ssh", "curl", "wget", "python", "python3",
	"node", "npm", "make", "grep", "find", "kill", "which", "true",
	"false", "wait", "jobs", "fg", "bg", "umask", "ulimit", "shift",
	"local", "declare", "history", "man", "env", "time"};

const char *const *commands_builtins(size_t *n)
{
	*n = sizeof(builtins) / sizeof(*builtins);
	return builtins;
}

bool commands_known(const char *name, size_t n)
{
	if (!name || n == 0)
		return false;
	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);
		/* as commands_find_handler(): a shell of the wrapper table
		 * has the shell runner for its handler */
		const struct wrapper *w = names_wrapper(r);
		return r && (r->flags & NAMES_F_BUILTIN || r->handler ||
			     (w && (w->kind == WRAPPER_SHELL ||
				    w->kind == WRAPPER_FOREIGN)));
	}
	for (size_t i = 0; i < sizeof(builtins) / sizeof(*builtins); i++)
		if (builtins[i][0] == name[0] && strlen(builtins[i]) == n &&
		    memcmp(builtins[i], name, n) == 0)
			return true;
	return commands_find_handler(name, n) != NULL;
}

/* Is w a program in a directory of installed programs: the system's,
 * and those of Nix (NixOS's system and setuid wrappers, profiles, the
 * store), Homebrew (its bin, each formula's opt prefix and GNU gnubin),
 * Linuxbrew, MacPorts, pkgsrc and snap? Such a path names the program
 * its base name says (/run/current-system/sw/bin/rm is rm). */
static bool trusted_bin(const struct wv *w)
{
	static const char *const dirs[] = {
		"/bin/",
		"/usr/bin/",
		"/sbin/",
		"/usr/sbin/",
		"/usr/local/bin/",
		"/usr/local/sbin/",
		"/opt/homebrew/bin/",
		"/opt/homebrew/sbin/",
		"/opt/homebrew/opt/*/bin/",
		"/opt/homebrew/opt/*/libexec/gnubin/",
		"/opt/homebrew/Cellar/*/*/bin/",
		"/opt/homebrew/Cellar/*/*/libexec/gnubin/",
		"/usr/local/opt/*/bin/",
		"/usr/local/opt/*/libexec/gnubin/",
		"/usr/local/Cellar/*/*/bin/",
		"/usr/local/Cellar/*/*/libexec/gnubin/",
		"/home/linuxbrew/.linuxbrew/bin/",
		"/home/linuxbrew/.linuxbrew/opt/*/bin/",
		"/home/linuxbrew/.linuxbrew/opt/*/libexec/gnubin/",
		"/run/current-system/sw/bin/",
		"/run/current-system/sw/sbin/",
		"/run/wrappers/bin/",
		"/nix/store/*/bin/",
		"/nix/store/*/sbin/",
		"/nix/var/nix/profiles/*/bin/",
		"/etc/profiles/per-user/*/bin/",
		"/home/*/.nix-profile/bin/",
		"/root/.nix-profile/bin/",
		"/Users/*/.nix-profile/bin/",
		"/opt/local/bin/",
		"/opt/local/sbin/",
		"/usr/pkg/bin/",
		"/usr/pkg/sbin/",
		"/snap/bin/",
	};
	const char *slash = memrchr(w->s, '/', w->n);
	char dir[256];
	size_t dn;

	if (!slash || w->s[0] != '/' || slash + 1 == w->s + w->n)
		return false;
	dn = (size_t)(slash - w->s) + 1;
	if (dn >= sizeof(dir) || memchr(w->s, '\0', dn))
		return false;
	memcpy(dir, w->s, dn);
	dir[dn] = '\0';
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		if (!strchr(dirs[i], '*')) {
			if (strcmp(dir, dirs[i]) == 0)
				return true;
		} else if (fnmatch(dirs[i], dir, FNM_PATHNAME | FNM_PERIOD) ==
			   0) {
			return true;
		}
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
	/* commands_known() asks the handlers (and through them the shells of
	 * the wrapper table): each table once. */
	return commands_known(name, n) || wrappers_find(name, n, NULL, 0) ||
	       wrappers_find_interp(name, n) || classify_family_known(x, name, n);
}

/* Is (name, n) one of Homebrew's GNU coreutils, the programs with a 'g'
 * in front (grm, gchmod, gdd, gshred …), and no name cordon knows? */
static bool gnu_prefixed(const struct cx *x, const char *name, size_t n)
{
	static const char *const gnu[] = {
		"rm",	 "rmdir",  "shred", "dd",    "chmod",	"chown",
		"chgrp", "mv",	   "cp",    "ln",    "install", "truncate",
		"tee",	 "unlink", "mkdir", "touch", "kill",
	};

	if (n < 3 || n >= 12 || name[0] != 'g')
		return false;
	for (size_t k = 0; k < sizeof(gnu) / sizeof(*gnu); k++)
		if (commands_name_is(name + 1, n - 1, gnu[k]))
			return !name_known(x, name, n);
	return false;
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
			verb = verb || commands_name_is(b, bn, verbs[k]);
		if (!verb && bn &&
		    (name_known(x, b, bn) || gnu_prefixed(x, b, bn)))
			return i;
	}
	return 0;
}

/* The verbs that make an unknown tool's subcommand or option a risk
 * (frobctl delete cluster, acme --purge), with the labels they carry. */
static const struct {
	const char *verb;
	uint64_t labels;
} destructive_verbs[] = {
	{ "delete", CORDON_L(DELETE) },	   { "del", CORDON_L(DELETE) },
	{ "destroy", CORDON_L(DELETE) },   { "rm", CORDON_L(DELETE) },
	{ "rmi", CORDON_L(DELETE) },	   { "rmp", CORDON_L(DELETE) },
	{ "rmdir", CORDON_L(DELETE) },	   { "remove", CORDON_L(DELETE) },
	{ "purge", CORDON_L(DELETE) },	   { "prune", CORDON_L(DELETE) },
	{ "wipe", CORDON_L(DATA_LOSS) },   { "erase", CORDON_L(DATA_LOSS) },
	{ "nuke", CORDON_L(DATA_LOSS) },   { "drop", CORDON_L(DATA_LOSS) },
	{ "truncate", CORDON_L(DATA_LOSS) }, { "format", CORDON_L(DATA_LOSS) },
	{ "uninstall", CORDON_L(DELETE) }, { "unpublish", CORDON_L(PUBLISH) },
	{ "publish", CORDON_L(PUBLISH) },  { "shutdown", CORDON_L(SYSTEM_POWER) },
	{ "poweroff", CORDON_L(SYSTEM_POWER) },
	{ "reboot", CORDON_L(SYSTEM_POWER) },
	{ "terminate", CORDON_L(KILLS_PROCESSES) },
	{ "kill", CORDON_L(KILLS_PROCESSES) },
	{ "revoke", CORDON_L(PRIVILEGE) },
};

/* The destructive verb a word names, as a whole or as one of its parts
 * split at '-', ':' and '_' (delete-cluster, db:drop), or -1. A word
 * that negates or rehearses (--no-delete, --dry-run-purge) names none. */
static int verb_of(const char *s, size_t n)
{
	static const char *const negations[] = { "no", "dry", "skip", "keep",
						 "without", "list", "show" };
	size_t at = 0;
	bool first = true;
	/* the first letters of the verbs and negations: most words start
	 * with none of them (and then cannot be a verb as a whole) */
	static const char lead[] = "cdefklnprstuwCDEFKLNPRSTUW";

	if (!n || !memchr(lead, s[0], sizeof(lead) - 1)) {
		bool sep = false;
		for (size_t k = 0; k < n && !sep; k++)
			sep = s[k] == '-' || s[k] == ':' || s[k] == '_';
		if (!sep)
			return -1;
	}
	while (at < n) {
		size_t e = at;
		while (e < n && s[e] != '-' && s[e] != ':' && s[e] != '_')
			e++;
		for (size_t k = 0; first && k < sizeof(negations) / sizeof(*negations); k++)
			if (commands_name_is(s + at, e - at, negations[k]))
				return -1;
		first = false;
		for (size_t k = 0; k < sizeof(destructive_verbs) / sizeof(*destructive_verbs); k++)
			if (commands_name_is(s + at, e - at, destructive_verbs[k].verb))
				return (int)k;
		at = e + 1;
	}
	return -1;
}

/* An unknown tool is safe only while its words say nothing: a destructive
 * verb among its first three operands or as an option (--purge, -purge,
 * --delete=all) makes it caution, with the verb's labels. A help request
 * asks only. */
static void unknown_verbs(struct cx *x, struct wv *argv, size_t argc)
{
	size_t nops = 0;
	int hit = -1;
	size_t at = 0;

	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!classify_word_static(w) || w->n == 0)
			continue;
		if (classify_word_is(w, "--"))
			break;
		if (classify_word_is(w, "--help") || classify_word_is(w, "-h") ||
		    classify_word_is(w, "-help") ||
		    (nops == 0 && classify_word_is(w, "help")))
			return;
		if (hit >= 0)
			continue;
		if (w->s[0] == '-') {
			size_t k = w->s[1] == '-' ? 2 : 1;
			const char *eq = memchr(w->s, '=', w->n);
			size_t e = eq ? (size_t)(eq - w->s) : w->n;
			/* -rf is a cluster, not a word; -purge is one */
			if (k == 1 && e < 4)
				continue;
			if (e > k && (hit = verb_of(w->s + k, e - k)) >= 0)
				at = i;
			continue;
		}
		if (nops++ >= 3 || memchr(w->s, '/', w->n) || memchr(w->s, '=', w->n))
			continue;
		if ((hit = verb_of(w->s, w->n)) >= 0)
			at = i;
	}
	if (hit < 0)
		return;
	const struct wv *w = &argv[at];
	classify_rulef_plus(x, UNKNOWN_VERB, destructive_verbs[hit].labels,
			    (int)w->n, w->s);
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
		classify_rule(x, RULE_LIMIT_WRAPPERS);
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
		commands_judge_redirs(x, redirs, ci, false);
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
				classify_rule(x, RULE_OBFUSCATION_IFS);
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
			classify_rule(x, RULE_OBFUSCATION_ANSI_C);
			break;
		}
	if (name->f & WV_DECODED)
		classify_rule(x, RULE_OBFUSCATION_NAME);
	else if (name->f & WV_LINEVAR)
		classify_rule(x, RULE_DYNAMIC_COMMAND_VAR);
	if ((!classify_word_static(name) && !(name->f & WV_DECODED)) || (name->f & WV_GLOB)) {
		classify_rule(x, RULE_DYNAMIC_COMMAND);
		/* while read l <&5; do $l; done after exec 5<>/dev/tcp/…:
		 * runs what the connection sends */
		if (x->tcp_seen && !(name->f & WV_GLOB))
			classify_rule(x, RULE_REVERSE_SHELL_READ_LOOP);
		/* An unknown command aimed at a protected place is judged by
		 * the place. */
		for (size_t i = 1; i < argc; i++) {
			const char *abs;
			if (!classify_word_static(&argv[i]) || commands_is_opt(&argv[i]) || !argv[i].n)
				continue;
			if (argv[i].s[0] != '/' && argv[i].s[0] != '~' &&
			    !(argv[i].f & WV_TILDE))
				continue;
			enum path_class pc = classify_path(x, &argv[i], &abs);
			if (pc == PATH_ROOT || pc == PATH_SYSTEM ||
			    pc == PATH_HOME_ROOT || pc == PATH_DEVICE)
				classify_rule_plus(
					x, RULE_DYNAMIC_COMMAND_PROTECTED_PATH,
					commands_class_labels(pc));
		}
		commands_judge_redirs(x, redirs, ci, false);
		return;
	}
	const char *base = classify_cmd_base(name, &n);
	/* a function defined on the line runs its body with these words as
	 * $@ (f(){ git "$@"; }; f clean -fdx is git clean -fdx) */
	if (base == name->s)
		for (unsigned i = 0; i < x->nfuncs; i++)
			if (x->funcs[i].nlen == n &&
			    memcmp(x->funcs[i].name, base, n) == 0) {
				classify_call_function(x, i, argv, argc);
				break;
			}
	/* hash -p PATH NAME earlier on the line: NAME runs PATH */
	if (base == name->s)
		for (unsigned i = 0; i < x->nhashed; i++)
			if (x->hashed[i].nlen == n &&
			    memcmp(x->hashed[i].name, base, n) == 0) {
				struct wv saved = argv[0];
				argv[0] = classify_lit(x->hashed[i].path,
						       x->hashed[i].plen);
				commands_classify(x, argv, argc, redirs, ci);
				argv[0] = saved;
				return;
			}
	if (argc == 2 && (classify_word_is(&argv[1], "--help") || classify_word_is(&argv[1], "--version"))) {
		/* prints and exits; what it prints still goes where the
		 * redirections say */
		commands_judge_redirs(x, redirs, ci, false);
		return;
	}
	/* what cordon knows the name as, looked up once */
	const struct wrapper *wr = runners_find_wrapper(argv, argc, base, n);
	const struct wrappers_interp *ip = wrappers_find_interp(base, n);
	handler_fn *h = commands_find_handler(base, n);
	bool script = commands_script_suffix(base, n);

	if (script ||
	    (name->n > 4 && strncasecmp(name->s + name->n - 4, ".exe", 4) == 0 &&
	     !h))
		classify_rule(x, RULE_RUNS_SCRIPT_NAME);
	if (memchr(name->s, '/', name->n))
		commands_check_downloaded(x, name);
	if (memchr(name->s, '/', name->n) && !trusted_bin(name) && !h)
		classify_rule(x, RULE_RUNS_SCRIPT_PATH);

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
			if (commands_find_handler(lb, ln) || wrappers_find_interp(lb, ln) ||
			    runners_find_wrapper(argv, argc, lb, ln) || commands_known(lb, ln)) {
				classify_rule(x, RULE_OBFUSCATION_CASE);
				commands_classify(x, argv, argc, redirs, ci);
				argv[0] = saved;
				return;
			}
			argv[0] = saved;
		}
	}
	if (wr) {
		runners_wrapper(x, wr, argv, argc, redirs, ci);
		/* its options that run a command line (gdb -ex 'shell …'),
		 * its own rows (npm exec runs a package) and deny entries (a
		 * configured "sudo") */
		exec_options(x, argv, argc, base, n);
		classify_apply_table(x, argv, argc);
		classify_apply_denylist(x, argv, argc);
		return;
	}
	/* the name as the caller wrote it: argv may be a slice of the
	 * caller's words (python -m http.server), which judges them after */
	struct wv name0 = argv[0];
	if (!h && !ip) {
		/* nc.traditional is nc; deploy.sh is not "deploy" */
		const char *dot = memchr(base, '.', n);
		if (dot && dot > base && !script) {
			h = commands_find_handler(base, (size_t)(dot - base));
			if (h) {
				/* handlers read the name again: give them "nc" */
				argv[0] = classify_lit(base, (size_t)(dot - base));
				n = (size_t)(dot - base);
			}
		}
	}
	/* Homebrew's GNU coreutils are the same programs with a 'g' in
	 * front (grm, gchmod, gdd, gshred …) */
	if (!h && !ip && !wr && gnu_prefixed(x, base, n)) {
		h = commands_find_handler(base + 1, n - 1);
		if (h) {
			argv[0] = classify_lit(base + 1, n - 1);
			base++;
			n--;
		}
	}
	if (!h && !ip && !name_known(x, base, n)) {
		size_t j = unknown_wrapper_at(x, argv, argc);
		if (j) {
			classify_rule(x, RULE_WRAPPER_UNKNOWN);
			classify_command(x, argv + j, argc - j, redirs, ci);
			classify_apply_denylist(x, argv, argc);
			return;
		}
		unknown_verbs(x, argv, argc);
	}
	bool shellish = h == runners_shell;
	if (ip) {
		runners_interp(x, ip, argv, argc, redirs, ci);
	} else if (h) {
		if (!shellish)
			commands_judge_redirs(x, redirs, ci, false);
		h(x, argv, argc, redirs, ci);
	} else {
		commands_judge_redirs(x, redirs, ci, false);
	}
	if (!shellish && !ip && h != families_cat && h != families_echo)
		commands_feed_stdin(x, redirs, ci);
	exec_options(x, argv, argc, base, n);
	note_written(x, redirs, ci);
	filecmds_secrets_pass(x, argv, argc, ci);
	filecmds_secrets_out(x, argv, argc, redirs, ci, base, n);
	classify_apply_table(x, argv, argc);
	classify_apply_denylist(x, argv, argc);
	x->line_ci |= ci->f;
	argv[0] = name0;
}
