/* codeshape.c — reading code by its shape, for the languages cordon has no
 * grammar for (Tcl, R, Julia, Groovy, jrunscript, PowerShell, Crystal, Go,
 * V, Rust written to a file and run), and two passes every language gets:
 * SQL in string literals, and deletes of the home directory spelled as an
 * expression (homedir(), Dir.home, $ENV{HOME}).
 *
 * The text is cut into words (identifiers, with '-' inside as PowerShell
 * and Tcl spell them), string literals ('…', "…", `…`) and bare paths (a
 * word starting with '/' or '~'). What a word means comes from the rows
 * below, by name, whatever the language:
 *
 *  - a word that makes or accepts a network connection (socket, TCPClient,
 *    socketConnection, connect, listen, Dial …), together with a word that
 *    runs a command or a shell (exec, system, ProcessBuilder, iex, a
 *    backtick command literal …), is a reverse or bind shell: the shape,
 *    not the spelling;
 *  - a run word followed by a literal (system("rm -rf ~"), exec rm -rf ~ in
 *    Tcl, `rm -rf ~` in Julia, "cmd".execute() in Groovy) hands the literal
 *    back as a shell command line;
 *  - a delete word (unlink, rm, file delete, Remove-Item, deleteDir,
 *    rmtree, RemoveAll …) followed by a path literal or a home expression
 *    hands back "rm [-rf] PATH", with -rf when the call says recursive or
 *    force, so the path is judged like any other; one whose path cannot be
 *    read is CODE_F_DELETE.
 *
 * Linear, no allocation: a handed-back line is built in a stack buffer and
 * one that does not fit is not handed back (CODE_F_UNREADABLE instead).
 */
#include "codeshape.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "codescan.h"
#include "banned.h"

#define SHAPE_LINE 2048 /* the longest command line handed back */

enum word_kind {
	W_NONE,
	W_CONNECT, /* makes or accepts a network connection */
	W_RUN,     /* runs a command line or a program */
	W_DELETE,  /* deletes a path */
	W_DELETE_R, /* deletes a tree */
	W_HOME,    /* names the home directory */
	W_RECURSE, /* says recursive or force inside a delete call */
};

