/* sql — reading SQL and MongoDB shell text handed to database clients.
 *
 * A tokenizer that knows SQL's strings ('…' with '' escapes), quoted
 * identifiers ("…", `…`), dollar quotes ($tag$…$tag$) and comments (--,
 * block comments, but not MySQL's executable comments), so a keyword inside
 * a string or a comment never counts. Statements split on ';'. Keywords
 * are case-insensitive.
 *
 * Whether a backslash escapes a quote inside '…' depends on the server
 * (MySQL yes, PostgreSQL no), and text that hides a statement from one
 * reading shows it to the other, so the text is read both ways and what
 * either reading sees counts.
 *
 * DO blocks and EXECUTE / PREPARE of a literal run the literal's SQL: it is
 * read too, at most SQ_MAX_NEST deep. Everything else is one pass with a
 * bounded look-ahead.
 */
#include "codescan.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"

enum {
	SQ_MAX_DEPTH = 64, /* parentheses tracked for DELETE / UPDATE scopes */
	SQ_MAX_NEST = 4, /* SQL inside DO / EXECUTE strings inside … */
	SQ_COND = 64, /* tokens of a WHERE condition judged */
};

enum sq_kind { Q_EOF, Q_WORD, Q_QIDENT, Q_STR, Q_NUM, Q_PUNCT, Q_PARAM };

struct sqt {
	unsigned char kind;
	unsigned char nl; /* a newline precedes it */
	char op[3];
	size_t s, e; /* the token */
	size_t cs, ce; /* a string's body */
};

struct sqx {
	const char *s;
	size_t n, i;
	int bs; /* a backslash escapes the next byte inside '…' */
};

static int sq_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static int sq_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int sq_word_char(int c)
{
	return sq_alpha(c) || sq_digit(c) || c == '$';
}

static int sq_ch(const struct sqx *x, size_t i)
{
	return i < x->n ? (unsigned char)x->s[i] : -1;
}

/* $tag$ at i: returns the length of the opening delimiter, or 0. */
static size_t sq_dollar(const struct sqx *x, size_t i)
{
	size_t j = i + 1;

	if (sq_digit(sq_ch(x, j)))
		return 0;
	while (j < x->n && (sq_alpha(sq_ch(x, j)) || sq_digit(sq_ch(x, j))))
		j++;
	return sq_ch(x, j) == '$' ? j + 1 - i : 0;
}

