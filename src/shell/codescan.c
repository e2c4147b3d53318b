/* codescan.c — reading code handed to interpreters.
 *
 * Each language family gets a small hand-written lexer (codelex.c) that
 * knows its string literals, comments and interpolations, so a sink named
 * inside a string or a comment is never taken for a call. One shared scanner
 * (this file) walks the tokens, keeps a short window of the previous ones,
 * and recognises the calls listed in one table (sink_tab, codesinks.c): what
 * they run, delete, evaluate or open. sed is read apart (sedscan.c). String
 * arguments are decoded into a scratch arena that lives for one codescan_scan()
 * call; nothing outlives it. Every loop advances through the input, every
 * look-ahead has a token budget, and the only recursion (code inside
 * eval("…") or s///e) is bounded by CS_MAX_EVAL.
 */
#include "codescan_int.h"
#include "codeshape.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "text.h"
#include "wrappers.h"
#include "banned.h"

/* ---- the scan ------------------------------------------------------------ */

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
	codelex_next(lx, t);
}

/* ---- the arena ----------------------------------------------------------- */

char *codescan_ar_room(struct scan *sc, size_t need)
{
	if (need > sc->acap - sc->atop) {
		sc->ar_full = 1;
		return NULL;
	}
	return sc->ar + sc->atop;
}

static int ar_put(struct scan *sc, const char *p, size_t n)
{
	char *o = codescan_ar_room(sc, n);

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
	if (!codescan_ar_room(sc, need - n))
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
	char *o = codescan_ar_room(sc, raw);

	if (!o)
		return -1;
	memset(&d, 0, sizeof(d));
	d.o = o;
	d.cap = raw;
	d.x = x;
	codelex_dec_body(&d, code, t);
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
	char *o = codescan_ar_room(sc, raw);

	if (!o)
		return -1;
	memset(&d, 0, sizeof(d));
	d.o = o;
	d.cap = raw;
	d.x = x;
	codelex_dec_body(&d, u->s, t);
	sc->atop += d.n;
	x->n += d.n;
	if (t->flags & TF_DYN && t->mode == M_RUBY && !(t->flags & TF_OPEN))
		codelex_text_dyn(x);
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
	codelex_dec_body(&d, u->s, t);
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
int codescan_names_secret(const char *p, size_t n)
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
		codescan_dyn_exec(u);
	if (u->sc->cb)
		u->sc->cb(u->sc->ud, p, n);
}

void codescan_dyn_exec(struct unit *u)
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

void codescan_emit_text(struct unit *u, const struct text *x, int dyn)
{
	const char *p = u->sc->ar + x->off;

	if (!dyn && !codelex_text_is_dyn(x)) {
		hand_back(u, p, x->n);
		if (x->guess)
			codescan_dyn_exec(u);
		return;
	}
	codescan_dyn_exec(u);
	if (codelex_text_is_dyn(x))
		emit_pieces(u, p, x->n, x);
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
		codelex_text_dyn(x);
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
			codelex_text_dyn(x);
			rd_unget(r, t);
			return;
		} else {
			*dyn = 1;
			codelex_text_dyn(x);
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
				codelex_text_dyn(x);
			}
			return;
		}
		*dyn = 1;
		codelex_text_dyn(x);
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
			if (edyn || codelex_text_is_dyn(&ex)) {
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
		if (codelex_text_is_dyn(&a->x))
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
		codelex_text_dyn(&a->x);
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
		if (a[i].kwn &&
		    codesinks_name_in(names, u->s + a[i].kw, a[i].kwn, 0))
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
		codescan_dyn_exec(u);
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
		codescan_emit_text(u, &c->x, c->dyn);
	} else if (c->type == A_LIST) {
		if (c->nel)
			hand_back(u, arg_text(u, c), c->x.n);
		if (c->dyn || c->x.guess)
			codescan_dyn_exec(u);
	} else {
		codescan_dyn_exec(u);
	}
}

