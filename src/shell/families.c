/* families — the handlers of small command families that need more than
 * the rows of cmdtab.c: disks, archives, crontab and at, make, ansible,
 * cd, foreign shells, echo and printf, decoders, filters, environment
 * dumps, history, network tools and uploads, git, rg, fifos, identity, cat.
 * Dispatched from commands.c; see commands_int.h.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify_int.h"
#include "codescan.h"
#include "commands_int.h"
#include "gitexec.h"
#include "wrappers.h"
#include "banned.h"

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
		classify_rule(x, RULE_SUBSCRIPT_EXEC);
		classify_payload(x, s + i + 1, e - i - 1, 0, "a command in an array subscript");
		return;
	}
}

void families_subscripts(struct cx *x, struct wv *argv, size_t argc,
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

	if ((commands_name_is(name, n, "blkdiscard")) ||
	    (commands_name_is(name, n, "mkswap")))
		return true;
	for (size_t i = 1; i < argc; i++)
		if (commands_cluster_has(&argv[i], 'n') || classify_word_is(&argv[i], "--no-act"))
			return false; /* wipefs -n: only says what it would do */
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (commands_name_is(name, n, "wipefs") &&
		    (commands_cluster_has(w, 'a') || classify_word_is(w, "--all") || commands_long_opt(w, "--offset", NULL, NULL)))
			return true;
		if (commands_name_is(name, n, "sgdisk") &&
		    (commands_cluster_has(w, 'Z') || commands_cluster_has(w, 'z') || commands_cluster_has(w, 'o') ||
		     classify_word_is(w, "--zap-all") || classify_word_is(w, "--zap") || classify_word_is(w, "--clear")))
			return true;
		if (commands_name_is(name, n, "hdparm") &&
		    (commands_long_opt(w, "--security-erase", NULL, NULL) ||
		     commands_long_opt(w, "--security-erase-enhanced", NULL, NULL) ||
		     commands_long_opt(w, "--trim-sector-ranges", NULL, NULL)))
			return true;
	}
	return false;
}

void families_disktool(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const char *abs;
		if (!classify_word_static(&argv[i]) || commands_is_opt(&argv[i]))
			continue;
		/* a device is under /dev, or named from the cwd there */
		if (!memmem(argv[i].s, argv[i].n, "dev", 3) &&
		    strncmp(x->pc.cwd, "/dev", 4) != 0)
			continue;
		if (classify_path(x, &argv[i], &abs) == PATH_DEVICE) {
			if (disk_wipe(argv, argc))
				classify_rulef(x, DISK_WIPE, abs);
			else
				classify_rulef(x, DISK_TOOL, abs);
			return;
		}
	}
}

/* Archive tools extract where they are told: the destination is written. */
void families_archive(struct cx *x, struct wv *argv, size_t argc,
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
			filecmds_write_target(x, &argv[i + 1], false, "extracts into");
			i++;
		} else if (commands_long_opt(w, "--directory", &val, &vn) && val) {
			t = classify_lit(val, vn);
			filecmds_write_target(x, &t, false, "extracts into");
		} else if (w->n > 2 && memcmp(w->s, "-o", 2) == 0 && classify_word_static(w)) {
			t = classify_lit(w->s + 2, w->n - 2);
			filecmds_write_target(x, &t, false, "extracts into");
		}
	}
}

/* crontab - (or crontab with no file in a pipe) replaces every scheduled
 * job with what it reads: what comes down the pipe will run later. */
void families_crontab(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++)
		if (classify_word_is(&argv[i], "-"))
			classify_rule(x, RULE_PERSIST_CRONTAB_STDIN);
}

/* at TIME and batch read shell commands on stdin and run them later. */
void families_at(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	for (size_t i = 1; i < argc; i++) {
		if (classify_word_is(&argv[i], "-l") || classify_word_is(&argv[i], "-d") ||
		    classify_word_is(&argv[i], "-r") || classify_word_is(&argv[i], "-c"))
			return; /* list, delete, show: nothing runs */
		if (classify_word_is(&argv[i], "-f") && i + 1 < argc) {
			commands_check_downloaded(x, &argv[i + 1]);
			return;
		}
	}
	ci->f |= CI_RUNS_STDIN;
	commands_feed_stdin(x, redirs, ci);
}

/* make runs recipe lines as shell commands: a makefile from a here-doc
 * (make -f - / -f /dev/stdin) or from --eval is read here. */
/* make's $(shell CMD) in text make expands (--eval, a variable set on
 * the command line, which the makefile's uses expand): CMD runs. */
static void make_shell_calls(struct cx *x, const char *s, size_t n)
{
	for (size_t i = 0; i + 8 <= n; i++) {
		size_t depth = 1, e;
		if (memcmp(s + i, "$(shell", 7) != 0 ||
		    !(s[i + 7] == ' ' || s[i + 7] == '\t'))
			continue;
		for (e = i + 8; e < n && depth; e++)
			depth += s[e] == '(' ? 1 : s[e] == ')' ? (size_t)-1 : 0;
		classify_payload(x, s + i + 8, e - i - 8 - (depth ? 0 : 1),
				 CORDON_L(NESTED_SHELL),
				 "a command make's $(shell) runs");
		i = e - 1;
	}
}