static void sq_next(struct sqx *x, struct sqt *t)
{
	memset(t, 0, sizeof(*t));
	for (;;) {
		int c = sq_ch(x, x->i), d = sq_ch(x, x->i + 1);
		if (c == '\n') {
			t->nl = 1;
			x->i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			x->i++;
		} else if (c == '-' && d == '-' &&
			   /* MySQL (the backslash reading) wants a blank. */
			   (!x->bs || x->i + 2 >= x->n ||
			    (x->s[x->i + 2] &&
			     strchr(" \t\r\n", x->s[x->i + 2])))) {
			const char *nl = memchr(x->s + x->i, '\n', x->n - x->i);
			x->i = nl ? (size_t)(nl - x->s) : x->n;
		} else if (c == '/' && d == '*') {
			/* MySQL runs the text of a / *! … * / comment. */
			if (sq_ch(x, x->i + 2) == '!') {
				x->i += 3;
				while (sq_digit(sq_ch(x, x->i)))
					x->i++;
				continue;
			}
			const char *end = x->i + 2 <= x->n ?
						  memmem(x->s + x->i + 2,
							 x->n - x->i - 2, "*/",
							 2) :
						  NULL;
			x->i = end ? (size_t)(end - x->s) + 2 : x->n;
		} else {
			break;
		}
	}
	t->s = x->i;
	if (x->i >= x->n) {
		t->kind = Q_EOF;
		t->e = x->n;
		return;
	}
	int c = sq_ch(x, x->i);
	size_t j = x->i + 1;
	if (c == '\'') {
		t->kind = Q_STR;
		t->cs = j;
		for (; j < x->n; j++) {
			if (x->bs && x->s[j] == '\\') {
				j++;
				continue;
			}
			if (x->s[j] == '\'') {
				if (sq_ch(x, j + 1) == '\'') {
					j++;
					continue;
				}
				break;
			}
		}
		t->ce = j < x->n ? j : x->n;
		x->i = j < x->n ? j + 1 : x->n;
	} else if (c == '"' || c == '`') {
		t->kind = Q_QIDENT;
		t->cs = j;
		for (; j < x->n; j++) {
			if (x->bs && x->s[j] == '\\') {
				j++;
				continue;
			}
			if (x->s[j] == c) {
				if (sq_ch(x, j + 1) == c) {
					j++;
					continue;
				}
				break;
			}
		}
		t->ce = j < x->n ? j : x->n;
		x->i = j < x->n ? j + 1 : x->n;
	} else if (c == '$' && sq_dollar(x, x->i)) {
		size_t k = sq_dollar(x, x->i);
		const char *end = memmem(x->s + x->i + k, x->n - x->i - k,
					 x->s + x->i, k);
		t->kind = Q_STR;
		t->cs = x->i + k;
		t->ce = end ? (size_t)(end - x->s) : x->n;
		x->i = end ? t->ce + k : x->n;
	} else if ((c == '$' || c == ':' || c == '?' || c == '@') &&
		   (sq_digit(sq_ch(x, j)) ||
		    (c != '$' && sq_alpha(sq_ch(x, j))))) {
		t->kind = Q_PARAM;
		while (j < x->n && sq_word_char(sq_ch(x, j)))
			j++;
		x->i = j;
	} else if (sq_digit(c)) {
		t->kind = Q_NUM;
		while (j < x->n &&
		       (sq_word_char(sq_ch(x, j)) || x->s[j] == '.'))
			j++;
		x->i = j;
	} else if (sq_alpha(c)) {
		t->kind = Q_WORD;
		while (j < x->n && sq_word_char(sq_ch(x, j)))
			j++;
		x->i = j;
	} else {
		static const char *const ops[] = { "<>", "!=", "<=",
						   ">=", "::", NULL };
		t->kind = Q_PUNCT;
		t->op[0] = (char)c;
		x->i = j;
		for (const char *const *o = ops; *o; o++)
			if (c == (*o)[0] && sq_ch(x, j) == (*o)[1]) {
				t->op[1] = (*o)[1];
				x->i = j + 1;
				break;
			}
	}
	t->e = x->i;
}

/* ---- statements ---------------------------------------------------------- */

enum { V_NONE, V_DELETE, V_UPDATE };

struct scope {
	unsigned char verb;
	unsigned char where; /* a WHERE that is not always true */
};

struct stmt {
	unsigned flags; /* what this statement did */
	unsigned char writes; /* a write verb: WRITE unless something worse */
	unsigned char verb_pos; /* the next word may start a statement */
	unsigned char grant; /* GRANT / REVOKE: DROP, TRUNCATE are privileges */
	unsigned char alter; /* ALTER: a DROP drops a part */
	unsigned char with; /* WITH …: a verb may follow the CTEs */
	unsigned char mongo; /* db. seen */
	unsigned depth, maxd;
	struct scope sc[SQ_MAX_DEPTH + 1];
};

struct sqscan {
	const char *s;
	size_t n;
	int bs;
	unsigned nest;
	unsigned flags;
};

static void sq_range(struct sqscan *q);

static int w_is(const struct sqscan *q, const struct sqt *t, const char *w)
{
	size_t n = strlen(w);

	if (t->kind != Q_WORD || t->e - t->s != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)q->s[t->s + i];
		if (c >= 'A' && c <= 'Z')
			c += 32;
		if (c != w[i])
			return 0;
	}
	return 1;
}

static int w_in(const struct sqscan *q, const struct sqt *t,
		const char *const *list)
{
	for (; *list; list++)
		if (w_is(q, t, *list))
			return 1;
	return 0;
}

static int p_is(const struct sqt *t, const char *op)
{
	return t->kind == Q_PUNCT && !strcmp(t->op, op);
}

static void sq_peek(const struct sqx *x, struct sqt *t)
{
	struct sqx y = *x;

	sq_next(&y, t);
}

