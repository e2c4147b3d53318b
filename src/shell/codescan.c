/* codescan.c — reading code handed to interpreters.
 *
 * Each language family gets a small hand-written lexer that knows its string
 * literals, comments and interpolations, so a sink named inside a string or a
 * comment is never taken for a call. One shared scanner walks the tokens,
 * keeps a short window of the previous ones, and recognises the calls listed
 * in one table (sink_tab): what they run, delete, evaluate or open. String
 * arguments are decoded into a scratch arena that lives for one codescan_scan()
 * call; nothing outlives it. Every loop advances through the input, every
 * look-ahead has a token budget, and the only recursion (code inside
 * eval("…") or s///e) is bounded by CS_MAX_EVAL.
 */
#include "codescan.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "text.h"
#include "wrappers.h"
#include "banned.h"

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
static void lex_copy(struct lex *dst, const struct lex *src)
{
	memcpy(dst, src,
	       offsetof(struct lex, fr) + src->nframes * sizeof(src->fr[0]));
}

static int ch(const struct lex *lx, size_t i)
{
	return i < lx->n ? (unsigned char)lx->s[i] : -1;
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int id_start(int c)
{
	return is_alpha(c) || c == '_' || c >= 0x80;
}

static int id_char(int c)
{
	return id_start(c) || is_digit(c);
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* a[0..n) equals the NUL-terminated w. */
static int eqw(const char *a, size_t n, const char *w)
{
	if (n ? a[0] != w[0] : w[0] != 0)
		return 0;
	return strlen(w) == n && memcmp(a, w, n) == 0;
}

/* The same, ignoring ASCII case. */
static int eqw_ci(const char *a, size_t n, const char *w)
{
	size_t k = strlen(w);

	if (n != k)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)w[i]))
			return 0;
	return 1;
}

static int in_list(const char *a, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (eqw(a, n, *list))
			return 1;
	return 0;
}

static char closing_of(char c)
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

/* ---- the lexer ----------------------------------------------------------- */

static void lex_init(struct lex *lx, enum code_lang lang, const char *s,
		     size_t n)
{
	memset(lx, 0, offsetof(struct lex, fr));
	lx->s = s;
	lx->n = n;
	lx->lang = lang;
	/* A #! line is a comment where '#' does not start one anyway. */
	if ((lang == CODE_NODE || lang == CODE_LUA || lang == CODE_PHP) &&
	    n >= 2 && s[0] == '#' && s[1] == '!') {
		const char *nl = memchr(s, '\n', n);
		lx->i = nl ? (size_t)(nl - s) : n;
	}
	/* php -r code starts as code, a php file as text before <?php. */
	if (lang == CODE_PHP) {
		size_t j = lx->i;
		while (j < n && is_space((unsigned char)s[j]))
			j++;
		if (j < n && s[j] == '<')
			lx->html = 1;
	}
}

static int at_line_start(const struct lex *lx, size_t i)
{
	return i == 0 || lx->s[i - 1] == '\n';
}

static int starts(const struct lex *lx, size_t i, const char *w)
{
	size_t k = strlen(w);

	return i <= lx->n && lx->n - i >= k && memcmp(lx->s + i, w, k) == 0;
}

static size_t line_end(const struct lex *lx, size_t i)
{
	const char *nl = i < lx->n ? memchr(lx->s + i, '\n', lx->n - i) : NULL;

	return nl ? (size_t)(nl - lx->s) : lx->n;
}

/* Lua long bracket at i: '[' '='* '['. Returns the level + 1, or 0. */
static size_t lua_long_open(const struct lex *lx, size_t i)
{
	size_t j = i + 1;

	if (ch(lx, i) != '[')
		return 0;
	while (ch(lx, j) == '=')
		j++;
	return ch(lx, j) == '[' ? j - i : 0;
}

/* Finds the end of a lua long bracket of the given level starting its body
 * at i; returns the index just past ']' '='* ']', or 0 when unterminated. */
static size_t lua_long_close(const struct lex *lx, size_t i, size_t level,
			     size_t *body_end)
{
	for (; i < lx->n; i++) {
		if (lx->s[i] != ']')
			continue;
		size_t j = i + 1, k = 0;
		while (ch(lx, j) == '=') {
			j++;
			k++;
		}
		if (k + 1 == level && ch(lx, j) == ']') {
			*body_end = i;
			return j + 1;
		}
	}
	return 0;
}

/* Skips white space, comments, php text outside its tags, perl POD and what
 * follows __END__. Marks t with TF_NL / TF_SP. */
static void lex_skip(struct lex *lx, struct tok *t)
{
	enum code_lang L = lx->lang;

	while (lx->i < lx->n) {
		size_t i = lx->i;
		int c = ch(lx, i), d = ch(lx, i + 1);

		if (L == CODE_PHP && lx->html) {
			const char *p = memmem(lx->s + i, lx->n - i, "<?", 2);
			if (!p) {
				lx->i = lx->n;
				return;
			}
			i = (size_t)(p - lx->s) + 2;
			if (starts(lx, i, "php"))
				i += 3;
			else if (ch(lx, i) == '=')
				i++;
			lx->i = i;
			lx->html = 0;
			t->flags |= TF_SP;
			continue;
		}
		if (at_line_start(lx, i) &&
		    (L == CODE_PERL || L == CODE_RUBY)) {
			if (starts(lx, i, "__END__") ||
			    (L == CODE_PERL && starts(lx, i, "__DATA__"))) {
				size_t k = i + (lx->s[i + 2] == 'E' ? 7 : 8);
				if (k >= lx->n || is_space(ch(lx, k))) {
					lx->i = lx->n;
					return;
				}
			}
			if (L == CODE_PERL && c == '=' && is_alpha(d)) {
				size_t j = i;
				while (j < lx->n && !(at_line_start(lx, j) &&
						      starts(lx, j, "=cut")))
					j = line_end(lx, j) + 1;
				lx->i = j < lx->n ? line_end(lx, j) : lx->n;
				continue;
			}
			if (L == CODE_RUBY && starts(lx, i, "=begin")) {
				size_t j = line_end(lx, i) + 1;
				while (j < lx->n && !starts(lx, j, "=end"))
					j = line_end(lx, j) + 1;
				if (j >= lx->n) {
					lx->err = 1;
					lx->i = lx->n;
					return;
				}
				lx->i = line_end(lx, j);
				continue;
			}
		}
		if (c == '\n') {
			t->flags |= TF_NL | TF_SP;
			lx->i++;
			continue;
		}
		if (is_space(c)) {
			t->flags |= TF_SP;
			lx->i++;
			continue;
		}
		if (c == '\\' &&
		    (d == '\n' || (d == '\r' && ch(lx, i + 2) == '\n')) &&
		    (L == CODE_PYTHON || L == CODE_AWK)) {
			lx->i += d == '\n' ? 2 : 3;
			t->flags |= TF_SP;
			continue;
		}
		if (c == '#' && L != CODE_NODE && L != CODE_LUA) {
			size_t e = line_end(lx, i);
			if (L == CODE_PHP) {
				const char *q =
					memmem(lx->s + i, e - i, "?>", 2);
				if (q)
					e = (size_t)(q - lx->s);
			}
			lx->i = e;
			continue;
		}
		if ((L == CODE_NODE || L == CODE_PHP) && c == '/' && d == '/') {
			size_t e = line_end(lx, i);
			if (L == CODE_PHP) {
				const char *q =
					memmem(lx->s + i, e - i, "?>", 2);
				if (q)
					e = (size_t)(q - lx->s);
			}
			lx->i = e;
			continue;
		}
		if ((L == CODE_NODE || L == CODE_PHP) && c == '/' && d == '*') {
			const char *q =
				memmem(lx->s + i + 2, lx->n - i - 2, "*/", 2);
			if (!q) {
				lx->err = 1;
				lx->i = lx->n;
				return;
			}
			lx->i = (size_t)(q - lx->s) + 2;
			t->flags |= TF_SP;
			continue;
		}
		if (L == CODE_LUA && c == '-' && d == '-') {
			size_t lv = lua_long_open(lx, i + 2), be;
			if (lv) {
				size_t e = lua_long_close(lx, i + 2 + lv + 1,
							  lv, &be);
				if (!e) {
					lx->err = 1;
					lx->i = lx->n;
					return;
				}
				lx->i = e;
			} else {
				lx->i = line_end(lx, i);
			}
			continue;
		}
		if (L == CODE_PHP && c == '?' && d == '>') {
			lx->i += 2;
			lx->html = 1;
			continue;
		}
		return;
	}
}

/* Words after which a '/' starts a regex rather than a division. */
static int lex_kw_regex(enum code_lang L, const char *w, size_t n)
{
	static const char *const js[] = {
		"return", "typeof", "instanceof", "in",	   "of",
		"new",	  "delete", "void",	  "throw", "case",
		"do",	  "else",   "yield",	  "await", NULL,
	};
	static const char *const pl[] = {
		"split", "grep",  "map",   "join",   "if",   "unless",	"and",
		"or",	 "not",	  "xor",   "return", "push", "unshift", "when",
		"while", "until", "print", "say",    "lt",   "gt",	"le",
		"ge",	 "eq",	  "ne",	   "cmp",    "x",    NULL,
	};
	static const char *const rb[] = {
		"if",	  "unless", "while", "until", "and", "or",    "not",
		"return", "when",   "case",  "puts",  "p",   "print", "then",
		"do",	  "elsif",  "in",    "yield", NULL,
	};
	static const char *const awk[] = {
		"print", "printf", "return", "in", "if", "while", NULL,
	};

	switch (L) {
	case CODE_NODE:
		return in_list(w, n, js);
	case CODE_PERL:
		return in_list(w, n, pl);
	case CODE_RUBY:
		return in_list(w, n, rb);
	case CODE_AWK:
		return in_list(w, n, awk);
	default:
		return 0;
	}
}

/* The previous token ends an operand, so '/' or '%' is an operator. */
static int lex_after_value(const struct lex *lx)
{
	switch (lx->pk) {
	case T_IDENT:
		return !lx->pkw;
	case T_VAR:
	case T_STR:
	case T_CMD:
	case T_NUM:
	case T_REGEX:
	case T_WORDS:
	case T_SYM:
		return 1;
	case T_PUNCT:
		if (lx->pop[1])
			return 0;
		if (lx->pop[0] == ')' || lx->pop[0] == ']')
			return 1;
		if (lx->pop[0] == '}')
			return lx->lang == CODE_PERL || lx->lang == CODE_RUBY ||
			       lx->lang == CODE_PHP;
		return 0;
	default:
		return 0;
	}
}

/* Scans a quoted body from lx->i (just past its opening delimiter) to its
 * closing delimiter, filling t's body span. When the body interpolates an
 * expression that runs code, stops there and pushes f as a frame, so the
 * expression is lexed as code and the string resumes at its closing brace. */
static void lex_body(struct lex *lx, struct tok *t, struct frame *f)
{
	const char *s = lx->s;
	size_t n = lx->n, i = lx->i, code_at = 0;

	t->kind = f->kind;
	t->mode = f->mode;
	t->open = f->open;
	t->close = f->close;
	if (f->fstr)
		t->flags |= TF_FSTR;
	t->cs = i;
	for (;;) {
		if (i >= n) {
			lx->err = 1;
			t->ce = n;
			lx->i = n;
			return;
		}
		int c = (unsigned char)s[i], d = ch(lx, i + 1);
		if (c == '\\' && f->mode != M_RAW) {
			if (f->oneline && d == '\r' && ch(lx, i + 2) == '\n')
				i++;
			i += 2;
			continue;
		}
		if (f->oneline && c == '\n') {
			lx->err = 1;
			t->ce = i;
			lx->i = n;
			return;
		}
		if (f->triple) {
			if (c == f->close && d == c && ch(lx, i + 2) == c) {
				t->ce = i;
				lx->i = i + 3;
				return;
			}
		} else if (f->open != f->close) {
			if (c == f->open) {
				f->nest++;
			} else if (c == f->close) {
				if (f->nest == 0) {
					t->ce = i;
					lx->i = i + 1;
					return;
				}
				f->nest--;
			}
		} else if (c == f->close) {
			t->ce = i;
			lx->i = i + 1;
			return;
		}
		switch (f->interp) {
		case I_PYF:
			if (c == '{') {
				if (d == '{') {
					i += 2;
					continue;
				}
				code_at = i + 1;
				goto open;
			}
			break;
		case I_JS:
			if (c == '$' && d == '{') {
				code_at = i + 2;
				goto open;
			}
			break;
		case I_RUBY:
			if (c == '#' && d == '{') {
				code_at = i + 2;
				goto open;
			}
			if (c == '#' && (d == '@' || d == '$'))
				t->flags |= TF_DYN;
			break;
		case I_PERL:
			if ((c == '$' || c == '@') && d == '{') {
				code_at = i + 2;
				goto open;
			}
			if (c == '$' &&
			    (id_char(d) || d == ':' || d == '$' || d == '&'))
				t->flags |= TF_DYN;
			if (c == '@' && (id_start(d) || d == '$' || d == ':'))
				t->flags |= TF_DYN;
			break;
		case I_PHP:
			if (c == '{' && d == '$') {
				code_at = i + 1;
				goto open;
			}
			if (c == '$' && d == '{') {
				code_at = i + 2;
				goto open;
			}
			if (c == '$' && id_start(d))
				t->flags |= TF_DYN;
			break;
		default:
			break;
		}
		i++;
	}
open:
	t->ce = i;
	t->flags |= TF_OPEN | TF_DYN;
	if (lx->nframes >= CS_MAX_FRAMES) {
		lx->err = 1;
		lx->i = n;
		return;
	}
	f->brace = 0;
	lx->fr[lx->nframes++] = *f;
	lx->i = code_at;
}

static void lex_quote(struct lex *lx, struct tok *t, unsigned char kind,
		      unsigned char mode, unsigned char interp, char open,
		      int oneline)
{
	struct frame f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.mode = mode;
	f.interp = interp;
	f.open = open;
	f.close = closing_of(open);
	f.oneline = (unsigned char)oneline;
	lex_body(lx, t, &f);
}

/* Python string at q (the quote), after a prefix of letters. */
static void lex_py_string(struct lex *lx, struct tok *t, size_t q, int raw,
			  int bytes, int fstr)
{
	struct frame f;
	char c = lx->s[q];

	memset(&f, 0, sizeof(f));
	f.kind = T_STR;
	f.mode = raw ? M_PYRAW : bytes ? M_PYB : M_PY;
	f.interp = fstr ? I_PYF : I_NONE;
	f.fstr = (unsigned char)fstr;
	f.open = f.close = c;
	if (ch(lx, q + 1) == c && ch(lx, q + 2) == c) {
		f.triple = 1;
		lx->i = q + 3;
	} else {
		f.oneline = 1;
		lx->i = q + 1;
	}
	lex_body(lx, t, &f);
}

/* A regex that must end on its line (javascript, awk); returns 0 and leaves
 * lx alone when there is none, so the '/' is a division. */
static int lex_line_regex(struct lex *lx, struct tok *t)
{
	size_t i = lx->i + 1;
	int cls = 0;

	/* A regex already failed to close on this line: every '/' before
	 * that line's end is a division, or lines of '/[' would be read
	 * again and again. */
	if (lx->i < lx->noregex)
		return 0;
	for (; i < lx->n; i++) {
		int c = (unsigned char)lx->s[i];
		if (c == '\n') {
			lx->noregex = i;
			return 0;
		}
		if (c == '\\') {
			i++;
			continue;
		}
		if (c == '[')
			cls = 1;
		else if (c == ']')
			cls = 0;
		else if (c == '/' && !cls)
			break;
	}
	if (i >= lx->n) {
		lx->noregex = lx->n;
		return 0;
	}
	t->kind = T_REGEX;
	t->mode = M_NONE;
	t->cs = lx->i + 1;
	t->ce = i;
	i++;
	while (is_alpha(ch(lx, i)))
		i++;
	lx->i = i;
	return 1;
}

static void lex_regex_flags(struct lex *lx, struct tok *t)
{
	while (is_alpha(ch(lx, lx->i))) {
		if (lx->s[lx->i] == 'e')
			t->ecount++;
		lx->i++;
	}
}

/* Perl quote-like operators: q qq qw qx m qr s tr y, when the word at
 * [ws, we) is one and a delimiter follows. */
static int lex_perl_quote(struct lex *lx, struct tok *t, size_t ws, size_t we)
{
	const char *w = lx->s + ws;
	size_t len = we - ws, j = we;
	int sp = 0, d;

	if (!(eqw(w, len, "q") || eqw(w, len, "qq") || eqw(w, len, "qw") ||
	      eqw(w, len, "qx") || eqw(w, len, "m") || eqw(w, len, "qr") ||
	      eqw(w, len, "s") || eqw(w, len, "tr") || eqw(w, len, "y")))
		return 0;
	if (lx->pk == T_PUNCT &&
	    (!strcmp(lx->pop, "->") || !strcmp(lx->pop, "::")))
		return 0;
	if (ws > 0 && (lx->s[ws - 1] == '-' || lx->s[ws - 1] == '$' ||
		       lx->s[ws - 1] == '@' || lx->s[ws - 1] == '%' ||
		       lx->s[ws - 1] == '&'))
		return 0;
	while (is_space(ch(lx, j))) {
		j++;
		sp = 1;
	}
	d = ch(lx, j);
	if (d < 0 || id_char(d) || d == ',' || d == ';' || d == ')' ||
	    d == ']' || d == '}' || d == '>' || d == '\\')
		return 0;
	if (d == '=' && (ch(lx, j + 1) == '>' || sp))
		return 0;
	if (sp && d == '#')
		return 0;
	lx->i = j + 1;
	if (eqw(w, len, "q")) {
		lex_quote(lx, t, T_STR, M_SQ, I_NONE, (char)d, 0);
	} else if (eqw(w, len, "qq")) {
		lex_quote(lx, t, T_STR, M_PERL, d == '\'' ? I_NONE : I_PERL,
			  (char)d, 0);
		if (d == '\'')
			t->mode = M_SQ;
	} else if (eqw(w, len, "qx")) {
		lex_quote(lx, t, T_CMD, d == '\'' ? M_SQ : M_PERL,
			  d == '\'' ? I_NONE : I_PERL, (char)d, 0);
	} else if (eqw(w, len, "qw")) {
		lex_quote(lx, t, T_WORDS, M_SQ, I_NONE, (char)d, 0);
	} else if (eqw(w, len, "m") || eqw(w, len, "qr")) {
		lex_quote(lx, t, T_REGEX, M_NONE, I_NONE, (char)d, 0);
		lex_regex_flags(lx, t);
		t->ecount = 0;
	} else {
		/* s, tr, y: two parts. */
		struct tok r;
		size_t ps, pe;

		lex_quote(lx, t, T_REGEX, M_NONE, I_NONE, (char)d, 0);
		if (lx->err)
			return 1;
		ps = t->cs;
		pe = t->ce;
		memset(&r, 0, sizeof(r));
		if (closing_of((char)d) != (char)d) {
			while (is_space(ch(lx, lx->i)))
				lx->i++;
			int d2 = ch(lx, lx->i);
			if (d2 < 0) {
				lx->err = 1;
				return 1;
			}
			lx->i++;
			lex_quote(lx, &r, T_REGEX, M_NONE, I_NONE, (char)d2, 0);
		} else {
			lex_quote(lx, &r, T_REGEX, M_NONE, I_NONE, (char)d, 0);
		}
		t->kind = T_REGEX;
		t->cs = ps;
		t->ce = pe;
		t->rs = r.cs;
		t->re = r.ce;
		t->ecount = 0;
		if (eqw(w, len, "s"))
			lex_regex_flags(lx, t);
		else
			while (is_alpha(ch(lx, lx->i)))
				lx->i++;
	}
	return 1;
}

/* Perl and ruby specials after '$' that are one punctuation byte. */
static int perl_special(int c)
{
	return c > ' ' && c < 0x7f && !id_char(c) && c != '{';
}

/* $name @name %name &name in perl; $name in php; $name @name @@name in
 * ruby. Returns 0 when the sigil is an operator here. */
static int lex_var(struct lex *lx, struct tok *t, int c)
{
	size_t i = lx->i, j = i + 1;
	enum code_lang L = lx->lang;
	int d = ch(lx, j);

	if (L == CODE_PERL) {
		/* After a word (keys %h, push @a) a sigil; after a value an
		 * operator. */
		if ((c == '%' || c == '&') && lex_after_value(lx) &&
		    lx->pk != T_IDENT)
			return 0;
		if (c == '%' || c == '&' || c == '@') {
			int special = c != '&' &&
				      (d == '+' || d == '-' || d == '_');
			if (!(id_start(d) || d == '$' || d == '{' || d == ':' ||
			      special || (c == '%' && d == '^')))
				return 0;
		}
		if (c == '$' && d == '#') {
			int e = ch(lx, j + 1);
			if (id_start(e) || e == '{' || e == '$')
				j++;
		}
		while (ch(lx, j) == '$' &&
		       (id_start(ch(lx, j + 1)) || ch(lx, j + 1) == '$' ||
			ch(lx, j + 1) == '{' || ch(lx, j + 1) == ':'))
			j++;
		d = ch(lx, j);
		t->kind = T_VAR;
		t->open = (char)c;
		if (id_start(d) || (d == ':' && ch(lx, j + 1) == ':')) {
			t->cs = j;
			for (;;) {
				while (id_char(ch(lx, j)))
					j++;
				if (ch(lx, j) == ':' && ch(lx, j + 1) == ':') {
					j += 2;
					continue;
				}
				break;
			}
			t->ce = j;
		} else if (d == '{') {
			t->cs = t->ce = j;
		} else if (d == '^' && is_alpha(ch(lx, j + 1))) {
			t->cs = j;
			j += 2;
			t->ce = j;
		} else if (is_digit(d)) {
			t->cs = j;
			while (is_digit(ch(lx, j)))
				j++;
			t->ce = j;
		} else if (c == '$' && perl_special(d)) {
			t->cs = j;
			j++;
			t->ce = j;
		} else if (c != '$' && (d == '+' || d == '-' || d == '_')) {
			t->cs = j;
			j++;
			t->ce = j;
		} else {
			t->cs = t->ce = j;
		}
		lx->i = j;
		return 1;
	}
	if (L == CODE_PHP) {
		if (c != '$')
			return 0;
		while (ch(lx, j) == '$')
			j++;
		t->kind = T_VAR;
		t->open = '$';
		t->cs = j;
		while (id_char(ch(lx, j)))
			j++;
		t->ce = j;
		lx->i = j;
		return 1;
	}
	if (L == CODE_RUBY) {
		if (c == '@') {
			if (d == '@')
				j++;
			if (!id_start(ch(lx, j)))
				return 0;
		} else if (!(id_start(d) || perl_special(d))) {
			return 0;
		}
		t->kind = T_VAR;
		t->open = (char)c;
		t->cs = j;
		if (id_start(ch(lx, j)))
			while (id_char(ch(lx, j)))
				j++;
		else
			j++;
		t->ce = j;
		lx->i = j;
		return 1;
	}
	return 0;
}

