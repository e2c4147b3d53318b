/* codescan_int.h — what the pieces of the code scanner share.
 *
 * codescan.c walks the tokens of a piece of code (the scan loop, argument
 * reading, what a call does, handing commands back) and holds the entry
 * point codescan_scan(); codelex.c is the per-language lexer and the
 * decoder of string literals; codesinks.c the table of calls that run,
 * delete, write, evaluate or connect, and of the modules they live in;
 * sedscan.c reads sed scripts. Each file offers the others functions named
 * after it (codelex_, codesinks_, codescan_, sedscan_); everything else
 * stays static in its file.
 */
#ifndef CORDON_CODESCAN_INT_H
#define CORDON_CODESCAN_INT_H

#include "codescan.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum {
	CS_MAX_INPUT = 1 << 20, /* bytes; longer code is not read at all */
	CS_MAX_FRAMES = 64, /* interpolations inside interpolations */
	CS_MAX_NEST = 64, /* brackets */
	CS_MAX_EVAL = 4, /* eval("…") inside eval("…") */
	CS_MAX_ARGS = 16, /* arguments read from one call */
	CS_MAX_DYN = 8, /* dynamic parts remembered in one string */
	CS_RING = 16, /* previous tokens the scanner can see */
	CS_BUDGET = 512, /* tokens one argument list may look ahead */
	CS_MAX_ALIAS = 64, /* names bound to modules or sinks */
	CS_MAX_WILD = 8, /* `from M import *` modules */
	CS_STACK_ARENA = 8192, /* arena on the stack for short code */
};

#define L_PY (1u << CODE_PYTHON)
#define L_JS (1u << CODE_NODE)
#define L_PL (1u << CODE_PERL)
#define L_RB (1u << CODE_RUBY)
#define L_PHP (1u << CODE_PHP)
#define L_AWK (1u << CODE_AWK)
#define L_LUA (1u << CODE_LUA)

/* ---- tokens -------------------------------------------------------------- */

enum tok_kind {
	T_EOF, /* also "no previous token" */
	T_IDENT, /* name; perl and ruby names include their :: parts */
	T_VAR, /* $x @x %x (perl, php, ruby) */
	T_STR, /* string literal, or one segment of an interpolated one */
	T_CMD, /* `…`, qx{…}, %x(…): a shell command literal */
	T_WORDS, /* qw(…), %w(…): a list of words */
	T_NUM,
	T_PUNCT,
	T_REGEX, /* /…/, m//, s///, tr///, %r{} */
	T_SYM, /* ruby :name */
};

/* How a string body decodes. */
enum str_mode {
	M_RAW, /* verbatim, and a backslash is an ordinary byte (lua [[…]]) */
	M_PYRAW, /* verbatim, but a backslash protects the next byte */
	M_SQ, /* only \\ and an escaped delimiter */
	M_PY,
	M_PYB, /* python bytes: no \u */
	M_JS,
	M_PERL,
	M_RUBY,
	M_PHP,
	M_AWK,
	M_LUA,
	M_NONE, /* a regex: never decoded */
};

/* Interpolations that run code inside a string. */
enum interp { I_NONE, I_PYF, I_JS, I_PERL, I_RUBY, I_PHP };

#define TF_NL 0x01 /* a newline precedes the token */
#define TF_SP 0x02 /* white space precedes the token */
#define TF_DYN 0x04 /* the string interpolates something */
#define TF_OPEN 0x08 /* an interpolated expression follows this segment */
#define TF_CONT 0x10 /* this segment resumes a string after an expression */
#define TF_FSTR 0x20 /* python f-string: {{ and }} are braces */

struct tok {
	unsigned char kind;
	unsigned char mode;
	unsigned char flags;
	unsigned char ecount; /* perl s///e: number of e flags */
	char op[4]; /* T_PUNCT */
	char open, close; /* string delimiters */
	size_t s, e; /* the whole token */
	size_t cs, ce; /* body, name or operator */
	size_t rs, re; /* perl s///: the replacement */
};

/* One quoted body being scanned, or waiting while an interpolated
 * expression is lexed as code. */