static void scope_close(struct stmt *st, unsigned d)
{
	struct scope *s = &st->sc[d];

	if (s->verb == V_DELETE)
		st->flags |= s->where ? 0 : SQL_F_DELETE_ALL;
	else if (s->verb == V_UPDATE)
		st->flags |= s->where ? 0 : SQL_F_UPDATE_ALL;
	if (s->verb != V_NONE && s->where)
		st->writes = 1;
	s->verb = V_NONE;
	s->where = 0;
}

static void stmt_end(struct sqscan *q, struct stmt *st)
{
	const unsigned severe = SQL_F_DROP | SQL_F_TRUNCATE | SQL_F_DELETE_ALL |
				SQL_F_UPDATE_ALL | SQL_F_ALTER_DROP |
				SQL_F_SHUTDOWN | SQL_F_PRIVILEGE |
				SQL_F_MONGO_DROP;

	for (unsigned d = 0; d <= st->maxd; d++)
		scope_close(st, d);
	if (st->writes && !(st->flags & severe))
		st->flags |= SQL_F_WRITE;
	q->flags |= st->flags;
	memset(st, 0, sizeof(*st));
	st->verb_pos = 1;
}

static int same_tok(const struct sqscan *q, const struct sqt *a,
		    const struct sqt *b)
{
	size_t n = a->e - a->s;

	if (a->kind != b->kind || n != b->e - b->s)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int x = (unsigned char)q->s[a->s + i],
		    y = (unsigned char)q->s[b->s + i];
		if (a->kind == Q_WORD) {
			x = x >= 'A' && x <= 'Z' ? x + 32 : x;
			y = y >= 'A' && y <= 'Z' ? y + 32 : y;
		}
		if (x != y)
			return 0;
	}
	return 1;
}

static int num_val(const struct sqscan *q, const struct sqt *t, long long *v)
{
	char buf[24];
	size_t n = t->e - t->s;
	char *end;

	if (t->kind != Q_NUM || n == 0 || n >= sizeof(buf))
		return 0;
	memcpy(buf, q->s + t->s, n);
	buf[n] = 0;
	*v = strtoll(buf, &end, 10);
	return *end == 0;
}

static int truthy(const struct sqscan *q, const struct sqt *t)
{
	long long v;

	if (w_is(q, t, "true"))
		return 1;
	if (num_val(q, t, &v))
		return v != 0;
	return t->kind == Q_NUM && t->e - t->s > 0 && q->s[t->s] != '0';
}

/* One conjunct: TRUE, 1, NOT FALSE, x = x, 1 <> 2, 2 > 1, (…) of one. */
static int atom_taut(const struct sqscan *q, const struct sqt *c, unsigned n)
{
	long long a, b;

	while (n >= 2 && p_is(&c[0], "(") && p_is(&c[n - 1], ")")) {
		c++;
		n -= 2;
	}
	if (n == 1)
		return truthy(q, &c[0]);
	if (n == 2 && w_is(q, &c[0], "not"))
		return w_is(q, &c[1], "false") ||
		       (c[1].kind == Q_NUM && num_val(q, &c[1], &a) && a == 0);
	if (n != 3 || c[1].kind != Q_PUNCT)
		return 0;
	if (p_is(&c[1], "="))
		return c[0].kind != Q_PARAM && same_tok(q, &c[0], &c[2]);
	if (!num_val(q, &c[0], &a) || !num_val(q, &c[2], &b))
		return 0;
	if (p_is(&c[1], "<>") || p_is(&c[1], "!="))
		return a != b;
	if (p_is(&c[1], "<"))
		return a < b;
	if (p_is(&c[1], ">"))
		return a > b;
	if (p_is(&c[1], "<="))
		return a <= b;
	if (p_is(&c[1], ">="))
		return a >= b;
	return 0;
}

/* The WHERE condition that starts at x holds for every row: one of its OR
 * branches is made only of always-true conjuncts. A condition too long to
 * judge is taken as restricting. */
