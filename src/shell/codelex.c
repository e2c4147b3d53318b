/* codelex.c — the code scanner's lexers and string decoding.
 *
 * One hand-written lexer per language family (Python, JS, Perl, Ruby, PHP,
 * awk, Lua) that knows its string literals, comments, regexes and
 * interpolations, so a sink named inside a string or a comment is never
 * taken for a call; and the decoder of string bodies (each language's
 * escapes) into the scan's arena.
 */
#include "codescan_int.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "text.h"
#include "banned.h"

/* ---- the lexer ----------------------------------------------------------- */

void codelex_init(struct lex *lx, enum code_lang lang, const char *s, size_t n)
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
void codelex_next(struct lex *lx, struct tok *t)
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

void codelex_text_dyn(struct text *x)
{
	if (x->ndyn && x->dyn[x->ndyn - 1] == x->n)
		return;
	if (x->ndyn < CS_MAX_DYN)
		x->dyn[x->ndyn++] = x->n;
	else
		x->over = 1;
}

int codelex_text_is_dyn(const struct text *x)
{
	return x->ndyn || x->over;
}

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
		codelex_text_dyn(d->x);
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
void codelex_dec_body(struct dec *d, const char *s, const struct tok *t)
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