void families_make(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	bool stdin_mk = false;

	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		const char *eq = classify_word_static(w) && w->n &&
						 w->s[0] != '-' ?
					 memchr(w->s, '=', w->n) :
					 NULL;
		if (eq) {
			/* NAME=VALUE overrides the makefile's NAME: CC, SHELL
			 * and the like are programs make runs */
			size_t nl = (size_t)(eq - w->s);
			while (nl &&
			       (w->s[nl - 1] == ':' || w->s[nl - 1] == '+' ||
				w->s[nl - 1] == '?'))
				nl--;
			struct wv v = classify_lit(
				eq + 1, w->n - (size_t)(eq + 1 - w->s));
			size_t bn;
			const char *b = classify_cmd_base(&v, &bn);
			/* SHELL=/bin/bash: a shell runs the recipes, as ever */
			bool shell = nl == 5 && memcmp(w->s, "SHELL", 5) == 0;
			if (shell && !memchr(v.s, ' ', v.n) &&
			    wrappers_is_shell(b, bn))
				shell = false;
			else if (shell)
				classify_rule(x, RULE_MAKE_SHELL);
			if (classify_is_command_var(w->s, nl) || shell)
				commands_payload_word(x, &v,
						      CORDON_L(NESTED_SHELL),
						      "a program make runs");
			make_shell_calls(x, v.s, v.n);
			continue;
		}
		if ((classify_word_is(w, "-f") || classify_word_is(w, "--file") || classify_word_is(w, "--makefile")) &&
		    i + 1 < argc &&
		    (classify_word_is(&argv[i + 1], "-") || classify_word_is(&argv[i + 1], "/dev/stdin")))
			stdin_mk = true;
		if (commands_long_opt(w, "--eval", &val, &vn) && val) {
			make_shell_calls(x, val, vn);
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
		t = commands_heredoc_text(x, r, &n);
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

/* cargo --config KEY=VALUE: the keys that name a program cargo runs (the
 * runner, linkers, rustc and its wrappers, rustdoc, credential providers,
 * cargo doc's browser), from the Cargo book's configuration chapter. */
static const char *const cargo_exec_keys[] = {
	"target.*.runner",
	"target.*.linker",
	"host.linker",
	"host.*.linker",
	"build.rustc",
	"build.rustc-wrapper",
	"build.rustc-workspace-wrapper",
	"build.rustdoc",
	"doc.browser",
	"registry.credential-provider",
	"registry.global-credential-providers",
	"registries.*.credential-provider",
	"credential-alias.*",
};

/* One --config value: KEY=VALUE in TOML, VALUE a string ("…", '…') or
 * an array of them (the program and its arguments), or else a file. */
static void cargo_config(struct cx *x, const struct wv *v)
{
	const char *eq = classify_word_static(v) ? memchr(v->s, '=', v->n) :
						   NULL;
	char key[128], *out;
	size_t kl = 0, o = 0;

	if (!eq) {
		classify_rule(x, RULE_CARGO_CONFIG_FILE);
		return;
	}
	/* the key without blanks and quotes: target."x86_64-…".runner */
	for (const char *p = v->s; p < eq && kl + 1 < sizeof(key); p++)
		if (*p != ' ' && *p != '\t' && *p != '"' && *p != '\'')
			key[kl++] = (char)tolower((unsigned char)*p);
	key[kl] = '\0';
	size_t k = 0;
	while (k < sizeof(cargo_exec_keys) / sizeof(*cargo_exec_keys) &&
	       fnmatch(cargo_exec_keys[k], key, 0) != 0)
		k++;
	if (k == sizeof(cargo_exec_keys) / sizeof(*cargo_exec_keys)) {
		/* build.rustflags, target.*.rustflags, build.rustdocflags */
		if (fnmatch("*.rust*flags", key, 0) == 0)
			families_rustc_flags(x, v);
		return;
	}
	classify_rulef(x, CARGO_CONFIG_EXEC, key);
	out = arena_alloc_raw(x->a, v->n + 1);
	if (!out) {
		x->v->oom = true;
		return;
	}
	/* a string is split at blanks (cargo's StringList); an array's
	 * strings are the program and its arguments */
	const char *p = eq + 1, *end = v->s + v->n;
	struct wv words[32];
	size_t nw = 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	bool array = p < end && *p == '[';
	while (p < end && nw < sizeof(words) / sizeof(*words)) {
		if (*p != '"' && *p != '\'') {
			p++;
			continue;
		}
		char q = *p++;
		size_t start = o;
		while (p < end && *p != q) {
			if (q == '"' && *p == '\\' && p + 1 < end)
				p++;
			out[o++] = *p++;
		}
		p++;
		words[nw++] = classify_lit(out + start, o - start);
		if (!array)
			break;
	}
	if (array && nw) {
		struct cinfo sub;
		memset(&sub, 0, sizeof(sub));
		classify_command(x, words, nw, NULL, &sub);
		return;
	}
	struct wv cmd = nw ? words[0] :
			     classify_lit(eq + 1, (size_t)(end - eq - 1));
	commands_payload_word(x, &cmd, CORDON_L(NESTED_SHELL),
			      "a program cargo configuration names");
}

bool families_is_rustflags_var(const char *name, size_t n)
{
	static const char *const vars[] = {
		"RUSTFLAGS",
		"RUSTDOCFLAGS",
		"CARGO_ENCODED_RUSTFLAGS",
		"CARGO_ENCODED_RUSTDOCFLAGS",
		"CARGO_BUILD_RUSTFLAGS",
		"CARGO_BUILD_RUSTDOCFLAGS",
	};
	/* CARGO_TARGET_<TRIPLE>_RUSTFLAGS */
	if (n > 23 && memcmp(name, "CARGO_TARGET_", 13) == 0 &&
	    memcmp(name + n - 10, "_RUSTFLAGS", 10) == 0)
		return true;
	for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++)
		if (strlen(vars[i]) == n && memcmp(vars[i], name, n) == 0)
			return true;
	return false;
}

void families_rustc_flags(struct cx *x, const struct wv *v)
{
	if (!classify_word_static(v))
		return;
	const char *p = v->s, *end = v->s + v->n;
	/* -C linker=P, -Clinker=P, --codegen linker=P, ["-C", "linker=P"]:
	 * the value runs to a blank, a quote, a comma or cargo's \x1f */
	while ((p = memmem(p, (size_t)(end - p), "linker=", 7)) != NULL) {
		bool word_start = p == v->s || strchr(" \t\"'C=\x1f[,", p[-1]);
		p += 7;
		if (!word_start)
			continue;
		const char *e = p;
		while (e < end && !strchr(" \t\"',]\x1f", *e))
			e++;
		if (e == p)
			continue;
		classify_rulef(x, RUSTC_LINKER, (int)(e - p), p);
		struct wv prog = classify_lit(p, (size_t)(e - p));
		struct cinfo sub;
		memset(&sub, 0, sizeof(sub));
		classify_command(x, &prog, 1, NULL, &sub);
		p = e;
	}
}

void families_cargo(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *val;
		size_t vn;
		struct wv v;
		if (commands_is_dashdash(w)) {
			/* cargo rustc … -- FLAGS: rustc's own flags */
			for (size_t k = i + 1; k < argc; k++)
				families_rustc_flags(x, &argv[k]);
			break;
		}
		if (classify_word_is(w, "--config") && i + 1 < argc) {
			v = argv[++i];
		} else if (commands_long_opt(w, "--config", &val, &vn) && val) {
			v = classify_lit(val, vn);
			v.f = w->f & (WV_DYNAMIC | WV_SUBST);
		} else {
			continue;
		}
		cargo_config(x, &v);
	}
}

/* ansible HOSTS -m shell|command|raw -a CMD runs CMD on every host. */
void families_ansible(struct cx *x, struct wv *argv, size_t argc,
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
		classify_rule(x, RULE_REMOTE_ANSIBLE);
		commands_payload_word(x, args, CORDON_L(REMOTE), "the command ansible runs");
	}
}