/* clang-format off */
static const struct {
	const char *w;
	enum word_kind k;
} words[] = {
	/* connections, in the languages' own names */
	{ "socket", W_CONNECT }, { "Socket", W_CONNECT },
	{ "TCPSocket", W_CONNECT }, { "TCPServer", W_CONNECT },
	{ "TcpStream", W_CONNECT }, { "TcpListener", W_CONNECT },
	{ "TCPClient", W_CONNECT }, { "TcpClient", W_CONNECT },
	{ "TCPListener", W_CONNECT }, { "ServerSocket", W_CONNECT },
	{ "socketConnection", W_CONNECT }, { "socketAccept", W_CONNECT },
	{ "make_socket", W_CONNECT }, { "connect", W_CONNECT },
	{ "connectTls", W_CONNECT }, { "listen", W_CONNECT },
	{ "accept", W_CONNECT }, { "Dial", W_CONNECT },
	{ "DialTCP", W_CONNECT }, { "Listen", W_CONNECT },
	{ "ListenTCP", W_CONNECT }, { "createServer", W_CONNECT },
	{ "createConnection", W_CONNECT }, { "fsockopen", W_CONNECT },
	{ "ztcp", W_CONNECT }, { "AcceptTcpClient", W_CONNECT },
	{ "dial_tcp", W_CONNECT }, { "listen_tcp", W_CONNECT },
	{ "DialTimeout", W_CONNECT }, { "tcp_connect", W_CONNECT },
	/* running commands */
	{ "exec", W_RUN }, { "system", W_RUN }, { "system2", W_RUN },
	{ "shell", W_RUN }, { "popen", W_RUN }, { "pipe", W_RUN },
	{ "ProcessBuilder", W_RUN }, { "getRuntime", W_RUN },
	{ "execute", W_RUN }, { "spawn", W_RUN }, { "Command", W_RUN },
	{ "run", W_RUN }, { "iex", W_RUN }, { "Invoke-Expression", W_RUN },
	{ "Start-Process", W_RUN }, { "Invoke-Command", W_RUN },
	{ "Invoke-Item", W_RUN }, { "shell_exec", W_RUN },
	/* Vim script and Emacs Lisp, as editors' batch commands run them */
	{ "systemlist", W_RUN }, { "jobstart", W_RUN }, { "exe", W_RUN },
	{ "termopen", W_RUN }, { "job_start", W_RUN },
	{ "term_start", W_RUN }, { "shell-command", W_RUN },
	{ "shell-command-to-string", W_RUN },
	{ "async-shell-command", W_RUN },
	{ "call-process-shell-command", W_RUN },
	{ "start-process-shell-command", W_RUN },
	{ "call-process", W_RUN }, { "process-lines", W_RUN },
	/* deleting */
	{ "unlink", W_DELETE }, { "rm", W_DELETE }, { "remove", W_DELETE },
	{ "delete", W_DELETE }, { "rmdir", W_DELETE }, { "Delete", W_DELETE },
	{ "file.remove", W_DELETE }, { "Remove", W_DELETE },
	{ "Remove-Item", W_DELETE }, { "rmSync", W_DELETE },
	{ "removeSync", W_DELETE }, { "unlinkSync", W_DELETE },
	{ "deleteDir", W_DELETE_R }, { "deleteRecursively", W_DELETE_R },
	{ "rmtree", W_DELETE_R }, { "rm_rf", W_DELETE_R },
	{ "rm_r", W_DELETE_R }, { "remove_tree", W_DELETE_R },
	{ "RemoveAll", W_DELETE_R }, { "remove_dir_all", W_DELETE_R },
	{ "rimraf", W_DELETE_R }, { "emptyDirSync", W_DELETE_R },
	{ "remove_dir", W_DELETE_R }, { "remove_entry", W_DELETE_R },
	{ "remove_entry_secure", W_DELETE_R }, { "rmdirSync", W_DELETE_R },
	{ "delete-file", W_DELETE }, { "delete-directory", W_DELETE_R },
	/* the home directory, as an expression */
	{ "homedir", W_HOME }, { "home", W_HOME }, { "HOME", W_HOME },
	{ "USERPROFILE", W_HOME }, { "user.home", W_HOME },
	{ "homeDir", W_HOME }, { "UserHomeDir", W_HOME },
	{ "home_dir", W_HOME }, { "expanduser", W_HOME },
	/* inside a delete call */
	{ "recursive", W_RECURSE }, { "Recurse", W_RECURSE },
	{ "recurse", W_RECURSE }, { "force", W_RECURSE },
	{ "Force", W_RECURSE }, { "TRUE", W_RECURSE },
};
/* clang-format on */

/* PowerShell's cmdlets and parameters are case-insensitive. */
static enum word_kind kind_of(const char *s, size_t n, bool ci)
{
	if (n > 1 && s[0] == '$') { /* $HOME, $Recurse */
		s++;
		n--;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		const char *w = words[i].w;
		if (strlen(w) != n)
			continue;
		if (ci ? strncasecmp(w, s, n) == 0 : memcmp(w, s, n) == 0)
			return words[i].k;
	}
	return W_NONE;
}

enum tok_kind { T_END, T_WORD, T_STR, T_CMD, T_PATH, T_OPT, T_PUNCT };

struct tok {
	enum tok_kind k;
	const char *s; /* the body: a literal without its quotes */
	size_t n;
	char c; /* T_PUNCT: the character */
};

struct lex {
	const char *s;
	size_t n, i;
};

static bool is_word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next token; newlines and ';' are T_PUNCT (they end a Tcl or
 * PowerShell command). */