struct frame {
	unsigned char kind, mode, interp, triple, oneline, fstr;
	char open, close;
	unsigned nest; /* bracket delimiters opened inside the body */
	unsigned brace; /* braces opened inside the expression */
};

struct lex {
	const char *s;
	size_t n, i;
	enum code_lang lang;
	unsigned char pk; /* kind of the previous token */
	char pop[4]; /* its operator */
	unsigned char pkw; /* it is a keyword after which a regex may come */
	unsigned char err; /* something could not be read */
	unsigned char deep;
	unsigned char html; /* php: outside <?php … ?> */
	size_t noregex; /* a '/' before here cannot start a regex */
	unsigned depth;
	unsigned nframes;
	struct frame fr[CS_MAX_FRAMES];
};

/* Copies a lexer, frames in use only: look-aheads copy it often. */
static inline void lex_copy(struct lex *dst, const struct lex *src)
{
	memcpy(dst, src,
	       offsetof(struct lex, fr) + src->nframes * sizeof(src->fr[0]));
}

static inline int ch(const struct lex *lx, size_t i)
{
	return i < lx->n ? (unsigned char)lx->s[i] : -1;
}

static inline int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int id_start(int c)
{
	return is_alpha(c) || c == '_' || c >= 0x80;
}

static inline int id_char(int c)
{
	return id_start(c) || is_digit(c);
}

static inline int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static inline int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* a[0..n) equals the NUL-terminated w. */
static inline int eqw(const char *a, size_t n, const char *w)
{
	if (n ? a[0] != w[0] : w[0] != 0)
		return 0;
	return strlen(w) == n && memcmp(a, w, n) == 0;
}

/* The same, ignoring ASCII case. */
static inline int eqw_ci(const char *a, size_t n, const char *w)
{
	size_t k = strlen(w);

	if (n != k)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)w[i]))
			return 0;
	return 1;
}

static inline int in_list(const char *a, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (eqw(a, n, *list))
			return 1;
	return 0;
}

static inline char closing_of(char c)
{
	switch (c) {
	case '(':
		return ')';
	case '[':
		return ']';
	case '{':
		return '}';
	case '<':
		return '>';
	default:
		return c;
	}
}

/* ---- decoded text (codelex.c) ------------------------------------------- */

/* Text decoded into the arena, with the places where a dynamic part (an
 * interpolated variable, a non-literal operand) was left out. */
struct text {
	size_t off, n;
	size_t dyn[CS_MAX_DYN];
	unsigned ndyn;
	unsigned char over; /* more dynamic parts than dyn[] holds */
	unsigned char guess; /* read through a variable: likely, not certain */
};

/* A decoder writing at most cap bytes (a body never decodes longer than it
 * is written), applying perl's \U \L \u \l case changes. */
struct dec {
	char *o;
	size_t n, cap;
	struct text *x; /* where dynamic parts are noted, at x->n + n */
	unsigned char up, low, up1, low1;
};

/* ---- the scan (codescan.c) ---------------------------------------------- */

/* A name bound to a module (`import subprocess as sp`, `const cp =
 * require('child_process')`) or to one of its functions (`from os import
 * system`, `const {execSync: run} = …`, `$f = 'system'`). */
struct alias {
	const char *name;
	size_t n;
	const char *canon;
	const char *member; /* NULL: the name is the module itself */
	size_t mn;
	char buf[24]; /* a member name built from literals */
};

/* A variable assigned a string literal (c = 'rm -rf /'): where it is used
 * as an argument, the literal is what it most likely holds. */
struct val {
	const char *name;
	size_t n;
	const char *code; /* the text the literal's offsets refer to */
	struct tok t;
};