static void compose_done(struct unit *u, size_t mark, unsigned nw, int bad)
{
	if (bad || u->sc->ar_full)
		codescan_dyn_exec(u);
	if (nw)
		hand_back(u, u->sc->ar + mark, u->sc->atop - mark);
}

static void trim(const char **p, size_t *n);

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
			codescan_dyn_exec(u);
		/* popen("sh", "w") (os, IO, PHP, Lua: the rows that hold a
		 * popen, whose others take one argument): what the code
		 * writes to it is a command line */
		if (c && np >= 2 && arg_lit(c) && arg_lit(pa[1]) &&
		    strstr(codesinks_str(k->names), "popen") &&
		    memchr(arg_text(u, pa[1]), 'w', pa[1]->x.n)) {
			const char *p = arg_text(u, c);
			size_t n = c->x.n;
			trim(&p, &n);
			if (is_shell_name(p, n))
				flag(u, CODE_F_SHELL_FED);
		}
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
			codescan_dyn_exec(u);
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
			codescan_dyn_exec(u);
		}
		break;
	case S_EXECL:
	case S_SPAWNL:
		s = k->shape == S_SPAWNL;
		if (np <= s) {
			codescan_dyn_exec(u);
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
			codescan_dyn_exec(u);
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
			codescan_dyn_exec(u);
		}
		break;
	case S_PROG_OBJARGS:
		if (!np) {
			codescan_dyn_exec(u);
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
		codescan_dyn_exec(u);
		break;
	}
	if (cut || sc->guessed)
		codescan_dyn_exec(u);
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
				codescan_dyn_exec(u);
				return;
			}
			if (p[0] == '|') {
				/* open(F, "|sh"): what the code prints to F
				 * is a command line */
				const char *q = p + 1;
				size_t qn = n - 1;
				trim(&q, &qn);
				if (is_shell_name(q, qn))
					flag(u, CODE_F_SHELL_FED);
				hand_back(u, p + 1, n - 1);
			} else {
				hand_back(u, p, n - 1);
			}
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
			codescan_dyn_exec(u);
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
	t = codesinks_find(u->lang, canon, name, nn);
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

static int loads_module(const struct unit *u, const struct tok *f);

/* The module an argument such as __import__('os') or require("fs")
 * loads, read from the code after the loader's name, or NULL. */
static const char *module_arg(const struct unit *u, const struct arg *a)
{
	size_t i = a->first.ce, end = a->end, k;
	const char *s = u->s;
	char q;

	while (i < end && (s[i] == ' ' || s[i] == '('))
		i++;
	if (i >= end || (s[i] != '\'' && s[i] != '"'))
		return NULL;
	q = s[i++];
	for (k = i; k < end && s[k] != q && s[k] != '\\'; k++)
		;
	if (k >= end || s[k] != q || k == i)
		return NULL;
	return codesinks_mod_lookup(u->lang, s + i, k - i);
}

/* Is the argument one token ('system', name), not an expression
 * ('sys' + 'tem', name[::-1])? */