static void next(struct lex *lx, struct tok *t)
{
	while (lx->i < lx->n && is_space((unsigned char)lx->s[lx->i]))
		lx->i++;
	t->s = lx->s + lx->i;
	t->n = 0;
	if (lx->i >= lx->n) {
		t->k = T_END;
		return;
	}
	unsigned char c = (unsigned char)lx->s[lx->i];
	if (c == '"' || c == '\'' || c == '`') {
		size_t j = lx->i + 1;
		while (j < lx->n && (unsigned char)lx->s[j] != c) {
			if (lx->s[j] == '\\' && c != '`')
				j++;
			j++;
		}
		t->k = c == '`' ? T_CMD : T_STR;
		t->s = lx->s + lx->i + 1;
		t->n = (j < lx->n ? j : lx->n) - lx->i - 1;
		lx->i = j < lx->n ? j + 1 : lx->n;
		return;
	}
	/* an option starts a word (-force, -Recurse); s<-f(x) is R's arrow */
	bool word_start = lx->i == 0 || is_space((unsigned char)lx->s[lx->i - 1]);
	bool dot_path = c == '.' && lx->i + 1 < lx->n &&
			(lx->s[lx->i + 1] == '/' ||
			 (lx->s[lx->i + 1] == '.' && lx->i + 2 < lx->n &&
			  lx->s[lx->i + 2] == '/'));
	if (c == '~' || c == '/' || dot_path ||
	    (c == '-' && word_start && lx->i + 1 < lx->n &&
	     (is_word_char((unsigned char)lx->s[lx->i + 1]) ||
	      lx->s[lx->i + 1] == '-'))) {
		size_t j = lx->i;
		while (j < lx->n && !is_space((unsigned char)lx->s[j]) &&
		       !strchr(";,()[]{}\"'\n", lx->s[j]))
			j++;
		t->k = c == '-' ? T_OPT : T_PATH;
		t->n = j - lx->i;
		lx->i = j;
		return;
	}
	if (is_word_char(c) || c == '$') {
		size_t j = lx->i + 1;
		/* Remove-Item, user.home, file.remove: one word */
		while (j < lx->n &&
		       (is_word_char((unsigned char)lx->s[j]) ||
			((lx->s[j] == '-' || lx->s[j] == '.') && j + 1 < lx->n &&
			 is_word_char((unsigned char)lx->s[j + 1]) &&
			 (lx->s[j] == '-' || j - lx->i < 5))))
			j++;
		t->k = T_WORD;
		/* build/out.o: a relative path, not a word */
		if (j < lx->n && lx->s[j] == '/') {
			while (j < lx->n && !is_space((unsigned char)lx->s[j]) &&
			       !strchr(";,()[]{}\"'\n", lx->s[j]))
				j++;
			t->k = T_PATH;
		}
		t->n = j - lx->i;
		lx->i = j;
		return;
	}
	t->k = T_PUNCT;
	t->c = (char)c;
	t->n = 1;
	lx->i++;
}

/* The last part of a dotted word: os.homedir -> homedir. */
static void last_part(const char **s, size_t *n)
{
	for (size_t i = *n; i > 0; i--)
		if ((*s)[i - 1] == '.' && i < *n) {
			/* keep user.home and file.remove whole */
			if ((*n == 9 && memcmp(*s, "user.home", 9) == 0) ||
			    (*n == 11 && memcmp(*s, "file.remove", 11) == 0))
				return;
			*n -= i;
			*s += i;
			return;
		}
}

struct shape {
	void (*shell)(void *ud, const char *cmd, size_t n);
	void (*sql)(void *ud, const char *text, size_t n);
	void *ud;
	unsigned flags;
	bool connect, run, shellname, cmdlit;
	bool recent_home; /* a home expression earlier in this statement */
};

/* Hands a command line back (text is the line, as written). */
static void hand_back(struct shape *sh, const char *s, size_t n)
{
	if (sh->shell && n)
		sh->shell(sh->ud, s, n);
	sh->flags |= CODE_F_EXEC;
}

/* "rm [-rf] PATH": a home expression is ~, a literal is quoted (a
 * leading ~/ stays outside the quotes so that it expands). */