/* Shared by the code and every eval("…") inside it. */
struct scan {
	void (*cb)(void *ud, const char *cmd, size_t n);
	void *ud;
	unsigned flags;
	char *ar;
	size_t acap, atop;
	unsigned char ar_full;
	unsigned nal;
	unsigned char al_full;
	const char *wild[CS_MAX_WILD];
	unsigned nwild;
	unsigned nval;
	unsigned depth;
	/* Tokens all look-aheads together may still read: a multiple of the
	 * input's size, so nested calls cannot make the scan quadratic. */
	size_t look_left;
	unsigned char look_out;
	/* Evidence judged at the end, whatever order it came in. */
	unsigned char exec, dyn_exec, shell_exec, eval, decode;
	unsigned char sock_mod, sock_conn, connect, dup2, pty, fdhint;
	unsigned char var_call, sink_str, has_cp;
	unsigned char guessed; /* the call just read used a variable's value */
	unsigned chrs; /* chr() calls; map(chr, …) counts two */
	/* Last: only the first nal / nval entries are ever read. */
	struct alias al[CS_MAX_ALIAS];
	struct val val[CS_MAX_ALIAS];
};

/* One piece of code being scanned. */
struct unit {
	struct scan *sc;
	enum code_lang lang;
	const char *s;
	size_t n;
	unsigned long ntok;
	unsigned long fork_at; /* ntok + 1 at the last fork, or 0 */
	unsigned long noref_until; /* an alias's value: not a use */
	unsigned char loop; /* an unbounded loop header was seen */
	unsigned char in_print; /* awk: inside print / printf */
	unsigned print_depth;
	/* Last: set up by lex_init, read only up to ntok. */
	struct tok ring[CS_RING];
	struct lex lx;
};

static inline void flag(struct unit *u, unsigned f)
{
	u->sc->flags |= f;
}

/* ---- the tables (codesinks.c) ------------------------------------------- */

enum sink_kind {
	K_EXEC = 1, /* runs a command: see the S_ shapes */
	K_DEL, /* deletes: D_ shapes */
	K_EVAL, /* evaluates code: E_ shapes */
	K_KILL,
	K_FORK,
	K_DUP2,
	K_NET,
	K_SOCK_MOD, /* raw sockets */
	K_SOCK_CONN, /* a connected socket */
	K_CONNECT,
	K_DECODE,
	K_CHR, /* chr(): a decoder once there is a chain of them */
	K_DECODE_ARG, /* decodes when an argument names the format */
	K_WRITE,
	K_OPEN, /* writes when the mode says so */
	K_URLFILE, /* php: a file function that also takes URLs */
	K_ENV_REF, /* the whole environment, unless indexed */
	K_ENV_CALL, /* getenv() without a name, phpinfo() */
	K_REQUIRE, /* loads a module named by a string */
	K_GETATTR, /* python getattr(module, 'name') */
	K_SEND, /* calls a function named by a string or symbol */
	K_PREG, /* php preg_replace with /e */
	K_FDHINT, /* socket.fileno(), stream.pipe(): wiring descriptors */
	K_PATHDEL, /* python pathlib .unlink() / .rmdir() */
	K_PERLOPEN,
	K_RUBYOPEN,
};

enum sink_shape {
	S_CMD1 = 1, /* first argument: a command line or an argv list */
	S_ARGV, /* all arguments: one string, or argv words */
	S_SKIP2, /* perl open2: two handles, then argv */
	S_SKIP3, /* perl open3: three handles, then argv */
	S_PROG_LIST, /* spawn('prog', ['arg' …]) */
	S_EXECL, /* os.execl(path, arg0, arg1 …) */
	S_EXECV, /* os.execv(path, [arg0, arg1 …]) */
	S_SPAWNL, /* os.spawnl(mode, path, arg0, arg1 …) */
	S_SPAWNV, /* os.spawnv(mode, path, [arg0 …]) */
	S_OBJCMD, /* Bun.spawn([…]) or Deno.run({cmd: […]}) */
	S_PROG_OBJARGS, /* new Deno.Command('prog', {args: […]}) */
	S_DYN, /* runs something it never shows */
	S_NOCMD, /* runs a program (child_process.fork) */
	D_RM,
	D_RMRF,
	D_RMDIR,
	D_NODE_RM, /* fs.rm: recursive when the options say so */
	D_NODE_RMDIR,
	E_CODE, /* first argument is code */
	E_FUNC, /* new Function(…, body) */
	E_TIMER, /* setTimeout('code', …) */
	E_ALWAYS, /* runs code from elsewhere (a file, a lambda body) */
	E_ASSERT, /* php assert('code') */
	E_PERL, /* perl eval: a block is not a string */
	SEND_CALL, /* send(:system, args…) */
	SEND_REF, /* method(:system), array_map('system', …) */
};

