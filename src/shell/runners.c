/* runners — the handlers of commands that run other commands or code:
 * wrappers (read through the table of wrappers_table.c), env, command, shells
 * and their -c, eval, source, alias, the batch executors (xargs, parallel,
 * find -exec, watch, flock), su/runuser/sg/script, trap, ssh and container
 * exec, interpreters (-c, -e, -m, here-docs), awk, sed and database
 * clients. Dispatched from commands.c; see commands_int.h.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "classify_int.h"
#include "codescan.h"
#include "commands_int.h"
#include "wrappers.h"
#include "banned.h"

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

/* The wrapper runners_wrapper reads for argv (base name, n), or NULL: shells,
 * runners and the wrappers with handlers of their own are not. */
const struct wrapper *runners_find_wrapper(struct wv *argv, size_t argc,
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

/* The command runs in directory d: its relative paths are judged from
 * there, and from nowhere cordon knows when d is known only at run time. */
static void runs_in(struct cx *x, const struct wv *d)
{
	const char *abs;

	if (!classify_word_static(d)) {
		x->pc.cwd = "/nonexistent-cwd";
		return;
	}
	abs = classify_abs(x, d);
	if (abs)
		x->pc.cwd = abs;
}

/* The directory option the table names for the wrapper (sudo -D, env -C,
 * unshare --wd, nsenter -w), read with its grammar by wrappers_scan, in
 * every spelling (-iC DIR, -D/, --ch DIR, --chdir=DIR). */
static void scan_chdir(struct cx *x, struct wv *argv, size_t argc,
		       const struct wrapper_scan *sc)
{
	struct wv d;

	if (sc->chdir >= argc)
		return;
	d = argv[sc->chdir];
	if (sc->chdir_off && classify_word_static(&d))
		d = classify_lit(d.s + sc->chdir_off, d.n - sc->chdir_off);
	runs_in(x, &d);
}

/* Then the reading kept from before the table named these options, so
 * that no verdict moves: -D/-w DIR for sudo, unshare and nsenter, and
 * --chdir=DIR / --wd=DIR on any wrapper, are taken as where the command
 * runs even where the tool itself would not (nsenter -w takes no separate
 * value). The last one wins. */
static void wrapper_chdir(struct cx *x, const struct wrapper *wr,
			  struct wv *argv, size_t argc,
			  const struct wrapper_scan *sc)
{
	const char *name = wrappers_str(wr->name);

	scan_chdir(x, argv, argc, sc);
	for (size_t k = 1; k < argc && commands_is_opt(&argv[k]); k++) {
		const struct wv *w = &argv[k];
		const char *val = NULL;
		size_t vn = 0;
		struct wv d;
		if ((classify_word_is(w, "-D") ||
		     classify_word_is(w, "--chdir") ||
		     classify_word_is(w, "-w") ||
		     classify_word_is(w, "--wd")) &&
		    k + 1 < argc &&
		    (strcmp(name, "sudo") == 0 ||
		     strcmp(name, "unshare") == 0 ||
		     strcmp(name, "nsenter") == 0)) {
			d = argv[k + 1];
		} else if (commands_long_opt(w, "--chdir", &val, &vn) && val) {
			d = classify_lit(val, vn);
		} else if (commands_long_opt(w, "--wd", &val, &vn) && val) {
			d = classify_lit(val, vn);
		} else {
			continue;
		}
		runs_in(x, &d);
	}
}

/* The command a wrapper runs when it is not just its words: the program
 * an option names (start-stop-daemon --exec PROG -- ARGS: PROG, from off
 * in word p, when p is not NULL), the words args, and an item the tool
 * adds after them (fd -x CMD ARGS RESULT: unknown here) when items. */
static void built_command(struct cx *x, const struct wv *p, size_t off,
			  const struct wv *args, size_t nargs, bool items,
			  const struct sh_redir *redirs, struct cinfo *ci)
{
	struct wv *a = arena_alloc(x->a, (nargs + 2) * sizeof(*a));
	size_t n = 0;

	if (!a) {
		x->v->oom = true;
		return;
	}
	if (p) {
		a[n] = *p;
		if (off && classify_word_static(p))
			a[n] = classify_lit(p->s + off, p->n - off);
		else if (off)
			a[n] = classify_unknown();
		n++;
	}
	memcpy(a + n, args, nargs * sizeof(*a));
	n += nargs;
	if (items && n)
		a[n++] = classify_unknown();
	classify_command(x, a, n, redirs, ci);
}

void runners_wrapper(struct cx *x, const struct wrapper *wr, struct wv *argv,
		      size_t argc, const struct sh_redir *redirs, struct cinfo *ci)
{
	const char *name = wrappers_str(wr->name);
	struct wrapper_scan sc;
	size_t i;
	bool shell_flag = false;

	if (wr->tier != CORDON_RISK_SAFE || wr->labels)
		classify_hit(x, wr->tier, wr->labels, wrappers_str(wr->rule),
			     wrappers_str(wr->reason));
	wrappers_scan(wr, argc, scan_word, argv, &sc);
	if (sc.payload < argc) {
		struct wv t = argv[sc.payload];
		t.s += sc.payload_off;
		t.n -= sc.payload_off;
		commands_payload_word(x, &t, 0, "the command line given to a wrapper");
		return;
	}
	if (strcmp(name, "sudo") == 0 || strcmp(name, "doas") == 0) {
		/* the options end where the scan says, not at the first
		 * option's value (sudo -u root -s) */
		size_t opt_end = sc.opt_end;
		for (size_t k = 1; k < opt_end; k++)
			if (commands_cluster_has(&argv[k], 's') || commands_cluster_has(&argv[k], 'i') ||
			    commands_long_opt(&argv[k], "--shell", NULL, NULL) ||
			    commands_long_opt(&argv[k], "--login", NULL, NULL))
				shell_flag = true;
		for (size_t k = 1; k < opt_end; k++)
			if (commands_cluster_has(&argv[k], 'e') ||
			    commands_long_opt(&argv[k], "--edit", NULL, NULL)) {
				/* sudoedit: the operands are files it writes */
				for (size_t j = opt_end; j < argc; j++)
					filecmds_write_target(x, &argv[j], false, "edits");
				return;
			}
	}
	const char *cwd_before = x->pc.cwd;
	wrapper_chdir(x, wr, argv, argc, &sc);
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
		commands_judge_redirs(x, redirs, ci, false);
		if (shell_flag) {
			classify_rule(x, RULE_PRIVILEGE_SHELL);
			ci->f |= CI_RUNS_STDIN;
		}
		return;
	}
	if (shell_flag) {
		/* sudo -s CMD runs CMD through the target user's shell */
		classify_rule(x, RULE_PRIVILEGE_SHELL_VIA);
	}
	if (sc.prog < argc || (wr->flags & WF_ITEMS))
		built_command(x, sc.prog < argc ? &argv[sc.prog] : NULL,
			      sc.prog_off, argv + i, argc - i,
			      wr->flags & WF_ITEMS, redirs, ci);
	else
		classify_command(x, argv + i, argc - i, redirs, ci);
	x->pc.cwd = cwd_before;
}