static void hand_back_rm(struct shape *sh, bool rf, const char *p, size_t pn,
			 bool home)
{
	char line[SHAPE_LINE];
	size_t o = 0;
	const char *head = rf ? "rm -rf " : "rm ";
	size_t hn = strlen(head);

	memcpy(line, head, hn);
	o = hn;
	if (home) {
		line[o++] = '~';
	} else {
		if (pn && p[0] == '~' && (pn == 1 || p[1] == '/')) {
			line[o++] = '~';
			p++;
			pn--;
		}
		if (pn + 3 + o > sizeof(line) || memchr(p, '\'', pn)) {
			sh->flags |= CODE_F_DELETE;
			return;
		}
		line[o++] = '\'';
		memcpy(line + o, p, pn);
		o += pn;
		line[o++] = '\'';
	}
	if (sh->shell)
		sh->shell(sh->ud, line, o);
}

static bool is_shell_name(const char *s, size_t n)
{
	static const char *const shells[] = {
		"sh", "bash", "/bin/sh", "/bin/bash", "zsh", "/bin/zsh",
		"cmd.exe", "cmd", "powershell", "pwsh", "/bin/dash", "dash",
		"sh -i", "bash -i", "/bin/sh -i", "/bin/bash -i",
	};
	for (size_t i = 0; i < sizeof(shells) / sizeof(*shells); i++)
		if (strlen(shells[i]) == n && memcmp(shells[i], s, n) == 0)
			return true;
	return false;
}

/* A literal that is SQL: it starts with a statement's first two words
 * ("DROP TABLE", "DELETE FROM"), so a sentence that starts with "drop"
 * is not one. A '?' slot (UPDATE t SET … WHERE id=?) is still SQL. */
static bool looks_sql(const char *s, size_t n)
{
	static const char *const kw[] = {
		"drop table ",	     "drop database ", "drop schema ",
		"drop index ",	     "drop view ",     "drop user ",
		"drop role ",	     "drop collection ", "drop function ",
		"drop procedure ",   "drop trigger ",  "drop if ",
		"drop keyspace ",    "truncate table ", "truncate ",
		"delete from ",	     "update ",	       "alter table ",
		"alter database ",   "alter user ",    "grant ",
		"revoke ",	     "insert into ",   "create table ",
		"create database ",  "create user ",   "shutdown",
	};
	while (n && (is_space((unsigned char)*s) || *s == '\n')) {
		s++;
		n--;
	}
	for (size_t i = 0; i < sizeof(kw) / sizeof(*kw); i++) {
		size_t kn = strlen(kw[i]);
		if (n < kn || strncasecmp(s, kw[i], kn) != 0)
			continue;
		/* "truncate x" and "update t set …" need their shape */
		if (kw[i][0] == 't' && kw[i][9] == '\0') {
			size_t sp = 0;
			for (size_t k = 0; k < n; k++)
				sp += s[k] == ' ';
			return sp <= 2;
		}
		if (kw[i][0] == 'u')
			for (size_t k = 0; k + 5 <= n; k++)
				if (strncasecmp(s + k, " set ", 5) == 0)
					return true;
		if (kw[i][0] == 'u')
			return false;
		if (kw[i][0] == 's')
			return n == 8 || s[8] == ' ' || s[8] == ';';
		return true;
	}
	return false;
}

/* After a delete word: the call's path and whether it says recursive.
 * Reads to the end of the call (the matching ')' or the end of a Tcl or
 * PowerShell command). */
