/* shparse — the shell parser (see sh.h).
 *
 * A hand-written recursive-descent parser that reads characters directly:
 * the shell's grammar depends on context (reserved words only in command
 * position, here-doc bodies after the next newline, `<` meaning "less than"
 * inside [[ ]]), which a separate tokenizer would have to be told anyway.
 * Command substitutions are parsed in place, as bash does, so quotes inside
 * $( ) nest correctly; backtick bodies are unescaped first and parsed as a
 * program of their own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sh.h"
#include "alloc.h"
#include "text.h"
#include "banned.h"

struct parser {
	const char *src;
	size_t len;
	size_t pos;
	struct arena *a;
	const struct cordon_limits *lim;
	struct parser *root;     /* owns the counters and the error */
	/* counters and error: meaningful in the root only */
	size_t tokens;
	unsigned depth;
	unsigned heredocs;
	unsigned in_cmdsub; /* $( ) bodies being parsed */
	enum cordon_err err;
	size_t err_off;
	char err_msg[160];
	/* here-docs waiting for the next newline (this buffer's) */
	struct sh_redir *hd_queue[16];
	unsigned hd_count;
	/* scratch for building literal text (the root's is used) */
	struct buf scratch;
};

enum wmode {
	W_NORMAL,  /* stops at blanks and metacharacters */
	W_PARAM,   /* inside ${ }: stops at the closing brace */
	W_ARITH,   /* inside (( )): stops at the closing )) */
	W_HEREDOC, /* a here-doc body: runs to the end of the buffer */
	W_REGEX,   /* right of =~ in [[ ]]: stops at a blank outside parens */
};

static struct sh_node *parse_list(struct parser *p, int want);
static struct sh_node *parse_command(struct parser *p);
static struct sh_word *read_word(struct parser *p, enum wmode mode);
static bool read_dollar(struct parser *p, struct sh_word *w, bool in_dq);

static bool failed(const struct parser *p)
{
	return p->root->err != CORDON_OK;
}

static void fail(struct parser *p, enum cordon_err code, size_t off,
		 const char *msg)
{
	struct parser *r = p->root;

	if (r->err != CORDON_OK)
		return;
	r->err = code;
	/* Offsets inside a backtick body are not offsets of the input. */
	r->err_off = p == r ? off : r->pos;
	snprintf(r->err_msg, sizeof(r->err_msg), "%s", msg);
}

static void *p_alloc(struct parser *p, size_t n)
{
	void *m = arena_alloc(p->a, n);
	if (!m)
		fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
	return m;
}

static bool count_token(struct parser *p)
{
	struct parser *r = p->root;

	if (++r->tokens > r->lim->max_tokens) {
		char msg[96];
		snprintf(msg, sizeof(msg), "too many tokens (limit max_tokens=%zu)",
			 r->lim->max_tokens);
		fail(p, CORDON_E_LIMIT, p->pos, msg);
		return false;
	}
	return true;
}

static bool enter(struct parser *p)
{
	struct parser *r = p->root;

	if (++r->depth > r->lim->max_nesting) {
		char msg[96];
		snprintf(msg, sizeof(msg), "nesting too deep (limit max_nesting=%u)",
			 r->lim->max_nesting);
		fail(p, CORDON_E_LIMIT, p->pos, msg);
		return false;
	}
	return true;
}

static void leave(struct parser *p)
{
	p->root->depth--;
}

/* ---- characters --------------------------------------------------------- */