/* cd changes where later relative paths point. */
void families_cd(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	size_t i = 1;
	while (i < argc && commands_is_opt(&argv[i]) && !classify_word_is(&argv[i], "-"))
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
void families_foreign_shell(struct cx *x, struct wv *argv, size_t argc,
			    const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	ci->f |= CI_EXEC_ARGS;
	classify_rule(x, RULE_FOREIGN_SHELL);
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (memmem(w->s, w->n, "DownloadString", 14) ||
		    memmem(w->s, w->n, "Invoke-WebRequest", 17) ||
		    memmem(w->s, w->n, "iwr ", 4) || memmem(w->s, w->n, "DownloadFile", 12) ||
		    memmem(w->s, w->n, "Net.WebClient", 13))
			classify_rule(x, RULE_FOREIGN_SHELL_DOWNLOAD);
	}
	/* PowerShell's -Command text (or its operands, which it joins) is
	 * read by shape: a TCPClient and iex is a reverse shell,
	 * Remove-Item -Recurse ~ a delete judged by its path */
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	if (n < 4 || (strncasecmp(name, "pwsh", 4) != 0 &&
		      strncasecmp(name, "powershell", n < 10 ? n : 10) != 0))
		return;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (!classify_word_static(w))
			continue;
		if (w->n > 1 && w->s[0] == '-') {
			/* -File, -EncodedCommand: not text cordon reads */
			if (strncasecmp(w->s, "-f", 2) == 0 ||
			    strncasecmp(w->s, "-en", 3) == 0 ||
			    strncasecmp(w->s, "-ec", 3) == 0 ||
			    (w->n == 2 && (w->s[1] == 'e' || w->s[1] == 'E')))
				return;
			/* the values of -ExecutionPolicy, -WindowStyle … */
			if (strncasecmp(w->s, "-ex", 3) == 0 ||
			    strncasecmp(w->s, "-w", 2) == 0 ||
			    strncasecmp(w->s, "-v", 2) == 0 ||
			    strncasecmp(w->s, "-i", 2) == 0 ||
			    strncasecmp(w->s, "-o", 2) == 0 ||
			    strncasecmp(w->s, "-cu", 3) == 0 ||
			    strncasecmp(w->s, "-wo", 3) == 0)
				i++;
			continue;
		}
		classify_code(x, CODE_SHAPE_CI, w->s, w->n);
	}
}

void families_echo(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool pf = commands_name_is(name, n, "printf");

	(void)redirs;
	if (pf)
		for (size_t i = 1; i + 1 < argc; i++)
			if (classify_word_is(&argv[i], "-v"))
				subscript_injection(x, &argv[i + 1]);
	ci->text = classify_echo_text(x, argv, argc, pf, &ci->tlen);
	if (ci->text)
		ci->f |= CI_TEXT;
}

void families_decode(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);

	bool xxd = commands_name_is(name, n, "xxd");
	bool openssl = commands_name_is(name, n, "openssl");
	bool b64 = !xxd && !openssl;

	(void)x;
	(void)redirs;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (openssl && (classify_word_is(w, "s_client") || classify_word_is(w, "s_server")))
			ci->f |= CI_NETWORK | CI_NETSEND | CI_NETCAT;
		if (openssl && (classify_word_is(w, "base64") || classify_word_is(w, "-base64") || classify_word_is(w, "-a")))
			b64 = true;
		if (commands_cluster_has(w, 'd') || commands_cluster_has(w, 'D') ||
		    classify_word_is(w, "--decode") || (commands_cluster_has(w, 'r') && xxd))
			ci->f |= CI_DECODE;
	}
	if (commands_name_is(name, n, "uudecode"))
		ci->f |= CI_DECODE;
	if (ci->f & CI_DECODE)
		ci->xf = xxd ? XF_HEX : b64 ? XF_BASE64 : XF_NONE;
}

/* rev and tr SET1 SET2 rewrite text on its way to whatever reads it. */
void families_filter(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);

	(void)x;
	(void)redirs;
	if (commands_name_is(name, n, "rev")) {
		if (argc == 1) {
			ci->xf = XF_REV;
			ci->f |= CI_DECODE;
		}
		return;
	}
	if (argc == 3 && classify_word_static(&argv[1]) && classify_word_static(&argv[2]) &&
	    !commands_is_opt(&argv[1])) {
		ci->xf = XF_TR;
		ci->tr1 = argv[1].s;
		ci->tr1n = argv[1].n;
		ci->tr2 = argv[2].s;
		ci->tr2n = argv[2].n;
		ci->f |= CI_DECODE;
	}
}