static void read_delete(struct shape *sh, struct lex *lx, bool rf, bool ci,
			bool home_only)
{
	struct tok t;
	int depth = 0;
	const char *p = NULL;
	size_t pn = 0;
	bool home = sh->recent_home, have = sh->recent_home, opened = false;
	const char *sub = NULL; /* path.join(os.homedir(), "x"): "x" */
	size_t subn = 0;

	for (;;) {
		size_t at = lx->i;
		next(lx, &t);
		if (t.k == T_END)
			break;
		if (t.k == T_PUNCT) {
			if (t.c == '(' || t.c == '[' || t.c == '{') {
				depth++;
				opened = true;
			} else if (t.c == ')' || t.c == ']' || t.c == '}') {
				if (--depth <= 0 && opened)
					break;
			} else if ((t.c == '\n' || t.c == ';') && depth <= 0) {
				break;
			}
			continue;
		}
		if (t.k == T_OPT) {
			/* -force, -Recurse, -r, -rf */
			const char *o = t.s + 1;
			size_t on = t.n - 1;
			if (on && o[0] == '-') {
				o++;
				on--;
			}
			if (kind_of(o, on, true) == W_RECURSE ||
			    (on <= 3 && memchr(o, 'r', on)))
				rf = true;
			continue;
		}
		if (t.k == T_WORD) {
			const char *w = t.s;
			size_t wn = t.n;
			last_part(&w, &wn);
			enum word_kind k = kind_of(w, wn, ci);
			if (k == W_RECURSE)
				rf = true;
			else if (k == W_HOME && !have)
				home = have = true;
			continue;
		}
		if (t.k == T_STR || t.k == T_PATH) {
			if (t.k == T_STR && ((t.n == 4 && memcmp(t.s, "HOME", 4) == 0) ||
					     (t.n == 9 && memcmp(t.s, "user.home", 9) == 0) ||
					     (t.n == 11 && memcmp(t.s, "USERPROFILE", 11) == 0))) {
				if (!have)
					home = have = true;
				continue;
			}
			/* path.expand("~"), os.path.expanduser("~/x") */
			if (!have && t.k == T_STR && t.n && t.s[0] == '~' &&
			    (t.n == 1 || t.s[1] == '/')) {
				p = t.s;
				pn = t.n;
				have = true;
				continue;
			}
			if (home && !sub && depth >= 2) {
				sub = t.s;
				subn = t.n;
				continue;
			}
			/* the call's own argument, not an inner call's */
			if (!have && depth <= 1) {
				p = t.s;
				pn = t.n;
				have = true;
			}
		}
		(void)at;
	}
	if (home_only && !home && !(pn && p[0] == '~'))
		return;
	if (home && sub && subn && !memchr(sub, '\'', subn) &&
	    !memchr(sub, '$', subn)) {
		/* a path under the home directory, joined */
		char j[SHAPE_LINE];
		size_t skip = sub[0] == '/' ? 1 : 0;
		if (subn + 3 < sizeof(j)) {
			j[0] = '~';
			j[1] = '/';
			memcpy(j + 2, sub + skip, subn - skip);
			hand_back_rm(sh, rf, j, subn - skip + 2, false);
			return;
		}
	}
	if (!have || (!home && (!pn || memchr(p, '$', pn) ||
				memchr(p, '#', pn)))) {
		sh->flags |= CODE_F_DELETE;
		return;
	}
	hand_back_rm(sh, rf, p, pn, home);
}

/* After a run word: a literal (or Tcl's bare words up to the end of the
 * command) is a command line. */
/* A run word's first literal named a shell: ["sh", "-c", "CMD"] (an
 * argument list) hands CMD back; anything else is a shell whose input
 * cordon does not see. */
static void shell_list(struct shape *sh, struct lex *lx)
{
	size_t save = lx->i;
	struct tok t;

	sh->shellname = true;
	next(lx, &t);
	if (t.k == T_PUNCT && t.c == ',')
		next(lx, &t);
	if (t.k != T_STR || t.n != 2 || memcmp(t.s, "-c", 2) != 0) {
		lx->i = save;
		return;
	}
	next(lx, &t);
	if (t.k == T_PUNCT && t.c == ',')
		next(lx, &t);
	if (t.k == T_STR && !memchr(t.s, '$', t.n) && !memchr(t.s, '#', t.n))
		hand_back(sh, t.s, t.n);
	else
		lx->i = save;
}

