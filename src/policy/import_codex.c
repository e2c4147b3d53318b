/* import_codex — Codex execpolicy rules into cordon command rules (see
 * import_codex.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "diag.h"
#include "import_codex.h"

#include "alloc.h"
#include "banned.h"

#define CODEX_MAX_TEXT (1024 * 1024)
#define CODEX_MAX_RULES 1000
#define CODEX_MAX_PATTERN 64
#define CODEX_MAX_COMBOS 256
#define CODEX_MAX_EXAMPLES 256
#define CODEX_MAX_STRING 4096
#define CODEX_MAX_LIST 1024 /* elements of any one list */

/* ---- the reader: calls of keyword arguments, strings and lists ---------- */

struct rd {
	const char *s;
	size_t n, i;
	struct cordon_diag *diag;
	enum cordon_err err; /* CORDON_OK until the first error */
};

static void where(const struct rd *r, size_t at, unsigned *line,
		  unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t k = 0; k < at && k < r->n; k++) {
		if (r->s[k] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

__attribute__((format(printf, 3, 4))) static void fail(struct rd *r, size_t at,
							const char *fmt, ...)
{
	char msg[200];
	unsigned line, col;
	va_list ap;

	if (r->err != CORDON_OK)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	where(r, at, &line, &col);
	r->err = diag_at(r->diag, CORDON_E_CONFIG, at, "line %u:%u: %s", line,
			 col, msg);
	if (r->diag) {
		r->diag->line = line;
		r->diag->column = col;
	}
}

static void oom(struct rd *r)
{
	if (r->err == CORDON_OK)
		r->err = diag_set(r->diag, CORDON_E_NOMEM, "out of memory");
}

/* Skips blanks and # comments. */
static void skip(struct rd *r)
{
	while (r->i < r->n) {
		unsigned char c = (unsigned char)r->s[r->i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			r->i++;
		} else if (c == '#') {
			while (r->i < r->n && r->s[r->i] != '\n')
				r->i++;
		} else {
			break;
		}
	}
}

static bool peek(struct rd *r, char c)
{
	skip(r);
	return r->i < r->n && r->s[r->i] == c;
}

static bool expect(struct rd *r, char c)
{
	if (peek(r, c)) {
		r->i++;
		return true;
	}
	fail(r, r->i, "expected '%c'", c);
	return false;
}

static bool ident_char(unsigned char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* An identifier into buf (cap bytes). */
static bool ident(struct rd *r, char *buf, size_t cap)
{
	size_t k = 0;

	skip(r);
	if (r->i >= r->n || !ident_char((unsigned char)r->s[r->i], true)) {
		fail(r, r->i, "expected a name");
		return false;
	}
	while (r->i < r->n && ident_char((unsigned char)r->s[r->i], false)) {
		if (k + 1 >= cap) {
			fail(r, r->i, "name too long");
			return false;
		}
		buf[k++] = r->s[r->i++];
	}
	buf[k] = '\0';
	return true;
}

/* A '…' or "…" string (no triple quotes, no raw or byte prefixes). */
static cJSON *string(struct rd *r)
{
	struct buf b = BUF_INIT(CODEX_MAX_STRING + 1);
	size_t start = r->i;
	char q = r->s[r->i++];
	cJSON *v;
	char *t;

	if (r->i + 1 < r->n && r->s[r->i] == q && r->s[r->i + 1] == q) {
		fail(r, start, "triple-quoted strings are not read");
		return NULL;
	}
	for (;;) {
		char c;

		if (r->i >= r->n || r->s[r->i] == '\n') {
			fail(r, start, "string not closed");
			buf_free(&b);
			return NULL;
		}
		c = r->s[r->i++];
		if (c == q)
			break;
		if (c == '\0') {
			fail(r, r->i - 1, "a NUL byte in a string");
			buf_free(&b);
			return NULL;
		}
		if (c == '\\') {
			if (r->i >= r->n) {
				fail(r, start, "string not closed");
				buf_free(&b);
				return NULL;
			}
			c = r->s[r->i++];
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '\\':
			case '\'':
			case '"':
				break;
			default:
				fail(r, r->i - 2, "escape '\\%c' is not read",
				     c >= ' ' && c < 127 ? c : '?');
				buf_free(&b);
				return NULL;
			}
		}
		buf_addc(&b, c);
	}
	if (buf_failed(&b)) {
		/* The ceiling, or memory running out before it. */
		if (r->i - start > CODEX_MAX_STRING)
			fail(r, start, "string over %d bytes",
			     CODEX_MAX_STRING);
		else
			oom(r);
		buf_free(&b);
		return NULL;
	}
	t = buf_take(&b, NULL);
	if (!t) {
		oom(r);
		return NULL;
	}
	v = cJSON_CreateString(t);
	free(t);
	if (!v)
		oom(r);
	return v;
}

static cJSON *value(struct rd *r, unsigned depth);

static cJSON *list(struct rd *r, unsigned depth)
{
	cJSON *a = cJSON_CreateArray();
	size_t start = r->i, n = 0;

	if (!a) {
		oom(r);
		return NULL;
	}
	r->i++; /* [ */
	while (!peek(r, ']')) {
		cJSON *v;

		if (r->i >= r->n) {
			fail(r, start, "list not closed");
			break;
		}
		if (++n > CODEX_MAX_LIST) {
			fail(r, r->i, "list over %d elements", CODEX_MAX_LIST);
			break;
		}
		v = value(r, depth + 1);
		if (!v)
			break;
		if (!cJSON_AddItemToArray(a, v)) {
			cJSON_Delete(v);
			oom(r);
			break;
		}
		if (!peek(r, ','))
			break;
		r->i++;
	}
	if (r->err == CORDON_OK)
		expect(r, ']');
	if (r->err != CORDON_OK) {
		cJSON_Delete(a);
		return NULL;
	}
	return a;
}

static cJSON *value(struct rd *r, unsigned depth)
{
	skip(r);
	if (depth > 3) {
		fail(r, r->i, "lists nested too deep");
		return NULL;
	}
	if (r->i < r->n && (r->s[r->i] == '"' || r->s[r->i] == '\''))
		return string(r);
	if (r->i < r->n && r->s[r->i] == '[')
		return list(r, depth);
	fail(r, r->i, "expected a string or a list");
	return NULL;
}

/* NAME(key = value, …): the arguments as an object; *at the call's
 * offset. NULL at the end of the text (r->err unset) or on an error. */
static cJSON *call(struct rd *r, char *name, size_t cap, size_t *at)
{
	cJSON *args;

	skip(r);
	*at = r->i;
	if (r->i >= r->n)
		return NULL;
	if (!ident(r, name, cap) || !expect(r, '('))
		return NULL;
	args = cJSON_CreateObject();
	if (!args) {
		oom(r);
		return NULL;
	}
	while (!peek(r, ')')) {
		char key[64];
		size_t kat;
		cJSON *v;

		skip(r);
		kat = r->i;
		if (!ident(r, key, sizeof(key)) || !expect(r, '='))
			break;
		if (cJSON_GetObjectItemCaseSensitive(args, key)) {
			fail(r, kat, "argument '%s' given twice", key);
			break;
		}
		v = value(r, 0);
		if (!v)
			break;
		if (!cJSON_AddItemToObject(args, key, v)) {
			cJSON_Delete(v);
			oom(r);
			break;
		}
		if (!peek(r, ','))
			break;
		r->i++;
	}
	if (r->err == CORDON_OK)
		expect(r, ')');
	if (r->err != CORDON_OK) {
		cJSON_Delete(args);
		return NULL;
	}
	return args;
}

/* ---- examples ------------------------------------------------------------ */

/* A string example split as a POSIX shell splits words. NULL (with
 * *why) for an open quote. */
static cJSON *shell_split(const char *s, const char **why)
{
	cJSON *a = cJSON_CreateArray();
	struct buf w = BUF_INIT(CODEX_MAX_STRING + 1);
	bool in_word = false;

	*why = NULL;
	while (a && *s) {
		char c = *s++;

		if (c == ' ' || c == '\t' || c == '\n') {
			if (in_word) {
				char *t = buf_take(&w, NULL);

				if (!t || !cJSON_AddItemToArray(
						  a, cJSON_CreateString(t))) {
					free(t);
					goto fail;
				}
				free(t);
				in_word = false;
			}
			continue;
		}
		in_word = true;
		if (c == '\'') {
			while (*s && *s != '\'')
				buf_addc(&w, *s++);
			if (!*s) {
				*why = "a quote is not closed";
				goto fail;
			}
			s++;
		} else if (c == '"') {
			while (*s && *s != '"') {
				if (*s == '\\' && strchr("\\\"$`", s[1]) && s[1])
					s++;
				buf_addc(&w, *s++);
			}
			if (!*s) {
				*why = "a quote is not closed";
				goto fail;
			}
			s++;
		} else if (c == '\\' && *s) {
			buf_addc(&w, *s++);
		} else {
			buf_addc(&w, c);
		}
	}
	if (a && in_word) {
		char *t = buf_take(&w, NULL);

		if (!t || !cJSON_AddItemToArray(a, cJSON_CreateString(t))) {
			free(t);
			goto fail;
		}
		free(t);
	}
	buf_free(&w);
	return a;
fail:
	buf_free(&w);
	cJSON_Delete(a);
	return NULL;
}

/* The example as tokens (a new array), or NULL with why set. */
static cJSON *example_tokens(const cJSON *ex, const char **why, bool *oomp)
{
	const cJSON *t;

	*oomp = false;
	if (cJSON_IsString(ex)) {
		cJSON *a = shell_split(ex->valuestring, why);

		if (!a && !*why)
			*oomp = true;
		else if (a && cJSON_GetArraySize(a) == 0) {
			cJSON_Delete(a);
			*why = "an empty command";
			return NULL;
		}
		return a;
	}
	if (!cJSON_IsArray(ex) || !ex->child) {
		*why = "expected a string or a non-empty list of strings";
		return NULL;
	}
	cJSON_ArrayForEach (t, ex)
		if (!cJSON_IsString(t)) {
			*why = "expected a string or a non-empty list of "
			       "strings";
			return NULL;
		}
	{
		cJSON *a = cJSON_Duplicate(ex, 1);

		if (!a)
			*oomp = true;
		return a;
	}
}

/* Whether tokens begin with the pattern (alternatives at a position). */
static bool begins(const cJSON *pattern, const cJSON *tokens)
{
	const cJSON *p, *t = tokens->child;

	cJSON_ArrayForEach (p, pattern) {
		bool hit = false;

		if (!t)
			return false;
		if (cJSON_IsString(p)) {
			hit = strcmp(p->valuestring, t->valuestring) == 0;
		} else {
			const cJSON *alt;

			cJSON_ArrayForEach (alt, p)
				hit = hit ||
				      strcmp(alt->valuestring, t->valuestring) == 0;
		}
		if (!hit)
			return false;
		t = t->next;
	}
	return true;
}

/* Whether tokens begin with one combination (a plain list). */
static bool begins_plain(const cJSON *prefix, const cJSON *tokens)
{
	return begins(prefix, tokens);
}

/* tokens as one shell line cordon splits back into the same words: each
 * token single-quoted unless it is plain. */
static char *join_tokens(const cJSON *tokens)
{
	struct buf b = BUF_INIT(SIZE_MAX / 2);
	const cJSON *t;

	cJSON_ArrayForEach (t, tokens) {
		const char *s = t->valuestring;
		bool plain = *s != '\0';

		for (const char *p = s; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
				    "QRSTUVWXYZ0123456789/._+-,:=@%",
				    *p))
				plain = false;
		if (t != tokens->child)
			buf_addc(&b, ' ');
		if (plain) {
			buf_adds(&b, s);
			continue;
		}
		buf_addc(&b, '\'');
		for (const char *p = s; *p; p++)
			if (*p == '\'')
				buf_adds(&b, "'\\''");
			else
				buf_addc(&b, *p);
		buf_addc(&b, '\'');
	}
	return buf_take(&b, NULL);
}

/* ---- one rule ------------------------------------------------------------ */

enum { D_DENY, D_ASK, D_ALLOW, D_N };

struct out {
	cJSON *rules[D_N]; /* by decision, written deny first */
	size_t nrules;
	bool justification;
};

/* The pattern checked: a non-empty list of strings or non-empty lists of
 * strings. 0, or -1 after fail(). */
static int check_pattern(struct rd *r, size_t at, int idx, const cJSON *p,
			 size_t *combos)
{
	const cJSON *e, *alt;
	size_t n = 0;

	*combos = 1;
	if (!cJSON_IsArray(p) || !p->child) {
		fail(r, at, "rules[%d].pattern: expected a non-empty list", idx);
		return -1;
	}
	cJSON_ArrayForEach (e, p) {
		size_t k = 0;

		if (++n > CODEX_MAX_PATTERN) {
			fail(r, at, "rules[%d].pattern: over %d elements", idx,
			     CODEX_MAX_PATTERN);
			return -1;
		}
		if (cJSON_IsString(e)) {
			if (!e->valuestring[0]) {
				fail(r, at, "rules[%d].pattern[%zu]: empty",
				     idx, n - 1);
				return -1;
			}
			continue;
		}
		if (!cJSON_IsArray(e) || !e->child) {
			fail(r, at,
			     "rules[%d].pattern[%zu]: expected a string or a "
			     "non-empty list of strings",
			     idx, n - 1);
			return -1;
		}
		cJSON_ArrayForEach (alt, e) {
			if (!cJSON_IsString(alt) || !alt->valuestring[0]) {
				fail(r, at,
				     "rules[%d].pattern[%zu]: alternatives "
				     "must be non-empty strings",
				     idx, n - 1);
				return -1;
			}
			k++;
		}
		if (*combos > CODEX_MAX_COMBOS / k) {
			fail(r, at,
			     "rules[%d].pattern: over %d combinations of its "
			     "alternatives",
			     idx, CODEX_MAX_COMBOS);
			return -1;
		}
		*combos *= k;
	}
	return 0;
}

/* The c-th combination of the pattern's alternatives (a new array). */
static cJSON *combination(const cJSON *pattern, size_t c)
{
	cJSON *a = cJSON_CreateArray();
	const cJSON *e;

	cJSON_ArrayForEach (e, pattern) {
		const cJSON *pick = e;

		if (!a)
			return NULL;
		if (cJSON_IsArray(e)) {
			size_t k = (size_t)cJSON_GetArraySize(e);

			pick = cJSON_GetArrayItem(e, (int)(c % k));
			c /= k;
		}
		if (!cJSON_AddItemToArray(a,
					  cJSON_CreateString(pick->valuestring))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

/* Checks the examples of one kind against the pattern; returns them as
 * token arrays (a new array) or NULL after fail()/oom(). */
static cJSON *examples(struct rd *r, size_t at, int idx, const char *kind,
		       const cJSON *list_, const cJSON *pattern, bool want)
{
	cJSON *all = cJSON_CreateArray();
	const cJSON *ex;
	int j = 0;

	if (!all) {
		oom(r);
		return NULL;
	}
	if (!list_)
		return all;
	if (!cJSON_IsArray(list_)) {
		fail(r, at, "rules[%d].%s: expected a list", idx, kind);
		goto fail;
	}
	if (cJSON_GetArraySize(list_) > CODEX_MAX_EXAMPLES) {
		fail(r, at, "rules[%d].%s: over %d examples", idx, kind,
		     CODEX_MAX_EXAMPLES);
		goto fail;
	}
	cJSON_ArrayForEach (ex, list_) {
		const char *why = NULL;
		bool o;
		cJSON *toks = example_tokens(ex, &why, &o);

		if (!toks) {
			if (o)
				oom(r);
			else
				fail(r, at, "rules[%d].%s[%d]: %s", idx, kind, j,
				     why);
			goto fail;
		}
		if (begins(pattern, toks) != want) {
			char *line = join_tokens(toks);

			fail(r, at,
			     "rules[%d].%s[%d]: '%.80s' %s the pattern", idx,
			     kind, j, line ? line : "?",
			     want ? "does not match" : "matches");
			free(line);
			cJSON_Delete(toks);
			goto fail;
		}
		if (!cJSON_AddItemToArray(all, toks)) {
			cJSON_Delete(toks);
			oom(r);
			goto fail;
		}
		j++;
	}
	return all;
fail:
	cJSON_Delete(all);
	return NULL;
}

/* Adds the joined examples that begin with prefix (all when !filter). */
static bool add_examples(cJSON *rule, const char *key, const cJSON *toks,
			 const cJSON *prefix, bool filter)
{
	cJSON *arr = cJSON_AddArrayToObject(rule, key);
	const cJSON *t;

	if (!arr)
		return false;
	cJSON_ArrayForEach (t, toks) {
		char *line;

		if (filter && !begins_plain(prefix, t))
			continue;
		line = join_tokens(t);
		if (!line || !cJSON_AddItemToArray(arr, cJSON_CreateString(line))) {
			free(line);
			return false;
		}
		free(line);
	}
	return true;
}

static void prefix_rule(struct rd *r, size_t at, int idx, cJSON *args,
			struct out *o)
{
	static const char *const known[] = { "pattern", "decision",
					     "justification", "match",
					     "not_match" };
	const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(args, "pattern");
	const cJSON *dec = cJSON_GetObjectItemCaseSensitive(args, "decision");
	const cJSON *just =
		cJSON_GetObjectItemCaseSensitive(args, "justification");
	cJSON *m = NULL, *nm = NULL;
	const char *dname = "allow";
	size_t combos;
	int d = D_ALLOW;

	for (const cJSON *a = args->child; a; a = a->next) {
		bool ok = false;

		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			ok = ok || strcmp(a->string, known[k]) == 0;
		if (!ok) {
			fail(r, at, "rules[%d]: prefix_rule takes no argument "
				    "'%.40s'",
			     idx, a->string);
			return;
		}
	}
	if (!pattern) {
		fail(r, at, "rules[%d]: pattern is missing", idx);
		return;
	}
	if (check_pattern(r, at, idx, pattern, &combos) != 0)
		return;
	if (dec) {
		if (!cJSON_IsString(dec)) {
			fail(r, at, "rules[%d].decision: expected a string", idx);
			return;
		}
		if (strcmp(dec->valuestring, "allow") == 0) {
			d = D_ALLOW;
		} else if (strcmp(dec->valuestring, "prompt") == 0) {
			d = D_ASK;
			dname = "ask";
		} else if (strcmp(dec->valuestring, "forbidden") == 0) {
			d = D_DENY;
			dname = "deny";
		} else {
			fail(r, at,
			     "rules[%d].decision: expected allow, prompt or "
			     "forbidden, got '%.40s'",
			     idx, dec->valuestring);
			return;
		}
	}
	if (just && !cJSON_IsString(just)) {
		fail(r, at, "rules[%d].justification: expected a string", idx);
		return;
	}
	o->justification = o->justification || just;
	m = examples(r, at, idx, "match",
		     cJSON_GetObjectItemCaseSensitive(args, "match"), pattern,
		     true);
	if (!m)
		return;
	nm = examples(r, at, idx, "not_match",
		      cJSON_GetObjectItemCaseSensitive(args, "not_match"),
		      pattern, false);
	if (!nm)
		goto out;
	if (o->nrules + combos > CODEX_MAX_RULES) {
		fail(r, at, "over %d rules (with each combination of "
			    "alternatives)",
		     CODEX_MAX_RULES);
		goto out;
	}
	for (size_t c = 0; c < combos; c++) {
		cJSON *rule = cJSON_CreateObject();
		cJSON *prefix = combination(pattern, c);

		if (!rule || !prefix ||
		    !cJSON_AddItemToObject(rule, "prefix", prefix)) {
			cJSON_Delete(prefix);
			cJSON_Delete(rule);
			oom(r);
			goto out;
		}
		if (!cJSON_AddStringToObject(rule, "decision", dname) ||
		    !add_examples(rule, "match", m, prefix, true) ||
		    !add_examples(rule, "not_match", nm, prefix, false) ||
		    !cJSON_AddItemToArray(o->rules[d], rule)) {
			cJSON_Delete(rule);
			oom(r);
			goto out;
		}
		o->nrules++;
	}
out:
	cJSON_Delete(m);
	cJSON_Delete(nm);
}

/* ---- the file ------------------------------------------------------------ */

enum cordon_err import_codex_rules(const char *text, size_t len, char **out,
				   char **warnings, struct cordon_diag *diag)
{
	struct rd r = { text, len, 0, diag, CORDON_OK };
	struct out o = { { NULL, NULL, NULL }, 0, false };
	cJSON *doc = NULL, *safety, *all;
	int idx = 0;

	*out = NULL;
	*warnings = NULL;
	diag_clear(diag);
	if (len > CODEX_MAX_TEXT)
		return diag_set(diag, CORDON_E_LIMIT,
				"the rules file is over %d bytes (the limit)",
				CODEX_MAX_TEXT);
	for (int d = 0; d < D_N; d++) {
		o.rules[d] = cJSON_CreateArray();
		if (!o.rules[d])
			oom(&r);
	}
	while (r.err == CORDON_OK) {
		char name[64];
		size_t at;
		cJSON *args = call(&r, name, sizeof(name), &at);

		if (!args)
			break;
		if (strcmp(name, "prefix_rule") != 0)
			fail(&r, at,
			     "'%s' is not read (only prefix_rule): refusing "
			     "rather than dropping a rule",
			     name);
		else
			prefix_rule(&r, at, idx, args, &o);
		cJSON_Delete(args);
		idx++;
	}
	if (r.err != CORDON_OK)
		goto fail;
	doc = cJSON_CreateObject();
	safety = doc ? cJSON_AddObjectToObject(doc, "safety") : NULL;
	all = safety ? cJSON_AddArrayToObject(safety, "command_rules") : NULL;
	if (!all)
		goto nomem;
	for (int d = 0; d < D_N; d++) {
		cJSON *it;

		while ((it = cJSON_DetachItemFromArray(o.rules[d], 0)))
			cJSON_AddItemToArray(all, it);
	}
	*out = cJSON_Print(doc);
	if (!*out)
		goto nomem;
	if (o.justification) {
		static const char w[] =
			"justification: not kept (cordon's command rules "
			"give their own reasons)\n";

		*warnings = cordon__strdup(w);
		if (!*warnings)
			goto nomem;
	}
	cJSON_Delete(doc);
	for (int d = 0; d < D_N; d++)
		cJSON_Delete(o.rules[d]);
	return CORDON_OK;
nomem:
	oom(&r);
fail:
	cJSON_free(*out);
	*out = NULL;
	cJSON_Delete(doc);
	for (int d = 0; d < D_N; d++)
		cJSON_Delete(o.rules[d]);
	return r.err;
}