/* Ruby %-literals: %q %Q %w %W %i %I %x %r %s and %(…). */
static int lex_ruby_percent(struct lex *lx, struct tok *t)
{
	size_t i = lx->i;
	int ty = ch(lx, i + 1), d;

	if (lex_after_value(lx))
		return 0;
	if (ty >= 0 && strchr("qQwWiIxrs", ty) && ty != 0) {
		d = ch(lx, i + 2);
		if (d < 0 || id_char(d) || is_space(d))
			return 0;
		lx->i = i + 3;
	} else {
		d = ty;
		if (d < 0 || id_char(d) || is_space(d) || d == '=')
			return 0;
		ty = 'Q';
		lx->i = i + 2;
	}
	switch (ty) {
	case 'q':
	case 's':
		lex_quote(lx, t, T_STR, M_SQ, I_NONE, (char)d, 0);
		break;
	case 'w':
	case 'i':
		lex_quote(lx, t, T_WORDS, M_SQ, I_NONE, (char)d, 0);
		break;
	case 'W':
	case 'I':
		lex_quote(lx, t, T_WORDS, M_RUBY, I_RUBY, (char)d, 0);
		break;
	case 'x':
		lex_quote(lx, t, T_CMD, M_RUBY, I_RUBY, (char)d, 0);
		break;
	case 'r':
		lex_quote(lx, t, T_REGEX, M_NONE, I_RUBY, (char)d, 0);
		lex_regex_flags(lx, t);
		t->ecount = 0;
		break;
	default:
		lex_quote(lx, t, T_STR, M_RUBY, I_RUBY, (char)d, 0);
		break;
	}
	return 1;
}

/* Tokens that begin with a quote or sigil, per language. Returns 1 when it
 * produced one. */
static int lex_lang(struct lex *lx, struct tok *t, int c)
{
	enum code_lang L = lx->lang;
	int d = ch(lx, lx->i + 1);

	switch (L) {
	case CODE_PYTHON:
		if (c == '\'' || c == '"') {
			lex_py_string(lx, t, lx->i, 0, 0, 0);
			return 1;
		}
		return 0;
	case CODE_NODE:
		if (c == '\'' || c == '"') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_JS, I_NONE, (char)c, 1);
			return 1;
		}
		if (c == '`') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_JS, I_JS, '`', 0);
			return 1;
		}
		if (c == '/' && d != '/' && d != '*' && !lex_after_value(lx))
			return lex_line_regex(lx, t);
		return 0;
	case CODE_PERL:
		if (c == '\'') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_SQ, I_NONE, '\'', 0);
			return 1;
		}
		if (c == '"') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_PERL, I_PERL, '"', 0);
			return 1;
		}
		if (c == '`') {
			lx->i++;
			lex_quote(lx, t, T_CMD, M_PERL, I_PERL, '`', 0);
			return 1;
		}
		if (c == '/' && !lex_after_value(lx)) {
			lx->i++;
			lex_quote(lx, t, T_REGEX, M_NONE, I_NONE, '/', 0);
			lex_regex_flags(lx, t);
			t->ecount = 0;
			return 1;
		}
		if (c == '$' || c == '@' || c == '%' || c == '&')
			return lex_var(lx, t, c);
		return 0;
	case CODE_RUBY:
		if (c == '\'') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_SQ, I_NONE, '\'', 0);
			return 1;
		}
		if (c == '"') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_RUBY, I_RUBY, '"', 0);
			return 1;
		}
		if (c == '`') {
			lx->i++;
			lex_quote(lx, t, T_CMD, M_RUBY, I_RUBY, '`', 0);
			return 1;
		}
		if (c == '/') {
			int re = !lex_after_value(lx);
			if (!re && lx->pk == T_IDENT && (t->flags & TF_SP) &&
			    d >= 0 && !is_space(d) && d != '=')
				re = 1;
			if (re) {
				lx->i++;
				lex_quote(lx, t, T_REGEX, M_NONE, I_RUBY, '/',
					  0);
				lex_regex_flags(lx, t);
				t->ecount = 0;
				return 1;
			}
			return 0;
		}
		if (c == '%')
			return lex_ruby_percent(lx, t);
		if (c == ':' && id_start(d) && lx->i > 0 &&
		    !id_char((unsigned char)lx->s[lx->i - 1]) &&
		    lx->s[lx->i - 1] != ':') {
			size_t j = lx->i + 1;
			while (id_char(ch(lx, j)))
				j++;
			if (ch(lx, j) == '?' || ch(lx, j) == '!' ||
			    ch(lx, j) == '=')
				if (ch(lx, j + 1) != '=' &&
				    ch(lx, j + 1) != '>')
					j++;
			t->kind = T_SYM;
			t->cs = lx->i + 1;
			t->ce = j;
			lx->i = j;
			return 1;
		}
		if (c == '?' && !lex_after_value(lx) && d > ' ' &&
		    !id_char(ch(lx, lx->i + 2))) {
			t->kind = T_STR;
			t->mode = M_RAW;
			t->cs = lx->i + 1;
			t->ce = lx->i + 2;
			lx->i += 2;
			return 1;
		}
		if (c == '$' || c == '@')
			return lex_var(lx, t, c);
		return 0;
	case CODE_PHP:
		if (c == '\'') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_SQ, I_NONE, '\'', 0);
			return 1;
		}
		if (c == '"') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_PHP, I_PHP, '"', 0);
			return 1;
		}
		if (c == '`') {
			lx->i++;
			lex_quote(lx, t, T_CMD, M_PHP, I_PHP, '`', 0);
			return 1;
		}
		if (c == '$')
			return lex_var(lx, t, c);
		return 0;
	case CODE_AWK:
		if (c == '"') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_AWK, I_NONE, '"', 1);
			return 1;
		}
		if (c == '/' && !lex_after_value(lx))
			return lex_line_regex(lx, t);
		return 0;
	case CODE_LUA:
		if (c == '\'' || c == '"') {
			lx->i++;
			lex_quote(lx, t, T_STR, M_LUA, I_NONE, (char)c, 1);
			return 1;
		}
		if (c == '[') {
			size_t lv = lua_long_open(lx, lx->i), be = 0, e;
			if (!lv)
				return 0;
			e = lua_long_close(lx, lx->i + lv + 1, lv, &be);
			t->kind = T_STR;
			t->mode = M_RAW;
			t->cs = lx->i + lv + 1;
			if (!e) {
				lx->err = 1;
				t->ce = lx->n;
				lx->i = lx->n;
				return 1;
			}
			t->ce = be;
			lx->i = e;
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

static const char *const punct_ops[] = {
	"...", "**=", "<=>", "->", "=>", "::", "?.", "..", "==",
	"!=",  "<=",  ">=",  "&&", "||", "|&", "<<", ">>", "=~",
	"!~",  "+=",  "-=",  ".=", "**", "//", "++", "--", NULL,
};

static void lex_punct(struct lex *lx, struct tok *t, int c)
{
	size_t i = lx->i;
	enum code_lang L = lx->lang;

	t->kind = T_PUNCT;
	for (const char *const *o = punct_ops; *o; o++) {
		size_t k;
		if ((*o)[0] != c || !starts(lx, i, *o))
			continue;
		k = strlen(*o);
		if (!strcmp(*o, "?.") &&
		    (L != CODE_NODE || is_digit(ch(lx, i + 2))))
			continue;
		if (!strcmp(*o, "|&") && L != CODE_AWK)
			continue;
		memcpy(t->op, *o, k);
		lx->i = i + k;
		t->cs = i;
		t->ce = lx->i;
		return;
	}
	t->op[0] = (char)c;
	t->cs = i;
	lx->i = i + 1;
	t->ce = lx->i;
	if (c == '(' || c == '[' || c == '{') {
		if (++lx->depth > CS_MAX_NEST)
			lx->deep = 1;
		if (c == '{' && lx->nframes)
			lx->fr[lx->nframes - 1].brace++;
	} else if (c == ')' || c == ']' || c == '}') {
		if (lx->depth)
			lx->depth--;
		if (c == '}' && lx->nframes) {
			struct frame *f = &lx->fr[lx->nframes - 1];
			if (f->brace == 0) {
				struct frame g = *f;
				lx->nframes--;
				t->flags |= TF_CONT | TF_DYN;
				lex_body(lx, t, &g);
				return;
			}
			f->brace--;
		}
	}
}

static void lex_number(struct lex *lx, struct tok *t)
{
	size_t j = lx->i;

	while (id_char(ch(lx, j)))
		j++;
	if (ch(lx, j) == '.' && is_digit(ch(lx, j + 1))) {
		j++;
		while (id_char(ch(lx, j)))
			j++;
	}
	t->kind = T_NUM;
	t->cs = lx->i;
	t->ce = j;
	lx->i = j;
}

static void lex_ident(struct lex *lx, struct tok *t)
{
	size_t ws = lx->i, j = ws;
	enum code_lang L = lx->lang;

	for (;;) {
		while (id_char(ch(lx, j)) ||
		       (L == CODE_NODE && ch(lx, j) == '$'))
			j++;
		if ((L == CODE_PERL || L == CODE_RUBY) && ch(lx, j) == ':' &&
		    ch(lx, j + 1) == ':' && id_start(ch(lx, j + 2))) {
			j += 2;
			continue;
		}
		break;
	}
	if (L == CODE_PYTHON && j - ws <= 2 &&
	    (ch(lx, j) == '\'' || ch(lx, j) == '"')) {
		int raw = 0, bytes = 0, fstr = 0, okp = 1;
		for (size_t k = ws; k < j; k++) {
			switch (lower((unsigned char)lx->s[k])) {
			case 'r':
				raw = 1;
				break;
			case 'b':
				bytes = 1;
				break;
			case 'f':
			case 't':
				fstr = 1;
				break;
			case 'u':
				break;
			default:
				okp = 0;
			}
		}
		if (okp) {
			lex_py_string(lx, t, j, raw, bytes, fstr);
			return;
		}
	}
	if (L == CODE_PERL && lex_perl_quote(lx, t, ws, j))
		return;
	if (L == CODE_PERL && (eqw(lx->s + ws, j - ws, "__END__") ||
			       eqw(lx->s + ws, j - ws, "__DATA__"))) {
		lx->i = lx->n;
		t->kind = T_EOF;
		return;
	}
	t->kind = T_IDENT;
	t->cs = ws;
	t->ce = j;
	lx->i = j;
}

/* Produces the next token; T_EOF at the end or after an unreadable part. */
static void lex_next(struct lex *lx, struct tok *t)
{
	int c;

	memset(t, 0, sizeof(*t));
	if (!lx->err)
		lex_skip(lx, t);
	if (lx->err || lx->i >= lx->n) {
		/* The end inside an interpolated expression: unterminated. */
		if (lx->nframes)
			lx->err = 1;
		t->kind = T_EOF;
		t->s = t->e = lx->n;
		return;
	}
	t->s = lx->i;
	c = ch(lx, lx->i);
	if (!lex_lang(lx, t, c)) {
		if (is_digit(c) || (c == '.' && is_digit(ch(lx, lx->i + 1)) &&
				    !lex_after_value(lx)))
			lex_number(lx, t);
		else if (id_start(c) || (lx->lang == CODE_NODE && c == '$'))
			lex_ident(lx, t);
		else
			lex_punct(lx, t, c);
	}
	if (lx->err) {
		t->kind = T_EOF;
		t->s = t->e = lx->n;
		lx->i = lx->n;
		return;
	}
	t->e = lx->i;
	lx->pk = t->kind;
	memcpy(lx->pop, t->op, sizeof(lx->pop));
	lx->pkw = t->kind == T_IDENT &&
		  lex_kw_regex(lx->lang, lx->s + t->cs, t->ce - t->cs);
}

/* ---- decoded text -------------------------------------------------------- */

/* Text decoded into the arena, with the places where a dynamic part (an
 * interpolated variable, a non-literal operand) was left out. */
struct text {
	size_t off, n;
	size_t dyn[CS_MAX_DYN];
	unsigned ndyn;
	unsigned char over; /* more dynamic parts than dyn[] holds */
	unsigned char guess; /* read through a variable: likely, not certain */
};

static void text_dyn(struct text *x)
{
	if (x->ndyn && x->dyn[x->ndyn - 1] == x->n)
		return;
	if (x->ndyn < CS_MAX_DYN)
		x->dyn[x->ndyn++] = x->n;
	else
		x->over = 1;
}

static int text_is_dyn(const struct text *x)
{
	return x->ndyn || x->over;
}

/* A decoder writing at most cap bytes (a body never decodes longer than it
 * is written), applying perl's \U \L \u \l case changes. */
struct dec {
	char *o;
	size_t n, cap;
	struct text *x; /* where dynamic parts are noted, at x->n + n */
	unsigned char up, low, up1, low1;
};

static void dec_put(struct dec *d, int c)
{
	if (d->n >= d->cap)
		return;
	if (d->up1 || d->low1) {
		c = d->up1 ? (c >= 'a' && c <= 'z' ? c - 32 : c) : lower(c);
		d->up1 = d->low1 = 0;
	} else if (d->up) {
		c = c >= 'a' && c <= 'z' ? c - 32 : c;
	} else if (d->low) {
		c = lower(c);
	}
	d->o[d->n++] = (char)c;
}

/* A decoded escape's code point as UTF-8; '?' for one UTF-8 cannot hold
 * (a surrogate, past U+10FFFF). */
static void dec_cp(struct dec *d, uint32_t cp)
{
	char b[4];
	size_t n = text_utf8_encode(cp, b);

	if (n == 0)
		dec_put(d, '?');
	for (size_t i = 0; i < n; i++)
		dec_put(d, (unsigned char)b[i]);
}

static void dec_dyn(struct dec *d)
{
	if (d->x) {
		size_t keep = d->x->n;
		d->x->n += d->n;
		text_dyn(d->x);
		d->x->n = keep;
	}
}

/* Reads up to maxd hex digits at s[*i..e). */
static uint32_t read_hex(const char *s, size_t *i, size_t e, unsigned maxd,
			 unsigned *nd)
{
	uint32_t v = 0;

	*nd = 0;
	while (*i < e && *nd < maxd &&
	       text_hex_value((unsigned char)s[*i]) >= 0) {
		if (v < 0x1000000)
			v = v * 16 +
			    (uint32_t)text_hex_value((unsigned char)s[*i]);
		(*i)++;
		(*nd)++;
	}
	return v;
}

/* \x{…}, \u{…}: the braces at s[i] == '{'; returns the index past '}'. */
static size_t read_braced(struct dec *d, const char *s, size_t i, size_t e,
			  int many)
{
	size_t j = i + 1;
	unsigned nd;

	for (;;) {
		while (j < e && s[j] == ' ')
			j++;
		if (j >= e || s[j] == '}')
			break;
		size_t k = j;
		uint32_t v = read_hex(s, &j, e, 16, &nd);
		if (!nd) {
			j = k + 1;
			continue;
		}
		while (j < e && text_hex_value((unsigned char)s[j]) >= 0)
			j++;
		dec_cp(d, v);
		if (!many)
			while (j < e && s[j] != '}')
				j++;
	}
	return j < e ? j + 1 : e;
}

/* Skips an interpolated perl variable at s[i] ('$' or '@'). */
static size_t skip_perl_var(const char *s, size_t i, size_t e)
{
	size_t j = i + 1;

	while (j < e && s[j] == '$')
		j++;
	if (j < e && (id_start((unsigned char)s[j]) || s[j] == ':')) {
		while (j < e && (id_char((unsigned char)s[j]) ||
				 (s[j] == ':' && j + 1 < e && s[j + 1] == ':')))
			j += s[j] == ':' ? 2 : 1;
	} else if (j < e && is_digit((unsigned char)s[j])) {
		while (j < e && is_digit((unsigned char)s[j]))
			j++;
	} else if (j < e) {
		j++;
	}
	for (;;) {
		if (j + 2 < e && s[j] == '-' && s[j + 1] == '>' &&
		    (s[j + 2] == '[' || s[j + 2] == '{'))
			j += 2;
		if (j < e && (s[j] == '[' || s[j] == '{')) {
			char o = s[j], c = closing_of(o);
			size_t k = j + 1, lim = e - j > 256 ? j + 256 : e;
			unsigned depth = 0;
			/* A subscript is short; an unclosed one is text. */
			for (; k < lim; k++) {
				if (s[k] == o)
					depth++;
				else if (s[k] == c && depth-- == 0)
					break;
			}
			if (k >= lim)
				return j;
			j = k + 1;
			continue;
		}
		return j;
	}
}

static size_t skip_php_var(const char *s, size_t i, size_t e)
{
	size_t j = i + 1;

	while (j < e && id_char((unsigned char)s[j]))
		j++;
	if (j < e && s[j] == '[') {
		const char *c = memchr(s + j, ']', e - j > 256 ? 256 : e - j);
		if (c)
			j = (size_t)(c - s) + 1;
	} else if (j + 2 < e && s[j] == '-' && s[j + 1] == '>' &&
		   id_start((unsigned char)s[j + 2])) {
		j += 2;
		while (j < e && id_char((unsigned char)s[j]))
			j++;
	}
	return j;
}

/* One backslash escape at s[i] == '\\' in mode m; returns the index after
 * it. */
static size_t dec_escape(struct dec *d, const char *s, size_t i, size_t e,
			 const struct tok *t)
{
	int m = t->mode;
	int x = (unsigned char)s[i + 1];
	size_t j = i + 2;
	unsigned nd;
	uint32_t v;

	if (x == '\n' || (x == '\r' && j < e && s[j] == '\n')) {
		if (x == '\r')
			j++;
		if (m == M_PERL || m == M_LUA || m == M_PHP) {
			if (m == M_PHP)
				dec_put(d, '\\');
			dec_put(d, '\n');
		}
		return j;
	}
	switch (x) {
	case 'n':
		dec_put(d, '\n');
		return j;
	case 't':
		dec_put(d, '\t');
		return j;
	case 'r':
		dec_put(d, '\r');
		return j;
	case 'f':
		dec_put(d, '\f');
		return j;
	case 'v':
		if (m == M_PERL)
			break;
		dec_put(d, '\v');
		return j;
	case 'a':
		if (m == M_JS || m == M_PHP)
			break;
		dec_put(d, '\a');
		return j;
	case 'b':
		if (m == M_PHP)
			break;
		dec_put(d, '\b');
		return j;
	case 'e':
		if (m == M_PERL || m == M_RUBY || m == M_PHP) {
			dec_put(d, 0x1b);
			return j;
		}
		break;
	case 's':
		if (m == M_RUBY) {
			dec_put(d, ' ');
			return j;
		}
		break;
	case 'z':
		if (m == M_LUA) {
			while (j < e && is_space((unsigned char)s[j]))
				j++;
			return j;
		}
		break;
	case 'x':
		if ((m == M_PERL) && j < e && s[j] == '{')
			return read_braced(d, s, j, e, 0);
		v = read_hex(s, &j, e, 2, &nd);
		if (nd == 0 && m != M_PERL)
			break;
		if (m == M_PY || m == M_PYB || m == M_JS || m == M_LUA ||
		    m == M_AWK)
			dec_put(d, (int)(v & 0xFF));
		else
			dec_cp(d, v);
		return j;
	case 'u':
		if (m == M_PERL) {
			d->up1 = 1;
			return j;
		}
		if (m == M_PYB || m == M_AWK)
			break;
		if ((m == M_JS || m == M_RUBY || m == M_PHP || m == M_LUA) &&
		    j < e && s[j] == '{')
			return read_braced(d, s, j, e, m == M_RUBY);
		if (m == M_PHP || m == M_LUA)
			break;
		v = read_hex(s, &j, e, 4, &nd);
		if (nd != 4)
			break;
		dec_cp(d, v);
		return j;
	case 'U':
		if (m == M_PERL) {
			d->up = 1;
			d->low = 0;
			return j;
		}
		if (m != M_PY)
			break;
		v = read_hex(s, &j, e, 8, &nd);
		if (nd != 8)
			break;
		dec_cp(d, v);
		return j;
	case 'l':
		if (m == M_PERL) {
			d->low1 = 1;
			return j;
		}
		break;
	case 'L':
		if (m == M_PERL) {
			d->low = 1;
			d->up = 0;
			return j;
		}
		break;
	case 'E':
	case 'Q':
		if (m == M_PERL) {
			d->up = d->low = 0;
			return j;
		}
		break;
	case 'N':
		if (m == M_PERL && j + 2 < e && s[j] == '{' &&
		    s[j + 1] == 'U' && s[j + 2] == '+') {
			size_t k = j + 3;
			v = read_hex(s, &k, e, 8, &nd);
			if (nd && k < e && s[k] == '}') {
				dec_cp(d, v);
				return k + 1;
			}
		}
		break;
	case 'c':
		if ((m == M_PERL || m == M_RUBY) && j < e) {
			dec_put(d, (unsigned char)s[j] & 0x1f);
			return j + 1;
		}
		break;
	default:
		break;
	}
	if (x >= '0' && x <= '9') {
		if (m == M_LUA) {
			v = 0;
			j = i + 1;
			for (nd = 0;
			     nd < 3 && j < e && is_digit((unsigned char)s[j]);
			     nd++)
				v = v * 10 + (uint32_t)(s[j++] - '0');
			dec_put(d, (int)(v & 0xFF));
			return j;
		}
		if (x <= '7' && m != M_JS) {
			v = 0;
			j = i + 1;
			for (nd = 0;
			     nd < 3 && j < e && s[j] >= '0' && s[j] <= '7';
			     nd++)
				v = v * 8 + (uint32_t)(s[j++] - '0');
			if (m == M_PY || m == M_PERL || m == M_RUBY)
				dec_cp(d, v);
			else
				dec_put(d, (int)(v & 0xFF));
			return j;
		}
		if (m == M_JS && x == '0' &&
		    !(j < e && is_digit((unsigned char)s[j]))) {
			dec_put(d, 0);
			return j;
		}
		if (m == M_JS && x <= '7') {
			v = 0;
			j = i + 1;
			for (nd = 0;
			     nd < 3 && j < e && s[j] >= '0' && s[j] <= '7';
			     nd++)
				v = v * 8 + (uint32_t)(s[j++] - '0');
			dec_put(d, (int)(v & 0xFF));
			return j;
		}
	}
	if (x == '\\' || x == '"' || (x == '\'' && m != M_PHP)) {
		dec_put(d, x);
		return j;
	}
	/* Not an escape this language knows. */
	if (m == M_PY || m == M_PYB || m == M_LUA ||
	    (m == M_PHP && x != '\\' && x != '$' && x != '"')) {
		dec_put(d, '\\');
		dec_put(d, x);
		return j;
	}
	dec_put(d, x);
	return j;
}

/* Decodes the body of t (from the code s) into d. */
static void dec_body(struct dec *d, const char *s, const struct tok *t)
{
	size_t i = t->cs, e = t->ce;
	int fstr = (t->flags & TF_FSTR) != 0;

	switch (t->mode) {
	case M_RAW:
	case M_NONE:
		for (; i < e; i++)
			dec_put(d, (unsigned char)s[i]);
		return;
	case M_PYRAW:
		for (; i < e; i++) {
			if (fstr && (s[i] == '{' || s[i] == '}') && i + 1 < e &&
			    s[i + 1] == s[i])
				i++;
			dec_put(d, (unsigned char)s[i]);
		}
		return;
	case M_SQ:
		for (; i < e; i++) {
			if (s[i] == '\\' && i + 1 < e &&
			    (s[i + 1] == '\\' || s[i + 1] == t->open ||
			     s[i + 1] == t->close))
				i++;
			dec_put(d, (unsigned char)s[i]);
		}
		return;
	default:
		break;
	}
	while (i < e) {
		int c = (unsigned char)s[i],
		    n1 = i + 1 < e ? (unsigned char)s[i + 1] : -1;
		if (c == '\\' && i + 1 < e) {
			i = dec_escape(d, s, i, e, t);
			continue;
		}
		if (t->mode == M_PERL &&
		    ((c == '$' &&
		      (id_char(n1) || n1 == ':' || n1 == '$' || n1 == '&')) ||
		     (c == '@' && (id_start(n1) || n1 == '$' || n1 == ':')))) {
			dec_dyn(d);
			i = skip_perl_var(s, i, e);
			continue;
		}
		if (t->mode == M_PHP && c == '$' && id_start(n1)) {
			dec_dyn(d);
			i = skip_php_var(s, i, e);
			continue;
		}
		if (t->mode == M_RUBY && c == '#' && (n1 == '@' || n1 == '$')) {
			size_t j = i + 2;
			if (j < e && s[j] == '@')
				j++;
			if (j < e && id_start((unsigned char)s[j])) {
				while (j < e && id_char((unsigned char)s[j]))
					j++;
			} else if (j < e) {
				j++;
			}
			dec_dyn(d);
			i = j;
			continue;
		}
		if (fstr && (c == '{' || c == '}') && n1 == c)
			i++;
		dec_put(d, c);
		i++;
	}
}

/* ---- the scan ------------------------------------------------------------ */

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

static void scan_unit(struct scan *sc, enum code_lang lang, const char *s,
		      size_t n);

/* The k-th token before the current one (1: the one just before). */
static const struct tok *rp(const struct unit *u, unsigned k)
{
	if (k == 0 || k > u->ntok || k > CS_RING)
		return NULL;
	return &u->ring[(u->ntok - k) % CS_RING];
}

static int is_op(const struct tok *t, const char *op)
{
	return t && t->kind == T_PUNCT && !strcmp(t->op, op);
}

static int is_word(const struct unit *u, const struct tok *t, const char *w)
{
	return t && t->kind == T_IDENT && eqw(u->s + t->cs, t->ce - t->cs, w);
}

static void flag(struct unit *u, unsigned f)
{
	u->sc->flags |= f;
}

/* The next token of a look-ahead copy of the lexer, charged to the scan's
 * look-ahead budget; T_EOF once it is spent. */
static void look(struct scan *sc, struct lex *lx, struct tok *t)
{
	if (!sc->look_left) {
		memset(t, 0, sizeof(*t));
		t->kind = T_EOF;
		t->s = t->e = lx->n;
		sc->look_out = 1;
		return;
	}
	sc->look_left--;
	lex_next(lx, t);
}

/* ---- the arena ----------------------------------------------------------- */

static char *ar_room(struct scan *sc, size_t need)
{
	if (need > sc->acap - sc->atop) {
		sc->ar_full = 1;
		return NULL;
	}
	return sc->ar + sc->atop;
}

static int ar_put(struct scan *sc, const char *p, size_t n)
{
	char *o = ar_room(sc, n);

	if (!o)
		return -1;
	if (n)
		memmove(o, p, n);
	sc->atop += n;
	return 0;
}

static int ar_puts(struct scan *sc, const char *s)
{
	return ar_put(sc, s, strlen(s));
}

/* Quotes the bytes at [start, atop) in place as one shell word: '…', with
 * each ' written '\''. */
static int ar_quote_tail(struct scan *sc, size_t start)
{
	size_t n = sc->atop - start, q = 0, need, w;
	char *b;

	for (size_t i = 0; i < n; i++)
		q += sc->ar[start + i] == '\'';
	if (q > (SIZE_MAX - 2) / 3 || n > SIZE_MAX - 2 - 3 * q)
		return -1;
	need = n + 2 + 3 * q;
	if (!ar_room(sc, need - n))
		return -1;
	b = sc->ar + start;
	w = need;
	b[--w] = '\'';
	for (size_t r = n; r-- > 0;) {
		if (b[r] == '\'') {
			b[--w] = '\'';
			b[--w] = '\'';
			b[--w] = '\\';
			b[--w] = '\'';
		} else {
			b[--w] = b[r];
		}
	}
	b[--w] = '\'';
	sc->atop = start + need;
	return 0;
}

enum { Q_PLAIN, Q_TILDE, Q_GLOB };

static int glob_safe(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)p[i];
		if (!(id_char(c) || strchr("./~*?[]-+,@%:=", c)) || c == 0)
			return 0;
	}
	return n > 0;
}