void families_envdump(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool dump = false;

	(void)redirs;
	if (commands_name_is(name, n, "printenv")) {
		dump = true;
		for (size_t i = 1; i < argc; i++)
			if (!commands_is_opt(&argv[i])) {
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
	if (commands_name_is(name, n, "unset")) {
		for (size_t i = 1; i < argc; i++) {
			if (classify_word_is(&argv[i], "HISTFILE"))
				classify_rule(x, RULE_HISTORY_UNSET);
			/* unset 'a[$(cmd)]' evaluates the subscript */
			if (classify_word_static(&argv[i]))
				subscript_injection(x, &argv[i]);
		}
		return;
	}
	if (commands_name_is(name, n, "set")) {
		/* set -- a b c: the positional parameters become a b c */
		for (size_t i = 1; i < argc; i++)
			if (commands_is_dashdash(&argv[i])) {
				runners_bind_positional(x, argv, i, argc);
				break;
			}
		for (size_t i = 1; i + 1 < argc; i++)
			if (classify_word_is(&argv[i], "+o") && classify_word_is(&argv[i + 1], "history"))
				classify_rule(x, RULE_HISTORY_OFF);
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
		classify_rule(x, RULE_SECRETS_ENV_DUMP);
		ci->f |= CI_ENVDUMP;
	}
}

void families_history(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	if (argc == 1) {
		ci->f |= CI_HISTORY;
		return;
	}
	for (size_t i = 1; i < argc; i++)
		if (commands_cluster_has(&argv[i], 'c') || commands_cluster_has(&argv[i], 'd'))
			classify_rule(x, RULE_HISTORY_CLEAR);
}

void families_network(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	bool curl = commands_name_is(name, n, "curl");
	bool wget = commands_name_is(name, n, "wget");
	bool netcat = (commands_name_is(name, n, "nc")) ||
		      (commands_name_is(name, n, "ncat")) ||
		      (commands_name_is(name, n, "netcat"));
	bool socat = commands_name_is(name, n, "socat");
	/* save what they fetch under the URL's last name (aria2c, axel) or
	 * the name after -o (and --out / --output) */
	bool saver = commands_name_is(name, n, "aria2c") ||
		     commands_name_is(name, n, "axel") ||
		     commands_name_is(name, n, "wget2");
	bool httpie = commands_name_is(name, n, "http") ||
		      commands_name_is(name, n, "https") ||
		      commands_name_is(name, n, "xh") ||
		      commands_name_is(name, n, "xhs");
	bool dns = (commands_name_is(name, n, "ping")) ||
		   (commands_name_is(name, n, "ping6")) ||
		   (commands_name_is(name, n, "traceroute")) ||
		   (commands_name_is(name, n, "drill")) ||
		   (commands_name_is(name, n, "whois")) ||
		   (commands_name_is(name, n, "dig")) ||
		   (commands_name_is(name, n, "host")) ||
		   (commands_name_is(name, n, "nslookup"));
	bool copy = (commands_name_is(name, n, "scp")) ||
		    (commands_name_is(name, n, "rsync")) ||
		    (commands_name_is(name, n, "sftp"));

	(void)redirs;
	ci->f |= CI_NETWORK;
	/* zsh/net/tcp: ztcp HOST PORT opens a connection whose fd is $REPLY
	 * (-c closes, -l listens, -a accepts, -L lists) */
	if (commands_name_is(name, n, "ztcp") &&
	    !(argc > 1 && (classify_word_is(&argv[1], "-c") ||
			   classify_word_is(&argv[1], "-L"))))
		x->tcp_seen = true;
	if (netcat || socat || (commands_name_is(name, n, "telnet")))
		ci->f |= CI_NETCAT | CI_NETSEND;
	if (copy || dns)
		ci->f |= CI_NETSEND; /* a looked-up name is data sent out */
	bool secret = false, remote = false, exec = false, tcp = false;
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		const char *oval;
		size_t on;
		/* curl -O URL and wget URL save under the URL's last name */
		if ((curl || wget || saver) && !commands_is_opt(w) && classify_word_static(w) &&
		    (memmem(w->s, w->n, "://", 3) || wget || saver)) {
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
				commands_note_download(x, &t);
			}
		}
		bool out_next = (curl && (classify_word_is(w, "-o") || classify_word_is(w, "--output"))) ||
				(wget && (classify_word_is(w, "-O") || classify_word_is(w, "--output-document")));
		/* a cluster ending in the output option: curl -sLo FILE */
		if ((curl || wget) && commands_is_opt(w) && w->s[1] != '-' && w->n > 2 &&
		    w->s[w->n - 1] == (curl ? 'o' : 'O') &&
		    strspn(w->s + 1, curl ? "sSLfkvqo#" : "qcnNO") == w->n - 1)
			out_next = true;
		if ((saver || httpie) &&
		    (classify_word_is(w, "-o") || classify_word_is(w, "--out") ||
		     classify_word_is(w, "--output")))
			out_next = true;
		if ((saver || httpie) && (commands_long_opt(w, "--out", &oval, &on) ||
					  commands_long_opt(w, "--output", &oval, &on)) &&
		    oval) {
			struct wv t = classify_lit(oval, on);
			commands_download_to(x, &t);
		}
		if (out_next) {
			if (i + 1 < argc)
				commands_download_to(x, &argv[i + 1]);
		} else if (wget && commands_long_opt(w, "--output-document", &oval, &on) && oval) {
			struct wv t = classify_lit(oval, on);
			commands_download_to(x, &t);
		} else if ((curl || wget) && w->n > 2 && w->s[0] == '-' &&
			   w->s[1] == (curl ? 'o' : 'O') && classify_word_static(w) &&
			   w->s[w->n - 1] != (curl ? 'o' : 'O')) {
			struct wv t = classify_lit(w->s + 2, w->n - 2);
			commands_download_to(x, &t);
		} else if (wget && (classify_word_is(w, "-P") ||
				    classify_word_is(w, "--directory-prefix")) &&
			   i + 1 < argc) {
			filecmds_write_target(x, &argv[i + 1], false, "downloads into");
		} else if (wget && commands_long_opt(w, "--directory-prefix", &oval, &on) &&
			   oval) {
			struct wv t = classify_lit(oval, on);
			filecmds_write_target(x, &t, false, "downloads into");
		}
		if (curl && (classify_word_is(w, "-d") || classify_word_is(w, "--data") ||
			     classify_word_is(w, "--data-binary") || classify_word_is(w, "--data-raw") ||
			     classify_word_is(w, "--data-urlencode") || classify_word_is(w, "-F") ||
			     classify_word_is(w, "--form") || classify_word_is(w, "-T") ||
			     classify_word_is(w, "--upload-file") || classify_word_is(w, "--json"))) {
			ci->f |= CI_NETSEND;
			if (i + 1 < argc && filecmds_operand_secret(x, &argv[i + 1]))
				secret = true;
			i++;
			continue;
		}
		if (curl && w->n > 2 && w->s[0] == '-' && (w->s[1] == 'd' || w->s[1] == 'F' ||
							   w->s[1] == 'T')) {
			ci->f |= CI_NETSEND;
			struct wv t = classify_lit(w->s + 2, w->n - 2);
			if (filecmds_operand_secret(x, &t))
				secret = true;
			continue;
		}
		if (wget && (commands_long_opt(w, "--post-file", NULL, NULL) ||
			     commands_long_opt(w, "--body-file", NULL, NULL))) {
			ci->f |= CI_NETSEND;
			if (filecmds_operand_secret(x, w))
				secret = true;
			continue;
		}
		if (netcat && (commands_cluster_has(w, 'e') || commands_cluster_has(w, 'c') ||
			       classify_word_is(w, "--exec") || classify_word_is(w, "--sh-exec") ||
			       classify_word_is(w, "--lua-exec") ||
			       commands_long_opt(w, "--exec", NULL, NULL) ||
			       commands_long_opt(w, "--sh-exec", NULL, NULL)))
			exec = true;
		if (socat) {
			if (w->n > 5 && (strncasecmp(w->s, "exec:", 5) == 0 ||
					 strncasecmp(w->s, "system:", 7) == 0)) {
				/* EXEC:cmd and SYSTEM:cmd run cmd here (its
				 * socat options follow a ',') */
				size_t skip = w->s[0] == 'e' || w->s[0] == 'E' ? 5 : 7;
				struct wv t = *w;
				const char *comma = memchr(w->s + skip, ',', w->n - skip);
				t.s = w->s + skip;
				t.n = (comma ? (size_t)(comma - w->s) : w->n) - skip;
				t.dyn_at = t.dyn_at > skip ? t.dyn_at - skip : 0;
				if (t.n)
					commands_payload_word(x, &t, CORDON_L(NESTED_SHELL),
							      "the command socat runs");
				exec = true;
			}
			if (w->n > 4 && (strncasecmp(w->s, "tcp", 3) == 0 ||
					 strncasecmp(w->s, "udp", 3) == 0 ||
					 strncasecmp(w->s, "openssl", 7) == 0 ||
					 strncasecmp(w->s, "ssl", 3) == 0))
				tcp = true;
		}
		if (copy && !commands_is_opt(w)) {
			const char *colon = memchr(w->s, ':', w->n);
			const char *slash = memchr(w->s, '/', w->n);
			if (colon && (!slash || colon < slash))
				remote = true;
			else if (filecmds_operand_secret(x, w))
				secret = true;
		}
	}
	/* rsync --delete makes the destination match the source: what is
	 * not in the source is deleted there */
	if (commands_name_is(name, n, "rsync")) {
		bool del = false;
		const struct wv *dest = NULL;
		for (size_t i = 1; i < argc; i++) {
			if (commands_long_opt(&argv[i], "--delete", NULL, NULL) ||
			    commands_long_abbrev(&argv[i], "--delete-before", 8) ||
			    commands_long_abbrev(&argv[i], "--delete-after", 8) ||
			    commands_long_abbrev(&argv[i], "--delete-during", 8) ||
			    commands_long_abbrev(&argv[i], "--delete-excluded", 8))
				del = true;
			if (!commands_is_opt(&argv[i]))
				dest = &argv[i];
		}
		bool dry = false;
		for (size_t i = 1; i < argc; i++)
			if (commands_cluster_has(&argv[i], 'n') || classify_word_is(&argv[i], "--dry-run"))
				dry = true;
		if (del && !dry && dest && classify_word_static(dest) && !memchr(dest->s, ':', dest->n)) {
			const char *abs;
			enum path_class pc = classify_path(x, dest, &abs);
			if (pc == PATH_ROOT || pc == PATH_HOME_ROOT ||
			    (pc == PATH_SYSTEM && abs && commands_core_system(abs)))
				classify_rulef_plus(x, RSYNC_DELETE_SYSTEM,
						    commands_class_labels(pc),
						    abs);
		}
	}
	if (exec && (netcat || tcp))
		classify_rule(x, RULE_REVERSE_SHELL_EXEC);
	else if (exec)
		classify_rule(x, RULE_SOCAT_EXEC);
	if (secret && (!copy || remote))
		classify_rule(x, RULE_EXFIL_UPLOAD);
}