static void read_run(struct shape *sh, struct lex *lx)
{
	struct tok t;
	size_t save = lx->i;

	next(lx, &t);
	while (t.k == T_PUNCT && (t.c == '(' || t.c == '['))
		next(lx, &t);
	if (t.k == T_STR || t.k == T_CMD) {
		/* Vim's execute "!cmd" is :!cmd */
		if (t.k == T_STR && t.n > 1 && t.s[0] == '!') {
			t.s++;
			t.n--;
		}
		if (is_shell_name(t.s, t.n))
			shell_list(sh, lx);
		else if (memchr(t.s, '$', t.n) == NULL &&
			 memchr(t.s, '#', t.n) == NULL)
			hand_back(sh, t.s, t.n);
		sh->flags |= CODE_F_EXEC;
		return;
	}
	if (t.k == T_WORD || t.k == T_PATH) {
		/* exec rm -rf ~ (Tcl): the words to the end of the command */
		const char *start = t.s;
		const char *end = t.s + t.n;
		if (is_shell_name(t.s, t.n))
			sh->shellname = true;
		for (;;) {
			size_t at = lx->i;
			next(lx, &t);
			if (t.k == T_END || (t.k == T_PUNCT && strchr(";\n]}", t.c))) {
				lx->i = at;
				break;
			}
			if (t.k == T_PUNCT && t.c == '[') {
				/* a substitution: not known before it runs */
				sh->flags |= CODE_F_EXEC_DYNAMIC;
				lx->i = save;
				return;
			}
			end = t.s + t.n;
			/* a literal's closing quote, when it has one */
			if (t.k == T_STR && end < lx->s + lx->n)
				end++;
		}
		if (memchr(start, '$', (size_t)(end - start)))
			sh->flags |= CODE_F_EXEC_DYNAMIC;
		else if (!sh->shellname)
			hand_back(sh, start, (size_t)(end - start));
		sh->flags |= CODE_F_EXEC;
		return;
	}
	lx->i = save;
	sh->flags |= CODE_F_EXEC_DYNAMIC;
}

/* "rm -rf " + os.homedir(), "rm -rf ".getenv("HOME"), "rm -rf " ..
 * os.getenv("HOME"): a command line whose last word is the home
 * directory. The literal (ending in a blank) is followed by a
 * concatenation and, within the next few tokens, a home expression. */
static void concat_home(struct shape *sh, struct lex *lx, const struct tok *s)
{
	size_t save = lx->i;
	struct tok t;
	bool cat = false, home = false;

	for (int k = 0; k < 8; k++) {
		next(lx, &t);
		if (t.k == T_END || (t.k == T_PUNCT && (t.c == ';' || t.c == '\n' ||
							t.c == ',')))
			break;
		if (t.k == T_PUNCT && (t.c == '+' || t.c == '.')) {
			cat = true;
			continue;
		}
		if (!cat)
			break;
		if (t.k == T_STR && t.n == 4 && memcmp(t.s, "HOME", 4) == 0) {
			home = true;
			break;
		}
		if (t.k == T_WORD) {
			const char *w = t.s;
			size_t wn = t.n;
			last_part(&w, &wn);
			if (kind_of(w, wn, false) == W_HOME) {
				home = true;
				break;
			}
		}
	}
	lx->i = save;
	if (!home || s->n + 2 > SHAPE_LINE || memchr(s->s, '$', s->n))
		return;
	char line[SHAPE_LINE];
	memcpy(line, s->s, s->n);
	line[s->n] = '~';
	if (sh->shell)
		sh->shell(sh->ud, line, s->n + 1);
}