/* Appends p[0..n) as one shell word. Q_TILDE keeps a leading ~ or ~user
 * unquoted (expanduser), Q_GLOB keeps a harmless-looking pattern unquoted
 * (glob()). */
static int ar_word(struct scan *sc, const char *p, size_t n, int qmode)
{
	size_t start;

	if (qmode == Q_GLOB && glob_safe(p, n))
		return ar_put(sc, p, n);
	if (qmode == Q_TILDE && n && p[0] == '~') {
		size_t k = 1;
		while (k < n && (id_char((unsigned char)p[k]) || p[k] == '.' ||
				 p[k] == '-'))
			k++;
		if (k == n || p[k] == '/') {
			if (k < n)
				k++;
			if (ar_put(sc, p, k))
				return -1;
			p += k;
			n -= k;
			if (!n)
				return 0;
		}
	}
	start = sc->atop;
	if (ar_put(sc, p, n))
		return -1;
	return ar_quote_tail(sc, start);
}

/* Decodes the body of t, a token of code, at the arena's top, which must
 * be the end of x. */
static int text_add_from(struct scan *sc, const char *code, const struct tok *t,
			 struct text *x)
{
	size_t raw = t->ce > t->cs ? t->ce - t->cs : 0;
	struct dec d;
	char *o = ar_room(sc, raw);

	if (!o)
		return -1;
	memset(&d, 0, sizeof(d));
	d.o = o;
	d.cap = raw;
	d.x = x;
	dec_body(&d, code, t);
	sc->atop += d.n;
	x->n += d.n;
	return 0;
}

/* Decodes the body of t at the arena's top, which must be the end of x. */
static int text_add(struct unit *u, const struct tok *t, struct text *x)
{
	struct scan *sc = u->sc;
	size_t raw = t->ce > t->cs ? t->ce - t->cs : 0;
	struct dec d;
	char *o = ar_room(sc, raw);

	if (!o)
		return -1;
	memset(&d, 0, sizeof(d));
	d.o = o;
	d.cap = raw;
	d.x = x;
	dec_body(&d, u->s, t);
	sc->atop += d.n;
	x->n += d.n;
	if (t->flags & TF_DYN && t->mode == M_RUBY && !(t->flags & TF_OPEN))
		text_dyn(x);
	return 0;
}

/* Decodes a short body (a module or function name) into buf. */
static size_t small_decode(const struct unit *u, const struct tok *t, char *buf,
			   size_t cap)
{
	struct dec d;

	if (t->ce - t->cs > cap)
		return 0;
	memset(&d, 0, sizeof(d));
	d.o = buf;
	d.cap = cap;
	dec_body(&d, u->s, t);
	return d.n;
}

/* ---- what strings say ---------------------------------------------------- */

static int path_sep(int c)
{
	return c == '/' || c == '\\' || is_space(c) || c == '\'' || c == '"' ||
	       c == '=' || c == ':' || c == ',' || c == ';' || c == '(' ||
	       c == ')' || c == '<' || c == '>' || c == '|' || c == '&' ||
	       c == '`' || c == '$' || c == '{' || c == '}';
}

static int comp_starts(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(p, w, k) == 0;
}

static int comp_ends(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(p + n - k, w, k) == 0;
}

/* The text names a credential file or directory (~/.ssh, id_rsa, .env,
 * .aws/credentials, /etc/shadow …), judged per path component. */
static int names_secret(const char *p, size_t n)
{
	static const char *const dirs[] = {
		".ssh",	   ".aws",    ".gnupg",	 ".kube",
		".docker", ".netrc",  "_netrc",	 ".git-credentials",
		".npmrc",  ".pypirc", ".pgpass", ".env",
		".my.cnf", ".boto",   ".s3cfg",	 ".vault-token",
		NULL,
	};
	static const char *const keys[] = {
		"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", NULL,
	};

	if (memmem(p, n, "/etc/shadow", 11) ||
	    memmem(p, n, "/etc/gshadow", 12) ||
	    memmem(p, n, "/etc/master.passwd", 18))
		return 1;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !path_sep((unsigned char)p[j]))
			j++;
		const char *c = p + i;
		size_t k = j - i;
		if (k) {
			if (in_list(c, k, dirs))
				return 1;
			if (comp_starts(c, k, ".env.") &&
			    !comp_ends(c, k, ".example") &&
			    !comp_ends(c, k, ".sample") &&
			    !comp_ends(c, k, ".template") &&
			    !comp_ends(c, k, ".dist"))
				return 1;
			for (const char *const *w = keys; *w; w++)
				if (comp_starts(c, k, *w) &&
				    !comp_ends(c, k, ".pub"))
					return 1;
		}
		i = j + 1;
	}
	return 0;
}

static int is_write_mode(const char *p, size_t n)
{
	int w = 0;

	if (n == 0 || n > 6)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!strchr("rwaxbtUce+", p[i]) || p[i] == 0)
			return 0;
		if (strchr("wax+", p[i]))
			w = 1;
		if (p[i] == 'c')
			w = 1;
	}
	return w;
}

/* Decoding formats that, with an exec or eval, hide what runs. */
static int is_decode_word(enum code_lang L, const char *p, size_t n)
{
	static const char *const py[] = {
		"hex",	     "base64",	   "rot13",    "rot_13",
		"zlib",	     "bz2",	   "uu",       "base64_codec",
		"hex_codec", "zlib_codec", "uu_codec", "bz2_codec",
		"base_64",   NULL,
	};
	static const char *const js[] = { "base64", "hex", "base64url", NULL };

	if (L == CODE_PYTHON)
		return in_list(p, n, py);
	if (L == CODE_NODE)
		return in_list(p, n, js);
	/* pack/unpack templates: H* h* (hex), u (uuencode), m (base64),
	 * c* C* U* (character codes). */
	return n > 0 && strchr("HhumcCU", p[0]) && p[0] != 0;
}

/* A shell (any kind the wrapper table knows) or a multi-call binary that
 * holds one (busybox sh), by the last component of a path. */
static int is_shell_name(const char *p, size_t n)
{
	const char *b = p;
	const struct wrapper *w;

	for (size_t i = 0; i < n; i++)
		if (p[i] == '/' || p[i] == '\\')
			b = p + i + 1;
	n = (size_t)(p + n - b);
	if (wrappers_is_any_shell(b, n))
		return 1;
	w = wrappers_find(b, n, NULL, 0);
	return w && (w->flags & WF_MULTICALL);
}

/* The command's first word is a shell (sh -i, /bin/bash, 'sh'). */
static int runs_shell(const char *p, size_t n)
{
	size_t i = 0, j;

	while (i < n &&
	       (is_space((unsigned char)p[i]) || p[i] == '\'' || p[i] == '"'))
		i++;
	j = i;
	while (j < n && !is_space((unsigned char)p[j]) && p[j] != '\'' &&
	       p[j] != '"' && p[j] != ';' && p[j] != '|' && p[j] != '&' &&
	       p[j] != '<' && p[j] != '>')
		j++;
	return j > i && is_shell_name(p + i, j - i);
}

/* A shell with no command and no script (sh, /bin/sh -i <&3): it runs
 * whatever it reads, which the code decides at run time. */
static int bare_shell(const char *p, size_t n)
{
	size_t i = 0;
	int first = 1;

	if (!runs_shell(p, n))
		return 0;
	while (i < n) {
		size_t j;
		while (i < n && is_space((unsigned char)p[i]))
			i++;
		if (i >= n)
			break;
		j = i;
		while (j < n && !is_space((unsigned char)p[j]))
			j++;
		if (!first) {
			const char *w = p + i;
			size_t k = j - i;
			if (k >= 2 && w[0] == '\'' && w[k - 1] == '\'') {
				w++;
				k -= 2;
			}
			if (k && (w[0] == '<' || w[0] == '>' ||
				  (is_digit((unsigned char)w[0]) && k > 1 &&
				   (w[1] == '>' || w[1] == '<')))) {
				/* a redirection */
			} else if (k && w[0] == '-' && !memchr(w, 'c', k)) {
				/* an option: -i, -l, -s, --login */
			} else {
				return 0;
			}
		}
		first = 0;
		i = j;
	}
	return 1;
}

/* ---- handing commands back ----------------------------------------------- */

static void dyn_exec(struct unit *u);