/* env -S STRING splits STRING as env(1) does ("-S/--split-string"):
 * blanks separate words, '…' is literal, "…" and unquoted text take the
 * escapes \\ \" \' \t \n \v \f \r and \_ (a blank in "…", a word
 * break outside), '…' only \\ and \', \c ends the
 * string, '#' at the start of a word starts a comment, and ${NAME} is an
 * environment variable (not known here: the word is dynamic). Returns the
 * number of words written to out (at most max). */
static size_t env_split(struct cx *x, const struct wv *w, struct wv *out,
			size_t max)
{
	const char *s = w->s;
	size_t n = w->n, i = 0, nw = 0;
	char *buf = arena_alloc_raw(x->a, n + 1);

	if (!buf)
		return 0;
	while (i < n && nw < max) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			i++;
		if (i >= n || s[i] == '#')
			break;
		size_t o = 0;
		bool dyn = false, stop = false;
		char q = 0;
		char *start = buf;
		while (i < n) {
			char c = s[i];
			if (!q && (c == ' ' || c == '\t' || c == '\n'))
				break;
			if (!q && (c == '\'' || c == '"')) {
				q = c;
				i++;
				continue;
			}
			if (q && c == q) {
				q = 0;
				i++;
				continue;
			}
			if (q != '\'' && c == '$' && i + 1 < n && s[i + 1] == '{') {
				const char *e = memchr(s + i, '}', n - i);
				dyn = true;
				i = e ? (size_t)(e - s) + 1 : n;
				continue;
			}
			if (q == '\'' && c == '\\' && i + 1 < n &&
			    (s[i + 1] == '\\' || s[i + 1] == '\'')) {
				/* in '…' only \\ and \' are escapes */
				start[o++] = s[i + 1];
				i += 2;
				continue;
			}
			if (!q && c == '\\' && i + 1 < n && s[i + 1] == '_') {
				/* unquoted \_ separates words */
				i += 2;
				break;
			}
			if (q != '\'' && c == '\\' && i + 1 < n) {
				char d = s[i + 1], r = 0;
				i += 2;
				switch (d) {
				case '_': r = ' '; break;
				case 't': r = '\t'; break;
				case 'n': r = '\n'; break;
				case 'v': r = '\v'; break;
				case 'f': r = '\f'; break;
				case 'r': r = '\r'; break;
				case 'c': stop = true; break;
				default: r = d; break;
				}
				if (stop)
					break;
				start[o++] = r;
				continue;
			}
			start[o++] = c;
			i++;
		}
		start[o] = '\0';
		out[nw] = classify_lit(start, o);
		/* env does not expand ~, but a word starting with it is read
		 * as the home directory: the safer reading of what the
		 * author meant (rm -rf ~ deletes either a "~" here or home) */
		if (o && start[0] == '~' && (o == 1 || start[1] == '/')) {
			size_t hn = strlen(x->pc.home);
			char *h = arena_alloc_raw(x->a, hn + o);
			if (h) {
				memcpy(h, x->pc.home, hn);
				memcpy(h + hn, start + 1, o - 1);
				h[hn + o - 1] = '\0';
				out[nw] = classify_lit(h, hn + o - 1);
				out[nw].f |= WV_TILDE;
			}
		}
		if (dyn || !classify_word_static(w)) {
			out[nw].f |= WV_DYNAMIC;
			out[nw].dyn_at = 0;
		}
		nw++;
		buf += o + 1;
		if (stop)
			break;
	}
	return nw;
}

/* env 'BASH_FUNC_NAME%%=() { BODY; }' CMD: every bash CMD starts defines
 * the function NAME from the environment (bash's exported functions),
 * so the body is judged as a function would be, and the export asks. */
static bool env_function(struct cx *x, const struct wv *w)
{
	static const char pre[] = "BASH_FUNC_";
	const char *eq = memchr(w->s, '=', w->n);
	char *t;

	if (!eq || w->n < sizeof(pre) || memcmp(w->s, pre, sizeof(pre) - 1) ||
	    eq - w->s < 3 || memcmp(eq - 2, "%%", 2) != 0)
		return false;
	classify_rule(x, RULE_ENV_FUNCTION);
	size_t vn = w->n - (size_t)(eq + 1 - w->s);
	t = arena_alloc_raw(x->a, vn + 2);
	if (!t) {
		x->v->oom = true;
		return true;
	}
	/* "f() { BODY; }": the walk judges a function's body */
	t[0] = 'f';
	memcpy(t + 1, eq + 1, vn);
	classify_payload(x, t, vn + 1, CORDON_L(NESTED_SHELL),
			 "a function exported through the environment");
	return true;
}

/* env: its options read with the wrapper table's grammar (the same
 * wrappers_scan every other wrapper gets), then "-" (an empty
 * environment), NAME=value words set for the command, the command. -S
 * and --split-string (or a unique prefix) hand over a command line. */
void runners_env(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	const struct wrapper *wr = wrappers_find("env", 3, NULL, 0);
	struct wrapper_scan sc;
	size_t i;

	wrappers_scan(wr, argc, scan_word, argv, &sc);
	if (sc.payload < argc) {
		/* env [opts] -S STRING REST…: env runs as if STRING's words
		 * stood there, before REST (-SPATH=/bin rm -rf ~ sets PATH
		 * for rm); the options before -S still count */
		struct wv t = argv[sc.payload];
		size_t max = t.n / 2 + 2;
		size_t rest = argc - sc.payload - 1;

		t.s += sc.payload_off;
		t.n -= sc.payload_off;
		if (max > 256)
			max = 256;
		struct wv *na = arena_alloc(x->a, (max + rest + 1) * sizeof(*na));
		if (!na) {
			x->v->oom = true;
			return;
		}
		na[0] = argv[0];
		size_t k = 1 + env_split(x, &t, na + 1, max);
		for (size_t j = sc.payload + 1; j < argc; j++)
			na[k++] = argv[j];
		if (k > 1)
			commands_classify(x, na, k, redirs, ci);
		return;
	}
	scan_chdir(x, argv, argc, &sc);
	i = sc.opt_end;
	if (i < argc && classify_word_is(&argv[i], "-"))
		i++;
	while (i < argc && classify_word_static(&argv[i]) &&
	       argv[i].n && argv[i].s[0] != '=' &&
	       memchr(argv[i].s, '=', argv[i].n)) {
		/* a word split out of env -S has no source word */
		if (env_function(x, &argv[i]))
			;
		else if (argv[i].w)
			classify_assign(x, argv[i].w);
		else if (argv[i].n > 5 && memcmp(argv[i].s, "PATH=", 5) == 0)
			classify_rule(x, RULE_PATH_ASSIGN);
		i++;
	}
	if (i >= argc) {
		classify_rule(x, RULE_SECRETS_ENV_DUMP);
		ci->f |= CI_ENVDUMP;
		return;
	}
	classify_command(x, argv + i, argc - i, redirs, ci);
}