unsigned codeshape_scan(const char *code, size_t n, unsigned what,
			void (*shell)(void *ud, const char *cmd, size_t n),
			void (*sql)(void *ud, const char *text, size_t n),
			void *ud)
{
	struct shape sh = { shell, sql, ud, 0, false, false, false, false, false };
	struct lex lx = { code, code ? n : 0, 0 };
	struct tok t, prev = { T_END, NULL, 0, 0 };
	bool ci = (what & SHAPE_CASELESS) != 0;

	if (!code)
		return 0;
	for (;;) {
		next(&lx, &t);
		if (t.k == T_END)
			break;
		if (t.k == T_STR) {
			if ((what & SHAPE_SQL) && sh.sql && t.n > 6 &&
			    looks_sql(t.s, t.n))
				sh.sql(sh.ud, t.s, t.n);
			/* what code fetches: urlopen('http://…'), get "…" */
			if ((t.n > 7 && memcmp(t.s, "http://", 7) == 0) ||
			    (t.n > 8 && memcmp(t.s, "https://", 8) == 0) ||
			    (t.n > 6 && memcmp(t.s, "ftp://", 6) == 0))
				sh.flags |= CODE_F_URL;
			if ((what & SHAPE_ALL) && is_shell_name(t.s, t.n))
				sh.shellname = true;
			/* "rm -rf ~".execute() (Groovy) */
			if ((what & SHAPE_ALL) && lx.i + 8 <= lx.n &&
			    memcmp(lx.s + lx.i, ".execute", 8) == 0 &&
			    !memchr(t.s, '$', t.n)) {
				hand_back(&sh, t.s, t.n);
				sh.run = true;
			}
			if ((t.n == 4 && memcmp(t.s, "HOME", 4) == 0) ||
			    (t.n == 9 && memcmp(t.s, "user.home", 9) == 0))
				sh.recent_home = true;
			if ((what & (SHAPE_ALL | SHAPE_HOME)) && t.n > 1 &&
			    t.s[t.n - 1] == ' ')
				concat_home(&sh, &lx, &t);
			/* open "|sh" (Tcl), open("|cmd") (Perl, Ruby): a pipe to
			 * a command */
			if ((what & SHAPE_ALL) && t.n > 1 && t.s[0] == '|') {
				sh.run = true;
				if (is_shell_name(t.s + 1, t.n - 1))
					sh.shellname = true;
				else if (!memchr(t.s, '$', t.n))
					hand_back(&sh, t.s + 1, t.n - 1);
			}
			prev = t;
			continue;
		}
		if (t.k == T_CMD && (what & SHAPE_ALL)) {
			/* `cmd` (Julia, Crystal): a command literal */
			sh.cmdlit = sh.run = true;
			if (memchr(t.s, '$', t.n) || memchr(t.s, '#', t.n))
				sh.flags |= CODE_F_EXEC | CODE_F_EXEC_DYNAMIC;
			else
				hand_back(&sh, t.s, t.n);
			continue;
		}
		if (t.k == T_PATH && (what & SHAPE_ALL) &&
		    t.n >= 9 && memcmp(t.s, "/dev/tcp/", 9) == 0)
			sh.connect = true;
		if (t.k == T_PUNCT && (t.c == ';' || t.c == '\n'))
			sh.recent_home = false;
		if (t.k != T_WORD) {
			prev = t;
			continue;
		}
		const char *w = t.s;
		size_t wn = t.n;
		last_part(&w, &wn);
		enum word_kind k = kind_of(w, wn, ci);
		if ((what & SHAPE_ALL) && k == W_CONNECT) {
			sh.connect = true;
			sh.flags |= CODE_F_NETWORK;
		} else if ((what & SHAPE_ALL) && k == W_RUN) {
			sh.run = true;
			read_run(&sh, &lx);
		} else if (k == W_HOME) {
			sh.recent_home = true;
		} else if (k == W_DELETE || k == W_DELETE_R) {
			/* Tcl: "file delete"; elsewhere a call */
			bool tcl_file = prev.k == T_WORD && prev.n == 4 &&
					memcmp(prev.s, "file", 4) == 0;
			size_t save = lx.i;
			struct tok nx;
			next(&lx, &nx);
			lx.i = save;
			/* f(x), and Lisp's (f x) */
			bool call = (nx.k == T_PUNCT && nx.c == '(') ||
				    (prev.k == T_PUNCT && prev.c == '(');
			bool cmdlet = ci && wn > 7;
			/* new File(home).deleteDir(): the receiver is the path */
			bool recv = call && prev.k == T_PUNCT && prev.c == '.' &&
				    sh.recent_home;
			if (!recv)
				sh.recent_home = false;
			if (((what & SHAPE_ALL) || ((what & SHAPE_HOME) && call)) &&
			    (call || tcl_file || cmdlet))
				read_delete(&sh, &lx, k == W_DELETE_R, ci,
					    !(what & SHAPE_ALL));
		}
		prev = t;
	}
	if (sh.connect && (sh.run || sh.cmdlit || sh.shellname))
		sh.flags |= CODE_F_REVERSE_SHELL;
	return sh.flags;
}