/* git config [--global|--local|--system|--file F] KEY VALUE: a key that
 * runs a command stores it to run on later git calls. */
static void git_config_set(struct cx *x, struct wv *argv, size_t argc)
{
	size_t i = 1;
	size_t ops[3], nops = 0;

	/* git's own options before "config" */
	while (i < argc && commands_is_opt(&argv[i])) {
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
		if (commands_is_opt(&argv[i]))
			continue;
		ops[nops++] = i;
	}
	if (nops < 2 || !classify_word_static(&argv[ops[0]]))
		return;
	char key[128];
	const struct wv *k = &argv[ops[0]];
	/* the one list of keys that execute (src/base/gitexec.h); a long
	 * key (a URL subsection) is judged whole, named cut short */
	enum gitexec_kind kind = gitexec_key(k->s, k->n);
	size_t kn = k->n < sizeof(key) ? k->n : sizeof(key) - 1;
	for (size_t j = 0; j < kn; j++)
		key[j] = (char)tolower((unsigned char)k->s[j]);
	key[kn] = '\0';
	struct wv val = argv[ops[1]];
	if (kind == GITEXEC_NONE)
		return;
	/* an alias runs a shell command only when it starts with '!' */
	if (kind == GITEXEC_BANG && !(val.n && val.s[0] == '!'))
		return;
	classify_rulef(x, GIT_CONFIG_EXEC_STORE, key);
	if (val.n && val.s[0] == '!') {
		val.s++;
		val.n--;
	}
	if (kind != GITEXEC_HOOKS)
		commands_payload_word(x, &val, CORDON_L(PERSISTENCE),
				      "a command stored in git config");
}

/* ---- git's discards ------------------------------------------------------
 *
 * The subcommands that overwrite the working tree are read with git's own
 * option grammar (parse-options, git-checkout(1), git-restore(1),
 * git-switch(1), git-read-tree(1), git-checkout-index(1)): short options
 * cluster and one that takes a value takes the rest of its word or the
 * next ("-bnew", "-Cfixup" name a branch; their letters are not options),
 * a long option may be abbreviated to a unique prefix and negated with
 * "--no-", "--" ends the options, and an option git does not know makes
 * it refuse the whole command (exit 129, nothing touched).
 *
 * A spec is a list of " S|LONG " tokens: S is the short letter or '-',
 * followed by '=' when it takes a value; LONG ends in '=' when it takes a
 * value and in '?' when the value is optional ("--track[=mode]"). */
#define GIT_MAX_OPTS 40

struct git_sub {
	const char *name;
	const char *spec;
};

static const struct git_sub git_subs[] = {
	{ "checkout",
	  " q|quiet f|force b=| B=| l| d|detach t|track? -|orphan= 2|ours "
	  "3|theirs m|merge -|conflict= p|patch -|progress -|guess "
	  "-|overlay -|ignore-skip-worktree-bits -|ignore-other-worktrees "
	  "-|overwrite-ignore -|recurse-submodules? -|pathspec-from-file= "
	  "-|pathspec-file-nul " },
	{ "checkout-index",
	  " u|index a|all f|force n|no-create q|quiet z| -|stdin -|temp "
	  "-|ignore-skip-worktree-bits -|prefix= -|stage= " },
	{ "read-tree",
	  " m| -|reset u| i| n|dry-run v| -|trivial -|aggressive -|prefix= "
	  "-|index-output= -|exclude-per-directory= -|no-sparse-checkout "
	  "-|empty q|quiet -|recurse-submodules? " },
	{ "restore",
	  " s=|source= p|patch W|worktree S|staged q|quiet -|progress 2|ours "
	  "3|theirs m|merge -|conflict= -|ignore-unmerged "
	  "-|ignore-skip-worktree-bits -|recurse-submodules? -|overlay "
	  "-|pathspec-from-file= -|pathspec-file-nul " },
	{ "switch",
	  " c=|create= C=|force-create= d|detach -|guess f|force "
	  "-|discard-changes m|merge -|conflict= q|quiet -|progress "
	  "t|track? -|orphan= -|ignore-other-worktrees -|recurse-submodules? "
	  "-|overlay " },
};

struct git_opts {
	const struct git_sub *sub;
	bool seen[GIT_MAX_OPTS]; /* by token index in the spec */
	bool unknown;            /* an option git refuses */
	bool help;               /* -h or --help: prints usage only */
	bool dynamic;            /* a word known only at run time */
	size_t dashdash;         /* index of "--", or argc */
	size_t ops[8];           /* operands before "--" */
	size_t nops;
	size_t after;            /* operands after "--" */
	bool after_pathlike;     /* … one of them a directory or a glob */
};

static bool git_pathlike(const struct wv *w);

/* The token of spec for short letter c or long name (s, n), its index in
 * *idx; a unique prefix of a long name is that name. */