void runners_command(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	for (; i < argc && commands_is_opt(&argv[i]); i++) {
		if (commands_cluster_has(&argv[i], 'v') || commands_cluster_has(&argv[i], 'V'))
			return; /* lookup only */
		if (commands_is_dashdash(&argv[i])) {
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
void runners_bind_positional(struct cx *x, struct wv *argv, size_t from,
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
	const char *j = commands_join(x, argv, from + 1, argc, &jn, &dyn);
	bind_var(x, "@", j, jn, !dyn);
	bind_var(x, "*", j, jn, !dyn);
}

void runners_shell(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool has_c = false, interactive = false, read_stdin = false;

	while (i < argc) {
		const struct wv *w = &argv[i];
		if (commands_is_dashdash(w) || classify_word_is(w, "-")) {
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
			if (commands_long_opt(w, "--command", NULL, NULL) && w->n > 9) {
				struct wv t = classify_lit(w->s + 10, w->n - 10);
				classify_rule(x, RULE_NESTED_SHELL);
				commands_payload_word(x, &t, CORDON_L(NESTED_SHELL),
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
	classify_rule(x, RULE_NESTED_SHELL);
	commands_judge_redirs(x, redirs, ci, true);
	if (has_c) {
		ci->f |= CI_EXEC_ARGS;
		if (i < argc) {
			/* sh -c 'CMD' $0 $1 …: the payload sees them as
			 * positional parameters ("$@" runs them) */
			unsigned saved = x->nvars;
			runners_bind_positional(x, argv, i + 1, argc);
			commands_payload_word(x, &argv[i], CORDON_L(NESTED_SHELL),
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
		commands_check_downloaded(x, &argv[i]);
		classify_rule(x, RULE_RUNS_SCRIPT_SHELL);
		return;
	}
	ci->f |= CI_RUNS_STDIN;
	commands_feed_stdin(x, redirs, ci);
}

/* busybox APPLET ARGS; GNU coreutils' single binary also takes the
 * program as --coreutils-prog=NAME ARGS. */
void runners_busybox(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	static const char prog[] = "--coreutils-prog=";
	const size_t pn = sizeof(prog) - 1;

	if (argc > 1 && classify_word_static(&argv[1]) && argv[1].n >= pn &&
	    memcmp(argv[1].s, prog, pn) == 0) {
		struct wv saved = argv[1];
		argv[1] = classify_lit(saved.s + pn, saved.n - pn);
		classify_command(x, argv + 1, argc - 1, redirs, ci);
		argv[1] = saved;
		return;
	}
	if (argc > 1)
		classify_command(x, argv + 1, argc - 1, redirs, ci);
}

/* The builtins' options that evaluate: the option letter, what its value
 * is, and every option of the builtin that takes a value (bash's help
 * text). */
enum builtin_eval_how {
	BE_LINE, /* a command line run later (mapfile -C CALLBACK) */
	BE_EXPAND, /* words expanded, so their $( ) run (compgen -W) */
	BE_BIND, /* "KEYSEQ:COMMAND" (bind -x) */
	BE_LOAD, /* a shared object loaded (enable -f) */
	BE_HASH, /* a program the next operands name (hash -p) */
};

static const struct {
	const char *name;
	const char *vals;
	char opt;
	enum builtin_eval_how how;
} builtin_evals[] = {
	{ "bind", "mqufrx", 'x', BE_BIND },
	{ "compgen", "oAGWFCXPS", 'C', BE_LINE },
	{ "compgen", "oAGWFCXPS", 'W', BE_EXPAND },
	{ "complete", "oAGWFCXPS", 'C', BE_LINE },
	{ "complete", "oAGWFCXPS", 'W', BE_EXPAND },
	{ "enable", "f", 'f', BE_LOAD },
	{ "hash", "pd", 'p', BE_HASH },
	{ "mapfile", "dnOsuCc", 'C', BE_LINE },
	{ "readarray", "dnOsuCc", 'C', BE_LINE },
};

static void builtin_value(struct cx *x, enum builtin_eval_how how,
			  const struct wv *v, struct wv *argv, size_t argc,
			  size_t next)
{
	const char *c;
	char *t;

	switch (how) {
	case BE_LINE:
		commands_payload_word(x, v, 0, "a command line a builtin runs");
		return;
	case BE_EXPAND:
		if (!classify_word_static(v)) {
			classify_rule(x, RULE_EVAL_DYNAMIC);
			return;
		}
		t = v->n < SIZE_MAX - 2 ? arena_alloc_raw(x->a, v->n + 2) :
					  NULL;
		if (!t) {
			x->v->oom = true;
			return;
		}
		memcpy(t, ": ", 2);
		memcpy(t + 2, v->s, v->n);
		classify_payload(x, t, v->n + 2, 0,
				 "words a builtin expands (compgen -W)");
		return;
	case BE_BIND:
		c = classify_word_static(v) ? memchr(v->s, ':', v->n) : NULL;
		if (!c) {
			commands_payload_word(x, v, 0,
					      "a command bound to a key");
			return;
		}
		struct wv cmd =
			classify_lit(c + 1, v->n - (size_t)(c + 1 - v->s));
		while (cmd.n && (cmd.s[0] == ' ' || cmd.s[0] == '"')) {
			cmd.s++;
			cmd.n--;
		}
		if (cmd.n && cmd.s[cmd.n - 1] == '"')
			cmd.n--;
		commands_payload_word(x, &cmd, 0, "a command bound to a key");
		return;
	case BE_LOAD:
		classify_rule(x, RULE_BUILTIN_LOAD);
		return;
	case BE_HASH:
		classify_rule(x, RULE_HASH_PATH);
		for (size_t i = next; i < argc; i++) {
			const struct wv *w = &argv[i];
			if (!classify_word_static(w) ||
			    !classify_word_static(v) ||
			    x->nhashed >=
				    sizeof(x->hashed) / sizeof(*x->hashed))
				break;
			if (w->n == v->n && memcmp(w->s, v->s, v->n) == 0)
				continue;
			x->hashed[x->nhashed].name = w->s;
			x->hashed[x->nhashed].nlen = w->n;
			x->hashed[x->nhashed].path = v->s;
			x->hashed[x->nhashed].plen = v->n;
			x->nhashed++;
		}
		return;
	}
}

void runners_builtin_eval(struct cx *x, struct wv *argv, size_t argc,
			  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	size_t first = 0;

	(void)redirs;
	(void)ci;
	while (first < sizeof(builtin_evals) / sizeof(*builtin_evals) &&
	       !commands_name_is(name, n, builtin_evals[first].name))
		first++;
	if (first == sizeof(builtin_evals) / sizeof(*builtin_evals))
		return;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!classify_word_static(w) || w->n < 2 || w->s[0] != '-' ||
		    commands_is_dashdash(w))
			break;
		for (size_t k = 1; k < w->n; k++) {
			const char *vals = builtin_evals[first].vals;
			if (!w->s[k] || !strchr(vals, w->s[k]))
				continue;
			/* the rest of the cluster, or the next word */
			struct wv v;
			if (k + 1 < w->n) {
				v = classify_lit(w->s + k + 1, w->n - k - 1);
			} else if (i + 1 < argc) {
				v = argv[++i];
			} else {
				break;
			}
			for (size_t r = first;
			     r < sizeof(builtin_evals) /
					     sizeof(*builtin_evals) &&
			     commands_name_is(name, n, builtin_evals[r].name);
			     r++)
				if (builtin_evals[r].opt == w->s[k])
					builtin_value(x, builtin_evals[r].how,
						      &v, argv, argc, i + 1);
			break;
		}
	}
}

/* cmake -E env [--unset=NAME] [--modify OP] [--] [NAME=VALUE]… CMD ARGS,
 * cmake -E time CMD ARGS and cmake -E chdir DIR CMD ARGS run CMD (the
 * other -E tools are rows of cmdtab). */
void runners_cmake(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 3;
	const char *cwd_before = x->pc.cwd;

	if (argc < 4 || !classify_word_is(&argv[1], "-E"))
		return;
	if (classify_word_is(&argv[2], "chdir")) {
		runs_in(x, &argv[3]);
		i = 4;
	} else if (classify_word_is(&argv[2], "env")) {
		while (i < argc && commands_is_opt(&argv[i]) &&
		       !commands_is_dashdash(&argv[i]))
			i += classify_word_is(&argv[i], "--modify") ? 2 : 1;
		if (i < argc && commands_is_dashdash(&argv[i]))
			i++;
		while (i < argc && argv[i].w &&
		       classify_word_static(&argv[i]) && argv[i].n &&
		       argv[i].s[0] != '=' &&
		       memchr(argv[i].s, '=', argv[i].n)) {
			classify_assign(x, argv[i].w);
			i++;
		}
	} else if (!classify_word_is(&argv[2], "time")) {
		return;
	}
	if (i < argc)
		classify_command(x, argv + i, argc - i, redirs, ci);
	x->pc.cwd = cwd_before;
}

void runners_eval(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	bool dyn;
	const char *s = commands_join(x, argv, 1, argc, &n, &dyn);

	(void)redirs;
	ci->f |= CI_EXEC_ARGS;
	classify_rule(x, RULE_EVAL);
	if (dyn)
		classify_rule(x, RULE_EVAL_DYNAMIC);
	if (dyn && x->tcp_seen)
		classify_rule(x, RULE_REVERSE_SHELL_READ_LOOP);
	if (n)
		classify_payload(x, s, n, CORDON_L(EVAL), "the text given to eval");
}

void runners_source(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	ci->f |= CI_EXEC_ARGS;
	if (argc < 2)
		return;
	const struct wv *w = &argv[1];
	if (procsub_payload(x, w))
		return;
	if ((w->f & WV_PROCSUB) || classify_word_is(w, "/dev/stdin") || classify_word_is(w, "-")) {
		classify_rule(x, RULE_SOURCE_STREAM);
		ci->f |= CI_RUNS_STDIN;
		commands_feed_stdin(x, redirs, ci);
		return;
	}
	commands_check_downloaded(x, w);
	classify_rule(x, RULE_RUNS_SCRIPT_SOURCE);
}

void runners_alias(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const char *eq = memchr(argv[i].s, '=', argv[i].n);
		if (!eq)
			continue;
		classify_rule(x, RULE_ALIAS);
		struct wv t = argv[i];
		t.s = eq + 1;
		t.n = argv[i].n - (size_t)(eq + 1 - argv[i].s);
		commands_payload_word(x, &t, 0, "the text of an alias");
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
	classify_rule_plus(x, RULE_BATCH_EXEC, labels);
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
		commands_payload_word(x, &line, CORDON_L(BATCH_EXEC),
			     "the command line of a batch executor");
		return;
	}
	bool was = x->batch;
	x->batch = item == NULL;
	classify_command(x, a, n, NULL, &ci);
	x->batch = was;
}

/* The items a batch runner reads on stdin when they are known on the line:
 * the text of echo/printf piped in (x->feed), or its own here-string or
 * here-doc. Split at newlines (lines) or at blanks too; at most max. */
static size_t fed_items(struct cx *x, const struct sh_redir *redirs,
			bool lines, struct wv *out, size_t max)
{
	const char *t = x->feed;
	size_t tn = x->feedn, n = 0;

	x->feed = NULL;
	for (const struct sh_redir *r = redirs; !t && r; r = r->next) {
		if (r->op == SH_R_HERESTRING) {
			struct wv w = classify_eval(x, r->target);
			if (!classify_word_static(&w))
				return 0;
			t = w.s;
			tn = w.n;
		} else if (r->op == SH_R_HEREDOC) {
			struct wv w = r->body_word && !r->delim_quoted
					      ? classify_eval(x, r->body_word)
					      : classify_lit(r->body ? r->body : "",
							     r->body_len);
			if (!classify_word_static(&w))
				return 0;
			t = w.s;
			tn = w.n;
		}
	}
	if (!t)
		return 0;
	for (size_t i = 0; i < tn && n < max;) {
		while (i < tn && (t[i] == '\n' || (!lines && (t[i] == ' ' || t[i] == '\t'))))
			i++;
		size_t s = i;
		while (i < tn && t[i] != '\n' && (lines || (t[i] != ' ' && t[i] != '\t')))
			i++;
		if (i > s)
			out[n++] = classify_lit(t + s, i - s);
	}
	return n;
}

void runners_xargs(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	const char *repl = NULL;

	(void)redirs;
	while (i < argc && commands_is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if (commands_is_dashdash(w)) {
			i++;
			break;
		}
		/* -I REPL (GNU, BSD), -J REPL (BSD: all items at once) */
		if (classify_word_is(w, "-I") || classify_word_is(w, "-J")) {
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
		if (classify_word_is(w, "-i") || commands_long_opt(w, "--replace", &val, &vn)) {
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
	if (commands_find_handler(b, bn) == runners_shell || wrappers_find_interp(b, bn))
		ci->f |= CI_RUNS_STDIN; /* curl … | xargs sh -c: the input runs */
	struct wv items[16];
	size_t ni = fed_items(x, redirs, repl != NULL, items, 16);
	for (size_t k = 0; k < ni; k++)
		run_template_item(x, argv + i, argc - i, repl, repl == NULL, 0,
				  &items[k]);
	if (!ni)
		run_template(x, argv + i, argc - i, repl, repl == NULL, 0);
}

void runners_parallel(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1, end;

	(void)redirs;
	while (i < argc && commands_is_opt(&argv[i])) {
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
		classify_rule(x, RULE_BATCH_EXEC_LINES);
		for (size_t k = end + 1, tried = 0; k < argc && tried < 16; k++, tried++)
			commands_payload_word(x, &argv[k], CORDON_L(BATCH_EXEC),
				     "a command run by parallel");
		if (end >= argc) {
			struct wv items[16];
			size_t ni = fed_items(x, redirs, true, items, 16);
			for (size_t k = 0; k < ni; k++)
				commands_payload_word(x, &items[k], CORDON_L(BATCH_EXEC),
						      "a command run by parallel");
			ci->f |= CI_RUNS_STDIN;
		}
		return;
	}
	bool has_repl = false;
	for (size_t k = i; k < end; k++)
		if (memmem(argv[k].s, argv[k].n, "{}", 2))
			has_repl = true;
	/* The arguments after ::: are known: try each (a few); without
	 * ::: the lines fed on the line (echo … | parallel CMD {}) are */
	size_t tried = 0;
	if (end >= argc) {
		struct wv items[16];
		size_t ni = fed_items(x, redirs, true, items, 16);
		for (size_t k = 0; k < ni; k++)
			run_template_item(x, argv + i, end - i, "{}", !has_repl,
					  0, &items[k]);
		if (ni)
			return;
	}
	for (size_t k = end + 1; k < argc && tried < 16; k++) {
		if (classify_word_is(&argv[k], ":::") || classify_word_is(&argv[k], "::::"))
			break;
		run_template_item(x, argv + i, end - i, "{}", !has_repl, 0, &argv[k]);
		tried++;
	}
	if (!tried)
		run_template(x, argv + i, end - i, "{}", !has_repl, 0);
}

void runners_find(struct cx *x, struct wv *argv, size_t argc,
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
					classify_rule(x, RULE_FIND_DELETE_TMP);
				} else if (cap == CORDON_RISK_DESTRUCTIVE) {
					/* -delete removes directories too, depth
					 * first: a recursive delete, whatever the
					 * filter (rm {} without -r cannot) */
					const char *abs = NULL;
					enum path_class pc = classify_word_static(root)
						? classify_path(x, root, &abs) : PATH_OUTSIDE;
					classify_rule_plus(
						x, RULE_FIND_DELETE,
						commands_class_labels(pc));
				} else {
					classify_hit(x, CORDON_RISK_SAFE, CORDON_L(DELETE), NULL, NULL);
					filecmds_judge_delete(x, root, true, false,
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
			filecmds_write_target(x, &argv[i + 1], true, "overwrites");
			i++;
		}
	}
}

static bool in_list(const char *list, const struct wv *w);

/* Tools whose operands are command lines run through a shell, from their
 * man pages: hyperfine CMD… (every operand is a command it benchmarks),
 * watchexec CMD (one operand is a shell line; after -- the words are the
 * command), tmux new-session/new-window/split-window/respawn-pane/
 * respawn-window [SHELL-COMMAND] and send-keys KEYS (typed into a shell),
 * tmux run-shell/if-shell/display-popup/pipe-pane SHELL-COMMAND (run with
 * /bin/sh; if-shell's later operands are tmux commands, read as lines too,
 * which can only rate higher), byobu (tmux with its own configuration),
 * sops exec-env/exec-file FILE CMD, concurrently CMD… (each operand a
 * line; "npm:x" names a script, read as a command too). A tool may
 * have a row per group of subcommands whose options differ (display-popup
 * -d DIR, new-session -d). Options with a value are skipped by the lists
 * below; the operands are judged as command lines. */
static const struct {
	const char *tool;    /* " tmux byobu ": the names */
	const char *subs;    /* " new … ": required subcommand, or NULL */
	const char *vals;    /* " -x --long ": options that take a value */
	unsigned skip;       /* operands before the command (sops' FILE) */
} line_runners[] = {
	{ " hyperfine ", NULL,
	  " -w --warmup -m --min-runs -M --max-runs -r --runs -s --setup -p "
	  "--prepare -c --cleanup -P --parameter-scan -D --parameter-step-size "
	  "-L --parameter-list -S --shell --style --sort -u --time-unit "
	  "--export-asciidoc --export-csv --export-json --export-markdown "
	  "--export-orgmode --output --input -n --command-name ",
	  0 },
	{ " sops ", " exec-env exec-file ", " --user --filename --placeholder ", 1 },
	{ " tmux byobu ",
	  " new new-session new-window neww split-window splitw respawn-pane "
	  "respawnp respawn-window respawnw send-keys send ",
	  " -c -e -F -l -n -s -t -x -y -L -S -f -T -N ", 0 },
	{ " tmux byobu ",
	  " run-shell run if-shell if display-popup popup pipe-pane pipep ",
	  " -c -d -t -e -w -h -x -y -s -S -T ", 0 },
	{ " watchexec ", NULL,
	  " -w --watch -e --exts -f --filter -i --ignore --shell -d --debounce "
	  "--delay-run -s --signal --stop-signal --stop-timeout --on-busy-update "
	  "--project-origin --workdir --emit-events-to -E --env --wrap-process "
	  "--poll --color --filter-file --ignore-file --log-file ",
	  0 },
	{ " concurrently ", NULL,
	  " -n --names -c --prefix-colors -p --prefix -l --prefix-length -t "
	  "--timestamp-format --name-separator -s --success "
	  "--restart-tries --restart-after -m --max-processes "
	  "--default-input-target --pad-prefix ",
	  0 },
};

void runners_line_operands(struct cx *x, struct wv *argv, size_t argc,
			   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n, i = 1, t = 0;
	const char *name = classify_cmd_base(&argv[0], &n);

	(void)redirs;
	struct wv nw = classify_lit(name, n);

	for (; t < sizeof(line_runners) / sizeof(*line_runners); t++) {
		if (!in_list(line_runners[t].tool, &nw))
			continue;
		i = 1;
		if (!line_runners[t].subs)
			break;
		/* tmux -L NAME new …: the server's options, then the
		 * subcommand */
		while (i < argc && commands_is_opt(&argv[i]))
			i += in_list(" -L -S -f -T ", &argv[i]) ? 2 : 1;
		if (i < argc && in_list(line_runners[t].subs, &argv[i])) {
			i++;
			break;
		}
	}
	if (t == sizeof(line_runners) / sizeof(*line_runners))
		return;
	unsigned skip = line_runners[t].skip;
	for (; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (commands_is_dashdash(w)) {
			/* the words after -- are one command */
			if (i + 1 < argc)
				classify_command(x, argv + i + 1, argc - i - 1, NULL, ci);
			return;
		}
		if (commands_is_opt(w)) {
			/* hyperfine's (row 0) --setup, --prepare and
			 * --cleanup are command lines too */
			if (t == 0 && i + 1 < argc &&
			    in_list(" -s --setup -p --prepare -c --cleanup ", w))
				commands_payload_word(x, &argv[i + 1],
						      CORDON_L(NESTED_SHELL),
						      "a command line run by a tool");
			if (in_list(line_runners[t].vals, w))
				i++;
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		commands_payload_word(x, w, CORDON_L(NESTED_SHELL),
				      "a command line run by a tool");
	}
}

void runners_editor(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	/* ed and ex read their commands on stdin whenever it is not a
	 * terminal; vi, vim and nvim only in Ex mode */
	bool ex_mode = (n == 2 && memcmp(name, "ed", 2) == 0) ||
		       (n == 2 && memcmp(name, "ex", 2) == 0);

	(void)x;
	(void)redirs;
	for (size_t i = 1; i < argc && !ex_mode; i++) {
		const struct wv *w = &argv[i];
		if (commands_is_dashdash(w))
			break;
		if (w->n < 2 || w->s[0] != '-' || w->s[1] == '-')
			continue;
		for (size_t k = 1; k < w->n; k++)
			if (w->s[k] == 'e' || w->s[k] == 'E')
				ex_mode = true;
			else if (!isalpha((unsigned char)w->s[k]))
				break;
	}
	if (ex_mode)
		ci->f |= CI_EDIT_STDIN;
}

void runners_watch(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool exec = false;

	while (i < argc && commands_is_opt(&argv[i])) {
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
	const char *s = commands_join(x, argv, i, argc, &n, &dyn);
	classify_payload(x, s, n, 0, "the command run by watch");
}

void runners_flock(struct cx *x, struct wv *argv, size_t argc,
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
		if (commands_is_opt(w)) {
			i++;
			continue;
		}
		break;
	}
	if (cmd) {
		commands_payload_word(x, cmd, 0, "the command run by flock");
		return;
	}
	i++; /* the lock file */
	for (; i < argc; i++) {
		if (classify_word_is(&argv[i], "-c") || classify_word_is(&argv[i], "--command")) {
			if (i + 1 < argc)
				commands_payload_word(x, &argv[i + 1], 0, "the command run by flock");
			return;
		}
		if (!commands_is_opt(&argv[i]))
			break;
	}
	if (i < argc)
		classify_command(x, argv + i, argc - i, redirs, ci);
}

void runners_su(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	bool cmd = false;

	classify_rule(x, RULE_PRIVILEGE_SU);
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--command") ||
		     classify_word_is(w, "--session-command")) && i + 1 < argc) {
			commands_payload_word(x, &argv[i + 1], CORDON_L(PRIVILEGE),
				     "the command given to su");
			cmd = true;
			i++;
		} else if (commands_long_opt(w, "--command", &val, &vn) && val) {
			struct wv t = classify_lit(val, vn);
			commands_payload_word(x, &t, CORDON_L(PRIVILEGE), "the command given to su");
			cmd = true;
		} else if (classify_word_is(w, "-s") || classify_word_is(w, "--shell") || classify_word_is(w, "-g") ||
			   classify_word_is(w, "-G") || classify_word_is(w, "-w")) {
			i++;
		}
	}
	if (!cmd) {
		classify_rule(x, RULE_PRIVILEGE_SHELL);
		ci->f |= CI_RUNS_STDIN;
		commands_feed_stdin(x, redirs, ci);
	}
}

/* runuser -u USER [--] CMD…, runuser [-l] USER -c CMD: su without a
 * password prompt. */
void runners_runuser(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	bool by_u = false;
	size_t i = 1;

	classify_rule(x, RULE_PRIVILEGE_RUNUSER);
	while (i < argc) {
		const struct wv *w = &argv[i];
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--command")) && i + 1 < argc) {
			commands_payload_word(x, &argv[i + 1], CORDON_L(PRIVILEGE),
				     "the command given to runuser");
			return;
		}
		if (commands_is_dashdash(w)) {
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
		if (commands_is_opt(w)) {
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
void runners_sg(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);

	(void)redirs;
	classify_rule(x, RULE_PRIVILEGE_SG);
	/* newgrp [-] [GROUP] starts a shell, which reads its stdin */
	if (commands_name_is(name, n, "newgrp")) {
		ci->f |= CI_RUNS_STDIN;
		return;
	}
	for (size_t i = 1; i < argc; i++) {
		if (classify_word_is(&argv[i], "-") || commands_is_opt(&argv[i])) {
			if (classify_word_is(&argv[i], "-c") && i + 1 < argc) {
				commands_payload_word(x, &argv[i + 1], CORDON_L(PRIVILEGE),
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
				commands_payload_word(x, &argv[k], CORDON_L(PRIVILEGE),
					     "the command given to sg");
		}
		return;
	}
}

/* capsh [OPTIONS] -- ARGS runs its shell (--shell=PATH, else bash) with
 * ARGS (capsh -- -c CMD); wsl [OPTIONS] CMD… runs a command line in the
 * distribution's shell, wsl -e CMD… the words without one. */
void runners_capsh_wsl(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n, i = 1;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool wsl = commands_name_is(name, n, "wsl");
	struct wv shell = classify_lit("bash", 4);

	for (; i < argc && commands_is_opt(&argv[i]); i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if (commands_is_dashdash(w)) {
			i++;
			break;
		}
		if (!wsl && commands_long_opt(w, "--shell", &val, &vn) && val) {
			shell = classify_lit(val, vn);
			shell.f = w->f & (WV_DYNAMIC | WV_SUBST);
		}
		if (!wsl)
			continue;
		if (classify_word_is(w, "-e") || classify_word_is(w, "--exec")) {
			if (i + 1 < argc)
				classify_command(x, argv + i + 1, argc - i - 1, redirs, ci);
			return;
		}
		if (in_list(" -d --distribution -u --user --cd --shell-type --distribution-id ", w))
			i++;
		else if (w->n > 2 && w->s[1] == '-' && !memchr(w->s, '=', w->n))
			return; /* --list, --shutdown …: manages, runs nothing */
	}
	if (i >= argc)
		return;
	if (wsl) {
		/* the words reach the distribution's shell joined as one
		 * line; read as the words they were too, the higher wins */
		bool dyn;
		const char *s = commands_join(x, argv, i, argc, &n, &dyn);
		classify_payload(x, s, n, 0, "the command line wsl runs");
		classify_command(x, argv + i, argc - i, redirs, ci);
		return;
	}
	struct wv *a = arena_alloc(x->a, (argc - i + 1) * sizeof(*a));
	if (!a) {
		x->v->oom = true;
		return;
	}
	a[0] = shell;
	memcpy(a + 1, argv + i, (argc - i) * sizeof(*a));
	classify_command(x, a, argc - i + 1, redirs, ci);
}

/* screen [OPTIONS] CMD ARGS runs CMD in a new window; -X sends a
 * command to a session: stuff TEXT types TEXT into its shell (\n, \r and
 * ^M are the Enter it types), exec [FDPAT] CMD ARGS and screen CMD ARGS
 * run CMD. Options with a value, from screen(1): -c -e -h -p -s -S -t -T
 * -X, and -Logfile FILE. */
void runners_screen(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	const struct wv *send = NULL;

	for (; i < argc && commands_is_opt(&argv[i]); i++) {
		const struct wv *w = &argv[i];
		if (commands_is_dashdash(w)) {
			i++;
			break;
		}
		if (classify_word_is(w, "-Logfile")) {
			i++;
			continue;
		}
		for (size_t k = 1; k < w->n; k++) {
			if (!strchr("cehpsStTX", w->s[k]))
				continue;
			if (k + 1 == w->n && i + 1 < argc) {
				i++;
				if (w->s[k] == 'X')
					send = &argv[i];
			}
			break;
		}
		if (send)
			break;
	}
	if (!send) {
		if (i < argc)
			classify_command(x, argv + i, argc - i, redirs, ci);
		return;
	}
	i++;
	if (i >= argc)
		return;
	if (classify_word_is(send, "exec") || classify_word_is(send, "screen")) {
		/* exec's fd pattern (..., !.., |.!): not the command */
		if (classify_word_is(send, "exec") && classify_word_static(&argv[i]) &&
		    argv[i].n && strspn(argv[i].s, ".!|:") == argv[i].n)
			i++;
		while (i < argc && classify_word_is(send, "screen") && commands_is_opt(&argv[i]))
			i++;
		if (i < argc)
			classify_command(x, argv + i, argc - i, redirs, ci);
		return;
	}
	if (!classify_word_is(send, "stuff"))
		return;
	if (!classify_word_static(&argv[i])) {
		commands_payload_word(x, &argv[i], CORDON_L(NESTED_SHELL),
				      "text typed into a screen session's shell");
		return;
	}
	const struct wv *t = &argv[i];
	char *line = arena_alloc_raw(x->a, t->n + 1);
	size_t o = 0;
	if (!line) {
		x->v->oom = true;
		return;
	}
	for (size_t k = 0; k < t->n; k++) {
		if (k + 1 < t->n && ((t->s[k] == '\\' && strchr("nr", t->s[k + 1])) ||
				     (t->s[k] == '^' && strchr("MJ", t->s[k + 1])))) {
			line[o++] = '\n';
			k++;
			continue;
		}
		line[o++] = t->s[k];
	}
	line[o] = '\0';
	classify_payload(x, line, o, CORDON_L(NESTED_SHELL),
			 "text typed into a screen session's shell");
}

/* script -c CMD [FILE]: runs CMD under a pseudo-terminal. */
void runners_script(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if ((classify_word_is(w, "-c") || classify_word_is(w, "--command")) && i + 1 < argc) {
			commands_payload_word(x, &argv[i + 1], 0, "the command given to script");
			return;
		}
		if (commands_long_opt(w, "--command", &val, &vn) && val) {
			struct wv t = classify_lit(val, vn);
			commands_payload_word(x, &t, 0, "the command given to script");
			return;
		}
		/* -qc CMD, -qcCMD: flags, then -c with the rest of the
		 * cluster or the next word as its value */
		size_t k = commands_is_opt(w) && w->s[1] != '-' ?
				   1 + strspn(w->s + 1, "aefqk") :
				   w->n;
		if (k < w->n && w->s[k] == 'c') {
			if (k + 1 < w->n) {
				struct wv t = *w;
				t.s += k + 1;
				t.n -= k + 1;
				t.dyn_at = t.dyn_at > k + 1 ? t.dyn_at - k - 1 : 0;
				commands_payload_word(x, &t, 0, "the command given to script");
				return;
			}
			if (i + 1 < argc) {
				commands_payload_word(x, &argv[i + 1], 0, "the command given to script");
				return;
			}
		}
	}
}

/* trap 'CMD' SIGNAL…: CMD runs when the signal (or EXIT) comes. */
void runners_trap(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	(void)redirs;
	(void)ci;
	if (i < argc && commands_is_dashdash(&argv[i]))
		i++;
	if (i + 1 >= argc || commands_is_opt(&argv[i]) || classify_word_is(&argv[i], "-"))
		return;
	commands_payload_word(x, &argv[i], 0, "the command a trap runs");
}

/* ---- remote and container payloads ----------------------------------------------- */

void runners_ssh(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	(void)redirs;
	ci->f |= CI_NETWORK | CI_NETSEND;
	while (i < argc && commands_is_opt(&argv[i])) {
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
				commands_payload_word(x, &c, 0, "a command ssh runs locally");
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
	while (i < argc && commands_is_opt(&argv[i]) && !commands_is_dashdash(&argv[i])) {
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
	if (i < argc && commands_is_dashdash(&argv[i]))
		i++;
	if (i >= argc) {
		classify_rule(x, RULE_REMOTE_SHELL);
		ci->f |= CI_RUNS_STDIN;
		return;
	}
	size_t n;
	bool dyn;
	const char *s = commands_join(x, argv, i, argc, &n, &dyn);
	classify_rule(x, RULE_REMOTE_EXEC);
	if (dyn)
		classify_rule(x, RULE_REMOTE_DYNAMIC);
	classify_payload(x, s, n, CORDON_L(REMOTE), "the command run remotely");
}

/* Tools that run a command on another machine, a VM or a pod, given in
 * an option or as the words after "--" (or after the operands named
 * below), from their --help: vagrant ssh -c/--command, gcloud compute ssh
 * --command, fly ssh console -C/--command, minikube ssh and colima ssh
 * (the words after --), oc rsh POD COMMAND, az vm run-command invoke
 * --scripts, heroku run COMMAND, clush -w NODES COMMAND, salt TARGET
 * cmd.run COMMAND, mosh HOST -- COMMAND. Words before the subcommand
 * may sit between its words (gcloud --project p compute ssh). */
static const struct {
	const char *tools; /* " fly flyctl " */
	const char *subs; /* the subcommand, its words in order */
	const char *cmd_opts; /* " -c --command ": the value is a command line */
	const char *vals; /* the other options that take a value */
	unsigned operands; /* operands before the command (oc rsh POD), or
				 NO_OPERANDS: only -- or cmd_opts give one */
} remote_runners[] = {
#define NO_OPERANDS 255u
	{ " az ", " vm run-command ", " --scripts ", NULL, NO_OPERANDS },
	{ " clush ", " ", NULL, " -w -x -g -X -l -o -t -u -f -R ", 0 },
	{ " colima ", " ssh ", NULL, " -p --profile ", NO_OPERANDS },
	{ " fly flyctl ", " ssh console ", " -C --command ",
	  " -a --app -r --region -s --select -u --user -o --org ",
	  NO_OPERANDS },
	{ " gcloud ", " compute ssh ", " --command ", NULL, NO_OPERANDS },
	{ " heroku ", " run ", NULL,
	  " -a --app -r --remote -s --size -e --env --type ", 0 },
	{ " minikube ", " ssh ", NULL, " -p --profile -n --node ",
	  NO_OPERANDS },
	{ " mosh ", " ", NULL, " -p --port ", NO_OPERANDS },
	{ " oc ", " rsh ", NULL, " -c --container -n --namespace --shell ", 1 },
	{ " salt ", " cmd.run ", NULL, NULL, 0 },
	{ " vagrant ", " ssh ", " -c --command ", NULL, NO_OPERANDS },
};

void runners_remote_opts(struct cx *x, struct wv *argv, size_t argc,
			 const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n, t = 0;
	const char *name = classify_cmd_base(&argv[0], &n);
	const size_t rows = sizeof(remote_runners) / sizeof(*remote_runners);
	struct wv nw = classify_lit(name, n);

	(void)redirs;
	while (t < rows && !in_list(remote_runners[t].tools, &nw))
		t++;
	if (t == rows)
		return;
	/* the subcommand's words, in order */
	const char *sub = remote_runners[t].subs;
	size_t i = 1;
	while (*sub == ' ' && sub[1]) {
		const char *e = strchr(sub + 1, ' ');
		size_t sl = (size_t)(e - sub - 1);
		while (i < argc &&
		       !(argv[i].n == sl && classify_word_static(&argv[i]) &&
			 memcmp(argv[i].s, sub + 1, sl) == 0))
			i++;
		if (i >= argc)
			return;
		i++;
		sub = e;
	}
	unsigned ops = remote_runners[t].operands;
	for (; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		if (commands_is_dashdash(w)) {
			i++;
			break;
		}
		if (!commands_is_opt(w)) {
			if (ops == 0)
				break;
			if (ops != NO_OPERANDS)
				ops--;
			continue;
		}
		if (remote_runners[t].cmd_opts &&
		    in_list(remote_runners[t].cmd_opts, w) && i + 1 < argc) {
			classify_rule(x, RULE_REMOTE_EXEC);
			commands_payload_word(x, &argv[i + 1], CORDON_L(REMOTE),
					      "the command run remotely");
			ci->f |= CI_NETWORK;
			return;
		}
		if (remote_runners[t].cmd_opts && w->n > 2 && w->s[1] == '-' &&
		    commands_long_opt(w, "--command", &val, &vn) && val &&
		    strstr(remote_runners[t].cmd_opts, " --command ")) {
			struct wv v = classify_lit(val, vn);
			v.f = w->f & (WV_DYNAMIC | WV_SUBST);
			classify_rule(x, RULE_REMOTE_EXEC);
			commands_payload_word(x, &v, CORDON_L(REMOTE),
					      "the command run remotely");
			ci->f |= CI_NETWORK;
			return;
		}
		if (remote_runners[t].vals &&
		    in_list(remote_runners[t].vals, w))
			i++;
	}
	if (i >= argc ||
	    (ops != 0 && i > 0 && !commands_is_dashdash(&argv[i - 1])))
		return;
	bool dyn;
	const char *s = commands_join(x, argv, i, argc, &n, &dyn);
	classify_rule(x, RULE_REMOTE_EXEC);
	if (dyn)
		classify_rule(x, RULE_REMOTE_DYNAMIC);
	ci->f |= CI_NETWORK;
	classify_payload(x, s, n, CORDON_L(REMOTE), "the command run remotely");
}

void runners_container_exec(struct cx *x, struct wv *argv, size_t argc,
			     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool kube = (commands_name_is(name, n, "kubectl")) ||
		    (n == 1 && name[0] == 'k') || (commands_name_is(name, n, "oc"));
	size_t i;

	if (commands_name_is(name, n, "oc") && argc > 1 &&
	    classify_word_is(&argv[1], "rsh")) {
		runners_remote_opts(x, argv, argc, redirs, ci);
		return;
	}

	if (kube) {
		for (i = 1; i < argc; i++)
			if (commands_is_dashdash(&argv[i]))
				break;
		if (i + 1 >= argc)
			return;
		i++;
	} else {
		/* docker exec [opts] CONTAINER CMD…; docker compose exec SVC … */
		for (i = 1; i < argc && !classify_word_is(&argv[i], "exec"); i++)
			;
		i++;
		while (i < argc && commands_is_opt(&argv[i])) {
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
	classify_rule(x, RULE_REMOTE_CONTAINER_EXEC);
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

void runners_interp(struct cx *x, const struct wrappers_interp *ip, struct wv *argv,
		     size_t argc, const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;
	bool code = false;

	/* an interpreter's fds on a socket (python -c 'pty.spawn("sh")'
	 * </dev/tcp/h/p) hand what it runs to the connection, as a shell's */
	commands_judge_redirs(x, redirs, ci, true);
	while (i < argc) {
		const struct wv *w = &argv[i];
		if (in_list(ip->code_opt, w)) {
			if (i + 1 < argc) {
				if (!classify_word_static(&argv[i + 1]))
					classify_rule(x, RULE_CODE_DYNAMIC);
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
				if (ip->code_opt && strstr(ip->code_opt, key))
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
		if (commands_is_dashdash(w)) {
			i++;
			break;
		}
		if (commands_is_opt(w)) {
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
			if (commands_is_opt(&argv[k]) && argv[k].s[1] != '-' &&
			    (ip->lang == CODE_PERL || ip->lang == CODE_RUBY) &&
			    memchr(argv[k].s, 'i', argv[k].n))
				inplace = true;
		for (size_t k = i; inplace && k < argc; k++)
			if (!commands_is_opt(&argv[k]))
				filecmds_write_target(x, &argv[k], false, "edits in place");
		return;
	}
	/* go run FILE, crystal run FILE, rustc FILE: build tools, whose
	 * files are the project's; only a file written on this line is read
	 * (echo 'package main …' > r.go && go run r.go) */
	if (ip->sub) {
		if (i < argc && in_list(ip->sub, &argv[i]))
			i++;
		for (; i < argc; i++) {
			if (in_list(ip->arg_opt, &argv[i])) {
				i++;
				continue;
			}
			if (!commands_is_opt(&argv[i]))
				commands_check_downloaded_as(x, &argv[i], (int)ip->lang);
		}
		return;
	}
	if (i < argc && !classify_word_is(&argv[i], "-")) {
		commands_check_downloaded_as(x, &argv[i], (int)ip->lang);
		classify_rule(x, RULE_RUNS_SCRIPT_INTERPRETER);
		return;
	}
	ci->f |= CI_CODE_STDIN;
	ci->lang = (int)ip->lang;
	commands_feed_stdin(x, redirs, ci);
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

void runners_awk(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t i = 1;

	(void)redirs;
	(void)ci;
	while (i < argc && commands_is_opt(&argv[i])) {
		const struct wv *w = &argv[i];
		if (classify_word_is(w, "-f") || classify_word_is(w, "--file")) {
			classify_rule(x, RULE_RUNS_SCRIPT_AWK);
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
		else if (commands_is_dashdash(w)) {
			i++;
			break;
		} else
			i++;
	}
	if (i < argc)
		awk_code(x, argv, i);
}

void runners_sed(struct cx *x, struct wv *argv, size_t argc,
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
		if (commands_long_opt(w, "--expression", &ev, &evn) && ev) {
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
		if (commands_is_opt(w)) {
			if (w->s[1] == '-' ? commands_long_opt(w, "--in-place", NULL, NULL)
					   : commands_cluster_has(w, 'i'))
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
			filecmds_write_target(x, w, false, "edits in place");
	}
}

/* ---- database clients ------------------------------------------------------------ */

void runners_sqlclient(struct cx *x, struct wv *argv, size_t argc,
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
				const char *j = commands_join(x, argv, i + 1, argc, &jn, &dyn);
				classify_sql(x, j, jn);
			}
			any = true;
			i++;
			continue;
		}
		if ((commands_long_opt(w, "--command", &val, &vn) ||
		     commands_long_opt(w, "--execute", &val, &vn) ||
		     commands_long_opt(w, "--eval", &val, &vn) ||
		     commands_long_opt(w, "--query", &val, &vn)) && val) {
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
		if (!commands_is_opt(w)) {
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
		commands_feed_stdin(x, redirs, ci);
	}
}