static void hand_back(struct unit *u, const char *p, size_t n)
{
	while (n && is_space((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n && is_space((unsigned char)p[n - 1]))
		n--;
	if (!n)
		return;
	if (runs_shell(p, n))
		u->sc->shell_exec = 1;
	if (bare_shell(p, n))
		dyn_exec(u);
	if (u->sc->cb)
		u->sc->cb(u->sc->ud, p, n);
}

static void dyn_exec(struct unit *u)
{
	flag(u, CODE_F_EXEC | CODE_F_EXEC_DYNAMIC);
	u->sc->exec = 1;
	u->sc->dyn_exec = 1;
}

/* Command separators outside quotes in p[a..b): where the first one ends
 * and where the last one starts. */
static int run_seps(const char *p, size_t a, size_t b, size_t *first_end,
		    size_t *last_start)
{
	int found = 0;
	char q = 0;

	for (size_t i = a; i < b; i++) {
		char c = p[i];
		if (q == '\'') {
			if (c == '\'')
				q = 0;
			continue;
		}
		if (c == '\\') {
			i++;
			continue;
		}
		if (q == '"') {
			if (c == '"')
				q = 0;
			continue;
		}
		if (c == '\'' || c == '"') {
			q = c;
			continue;
		}
		if (c == '&' &&
		    ((i > a && (p[i - 1] == '>' || p[i - 1] == '<')) ||
		     (i + 1 < b && p[i + 1] == '>')))
			continue;
		if (c == ';' || c == '\n' || c == '|' || c == '&') {
			size_t en = i + 1;
			if (en < b && p[en] == c)
				en++;
			if (!found)
				*first_end = en;
			*last_start = i;
			found = 1;
			i = en - 1;
		}
	}
	return found;
}

/* A command line with dynamic parts: hands back the complete commands its
 * literal runs hold — before the first dynamic part, the text up to its
 * last separator; after the last one, the text from its first separator;
 * between two, the text between the first and the last separator. */
static void emit_pieces(struct unit *u, const char *p, size_t n,
			const struct text *x)
{
	size_t nd = x->ndyn;
	size_t a = 0;

	for (size_t k = 0; k <= nd; k++) {
		size_t b = k < nd ? x->dyn[k] : n;
		int first = k == 0, last = k == nd;
		size_t fe = 0, ls = 0, s, e;
		int has;

		if (last && x->over)
			break;
		if (b > n)
			b = n;
		if (a >= b) {
			a = b;
			continue;
		}
		has = run_seps(p, a, b, &fe, &ls);
		if (first && last) {
			s = a;
			e = b;
		} else if (first) {
			if (!has)
				goto next;
			s = a;
			e = ls;
		} else if (last) {
			if (!has)
				goto next;
			s = fe;
			e = b;
		} else {
			if (!has || fe > ls)
				goto next;
			s = fe;
			e = ls;
		}
		if (s < e)
			hand_back(u, p + s, e - s);
next:
		a = b;
	}
}

static void emit_text(struct unit *u, const struct text *x, int dyn)
{
	const char *p = u->sc->ar + x->off;

	if (!dyn && !text_is_dyn(x)) {
		hand_back(u, p, x->n);
		if (x->guess)
			dyn_exec(u);
		return;
	}
	dyn_exec(u);
	if (text_is_dyn(x))
		emit_pieces(u, p, x->n, x);
}

/* ---- the tables ---------------------------------------------------------- */

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

struct sink {
	unsigned short langs;
	const char *mod; /* canonical module; "" builtin; "*" any receiver */
	const char *names; /* '|'-separated */
	unsigned char kind, shape, hint;
};

/* clang-format off */
static const struct sink sink_tab[] = {
	/* python */
	{ L_PY, "os",
	  "system|popen|popen2|popen3|popen4|startfile",
	  K_EXEC, S_CMD1, 0 },
	{ L_PY, "os", "execl|execle|execlp|execlpe", K_EXEC, S_EXECL, 0 },
	{ L_PY, "os",
	  "execv|execve|execvp|execvpe|posix_spawn|posix_spawnp",
	  K_EXEC, S_EXECV, 0 },
	{ L_PY, "os", "spawnl|spawnle|spawnlp|spawnlpe", K_EXEC, S_SPAWNL, 0 },
	{ L_PY, "os", "spawnv|spawnve|spawnvp|spawnvpe", K_EXEC, S_SPAWNV, 0 },
	{ L_PY, "os", "remove|unlink", K_DEL, D_RM, 0 },
	{ L_PY, "os", "rmdir|removedirs", K_DEL, D_RMDIR, 0 },
	{ L_PY, "os", "kill|killpg", K_KILL, 0, 0 },
	{ L_PY, "os", "fork|forkpty", K_FORK, 0, 0 },
	{ L_PY, "os", "dup2", K_DUP2, 0, 0 },
	{ L_PY, "os", "environ|environb", K_ENV_REF, 0, 0 },
	{ L_PY, "os", "rename|replace|truncate", K_WRITE, 0, 0 },
	{ L_PY, "subprocess",
	  "run|call|check_call|check_output|Popen|getoutput|getstatusoutput",
	  K_EXEC, S_CMD1, 0 },
	{ L_PY, "commands",
	  "getoutput|getstatusoutput|getstatus",
	  K_EXEC, S_CMD1, 0 },
	{ L_PY, "pty", "spawn", K_EXEC, S_CMD1, H_PTY },
	{ L_PY, "pty", "fork", K_FORK, 0, 0 },
	{ L_PY, "shutil", "rmtree", K_DEL, D_RMRF, 0 },
	{ L_PY, "shutil", "move|copy|copyfile|copy2|copytree", K_WRITE, 0, 0 },
	{ L_PY, "socket", "create_connection", K_SOCK_CONN, 0, 0 },
	{ L_PY, "signal", "pthread_kill", K_KILL, 0, 0 },
	{ L_PY, "base64",
	  "b64decode|decodebytes|decodestring|standard_b64decode|"
	  "urlsafe_b64decode|b32decode|b16decode|a85decode|b85decode",
	  K_DECODE, 0, 0 },
	{ L_PY, "codecs", "decode", K_DECODE, 0, 0 },
	{ L_PY, "binascii",
	  "unhexlify|a2b_base64|a2b_hex|a2b_uu|a2b_qp",
	  K_DECODE, 0, 0 },
	{ L_PY, "zlib", "decompress", K_DECODE, 0, 0 },
	{ L_PY, "marshal", "loads", K_DECODE, 0, 0 },
	{ L_PY, "pickle", "loads", K_EVAL, E_ALWAYS, 0 },
	{ L_PY, "", "eval|exec|compile", K_EVAL, E_CODE, 0 },
	{ L_PY, "", "execfile", K_EVAL, E_ALWAYS, 0 },
	{ L_PY, "", "open", K_OPEN, 0, 0 },
	{ L_PY, "", "chr", K_CHR, 0, 0 },
	{ L_PY, "", "getattr", K_GETATTR, 0, 0 },
	{ L_PY, "*", "fromhex", K_DECODE, 0, 0 },
	{ L_PY, "*", "decode", K_DECODE_ARG, 0, 0 },
	{ L_PY, "*", "unlink", K_PATHDEL, D_RM, 0 },
	{ L_PY, "*", "rmdir", K_PATHDEL, D_RMDIR, 0 },
	{ L_PY, "*", "write_text|write_bytes", K_WRITE, 0, 0 },
	{ L_PY, "*", "fileno", K_FDHINT, 0, 0 },
	{ L_PY | L_JS | L_PL | L_RB | L_LUA, "*",
	  "connect|connect_ex",
	  K_CONNECT, 0, 0 },
	/* node */
	{ L_JS, "child_process", "exec|execSync", K_EXEC, S_CMD1, 0 },
	{ L_JS, "child_process",
	  "spawn|spawnSync|execFile|execFileSync",
	  K_EXEC, S_PROG_LIST, 0 },
	{ L_JS, "child_process", "fork", K_FORK, S_NOCMD, 0 },
	{ L_JS, "*|", "execSync", K_EXEC, S_CMD1, 0 },
	{ L_JS, "*|", "execFileSync|spawnSync", K_EXEC, S_PROG_LIST, 0 },
	{ L_JS, "cluster", "fork", K_FORK, 0, 0 },
	{ L_JS, "Bun", "spawn|spawnSync", K_EXEC, S_OBJCMD, 0 },
	{ L_JS, "Deno", "run", K_EXEC, S_OBJCMD, 0 },
	{ L_JS, "Deno", "Command", K_EXEC, S_PROG_OBJARGS, 0 },
	{ L_JS, "execa|", "execa|execaSync|", K_EXEC, S_PROG_LIST, 0 },
	{ L_JS, "execa|", "execaCommand|execaCommandSync", K_EXEC, S_CMD1, 0 },
	{ L_JS, "shelljs", "exec", K_EXEC, S_CMD1, 0 },
	{ L_JS, "fs", "rm|rmSync", K_DEL, D_NODE_RM, 0 },
	{ L_JS, "fs", "rmdir|rmdirSync", K_DEL, D_NODE_RMDIR, 0 },
	{ L_JS, "fs", "unlink|unlinkSync", K_DEL, D_RM, 0 },
	{ L_JS, "fs",
	  "remove|removeSync|emptyDir|emptyDirSync",
	  K_DEL, D_RMRF, 0 },
	{ L_JS, "fs",
	  "writeFile|writeFileSync|appendFile|appendFileSync|"
	  "createWriteStream|copyFile|copyFileSync|rename|renameSync|cp|"
	  "cpSync|truncate|truncateSync|outputFile|outputFileSync|writeJson|"
	  "writeJsonSync|move|moveSync|symlink|symlinkSync",
	  K_WRITE, 0, 0 },
	{ L_JS, "", "rimraf|rimrafSync", K_DEL, D_RMRF, 0 },
	{ L_JS, "rimraf", "rimrafSync|sync|", K_DEL, D_RMRF, 0 },
	{ L_JS, "vm",
	  "runInNewContext|runInThisContext|runInContext|compileFunction|"
	  "Script",
	  K_EVAL, E_CODE, 0 },
	{ L_JS, "", "eval", K_EVAL, E_CODE, 0 },
	{ L_JS, "", "Function", K_EVAL, E_FUNC, 0 },
	{ L_JS, "", "setTimeout|setInterval", K_EVAL, E_TIMER, 0 },
	{ L_JS, "", "fetch|XMLHttpRequest|WebSocket|EventSource", K_NET, 0, 0 },
	{ L_JS, "", "atob|unescape", K_DECODE, 0, 0 },
	{ L_JS, "String", "fromCharCode|fromCodePoint", K_DECODE, 0, 0 },
	{ L_JS, "Buffer", "from", K_DECODE_ARG, 0, 0 },
	{ L_JS, "|*", "require", K_REQUIRE, 0, 0 },
	{ L_JS, "", "import", K_REQUIRE, 0, 0 },
	{ L_JS, "process", "kill", K_KILL, 0, 0 },
	{ L_JS, "process", "env", K_ENV_REF, 0, 0 },
	{ L_JS, "process", "binding|dlopen", K_EXEC, S_DYN, 0 },
	{ L_JS, "socket", "connect|createConnection", K_SOCK_CONN, 0, 0 },
	{ L_JS, "socket", "Socket", K_SOCK_MOD, 0, 0 },
	{ L_JS, "*", "pipe", K_FDHINT, 0, 0 },
	/* perl */
	{ L_PL, "", "system|exec", K_EXEC, S_ARGV, 0 },
	{ L_PL, "", "readpipe", K_EXEC, S_CMD1, 0 },
	{ L_PL, "", "open2", K_EXEC, S_SKIP2, 0 },
	{ L_PL, "", "open3", K_EXEC, S_SKIP3, 0 },
	{ L_PL, "", "open", K_PERLOPEN, 0, 0 },
	{ L_PL, "", "unlink", K_DEL, D_RM, 0 },
	{ L_PL, "", "rename", K_WRITE, 0, 0 },
	{ L_PL, "", "rmdir", K_DEL, D_RMDIR, 0 },
	{ L_PL, "|File::Path", "rmtree|remove_tree", K_DEL, D_RMRF, 0 },
	{ L_PL, "", "eval", K_EVAL, E_PERL, 0 },
	{ L_PL, "", "kill", K_KILL, 0, 0 },
	{ L_PL, "", "fork", K_FORK, 0, 0 },
	{ L_PL, "", "socket", K_SOCK_MOD, 0, 0 },
	{ L_PL, "", "connect", K_CONNECT, 0, 0 },
	{ L_PL, "", "decode_base64|decode_base64url", K_DECODE, 0, 0 },
	{ L_PL, "", "chr", K_CHR, 0, 0 },
	{ L_PL, "", "pack|unpack", K_DECODE_ARG, 0, 0 },
	{ L_PL, "|POSIX", "dup2", K_DUP2, 0, 0 },
	{ L_PL, "socket", "new", K_SOCK_CONN, 0, 0 },
	/* ruby */
	{ L_RB, "|Process", "system|exec|spawn", K_EXEC, S_ARGV, 0 },
	{ L_RB, "", "open", K_RUBYOPEN, 0, 0 },
	{ L_RB, "|*",
	  "eval|instance_eval|class_eval|module_eval",
	  K_EVAL, E_CODE, 0 },
	{ L_RB, "|Process", "fork", K_FORK, 0, 0 },
	{ L_RB, "|*", "send|public_send|__send__", K_SEND, SEND_CALL, 0 },
	{ L_RB, "|*", "method", K_SEND, SEND_REF, 0 },
	{ L_RB, "", "require", K_REQUIRE, 0, 0 },
	{ L_RB, "Open3",
	  "popen3|popen2|popen2e|capture2|capture2e|capture3|pipeline|"
	  "pipeline_r|pipeline_w|pipeline_rw|pipeline_start",
	  K_EXEC, S_ARGV, 0 },
	{ L_RB, "IO", "popen", K_EXEC, S_CMD1, 0 },
	{ L_RB, "IO", "write|binwrite", K_WRITE, 0, 0 },
	{ L_RB, "Process", "kill", K_KILL, 0, 0 },
	{ L_RB, "PTY", "spawn", K_EXEC, S_ARGV, H_PTY },
	{ L_RB, "FileUtils",
	  "rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree",
	  K_DEL, D_RMRF, 0 },
	{ L_RB, "FileUtils",
	  "rm|rm_f|remove|remove_file|safe_unlink",
	  K_DEL, D_RM, 0 },
	{ L_RB, "FileUtils", "rmdir", K_DEL, D_RMDIR, 0 },
	{ L_RB, "FileUtils",
	  "cp|mv|cp_r|copy|move|install|ln_s|ln_sf|touch",
	  K_WRITE, 0, 0 },
	{ L_RB, "File", "delete|unlink", K_DEL, D_RM, 0 },
	{ L_RB, "File", "write|binwrite", K_WRITE, 0, 0 },
	{ L_RB, "File", "open|new", K_OPEN, 0, 0 },
	{ L_RB, "Dir", "rmdir|delete|unlink", K_DEL, D_RMDIR, 0 },
	{ L_RB, "Base64",
	  "decode64|strict_decode64|urlsafe_decode64",
	  K_DECODE, 0, 0 },
	{ L_RB, "*", "unpack|unpack1|pack", K_DECODE_ARG, 0, 0 },
	{ L_RB, "*", "chr", K_CHR, 0, 0 },
	{ L_RB, "URI", "open", K_NET, 0, 0 },
	{ L_RB, "", "ENV", K_ENV_REF, 0, 0 },
	{ L_RB, "socket", "new|open|tcp", K_SOCK_CONN, 0, 0 },
	/* php: names are case-insensitive */
	{ L_PHP, "",
	  "system|exec|shell_exec|passthru|popen|proc_open|expect_popen",
	  K_EXEC, S_CMD1, 0 },
	{ L_PHP, "", "pcntl_exec", K_EXEC, S_PROG_LIST, 0 },
	{ L_PHP, "", "unlink", K_DEL, D_RM, 0 },
	{ L_PHP, "", "rmdir", K_DEL, D_RMDIR, 0 },
	{ L_PHP, "", "eval", K_EVAL, E_CODE, 0 },
	{ L_PHP, "", "assert", K_EVAL, E_ASSERT, 0 },
	{ L_PHP, "", "create_function", K_EVAL, E_ALWAYS, 0 },
	{ L_PHP, "", "preg_replace", K_PREG, 0, 0 },
	{ L_PHP, "", "posix_kill", K_KILL, 0, 0 },
	{ L_PHP, "", "pcntl_fork", K_FORK, 0, 0 },
	{ L_PHP, "",
	  "fsockopen|pfsockopen|stream_socket_client",
	  K_SOCK_CONN, 0, 0 },
	{ L_PHP, "", "socket_create", K_SOCK_MOD, 0, 0 },
	{ L_PHP, "", "socket_connect", K_CONNECT, 0, 0 },
	{ L_PHP, "",
	  "curl_init|curl_exec|curl_multi_exec|ftp_connect|ssh2_connect|"
	  "dns_get_record",
	  K_NET, 0, 0 },
	{ L_PHP, "",
	  "file_get_contents|fopen|file|readfile|copy|get_headers|"
	  "simplexml_load_file",
	  K_URLFILE, 0, 0 },
	{ L_PHP, "",
	  "file_put_contents|fwrite|fputs|rename|move_uploaded_file",
	  K_WRITE, 0, 0 },
	{ L_PHP, "",
	  "base64_decode|hex2bin|str_rot13|gzinflate|gzuncompress|gzdecode|"
	  "convert_uudecode|strrev",
	  K_DECODE, 0, 0 },
	{ L_PHP, "", "chr", K_CHR, 0, 0 },
	{ L_PHP, "", "pack", K_DECODE_ARG, 0, 0 },
	{ L_PHP, "", "getenv|phpinfo", K_ENV_CALL, 0, 0 },
	{ L_PHP, "",
	  "call_user_func|call_user_func_array|forward_static_call",
	  K_SEND, SEND_CALL, 0 },
	{ L_PHP, "",
	  "array_map|array_walk|array_filter|usort|uasort|"
	  "register_shutdown_function|register_tick_function|iterator_apply",
	  K_SEND, SEND_REF, 0 },
	/* awk */
	{ L_AWK, "", "system", K_EXEC, S_CMD1, 0 },
	{ L_AWK, "", "ENVIRON", K_ENV_REF, 0, 0 },
	/* lua */
	{ L_LUA, "os", "execute", K_EXEC, S_CMD1, 0 },
	{ L_LUA, "io", "popen", K_EXEC, S_CMD1, 0 },
	{ L_LUA, "os", "remove", K_DEL, D_RM, 0 },
	{ L_LUA, "os", "rename", K_WRITE, 0, 0 },
	{ L_LUA, "io", "open", K_OPEN, 0, 0 },
	{ L_LUA, "io", "output", K_WRITE, 0, 0 },
	{ L_LUA, "", "load|loadstring", K_EVAL, E_CODE, 0 },
	{ L_LUA, "", "dofile|loadfile", K_EVAL, E_ALWAYS, 0 },
	{ L_LUA, "", "require", K_REQUIRE, 0, 0 },
	{ L_LUA, "string", "char", K_DECODE, 0, 0 },
	{ L_LUA, "socket", "connect", K_SOCK_CONN, 0, 0 },
};
/* clang-format on */

/* Names (receivers, import names, require strings) of the modules the
 * table knows, mapped to one canonical name. "netlib": network only;
 * "socket": raw sockets. */
struct modname {
	unsigned short langs;
	const char *names;
	const char *canon;
};

/* clang-format off */
static const struct modname mod_tab[] = {
	{ L_PY, "os|posix|nt", "os" },
	{ L_PY, "subprocess", "subprocess" },
	{ L_PY, "commands", "commands" },
	{ L_PY, "pty", "pty" },
	{ L_PY, "shutil", "shutil" },
	{ L_PY, "socket", "socket" },
	{ L_PY, "base64", "base64" },
	{ L_PY, "codecs", "codecs" },
	{ L_PY, "binascii", "binascii" },
	{ L_PY, "zlib", "zlib" },
	{ L_PY, "marshal", "marshal" },
	{ L_PY, "signal", "signal" },
	{ L_PY, "pickle|cPickle|_pickle|dill", "pickle" },
	{ L_PY, "builtins|__builtins__|__builtin__", "" },
	{ L_PY,
	  "urllib|urllib2|urllib3|requests|httpx|aiohttp|http|ftplib|smtplib|"
	  "telnetlib|paramiko|pycurl|websocket|websockets|xmlrpc|poplib|"
	  "imaplib|nntplib|asyncssh|fabric|httplib|httplib2",
	  "netlib" },
	{ L_JS, "child_process", "child_process" },
	{ L_JS,
	  "fs|fsp|fse|fsPromises|fsExtra|promises|fs/promises|fs-extra|"
	  "graceful-fs",
	  "fs" },
	{ L_JS, "net|tls", "socket" },
	{ L_JS,
	  "http|https|http2|dgram|axios|got|undici|node-fetch|request|"
	  "superagent|ws|needle",
	  "netlib" },
	{ L_JS, "vm", "vm" },
	{ L_JS, "process", "process" },
	{ L_JS, "Bun", "Bun" },
	{ L_JS, "Deno", "Deno" },
	{ L_JS, "Buffer", "Buffer" },
	{ L_JS, "String", "String" },
	{ L_JS, "cluster", "cluster" },
	{ L_JS, "globalThis|global|window|self", "" },
	{ L_JS, "execa", "execa" },
	{ L_JS, "shelljs|shell", "shelljs" },
	{ L_JS, "rimraf", "rimraf" },
	{ L_PL, "CORE|CORE::GLOBAL|IPC::Open2|IPC::Open3|File::Path", "" },
	{ L_PL, "POSIX", "POSIX" },
	{ L_PL, "IO::Socket|Socket", "socket" },
	{ L_PL,
	  "LWP|HTTP::Tiny|HTTP::Request|Net|WWW|Mojo::UserAgent|"
	  "IO::Socket::SSL",
	  "netlib" },
	{ L_RB, "Kernel", "" },
	{ L_RB, "Open3|open3", "Open3" },
	{ L_RB, "IO", "IO" },
	{ L_RB, "Process", "Process" },
	{ L_RB, "FileUtils|fileutils", "FileUtils" },
	{ L_RB, "File", "File" },
	{ L_RB, "Dir", "Dir" },
	{ L_RB, "PTY|pty", "PTY" },
	{ L_RB, "Base64|base64", "Base64" },
	{ L_RB, "URI", "URI" },
	{ L_RB, "TCPSocket|UDPSocket|Socket|TCPServer|socket", "socket" },
	{ L_RB,
	  "Net|open-uri|net/http|net/https|HTTParty|httparty|Faraday|faraday|"
	  "RestClient|rest-client|Excon|HTTPClient",
	  "netlib" },
	{ L_LUA, "os", "os" },
	{ L_LUA, "io", "io" },
	{ L_LUA, "string", "string" },
	{ L_LUA, "socket", "socket" },
	{ L_LUA, "http|ssl|curl|luasocket", "netlib" },
};
/* clang-format on */

/* p[0..n) is one of the '|'-separated names in list (an empty name too).
 * One pass over list: this runs for every identifier against every row. */
static int name_in(const char *list, const char *p, size_t n, int ci)
{
	const char *a = list;

	for (;;) {
		size_t i = 0;
		while (i < n && a[i] && a[i] != '|' &&
		       (ci ? lower((unsigned char)a[i]) ==
					lower((unsigned char)p[i]) :
			     a[i] == p[i]))
			i++;
		if (i == n && (a[i] == '|' || a[i] == 0))
			return 1;
		a += i;
		while (*a && *a != '|')
			a++;
		if (!*a)
			return 0;
		a++;
	}
}

static const char *mod_exact(enum code_lang L, const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(mod_tab) / sizeof(mod_tab[0]); i++)
		if ((mod_tab[i].langs & (1u << L)) &&
		    name_in(mod_tab[i].names, p, n, 0))
			return mod_tab[i].canon;
	return NULL;
}

/* The canonical module for a receiver or module name: perl and ruby names
 * are tried whole and then without their last ::parts, python and lua
 * dotted names whole and then by their first part, node specifiers without
 * a node: prefix. */
static const char *mod_lookup(enum code_lang L, const char *p, size_t n)
{
	const char *c;

	if (L == CODE_NODE && n > 5 && !memcmp(p, "node:", 5)) {
		p += 5;
		n -= 5;
	}
	c = mod_exact(L, p, n);
	if (c)
		return c;
	if (L == CODE_PERL || L == CODE_RUBY) {
		while (n > 2) {
			size_t k = n;
			while (k > 1 && !(p[k - 1] == ':' && p[k - 2] == ':'))
				k--;
			if (k <= 2)
				break;
			n = k - 2;
			c = mod_exact(L, p, n);
			if (c)
				return c;
		}
	}
	if (L == CODE_PYTHON || L == CODE_LUA) {
		const char *dot = memchr(p, '.', n);
		if (dot)
			return mod_exact(L, p, (size_t)(dot - p));
	}
	return NULL;
}

/* The row for name called on the canonical module mod ("" builtin, "*"
 * unknown receiver). A row's mod may list several with '|'. */
static const struct sink *sink_find(enum code_lang L, const char *mod,
				    const char *p, size_t n)
{
	int ci = L == CODE_PHP;
	size_t mn = strlen(mod);

	for (size_t i = 0; i < sizeof(sink_tab) / sizeof(sink_tab[0]); i++) {
		const struct sink *k = &sink_tab[i];
		if (!(k->langs & (1u << L)))
			continue;
		if (!name_in(k->mod, mod, mn, 0))
			continue;
		if (name_in(k->names, p, n, ci))
			return k;
	}
	return NULL;
}

/* ---- reading arguments --------------------------------------------------- */

enum arg_type { A_NONE, A_STR, A_LIST, A_OBJ, A_SYM, A_OTHER };

struct arg {
	unsigned char type;
	unsigned char dyn; /* not entirely literal */
	unsigned char qmode; /* A_STR used as a path: Q_ */
	unsigned char recursive; /* A_OBJ: recursive: true */
	unsigned char append; /* A_OBJ: flags: 'a…' (node streams, files) */
	unsigned char single; /* one token */
	struct tok first;
	size_t kw, kwn; /* a keyword argument's name in the code */
	size_t end; /* where the argument ends in the code */
	struct text x; /* A_STR: the text; A_LIST, A_OBJ: shell words */
	size_t nel, el1; /* words, and where the second one starts */
};

struct argv {
	struct arg a[CS_MAX_ARGS];
	unsigned n;
	unsigned char cut; /* stopped early: what follows is unknown */
};

/* A look-ahead over a copy of the scanner's lexer. */
struct rd {
	struct unit *u;
	struct tok pend;
	unsigned char has_pend;
	unsigned char paren; /* inside (…): newlines, keywords do not end */
	unsigned char nl_ends; /* a newline ends the arguments */
	unsigned char joins; /* the last token read wants another */
	unsigned char out; /* the budget ran out */
	unsigned budget;
	struct lex lx; /* last: copied up to the frames in use */
};

static void rd_copy(struct rd *dst, const struct rd *src)
{
	memcpy(dst, src, offsetof(struct rd, lx));
	lex_copy(&dst->lx, &src->lx);
}

static void rd_init(struct rd *r, struct unit *u)
{
	r->u = u;
	lex_copy(&r->lx, &u->lx);
	r->has_pend = 0;
	r->paren = 0;
	r->nl_ends = 0;
	r->joins = 0;
	r->out = 0;
	r->budget = CS_BUDGET;
}

static void rd_lex(struct rd *r, struct tok *t)
{
	if (!r->budget) {
		memset(t, 0, sizeof(*t));
		t->kind = T_EOF;
		r->out = 1;
		return;
	}
	r->budget--;
	look(r->u->sc, &r->lx, t);
	if (r->u->sc->look_out)
		r->out = 1;
}

static void rd_next(struct rd *r, struct tok *t)
{
	if (r->has_pend) {
		*t = r->pend;
		r->has_pend = 0;
	} else {
		rd_lex(r, t);
	}
	r->joins = t->kind == T_PUNCT && !strchr(")]}", t->op[0]);
}

static void rd_peek(struct rd *r, struct tok *t)
{
	if (!r->has_pend) {
		rd_lex(r, &r->pend);
		r->has_pend = 1;
	}
	*t = r->pend;
}

static void rd_unget(struct rd *r, const struct tok *t)
{
	r->pend = *t;
	r->has_pend = 1;
}

static int is_comma(const struct tok *t)
{
	return is_op(t, ",");
}

static int is_opener(const struct tok *t)
{
	return t->kind == T_PUNCT && !t->op[1] && t->op[0] &&
	       strchr("([{", t->op[0]);
}

static int is_closer(const struct tok *t)
{
	return t->kind == T_PUNCT && !t->op[1] && t->op[0] &&
	       strchr(")]}", t->op[0]);
}

static int is_member_sep(enum code_lang L, const struct tok *t)
{
	if (!t || t->kind != T_PUNCT)
		return 0;
	if (!strcmp(t->op, "."))
		return L != CODE_PERL && L != CODE_PHP && L != CODE_AWK;
	if (!strcmp(t->op, "?."))
		return L == CODE_NODE;
	if (!strcmp(t->op, "->"))
		return L == CODE_PERL || L == CODE_PHP;
	if (!strcmp(t->op, "::"))
		return L == CODE_PHP || L == CODE_RUBY;
	if (!strcmp(t->op, ":"))
		return L == CODE_LUA;
	return 0;
}

/* Words that end a call written without parentheses. */
static int stop_word(const struct unit *u, const struct tok *t)
{
	static const char *const w[] = {
		"if",	  "unless", "while", "until",	"and", "or",
		"xor",	  "not",    "for",   "foreach", "do",  "then",
		"rescue", "end",    "else",  "elsif",	NULL,
	};

	return t->kind == T_IDENT &&
	       (u->lang == CODE_PERL || u->lang == CODE_RUBY) &&
	       in_list(u->s + t->cs, t->ce - t->cs, w);
}

/* t ends the argument list (a ',' separates, it does not end). */
static int rd_ends(const struct rd *r, const struct tok *t)
{
	const struct unit *u = r->u;

	if (t->kind == T_EOF || is_closer(t) || is_op(t, ";"))
		return 1;
	if (r->paren)
		return 0;
	if (is_op(t, "||") || is_op(t, "&&") || is_op(t, "//"))
		return u->lang == CODE_PERL || u->lang == CODE_RUBY;
	if (u->lang == CODE_RUBY && is_op(t, "{"))
		return 1;
	if (stop_word(u, t))
		return 1;
	if (r->nl_ends && (t->flags & TF_NL) && !r->joins)
		return 1;
	return 0;
}

/* Consumes up to the closer matching an opener just read. */
static void rd_balanced(struct rd *r)
{
	unsigned depth = 1;
	struct tok t;

	while (depth) {
		rd_next(r, &t);
		if (t.kind == T_EOF)
			return;
		if (is_opener(&t))
			depth++;
		else if (is_closer(&t))
			depth--;
	}
}

/* Consumes the rest of an argument, up to a ',' or the end. */
static void rd_skip(struct rd *r)
{
	struct tok t;

	for (;;) {
		rd_peek(r, &t);
		if (t.kind == T_EOF || is_comma(&t) || rd_ends(r, &t))
			return;
		rd_next(r, &t);
		if (is_opener(&t))
			rd_balanced(r);
	}
}

/* After a computed operand's first token: its .member, (call) and [index]. */
static void rd_postfix(struct rd *r, const struct tok *first)
{
	struct tok t;

	if (is_opener(first))
		rd_balanced(r);
	for (;;) {
		rd_peek(r, &t);
		if (is_member_sep(r->u->lang, &t)) {
			rd_next(r, &t);
			rd_peek(r, &t);
			if (t.kind == T_IDENT)
				rd_next(r, &t);
			continue;
		}
		if (is_op(&t, "(") || is_op(&t, "[")) {
			rd_next(r, &t);
			rd_balanced(r);
			continue;
		}
		return;
	}
}

/* Decodes a string token and, for an interpolated one, the segments after
 * each interpolated expression. */
static void rd_collect(struct rd *r, struct tok *t, struct text *x)
{
	struct tok s;

	if (text_add(r->u, t, x))
		x->over = 1;
	while (t->flags & TF_OPEN) {
		unsigned k = r->lx.nframes;
		text_dyn(x);
		for (;;) {
			rd_next(r, &s);
			if (s.kind == T_EOF) {
				x->over = 1;
				return;
			}
			if ((s.flags & TF_CONT) && r->lx.nframes + 1 == k)
				break;
		}
		if (text_add(r->u, &s, x))
			x->over = 1;
		*t = s;
	}
}

static const struct val *val_find(const struct unit *u, const char *p, size_t n)
{
	const struct scan *sc = u->sc;

	for (unsigned i = sc->nval; i-- > 0;)
		if (sc->val[i].n == n && !memcmp(sc->val[i].name, p, n))
			return &sc->val[i];
	return NULL;
}

/* The name a variable token is bound under: with its sigil. */
static void var_name(const struct unit *u, const struct tok *t, const char **p,
		     size_t *n)
{
	size_t s = t->kind == T_VAR ? t->s : t->cs;

	*p = u->s + s;
	*n = t->ce - s;
}

/* t is a plain use of a variable assigned a string literal: appends the
 * literal to x, marked as a guess. */
static int rd_value(struct rd *r, const struct tok *t, struct text *x)
{
	struct unit *u = r->u;
	enum code_lang L = u->lang;
	const struct val *v;
	struct tok nx;
	const char *p;
	size_t n;

	if (t->kind != T_IDENT && t->kind != T_VAR)
		return 0;
	var_name(u, t, &p, &n);
	v = val_find(u, p, n);
	if (!v)
		return 0;
	rd_peek(r, &nx);
	if (is_op(&nx, "(") || is_op(&nx, "[") || is_op(&nx, "->") ||
	    (is_op(&nx, "{") && L == CODE_PERL) ||
	    (is_op(&nx, ".") && L != CODE_PERL && L != CODE_PHP))
		return 0;
	if (text_add_from(u->sc, v->code, &v->t, x))
		x->over = 1;
	x->guess = 1;
	return 1;
}

/* After a literal: 'rm -rf /'.split() or .split(' ') is the same words. */
static void rd_split(struct rd *r)
{
	struct rd save;
	struct tok t;

	rd_peek(r, &t);
	if (!is_op(&t, "."))
		return;
	rd_copy(&save, r);
	rd_next(r, &t);
	rd_next(r, &t);
	if (!is_word(r->u, &t, "split"))
		goto fail;
	rd_next(r, &t);
	if (!is_op(&t, "("))
		goto fail;
	rd_next(r, &t);
	if (t.kind == T_STR) {
		if (t.ce - t.cs != 1 || r->u->s[t.cs] != ' ')
			goto fail;
		rd_next(r, &t);
	}
	if (!is_op(&t, ")"))
		goto fail;
	return;
fail:
	rd_copy(r, &save);
}

static int is_concat(enum code_lang L, const struct tok *t)
{
	switch (L) {
	case CODE_PYTHON:
	case CODE_NODE:
	case CODE_RUBY:
		return is_op(t, "+");
	case CODE_PERL:
	case CODE_PHP:
		return is_op(t, ".");
	case CODE_LUA:
		return is_op(t, "..");
	default:
		return 0;
	}
}

static int adjacent_concat(enum code_lang L)
{
	return L == CODE_PYTHON || L == CODE_RUBY || L == CODE_AWK;
}

/* A string expression whose first token t was just read: literals joined
 * by the language's concatenation, decoded into x; a computed operand or
 * operator leaves a dynamic mark. Stops before ',' or the end. */
static void rd_string_expr(struct rd *r, struct tok *t, struct text *x,
			   unsigned char *dyn)
{
	enum code_lang L = r->u->lang;
	struct tok nx;

	for (;;) {
		if (t->kind == T_STR && !(t->flags & TF_CONT)) {
			rd_collect(r, t, x);
			rd_split(r);
		} else if (rd_value(r, t, x)) {
			rd_split(r);
		} else if (t->kind == T_EOF || is_comma(t) || rd_ends(r, t)) {
			*dyn = 1;
			text_dyn(x);
			rd_unget(r, t);
			return;
		} else {
			*dyn = 1;
			text_dyn(x);
			rd_postfix(r, t);
		}
		rd_peek(r, &nx);
		if (is_concat(L, &nx)) {
			rd_next(r, &nx);
			rd_next(r, t);
			continue;
		}
		if (adjacent_concat(L) && nx.kind == T_STR &&
		    !(nx.flags & TF_CONT)) {
			rd_next(r, t);
			continue;
		}
		if (nx.kind == T_EOF || is_comma(&nx) || rd_ends(r, &nx)) {
			if (r->out) {
				*dyn = 1;
				text_dyn(x);
			}
			return;
		}
		*dyn = 1;
		text_dyn(x);
		rd_skip(r);
		return;
	}
}

/* Skips what is left of an interpolated list (%W[a #{x}]). */
static void rd_skip_interp(struct rd *r, const struct tok *t)
{
	struct tok s;
	struct tok cur = *t;

	while (cur.flags & TF_OPEN) {
		unsigned k = r->lx.nframes;
		for (;;) {
			rd_next(r, &s);
			if (s.kind == T_EOF)
				return;
			if ((s.flags & TF_CONT) && r->lx.nframes + 1 == k)
				break;
		}
		cur = s;
	}
}

/* qw(…) / %w(…): the words, quoted. */
static void rd_words(struct rd *r, const struct tok *t, struct arg *a)
{
	struct scan *sc = r->u->sc;
	struct text tmp;
	size_t base = sc->atop, out, i = 0, nw = 0, len;

	memset(&tmp, 0, sizeof(tmp));
	a->type = A_LIST;
	tmp.off = base;
	if (t->flags & (TF_DYN | TF_OPEN))
		a->dyn = 1;
	if (text_add(r->u, t, &tmp)) {
		a->dyn = 1;
		sc->atop = base;
		a->x.off = base;
		return;
	}
	rd_skip_interp(r, t);
	out = sc->atop;
	while (i < tmp.n) {
		size_t j, ws;
		while (i < tmp.n && is_space((unsigned char)sc->ar[base + i]))
			i++;
		if (i >= tmp.n)
			break;
		j = i;
		while (j < tmp.n && !is_space((unsigned char)sc->ar[base + j]))
			j++;
		if (nw && ar_puts(sc, " "))
			break;
		if (nw == 1)
			a->el1 = sc->atop - out;
		ws = sc->atop;
		if (ar_put(sc, sc->ar + base + i, j - i) ||
		    ar_quote_tail(sc, ws))
			break;
		nw++;
		i = j;
	}
	len = sc->atop - out;
	memmove(sc->ar + base, sc->ar + out, len);
	sc->atop = base + len;
	a->x.off = base;
	a->x.n = len;
	a->nel = nw;
	if (nw < 2)
		a->el1 = len;
}

/* t names a variable assigned a literal (without consuming anything). */
static int rd_is_value(struct rd *r, const struct tok *t)
{
	const char *p;
	size_t n;

	var_name(r->u, t, &p, &n);
	return val_find(r->u, p, n) != NULL;
}

/* A list of string literals up to closer, as quoted words. A python
 * parenthesised single string is a string, not a tuple. */
static void rd_list(struct rd *r, char closer, struct arg *a, int tuple)
{
	struct scan *sc = r->u->sc;
	unsigned char paren = r->paren;
	int commas = 0;
	struct tok t;

	r->paren = 1;
	a->type = A_LIST;
	a->x.off = sc->atop;
	a->x.n = 0;
	a->nel = 0;
	for (;;) {
		size_t el = sc->atop, es;
		rd_next(r, &t);
		if (is_op(&t, (char[]){ closer, 0 }))
			break;
		if (t.kind == T_EOF) {
			a->dyn = 1;
			break;
		}
		if (a->nel && ar_puts(sc, " ")) {
			a->dyn = 1;
			break;
		}
		es = sc->atop;
		if ((t.kind == T_STR && !(t.flags & TF_CONT)) ||
		    ((t.kind == T_IDENT || t.kind == T_VAR) &&
		     rd_is_value(r, &t))) {
			struct text ex;
			unsigned char edyn = 0;
			memset(&ex, 0, sizeof(ex));
			ex.off = es;
			rd_string_expr(r, &t, &ex, &edyn);
			if (ex.guess)
				a->x.guess = 1;
			if (edyn || text_is_dyn(&ex)) {
				sc->atop = el;
				a->dyn = 1;
				rd_skip(r);
				rd_next(r, &t);
				if (!is_op(&t, (char[]){ closer, 0 }))
					rd_balanced(r);
				break;
			}
			rd_peek(r, &t);
			if (tuple && a->nel == 0 && !commas &&
			    is_op(&t, (char[]){ closer, 0 })) {
				rd_next(r, &t);
				a->type = A_STR;
				a->x = ex;
				r->paren = paren;
				return;
			}
			if (ar_quote_tail(sc, es)) {
				a->dyn = 1;
				sc->atop = el;
			}
			if (a->nel == 1)
				a->el1 = es - a->x.off;
			a->nel++;
		} else {
			sc->atop = el;
			a->dyn = 1;
			if (is_opener(&t))
				rd_balanced(r);
			rd_skip(r);
			rd_next(r, &t);
			if (!is_op(&t, (char[]){ closer, 0 }))
				rd_balanced(r);
			break;
		}
		rd_next(r, &t);
		if (is_comma(&t)) {
			commas++;
			continue;
		}
		if (is_op(&t, (char[]){ closer, 0 }))
			break;
		a->dyn = 1;
		rd_balanced(r);
		break;
	}
	a->x.n = sc->atop - a->x.off;
	if (a->nel < 2)
		a->el1 = a->x.n;
	r->paren = paren;
}

/* An object or hash literal just opened: keeps cmd/args lists and
 * recursive: true, skips the rest. */
static void rd_object(struct rd *r, struct arg *a)
{
	struct unit *u = r->u;
	unsigned char paren = r->paren;
	int got = 0;
	struct tok k, sep, v;

	r->paren = 1;
	a->type = A_OBJ;
	a->x.off = u->sc->atop;
	for (;;) {
		int is_cmd = 0, is_rec = 0, is_flags = 0;
		rd_next(r, &k);
		if (k.kind == T_EOF || is_op(&k, "}"))
			break;
		if (is_comma(&k))
			continue;
		if (k.kind == T_IDENT || k.kind == T_STR || k.kind == T_SYM) {
			const char *p = u->s + k.cs;
			size_t n = k.ce - k.cs;
			is_cmd = eqw(p, n, "cmd") || eqw(p, n, "args") ||
				 eqw(p, n, "command");
			is_rec = eqw(p, n, "recursive");
			is_flags = eqw(p, n, "flags") || eqw(p, n, "flag");
		} else if (is_opener(&k)) {
			rd_balanced(r);
		}
		rd_peek(r, &sep);
		if (is_op(&sep, ":") || is_op(&sep, "=>")) {
			rd_next(r, &sep);
		} else {
			rd_skip(r);
			continue;
		}
		rd_peek(r, &v);
		if (is_cmd && !got && is_op(&v, "[")) {
			struct arg l;
			memset(&l, 0, sizeof(l));
			rd_next(r, &v);
			rd_list(r, ']', &l, 0);
			a->x = l.x;
			a->nel = l.nel;
			a->el1 = l.el1;
			a->dyn |= l.dyn;
			got = 1;
		} else if (is_rec && is_word(u, &v, "true")) {
			rd_next(r, &v);
			a->recursive = 1;
		} else if (is_flags && v.kind == T_STR) {
			char buf[8];
			size_t bn = small_decode(u, &v, buf, sizeof(buf));
			if (bn && buf[0] == 'a')
				a->append = 1;
			rd_skip(r);
		} else {
			rd_skip(r);
		}
	}
	r->paren = paren;
}

/* Path('x'), os.path.expanduser('~/x'), glob.glob('*'), shlex.split('…'),
 * perl glob "*.txt": a literal wrapped in a call that keeps it readable. */
static int rd_wrapper(struct rd *r, const struct tok *t0, struct arg *a)
{
	static const char *const plain[] = {
		"Path",	    "PosixPath", "PurePath", "PurePosixPath",
		"Pathname", "realpath",	 "abspath",  "normpath",
		"str",	    "String",	 "split",    NULL,
	};
	static const char *const tilde[] = { "expanduser", "expand_path",
					     NULL };
	static const char *const glob[] = {
		"glob", "iglob", "sync", "globSync", NULL,
	};
	struct unit *u = r->u;
	struct rd save;
	struct tok t, s, last = *t0;
	const char *w;
	size_t wn;
	int paren = 1;

	rd_copy(&save, r);
	for (int k = 0; k < 4; k++) {
		rd_peek(r, &t);
		if (!is_member_sep(u->lang, &t))
			break;
		rd_next(r, &t);
		rd_next(r, &t);
		if (t.kind != T_IDENT)
			goto fail;
		last = t;
	}
	rd_next(r, &t);
	if (u->lang == CODE_PERL && t.kind == T_STR &&
	    eqw(u->s + last.cs, last.ce - last.cs, "glob")) {
		/* perl's named unary operator: glob "…" */
		s = t;
		paren = 0;
	} else if (!is_op(&t, "(")) {
		goto fail;
	} else {
		rd_next(r, &s);
	}
	if (s.kind != T_STR || (s.flags & (TF_OPEN | TF_DYN | TF_CONT)))
		goto fail;
	if (paren) {
		rd_next(r, &t);
		if (!is_op(&t, ")"))
			goto fail;
	}
	rd_peek(r, &t);
	if (!(t.kind == T_EOF || is_comma(&t) || rd_ends(r, &t)))
		goto fail;
	w = u->s + last.cs;
	wn = last.ce - last.cs;
	if (in_list(w, wn, plain))
		a->qmode = Q_PLAIN;
	else if (in_list(w, wn, tilde))
		a->qmode = Q_TILDE;
	else if (in_list(w, wn, glob))
		a->qmode = Q_GLOB;
	else
		goto fail;
	a->type = A_STR;
	if (text_add(u, &s, &a->x))
		a->dyn = 1;
	return 1;
fail:
	rd_copy(r, &save);
	return 0;
}

/* One argument. */
static void rd_arg(struct rd *r, struct arg *a)
{
	struct unit *u = r->u;
	enum code_lang L = u->lang;
	struct tok t, nx;

	memset(a, 0, sizeof(*a));
	a->x.off = u->sc->atop;
	rd_next(r, &t);
	if (t.kind == T_EOF || is_comma(&t) || rd_ends(r, &t)) {
		rd_unget(r, &t);
		a->type = A_NONE;
		return;
	}
	rd_peek(r, &nx);
	if ((L == CODE_PYTHON && t.kind == T_IDENT && is_op(&nx, "=")) ||
	    ((L == CODE_RUBY || L == CODE_PHP) && t.kind == T_IDENT &&
	     is_op(&nx, ":") && !(nx.flags & TF_SP)) ||
	    (L == CODE_RUBY && (t.kind == T_SYM || t.kind == T_STR) &&
	     is_op(&nx, "=>"))) {
		a->kw = t.cs;
		a->kwn = t.ce > t.cs ? t.ce - t.cs : 1;
		rd_next(r, &nx);
		rd_next(r, &t);
	}
	a->first = t;
	if ((t.kind == T_STR && !(t.flags & TF_CONT)) ||
	    ((t.kind == T_IDENT || t.kind == T_VAR) && rd_is_value(r, &t))) {
		a->type = A_STR;
		rd_string_expr(r, &t, &a->x, &a->dyn);
		if (text_is_dyn(&a->x))
			a->dyn = 1;
		return;
	}
	if (is_op(&t, "[") || (L == CODE_PYTHON && is_op(&t, "("))) {
		rd_list(r, t.op[0] == '[' ? ']' : ')', a, t.op[0] == '(');
		goto after;
	}
	if (L == CODE_PHP && t.kind == T_IDENT &&
	    eqw_ci(u->s + t.cs, t.ce - t.cs, "array")) {
		rd_peek(r, &nx);
		if (is_op(&nx, "(")) {
			rd_next(r, &nx);
			rd_list(r, ')', a, 0);
			goto after;
		}
	}
	if (t.kind == T_WORDS) {
		rd_words(r, &t, a);
		goto after;
	}
	if (is_op(&t, "{") && L != CODE_PERL) {
		rd_object(r, a);
		goto after;
	}
	if (t.kind == T_SYM) {
		a->type = A_SYM;
		goto after;
	}
	if (t.kind == T_IDENT && rd_wrapper(r, &t, a))
		goto after;
	a->type = A_OTHER;
	a->dyn = 1;
	rd_peek(r, &nx);
	if (nx.kind == T_EOF || is_comma(&nx) || rd_ends(r, &nx)) {
		a->single = 1;
		if (is_opener(&t))
			rd_balanced(r);
		return;
	}
	rd_postfix(r, &t);
	rd_peek(r, &nx);
	if (is_concat(L, &nx)) {
		/* x + '; reboot': the literals after it may still hold
		 * whole commands. */
		a->type = A_STR;
		text_dyn(&a->x);
		rd_next(r, &nx);
		rd_next(r, &t);
		rd_string_expr(r, &t, &a->x, &a->dyn);
		return;
	}
	rd_skip(r);
	return;
after:
	rd_peek(r, &nx);
	if (L == CODE_RUBY && is_op(&nx, "=>")) {
		/* [:in, :out] => sock: a hash entry, options */
		a->type = A_OBJ;
		a->nel = 0;
		a->x.n = 0;
		rd_next(r, &nx);
		rd_skip(r);
		return;
	}
	if (nx.kind == T_EOF || is_comma(&nx) || rd_ends(r, &nx)) {
		a->single = a->type == A_SYM;
		return;
	}
	a->dyn = 1;
	rd_skip(r);
}

static void args_read(struct rd *r, struct argv *av)
{
	struct tok t;

	av->n = 0;
	av->cut = 0;
	for (;;) {
		struct arg *a;
		if (av->n == CS_MAX_ARGS) {
			av->cut = 1;
			return;
		}
		a = &av->a[av->n];
		rd_arg(r, a);
		if (a->type != A_NONE)
			av->n++;
		rd_next(r, &t);
		a->end = t.s;
		if (is_comma(&t))
			continue;
		if (r->out) {
			av->cut = 1;
			if (av->n)
				av->a[av->n - 1].dyn = 1;
		}
		return;
	}
}

/* ---- what a call does ---------------------------------------------------- */

/* Where a call came from: the name, the module it resolved to, and for
 * Path('x').unlink() the literal receiver. */
struct call {
	const char *name;
	size_t nn;
	const char *canon;
	const struct tok *rfn, *rstr;
};

static unsigned positional(struct arg *a, unsigned na, struct arg **pa)
{
	unsigned np = 0;

	for (unsigned i = 0; i < na; i++)
		if (!a[i].kwn)
			pa[np++] = &a[i];
	return np;
}

static struct arg *kwarg(struct unit *u, struct arg *a, unsigned na,
			 const char *names)
{
	for (unsigned i = 0; i < na; i++)
		if (a[i].kwn && name_in(names, u->s + a[i].kw, a[i].kwn, 0))
			return &a[i];
	return NULL;
}

static int arg_lit(const struct arg *a)
{
	return a && a->type == A_STR && !a->dyn;
}

static const char *arg_text(const struct unit *u, const struct arg *a)
{
	return u->sc->ar + a->x.off;
}

static void fork_seen(struct unit *u)
{
	if (u->loop)
		flag(u, CODE_F_FORK_BOMB);
	u->fork_at = u->ntok + 1;
}

static void module_touch(struct unit *u, const char *canon)
{
	if (!canon)
		return;
	if (!strcmp(canon, "netlib")) {
		flag(u, CODE_F_NETWORK);
	} else if (!strcmp(canon, "socket")) {
		flag(u, CODE_F_NETWORK);
		u->sc->sock_mod = 1;
	} else if (!strcmp(canon, "child_process")) {
		u->sc->has_cp = 1;
	}
}

/* A sink used without a readable call: passed as a value, reached through
 * getattr(), method(:system), array_map('system', …). */
static void sink_dyn(struct unit *u, const struct sink *k)
{
	struct scan *sc = u->sc;

	switch (k->kind) {
	case K_EXEC:
	case K_PERLOPEN:
	case K_RUBYOPEN:
		dyn_exec(u);
		break;
	case K_EVAL:
		flag(u, CODE_F_EVAL);
		sc->eval = 1;
		break;
	case K_DEL:
	case K_PATHDEL:
		flag(u, CODE_F_DELETE);
		break;
	case K_KILL:
		flag(u, CODE_F_KILL);
		break;
	case K_FORK:
		fork_seen(u);
		break;
	case K_WRITE:
		flag(u, CODE_F_WRITE);
		break;
	case K_NET:
		flag(u, CODE_F_NETWORK);
		break;
	case K_SOCK_MOD:
		flag(u, CODE_F_NETWORK);
		sc->sock_mod = 1;
		break;
	case K_SOCK_CONN:
		flag(u, CODE_F_NETWORK);
		sc->sock_conn = 1;
		break;
	case K_DECODE:
		sc->decode = 1;
		break;
	case K_DUP2:
		sc->dup2 = 1;
		break;
	default:
		break;
	}
}

/* Appends an argument as shell words after a space: a literal string as
 * one word, a list's words (from the second when from_second). Returns -1
 * when it is not literal; the words before it stay. */
static int put_words(struct unit *u, const struct arg *a, int from_second,
		     unsigned *nw)
{
	struct scan *sc = u->sc;

	if (a->x.guess)
		sc->guessed = 1;
	if (arg_lit(a)) {
		if (*nw && ar_puts(sc, " "))
			return -1;
		if (ar_word(sc, arg_text(u, a), a->x.n, a->qmode))
			return -1;
		(*nw)++;
		return 0;
	}
	if (a->type == A_LIST || (a->type == A_OBJ && a->nel)) {
		size_t from = from_second ? a->el1 : 0;
		if (from < a->x.n) {
			if (*nw && ar_puts(sc, " "))
				return -1;
			if (ar_put(sc, arg_text(u, a) + from, a->x.n - from))
				return -1;
			*nw += (unsigned)a->nel;
		}
		return a->dyn ? -1 : 0;
	}
	return -1;
}

static void exec_one(struct unit *u, const struct arg *c)
{
	if (c->type == A_STR) {
		emit_text(u, &c->x, c->dyn);
	} else if (c->type == A_LIST) {
		if (c->nel)
			hand_back(u, arg_text(u, c), c->x.n);
		if (c->dyn || c->x.guess)
			dyn_exec(u);
	} else {
		dyn_exec(u);
	}
}

static void compose_done(struct unit *u, size_t mark, unsigned nw, int bad)
{
	if (bad || u->sc->ar_full)
		dyn_exec(u);
	if (nw)
		hand_back(u, u->sc->ar + mark, u->sc->atop - mark);
}

static void do_exec(struct unit *u, const struct sink *k, struct arg *a,
		    unsigned na, int cut)
{
	struct scan *sc = u->sc;
	struct arg *pa[CS_MAX_ARGS], *c;
	unsigned np = positional(a, na, pa), s, e, nw = 0;
	size_t mark = sc->atop;
	int bad = 0;

	flag(u, CODE_F_EXEC);
	sc->exec = 1;
	sc->guessed = 0;
	if (k->hint & H_PTY)
		sc->pty = 1;
	switch (k->shape) {
	case S_CMD1:
		c = np ? pa[0] : kwarg(u, a, na, "args|cmd|command");
		if (c)
			exec_one(u, c);
		else
			dyn_exec(u);
		break;
	case S_ARGV:
	case S_SKIP2:
	case S_SKIP3:
		s = k->shape == S_SKIP2 ? 2 : k->shape == S_SKIP3 ? 3 : 0;
		if (u->lang == CODE_RUBY && s < np && pa[s]->type == A_OBJ)
			s++;
		e = s;
		while (e < np && pa[e]->type != A_OBJ && pa[e]->type != A_SYM)
			e++;
		if (e == s) {
			dyn_exec(u);
		} else if (e - s == 1) {
			exec_one(u, pa[s]);
		} else {
			for (unsigned i = s; i < e && !bad; i++)
				bad = put_words(u, pa[i], 0, &nw) != 0;
			compose_done(u, mark, nw, bad);
		}
		break;
	case S_PROG_LIST:
		if (np >= 2 && pa[1]->type == A_LIST) {
			bad = put_words(u, pa[0], 0, &nw) != 0;
			if (!bad)
				bad = put_words(u, pa[1], 0, &nw) != 0;
			compose_done(u, mark, nw, bad);
		} else if (np) {
			exec_one(u, pa[0]);
		} else {
			dyn_exec(u);
		}
		break;
	case S_EXECL:
	case S_SPAWNL:
		s = k->shape == S_SPAWNL;
		if (np <= s) {
			dyn_exec(u);
			break;
		}
		bad = put_words(u, pa[s], 0, &nw) != 0;
		for (unsigned i = s + 2; i < np && !bad; i++)
			bad = put_words(u, pa[i], 0, &nw) != 0;
		compose_done(u, mark, nw, bad);
		break;
	case S_EXECV:
	case S_SPAWNV:
		s = k->shape == S_SPAWNV;
		if (np <= s) {
			dyn_exec(u);
			break;
		}
		bad = put_words(u, pa[s], 0, &nw) != 0;
		if (!bad && np > s + 1)
			bad = put_words(u, pa[s + 1], 1, &nw) != 0;
		compose_done(u, mark, nw, bad);
		break;
	case S_OBJCMD:
		if (np && (pa[0]->type == A_LIST ||
			   (pa[0]->type == A_OBJ && pa[0]->nel))) {
			bad = put_words(u, pa[0], 0, &nw) != 0;
			compose_done(u, mark, nw, bad);
		} else {
			dyn_exec(u);
		}
		break;
	case S_PROG_OBJARGS:
		if (!np) {
			dyn_exec(u);
			break;
		}
		bad = put_words(u, pa[0], 0, &nw) != 0;
		if (!bad && np > 1) {
			if (pa[1]->type == A_OBJ && pa[1]->nel)
				bad = put_words(u, pa[1], 0, &nw) != 0;
			else if (pa[1]->type != A_OBJ)
				bad = 1;
		}
		compose_done(u, mark, nw, bad);
		break;
	case S_DYN:
	default:
		dyn_exec(u);
		break;
	}
	if (cut || sc->guessed)
		dyn_exec(u);
	sc->atop = mark;
}

static void do_del(struct unit *u, const struct sink *k, struct arg *a,
		   unsigned na)
{
	struct scan *sc = u->sc;
	struct arg *pa[CS_MAX_ARGS];
	unsigned np = positional(a, na, pa), nw = 1, lim;
	size_t mark = sc->atop;
	int rec = k->shape == D_RMRF, paths = 0;
	const char *cmd;

	lim = u->lang == CODE_PERL || u->lang == CODE_RUBY ? np : np ? 1 : 0;
	if (k->shape == D_NODE_RM || k->shape == D_NODE_RMDIR)
		for (unsigned i = 0; i < np; i++)
			if (pa[i]->type == A_OBJ && pa[i]->recursive)
				rec = 1;
	if (rec)
		cmd = "rm -rf";
	else if (k->shape == D_RMDIR || k->shape == D_NODE_RMDIR)
		cmd = "rmdir";
	else
		cmd = "rm";
	sc->guessed = 0;
	if (!np)
		flag(u, CODE_F_DELETE);
	if (ar_puts(sc, cmd)) {
		flag(u, CODE_F_DELETE);
		return;
	}
	for (unsigned i = 0; i < lim; i++) {
		struct arg *p = pa[i];
		unsigned before = nw;
		if (p->type == A_OBJ && !p->nel)
			continue;
		if (put_words(u, p, 0, &nw))
			flag(u, CODE_F_DELETE);
		if (nw > before)
			paths = 1;
	}
	if (paths)
		hand_back(u, sc->ar + mark, sc->atop - mark);
	if (sc->guessed)
		flag(u, CODE_F_DELETE);
	sc->atop = mark;
}

/* A write to a literal path p[0..n) is handed back as the shell
 * redirection that does the same, ": > 'P'" (": >> 'P'" to append), so the
 * classifier judges the path with its own rules. CODE_F_WRITE is set either
 * way. qmode Q_TILDE keeps expanduser's ~ readable; a glob is not a path
 * to write to, so it is quoted. */
static void write_path(struct unit *u, const char *p, size_t n, int qmode,
		       int append)
{
	struct scan *sc = u->sc;
	size_t mark = sc->atop;

	flag(u, CODE_F_WRITE);
	if (!n)
		return;
	if (ar_puts(sc, append ? ": >> " : ": > ") ||
	    ar_word(sc, p, n, qmode == Q_TILDE ? Q_TILDE : Q_PLAIN)) {
		sc->atop = mark;
		return;
	}
	hand_back(u, sc->ar + mark, sc->atop - mark);
	sc->atop = mark;
}

/* The same for an argument: only a literal one is handed back. */
static void write_back(struct unit *u, const struct arg *a, int append)
{
	flag(u, CODE_F_WRITE);
	if (arg_lit(a))
		write_path(u, arg_text(u, a), a->x.n, a->qmode, append);
}

/* A file mode that adds to a file rather than truncating it: 'a', 'ab',
 * 'a+', and 'r+' (writes in place). */
static int mode_appends(const char *p, size_t n)
{
	return memchr(p, 'a', n) ||
	       (memchr(p, 'r', n) && memchr(p, '+', n) && !memchr(p, 'w', n));
}

/* An open() whose mode argument m is a literal write mode writes to the
 * path argument f. */
static void open_write(struct unit *u, const struct arg *f, const struct arg *m)
{
	const char *p;

	if (!arg_lit(m) || !is_write_mode(arg_text(u, m), m->x.n))
		return;
	p = arg_text(u, m);
	if (f)
		write_back(u, f, mode_appends(p, m->x.n));
	else
		flag(u, CODE_F_WRITE);
}

/* Code inside code: eval("…") of a literal is read like the code around
 * it, so what it runs is handed back too. */
static void subscan(struct unit *u, const char *p, size_t n)
{
	struct scan *sc = u->sc;
	unsigned nal = sc->nal, nval = sc->nval;

	if (sc->depth >= CS_MAX_EVAL) {
		flag(u, CODE_F_EVAL | CODE_F_UNREADABLE);
		return;
	}
	sc->depth++;
	scan_unit(sc, u->lang, p, n);
	sc->depth--;
	/* Names bound inside point into the decoded text. */
	sc->nal = nal;
	sc->nval = nval;
}

static void do_eval(struct unit *u, const struct sink *k, struct arg *a,
		    unsigned na)
{
	struct scan *sc = u->sc;
	struct arg *pa[CS_MAX_ARGS], *c;
	unsigned np = positional(a, na, pa);

	if (k->shape == E_ALWAYS) {
		flag(u, CODE_F_EVAL);
		sc->eval = 1;
		return;
	}
	if (k->shape == E_FUNC)
		c = np ? pa[np - 1] : NULL;
	else
		c = np ? pa[0] : NULL;
	if (!c) {
		if (k->shape == E_PERL) {
			flag(u, CODE_F_EVAL);
			sc->eval = 1;
		}
		return;
	}
	if (k->shape == E_PERL && is_op(&c->first, "{"))
		return;
	if (arg_lit(c)) {
		sc->eval = 1;
		if (c->x.guess)
			flag(u, CODE_F_EVAL);
		subscan(u, arg_text(u, c), c->x.n);
		return;
	}
	if (k->shape == E_ASSERT)
		return;
	if (k->shape == E_TIMER && c->type != A_STR)
		return;
	flag(u, CODE_F_EVAL);
	sc->eval = 1;
}

static int has_url(const char *p, size_t n)
{
	static const char *const pre[] = {
		"http://", "https://", "ftp://", "ftps://", NULL,
	};

	while (n && is_space((unsigned char)*p)) {
		p++;
		n--;
	}
	for (const char *const *w = pre; *w; w++) {
		size_t k = strlen(*w);
		if (n >= k) {
			size_t i = 0;
			while (i < k && lower((unsigned char)p[i]) == (*w)[i])
				i++;
			if (i == k)
				return 1;
		}
	}
	return 0;
}

/* php preg_replace('/…/e', …): the replacement is evaluated. */
static int preg_has_e(const char *p, size_t n)
{
	size_t i = 0, last = 0;
	char d, c;

	while (i < n && is_space((unsigned char)p[i]))
		i++;
	if (i >= n || id_char((unsigned char)p[i]) || p[i] == '\\')
		return 0;
	d = p[i];
	c = closing_of(d);
	for (size_t j = i + 1; j < n; j++)
		if (p[j] == c)
			last = j;
	if (!last)
		return 0;
	return memchr(p + last + 1, 'e', n - last - 1) != NULL;
}

static void trim(const char **p, size_t *n)
{
	while (*n && is_space((unsigned char)**p)) {
		(*p)++;
		(*n)--;
	}
	while (*n && is_space((unsigned char)(*p)[*n - 1]))
		(*n)--;
}

static int std_handle(const struct unit *u, const struct arg *a)
{
	const char *p;
	size_t n;

	if (!a->single || a->first.kind != T_IDENT)
		return 0;
	p = u->s + a->first.cs;
	n = a->first.ce - a->first.cs;
	return eqw(p, n, "STDIN") || eqw(p, n, "STDOUT") || eqw(p, n, "STDERR");
}

/* perl open's write modes: '>' and '+>' truncate; '>>', '+>>' and '+<'
 * write without truncating. The path is the third argument, or follows the
 * mode in a two-argument open(FH, ">out.txt"). */
static void perl_open_write(struct unit *u, const struct arg *a, unsigned na,
			    const char *p, size_t n)
{
	size_t k = 0;
	int plus = 0, app;

	if (n && p[0] == '+') {
		plus = 1;
		k = 1;
	}
	if (k < n && p[k] == '<' && plus) {
		app = 1;
		k++;
	} else if (k + 1 < n && p[k] == '>' && p[k + 1] == '>') {
		app = 1;
		k += 2;
	} else if (k < n && p[k] == '>') {
		app = 0;
		k++;
	} else {
		return;
	}
	if (na > 2) {
		write_back(u, &a[2], app);
		return;
	}
	flag(u, CODE_F_WRITE);
	if (a[1].dyn)
		return;
	p += k;
	n -= k;
	trim(&p, &n);
	write_path(u, p, n, Q_PLAIN, app);
}

/* perl open(FH, "|cmd"), open(FH, "cmd|"), open(FH, '-|', LIST),
 * open(FH, '>', …), open(STDIN, '>&S'). */
static void do_perlopen(struct unit *u, struct arg *a, unsigned na)
{
	struct scan *sc = u->sc;
	const char *p;
	size_t n, mark = sc->atop;

	if (na < 2 || a[1].type != A_STR)
		return;
	p = arg_text(u, &a[1]);
	n = a[1].x.n;
	trim(&p, &n);
	if (na == 2) {
		if (n && (p[0] == '|' || p[n - 1] == '|')) {
			flag(u, CODE_F_EXEC);
			sc->exec = 1;
			if (a[1].dyn) {
				dyn_exec(u);
				return;
			}
			if (p[0] == '|')
				hand_back(u, p + 1, n - 1);
			else
				hand_back(u, p, n - 1);
			return;
		}
	} else if ((n == 2 && (!memcmp(p, "-|", 2) || !memcmp(p, "|-", 2)))) {
		unsigned nw = 0;
		int bad = 0;
		flag(u, CODE_F_EXEC);
		sc->exec = 1;
		if (na == 3) {
			exec_one(u, &a[2]);
			return;
		}
		for (unsigned i = 2; i < na && !bad; i++)
			bad = put_words(u, &a[i], 0, &nw) != 0;
		compose_done(u, mark, nw, bad);
		sc->atop = mark;
		return;
	}
	if (n >= 2 && (p[0] == '>' || p[0] == '<' || p[0] == '+') &&
	    memchr(p, '&', n < 4 ? n : 4)) {
		if (std_handle(u, &a[0]))
			sc->fdhint = 1;
		return;
	}
	perl_open_write(u, a, na, p, n);
}

/* ruby open("|cmd"), open(url), open(path, 'w'). */
static void do_rubyopen(struct unit *u, struct arg **pa, unsigned np)
{
	struct scan *sc = u->sc;
	const char *p;
	size_t n;

	if (!np || pa[0]->type != A_STR)
		return;
	p = arg_text(u, pa[0]);
	n = pa[0]->x.n;
	if (n && p[0] == '|') {
		flag(u, CODE_F_EXEC);
		sc->exec = 1;
		if (pa[0]->dyn)
			dyn_exec(u);
		else if (!(n == 2 && p[1] == '-'))
			hand_back(u, p + 1, n - 1);
		return;
	}
	if (has_url(p, n))
		flag(u, CODE_F_NETWORK);
	if (np > 1)
		open_write(u, pa[0], pa[1]);
}

/* The canonical module an identifier names, directly or through an alias. */
static const char *resolve_name(const struct unit *u, const struct tok *t);

static void dispatch(struct unit *u, const struct sink *k,
		     const struct call *cl, struct arg *a, unsigned na,
		     int cut);

/* send(:system, …), call_user_func('system', …), method(:system),
 * array_map('system', …). */
static void do_send(struct unit *u, const struct sink *k, const struct call *cl,
		    struct arg *a, unsigned na, int cut)
{
	struct arg *pa[CS_MAX_ARGS], *f;
	unsigned np = positional(a, na, pa);
	const struct sink *t;
	const char *name, *canon = "";
	size_t nn;
	struct call sub;

	if (!np)
		return;
	f = pa[0];
	if (f->type == A_SYM) {
		name = u->s + f->first.cs;
		nn = f->first.ce - f->first.cs;
	} else if (arg_lit(f)) {
		name = arg_text(u, f);
		nn = f->x.n;
	} else {
		if (u->lang == CODE_PHP)
			u->sc->var_call = 1;
		return;
	}
	if (cl->canon && *cl->canon && strcmp(cl->canon, "*"))
		canon = cl->canon;
	t = sink_find(u->lang, canon, name, nn);
	if (!t || t->kind == K_SEND)
		return;
	if (k->shape == SEND_REF) {
		sink_dyn(u, t);
		return;
	}
	sub = *cl;
	sub.name = name;
	sub.nn = nn;
	sub.canon = canon;
	sub.rfn = sub.rstr = NULL;
	dispatch(u, t, &sub, f + 1, (unsigned)(a + na - (f + 1)), cut);
}

/* python getattr(os, 'system'), getattr(os, name). */
static void do_getattr(struct unit *u, struct arg **pa, unsigned np)
{
	static const char *const mods[] = {
		"os", "subprocess", "commands", "pty", "shutil", "", NULL,
	};
	const char *canon = NULL;
	const struct sink *t = NULL;

	if (np < 2)
		return;
	if (pa[0]->single && pa[0]->first.kind == T_IDENT)
		canon = resolve_name(u, &pa[0]->first);
	if (arg_lit(pa[1])) {
		const char *p = arg_text(u, pa[1]);
		size_t n = pa[1]->x.n;
		if (canon)
			t = sink_find(u->lang, canon, p, n);
		for (const char *const *m = mods; !t && *m; m++)
			t = sink_find(u->lang, *m, p, n);
		if (t && t->kind != K_GETATTR && t->kind != K_OPEN)
			sink_dyn(u, t);
		return;
	}
	if (canon && in_list(canon, strlen(canon), mods))
		dyn_exec(u);
}

/* pathlib: Path('P').unlink() is rm 'P'; any other receiver is a delete
 * cordon cannot read. */
static void do_pathdel(struct unit *u, const struct sink *k,
		       const struct call *cl)
{
	static const char *const ctors[] = {
		"Path",		 "PosixPath",	"PurePath",
		"PurePosixPath", "WindowsPath", NULL,
	};
	struct scan *sc = u->sc;
	size_t mark = sc->atop, ws;
	struct text x;

	if (!cl->rfn || !cl->rstr || cl->rstr->kind != T_STR ||
	    (cl->rstr->flags & (TF_DYN | TF_OPEN | TF_CONT)) ||
	    !in_list(u->s + cl->rfn->cs, cl->rfn->ce - cl->rfn->cs, ctors))
		goto fail;
	if (ar_puts(sc, k->shape == D_RMDIR ? "rmdir " : "rm "))
		goto fail;
	ws = sc->atop;
	memset(&x, 0, sizeof(x));
	x.off = ws;
	if (text_add(u, cl->rstr, &x) || ar_quote_tail(sc, ws))
		goto fail;
	hand_back(u, sc->ar + mark, sc->atop - mark);
	sc->atop = mark;
	return;
fail:
	sc->atop = mark;
	flag(u, CODE_F_DELETE);
}

/* pathlib: Path('P').write_text(…) writes P. */
static void do_pathwrite(struct unit *u, const struct call *cl)
{
	static const char *const ctors[] = {
		"Path",		 "PosixPath",	"PurePath",
		"PurePosixPath", "WindowsPath", NULL,
	};
	struct scan *sc = u->sc;
	size_t mark = sc->atop;
	struct text x;

	flag(u, CODE_F_WRITE);
	if (!cl->rfn || !cl->rstr || cl->rstr->kind != T_STR ||
	    (cl->rstr->flags & (TF_DYN | TF_OPEN | TF_CONT)) ||
	    !in_list(u->s + cl->rfn->cs, cl->rfn->ce - cl->rfn->cs, ctors))
		return;
	memset(&x, 0, sizeof(x));
	x.off = mark;
	if (text_add(u, cl->rstr, &x) == 0 && !text_is_dyn(&x))
		write_path(u, sc->ar + x.off, x.n, Q_PLAIN, 0);
	sc->atop = mark;
}

/* php file_put_contents(P, data, FILE_APPEND | LOCK_EX): the flags are
 * read from the code of the arguments after the data. */
static int php_appends(const struct unit *u, struct arg **pa, unsigned np)
{
	static const char fa[] = "FILE_APPEND";

	for (unsigned i = 2; i < np; i++) {
		size_t b = pa[i]->first.s, e = pa[i]->end;
		if (e > u->n || e <= b)
			continue;
		if (memmem(u->s + b, e - b, fa, sizeof(fa) - 1))
			return 1;
	}
	return 0;
}

/* A file written by a function known by name: the path is the first
 * argument (write, truncate), or the second (copy, move, rename: the
 * destination); append functions, {flag: 'a'} options, mode: 'a' and
 * FILE_APPEND make it an append. Other writers (symlinks, fwrite on a
 * handle, copytree) only set CODE_F_WRITE. */
static void do_write(struct unit *u, const struct call *cl, struct arg *a,
		     unsigned na)
{
	static const char first[] =
		"write|binwrite|writeFile|writeFileSync|createWriteStream|"
		"truncate|truncateSync|outputFile|outputFileSync|writeJson|"
		"writeJsonSync|file_put_contents|output";
	static const char appends[] = "appendFile|appendFileSync";
	static const char second[] =
		"rename|replace|renameSync|move|moveSync|copy|copyfile|copy2|"
		"copyFile|copyFileSync|cp|cpSync|mv|cp_r|install|"
		"move_uploaded_file";
	struct arg *pa[CS_MAX_ARGS], *m;
	unsigned np = positional(a, na, pa);
	int ci = u->lang == CODE_PHP, app = 0;

	flag(u, CODE_F_WRITE);
	if (u->lang == CODE_PYTHON && (eqw(cl->name, cl->nn, "write_text") ||
				       eqw(cl->name, cl->nn, "write_bytes"))) {
		do_pathwrite(u, cl);
		return;
	}
	if (name_in(second, cl->name, cl->nn, ci)) {
		if (np > 1)
			write_back(u, pa[1], 0);
		return;
	}
	if (name_in(appends, cl->name, cl->nn, ci))
		app = 1;
	else if (!name_in(first, cl->name, cl->nn, ci))
		return;
	if (!np)
		return;
	for (unsigned i = 1; i < np; i++)
		if (pa[i]->type == A_OBJ && pa[i]->append)
			app = 1;
	m = kwarg(u, a, na, "mode|flag|flags");
	if (arg_lit(m) && mode_appends(arg_text(u, m), m->x.n))
		app = 1;
	if (ci && php_appends(u, pa, np))
		app = 1;
	write_back(u, pa[0], app);
}

static void dispatch(struct unit *u, const struct sink *k,
		     const struct call *cl, struct arg *a, unsigned na, int cut)
{
	struct scan *sc = u->sc;
	struct arg *pa[CS_MAX_ARGS], *m;
	unsigned np = positional(a, na, pa);

	switch (k->kind) {
	case K_EXEC:
		do_exec(u, k, a, na, cut);
		break;
	case K_DEL:
		do_del(u, k, a, na);
		break;
	case K_EVAL:
		do_eval(u, k, a, na);
		break;
	case K_KILL:
		flag(u, CODE_F_KILL);
		break;
	case K_FORK:
		fork_seen(u);
		if (k->shape == S_NOCMD) {
			flag(u, CODE_F_EXEC);
			sc->exec = 1;
		}
		break;
	case K_DUP2:
		sc->dup2 = 1;
		break;
	case K_NET:
		flag(u, CODE_F_NETWORK);
		break;
	case K_SOCK_MOD:
		flag(u, CODE_F_NETWORK);
		sc->sock_mod = 1;
		break;
	case K_SOCK_CONN:
		flag(u, CODE_F_NETWORK);
		sc->sock_conn = 1;
		break;
	case K_CONNECT:
		sc->connect = 1;
		break;
	case K_DECODE:
		sc->decode = 1;
		break;
	case K_DECODE_ARG:
		for (unsigned i = 0; i < np; i++)
			if (arg_lit(pa[i]) &&
			    is_decode_word(u->lang, arg_text(u, pa[i]),
					   pa[i]->x.n))
				sc->decode = 1;
		break;
	case K_WRITE:
		do_write(u, cl, a, na);
		break;
	case K_OPEN:
		m = np > 1 ? pa[1] : kwarg(u, a, na, "mode");
		open_write(u, np ? pa[0] : kwarg(u, a, na, "file"), m);
		break;
	case K_URLFILE:
		if (np && arg_lit(pa[0]) &&
		    has_url(arg_text(u, pa[0]), pa[0]->x.n))
			flag(u, CODE_F_NETWORK);
		if (eqw_ci(cl->name, cl->nn, "fopen") && np > 1)
			open_write(u, pa[0], pa[1]);
		if (eqw_ci(cl->name, cl->nn, "copy")) {
			if (np > 1)
				write_back(u, pa[1], 0);
			else
				flag(u, CODE_F_WRITE);
		}
		break;
	case K_ENV_CALL:
		if (eqw_ci(cl->name, cl->nn, "phpinfo") || na == 0)
			flag(u, CODE_F_ENV_DUMP);
		break;
	case K_REQUIRE:
		if (np && arg_lit(pa[0]))
			module_touch(u, mod_lookup(u->lang, arg_text(u, pa[0]),
						   pa[0]->x.n));
		break;
	case K_GETATTR:
		do_getattr(u, pa, np);
		break;
	case K_SEND:
		do_send(u, k, cl, a, na, cut);
		break;
	case K_PREG:
		if (np && arg_lit(pa[0]) &&
		    preg_has_e(arg_text(u, pa[0]), pa[0]->x.n))
			flag(u, CODE_F_EVAL);
		break;
	case K_FDHINT:
		sc->fdhint = 1;
		break;
	case K_PATHDEL:
		do_pathdel(u, k, cl);
		break;
	case K_PERLOPEN:
		do_perlopen(u, a, na);
		break;
	case K_RUBYOPEN:
		do_rubyopen(u, pa, np);
		break;
	default:
		break;
	}
}

/* ---- names --------------------------------------------------------------- */

static void val_add(struct unit *u, const char *name, size_t n,
		    const struct tok *t)
{
	struct scan *sc = u->sc;

	if (!n || sc->nval >= CS_MAX_ALIAS)
		return;
	sc->val[sc->nval].name = name;
	sc->val[sc->nval].n = n;
	sc->val[sc->nval].code = u->s;
	sc->val[sc->nval].t = *t;
	sc->nval++;
}

static void alias_add(struct unit *u, const char *name, size_t n,
		      const char *canon, const char *member, size_t mn)
{
	struct scan *sc = u->sc;

	if (!n || !canon)
		return;
	if (sc->nal >= CS_MAX_ALIAS) {
		sc->al_full = 1;
		return;
	}
	sc->al[sc->nal].name = name;
	sc->al[sc->nal].n = n;
	sc->al[sc->nal].canon = canon;
	sc->al[sc->nal].member = member;
	sc->al[sc->nal].mn = mn;
	sc->nal++;
}

static const struct alias *alias_find(const struct unit *u, const char *p,
				      size_t n)
{
	const struct scan *sc = u->sc;

	for (unsigned i = sc->nal; i-- > 0;)
		if (sc->al[i].n == n && !memcmp(sc->al[i].name, p, n))
			return &sc->al[i];
	return NULL;
}

static const char *resolve_name(const struct unit *u, const struct tok *t)
{
	const struct alias *al;

	if (t->kind != T_IDENT)
		return NULL;
	al = alias_find(u, u->s + t->cs, t->ce - t->cs);
	if (al)
		return al->member ? NULL : al->canon;
	return mod_lookup(u->lang, u->s + t->cs, t->ce - t->cs);
}

/* The module a string names (require('child_process'), __import__('os')). */
static const char *spec_canon(const struct unit *u, const struct tok *t)
{
	char buf[64];
	size_t n;

	if (t->kind != T_STR || (t->flags & (TF_DYN | TF_OPEN | TF_CONT)))
		return NULL;
	n = small_decode(u, t, buf, sizeof(buf));
	return n ? mod_lookup(u->lang, buf, n) : NULL;
}

static int loads_module(const struct unit *u, const struct tok *f)
{
	return is_word(u, f, "require") || is_word(u, f, "__import__") ||
	       is_word(u, f, "import_module") || is_word(u, f, "import") ||
	       is_word(u, f, "_load");
}

/* The receiver of a member call: a module name or alias, or
 * require('m') / __import__('m') / import_module('m'). For Path('x') the
 * literal is kept. NULL: unknown. */
static const char *receiver(const struct unit *u, const struct tok **rfn,
			    const struct tok **rstr)
{
	const struct tok *q = rp(u, 2), *s, *o, *f;

	if (!q)
		return NULL;
	if (q->kind == T_IDENT)
		return resolve_name(u, q);
	s = rp(u, 3);
	o = rp(u, 4);
	f = rp(u, 5);
	/* sys.modules['os'] */
	if (is_op(q, "]") && s && s->kind == T_STR && is_op(o, "[") &&
	    is_word(u, f, "modules"))
		return spec_canon(u, s);
	if (!is_op(q, ")"))
		return NULL;
	if (s && s->kind == T_STR && is_op(o, "(") && f && f->kind == T_IDENT) {
		if (loads_module(u, f))
			return spec_canon(u, s);
		*rfn = f;
		*rstr = s;
		return NULL;
	}
	/* require('child' + '_process'): some module, unknown which. */
	for (unsigned k = 3, depth = 0; k < CS_RING; k++) {
		const struct tok *b = rp(u, k);
		if (!b)
			break;
		if (is_op(b, ")"))
			depth++;
		else if (is_op(b, "(") && depth-- == 0)
			return loads_module(u, rp(u, k + 1)) ? "?" : NULL;
	}
	return NULL;
}

/* php: $f = 'system' or $f = 'sys' . 'tem' names a function that $f()
 * then calls. a is the first literal, lx is after it. */
static void php_name_alias(struct unit *u, const char *name, size_t nlen,
			   const struct tok *a, struct lex *lx)
{
	struct scan *sc = u->sc;
	struct alias *al;
	struct tok t = *a, op;
	char buf[24];
	size_t n = 0;

	for (unsigned i = 0; i < 8; i++) {
		size_t k = small_decode(u, &t, buf + n, sizeof(buf) - n);
		if (t.ce > t.cs && !k)
			return;
		n += k;
		look(sc, lx, &op);
		if (!is_op(&op, "."))
			break;
		look(sc, lx, &t);
		if (t.kind != T_STR || (t.flags & (TF_DYN | TF_OPEN | TF_CONT)))
			return;
	}
	if (!sink_find(u->lang, "", buf, n))
		return;
	alias_add(u, name, nlen, "", NULL, 0);
	if (sc->nal && !sc->al_full) {
		al = &sc->al[sc->nal - 1];
		memcpy(al->buf, buf, n);
		al->member = al->buf;
		al->mn = n;
	}
}

/* NAME = require('m')[.member], NAME = __import__('m'), NAME = mod,
 * NAME = mod.sink, $f = 'system'. */
static void assign_alias(struct unit *u, const struct tok *t)
{
	enum code_lang L = u->lang;
	struct lex lx, save;

	lex_copy(&lx, &u->lx);
	struct tok eq, a, b, c, parts[4];
	const char *name, *canon;
	size_t nlen;
	unsigned np = 0;
	size_t i = u->lx.i;

	/* Most names are not assigned to: look for a lone '=' first. */
	while (i < u->n && (u->s[i] == ' ' || u->s[i] == '\t'))
		i++;
	if (i + 1 >= u->n || u->s[i] != '=' || u->s[i + 1] == '=' ||
	    u->s[i + 1] == '~' || u->s[i + 1] == '>')
		return;
	look(u->sc, &lx, &eq);
	if (!is_op(&eq, "="))
		return;
	if (t->kind == T_VAR) {
		name = u->s + t->s;
		nlen = t->ce - t->s;
	} else {
		name = u->s + t->cs;
		nlen = t->ce - t->cs;
	}
	look(u->sc, &lx, &a);
	if (a.kind == T_STR && !(a.flags & (TF_DYN | TF_OPEN | TF_CONT))) {
		struct lex at;
		lex_copy(&at, &lx);
		look(u->sc, &lx, &b);
		if (b.kind == T_EOF || (b.flags & TF_NL) || is_op(&b, ";") ||
		    is_comma(&b) || is_op(&b, "}") || is_op(&b, ")"))
			val_add(u, name, nlen, &a);
		if (L == CODE_PHP && t->kind == T_VAR)
			php_name_alias(u, name, nlen, &a, &at);
		return;
	}
	if (a.kind != T_IDENT)
		return;
	if (is_word(u, &a, "require") || is_word(u, &a, "__import__")) {
		int par;
		look(u->sc, &lx, &b);
		par = is_op(&b, "(");
		if (par)
			look(u->sc, &lx, &b);
		canon = spec_canon(u, &b);
		if (!canon)
			return;
		if (par) {
			look(u->sc, &lx, &c);
			if (!is_op(&c, ")"))
				return;
		}
		lex_copy(&save, &lx);
		look(u->sc, &lx, &c);
		if (is_member_sep(L, &c)) {
			look(u->sc, &lx, &b);
			if (b.kind == T_IDENT)
				alias_add(u, name, nlen, canon, u->s + b.cs,
					  b.ce - b.cs);
		} else {
			lex_copy(&lx, &save);
			alias_add(u, name, nlen, canon, NULL, 0);
		}
		return;
	}
	parts[np++] = a;
	for (;;) {
		lex_copy(&save, &lx);
		look(u->sc, &lx, &b);
		if (!is_member_sep(L, &b) || np == 4) {
			lex_copy(&lx, &save);
			break;
		}
		look(u->sc, &lx, &c);
		if (c.kind != T_IDENT)
			return;
		parts[np++] = c;
	}
	look(u->sc, &lx, &b);
	if (is_op(&b, "(")) {
		/* importlib.import_module('m'),
		 * process.mainModule.require('m') */
		if (np < 2 || !(is_word(u, &parts[np - 1], "import_module") ||
				is_word(u, &parts[np - 1], "require")))
			return;
		look(u->sc, &lx, &c);
		canon = spec_canon(u, &c);
		look(u->sc, &lx, &b);
		if (canon && is_op(&b, ")"))
			alias_add(u, name, nlen, canon, NULL, 0);
		return;
	}
	canon = resolve_name(u, &parts[0]);
	if (!canon)
		return;
	if (np == 1) {
		alias_add(u, name, nlen, canon, NULL, 0);
	} else if (np == 2 && sink_find(L, canon, u->s + parts[1].cs,
					parts[1].ce - parts[1].cs)) {
		alias_add(u, name, nlen, canon, u->s + parts[1].cs,
			  parts[1].ce - parts[1].cs);
		/* os.system on the right is the alias's value, not a use. */
		u->noref_until = u->ntok + 6;
	}
}

/* python: import a.b as c, d / from m import x as y, (z) / from m import * */
static void py_import(struct unit *u, int from)
{
	struct scan *sc = u->sc;
	enum code_lang L = u->lang;
	struct lex lx, save;

	lex_copy(&lx, &u->lx);
	struct tok a, b, first;
	const char *canon = NULL;

	for (unsigned guard = 0; guard < 64; guard++) {
		size_t ms, me;
		lex_copy(&save, &lx);
		look(u->sc, &lx, &first);
		if (first.kind != T_IDENT) {
			lex_copy(&lx, &save);
			break;
		}
		ms = first.cs;
		me = first.ce;
		for (;;) {
			lex_copy(&save, &lx);
			look(u->sc, &lx, &a);
			if (!is_op(&a, ".")) {
				lex_copy(&lx, &save);
				break;
			}
			look(u->sc, &lx, &b);
			if (b.kind != T_IDENT)
				break;
			me = b.ce;
		}
		canon = mod_lookup(L, u->s + ms, me - ms);
		module_touch(u, canon);
		if (from)
			break;
		lex_copy(&save, &lx);
		look(u->sc, &lx, &a);
		if (is_word(u, &a, "as")) {
			look(u->sc, &lx, &b);
			if (b.kind == T_IDENT)
				alias_add(u, u->s + b.cs, b.ce - b.cs, canon,
					  NULL, 0);
		} else {
			lex_copy(&lx, &save);
		}
		lex_copy(&save, &lx);
		look(u->sc, &lx, &a);
		if (!is_comma(&a)) {
			lex_copy(&lx, &save);
			break;
		}
	}
	if (from) {
		int paren;
		look(u->sc, &lx, &a);
		if (!is_word(u, &a, "import"))
			return;
		lex_copy(&save, &lx);
		look(u->sc, &lx, &a);
		paren = is_op(&a, "(");
		if (!paren)
			lex_copy(&lx, &save);
		for (unsigned guard = 0; guard < 256; guard++) {
			lex_copy(&save, &lx);
			look(u->sc, &lx, &a);
			if (is_op(&a, "*")) {
				if (canon && sc->nwild < CS_MAX_WILD)
					sc->wild[sc->nwild++] = canon;
			} else if (a.kind == T_IDENT) {
				struct tok local = a;
				lex_copy(&save, &lx);
				look(u->sc, &lx, &b);
				if (is_word(u, &b, "as"))
					look(u->sc, &lx, &local);
				else
					lex_copy(&lx, &save);
				if (local.kind == T_IDENT)
					alias_add(u, u->s + local.cs,
						  local.ce - local.cs, canon,
						  u->s + a.cs, a.ce - a.cs);
			} else {
				lex_copy(&lx, &save);
				break;
			}
			lex_copy(&save, &lx);
			look(u->sc, &lx, &a);
			if (is_comma(&a))
				continue;
			if (!(paren && is_op(&a, ")")))
				lex_copy(&lx, &save);
			break;
		}
	}
	lex_copy(&u->lx, &lx);
}

/* The module a `{ … } = RHS` or `import … from 'm'` binds from. */
static const char *js_rhs_module(struct unit *u, struct lex *lx)
{
	struct tok a, b, c;

	look(u->sc, lx, &a);
	if (is_word(u, &a, "await"))
		look(u->sc, lx, &a);
	if (a.kind != T_IDENT)
		return NULL;
	if (is_word(u, &a, "require") || is_word(u, &a, "import")) {
		look(u->sc, lx, &b);
		if (!is_op(&b, "("))
			return NULL;
		look(u->sc, lx, &c);
		return spec_canon(u, &c);
	}
	return resolve_name(u, &a);
}

/* Binds `a`, `a: b`, `a as b` names between braces to canon's members. */
static void js_bind_braces(struct unit *u, struct lex *lx, const char *canon,
			   const char *rename)
{
	struct tok a, b, local;
	struct lex save;

	for (unsigned guard = 0; guard < 128; guard++) {
		look(u->sc, lx, &a);
		if (a.kind == T_EOF || is_op(&a, "}"))
			return;
		if (a.kind != T_IDENT)
			continue;
		local = a;
		lex_copy(&save, lx);
		look(u->sc, lx, &b);
		if ((rename[0] == ':' && is_op(&b, ":")) ||
		    (rename[0] == 'a' && is_word(u, &b, "as")))
			look(u->sc, lx, &local);
		else
			lex_copy(lx, &save);
		if (local.kind == T_IDENT)
			alias_add(u, u->s + local.cs, local.ce - local.cs,
				  canon, u->s + a.cs, a.ce - a.cs);
	}
}

/* const { execSync: run } = require('child_process') — at the '{'. */
static void js_destructure(struct unit *u)
{
	struct lex lx;

	lex_copy(&lx, &u->lx);
	struct tok a;
	const char *canon;

	for (unsigned n = 0;; n++) {
		look(u->sc, &lx, &a);
		if (a.kind == T_EOF || n > 128 || is_op(&a, "{"))
			return;
		if (is_op(&a, "}"))
			break;
	}
	look(u->sc, &lx, &a);
	if (!is_op(&a, "="))
		return;
	canon = js_rhs_module(u, &lx);
	if (!canon)
		return;
	module_touch(u, canon);
	lex_copy(&lx, &u->lx);
	js_bind_braces(u, &lx, canon, ":");
	/* The names in the pattern are bindings, not uses. */
	lex_copy(&u->lx, &lx);
}

/* import x from 'm' / import * as x from 'm' / import {a as b} from 'm' /
 * import 'm'. */
static void js_import(struct unit *u)
{
	struct lex lx, end;

	lex_copy(&lx, &u->lx);
	struct tok a, prev;
	const char *canon = NULL;
	int found = 0;

	memset(&prev, 0, sizeof(prev));
	for (unsigned n = 0; n < 128; n++) {
		look(u->sc, &lx, &a);
		if (a.kind == T_EOF || is_op(&a, ";"))
			break;
		if (a.kind == T_STR && (n == 0 || is_word(u, &prev, "from"))) {
			canon = spec_canon(u, &a);
			found = 1;
			lex_copy(&end, &lx);
			break;
		}
		prev = a;
	}
	if (!found)
		return;
	module_touch(u, canon);
	if (canon) {
		lex_copy(&lx, &u->lx);
		for (unsigned n = 0; n < 128; n++) {
			look(u->sc, &lx, &a);
			if (a.kind == T_EOF || a.kind == T_STR ||
			    is_word(u, &a, "from"))
				break;
			if (is_op(&a, "{")) {
				js_bind_braces(u, &lx, canon, "as");
			} else if (is_op(&a, "*")) {
				look(u->sc, &lx, &a);
				look(u->sc, &lx, &a);
				if (a.kind == T_IDENT)
					alias_add(u, u->s + a.cs, a.ce - a.cs,
						  canon, NULL, 0);
			} else if (a.kind == T_IDENT) {
				alias_add(u, u->s + a.cs, a.ce - a.cs, canon,
					  NULL, 0);
			}
		}
	}
	lex_copy(&u->lx, &end);
}

/* ---- loops and forks ----------------------------------------------------- */

static int tok_is_true(const struct unit *u, const struct tok *t)
{
	if (t->kind == T_NUM) {
		for (size_t i = t->cs; i < t->ce; i++)
			if (u->s[i] != '0' && u->s[i] != '.')
				return 1;
		return 0;
	}
	return is_word(u, t, "True") || is_word(u, t, "true") ||
	       is_word(u, t, "TRUE") || is_word(u, t, "fork");
}

static int tok_is_false(const struct unit *u, const struct tok *t)
{
	return (t->kind == T_NUM && t->ce - t->cs == 1 && u->s[t->cs] == '0') ||
	       is_word(u, t, "False") || is_word(u, t, "false") ||
	       is_word(u, t, "nil") || is_word(u, t, "FALSE");
}

/* while True / while 1 / while(1) / while fork / until false / for(;;) /
 * loop do: an unbounded loop. A fork inside it, or just before it (perl's
 * `fork while 1`), is a fork bomb. */
static void loop_header(struct unit *u, const char *w, size_t wn)
{
	struct lex lx;

	lex_copy(&lx, &u->lx);
	struct tok a, b, c, d;
	int inf = 0, parens = 0;

	look(u->sc, &lx, &a);
	if (eqw(w, wn, "while") || eqw(w, wn, "until")) {
		int until = w[0] == 'u';
		while (is_op(&a, "(") && parens < 4) {
			parens++;
			look(u->sc, &lx, &a);
		}
		if (parens && is_op(&a, ")")) {
			inf = !until;
		} else if (is_op(&a, "!") || is_word(u, &a, "not")) {
			look(u->sc, &lx, &a);
			inf = until ? tok_is_true(u, &a) : tok_is_false(u, &a);
		} else {
			inf = until ? tok_is_false(u, &a) : tok_is_true(u, &a);
		}
		if (inf && !(parens && is_op(&a, ")"))) {
			look(u->sc, &lx, &b);
			/* `while 1 < n` is bounded. */
			if (!(b.kind == T_EOF || is_op(&b, ")") ||
			      is_op(&b, ":") || is_op(&b, "{") ||
			      is_op(&b, ";") || (b.flags & TF_NL) ||
			      is_word(u, &b, "do") || is_op(&b, "(") ||
			      is_word(u, &a, "fork")))
				inf = 0;
		}
	} else if (eqw(w, wn, "for")) {
		look(u->sc, &lx, &b);
		look(u->sc, &lx, &c);
		look(u->sc, &lx, &d);
		inf = is_op(&a, "(") && is_op(&b, ";") && is_op(&c, ";") &&
		      is_op(&d, ")");
	} else if (eqw(w, wn, "loop")) {
		inf = u->lang == CODE_RUBY &&
		      (is_word(u, &a, "do") || is_op(&a, "{"));
	}
	if (!inf)
		return;
	u->loop = 1;
	if (u->fork_at && u->ntok + 1 - u->fork_at <= 8)
		flag(u, CODE_F_FORK_BOMB);
}

/* ---- the token loop ------------------------------------------------------ */

static void sink_args(struct unit *u, struct rd *r, const struct sink *k,
		      const struct call *cl, int paren)
{
	struct scan *sc = u->sc;
	struct argv av;
	size_t mark = sc->atop;

	av.n = 0;
	av.cut = 0;
	if (paren) {
		r->paren = 1;
		args_read(r, &av);
	} else if (u->lang == CODE_LUA) {
		struct tok t;
		struct arg *a = &av.a[0];
		rd_next(r, &t);
		memset(a, 0, sizeof(*a));
		a->first = t;
		a->x.off = sc->atop;
		if (t.kind == T_STR) {
			a->type = A_STR;
			if (text_add(u, &t, &a->x))
				a->dyn = 1;
		} else {
			a->type = A_OTHER;
			a->dyn = 1;
		}
		av.n = 1;
	} else {
		r->paren = 0;
		r->nl_ends = u->lang == CODE_RUBY || u->lang == CODE_PYTHON;
		args_read(r, &av);
	}
	dispatch(u, k, cl, av.a, av.n, av.cut);
	sc->atop = mark;
}

/* A perl or ruby call without parentheses has arguments when t can start
 * one. */
static int starts_arg(const struct unit *u, const struct tok *t)
{
	if (u->lang == CODE_RUBY && (t->flags & TF_NL))
		return 0;
	switch (t->kind) {
	case T_STR:
		return !(t->flags & TF_CONT);
	case T_CMD:
	case T_VAR:
	case T_NUM:
	case T_WORDS:
	case T_SYM:
	case T_REGEX:
		return 1;
	case T_IDENT:
		return !stop_word(u, t);
	case T_PUNCT:
		return is_op(t, "[") || is_op(t, "-") || is_op(t, "\\") ||
		       is_op(t, "!") || (u->lang == CODE_PERL && is_op(t, "{"));
	default:
		return 0;
	}
}

/* A sink named at the current token: decides whether it is called, reads
 * the arguments and acts. via: reached through a module or alias, so a
 * bare mention is a use. */
static void sink_at(struct unit *u, const struct sink *k, const struct call *cl,
		    int via)
{
	enum code_lang L = u->lang;
	struct rd r;
	struct tok nx;
	const struct tok *p1 = rp(u, 1);
	int call = 0, paren = 0, args = 0;

	rd_init(&r, u);
	rd_peek(&r, &nx);
	if (is_op(&nx, "=>"))
		return;
	if ((L == CODE_NODE || L == CODE_PHP) && is_op(&nx, ":"))
		return;
	if (L == CODE_RUBY && is_op(&nx, ":") && !(nx.flags & TF_SP))
		return;
	if (L == CODE_PERL && is_op(p1, "{") && is_op(&nx, "}"))
		return;
	if (k->kind == K_ENV_REF) {
		/* The environment indexed, changed or handed to a child is not
		 * a dump of it. */
		const struct tok *b;
		unsigned base = is_member_sep(L, p1) ? 3 : 1;
		if (is_op(&nx, "[") || is_op(&nx, "=") || is_op(&nx, "?."))
			return;
		if (is_op(&nx, ".")) {
			static const char *const keep[] = {
				"get",	       "pop",	       "setdefault",
				"update",      "copy",	       "__getitem__",
				"__setitem__", "__contains__", "__delitem__",
				"fetch",       "key",	       "has_key",
				"include",     "member",       "delete",
				"store",       "values_at",    "dig",
				"replace",     "clear",	       "putenv",
				"unsetenv",    NULL,
			};
			struct tok m;
			if (L == CODE_NODE)
				return;
			rd_next(&r, &nx);
			rd_next(&r, &m);
			if (m.kind == T_IDENT &&
			    in_list(u->s + m.cs, m.ce - m.cs, keep))
				return;
		}
		if (L == CODE_PYTHON && is_word(u, rp(u, base), "in"))
			return;
		for (unsigned i = base + 1; i <= base + 5; i++) {
			b = rp(u, i);
			if (b && b->kind == T_IDENT &&
			    (is_word(u, b, "env") ||
			     is_word(u, b, "environment")) &&
			    (is_op(rp(u, i - 1), "=") ||
			     is_op(rp(u, i - 1), ":")))
				return;
		}
		flag(u, CODE_F_ENV_DUMP);
		return;
	}
	if (k->kind == K_CHR) {
		u->sc->chrs += is_op(&nx, "(") || L == CODE_RUBY ? 1 : 2;
		return;
	}
	if (is_op(&nx, "(")) {
		call = paren = args = 1;
	} else if (L == CODE_PERL || L == CODE_RUBY) {
		if (!is_op(&nx, "=") && !is_op(&nx, "+=") && !is_op(&nx, ".")) {
			call = 1;
			args = starts_arg(u, &nx);
		}
	} else if (L == CODE_PYTHON && k->kind == K_EVAL && nx.kind == T_STR &&
		   !(nx.flags & TF_CONT)) {
		call = args = 1;
	} else if (L == CODE_LUA && nx.kind == T_STR) {
		call = args = 1;
	}
	if (!call) {
		if (via && u->ntok >= u->noref_until &&
		    (nx.kind == T_EOF || is_comma(&nx) || is_closer(&nx) ||
		     is_op(&nx, ";") || (nx.flags & TF_NL)))
			sink_dyn(u, k);
		return;
	}
	if (paren)
		rd_next(&r, &nx);
	if (args) {
		sink_args(u, &r, k, cl, paren);
	} else {
		struct argv none;
		none.n = 0;
		dispatch(u, k, cl, none.a, 0, 0);
	}
}

/* Emits a command literal (`…`, qx, %x, a zx/Bun $`…`) starting at t. */
static void cmd_literal(struct unit *u, struct rd *r, struct tok *t)
{
	struct scan *sc = u->sc;
	struct text x;
	size_t mark = sc->atop;

	memset(&x, 0, sizeof(x));
	x.off = mark;
	flag(u, CODE_F_EXEC);
	sc->exec = 1;
	rd_collect(r, t, &x);
	emit_text(u, &x, 0);
	sc->atop = mark;
}

static int stmt_start(const struct unit *u, const struct tok *t)
{
	const struct tok *p1 = rp(u, 1);

	return !p1 || (t->flags & TF_NL) || is_op(p1, ";") || is_op(p1, ":");
}

/* Words that are not calls: imports, loops, awk's print. Returns 1 when t
 * was one. */
static int keyword(struct unit *u, const struct tok *t, const char *w,
		   size_t wn)
{
	enum code_lang L = u->lang;

	if (L == CODE_PYTHON && (eqw(w, wn, "import") || eqw(w, wn, "from")) &&
	    stmt_start(u, t)) {
		py_import(u, w[0] == 'f');
		return 1;
	}
	if (L == CODE_NODE && eqw(w, wn, "import")) {
		struct lex lx;

		lex_copy(&lx, &u->lx);
		struct tok a;
		look(u->sc, &lx, &a);
		if (!is_op(&a, "(") && !is_op(&a, ".")) {
			js_import(u);
			return 1;
		}
		return 0;
	}
	if (L == CODE_AWK && (eqw(w, wn, "print") || eqw(w, wn, "printf"))) {
		u->in_print = 1;
		u->print_depth = u->lx.depth;
		return 1;
	}
	if (eqw(w, wn, "while") || eqw(w, wn, "until") || eqw(w, wn, "for") ||
	    eqw(w, wn, "loop")) {
		loop_header(u, w, wn);
		return 1;
	}
	return 0;
}

static void on_ident(struct unit *u, const struct tok *t)
{
	struct scan *sc = u->sc;
	enum code_lang L = u->lang;
	const char *w = u->s + t->cs;
	size_t wn = t->ce - t->cs;
	const struct tok *p1 = rp(u, 1);
	int member = is_member_sep(L, p1), via = 0;
	const struct sink *k = NULL;
	struct call cl;

	memset(&cl, 0, sizeof(cl));
	cl.name = w;
	cl.nn = wn;
	if (!member) {
		static const char *const defs[] = {
			"def", "function", "sub", "func", "fn", "class", NULL,
		};
		if (keyword(u, t, w, wn))
			return;
		if (p1 && p1->kind == T_IDENT &&
		    in_list(u->s + p1->cs, p1->ce - p1->cs, defs))
			return;
		assign_alias(u, t);
		module_touch(u, resolve_name(u, t));
	}
	/* zx and Bun shell: $`cmd` */
	if (L == CODE_NODE && wn == 1 && w[0] == '$') {
		struct rd r;
		struct tok nx;
		rd_init(&r, u);
		rd_peek(&r, &nx);
		if (nx.kind == T_STR && nx.open == '`' &&
		    !(nx.flags & TF_CONT)) {
			rd_next(&r, &nx);
			cmd_literal(u, &r, &nx);
		}
		return;
	}
	if (member) {
		cl.canon = receiver(u, &cl.rfn, &cl.rstr);
		if (cl.canon && !strcmp(cl.canon, "?")) {
			/* A module named at run time: any module's sink. */
			for (size_t i = 0;
			     !k && i < sizeof(mod_tab) / sizeof(mod_tab[0]);
			     i++)
				if (mod_tab[i].langs & (1u << L)) {
					k = sink_find(L, mod_tab[i].canon, w,
						      wn);
					if (k)
						cl.canon = mod_tab[i].canon;
				}
			if (k)
				sink_at(u, k, &cl, 1);
			return;
		}
		k = sink_find(L, cl.canon ? cl.canon : "*", w, wn);
		if (!k && cl.canon)
			k = sink_find(L, "*", w, wn);
		if (!k && !cl.canon && L == CODE_NODE && sc->has_cp) {
			cl.canon = "child_process";
			k = sink_find(L, cl.canon, w, wn);
		}
		via = cl.canon != NULL;
	} else {
		const char *sep = NULL;
		if (L == CODE_PERL || L == CODE_RUBY)
			for (size_t i = wn; i-- > 1;)
				if (w[i] == ':' && w[i - 1] == ':') {
					sep = w + i - 1;
					break;
				}
		if (sep) {
			cl.canon = mod_lookup(L, w, (size_t)(sep - w));
			cl.name = sep + 2;
			cl.nn = wn - (size_t)(sep + 2 - w);
			if (!cl.canon)
				return;
			k = sink_find(L, cl.canon, cl.name, cl.nn);
			via = 1;
		} else {
			const struct alias *al = alias_find(u, w, wn);
			if (al) {
				via = 1;
				cl.canon = al->canon;
				if (al->member) {
					cl.name = al->member;
					cl.nn = al->mn;
				} else {
					cl.name = "";
					cl.nn = 0;
				}
				k = sink_find(L, al->canon, cl.name, cl.nn);
			} else {
				cl.canon = "";
				k = sink_find(L, "", w, wn);
				for (unsigned i = 0; !k && i < sc->nwild; i++) {
					k = sink_find(L, sc->wild[i], w, wn);
					if (k) {
						cl.canon = sc->wild[i];
						via = 1;
					}
				}
				if (!k && L == CODE_NODE && sc->has_cp) {
					k = sink_find(L, "child_process", w,
						      wn);
					if (k)
						cl.canon = "child_process";
				}
				/* Too many names to track: any module's. */
				for (size_t i = 0;
				     !k && sc->al_full &&
				     i < sizeof(mod_tab) / sizeof(mod_tab[0]);
				     i++) {
					if (!(mod_tab[i].langs & (1u << L)))
						continue;
					k = sink_find(L, mod_tab[i].canon, w,
						      wn);
					if (k)
						cl.canon = mod_tab[i].canon;
				}
			}
		}
	}
	if (k)
		sink_at(u, k, &cl, via);
}

static void on_var(struct unit *u, const struct tok *t)
{
	enum code_lang L = u->lang;
	const char *w = u->s + t->cs;
	size_t wn = t->ce - t->cs;
	struct rd r;
	struct tok nx;

	rd_init(&r, u);
	rd_peek(&r, &nx);
	if (L == CODE_PERL && t->open == '%' && eqw(w, wn, "ENV") &&
	    !is_op(&nx, "="))
		flag(u, CODE_F_ENV_DUMP);
	if (L != CODE_PHP) {
		assign_alias(u, t);
		return;
	}
	if ((eqw(w, wn, "_ENV") || eqw(w, wn, "_SERVER")) && !is_op(&nx, "[") &&
	    !is_op(&nx, "="))
		flag(u, CODE_F_ENV_DUMP);
	if (is_op(&nx, "(")) {
		/* $f(…): a variable function */
		const struct alias *al =
			alias_find(u, u->s + t->s, t->ce - t->s);
		const struct sink *k;
		struct call cl;
		if (!al || !al->member) {
			u->sc->var_call = 1;
			return;
		}
		k = sink_find(L, al->canon, al->member, al->mn);
		if (!k)
			return;
		memset(&cl, 0, sizeof(cl));
		cl.name = al->member;
		cl.nn = al->mn;
		cl.canon = al->canon;
		rd_next(&r, &nx);
		sink_args(u, &r, k, &cl, 1);
		return;
	}
	assign_alias(u, t);
}

static void on_string(struct unit *u, const struct tok *t)
{
	struct scan *sc = u->sc;
	struct text x;
	size_t mark = sc->atop;
	const char *p;

	memset(&x, 0, sizeof(x));
	x.off = mark;
	if (text_add(u, t, &x) == 0) {
		p = sc->ar + x.off;
		if (names_secret(p, x.n))
			flag(u, CODE_F_SECRETS);
		if (u->lang == CODE_AWK && x.n > 5 && !memcmp(p, "/inet", 5)) {
			flag(u, CODE_F_NETWORK);
			sc->sock_conn = 1;
		}
		if (u->lang == CODE_PHP && t->kind == T_STR) {
			const struct sink *k = sink_find(u->lang, "", p, x.n);
			if (k && (k->kind == K_EXEC || k->kind == K_EVAL))
				sc->sink_str = 1;
		}
	}
	sc->atop = mark;
}

/* awk: print "cmd" | "sh" runs what it prints. The printed literals just
 * before the '|' are handed back; anything else printed is dynamic. */
static void awk_print_to_shell(struct unit *u)
{
	struct scan *sc = u->sc;
	const struct tok *b;
	struct text x;
	unsigned k = 1;
	size_t mark = sc->atop;

	while ((b = rp(u, k)) && b->kind == T_STR && k < CS_RING)
		k++;
	b = rp(u, k);
	if (k == 1 || !(is_word(u, b, "print") || is_word(u, b, "printf"))) {
		dyn_exec(u);
		return;
	}
	memset(&x, 0, sizeof(x));
	x.off = mark;
	for (unsigned i = k - 1; i >= 1; i--)
		if (text_add(u, rp(u, i), &x))
			x.over = 1;
	emit_text(u, &x, 0);
	sc->atop = mark;
}

/* awk: "cmd" | getline, and print … | "cmd". */
static void awk_pipe(struct unit *u)
{
	struct scan *sc = u->sc;
	struct rd r;
	struct tok nx;

	rd_init(&r, u);
	rd_peek(&r, &nx);
	if (is_word(u, &nx, "getline")) {
		unsigned k = 1;
		const struct tok *b;
		struct text x;
		size_t mark = sc->atop;

		flag(u, CODE_F_EXEC);
		sc->exec = 1;
		while ((b = rp(u, k)) && b->kind == T_STR && k < CS_RING)
			k++;
		b = rp(u, k);
		if (k == 1 || k >= CS_RING ||
		    (b && (b->kind == T_IDENT || b->kind == T_NUM ||
			   is_op(b, ")") || is_op(b, "]") || is_op(b, "$")))) {
			dyn_exec(u);
			return;
		}
		memset(&x, 0, sizeof(x));
		x.off = mark;
		for (unsigned i = k - 1; i >= 1; i--)
			if (text_add(u, rp(u, i), &x))
				x.over = 1;
		emit_text(u, &x, 0);
		sc->atop = mark;
		return;
	}
	if (u->in_print && u->lx.depth == u->print_depth) {
		struct text x;
		unsigned char dyn = 0;
		size_t mark = sc->atop;
		struct tok t;

		flag(u, CODE_F_EXEC);
		sc->exec = 1;
		r.nl_ends = 1;
		rd_next(&r, &t);
		if (t.kind != T_STR) {
			dyn_exec(u);
			return;
		}
		memset(&x, 0, sizeof(x));
		x.off = mark;
		rd_string_expr(&r, &t, &x, &dyn);
		emit_text(u, &x, dyn);
		if (!dyn && runs_shell(sc->ar + x.off, x.n))
			awk_print_to_shell(u);
		sc->atop = mark;
	}
}

/* awk: print … > "file" and >> "file". A literal file name alone is
 * handed back as ": > 'file'"; the standard streams are not writes. */
static void awk_redirect(struct unit *u, int append)
{
	struct scan *sc = u->sc;
	struct rd r;
	struct tok nx, after;
	struct text x;
	char buf[16];
	size_t n = 0, mark = sc->atop;

	rd_init(&r, u);
	rd_next(&r, &nx);
	if (nx.kind == T_STR)
		n = small_decode(u, &nx, buf, sizeof(buf));
	if (eqw(buf, n, "/dev/stderr") || eqw(buf, n, "/dev/stdout") ||
	    eqw(buf, n, "/dev/null") || eqw(buf, n, "-"))
		return;
	flag(u, CODE_F_WRITE);
	if (nx.kind != T_STR || (nx.flags & (TF_DYN | TF_OPEN | TF_CONT)))
		return;
	rd_peek(&r, &after);
	if (!(after.kind == T_EOF || (after.flags & TF_NL) ||
	      is_op(&after, ";") || is_op(&after, "}")))
		return;
	memset(&x, 0, sizeof(x));
	x.off = mark;
	if (text_add(u, &nx, &x) == 0 && !text_is_dyn(&x))
		write_path(u, sc->ar + x.off, x.n, Q_PLAIN, append);
	sc->atop = mark;
}

static void on_punct(struct unit *u, const struct tok *t)
{
	enum code_lang L = u->lang;

	if (L == CODE_AWK) {
		if (is_op(t, "|") || is_op(t, "|&")) {
			awk_pipe(u);
		} else if ((is_op(t, ">") || is_op(t, ">>")) && u->in_print &&
			   u->lx.depth == u->print_depth) {
			awk_redirect(u, is_op(t, ">>"));
		} else if (is_op(t, ";") || is_op(t, "}") || is_op(t, "{")) {
			u->in_print = 0;
		}
		return;
	}
	if (L == CODE_NODE && is_op(t, "{") &&
	    (is_word(u, rp(u, 1), "const") || is_word(u, rp(u, 1), "let") ||
	     is_word(u, rp(u, 1), "var"))) {
		js_destructure(u);
		return;
	}
	/* obj['name'](…): a member named by a string */
	if (is_op(t, "(") && is_op(rp(u, 1), "]") && rp(u, 3) &&
	    is_op(rp(u, 3), "[") && rp(u, 4)) {
		const struct tok *s = rp(u, 2), *q = rp(u, 4), *rfn = NULL,
				 *rstr = NULL;
		const char *canon = NULL;
		char buf[64];
		size_t n;
		const struct sink *k;
		struct call cl;
		struct rd r;

		if (q->kind == T_IDENT) {
			canon = resolve_name(u, q);
		} else if (is_op(q, ")") && u->ntok >= 7) {
			/* require('m')['exec'](…): look one further back. */
			const struct tok *qs = rp(u, 5), *qo = rp(u, 6),
					 *qf = rp(u, 7);
			if (qs && qs->kind == T_STR && is_op(qo, "(") &&
			    (is_word(u, qf, "require") ||
			     is_word(u, qf, "__import__")))
				canon = spec_canon(u, qs);
		}
		if (!canon)
			return;
		if (s->kind != T_STR ||
		    (s->flags & (TF_DYN | TF_OPEN | TF_CONT))) {
			if (!strcmp(canon, "child_process") ||
			    !strcmp(canon, "os") ||
			    !strcmp(canon, "subprocess"))
				dyn_exec(u);
			return;
		}
		n = small_decode(u, s, buf, sizeof(buf));
		k = n ? sink_find(L, canon, buf, n) : NULL;
		if (!k)
			return;
		memset(&cl, 0, sizeof(cl));
		cl.name = buf;
		cl.nn = n;
		cl.canon = canon;
		cl.rfn = rfn;
		cl.rstr = rstr;
		rd_init(&r, u);
		sink_args(u, &r, k, &cl, 1);
	}
}

static void on_token(struct unit *u, struct tok *t)
{
	if (u->lang == CODE_AWK && (t->flags & TF_NL))
		u->in_print = 0;
	switch (t->kind) {
	case T_IDENT:
		on_ident(u, t);
		break;
	case T_VAR:
		on_var(u, t);
		break;
	case T_STR:
	case T_WORDS:
		on_string(u, t);
		break;
	case T_CMD:
		on_string(u, t);
		if (!(t->flags & TF_CONT)) {
			struct rd r;
			struct tok h = *t;
			rd_init(&r, u);
			cmd_literal(u, &r, &h);
		}
		break;
	case T_REGEX:
		if (u->lang == CODE_PERL && t->ecount) {
			if (t->ecount > 1) {
				flag(u, CODE_F_EVAL);
				u->sc->eval = 1;
			} else {
				subscan(u, u->s + t->rs, t->re - t->rs);
			}
		}
		break;
	case T_PUNCT:
		on_punct(u, t);
		break;
	default:
		break;
	}
}

static void scan_unit(struct scan *sc, enum code_lang lang, const char *s,
		      size_t n)
{
	struct unit u;

	memset(&u, 0, offsetof(struct unit, ring));
	u.sc = sc;
	u.lang = lang;
	u.s = s;
	u.n = n;
	lex_init(&u.lx, lang, s, n);
	if (lang == CODE_NODE && memmem(s, n, "child_process", 13))
		sc->has_cp = 1;
	for (;;) {
		struct tok t;
		lex_next(&u.lx, &t);
		if (t.kind == T_EOF)
			break;
		on_token(&u, &t);
		u.ring[u.ntok % CS_RING] = t;
		u.ntok++;
	}
	if (u.lx.err || u.lx.deep)
		sc->flags |= CODE_F_UNREADABLE;
}

/* ---- sed ----------------------------------------------------------------- */

struct sedp {
	struct scan *sc;
	struct unit *u;
	const char *s;
	size_t n, i;
	int bad;
};

static int sed_ch(const struct sedp *p, size_t i)
{
	return i < p->n ? (unsigned char)p->s[i] : -1;
}

static void sed_blanks(struct sedp *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t'))
		p->i++;
}

/* Scans to the unescaped delimiter d; returns the body's end or sets bad. */
static size_t sed_part(struct sedp *p, int d)
{
	while (p->i < p->n) {
		int c = (unsigned char)p->s[p->i];
		if (c == '\\') {
			p->i += 2;
			continue;
		}
		if (c == d) {
			size_t e = p->i;
			p->i++;
			return e;
		}
		if (c == '\n') {
			p->bad = 1;
			return p->i;
		}
		p->i++;
	}
	p->bad = 1;
	p->i = p->n;
	return p->n;
}

static void sed_addr(struct sedp *p)
{
	int c = sed_ch(p, p->i);

	if (is_digit(c)) {
		while (is_digit(sed_ch(p, p->i)))
			p->i++;
		if (sed_ch(p, p->i) == '~') {
			p->i++;
			while (is_digit(sed_ch(p, p->i)))
				p->i++;
		}
	} else if (c == '$') {
		p->i++;
	} else if (c == '/' || c == '\\') {
		int d = '/';
		if (c == '\\') {
			p->i++;
			d = sed_ch(p, p->i);
			if (d < 0 || d == '\n') {
				p->bad = 1;
				return;
			}
		}
		p->i++;
		sed_part(p, d);
		while (sed_ch(p, p->i) == 'I' || sed_ch(p, p->i) == 'M')
			p->i++;
	}
}

/* The rest of the line (a, i, c, r, w, e take it whole). */
static size_t sed_rest(struct sedp *p, size_t *start)
{
	sed_blanks(p);
	*start = p->i;
	while (p->i < p->n && p->s[p->i] != '\n') {
		if (p->s[p->i] == '\\' && p->i + 1 < p->n)
			p->i++;
		p->i++;
	}
	return p->i;
}

/* A replacement or command text, sed's escapes resolved; & and \1-\9 (the
 * matched text) are dynamic parts. */
static void sed_text(struct sedp *p, size_t a, size_t b, int d, int repl,
		     struct text *x)
{
	struct scan *sc = p->sc;
	char *o = ar_room(sc, b - a);
	size_t n = 0;

	if (!o) {
		x->over = 1;
		return;
	}
	for (size_t i = a; i < b; i++) {
		char c = p->s[i];
		if (repl && c == '&') {
			x->n += n;
			sc->atop += n;
			o += n;
			n = 0;
			text_dyn(x);
			continue;
		}
		if (c == '\\' && i + 1 < b) {
			char e = p->s[++i];
			if (repl && e >= '1' && e <= '9') {
				x->n += n;
				sc->atop += n;
				o += n;
				n = 0;
				text_dyn(x);
				continue;
			}
			if (repl && strchr("LUluE", e))
				continue;
			if (e == 'n')
				c = '\n';
			else if (e == 't')
				c = '\t';
			else if (e == d || e == '\\' || e == '&' || e == '\n' ||
				 repl)
				c = e;
			else {
				o[n++] = '\\';
				c = e;
			}
		}
		o[n++] = c;
	}
	x->n += n;
	sc->atop += n;
}

static void sed_cmd_text(struct sedp *p, size_t a, size_t b, int d, int repl)
{
	struct scan *sc = p->sc;
	struct text x;
	size_t mark = sc->atop;

	memset(&x, 0, sizeof(x));
	x.off = mark;
	flag(p->u, CODE_F_EXEC);
	sc->exec = 1;
	sed_text(p, a, b, d, repl, &x);
	emit_text(p->u, &x, 0);
	sc->atop = mark;
}

static void sed_scan(struct scan *sc, const char *s, size_t n)
{
	struct unit u;
	struct sedp p;
	unsigned depth = 0;

	memset(&u, 0, sizeof(u));
	u.sc = sc;
	u.lang = CODE_SED;
	u.s = s;
	u.n = n;
	memset(&p, 0, sizeof(p));
	p.sc = sc;
	p.u = &u;
	p.s = s;
	p.n = n;
	while (p.i < p.n && !p.bad) {
		size_t start, end, rs, re;
		int c = sed_ch(&p, p.i);

		if (is_space(c) || c == ';') {
			p.i++;
			continue;
		}
		if (c == '#') {
			while (p.i < p.n && p.s[p.i] != '\n')
				p.i++;
			continue;
		}
		if (c == '}') {
			if (depth)
				depth--;
			p.i++;
			continue;
		}
		sed_addr(&p);
		sed_blanks(&p);
		if (sed_ch(&p, p.i) == ',') {
			p.i++;
			sed_blanks(&p);
			if (sed_ch(&p, p.i) == '+' || sed_ch(&p, p.i) == '~')
				p.i++;
			sed_addr(&p);
			sed_blanks(&p);
		}
		while (sed_ch(&p, p.i) == '!') {
			p.i++;
			sed_blanks(&p);
		}
		if (p.bad)
			break;
		c = sed_ch(&p, p.i);
		if (c < 0)
			break;
		p.i++;
		switch (c) {
		case '{':
			if (++depth > CS_MAX_NEST)
				p.bad = 1;
			break;
		case 's': {
			int d = sed_ch(&p, p.i), e = 0;
			if (d < 0 || d == '\n' || d == '\\') {
				p.bad = 1;
				break;
			}
			p.i++;
			sed_part(&p, d);
			rs = p.i;
			re = sed_part(&p, d);
			if (p.bad)
				break;
			for (;;) {
				int f = sed_ch(&p, p.i);
				if (f == 'e') {
					e = 1;
				} else if (f == 'w' || f == 'W') {
					p.i++;
					end = sed_rest(&p, &start);
					if (!(end - start == 11 &&
					      (!memcmp(s + start, "/dev/stdout",
						       11) ||
					       !memcmp(s + start, "/dev/stderr",
						       11))))
						flag(&u, CODE_F_WRITE);
					break;
				} else if (f < 0 || !(is_digit(f) ||
						      strchr("gpiImM", f))) {
					break;
				}
				p.i++;
			}
			if (e)
				sed_cmd_text(&p, rs, re, d, 1);
			break;
		}
		case 'y': {
			int d = sed_ch(&p, p.i);
			if (d < 0 || d == '\n' || d == '\\') {
				p.bad = 1;
				break;
			}
			p.i++;
			sed_part(&p, d);
			sed_part(&p, d);
			break;
		}
		case 'a':
		case 'i':
		case 'c':
			sed_blanks(&p);
			if (sed_ch(&p, p.i) == '\\') {
				p.i++;
				if (sed_ch(&p, p.i) == '\n')
					p.i++;
			}
			sed_rest(&p, &start);
			break;
		case 'e':
			end = sed_rest(&p, &start);
			if (start == end || s[start] == ';' || s[start] == '}')
				dyn_exec(&u);
			else
				sed_cmd_text(&p, start, end, -1, 0);
			break;
		case 'r':
		case 'R':
		case 'w':
		case 'W':
			end = sed_rest(&p, &start);
			if (names_secret(s + start, end - start))
				flag(&u, CODE_F_SECRETS);
			if ((c == 'w' || c == 'W') &&
			    !(end - start == 11 &&
			      (!memcmp(s + start, "/dev/stdout", 11) ||
			       !memcmp(s + start, "/dev/stderr", 11))))
				flag(&u, CODE_F_WRITE);
			break;
		case ':':
			sed_blanks(&p);
			while (p.i < p.n && p.s[p.i] != '\n' && p.s[p.i] != ';')
				p.i++;
			break;
		case 'b':
		case 't':
		case 'T':
			sed_blanks(&p);
			while (p.i < p.n && !strchr("\n;}", p.s[p.i]))
				p.i++;
			break;
		case 'q':
		case 'Q':
		case 'l':
		case 'L':
			sed_blanks(&p);
			while (is_digit(sed_ch(&p, p.i)))
				p.i++;
			break;
		case 'v':
			while (p.i < p.n && !strchr("\n;}", p.s[p.i]))
				p.i++;
			break;
		default:
			if (!strchr("=dDgGhHnNpPxzF", c))
				p.bad = 1;
			break;
		}
	}
	if (p.bad)
		flag(&u, CODE_F_UNREADABLE);
}

/* ---- the entry point ----------------------------------------------------- */

unsigned codescan_scan(enum code_lang lang, const char *code, size_t len,
		   void (*shell)(void *ud, const char *cmd, size_t n), void *ud)
{
	char stack_arena[CS_STACK_ARENA];
	struct scan scan, *sc = &scan;
	unsigned f;
	size_t need;

	if ((!code && len) || len > CS_MAX_INPUT || (unsigned)lang > CODE_LUA)
		return CODE_F_UNREADABLE;
	if (!code)
		code = "";
	memset(sc, 0, offsetof(struct scan, al));
	sc->cb = shell;
	sc->ud = ud;
	sc->look_left = 4 * len + 4096;
	/* Decoded strings never outgrow their source; quoting a word list can
	 * quadruple it, and eval("…") code is decoded once per level. */
	need = 8 * len + 4096;
	if (need <= sizeof(stack_arena)) {
		sc->ar = stack_arena;
		sc->acap = sizeof(stack_arena);
	} else {
		sc->ar = cordon__malloc(need);
		sc->acap = need;
		if (!sc->ar) {
			sc->ar = stack_arena;
			sc->acap = sizeof(stack_arena);
		}
	}
	if (lang == CODE_SED)
		sed_scan(sc, code, len);
	else
		scan_unit(sc, lang, code, len);

	if (sc->chrs >= 2)
		sc->decode = 1;
	if (sc->decode && (sc->exec || sc->eval))
		sc->flags |= CODE_F_DECODE_EXEC;
	if ((sc->sock_conn || (sc->sock_mod && sc->connect)) &&
	    (sc->dup2 || sc->pty || sc->fdhint || sc->shell_exec ||
	     sc->dyn_exec || (lang == CODE_PHP && sc->exec)))
		sc->flags |= CODE_F_REVERSE_SHELL;
	if (sc->var_call && sc->sink_str)
		sc->flags |= CODE_F_EXEC | CODE_F_EXEC_DYNAMIC;
	if (sc->ar_full || sc->look_out)
		sc->flags |= CODE_F_UNREADABLE;
	f = sc->flags;
	if (sc->ar != stack_arena)
		free(sc->ar);
	return f;
}