static const char *git_tok(const char *spec, char c, const char *s, size_t n,
			   size_t *idx, bool *ambiguous)
{
	const char *hit = NULL;
	size_t k = 0;

	*ambiguous = false;
	for (const char *t = spec; *t; k++) {
		while (*t == ' ')
			t++;
		if (!*t)
			break;
		size_t tn = strcspn(t, " ");
		const char *bar = memchr(t, '|', tn);
		if (c && t[0] == c && t[0] != '-') {
			*idx = k;
			return t;
		}
		if (!c && bar) {
			const char *l = bar + 1;
			size_t ln = tn - (size_t)(l - t);
			if (ln && (l[ln - 1] == '=' || l[ln - 1] == '?'))
				ln--;
			if (ln == n && memcmp(l, s, n) == 0) {
				*idx = k;
				*ambiguous = false;
				return t;
			}
			if (n && n < ln && memcmp(l, s, n) == 0) {
				if (hit)
					*ambiguous = true;
				hit = t;
				*idx = k;
			}
		}
		t += tn;
	}
	return *ambiguous ? NULL : hit;
}

/* Reads the options and operands of a git subcommand from argv[from]. */
static void git_read_opts(const struct git_sub *sub, struct wv *argv,
			  size_t from, size_t argc, struct git_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sub = sub;
	o->dashdash = argc;
	for (size_t i = from; i < argc; i++) {
		const struct wv *w = &argv[i];
		size_t idx = 0;
		bool amb;

		if (!classify_word_static(w)) {
			o->dynamic = true;
			continue;
		}
		if (o->dashdash < argc) {
			if (git_pathlike(w))
				o->after_pathlike = true;
			o->after++;
			continue;
		}
		if (classify_word_is(w, "--")) {
			o->dashdash = i;
			continue;
		}
		if (w->n < 2 || w->s[0] != '-') {
			if (o->nops < sizeof(o->ops) / sizeof(*o->ops))
				o->ops[o->nops++] = i;
			continue;
		}
		if (w->s[1] == '-') {
			const char *name = w->s + 2;
			const char *eq = memchr(name, '=', w->n - 2);
			size_t nn = eq ? (size_t)(eq - name) : w->n - 2;
			bool neg = false;
			if (nn == 4 && memcmp(name, "help", 4) == 0) {
				o->help = true;
				continue;
			}
			const char *t = git_tok(sub->spec, 0, name, nn, &idx, &amb);
			if (!t && nn > 3 && memcmp(name, "no-", 3) == 0) {
				t = git_tok(sub->spec, 0, name + 3, nn - 3, &idx, &amb);
				neg = t != NULL;
			}
			if (!t || idx >= GIT_MAX_OPTS) {
				o->unknown = true;
				continue;
			}
			o->seen[idx] = !neg;
			size_t tn = strcspn(t, " ");
			if (!neg && !eq && t[tn - 1] == '=')
				i++; /* the value is the next word */
			continue;
		}
		for (size_t k = 1; k < w->n; k++) {
			if (w->s[k] == 'h' && w->n == 2) {
				o->help = true;
				break;
			}
			const char *t = git_tok(sub->spec, w->s[k], NULL, 0, &idx, &amb);
			if (!t || idx >= GIT_MAX_OPTS) {
				o->unknown = true;
				break;
			}
			o->seen[idx] = true;
			if (t[1] == '=') {
				if (k + 1 == w->n)
					i++; /* -b NAME */
				break;   /* -bNAME: the rest is the value */
			}
		}
	}
}

/* Was the option with this long name (or short letter) given? */
static bool git_has(const struct git_opts *o, char c, const char *lng)
{
	size_t idx;
	bool amb;
	const char *t = c ? git_tok(o->sub->spec, c, NULL, 0, &idx, &amb)
			  : git_tok(o->sub->spec, 0, lng, strlen(lng), &idx, &amb);
	return t && idx < GIT_MAX_OPTS && o->seen[idx];
}

/* An operand that can only be a path: ".", "..", "./x", "../x", "/x",
 * ":/x", ":(top)x", or a glob. A bare word may be a branch, so it is
 * not one (git decides by what exists). */
static bool git_pathlike(const struct wv *w)
{
	if (!w->n)
		return false;
	if (w->s[0] == '/' || w->s[0] == ':' || (w->f & WV_TILDE))
		return true;
	if (w->s[0] == '.' && (w->n == 1 || w->s[1] == '/' ||
			       (w->s[1] == '.' && (w->n == 2 || w->s[2] == '/'))))
		return true;
	return memchr(w->s, '*', w->n) || memchr(w->s, '?', w->n) ||
	       memchr(w->s, '[', w->n);
}

/* git checkout/restore/switch/read-tree/checkout-index: does it overwrite
 * the working tree? Options git refuses, help and the new-branch forms
 * (checkout -b, switch -c/-C) do not. */
static void git_discards(struct cx *x, struct wv *argv, size_t argc)
{
	static const char *const gval = " -C -c --git-dir --work-tree "
					 "--namespace --super-prefix "
					 "--config-env --exec-path ";
	size_t i = 1;
	struct git_opts o;

	/* git's own options (git(1)) */
	while (i < argc && classify_word_static(&argv[i]) && argv[i].n > 1 &&
	       argv[i].s[0] == '-') {
		const struct wv *w = &argv[i];
		bool takes = false;
		for (const char *p = gval; *p && !takes; p++) {
			if (*p == ' ')
				continue;
			size_t pn = strcspn(p, " ");
			if (pn == w->n && memcmp(p, w->s, pn) == 0)
				takes = p[1] == '-' ? strncmp(p, "--exec-path", pn) != 0 : true;
			p += pn - 1;
		}
		i += takes ? 2 : 1;
	}
	if (i >= argc || !classify_word_static(&argv[i]))
		return;
	const struct git_sub *sub = NULL;
	for (size_t k = 0; k < sizeof(git_subs) / sizeof(*git_subs); k++)
		if (classify_word_is(&argv[i], git_subs[k].name))
			sub = &git_subs[k];
	if (!sub)
		return;
	git_read_opts(sub, argv, i + 1, argc, &o);
	if (o.help || (o.unknown && !o.dynamic))
		return;
	bool paths_file = git_has(&o, 0, "pathspec-from-file");
	if (sub == &git_subs[0]) { /* checkout */
		bool newb = git_has(&o, 'b', NULL) || git_has(&o, 'B', NULL) ||
			    git_has(&o, 0, "orphan");
		if (git_has(&o, 'f', NULL))
			classify_rule(x, RULE_GIT_CHECKOUT_FORCE);
		if (newb)
			return; /* the operand is the start point */
		if (o.after_pathlike)
			classify_rule(x, RULE_GIT_CHECKOUT_PATHS);
		else if (o.after || paths_file)
			classify_rule(x, RULE_GIT_CHECKOUT_PATHSPEC);
		else if (o.nops >= 2 || (o.nops == 1 && git_pathlike(&argv[o.ops[0]])))
			classify_rule(x, RULE_GIT_CHECKOUT_PATHS);
	} else if (sub == &git_subs[1]) { /* checkout-index */
		if (git_has(&o, 'f', NULL) &&
		    (git_has(&o, 'a', NULL) || o.nops || o.after ||
		     git_has(&o, 0, "stdin")) && !git_has(&o, 0, "temp") &&
		    !git_has(&o, 0, "prefix"))
			classify_rule(x, RULE_GIT_CHECKOUT_INDEX_FORCE);
	} else if (sub == &git_subs[2]) { /* read-tree */
		if (git_has(&o, 'u', NULL) && !git_has(&o, 'n', NULL) &&
		    (git_has(&o, 'm', NULL) || git_has(&o, 0, "reset")))
			classify_rule(x, RULE_GIT_READ_TREE_UPDATE);
	} else if (sub == &git_subs[3]) { /* restore */
		bool staged = git_has(&o, 'S', NULL), wt = git_has(&o, 'W', NULL);
		if (!(o.nops || o.after || paths_file))
			return; /* git refuses: "you must specify path(s)" */
		if (staged && wt)
			classify_rule(x, RULE_GIT_RESTORE_WORKTREE);
		else if (!staged)
			classify_rule(x, RULE_GIT_RESTORE);
	} else { /* switch */
		if (git_has(&o, 'f', NULL) || git_has(&o, 0, "discard-changes"))
			classify_rule(x, RULE_GIT_SWITCH_FORCE);
	}
}