static int one_token(const struct unit *u, const struct arg *a)
{
	for (size_t i = a->first.e; i < a->end; i++)
		if (u->s[i] != ' ' && u->s[i] != '\t' && u->s[i] != '\n')
			return 0;
	return 1;
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
	else if (pa[0]->first.kind == T_IDENT && loads_module(u, &pa[0]->first))
		canon = module_arg(u, pa[0]); /* getattr(__import__('os'), …) */
	if (arg_lit(pa[1])) {
		const char *p = arg_text(u, pa[1]);
		size_t n = pa[1]->x.n;
		if (canon)
			t = codesinks_find(u->lang, canon, p, n);
		for (const char *const *m = mods; !t && *m; m++)
			t = codesinks_find(u->lang, *m, p, n);
		if (t && t->kind != K_GETATTR && t->kind != K_OPEN) {
			sink_dyn(u, t);
			/* getattr(os, 'sys' + 'tem'): a name put together */
			if (t->kind == K_EXEC && !one_token(u, pa[1]))
				flag(u, CODE_F_OBFUSCATED);
		}
		return;
	}
	if (canon && in_list(canon, strlen(canon), mods)) {
		codescan_dyn_exec(u);
		/* getattr(os, 'sys' + 'tem'): a name put together */
		if (!one_token(u, pa[1]))
			flag(u, CODE_F_OBFUSCATED);
	}
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
	if (text_add(u, cl->rstr, &x) == 0 && !codelex_text_is_dyn(&x))
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
	if (codesinks_name_in(second, cl->name, cl->nn, ci)) {
		if (np > 1)
			write_back(u, pa[1], 0);
		return;
	}
	if (codesinks_name_in(appends, cl->name, cl->nn, ci))
		app = 1;
	else if (!codesinks_name_in(first, cl->name, cl->nn, ci))
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

/* Does the exec call return before its process ends: node's spawn,
 * exec and execFile (not the *Sync forms), Python's Popen, Deno's and
 * Bun's spawn? */
static int exec_nowait(const struct unit *u, const struct call *cl)
{
	if (u->lang == CODE_NODE)
		return !(cl->nn > 4 &&
			 memcmp(cl->name + cl->nn - 4, "Sync", 4) == 0) &&
		       codesinks_name_in(
			       "spawn|exec|execFile|execa|execaCommand",
			       cl->name, cl->nn, 0);
	if (u->lang == CODE_PYTHON)
		return codesinks_name_in(
			"Popen|spawnv|spawnl|posix_spawn|posix_spawnp",
			cl->name, cl->nn, 0);
	return 0;
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
		/* for (;;) spawn(…): a call that starts a process and does
		 * not wait for it, in an unbounded loop, starts them without
		 * bound */
		if (u->loop && exec_nowait(u, cl))
			fork_seen(u);
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
			module_touch(u, codesinks_mod_lookup(u->lang,
							     arg_text(u, pa[0]),
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
	return codesinks_mod_lookup(u->lang, u->s + t->cs, t->ce - t->cs);
}

/* The module a string names (require('child_process'), __import__('os')). */
static const char *spec_canon(const struct unit *u, const struct tok *t)
{
	char buf[64];
	size_t n;

	if (t->kind != T_STR || (t->flags & (TF_DYN | TF_OPEN | TF_CONT)))
		return NULL;
	n = small_decode(u, t, buf, sizeof(buf));
	return n ? codesinks_mod_lookup(u->lang, buf, n) : NULL;
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
	if (!codesinks_find(u->lang, "", buf, n))
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
	} else if (np == 2 && codesinks_find(L, canon, u->s + parts[1].cs,
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
		canon = codesinks_mod_lookup(L, u->s + ms, me - ms);
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
	codescan_emit_text(u, &x, 0);
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
			for (size_t i = 0; !k && i < codesinks_nmod; i++)
				if (codesinks_mod_tab[i].langs & (1u << L)) {
					k = codesinks_find(
						L, codesinks_canon(i), w, wn);
					if (k)
						cl.canon = codesinks_canon(i);
				}
			if (k)
				sink_at(u, k, &cl, 1);
			return;
		}
		k = codesinks_find(L, cl.canon ? cl.canon : "*", w, wn);
		if (!k && cl.canon)
			k = codesinks_find(L, "*", w, wn);
		if (!k && !cl.canon && L == CODE_NODE && sc->has_cp) {
			cl.canon = "child_process";
			k = codesinks_find(L, cl.canon, w, wn);
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
			cl.canon =
				codesinks_mod_lookup(L, w, (size_t)(sep - w));
			cl.name = sep + 2;
			cl.nn = wn - (size_t)(sep + 2 - w);
			if (!cl.canon)
				return;
			k = codesinks_find(L, cl.canon, cl.name, cl.nn);
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
				k = codesinks_find(L, al->canon, cl.name,
						   cl.nn);
			} else {
				cl.canon = "";
				k = codesinks_find(L, "", w, wn);
				for (unsigned i = 0; !k && i < sc->nwild; i++) {
					k = codesinks_find(L, sc->wild[i], w,
							   wn);
					if (k) {
						cl.canon = sc->wild[i];
						via = 1;
					}
				}
				if (!k && L == CODE_NODE && sc->has_cp) {
					k = codesinks_find(L, "child_process",
							   w, wn);
					if (k)
						cl.canon = "child_process";
				}
				/* Too many names to track: any module's. */
				for (size_t i = 0;
				     !k && sc->al_full && i < codesinks_nmod;
				     i++) {
					if (!(codesinks_mod_tab[i].langs &
					      (1u << L)))
						continue;
					k = codesinks_find(
						L, codesinks_canon(i), w, wn);
					if (k)
						cl.canon = codesinks_canon(i);
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
		k = codesinks_find(L, al->canon, al->member, al->mn);
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
		if (codescan_names_secret(p, x.n))
			flag(u, CODE_F_SECRETS);
		if (u->lang == CODE_AWK && x.n > 5 && !memcmp(p, "/inet", 5)) {
			flag(u, CODE_F_NETWORK);
			sc->sock_conn = 1;
		}
		if (u->lang == CODE_PHP && t->kind == T_STR) {
			const struct sink *k =
				codesinks_find(u->lang, "", p, x.n);
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
		codescan_dyn_exec(u);
		return;
	}
	memset(&x, 0, sizeof(x));
	x.off = mark;
	for (unsigned i = k - 1; i >= 1; i--)
		if (text_add(u, rp(u, i), &x))
			x.over = 1;
	codescan_emit_text(u, &x, 0);
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
			codescan_dyn_exec(u);
			return;
		}
		memset(&x, 0, sizeof(x));
		x.off = mark;
		for (unsigned i = k - 1; i >= 1; i--)
			if (text_add(u, rp(u, i), &x))
				x.over = 1;
		codescan_emit_text(u, &x, 0);
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
			codescan_dyn_exec(u);
			return;
		}
		memset(&x, 0, sizeof(x));
		x.off = mark;
		rd_string_expr(&r, &t, &x, &dyn);
		codescan_emit_text(u, &x, dyn);
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
	if (text_add(u, &nx, &x) == 0 && !codelex_text_is_dyn(&x))
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
				codescan_dyn_exec(u);
			return;
		}
		n = small_decode(u, s, buf, sizeof(buf));
		k = n ? codesinks_find(L, canon, buf, n) : NULL;
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
	codelex_init(&u.lx, lang, s, n);
	if (lang == CODE_NODE && memmem(s, n, "child_process", 13))
		sc->has_cp = 1;
	for (;;) {
		struct tok t;
		codelex_next(&u.lx, &t);
		if (t.kind == T_EOF)
			break;
		on_token(&u, &t);
		u.ring[u.ntok % CS_RING] = t;
		u.ntok++;
	}
	if (u.lx.err || u.lx.deep)
		sc->flags |= CODE_F_UNREADABLE;
}

/* ---- the entry point ----------------------------------------------------- */

unsigned codescan_scan(enum code_lang lang, const char *code, size_t len,
		       void (*shell)(void *ud, const char *cmd, size_t n),
		       void *ud)
{
	char stack_arena[CS_STACK_ARENA];
	struct scan scan, *sc = &scan;
	unsigned f;
	size_t need;

	if ((!code && len) || len > CS_MAX_INPUT || (unsigned)lang > CODE_SHAPE_CI)
		return CODE_F_UNREADABLE;
	if (lang == CODE_SHAPE || lang == CODE_SHAPE_CI)
		return codeshape_scan(code, len,
				      SHAPE_ALL | (lang == CODE_SHAPE_CI ? SHAPE_CASELESS : 0),
				      shell, NULL, ud);
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
		sedscan_scan(sc, code, len);
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