static int where_taut(const struct sqscan *q, const struct sqx *x)
{
	static const char *const ends[] = {
		"returning", "order",  "limit", "group",     "having", "union",
		"offset",    "window", "for",	"intersect", "except", NULL,
	};
	struct sqt c[SQ_COND];
	struct sqx y = *x;
	unsigned n = 0, depth = 0, start = 0, branch = 1;

	for (;;) {
		struct sqt t;
		sq_next(&y, &t);
		if (t.kind == Q_EOF || p_is(&t, ";"))
			break;
		if (p_is(&t, "("))
			depth++;
		if (p_is(&t, ")")) {
			if (!depth)
				break;
			depth--;
		}
		if (!depth && w_in(q, &t, ends))
			break;
		if (n == SQ_COND)
			return 0;
		c[n++] = t;
	}
	for (unsigned i = 0; i <= n; i++) {
		int or_here = i == n || (w_is(q, &c[i], "or") && !depth);
		int and_here = i < n && w_is(q, &c[i], "and");
		if (i < n && p_is(&c[i], "("))
			depth++;
		if (i < n && p_is(&c[i], ")") && depth)
			depth--;
		if (or_here || (and_here && !depth)) {
			if (!atom_taut(q, c + start, i - start))
				branch = 0;
			start = i + 1;
			if (or_here) {
				if (branch && i > 0)
					return 1;
				branch = 1;
			}
		}
	}
	return 0;
}

/* A mongo method call: .drop(), .deleteMany({}) … */
static void mongo_method(struct sqscan *q, struct stmt *st, const struct sqt *t,
			 const struct sqx *x)
{
	static const char *const writes[] = {
		"deleteone",
		"insert",
		"insertone",
		"insertmany",
		"update",
		"updateone",
		"replaceone",
		"save",
		"findoneanddelete",
		"findoneandupdate",
		"findoneandreplace",
		"findandmodify",
		"bulkwrite",
		"createcollection",
		"createindex",
		"createindexes",
		"renamecollection",
		"dropindex",
		"dropindexes",
		NULL,
	};
	static const char *const privs[] = {
		"createuser",
		"updateuser",
		"grantrolestouser",
		"revokerolesfromuser",
		"createrole",
		"dropuser",
		"droprole",
		"changeuserpassword",
		"grantprivilegestorole",
		NULL,
	};
	struct sqx y = *x;
	struct sqt a, b, c;
	int empty;

	if (w_is(q, t, "dropdatabase")) {
		st->flags |= SQL_F_MONGO_DROP;
		return;
	}
	if (!st->mongo)
		return;
	/* The filter after '(': nothing, or {} */
	sq_next(&y, &a);
	sq_next(&y, &a);
	sq_next(&y, &b);
	sq_next(&y, &c);
	empty = p_is(&a, ")") || (p_is(&a, "{") && p_is(&b, "}") &&
				  (p_is(&c, ")") || p_is(&c, ",")));
	if (w_is(q, t, "drop") || w_is(q, t, "dropallusers") ||
	    w_is(q, t, "dropallroles"))
		st->flags |= SQL_F_MONGO_DROP;
	else if (w_is(q, t, "deletemany") || w_is(q, t, "remove"))
		st->flags |= empty ? SQL_F_MONGO_DROP : SQL_F_WRITE;
	else if (w_is(q, t, "updatemany"))
		st->flags |= empty ? SQL_F_UPDATE_ALL : SQL_F_WRITE;
	else if (w_is(q, t, "shutdownserver"))
		st->flags |= SQL_F_SHUTDOWN;
	else if (w_in(q, t, privs))
		st->flags |= SQL_F_PRIVILEGE;
	else if (w_in(q, t, writes))
		st->flags |= SQL_F_WRITE;
}

/* The body of the string token that follows, when one does. */
static int next_string(struct sqx *x, size_t *a, size_t *b)
{
	struct sqt t;
	struct sqx y = *x;

	sq_next(&y, &t);
	if (t.kind != Q_STR)
		return 0;
	*a = t.cs;
	*b = t.ce;
	*x = y;
	return 1;
}

/* SQL inside a string that runs now (DO, EXECUTE, PREPARE … FROM). */
static void sq_body(struct sqscan *q, size_t a, size_t b)
{
	struct sqscan sub;

	if (q->nest >= SQ_MAX_NEST)
		return;
	sub = *q;
	sub.s = q->s + a;
	sub.n = b - a;
	sub.nest = q->nest + 1;
	sub.flags = 0;
	sq_range(&sub);
	q->flags |= sub.flags;
}