/* A git config KEY=VALUE given for one command (git -c, GIT_CONFIG_
 * PARAMETERS): a key that runs a command has its value judged. */
static void git_config_kv(struct cx *x, const char *ks, size_t kl,
			  struct wv val)
{
	char key[128];
	/* the one list of keys that execute (src/base/gitexec.h); a long
	 * key (a URL subsection) is judged whole, named cut short */
	enum gitexec_kind kind = gitexec_key(ks, kl);
	size_t kn = kl < sizeof(key) ? kl : sizeof(key) - 1;

	for (size_t k = 0; k < kn; k++)
		key[k] = (char)tolower((unsigned char)ks[k]);
	key[kn] = '\0';

	if (kind == GITEXEC_NONE)
		return;
	if (kind == GITEXEC_BANG && !(val.n && val.s[0] == '!'))
		return;
	classify_rulef(x, GIT_CONFIG_EXEC, key);
	if (kind == GITEXEC_BANG) {
		val.s++;
		val.n--;
		commands_payload_word(x, &val, CORDON_L(NESTED_SHELL),
				      strncmp(key, "alias.", 6) == 0 ?
					      "a git alias" :
					      "a command git runs");
	} else if (kind == GITEXEC_HOOKS) {
		classify_rule(x, RULE_GIT_HOOKSPATH);
	} else {
		if (val.n && val.s[0] == '!') {
			val.s++;
			val.n--;
		}
		commands_payload_word(x, &val, CORDON_L(NESTED_SHELL),
				      "a command git runs");
	}
}

/* GIT_CONFIG_PARAMETERS holds what git -c passes to the git it runs:
 * 'key'='value' (or the older 'key=value'), space-separated, each part
 * single-quoted with '\'' for a quote (git's sq_quote). Each pair is read
 * as git -c reads it; a value that is not text known here, or text git
 * would not parse, is a configuration cordon cannot see. */
void families_git_config_params(struct cx *x, const struct wv *v)
{
	const char *s = v->s, *end = v->s + v->n;
	char *buf;

	if (!classify_word_static(v)) {
		classify_rule(x, RULE_GIT_CONFIG_ENV);
		return;
	}
	buf = arena_alloc_raw(x->a, v->n + 1);
	if (!buf) {
		x->v->oom = true;
		return;
	}
	while (s < end) {
		size_t o = 0, eq = SIZE_MAX;
		while (s < end && *s == ' ')
			s++;
		if (s == end)
			break;
		/* one pair: quoted parts, '=' between key and value */
		while (s < end && *s != ' ') {
			if (*s == '=' && eq == SIZE_MAX) {
				eq = o;
				buf[o++] = *s++;
				continue;
			}
			if (*s == '\\' && s + 1 < end) {
				buf[o++] = s[1];
				s += 2;
				continue;
			}
			if (*s != '\'') {
				classify_rule(x, RULE_GIT_CONFIG_ENV);
				return;
			}
			const char *q =
				memchr(s + 1, '\'', (size_t)(end - s - 1));
			if (!q) {
				classify_rule(x, RULE_GIT_CONFIG_ENV);
				return;
			}
			for (const char *p = s + 1; p < q; p++) {
				if (*p == '=' && eq == SIZE_MAX)
					eq = o;
				buf[o++] = *p;
			}
			s = q + 1;
		}
		if (eq == SIZE_MAX)
			continue; /* a key alone is a boolean true */
		git_config_kv(x, buf, eq,
			      classify_lit(buf + eq + 1, o - eq - 1));
		buf += o;
	}
}