static int ch(const struct parser *p, size_t ahead)
{
	size_t i = p->pos + ahead;
	return i < p->len ? (unsigned char)p->src[i] : -1;
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* A bare CR separates commands like a newline does. */
static bool is_newline(int c)
{
	return c == '\n' || c == '\r';
}

static bool is_meta(int c)
{
	return c == -1 || is_blank(c) || is_newline(c) || c == ';' || c == '&' ||
	       c == '|' || c == '<' || c == '>' || c == '(' || c == ')';
}

static bool is_name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* A backslash-newline (or backslash-CRLF) at the current position. */
static size_t continuation_at(const struct parser *p, size_t ahead)
{
	if (ch(p, ahead) != '\\')
		return 0;
	if (ch(p, ahead + 1) == '\n')
		return 2;
	if (ch(p, ahead + 1) == '\r' && ch(p, ahead + 2) == '\n')
		return 3;
	return 0;
}

/* ---- scratch buffer ------------------------------------------------------ */

/* Adds to the root parser's scratch; out of memory fails the parse. */
static bool buf_put(struct parser *p, const char *s, size_t n)
{
	if (buf_add(&p->root->scratch, s, n))
		return true;
	fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
	return false;
}

static bool buf_putc(struct parser *p, int c)
{
	char b = (char)c;
	return buf_put(p, &b, 1);
}

/* ---- words -------------------------------------------------------------- */

static struct sh_wpart *word_add(struct parser *p, struct sh_word *w,
				 enum sh_wpart_kind kind)
{
	struct sh_wpart *part = p_alloc(p, sizeof(*part));

	if (!part)
		return NULL;
	part->kind = kind;
	if (w->parts_tail)
		w->parts_tail->next = part;
	else
		w->parts = part;
	w->parts_tail = part;
	return part;
}

/* Literal text is gathered in the scratch buffer from buf_mark on and
 * turned into a part when something else starts or quoting changes. */
struct lit {
	size_t mark;
	bool quoted;
	bool in_dq;
};

static void lit_flush(struct parser *p, struct sh_word *w, struct lit *l)
{
	struct parser *r = p->root;
	size_t n = buf_len(&r->scratch) - l->mark;

	if (n == 0)
		return;
	struct sh_wpart *last = w->parts_tail;
	char *s = arena_strndup(p->a, buf_str(&r->scratch) + l->mark, n);
	buf_setlen(&r->scratch, l->mark);
	if (!s) {
		fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
		return;
	}
	/* Join with the previous literal of the same quoting (r''m is one
	 * part, "rm"), but only while it is short: joining copies, and
	 * a''a''a… must stay linear. */
	if (last && last->kind == SH_WP_LIT && last->quoted == l->quoted &&
	    last->in_dq == l->in_dq && last->len < 256) {
		char *m = arena_alloc(p->a, last->len + n + 1);
		if (!m) {
			fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
			return;
		}
		memcpy(m, last->s, last->len);
		memcpy(m + last->len, s, n);
		last->s = m;
		last->len += n;
		last->nul = true; /* arena_alloc zeroes */
		return;
	}
	struct sh_wpart *part = word_add(p, w, SH_WP_LIT);
	if (!part)
		return;
	part->quoted = l->quoted;
	part->in_dq = l->in_dq;
	part->s = s;
	part->len = n;
	part->nul = true;
	if (l->quoted)
		w->quoted = true;
}

static void lit_put(struct parser *p, struct sh_word *w, struct lit *l,
		    const char *s, size_t n, bool quoted, bool in_dq)
{
	if (quoted != l->quoted || in_dq != l->in_dq) {
		lit_flush(p, w, l);
		l->quoted = quoted;
		l->in_dq = in_dq;
	}
	buf_put(p, s, n);
}

/* A nested parser over another buffer: a backtick body or a here-doc. */
static void sub_init(struct parser *sub, struct parser *p, const char *src,
		     size_t len)
{
	memset(sub, 0, sizeof(*sub));
	sub->src = src;
	sub->len = len;
	sub->a = p->a;
	sub->lim = p->lim;
	sub->root = p->root;
}

/* Parses a whole program from a separate buffer. */
static struct sh_node *parse_buffer(struct parser *p, const char *src,
				    size_t len)
{
	struct parser sub;
	struct sh_node *n;

	sub_init(&sub, p, src, len);
	n = parse_list(&sub, 0);
	if (!failed(p) && sub.pos < sub.len)
		fail(p, CORDON_E_PARSE, p->pos,
		     "unexpected text in command substitution");
	return n;
}

/* `…`: unescape \` \$ \\ (and \" inside double quotes), then parse. */
static bool read_backtick(struct parser *p, struct sh_word *w, bool in_dq)
{
	struct parser *r = p->root;
	size_t start = p->pos;
	size_t mark = buf_len(&r->scratch);

	p->pos++; /* ` */
	for (;;) {
		int c = ch(p, 0);
		if (c == -1) {
			buf_setlen(&r->scratch, mark);
			fail(p, CORDON_E_PARSE, start, "unterminated backquote");
			return false;
		}
		if (c == '`')
			break;
		if (c == '\\') {
			int d = ch(p, 1);
			if (d == '`' || d == '$' || d == '\\' ||
			    (in_dq && d == '"')) {
				buf_putc(p, d);
				p->pos += 2;
				continue;
			}
		}
		buf_putc(p, c);
		p->pos++;
	}
	p->pos++;
	size_t n = buf_len(&r->scratch) - mark;
	char *body =
		arena_strndup(p->a, n ? buf_str(&r->scratch) + mark : "", n);
	buf_setlen(&r->scratch, mark);
	if (!body) {
		fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
		return false;
	}
	struct sh_wpart *part = word_add(p, w, SH_WP_BACKTICK);
	if (!part)
		return false;
	part->in_dq = in_dq;
	if (!enter(p))
		return false;
	part->body = parse_buffer(p, body, n);
	leave(p);
	return !failed(p);
}

/* After "((" or "$((": does the matching close read "))"? Otherwise the
 * text is nested subshells or a command substitution of a subshell. */
static bool arith_closes(const struct parser *p, size_t from)
{
	int depth = 0;

	for (size_t i = from; i < p->len; i++) {
		char c = p->src[i];
		if (c == '(') {
			depth++;
		} else if (c == ')') {
			if (depth == 0)
				return i + 1 < p->len && p->src[i + 1] == ')';
			depth--;
		} else if (c == '\'' || c == '"' || c == '`') {
			/* Quotes inside arithmetic are rare; a quoted
			 * paren should not decide the shape. */
			size_t j = i + 1;
			while (j < p->len && p->src[j] != c)
				j++;
			i = j;
		}
	}
	return false;
}

/* Parses a program up to a ")" and consumes it; for $( ) and <( ). */
static struct sh_node *parse_paren_body(struct parser *p, size_t start,
					const char *what)
{
	struct sh_node *body;

	bool cmdsub = what[0] == '$';

	if (!enter(p))
		return NULL;
	if (cmdsub)
		p->root->in_cmdsub++;
	body = parse_list(p, ')');
	if (cmdsub)
		p->root->in_cmdsub--;
	leave(p);
	if (failed(p))
		return body;
	if (ch(p, 0) != ')') {
		char msg[64];
		snprintf(msg, sizeof(msg), "unterminated %s", what);
		fail(p, CORDON_E_PARSE, start, msg);
		return body;
	}
	p->pos++;
	return body;
}

static bool read_arith(struct parser *p, struct sh_word *w, bool in_dq,
		       size_t start)
{
	struct sh_wpart *part = word_add(p, w, SH_WP_ARITH);
	if (!part)
		return false;
	part->in_dq = in_dq;
	if (!enter(p))
		return false;
	part->sub = read_word(p, W_ARITH);
	leave(p);
	if (failed(p))
		return false;
	if (ch(p, 0) != ')' || ch(p, 1) != ')') {
		fail(p, CORDON_E_PARSE, start, "unterminated arithmetic");
		return false;
	}
	p->pos += 2;
	return true;
}

/* ${…}: the name, then the rest up to the matching brace as a word. */
static bool read_brace_param(struct parser *p, struct sh_word *w, bool in_dq)
{
	size_t start = p->pos;
	struct sh_wpart *part = word_add(p, w, SH_WP_PARAM);

	if (!part)
		return false;
	part->in_dq = in_dq;
	p->pos += 2; /* ${ */
	size_t ns = p->pos;
	if (ch(p, 0) == '#' || ch(p, 0) == '!') {
		/* ${#x} length, ${!x} indirection; ${#} itself is a name */
		if (ch(p, 1) != '}')
			p->pos++;
	}
	size_t name_from = p->pos;
	if (is_name_start(ch(p, 0))) {
		while (is_name_char(ch(p, 0)))
			p->pos++;
	} else if (ch(p, 0) >= '0' && ch(p, 0) <= '9') {
		while (ch(p, 0) >= '0' && ch(p, 0) <= '9')
			p->pos++;
	} else if (ch(p, 0) != -1 && strchr("@*#?-$!", ch(p, 0))) {
		p->pos++;
	}
	part->s = arena_strndup(p->a, p->src + name_from, p->pos - name_from);
	part->len = p->pos - name_from;
	if (!part->s) {
		fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
		return false;
	}
	if (name_from != ns)
		part->param_op = true;
	if (ch(p, 0) != '}') {
		part->param_op = true;
		if (!enter(p))
			return false;
		part->sub = read_word(p, W_PARAM);
		leave(p);
		if (failed(p))
			return false;
	}
	if (ch(p, 0) != '}') {
		fail(p, CORDON_E_PARSE, start, "unterminated ${");
		return false;
	}
	p->pos++;
	return true;
}

/* A code point of $'\u…' / $'\U…' as UTF-8; one that UTF-8 cannot hold (a
 * surrogate, past U+10FFFF) becomes U+FFFD. */
static void put_utf8(struct parser *p, unsigned long cp)
{
	char b[4];
	size_t n = cp <= 0x10ffff ? text_utf8_encode((uint32_t)cp, b) : 0;

	if (n == 0)
		n = text_utf8_encode(0xfffd, b);
	buf_put(p, b, n);
}

/* $'…': ANSI-C quoting, decoded here so that $'\x72\x6d' reads "rm". */
static bool read_ansi_c(struct parser *p, struct sh_word *w, struct lit *l)
{
	size_t start = p->pos;
	size_t mark = buf_len(&p->root->scratch);

	lit_put(p, w, l, "", 0, true, false);
	p->pos += 2;
	mark = buf_len(&p->root->scratch);
	size_t seen = mark;
	for (;;) {
		/* bash ends a $'…' string at a decoded NUL byte: what
		 * follows in the quotes is not part of the word */
		const char *z =
			buf_len(&p->root->scratch) > seen ?
				memchr(buf_str(&p->root->scratch) + seen, '\0',
				       buf_len(&p->root->scratch) - seen) :
				NULL;
		seen = buf_len(&p->root->scratch);
		if (z) {
			buf_setlen(&p->root->scratch,
				   (size_t)(z - buf_str(&p->root->scratch)));
			while (ch(p, 0) != -1 && ch(p, 0) != '\'') {
				if (ch(p, 0) == '\\' && ch(p, 1) != -1)
					p->pos++;
				p->pos++;
			}
			if (ch(p, 0) == '\'') {
				p->pos++;
				return true;
			}
			fail(p, CORDON_E_PARSE, start, "unterminated $'");
			return false;
		}
		int c = ch(p, 0);
		if (c == -1) {
			fail(p, CORDON_E_PARSE, start, "unterminated $'");
			return false;
		}
		p->pos++;
		if (c == '\'')
			return true;
		if (c != '\\') {
			buf_putc(p, c);
			continue;
		}
		c = ch(p, 0);
		if (c == -1)
			continue;
		p->pos++;
		switch (c) {
		case 'a': buf_putc(p, '\a'); break;
		case 'b': buf_putc(p, '\b'); break;
		case 'e': case 'E': buf_putc(p, 27); break;
		case 'f': buf_putc(p, '\f'); break;
		case 'n': buf_putc(p, '\n'); break;
		case 'r': buf_putc(p, '\r'); break;
		case 't': buf_putc(p, '\t'); break;
		case 'v': buf_putc(p, '\v'); break;
		case 'c': {
			int d = ch(p, 0);
			if (d != -1) {
				p->pos++;
				buf_putc(p, d & 0x1f);
			}
			break;
		}
		case 'x': case 'u': case 'U': {
			int maxd = c == 'x' ? 2 : c == 'u' ? 4 : 8;
			unsigned long v = 0;
			int nd = 0;
			while (nd < maxd &&
			       text_hex_value((unsigned char)ch(p, 0)) >= 0) {
				v = v * 16 + (unsigned long)text_hex_value(
						     (unsigned char)ch(p, 0));
				p->pos++;
				nd++;
			}
			if (nd == 0) {
				buf_putc(p, '\\');
				buf_putc(p, c);
			} else if (c == 'x') {
				buf_putc(p, (int)v);
			} else {
				put_utf8(p, v);
			}
			break;
		}
		default:
			if (c >= '0' && c <= '7') {
				unsigned v = (unsigned)(c - '0');
				for (int k = 0; k < 2 && ch(p, 0) >= '0' &&
						ch(p, 0) <= '7'; k++) {
					v = v * 8 + (unsigned)(ch(p, 0) - '0');
					p->pos++;
				}
				buf_putc(p, (int)(v & 0xff));
			} else if (c == '\\' || c == '\'' || c == '"' ||
				   c == '?') {
				buf_putc(p, c);
			} else {
				buf_putc(p, '\\');
				buf_putc(p, c);
			}
		}
	}
}

/* "…" */
static bool read_dquote(struct parser *p, struct sh_word *w, struct lit *l)
{
	size_t start = p->pos;

	lit_put(p, w, l, "", 0, true, true);
	p->pos++;
	for (;;) {
		int c = ch(p, 0);
		if (c == -1) {
			fail(p, CORDON_E_PARSE, start, "unterminated double quote");
			return false;
		}
		if (c == '"') {
			p->pos++;
			return true;
		}
		if (c == '\\') {
			size_t k = continuation_at(p, 0);
			if (k) {
				p->pos += k;
				continue;
			}
			int d = ch(p, 1);
			if (d == '$' || d == '`' || d == '"' || d == '\\') {
				lit_put(p, w, l, (char[]){(char)d}, 1, true, true);
				p->pos += 2;
				continue;
			}
			lit_put(p, w, l, "\\", 1, true, true);
			p->pos++;
			continue;
		}
		if (c == '$' || c == '`') {
			lit_flush(p, w, l);
			bool ok = c == '$' ? read_dollar(p, w, true)
					   : read_backtick(p, w, true);
			if (!ok)
				return false;
			continue;
		}
		lit_put(p, w, l, (char[]){(char)c}, 1, true, true);
		p->pos++;
	}
}

/* At a '$': the expansion it starts, or a literal dollar. The caller has
 * flushed pending literal text. */
static bool read_dollar(struct parser *p, struct sh_word *w, bool in_dq)
{
	int c = ch(p, 1);
	size_t start = p->pos;

	if (c == '(' && ch(p, 2) == '(' && arith_closes(p, p->pos + 3)) {
		p->pos += 3;
		return read_arith(p, w, in_dq, start);
	}
	if (c == '(') {
		struct sh_wpart *part = word_add(p, w, SH_WP_CMDSUB);
		if (!part)
			return false;
		part->in_dq = in_dq;
		p->pos += 2;
		part->body = parse_paren_body(p, start, "$(");
		return !failed(p);
	}
	if (c == '{')
		return read_brace_param(p, w, in_dq);
	if (c == '[') {
		/* $[ … ]: obsolete arithmetic */
		p->pos += 2;
		struct sh_wpart *part = word_add(p, w, SH_WP_ARITH);
		if (!part)
			return false;
		size_t s = p->pos;
		while (ch(p, 0) != -1 && ch(p, 0) != ']')
			p->pos++;
		if (ch(p, 0) != ']') {
			fail(p, CORDON_E_PARSE, start, "unterminated $[");
			return false;
		}
		part->s = arena_strndup(p->a, p->src + s, p->pos - s);
		part->len = p->pos - s;
		p->pos++;
		if (!part->s)
			return false;
		/* substitutions inside run: $[$(cmd)] */
		if (part->len) {
			struct parser sub;
			sub_init(&sub, p, part->s, part->len);
			if (!enter(p))
				return false;
			part->sub = read_word(&sub, W_HEREDOC);
			leave(p);
		}
		return !failed(p);
	}
	size_t ns = p->pos + 1;
	size_t ne = ns;
	if (is_name_start(c)) {
		while (ne < p->len && is_name_char((unsigned char)p->src[ne]))
			ne++;
	} else if ((c >= '0' && c <= '9') ||
		   (c != -1 && strchr("@*#?-$!", c))) {
		ne = ns + 1;
	} else {
		/* A lone dollar is literal. */
		struct lit l = { buf_len(&p->root->scratch), in_dq, in_dq };
		lit_put(p, w, &l, "$", 1, in_dq, in_dq);
		lit_flush(p, w, &l);
		p->pos++;
		return true;
	}
	struct sh_wpart *part = word_add(p, w, SH_WP_PARAM);
	if (!part)
		return false;
	part->in_dq = in_dq;
	part->s = arena_strndup(p->a, p->src + ns, ne - ns);
	part->len = ne - ns;
	p->pos = ne;
	if (!part->s) {
		fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
		return false;
	}
	return true;
}

/* Extended globs ?(…) *(…) +(…) @(…) !(…) are kept as literal text. */
static bool read_extglob(struct parser *p, struct sh_word *w, struct lit *l)
{
	size_t start = p->pos;
	int depth = 0;

	lit_put(p, w, l, p->src + p->pos, 1, false, false);
	p->pos++;
	do {
		int c = ch(p, 0);
		if (c == -1 || (depth > 0 && is_newline(c))) {
			fail(p, CORDON_E_PARSE, start, "unterminated pattern");
			return false;
		}
		if (c == '(')
			depth++;
		else if (c == ')')
			depth--;
		lit_put(p, w, l, (char[]){(char)c}, 1, false, false);
		p->pos++;
	} while (depth > 0);
	return true;
}

/* Characters that are never special inside an unquoted word, by table:
 * one load a character where the compares took a dozen. */
static const bool plain_chars[256] = {
	['a' ... 'z'] = true, ['A' ... 'Z'] = true, ['0' ... '9'] = true,
	['-'] = true, ['_'] = true, ['.'] = true, ['/'] = true, [','] = true,
	[':'] = true, ['='] = true, ['%'] = true, ['^'] = true, ['#'] = true,
};

static inline bool plain_char(unsigned char c)
{
	return plain_chars[c];
}

/* The common word, ordinary characters only up to a blank or an operator
 * ("git", "status", "src/main.c"): one literal part copied straight from
 * the source, without the scratch buffer. False, with nothing read, for
 * any other word. */
static bool read_plain_word(struct parser *p, struct sh_word *w)
{
	size_t e = p->pos;

	while (e < p->len && plain_char((unsigned char)p->src[e]))
		e++;
	if (e == p->pos || (e < p->len && !is_meta((unsigned char)p->src[e])))
		return false;

	struct sh_wpart *part = word_add(p, w, SH_WP_LIT);
	char *s = part ? arena_strndup(p->a, p->src + p->pos, e - p->pos) : NULL;

	if (!s) {
		fail(p, CORDON_E_NOMEM, p->pos, "out of memory");
		return true;
	}
	part->s = s;
	part->nul = true;
	part->plain = true;
	part->len = e - p->pos;
	w->raw = p->src + p->pos;
	w->raw_len = e - p->pos;
	p->pos = e;
	return true;
}

static struct sh_word *read_word(struct parser *p, enum wmode mode)
{
	struct sh_word *w = p_alloc(p, sizeof(*w));
	struct lit l = { buf_len(&p->root->scratch), false, false };
	size_t start = p->pos;
	int depth = 0; /* braces in W_PARAM, parens in W_ARITH / W_REGEX */

	if (!w)
		return NULL;
	if (!count_token(p))
		return w;
	if (mode == W_NORMAL && read_plain_word(p, w))
		return w;
	for (;;) {
		int c = ch(p, 0);
		if (c == -1)
			break;
		if (mode == W_NORMAL && is_meta(c)) {
			if ((c == '<' || c == '>') && p->pos == start &&
			    ch(p, 1) == '(') {
				/* process substitution */
				lit_flush(p, w, &l);
				struct sh_wpart *part = word_add(
					p, w, c == '<' ? SH_WP_PROCSUB_IN
						       : SH_WP_PROCSUB_OUT);
				if (!part)
					break;
				size_t s = p->pos;
				p->pos += 2;
				part->body = parse_paren_body(p, s, "<(");
				if (failed(p))
					break;
				continue;
			}
			break;
		}
		if (mode == W_PARAM) {
			if (c == '}' && depth == 0)
				break;
			if (c == '{')
				depth++;
			else if (c == '}')
				depth--;
		}
		if (mode == W_ARITH) {
			if (c == ')' && depth == 0)
				break;
			if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
		}
		if (mode == W_REGEX) {
			if ((is_blank(c) || is_newline(c)) && depth == 0)
				break;
			if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
		}
		if (c == '\\') {
			size_t k = continuation_at(p, 0);
			if (k) {
				p->pos += k;
				continue;
			}
			int d = ch(p, 1);
			if (mode == W_HEREDOC) {
				if (d == '$' || d == '`' || d == '\\') {
					lit_put(p, w, &l, (char[]){(char)d}, 1,
						false, false);
					p->pos += 2;
				} else {
					lit_put(p, w, &l, "\\", 1, false, false);
					p->pos++;
				}
				continue;
			}
			if (d == -1) {
				lit_put(p, w, &l, "\\", 1, true, false);
				p->pos++;
				continue;
			}
			lit_put(p, w, &l, (char[]){(char)d}, 1, true, false);
			p->pos += 2;
			continue;
		}
		if (mode != W_HEREDOC && c == '\'') {
			size_t s = p->pos;
			lit_put(p, w, &l, "", 0, true, false);
			p->pos++;
			while (ch(p, 0) != -1 && ch(p, 0) != '\'')
				p->pos++;
			if (ch(p, 0) == -1) {
				buf_put(p, p->src + s + 1, p->pos - s - 1);
				lit_flush(p, w, &l);
				fail(p, CORDON_E_PARSE, s,
				     "unterminated single quote");
				break;
			}
			buf_put(p, p->src + s + 1, p->pos - s - 1);
			p->pos++;
			continue;
		}
		if (mode != W_HEREDOC && c == '"') {
			if (!read_dquote(p, w, &l))
				break;
			continue;
		}
		if (c == '$' && mode != W_HEREDOC && ch(p, 1) == '\'') {
			if (!read_ansi_c(p, w, &l))
				break;
			continue;
		}
		if (c == '$' && mode != W_HEREDOC && ch(p, 1) == '"') {
			p->pos++;
			if (!read_dquote(p, w, &l))
				break;
			continue;
		}
		if (c == '$') {
			lit_flush(p, w, &l);
			if (!read_dollar(p, w, false))
				break;
			continue;
		}
		if (c == '`') {
			lit_flush(p, w, &l);
			if (!read_backtick(p, w, false))
				break;
			continue;
		}
		if (mode == W_NORMAL && strchr("?*+@!", c) && ch(p, 1) == '(') {
			if (!read_extglob(p, w, &l))
				break;
			continue;
		}
		/* a run of ordinary characters in one go */
		size_t e = p->pos + 1;
		if (mode == W_NORMAL)
			while (e < p->len && plain_char((unsigned char)p->src[e]))
				e++;
		lit_put(p, w, &l, p->src + p->pos, e - p->pos, false, false);
		p->pos = e;
	}
	lit_flush(p, w, &l);
	w->raw = p->src + start;
	w->raw_len = p->pos - start;
	return w;
}

bool sh_word_is(const struct sh_word *w, const char *s)
{
	const struct sh_wpart *pt;

	if (!w || !w->parts || w->parts->next)
		return false;
	pt = w->parts;
	return pt->kind == SH_WP_LIT && !pt->quoted && pt->len == strlen(s) &&
	       memcmp(pt->s, s, pt->len) == 0;
}

/* ---- blanks, newlines, here-docs ----------------------------------------- */

/* Skips blanks, line continuations and a comment. */
static void skip_blanks_slow(struct parser *p)
{
	for (;;) {
		int c = ch(p, 0);
		size_t k;
		if (is_blank(c)) {
			p->pos++;
		} else if ((k = continuation_at(p, 0)) != 0) {
			p->pos += k;
		} else if (c == '#') {
			while (ch(p, 0) != -1 && !is_newline(ch(p, 0)))
				p->pos++;
		} else {
			return;
		}
	}
}

/* Called before every token: most often there is nothing to skip, and
 * a byte that is no blank, '\\' or '#' says so without the call. */
static inline void skip_blanks(struct parser *p)
{
	if (p->pos < p->len) {
		unsigned char c = (unsigned char)p->src[p->pos];
		if (c != ' ' && c != '\t' && c != '\\' && c != '#')
			return;
	}
	skip_blanks_slow(p);
}

static void read_heredoc_body(struct parser *p, struct sh_redir *r)
{
	const struct sh_word *dw = r->target;
	struct parser *root = p->root;
	size_t mark = buf_len(&root->scratch);
	const char *delim;
	size_t dlen;

	/* The delimiter is the word with quotes removed. */
	for (const struct sh_wpart *pt = dw ? dw->parts : NULL; pt;
	     pt = pt->next) {
		if (pt->kind == SH_WP_LIT)
			buf_put(p, pt->s, pt->len);
		else
			buf_put(p, "$", 1);
	}
	delim = buf_str(&root->scratch) + mark;
	dlen = buf_len(&root->scratch) - mark;

	size_t body_start = p->pos;
	size_t body_end = p->len;
	while (p->pos < p->len) {
		size_t ls = p->pos;
		size_t le = ls;
		while (le < p->len && p->src[le] != '\n')
			le++;
		size_t cs = ls;
		if (r->strip_tabs)
			while (cs < le && p->src[cs] == '\t')
				cs++;
		size_t ce = le;
		if (ce > cs && p->src[ce - 1] == '\r')
			ce--;
		p->pos = le < p->len ? le + 1 : le;
		if (ce - cs == dlen && memcmp(p->src + cs, delim, dlen) == 0) {
			body_end = ls;
			break;
		}
		/* bash reads a $( ) body as its own text, so "EOF)" ends the
		 * here-doc there and the ')' closes the substitution */
		if (root->in_cmdsub && ce - cs > dlen && dlen &&
		    memcmp(p->src + cs, delim, dlen) == 0 &&
		    p->src[cs + dlen] == ')') {
			body_end = ls;
			p->pos = cs + dlen;
			break;
		}
	}
	if (body_end == p->len) {
		/* bash runs it with a warning; we refuse to guess where the
		 * author meant the body to end. */
		r->body_unterminated = true;
		fail(p, CORDON_E_PARSE, body_start,
		     "here-document not closed by its delimiter");
	}
	buf_setlen(&root->scratch, mark);
	r->body = p->src + body_start;
	r->body_len = body_end - body_start;
	if (!r->delim_quoted && r->body_len) {
		struct parser sub;
		sub_init(&sub, p, r->body, r->body_len);
		r->body_word = read_word(&sub, W_HEREDOC);
	}
}

/* Consumes one newline (LF, CRLF or a bare CR) and then the bodies of the
 * here-docs that were started on the line it ends. */
static void eat_newline(struct parser *p)
{
	if (ch(p, 0) == '\r' && ch(p, 1) == '\n')
		p->pos += 2;
	else
		p->pos++;
	for (unsigned i = 0; i < p->hd_count && !failed(p); i++)
		read_heredoc_body(p, p->hd_queue[i]);
	p->hd_count = 0;
}

/* Newlines and blanks between tokens where the grammar allows them. */
static void linebreak(struct parser *p)
{
	for (;;) {
		skip_blanks(p);
		if (!is_newline(ch(p, 0)) || failed(p))
			return;
		eat_newline(p);
	}
}

/* ---- reserved words and operators ---------------------------------------- */

/* Is the unquoted text at the current position exactly `w`, followed by a
 * delimiter? Reserved words are only ever plain text. Always inlined: it
 * is asked dozens of times a command with constant words, whose length
 * and compare then fold to a few instructions. */
static inline __attribute__((always_inline)) bool
at_word(const struct parser *p, const char *w)
{
	if (p->pos >= p->len || p->src[p->pos] != w[0])
		return false;
	size_t n = strlen(w);

	if (p->len - p->pos < n || memcmp(p->src + p->pos, w, n) != 0)
		return false;
	return is_meta(ch(p, n));
}

/* The reserved words that end a command list, by their first byte: a
 * command's first letter is mostly none of these, and answers at once. */
static bool at_terminator(const struct parser *p)
{
	int c = ch(p, 0);

	if (c == -1 || c == ')')
		return true;
	if (c == ';' && ch(p, 1) == ';')
		return true;
	if (c == ';' && ch(p, 1) == '&')
		return true;
	switch (c) {
	case 't':
		return at_word(p, "then");
	case 'e':
		return at_word(p, "else") || at_word(p, "elif") ||
		       at_word(p, "esac");
	case 'f':
		return at_word(p, "fi");
	case 'd':
		return at_word(p, "do") || at_word(p, "done");
	case '}':
		return at_word(p, "}");
	}
	return false;
}

static bool expect_word(struct parser *p, const char *w, size_t start,
			const char *construct)
{
	skip_blanks(p);
	if (at_word(p, w)) {
		p->pos += strlen(w);
		count_token(p);
		return true;
	}
	if (!failed(p)) {
		char msg[96];
		snprintf(msg, sizeof(msg), "expected '%s' to close '%s'", w,
			 construct);
		fail(p, CORDON_E_PARSE, p->pos == p->len ? start : p->pos, msg);
	}
	return false;
}

static struct sh_node *new_node(struct parser *p, enum sh_kind kind,
				size_t start)
{
	struct sh_node *n = p_alloc(p, sizeof(*n));
	if (n) {
		n->kind = kind;
		n->text = p->src + start;
	}
	return n;
}

static void finish(struct parser *p, struct sh_node *n, size_t start)
{
	if (!n)
		return;
	n->text = p->src + start;
	n->len = p->pos - start;
	if (failed(p))
		n->incomplete = true;
}

static void append_child(struct sh_node *parent, struct sh_node *n)
{
	if (!n)
		return;
	if (parent->child_tail)
		parent->child_tail->next = n;
	else
		parent->child = n;
	parent->child_tail = n;
}

static void append_words(struct sh_node *parent, struct sh_word *w)
{
	if (!w)
		return;
	if (parent->words_tail)
		parent->words_tail->next = w;
	else
		parent->words = w;
	parent->words_tail = w;
}

static void append_assigns(struct sh_node *parent, struct sh_word *w)
{
	if (!w)
		return;
	if (parent->assigns_tail)
		parent->assigns_tail->next = w;
	else
		parent->assigns = w;
	parent->assigns_tail = w;
}

/* ---- redirections -------------------------------------------------------- */

/* Length of a redirection operator at the current position (after an
 * optional fd number of `digits` characters), 0 if there is none. */
static size_t redir_at(const struct parser *p, size_t digits,
		       enum sh_redir_op *op, bool *strip)
{
	int c = ch(p, digits), d = ch(p, digits + 1), e = ch(p, digits + 2);

	*strip = false;
	if (c == '<') {
		if (d == '(')
			return 0; /* process substitution */
		if (d == '<' && e == '<') { *op = SH_R_HERESTRING; return 3; }
		if (d == '<' && e == '-') { *op = SH_R_HEREDOC; *strip = true; return 3; }
		if (d == '<') { *op = SH_R_HEREDOC; return 2; }
		if (d == '>') { *op = SH_R_RDWR; return 2; }
		if (d == '&') { *op = SH_R_DUP_IN; return 2; }
		*op = SH_R_IN;
		return 1;
	}
	if (c == '>') {
		if (d == '(')
			return 0;
		if (d == '>') { *op = SH_R_APPEND; return 2; }
		if (d == '&') { *op = SH_R_DUP_OUT; return 2; }
		if (d == '|') { *op = SH_R_CLOBBER; return 2; }
		*op = SH_R_OUT;
		return 1;
	}
	if (c == '&' && d == '>' && digits == 0) {
		if (e == '>') { *op = SH_R_ALL_APPEND; return 3; }
		*op = SH_R_ALL;
		return 2;
	}
	return 0;
}

/* A redirection at the current position: returns its length including an
 * fd number ({name} fds too), or 0. */
static size_t redirect_start(const struct parser *p, size_t *digits,
			     enum sh_redir_op *op, bool *strip)
{
	size_t i = 0;
	int c = ch(p, 0);

	/* a redirection begins with a digit, '{', '<', '>' or '&': the
	 * common word's first letter says no at once */
	if (!(c >= '0' && c <= '9') && c != '{' && c != '<' && c != '>' &&
	    c != '&')
		return 0;
	while (ch(p, i) >= '0' && ch(p, i) <= '9')
		i++;
	if (i == 0 && ch(p, 0) == '{') {
		size_t j = 1;
		while (is_name_char(ch(p, j)))
			j++;
		if (j > 1 && ch(p, j) == '}' &&
		    redir_at(p, j + 1, op, strip))
			i = j + 1;
	}
	size_t n = redir_at(p, i, op, strip);
	if (!n)
		return 0;
	*digits = i;
	return i + n;
}

static struct sh_redir *parse_redirect(struct parser *p)
{
	size_t digits, start = p->pos;
	enum sh_redir_op op;
	bool strip;
	size_t n = redirect_start(p, &digits, &op, &strip);
	struct sh_redir *r = p_alloc(p, sizeof(*r));

	if (!r)
		return NULL;
	r->op = op;
	r->strip_tabs = strip;
	r->fd = -1;
	if (digits && ch(p, 0) != '{') {
		long fd = 0;
		for (size_t i = 0; i < digits && fd < 100000; i++)
			fd = fd * 10 + (p->src[p->pos + i] - '0');
		r->fd = (int)fd;
	}
	p->pos += n;
	count_token(p);
	skip_blanks(p);
	if (is_meta(ch(p, 0)) &&
	    !((ch(p, 0) == '<' || ch(p, 0) == '>') && ch(p, 1) == '(')) {
		fail(p, CORDON_E_PARSE, start, "redirection without a target");
		return r;
	}
	r->target = read_word(p, W_NORMAL);
	if (op == SH_R_DUP_OUT && r->target && r->fd < 0 &&
	    !(r->target->parts && r->target->parts->kind == SH_WP_LIT &&
	      ((r->target->parts->s[0] >= '0' && r->target->parts->s[0] <= '9') ||
	       r->target->parts->s[0] == '-')))
		r->op = SH_R_ALL; /* >&file is &>file */
	if (op == SH_R_HEREDOC && r->target) {
		r->delim_quoted = r->target->quoted;
		struct parser *root = p->root;
		if (++root->heredocs > root->lim->max_heredocs ||
		    p->hd_count >= sizeof(p->hd_queue) / sizeof(p->hd_queue[0])) {
			char msg[96];
			snprintf(msg, sizeof(msg),
				 "too many here-documents (limit max_heredocs=%u)",
				 root->lim->max_heredocs);
			fail(p, CORDON_E_LIMIT, start, msg);
			return r;
		}
		p->hd_queue[p->hd_count++] = r;
	}
	return r;
}

static void parse_redirects(struct parser *p, struct sh_node *n)
{
	for (;;) {
		size_t digits;
		enum sh_redir_op op;
		bool strip;
		skip_blanks(p);
		if (failed(p) || !redirect_start(p, &digits, &op, &strip))
			return;
		struct sh_redir *r = parse_redirect(p);
		if (!r)
			return;
		struct sh_redir **t = &n->redirs;
		while (*t)
			t = &(*t)->next;
		*t = r;
	}
}

/* ---- commands ------------------------------------------------------------ */

/* NAME=, NAME+=, NAME[…]= at the start of an unquoted word. */
static bool is_assignment(const struct sh_word *w)
{
	const struct sh_wpart *pt = w->parts;
	size_t i = 0;

	if (!pt || pt->kind != SH_WP_LIT || pt->quoted || pt->len == 0 ||
	    !is_name_start((unsigned char)pt->s[0]))
		return false;
	while (i < pt->len && is_name_char((unsigned char)pt->s[i]))
		i++;
	if (i < pt->len && pt->s[i] == '[') {
		while (i < pt->len && pt->s[i] != ']')
			i++;
		if (i == pt->len)
			return false;
		i++;
	}
	if (i < pt->len && pt->s[i] == '+')
		i++;
	return i < pt->len && pt->s[i] == '=';
}

static bool word_ends_with_eq(const struct sh_word *w)
{
	return w->raw_len && w->raw[w->raw_len - 1] == '=';
}

/* A function or loop name: one unquoted literal, no expansions. */
static bool plain_name(const struct sh_word *w)
{
	return w && w->parts && !w->parts->next &&
	       w->parts->kind == SH_WP_LIT && !w->parts->quoted &&
	       w->parts->len == w->raw_len;
}

/* Builtins whose NAME=(…) arguments are array assignments. */
static bool is_declaration(const struct sh_word *cmd)
{
	return sh_word_is(cmd, "declare") || sh_word_is(cmd, "local") ||
	       sh_word_is(cmd, "typeset") || sh_word_is(cmd, "readonly") ||
	       sh_word_is(cmd, "export");
}

/* name=( a b c ) */
static void parse_array(struct parser *p, struct sh_node *n)
{
	size_t start = p->pos;

	p->pos++; /* ( */
	for (;;) {
		linebreak(p);
		if (failed(p))
			return;
		if (ch(p, 0) == ')') {
			p->pos++;
			return;
		}
		if (ch(p, 0) == -1 || is_meta(ch(p, 0))) {
			fail(p, CORDON_E_PARSE, start, "unterminated array");
			return;
		}
		append_assigns(n, read_word(p, W_NORMAL));
	}
}

static struct sh_node *parse_function_body(struct parser *p,
					   struct sh_node *fn, size_t start)
{
	linebreak(p);
	append_child(fn, parse_command(p));
	if (!fn->child && !failed(p))
		fail(p, CORDON_E_PARSE, p->pos, "function without a body");
	finish(p, fn, start);
	return fn;
}

static struct sh_node *parse_simple(struct parser *p)
{
	size_t start = p->pos;
	struct sh_node *n = new_node(p, SH_SIMPLE, start);

	if (!n)
		return NULL;
	for (;;) {
		size_t digits;
		enum sh_redir_op op;
		bool strip;
		skip_blanks(p);
		if (failed(p))
			break;
		int c = ch(p, 0);
		if (redirect_start(p, &digits, &op, &strip)) {
			struct sh_redir *r = parse_redirect(p);
			struct sh_redir **t = &n->redirs;
			while (*t)
				t = &(*t)->next;
			*t = r;
			continue;
		}
		if (c == -1 || (is_meta(c) && !((c == '<' || c == '>') &&
						 ch(p, 1) == '(')))
			break;
		struct sh_word *w = read_word(p, W_NORMAL);
		if (!w)
			break;
		if (!n->words && is_assignment(w)) {
			append_assigns(n, w);
			if (word_ends_with_eq(w) && ch(p, 0) == '(')
				parse_array(p, n);
			continue;
		}
		if (!n->words && !n->assigns && !n->redirs) {
			/* name () compound-command */
			size_t save = p->pos;
			skip_blanks(p);
			if (ch(p, 0) == '(') {
				p->pos++;
				skip_blanks(p);
				if (ch(p, 0) == ')') {
					p->pos++;
					if (!plain_name(w)) {
						fail(p, CORDON_E_PARSE, start,
						     "invalid function name");
						break;
					}
					n->kind = SH_FUNC;
					n->name = w->raw;
					n->name_len = w->raw_len;
					return parse_function_body(p, n, start);
				}
			}
			p->pos = save;
		}
		append_words(n, w);
		if (n->words != w && word_ends_with_eq(w) && ch(p, 0) == '(' &&
		    is_assignment(w) && is_declaration(n->words))
			parse_array(p, n);
	}
	finish(p, n, start);
	if (!n->words && !n->assigns && !n->redirs && !failed(p)) {
		int c = ch(p, 0);
		char msg[64];
		if (c == -1)
			snprintf(msg, sizeof(msg), "unexpected end of input");
		else
			snprintf(msg, sizeof(msg), "unexpected '%c'", c);
		fail(p, CORDON_E_PARSE, p->pos, msg);
	}
	return n;
}

/* [[ … ]] */
static struct sh_node *parse_cond(struct parser *p, size_t start)
{
	struct sh_node *n = new_node(p, SH_COND, start);
	bool regex_next = false;

	if (!n)
		return NULL;
	p->pos += 2;
	for (;;) {
		skip_blanks(p);
		while (is_newline(ch(p, 0))) {
			eat_newline(p);
			skip_blanks(p);
		}
		if (failed(p))
			break;
		if (ch(p, 0) == -1) {
			fail(p, CORDON_E_PARSE, start, "unterminated [[");
			break;
		}
		if (at_word(p, "]]")) {
			p->pos += 2;
			break;
		}
		int c = ch(p, 0), d = ch(p, 1);
		size_t oplen = 0;
		if ((c == '&' && d == '&') || (c == '|' && d == '|'))
			oplen = 2;
		else if (c == '(' || c == ')' || c == '<' || c == '>' ||
			 (c == '!' && d != '=') || c == ';' || c == '&' ||
			 c == '|')
			oplen = 1;
		if (oplen && !regex_next) {
			struct sh_word *w = p_alloc(p, sizeof(*w));
			struct sh_wpart *pt = w ? word_add(p, w, SH_WP_LIT) : NULL;
			if (!pt)
				break;
			pt->s = p->src + p->pos;
			pt->len = oplen;
			w->raw = pt->s;
			w->raw_len = oplen;
			p->pos += oplen;
			count_token(p);
			append_words(n, w);
			continue;
		}
		struct sh_word *w =
			read_word(p, regex_next ? W_REGEX : W_NORMAL);
		if (!w)
			break;
		if (w->raw_len == 0 && !failed(p)) {
			fail(p, CORDON_E_PARSE, p->pos, "unexpected character in [[");
			break;
		}
		regex_next = sh_word_is(w, "=~");
		append_words(n, w);
	}
	finish(p, n, start);
	return n;
}

/* (( … )) */
static struct sh_node *parse_arith_cmd(struct parser *p, size_t start)
{
	struct sh_node *n = new_node(p, SH_ARITH, start);

	if (!n)
		return NULL;
	p->pos += 2;
	struct sh_word *w = read_word(p, W_ARITH);
	append_words(n, w);
	if (!failed(p)) {
		if (ch(p, 0) == ')' && ch(p, 1) == ')')
			p->pos += 2;
		else
			fail(p, CORDON_E_PARSE, start, "unterminated ((");
	}
	finish(p, n, start);
	return n;
}

/* The body of a loop: do … done, or { … } as bash also takes. */
static void parse_do_group(struct parser *p, struct sh_node *n, size_t start,
			   const char *construct)
{
	linebreak(p);
	skip_blanks(p);
	if (at_word(p, "{")) {
		append_child(n, parse_command(p));
		return;
	}
	if (!expect_word(p, "do", start, construct))
		return;
	append_child(n, parse_list(p, 0));
	if (!failed(p))
		expect_word(p, "done", start, construct);
}

static struct sh_node *parse_for(struct parser *p, size_t start, bool select)
{
	struct sh_node *n = new_node(p, select ? SH_SELECT : SH_FOR, start);

	if (!n)
		return NULL;
	p->pos += select ? 6 : 3;
	count_token(p);
	skip_blanks(p);
	if (!select && ch(p, 0) == '(' && ch(p, 1) == '(') {
		size_t s = p->pos;
		p->pos += 2;
		append_words(n, read_word(p, W_ARITH));
		if (!failed(p)) {
			if (ch(p, 0) == ')' && ch(p, 1) == ')')
				p->pos += 2;
			else
				fail(p, CORDON_E_PARSE, s, "unterminated for ((");
		}
		skip_blanks(p);
		if (ch(p, 0) == ';')
			p->pos++;
	} else {
		struct sh_word *name = read_word(p, W_NORMAL);
		if (!name || name->raw_len == 0) {
			fail(p, CORDON_E_PARSE, p->pos, "for without a name");
			finish(p, n, start);
			return n;
		}
		n->name = name->raw;
		n->name_len = name->raw_len;
		if (!plain_name(name) || !is_name_start((unsigned char)name->raw[0])) {
			fail(p, CORDON_E_PARSE, p->pos, "invalid loop variable");
			finish(p, n, start);
			return n;
		}
		linebreak(p);
		if (at_word(p, "in")) {
			p->pos += 2;
			for (;;) {
				skip_blanks(p);
				int c = ch(p, 0);
				if (failed(p) || c == -1 || c == ';' ||
				    is_newline(c))
					break;
				if (is_meta(c)) {
					fail(p, CORDON_E_PARSE, p->pos,
					     "unexpected operator in for list");
					break;
				}
				append_words(n, read_word(p, W_NORMAL));
			}
		}
		skip_blanks(p);
		if (ch(p, 0) == ';')
			p->pos++;
	}
	if (!failed(p))
		parse_do_group(p, n, start, select ? "select" : "for");
	finish(p, n, start);
	return n;
}

static struct sh_node *parse_case(struct parser *p, size_t start)
{
	struct sh_node *n = new_node(p, SH_CASE, start);

	if (!n)
		return NULL;
	p->pos += 4;
	count_token(p);
	skip_blanks(p);
	append_words(n, read_word(p, W_NORMAL));
	linebreak(p);
	if (!expect_word(p, "in", start, "case")) {
		finish(p, n, start);
		return n;
	}
	for (;;) {
		linebreak(p);
		if (failed(p))
			break;
		if (at_word(p, "esac")) {
			p->pos += 4;
			break;
		}
		if (ch(p, 0) == -1) {
			fail(p, CORDON_E_PARSE, start, "expected 'esac' to close 'case'");
			break;
		}
		if (ch(p, 0) == '(')
			p->pos++;
		for (;;) {
			skip_blanks(p);
			int c = ch(p, 0);
			if (c == -1 || (is_meta(c) && c != '<' && c != '>')) {
				fail(p, CORDON_E_PARSE, p->pos,
				     "expected a case pattern");
				break;
			}
			append_words(n, read_word(p, W_NORMAL));
			skip_blanks(p);
			if (failed(p))
				break;
			if (ch(p, 0) == '|') {
				p->pos++;
				continue;
			}
			if (ch(p, 0) == ')') {
				p->pos++;
				break;
			}
			fail(p, CORDON_E_PARSE, p->pos, "expected ')' after a case pattern");
			break;
		}
		if (failed(p))
			break;
		append_child(n, parse_list(p, ';'));
		if (failed(p))
			break;
		skip_blanks(p);
		if (ch(p, 0) == ';' && ch(p, 1) == ';') {
			p->pos += ch(p, 2) == '&' ? 3 : 2;
		} else if (ch(p, 0) == ';' && ch(p, 1) == '&') {
			p->pos += 2;
		} else if (!at_word(p, "esac")) {
			fail(p, CORDON_E_PARSE, p->pos, "expected ';;' or 'esac'");
			break;
		}
	}
	finish(p, n, start);
	return n;
}

static struct sh_node *parse_if(struct parser *p, size_t start)
{
	struct sh_node *n = new_node(p, SH_IF, start);

	if (!n)
		return NULL;
	p->pos += 2;
	count_token(p);
	for (;;) {
		append_child(n, parse_list(p, 0));
		if (!expect_word(p, "then", start, "if"))
			break;
		append_child(n, parse_list(p, 0));
		if (failed(p))
			break;
		skip_blanks(p);
		if (at_word(p, "elif")) {
			p->pos += 4;
			continue;
		}
		if (at_word(p, "else")) {
			p->pos += 4;
			append_child(n, parse_list(p, 0));
		}
		expect_word(p, "fi", start, "if");
		break;
	}
	finish(p, n, start);
	return n;
}

static struct sh_node *parse_loop(struct parser *p, size_t start, bool until)
{
	struct sh_node *n = new_node(p, until ? SH_UNTIL : SH_WHILE, start);

	if (!n)
		return NULL;
	p->pos += 5;
	count_token(p);
	append_child(n, parse_list(p, 0));
	if (!failed(p))
		parse_do_group(p, n, start, until ? "until" : "while");
	finish(p, n, start);
	return n;
}

static struct sh_node *parse_compound(struct parser *p, enum sh_kind kind,
				      size_t start, int close)
{
	struct sh_node *n = new_node(p, kind, start);

	if (!n)
		return NULL;
	p->pos++;
	count_token(p);
	append_child(n, parse_list(p, close == ')' ? ')' : 0));
	if (!failed(p)) {
		if (close == ')') {
			skip_blanks(p);
			if (ch(p, 0) == ')')
				p->pos++;
			else
				fail(p, CORDON_E_PARSE, start,
				     "expected ')' to close '('");
		} else {
			expect_word(p, "}", start, "{");
		}
	}
	finish(p, n, start);
	return n;
}

static struct sh_node *parse_command(struct parser *p)
{
	struct sh_node *n = NULL;
	size_t start;

	skip_blanks(p);
	start = p->pos;
	if (!enter(p))
		return NULL;
	if (ch(p, 0) == '(' && ch(p, 1) == '(' && arith_closes(p, p->pos + 2))
		n = parse_arith_cmd(p, start);
	else if (ch(p, 0) == '(')
		n = parse_compound(p, SH_SUBSHELL, start, ')');
	else if (at_word(p, "{"))
		n = parse_compound(p, SH_GROUP, start, '}');
	else if (at_word(p, "if"))
		n = parse_if(p, start);
	else if (at_word(p, "while"))
		n = parse_loop(p, start, false);
	else if (at_word(p, "until"))
		n = parse_loop(p, start, true);
	else if (at_word(p, "for"))
		n = parse_for(p, start, false);
	else if (at_word(p, "select"))
		n = parse_for(p, start, true);
	else if (at_word(p, "case"))
		n = parse_case(p, start);
	else if (at_word(p, "[["))
		n = parse_cond(p, start);
	else if (at_word(p, "function")) {
		p->pos += 8;
		skip_blanks(p);
		n = new_node(p, SH_FUNC, start);
		struct sh_word *name = read_word(p, W_NORMAL);
		if (n && name && name->raw_len) {
			n->name = name->raw;
			n->name_len = name->raw_len;
			skip_blanks(p);
			if (ch(p, 0) == '(') {
				p->pos++;
				skip_blanks(p);
				if (ch(p, 0) == ')')
					p->pos++;
				else
					fail(p, CORDON_E_PARSE, p->pos,
					     "expected ')' after 'function NAME('");
			}
			if (!failed(p))
				parse_function_body(p, n, start);
		} else if (!failed(p)) {
			fail(p, CORDON_E_PARSE, p->pos, "function without a name");
		}
		leave(p);
		return n;
	} else {
		n = parse_simple(p);
		leave(p);
		return n;
	}
	if (n && !failed(p) && n->kind != SH_FUNC)
		parse_redirects(p, n);
	finish(p, n, start);
	leave(p);
	return n;
}

/* `time` is a reserved word before a compound command ("time ( … )");
 * before a simple command it stays a word, which the classifier treats as
 * a wrapper. Consumes "time [-p]" when it is the keyword. */
static bool time_keyword(struct parser *p)
{
	size_t save = p->pos;

	p->pos += 4;
	skip_blanks(p);
	if (at_word(p, "-p")) {
		p->pos += 2;
		skip_blanks(p);
	}
	if (ch(p, 0) == '(' || at_word(p, "{") || at_word(p, "if") ||
	    at_word(p, "while") || at_word(p, "until") || at_word(p, "for") ||
	    at_word(p, "case") || at_word(p, "[[") || at_word(p, "!"))
		return true;
	p->pos = save;
	return false;
}

/* coproc [NAME] COMMAND: the command runs in the background. A NAME is
 * only there when a compound command follows it. */
static void coproc_keyword(struct parser *p)
{
	p->pos += 6;
	skip_blanks(p);
	size_t save = p->pos;
	while (p->pos < p->len && is_name_char(ch(p, 0)))
		p->pos++;
	if (p->pos > save) {
		skip_blanks(p);
		if (ch(p, 0) == '(' || at_word(p, "{") || at_word(p, "if") ||
		    at_word(p, "while") || at_word(p, "for") || at_word(p, "until") ||
		    at_word(p, "case"))
			return;
	}
	p->pos = save;
}

static struct sh_node *parse_pipeline(struct parser *p)
{
	size_t start;
	struct sh_node *pl, *first;
	bool negated = false;

	skip_blanks(p);
	start = p->pos;
	for (;;) {
		if (at_word(p, "!")) {
			negated = !negated;
			p->pos++;
			skip_blanks(p);
			continue;
		}
		if (at_word(p, "time") && time_keyword(p))
			continue;
		if (at_word(p, "coproc")) {
			coproc_keyword(p);
			continue;
		}
		break;
	}
	first = parse_command(p);
	skip_blanks(p);
	if (!negated && (failed(p) || ch(p, 0) != '|' || ch(p, 1) == '|'))
		return first;
	pl = new_node(p, SH_PIPELINE, start);
	if (!pl)
		return first;
	pl->negated = negated;
	append_child(pl, first);
	struct sh_node *last = first;
	while (!failed(p) && ch(p, 0) == '|' && ch(p, 1) != '|') {
		bool err = ch(p, 1) == '&';
		p->pos += err ? 2 : 1;
		count_token(p);
		if (last)
			last->pipe_stderr = err;
		linebreak(p);
		if (at_terminator(p) || ch(p, 0) == ';' || ch(p, 0) == '&' ||
		    ch(p, 0) == '|') {
			fail(p, CORDON_E_PARSE, p->pos, "pipe without a command");
			break;
		}
		struct sh_node *c = parse_command(p);
		append_child(pl, c);
		if (c)
			last = c;
		skip_blanks(p);
	}
	finish(p, pl, start);
	return pl;
}

/* A list of and-or chains up to a terminator. `want` is the closing
 * character the caller will consume (')'), ';' inside case arms, or 0 for a
 * reserved-word terminator or the end of input. At the top level (root
 * parser, want 0, depth 0) any terminator is an error. */
static struct sh_node *parse_list(struct parser *p, int want)
{
	size_t start = p->pos;
	struct sh_node *list = new_node(p, SH_LIST, start);

	if (!list)
		return NULL;
	for (;;) {
		linebreak(p);
		if (failed(p))
			break;
		if (at_terminator(p)) {
			bool top = p == p->root && p->root->depth == 0;
			int c = ch(p, 0);
			if (c == -1)
				break;
			if (top || (c == ')' && want != ')') ||
			    (c == ';' && want != ';'))
				fail(p, CORDON_E_PARSE, p->pos,
				     c == ')' ? "unexpected ')'"
				     : c == ';' ? "unexpected ';;'"
						: "unexpected reserved word");
			break;
		}
		struct sh_node *item = parse_pipeline(p);
		if (!item)
			break;
		append_child(list, item);
		if (failed(p))
			break;
		skip_blanks(p);
		int c = ch(p, 0), d = ch(p, 1);
		if (c == '&' && d == '&') {
			item->sep = SH_SEP_AND;
			p->pos += 2;
			linebreak(p);
			if (at_terminator(p))
				fail(p, CORDON_E_PARSE, p->pos, "'&&' without a command");
		} else if (c == '|' && d == '|') {
			item->sep = SH_SEP_OR;
			p->pos += 2;
			linebreak(p);
			if (at_terminator(p))
				fail(p, CORDON_E_PARSE, p->pos, "'||' without a command");
		} else if (c == '&' && d != '>') {
			item->sep = SH_SEP_ASYNC;
			p->pos++;
		} else if (c == ';' && d != ';' && d != '&') {
			item->sep = SH_SEP_SEMI;
			p->pos++;
		} else if (is_newline(c)) {
			item->sep = SH_SEP_SEMI;
			eat_newline(p);
		} else if (at_terminator(p)) {
			continue;
		} else {
			char msg[64];
			snprintf(msg, sizeof(msg), "unexpected '%c'", c);
			fail(p, CORDON_E_PARSE, p->pos, msg);
			break;
		}
		if (failed(p))
			break;
	}
	finish(p, list, start);
	return list;
}

enum cordon_err sh_parse(struct arena *a, const struct cordon_limits *lim,
			 const char *src, size_t len, struct sh_result *res)
{
	struct parser p;

	memset(res, 0, sizeof(*res));
	memset(&p, 0, sizeof(p));
	/* no ceiling of its own: the text it holds is built from the input,
	 * which lim->max_input_bytes caps */
	buf_init(&p.scratch, SIZE_MAX);
	p.src = src;
	p.len = len;
	p.a = a;
	p.lim = lim;
	p.root = &p;
	if (len > lim->max_input_bytes) {
		snprintf(res->err_msg, sizeof(res->err_msg),
			 "command is %zu bytes (limit max_input_bytes=%zu)", len,
			 lim->max_input_bytes);
		res->err = CORDON_E_LIMIT;
		res->err_offset = lim->max_input_bytes;
		res->root = arena_alloc(a, sizeof(*res->root));
		if (res->root) {
			res->root->kind = SH_LIST;
			res->root->text = src;
		}
		return res->err;
	}
	res->root = parse_list(&p, 0);
	if (p.err == CORDON_OK && p.hd_count) {
		/* Here-docs opened on the last line with no newline after:
		 * their bodies are empty. bash warns and accepts. */
		for (unsigned i = 0; i < p.hd_count; i++)
			p.hd_queue[i]->body_unterminated = true;
		p.err = CORDON_E_PARSE;
		p.err_off = len;
		snprintf(p.err_msg, sizeof(p.err_msg),
			 "here-document without a body");
	}
	buf_free(&p.scratch);
	res->err = p.err;
	res->err_offset = p.err_off;
	memcpy(res->err_msg, p.err_msg, sizeof(res->err_msg));
	if (!res->root && res->err == CORDON_OK)
		res->err = CORDON_E_NOMEM;
	return res->err;
}