/* A word at the start of a statement. */
static void verb(struct sqscan *q, struct stmt *st, const struct sqt *t,
		 struct sqx *x)
{
	static const char *const writes[] = {
		"insert", "replace", "merge",  "upsert", "copy",
		"load",	  "rename",  "attach", "import", NULL,
	};
	static const char *const users[] = { "user", "role", "login", "group",
					     NULL };
	struct sqt nx;
	size_t a, b;

	sq_peek(x, &nx);
	if (w_is(q, t, "delete")) {
		if (w_is(q, &nx, "when") || nx.kind == Q_EOF ||
		    p_is(&nx, ";")) {
			st->writes = 1;
			return;
		}
		scope_close(st, st->depth);
		st->sc[st->depth].verb = V_DELETE;
	} else if (w_is(q, t, "update")) {
		if (w_is(q, &nx, "set")) {
			st->writes = 1;
			return;
		}
		scope_close(st, st->depth);
		st->sc[st->depth].verb = V_UPDATE;
	} else if (w_in(q, t, writes)) {
		st->writes = 1;
	} else if (w_is(q, t, "create") || w_is(q, t, "alter")) {
		struct sqx y = *x;
		struct sqt w;
		/* CREATE [OR REPLACE] USER, ALTER ROLE … */
		sq_next(&y, &w);
		if (w_is(q, &w, "or")) {
			sq_next(&y, &w);
			sq_next(&y, &w);
		}
		if (w_in(q, &w, users))
			st->flags |= SQL_F_PRIVILEGE;
		else
			st->writes = 1;
		if (w_is(q, t, "alter"))
			st->alter = 1;
	} else if (w_is(q, t, "grant") || w_is(q, t, "revoke")) {
		st->flags |= SQL_F_PRIVILEGE;
		st->grant = 1;
	} else if (w_is(q, t, "set") && w_is(q, &nx, "password")) {
		st->flags |= SQL_F_PRIVILEGE;
	} else if (w_is(q, t, "rename") && w_is(q, &nx, "user")) {
		st->flags |= SQL_F_PRIVILEGE;
	} else if (w_is(q, t, "with")) {
		st->with = 1;
	} else if (w_is(q, t, "do")) {
		/* DO [LANGUAGE l] $$ … $$ runs now. */
		if (w_is(q, &nx, "language")) {
			struct sqt l;
			sq_next(x, &l);
			sq_next(x, &l);
		}
		if (next_string(x, &a, &b))
			sq_body(q, a, b);
	} else if (w_is(q, t, "execute") || w_is(q, t, "exec")) {
		if (w_is(q, &nx, "immediate"))
			sq_next(x, &nx);
		if (next_string(x, &a, &b))
			sq_body(q, a, b);
	} else if (w_is(q, t, "prepare")) {
		struct sqx y = *x;
		struct sqt n1, n2;
		sq_next(&y, &n1);
		sq_next(&y, &n2);
		if ((w_is(q, &n2, "from") || w_is(q, &n2, "as")) &&
		    next_string(&y, &a, &b)) {
			*x = y;
			sq_body(q, a, b);
		}
	}
}