void families_git(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	/* git credential fill (and the helpers' own get) print a stored
	 * password: what reads it next holds a secret */
	for (size_t i = 1; i + 1 < argc; i++) {
		if (commands_is_opt(&argv[i]))
			continue;
		if ((classify_word_is(&argv[i], "credential") &&
		     (classify_word_is(&argv[i + 1], "fill") ||
		      classify_word_is(&argv[i + 1], "get"))) ||
		    ((classify_word_is(&argv[i], "credential-store") ||
		      classify_word_is(&argv[i], "credential-cache")) &&
		     classify_word_is(&argv[i + 1], "get"))) {
			classify_rule(x, RULE_SECRETS_GIT_CREDENTIAL);
			ci->f |= CI_SECRETS;
		}
		break;
	}
	git_config_set(x, argv, argc);
	git_discards(x, argv, argc);
	/* git submodule foreach CMD…, git bisect run CMD… */
	for (size_t i = 1; i + 2 < argc; i++) {
		if (classify_word_is(&argv[i], "submodule") && classify_word_is(&argv[i + 1], "foreach")) {
			size_t k = i + 2;
			while (k < argc && commands_is_opt(&argv[k]))
				k++;
			if (k < argc) {
				size_t jn;
				bool dyn;
				const char *j = commands_join(x, argv, k, argc, &jn, &dyn);
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
		if (commands_long_opt(&argv[i], "--output", &val, &vn)) {
			if (val) {
				struct wv t = argv[i];
				t.s = val;
				t.n = vn;
				t.dyn_at = t.dyn_at > (size_t)(val - argv[i].s)
						   ? t.dyn_at - (size_t)(val - argv[i].s)
						   : 0;
				filecmds_write_target(x, &t, true, "git writes its output to");
			} else if (i + 1 < argc) {
				filecmds_write_target(x, &argv[i + 1], true,
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
		} else if (commands_long_opt(w, "--config-env", NULL, NULL)) {
			/* the value comes from an environment variable cordon
			 * cannot see */
			classify_rule(x, RULE_GIT_CONFIG_ENV);
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
				classify_rule(x, RULE_GIT_EXT);
				classify_command(x, ea, na, NULL, &sub);
			}
			continue;
		} else if (commands_long_opt(w, "--upload-pack", NULL, NULL) ||
			   commands_long_opt(w, "--receive-pack", NULL, NULL) ||
			   commands_long_opt(w, "--exec", NULL, NULL)) {
			const char *eq = memchr(w->s, '=', w->n);
			if (eq) {
				struct wv c = classify_lit(eq + 1, w->n - (size_t)(eq + 1 - w->s));
				commands_payload_word(x, &c, CORDON_L(NESTED_SHELL),
					     "a command git runs");
			}
			continue;
		}
		if (!kv)
			continue;
		const char *eq = memchr(kv->s, '=', kv->n);
		if (!eq)
			continue;
		struct wv val =
			classify_lit(eq + 1, kv->n - (size_t)(eq + 1 - kv->s));
		val.f = kv->f & (WV_DYNAMIC | WV_SUBST);
		git_config_kv(x, kv->s, (size_t)(eq - kv->s), val);
	}
}

void families_rg(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)redirs;
	(void)ci;
	for (size_t i = 1; i < argc; i++) {
		const char *val;
		size_t vn;
		if (classify_word_is(&argv[i], "--pre") && i + 1 < argc) {
			classify_rule(x, RULE_RG_PRE);
			commands_payload_word(x, &argv[i + 1], CORDON_L(NESTED_SHELL),
				     "the preprocessor rg runs");
			i++;
		} else if (commands_long_opt(&argv[i], "--pre", &val, &vn) && val) {
			classify_rule(x, RULE_RG_PRE);
			struct wv t = classify_lit(val, vn);
			t.f = argv[i].f & (WV_DYNAMIC | WV_SUBST);
			commands_payload_word(x, &t, CORDON_L(NESTED_SHELL),
				     "the preprocessor rg runs");
		}
	}
}

void families_fifo(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	(void)x;
	(void)redirs;
	if (commands_name_is(name, n, "mkfifo"))
		ci->f |= CI_FIFO;
	for (size_t i = 1; i < argc; i++)
		if (classify_word_is(&argv[i], "p"))
			ci->f |= CI_FIFO;
}

/* The subcommands of cloud and forge CLIs that send local files out, as
 * "tool: verb verb …" where a verb may be two words joined by '.'
 * ("s3.cp" is `aws s3 cp`). What they send is judged as any network send:
 * a credential among their operands is exfiltration (secrets_out). */
static const struct {
	const char *tool;
	const char *verbs;
} uploads[] = {
	{ "aws", " s3.cp s3.mv s3.sync s3api.put-object s3api.upload-part " },
	{ "az", " storage.blob storage.file storage.copy " },
	{ "gcloud", " storage.cp storage.mv storage.rsync compute.scp " },
	{ "gh", " gist.create gist.edit release.upload release.create "
		" issue.create issue.comment pr.create pr.comment secret.set " },
	{ "gsutil", " cp mv rsync " },
	{ "rclone", " copy copyto move moveto sync bisync rcat mount serve " },
	{ "s3cmd", " put sync cp mv " },
};

static bool upload_at(const char *verbs, const struct wv *argv,
		      const size_t *ops, size_t nops);

void families_upload(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t n, ops[4], nops = 0;
	const char *name = classify_cmd_base(&argv[0], &n);

	/* gcloud compute ssh --command CMD */
	runners_remote_opts(x, argv, argc, redirs, ci);
	size_t t = 0;
	while (t < sizeof(uploads) / sizeof(*uploads) &&
	       !commands_name_is(name, n, uploads[t].tool))
		t++;
	if (t == sizeof(uploads) / sizeof(*uploads))
		return;
	for (size_t i = 1; i < argc && nops < 4; i++) {
		if (!classify_word_static(&argv[i]))
			break;
		if (!commands_is_opt(&argv[i]))
			ops[nops++] = i;
	}
	/* the verb is one of the first three operands: global options'
	 * values (aws --profile x s3 cp) come before it */
	for (size_t k = 0; k < 3 && k < nops; k++)
		if (upload_at(uploads[t].verbs, argv, ops + k, nops - k)) {
			ci->f |= CI_NETWORK | CI_NETSEND;
			return;
		}
}

/* Is the verb list's entry one of ops[0] (and ops[1] for "a.b")? */
static bool upload_at(const char *verbs, const struct wv *argv,
		      const size_t *ops, size_t nops)
{
	const struct wv *a = nops > 0 ? &argv[ops[0]] : NULL;
	const struct wv *b = nops > 1 ? &argv[ops[1]] : NULL;

	for (const char *v = verbs; a && *v; v++) {
		if (*v == ' ')
			continue;
		size_t vn = strcspn(v, " ");
		const char *dot = memchr(v, '.', vn);
		size_t an = dot ? (size_t)(dot - v) : vn;
		bool hit = a->n == an && memcmp(a->s, v, an) == 0;
		if (hit && dot)
			hit = b && b->n == vn - an - 1 &&
			      memcmp(b->s, dot + 1, b->n) == 0;
		if (hit)
			return true;
		v += vn - 1;
	}
	return false;
}

void families_identity(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)x;
	(void)argv;
	(void)argc;
	(void)redirs;
	ci->f |= CI_IDENTITY;
}

void families_cat(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci)
{
	(void)argv;
	/* cat <<EOF … EOF | sh: the here-doc is the text */
	if (argc == 1)
		commands_feed_stdin(x, redirs, ci);
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (classify_word_static(w) && w->n > 14 && memcmp(w->s, "/proc/", 6) == 0 &&
		    memmem(w->s, w->n, "/environ", 8)) {
			classify_rule(x, RULE_SECRETS_ENVIRON);
			ci->f |= CI_ENVDUMP;
		}
		const char *abs = NULL;
		if (classify_word_static(w) && !commands_is_opt(w))
			classify_path(x, w, &abs);
		if (abs && (strcmp(abs, "/etc/passwd") == 0 ||
			    strcmp(abs, "/etc/shadow") == 0 ||
			    strcmp(abs, "/etc/gshadow") == 0)) {
			classify_rule(x, RULE_SECRETS_ACCOUNTS);
			ci->f |= CI_SECRETS;
		}
	}
}