#define H_PTY 1

/* A row of the sink table as codesinks_table.c writes it. */
struct sink_src {
	unsigned short langs;
	const char *mod; /* canonical module; "" builtin; "*" any receiver */
	const char *names; /* '|'-separated */
	unsigned char kind, shape, hint;
};

/* Names (receivers, import names, require strings) of the modules the
 * table knows, mapped to one canonical name. "netlib": network only;
 * "socket": raw sockets. */
struct modname_src {
	unsigned short langs;
	const char *names;
	const char *canon;
};

/* The rows. Only the build's indexgen and test_codescan link
 * codesinks_table.c: its pointers would be relocated by the loader in
 * every process. */
extern const struct sink_src codesinks_sink_src[];
extern const size_t codesinks_sink_src_count;
extern const struct modname_src codesinks_mod_src[];
extern const size_t codesinks_mod_src_count;

/* The same rows as the library reads them, written by indexgen into
 * codesinks_rows.c (build directory): each string an offset into
 * codesinks_pool, read with codesinks_str(k->names). */
struct sink {
	unsigned short langs;
	uint16_t mod, names;
	unsigned char kind, shape, hint;
};

struct modname {
	unsigned short langs;
	uint16_t names, canon;
};

extern const char codesinks_pool[];
extern const size_t codesinks_pool_size;

/* A string field of a row of the two tables (never NULL in them). */
static inline const char *codesinks_str(uint16_t off)
{
	return off ? codesinks_pool + off : NULL;
}

/* ---- codelex.c ----------------------------------------------------------- */

/* Starts lexing s[0..n) as lang. */
void codelex_init(struct lex *lx, enum code_lang lang, const char *s, size_t n);
/* The next token; T_EOF at the end. */
void codelex_next(struct lex *lx, struct tok *t);
/* Notes a dynamic part at the end of x. */
void codelex_text_dyn(struct text *x);
/* x has a dynamic part. */
int codelex_text_is_dyn(const struct text *x);
/* Decodes the body of the string token t of s through d. */
void codelex_dec_body(struct dec *d, const char *s, const struct tok *t);

/* ---- codesinks.c --------------------------------------------------------- */

/* The modules the sink table knows, codesinks_nmod of them, and the
 * sinks, codesinks_nsink. */
extern const struct modname codesinks_mod_tab[];
extern const size_t codesinks_nmod;
extern const struct sink codesinks_sink_tab[];
extern const size_t codesinks_nsink;

/* The canonical name of module row i. */
static inline const char *codesinks_canon(size_t i)
{
	return codesinks_str(codesinks_mod_tab[i].canon);
}
/* p[0..n) is one of the '|'-separated names in list. */
int codesinks_name_in(const char *list, const char *p, size_t n, int ci);
/* The canonical module for a receiver or module name, or NULL. */
const char *codesinks_mod_lookup(enum code_lang L, const char *p, size_t n);
/* The sink row for name p[0..n) called on module mod, or NULL. */
const struct sink *codesinks_find(enum code_lang L, const char *mod,
				  const char *p, size_t n);

/* ---- codescan.c ---------------------------------------------------------- */

/* Room for need more bytes at the arena's top, or NULL (and ar_full). */
char *codescan_ar_room(struct scan *sc, size_t need);
/* p[0..n) names a credential path. */
int codescan_names_secret(const char *p, size_t n);
/* The code runs a command it does not show. */
void codescan_dyn_exec(struct unit *u);
/* Hands back the command line decoded in x (dyn: it was built at run time). */
void codescan_emit_text(struct unit *u, const struct text *x, int dyn);

/* ---- sedscan.c ----------------------------------------------------------- */

/* Scans the sed script s[0..n). */
void sedscan_scan(struct scan *sc, const char *s, size_t n);

#endif