/* A keyword that counts wherever it stands. */
static void word(struct sqscan *q, struct stmt *st, const struct sqt *t,
		 const struct sqt *nx, const struct sqt *prev,
		 const struct sqx *x)
{
	if (w_is(q, t, "drop") && !st->grant && nx->kind == Q_WORD &&
	    !w_is(q, nx, "on") && !w_is(q, nx, "to")) {
		if (!st->alter)
			st->flags |= SQL_F_DROP;
		else if (w_is(q, nx, "default") || w_is(q, nx, "not") ||
			 w_is(q, nx, "identity") || w_is(q, nx, "expression"))
			st->writes = 1;
		else
			st->flags |= SQL_F_ALTER_DROP;
	}
	if (w_is(q, t, "truncate") && !st->grant && !p_is(nx, "(") &&
	    !p_is(nx, ",") && !w_is(q, nx, "on"))
		st->flags |= SQL_F_TRUNCATE;
	if (w_is(q, t, "shutdown") && !st->grant && !p_is(nx, "(") &&
	    !p_is(nx, ","))
		st->flags |= SQL_F_SHUTDOWN;
	if (w_is(q, t, "into") && !st->grant)
		st->writes = 1;
	/* COPY … TO/FROM PROGRAM 'cmd', MSSQL xp_cmdshell, MySQL UDFs */
	if ((w_is(q, t, "program") && (w_is(q, prev, "to") || w_is(q, prev, "from"))) ||
	    w_is(q, t, "xp_cmdshell") || w_is(q, t, "sys_exec") ||
	    w_is(q, t, "sys_eval"))
		st->flags |= SQL_F_EXEC;
	if (w_is(q, t, "where") && st->sc[st->depth].verb != V_NONE &&
	    !where_taut(q, x))
		st->sc[st->depth].where = 1;
	if (w_is(q, t, "db") && (p_is(nx, ".") || p_is(nx, "[")))
		st->mongo = 1;
	if (p_is(prev, ".") && p_is(nx, "("))
		mongo_method(q, st, t, x);
	/* runCommand({dropDatabase: 1}), {drop: "coll"} */
	if ((w_is(q, t, "dropdatabase") || (st->mongo && w_is(q, t, "drop"))) &&
	    p_is(nx, ":"))
		st->flags |= SQL_F_MONGO_DROP;
}

/* Reads the SQL in q->s[0..q->n). */
static void sq_range(struct sqscan *q)
{
	static const char *const resets[] = {
		"begin", "then", "else", "loop", "do", "declare", NULL,
	};
	struct sqx x;
	struct stmt st;
	struct sqt t, prev, nx;

	memset(&x, 0, sizeof(x));
	x.s = q->s;
	x.n = q->n;
	x.bs = q->bs;
	memset(&st, 0, sizeof(st));
	st.verb_pos = 1;
	memset(&prev, 0, sizeof(prev));
	for (;; prev = t) {
		sq_next(&x, &t);
		if (t.kind == Q_EOF)
			break;
		if (t.nl && !st.depth)
			st.mongo = 0;
		if (p_is(&t, ";")) {
			stmt_end(q, &st);
			continue;
		}
		if (p_is(&t, "(")) {
			if (st.depth < SQ_MAX_DEPTH)
				st.depth++;
			if (st.depth > st.maxd)
				st.maxd = st.depth;
			st.verb_pos = 1;
			continue;
		}
		if (p_is(&t, ")")) {
			scope_close(&st, st.depth);
			if (st.depth)
				st.depth--;
			st.verb_pos = st.with && !st.depth;
			continue;
		}
		if (t.kind != Q_WORD) {
			st.verb_pos = 0;
			continue;
		}
		sq_peek(&x, &nx);
		if (st.verb_pos) {
			st.verb_pos = 0;
			verb(q, &st, &t, &x);
		}
		word(q, &st, &t, &nx, &prev, &x);
		if (w_in(q, &t, resets))
			st.verb_pos = 1;
	}
	stmt_end(q, &st);
}

/* Client meta-commands that run a shell: psql "\!", sqlite3 ".shell" and
 * ".system", mysql "system" and "\!", each at the start of a line. */
static unsigned meta_exec(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		const char *l = s + i;
		size_t rest = n - i;
		if ((rest >= 2 && l[0] == '\\' && l[1] == '!') ||
		    (rest >= 6 && strncasecmp(l, ".shell", 6) == 0) ||
		    (rest >= 7 && strncasecmp(l, ".system", 7) == 0) ||
		    (rest >= 7 && strncasecmp(l, "system ", 7) == 0))
			return SQL_F_EXEC;
		while (i < n && s[i] != '\n')
			i++;
		i++;
	}
	return 0;
}

unsigned sql_scan(const char *text, size_t len)
{
	struct sqscan q;
	unsigned f;

	if (!text)
		return 0;
	memset(&q, 0, sizeof(q));
	q.s = text;
	q.n = len;
	sq_range(&q);
	f = q.flags;
	q.flags = 0;
	q.bs = 1;
	sq_range(&q);
	f |= meta_exec(text, len);
	return f | q.flags;
}
