/* schema — JSON Schema validation of tool arguments and cordon's own
 * per-argument limits; see the header.
 *
 * Validation runs in two passes. The first walks the whole schema, checks
 * every keyword's type and bounds and compiles every pattern, so a
 * malformed schema is reported the same way whatever the value is (a typo
 * in an unused branch is still an error, never a silent pass). The second
 * walks the value along the schema and stops at the first failure.
 *
 * Patterns run in PCRE2's interpreter under a match, depth and heap limit,
 * and the number of pattern matches in one validation is capped, so a
 * hostile schema with a hostile value costs bounded time. A match that
 * PCRE2 gives up on is a failure (fail closed), as is a string that is not
 * valid UTF-8 wherever its characters are counted or matched.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "schema.h"
#include "alloc.h"
#include "text.h"
#include "banned.h"

/* Bounds on one pattern match: a few milliseconds of interpreter work at
 * most (the catastrophic "(a+)+$" stops there). The depth limit is as high
 * as the match limit so that "^(a|b)*$" still matches a few thousand
 * characters; the heap limit bounds the memory that takes. */
#define SCHEMA_MATCH_LIMIT 100000u
#define SCHEMA_DEPTH_LIMIT 100000u
#define SCHEMA_HEAP_LIMIT_KIB 8192u
/* Longest pattern accepted, in bytes. */
#define SCHEMA_PATTERN_MAX 4096
/* Patterns in one schema, and pattern matches in one validation: the
 * second bounds the total regex work a large array of strings can cause. */
#define SCHEMA_MAX_PATTERNS 256
#define SCHEMA_MAX_MATCHES 1024
/* Members of one "properties", "required" or tuple "items", and JSON values
 * in one "enum" or "const": they bound the quadratic lookups. */
#define SCHEMA_MAX_MEMBERS 1024
#define SCHEMA_MAX_CONST_NODES 4096
/* Longest path in a message, longest piece of input quoted in one, and the
 * most enum values listed. */
#define SCHEMA_PATH_MAX 512
#define SCHEMA_QUOTE_MAX 64
#define SCHEMA_ENUM_LIST_MAX 8

/* ---- message text --------------------------------------------------- */

/* An append-only text in a caller's buffer (which may be NULL or of size
 * 0). When the text does not fit it ends in "..." at a character
 * boundary. */
struct mbuf {
	char *p;
	size_t cap;
	size_t len;
	bool full;
};

static void mb_init(struct mbuf *m, char *p, size_t cap)
{
	m->p = cap ? p : NULL;
	m->cap = m->p ? cap : 0;
	m->len = 0;
	m->full = false;
	if (m->p)
		m->p[0] = '\0';
}

static void mb_reset(struct mbuf *m)
{
	m->len = 0;
	m->full = false;
	if (m->p)
		m->p[0] = '\0';
}

static void mb_truncated(struct mbuf *m)
{
	size_t pos;

	m->full = true;
	if (m->cap < 4) {
		m->len = m->cap - 1;
		m->p[m->len] = '\0';
		return;
	}
	/* Cut before the character that straddles the end. */
	pos = m->cap - 4;
	while (pos > 0 && ((unsigned char)m->p[pos] & 0xC0) == 0x80)
		pos--;
	memcpy(m->p + pos, "...", 4);
	m->len = pos + 3;
}

__attribute__((format(printf, 2, 3))) static void
mb_printf(struct mbuf *m, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (!m->p || m->full)
		return;
	va_start(ap, fmt);
	r = vsnprintf(m->p + m->len, m->cap - m->len, fmt, ap);
	va_end(ap);
	if (r < 0) {
		m->p[m->len] = '\0';
		return;
	}
	if ((size_t)r >= m->cap - m->len)
		mb_truncated(m);
	else
		m->len += (size_t)r;
}

static void mb_putc(struct mbuf *m, char c)
{
	if (!m->p || m->full)
		return;
	if (m->len + 1 >= m->cap) {
		mb_truncated(m);
		return;
	}
	m->p[m->len++] = c;
	m->p[m->len] = '\0';
}

/* The number of code points in s[0..n); false when s is not valid UTF-8. */
static bool utf8_count(const char *s, size_t n, size_t *count)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k = 0;
	uint32_t cp;

	while (i < n) {
		size_t l = text_utf8_decode(u + i, n - i, &cp);

		if (l == 0)
			return false;
		i += l;
		k++;
	}
	*count = k;
	return true;
}

/* Appends s[0..n) between quote characters (none when quote is 0),
 * escaping the quote, backslash, control bytes and invalid UTF-8, and
 * cutting it after SCHEMA_QUOTE_MAX bytes with "...". */
static void put_quoted(struct mbuf *m, const char *s, size_t n, char quote)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	uint32_t cp;

	if (quote)
		mb_putc(m, quote);
	while (i < n) {
		size_t l;

		if (i >= SCHEMA_QUOTE_MAX) {
			mb_printf(m, "...");
			break;
		}
		l = text_utf8_decode(u + i, n - i, &cp);
		if (l == 0 || cp < 0x20 || cp == 0x7F) {
			mb_printf(m, "\\x%02X", u[i]);
			i++;
			continue;
		}
		if (cp == '\\' || (quote && cp == (unsigned char)quote))
			mb_putc(m, '\\');
		for (size_t j = 0; j < l; j++)
			mb_putc(m, (char)u[i + j]);
		i += l;
	}
	if (quote)
		mb_putc(m, quote);
}

static void put_str(struct mbuf *m, const char *s, char quote)
{
	put_quoted(m, s ? s : "", s ? strlen(s) : 0, quote);
}

/* A number with no fractional part (1.0 is one, 1.5 is not). Doubles of
 * magnitude 2^53 and above have none; below, the cast is exact. */
static bool dbl_is_integer(double d)
{
	if (!isfinite(d))
		return false;
	if (d >= 9007199254740992.0 || d <= -9007199254740992.0)
		return true;
	return d == (double)(int64_t)d;
}

/* The shortest text that reads back as d; whole numbers below 10^15
 * without an exponent. */
static void fmt_num(char *buf, size_t cap, double d)
{
	if (isnan(d)) {
		snprintf(buf, cap, "NaN");
		return;
	}
	if (isinf(d)) {
		snprintf(buf, cap, "%sInfinity", d < 0 ? "-" : "");
		return;
	}
	if (dbl_is_integer(d) && d < 1e15 && d > -1e15) {
		snprintf(buf, cap, "%.0f", d);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, cap, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

static void put_num(struct mbuf *m, double d)
{
	char buf[40];

	fmt_num(buf, sizeof(buf), d);
	mb_printf(m, "%s", buf);
}

/* The name of a JSON value's type, as a schema "type" would say it. */
static const char *json_type(const cJSON *v)
{
	switch (v ? v->type & 0xFF : cJSON_Invalid) {
	case cJSON_Object:
		return "object";
	case cJSON_Array:
		return "array";
	case cJSON_String:
		return "string";
	case cJSON_Number:
		return "number";
	case cJSON_True:
	case cJSON_False:
		return "boolean";
	case cJSON_NULL:
		return "null";
	default:
		return "unsupported value";
	}
}

/* The same with an article, for "is a string, not a number". */
static const char *json_type_a(const cJSON *v)
{
	switch (v ? v->type & 0xFF : cJSON_Invalid) {
	case cJSON_Object:
		return "an object";
	case cJSON_Array:
		return "an array";
	case cJSON_String:
		return "a string";
	case cJSON_Number:
		return "a number";
	case cJSON_True:
	case cJSON_False:
		return "a boolean";
	case cJSON_NULL:
		return "null";
	default:
		return "an unsupported value";
	}
}

/* A short rendering of a value: strings quoted, numbers and literals as
 * JSON writes them, containers by kind. */
static void put_value(struct mbuf *m, const cJSON *v)
{
	if (cJSON_IsString(v))
		put_str(m, v->valuestring, '"');
	else if (cJSON_IsNumber(v))
		put_num(m, v->valuedouble);
	else if (cJSON_IsTrue(v))
		mb_printf(m, "true");
	else if (cJSON_IsFalse(v))
		mb_printf(m, "false");
	else if (cJSON_IsNull(v))
		mb_printf(m, "null");
	else
		mb_printf(m, "%s", json_type_a(v));
}

/* ---- paths ---------------------------------------------------------- */

/* A location for messages, grown and shrunk as the walk goes: components
 * are added whole or not at all; one that does not fit adds "..." once. */
struct path {
	char buf[SCHEMA_PATH_MAX];
	size_t len;
};

static bool key_is_plain(const char *k)
{
	if (!k || !*k)
		return false;
	for (const char *p = k; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '$'))
			return false;
	}
	return true;
}

static void path_add(struct path *p, const char *comp, size_t n)
{
	if (p->len + n + 4 <= sizeof(p->buf)) {
		memcpy(p->buf + p->len, comp, n);
		p->len += n;
	} else if (p->len < 3 || memcmp(p->buf + p->len - 3, "...", 3) != 0) {
		memcpy(p->buf + p->len, "...", 3);
		p->len += 3;
	}
	p->buf[p->len] = '\0';
}

/* Adds a member name: ".name" when plain, otherwise ["name"] escaped (no
 * dot at the start of an empty path). Returns the length to restore. */
static size_t path_push_key(struct path *p, const char *key)
{
	char comp[SCHEMA_QUOTE_MAX * 4 + 16];
	struct mbuf m;
	size_t saved = p->len;

	mb_init(&m, comp, sizeof(comp));
	if (key_is_plain(key)) {
		if (p->len)
			mb_putc(&m, '.');
		put_str(&m, key, 0);
	} else {
		mb_putc(&m, '[');
		put_str(&m, key, '"');
		mb_putc(&m, ']');
	}
	path_add(p, comp, m.len);
	return saved;
}

static size_t path_push_index(struct path *p, size_t i)
{
	char comp[32];
	size_t saved = p->len;
	int r = snprintf(comp, sizeof(comp), "[%zu]", i);

	path_add(p, comp, r > 0 ? (size_t)r : 0);
	return saved;
}

static void path_pop(struct path *p, size_t saved)
{
	p->len = saved;
	p->buf[saved] = '\0';
}

/* ---- the validation context ----------------------------------------- */

struct pat {
	const cJSON *node; /* the "pattern" string in the schema */
	pcre2_code *code; /* owned */
};

struct sv {
	struct mbuf msg;
	struct path vpath; /* where in the value: "args.items[2]" */
	struct path spath; /* where in the schema: "properties.items.type" */
	struct pat pats[SCHEMA_MAX_PATTERNS];
	size_t npats;
	size_t nmatches;
	pcre2_compile_context *cctx; /* owned */
	pcre2_match_context *mctx; /* owned */
	pcre2_match_data *md; /* owned */
};

/* Starts a failure message "validation error: args.x: " for the value at
 * the current path; the caller appends the why. */
static enum schema_result fail_start(struct sv *c)
{
	mb_reset(&c->msg);
	mb_printf(&c->msg, "validation error: %s: ", c->vpath.buf);
	return SCHEMA_FAIL;
}

__attribute__((format(printf, 2, 3))) static enum schema_result
fail(struct sv *c, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fail_start(c);
	mb_printf(&c->msg, "%s", why);
	return SCHEMA_FAIL;
}

__attribute__((format(printf, 2, 3))) static enum schema_result
invalid(struct sv *c, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	mb_reset(&c->msg);
	if (c->spath.len)
		mb_printf(&c->msg, "validation error: invalid schema: %s: %s",
			  c->spath.buf, why);
	else
		mb_printf(&c->msg, "validation error: invalid schema: %s", why);
	return SCHEMA_INVALID;
}

static enum schema_result nomem(struct sv *c)
{
	mb_reset(&c->msg);
	mb_printf(&c->msg, "validation error: out of memory");
	return SCHEMA_NOMEM;
}

static void sv_init(struct sv *c, char *msg, size_t msgcap)
{
	memset(c, 0, sizeof(*c));
	mb_init(&c->msg, msg, msgcap);
	path_add(&c->vpath, "args", 4);
}

static bool sv_open(struct sv *c)
{
	c->cctx = pcre2_compile_context_create(NULL);
	c->mctx = pcre2_match_context_create(NULL);
	c->md = pcre2_match_data_create(1, NULL);
	if (!c->cctx || !c->mctx || !c->md)
		return false;
	pcre2_set_max_pattern_length(c->cctx, SCHEMA_PATTERN_MAX);
	pcre2_set_match_limit(c->mctx, SCHEMA_MATCH_LIMIT);
	pcre2_set_depth_limit(c->mctx, SCHEMA_DEPTH_LIMIT);
	pcre2_set_heap_limit(c->mctx, SCHEMA_HEAP_LIMIT_KIB);
	return true;
}

static void sv_close(struct sv *c)
{
	for (size_t i = 0; i < c->npats; i++)
		pcre2_code_free(c->pats[i].code);
	pcre2_match_data_free(c->md);
	pcre2_match_context_free(c->mctx);
	pcre2_compile_context_free(c->cctx);
}

/* The outcome of one bounded match. */
enum pmatch {
	PM_MATCH,
	PM_NOMATCH,
	PM_LIMIT, /* match, depth or heap limit */
	PM_BADUTF, /* the subject is not valid UTF-8 */
	PM_NOMEM,
	PM_ERROR,
};

static enum pmatch pattern_match(const pcre2_code *code, const char *s,
				 size_t n, pcre2_match_data *md,
				 pcre2_match_context *mctx)
{
	int rc = pcre2_match(code, (PCRE2_SPTR)s, n, 0, 0, md, mctx);

	if (rc >= 0)
		return PM_MATCH;
	switch (rc) {
	case PCRE2_ERROR_NOMATCH:
		return PM_NOMATCH;
	case PCRE2_ERROR_MATCHLIMIT:
	case PCRE2_ERROR_DEPTHLIMIT:
	case PCRE2_ERROR_HEAPLIMIT:
		return PM_LIMIT;
	case PCRE2_ERROR_NOMEMORY:
		return PM_NOMEM;
	default:
		if (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21)
			return PM_BADUTF;
		return PM_ERROR;
	}
}

/* ---- pass 1: the schema --------------------------------------------- */

static enum schema_result check_schema(struct sv *c, const cJSON *s,
				       unsigned depth);

static bool is_nonneg_int(const cJSON *v)
{
	return cJSON_IsNumber(v) && v->valuedouble >= 0 &&
	       dbl_is_integer(v->valuedouble);
}

static bool json_is_integer(const cJSON *v)
{
	return dbl_is_integer(v->valuedouble);
}

static const char *const type_names[] = {
	"object", "array", "string", "number", "integer", "boolean", "null",
};

static bool type_name_known(const char *s)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strcmp(s, type_names[i]) == 0)
			return true;
	return false;
}

static enum schema_result unknown_type(struct sv *c, const char *name)
{
	char q[SCHEMA_QUOTE_MAX * 4 + 16];
	struct mbuf m;

	mb_init(&m, q, sizeof(q));
	put_str(&m, name, '\'');
	return invalid(c, "unknown type name %s", q);
}

static enum schema_result check_type(struct sv *c, const cJSON *t)
{
	if (cJSON_IsString(t)) {
		if (!t->valuestring)
			return invalid(c, "a type name without text");
		if (!type_name_known(t->valuestring))
			return unknown_type(c, t->valuestring);
		return SCHEMA_OK;
	}
	if (!cJSON_IsArray(t))
		return invalid(c,
			       "expected a type name or a list of them, got %s",
			       json_type_a(t));
	if (!t->child)
		return invalid(c, "an empty list of types");
	for (const cJSON *e = t->child; e; e = e->next) {
		if (!cJSON_IsString(e) || !e->valuestring)
			return invalid(c, "expected a type name, got %s",
				       json_type_a(e));
		if (!type_name_known(e->valuestring))
			return unknown_type(c, e->valuestring);
	}
	return SCHEMA_OK;
}

/* Counts the JSON values in v (bounded in number and depth). */
static enum schema_result check_const(struct sv *c, const cJSON *v,
				      unsigned depth, size_t *count)
{
	if (depth > SCHEMA_MAX_DEPTH)
		return invalid(c, "nested deeper than %d levels",
			       SCHEMA_MAX_DEPTH);
	if (++*count > SCHEMA_MAX_CONST_NODES)
		return invalid(c, "more than %d JSON values (limit)",
			       SCHEMA_MAX_CONST_NODES);
	if (cJSON_IsNumber(v) && isnan(v->valuedouble))
		return invalid(c, "a number that is not a number");
	if (cJSON_IsString(v) && !v->valuestring)
		return invalid(c, "a string without text");
	if (!cJSON_IsObject(v) && !cJSON_IsArray(v) && !cJSON_IsString(v) &&
	    !cJSON_IsNumber(v) && !cJSON_IsBool(v) && !cJSON_IsNull(v))
		return invalid(c, "an unsupported JSON value");
	if (cJSON_IsObject(v) || cJSON_IsArray(v))
		for (const cJSON *e = v->child; e; e = e->next) {
			enum schema_result rc;

			if (cJSON_IsObject(v) && !e->string)
				return invalid(
					c, "an object member without a name");
			rc = check_const(c, e, depth + 1, count);
			if (rc != SCHEMA_OK)
				return rc;
		}
	return SCHEMA_OK;
}

static enum schema_result check_pattern(struct sv *c, const cJSON *p)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *code;
	size_t n;

	if (!cJSON_IsString(p) || !p->valuestring)
		return invalid(c, "expected a string, got %s", json_type_a(p));
	n = strlen(p->valuestring);
	if (n > SCHEMA_PATTERN_MAX)
		return invalid(c, "%zu bytes, longer than the limit of %d", n,
			       SCHEMA_PATTERN_MAX);
	if (c->npats >= SCHEMA_MAX_PATTERNS)
		return invalid(c, "more than %d patterns in one schema (limit)",
			       SCHEMA_MAX_PATTERNS);
	/* ECMA-262 semantics where PCRE2 can give them: "$" only at the very
	 * end (no match before a final newline), \uXXXX escapes. */
	code = pcre2_compile((PCRE2_SPTR)p->valuestring, n,
			     PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX |
				     PCRE2_NEVER_BACKSLASH_C,
			     &errcode, &erroff, c->cctx);
	if (!code) {
		PCRE2_UCHAR why[160];

		if (errcode == PCRE2_ERROR_NOMEMORY)
			return nomem(c);
		if (pcre2_get_error_message(errcode, why, sizeof(why)) < 0)
			snprintf((char *)why, sizeof(why), "error %d", errcode);
		return invalid(c, "does not compile: %s at offset %zu",
			       (const char *)why, (size_t)erroff);
	}
	c->pats[c->npats].node = p;
	c->pats[c->npats].code = code;
	c->npats++;
	return SCHEMA_OK;
}

/* Checks a subschema found under the keyword or member just pushed. */
static enum schema_result check_sub(struct sv *c, const cJSON *s,
				    unsigned depth)
{
	return check_schema(c, s, depth + 1);
}

static enum schema_result check_members(struct sv *c, const cJSON *k)
{
	size_t n = 0;

	for (const cJSON *e = k->child; e; e = e->next)
		if (++n > SCHEMA_MAX_MEMBERS)
			return invalid(c, "more than %d entries (limit)",
				       SCHEMA_MAX_MEMBERS);
	return SCHEMA_OK;
}

static enum schema_result check_keyword(struct sv *c, const cJSON *k,
					unsigned depth)
{
	const char *name = k->string;
	enum schema_result rc = SCHEMA_OK;
	size_t count = 0;

	if (strcmp(name, "type") == 0)
		return check_type(c, k);
	if (strcmp(name, "required") == 0) {
		if (!cJSON_IsArray(k))
			return invalid(c, "expected a list of names, got %s",
				       json_type_a(k));
		rc = check_members(c, k);
		for (const cJSON *e = k->child; rc == SCHEMA_OK && e;
		     e = e->next)
			if (!cJSON_IsString(e) || !e->valuestring)
				rc = invalid(c,
					     "expected a property name, got %s",
					     json_type_a(e));
		return rc;
	}
	if (strcmp(name, "properties") == 0) {
		if (!cJSON_IsObject(k))
			return invalid(c, "expected an object, got %s",
				       json_type_a(k));
		rc = check_members(c, k);
		for (const cJSON *e = k->child; rc == SCHEMA_OK && e;
		     e = e->next) {
			size_t saved;

			if (!e->string)
				return invalid(c, "a property without a name");
			saved = path_push_key(&c->spath, e->string);
			if (cJSON_GetObjectItemCaseSensitive(k, e->string) != e)
				rc = invalid(c,
					     "the property is defined twice");
			else
				rc = check_sub(c, e, depth);
			if (rc == SCHEMA_OK)
				path_pop(&c->spath, saved);
		}
		return rc;
	}
	if (strcmp(name, "additionalProperties") == 0)
		return check_sub(c, k, depth);
	if (strcmp(name, "items") == 0) {
		size_t i = 0;

		if (!cJSON_IsArray(k))
			return check_sub(c, k, depth);
		/* The tuple form of drafts 4 to 2019-09. */
		rc = check_members(c, k);
		for (const cJSON *e = k->child; rc == SCHEMA_OK && e;
		     e = e->next, i++) {
			size_t saved = path_push_index(&c->spath, i);

			rc = check_sub(c, e, depth);
			if (rc == SCHEMA_OK)
				path_pop(&c->spath, saved);
		}
		return rc;
	}
	if (strcmp(name, "enum") == 0) {
		if (!cJSON_IsArray(k))
			return invalid(c, "expected a list of values, got %s",
				       json_type_a(k));
		for (const cJSON *e = k->child; rc == SCHEMA_OK && e;
		     e = e->next)
			rc = check_const(c, e, 0, &count);
		return rc;
	}
	if (strcmp(name, "const") == 0)
		return check_const(c, k, 0, &count);
	if (strcmp(name, "minimum") == 0 || strcmp(name, "maximum") == 0) {
		if (!cJSON_IsNumber(k) || isnan(k->valuedouble))
			return invalid(c, "expected a number, got %s",
				       json_type_a(k));
		return SCHEMA_OK;
	}
	if (strcmp(name, "exclusiveMinimum") == 0 ||
	    strcmp(name, "exclusiveMaximum") == 0) {
		/* A number (draft 6 on) or a boolean modifying "minimum" /
		 * "maximum" (draft 4). */
		if (cJSON_IsBool(k))
			return SCHEMA_OK;
		if (!cJSON_IsNumber(k) || isnan(k->valuedouble))
			return invalid(c,
				       "expected a number or a boolean, got %s",
				       json_type_a(k));
		return SCHEMA_OK;
	}
	if (strcmp(name, "minLength") == 0 || strcmp(name, "maxLength") == 0 ||
	    strcmp(name, "minItems") == 0 || strcmp(name, "maxItems") == 0) {
		if (!is_nonneg_int(k))
			return invalid(
				c, "expected a non-negative integer, got %s",
				cJSON_IsNumber(k) ? "another number" :
						    json_type_a(k));
		return SCHEMA_OK;
	}
	if (strcmp(name, "pattern") == 0)
		return check_pattern(c, k);
	return SCHEMA_OK;
}

static const char *const keywords[] = {
	"type",
	"required",
	"properties",
	"additionalProperties",
	"items",
	"enum",
	"const",
	"minimum",
	"maximum",
	"exclusiveMinimum",
	"exclusiveMaximum",
	"minLength",
	"maxLength",
	"minItems",
	"maxItems",
	"pattern",
};

static bool is_keyword(const char *name)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(name, keywords[i]) == 0)
			return true;
	return false;
}

/* Checks one schema (an object or a boolean) and everything under it. A
 * keyword given twice is an error: which of the two a validator honours
 * differs between implementations. */
static enum schema_result check_schema(struct sv *c, const cJSON *s,
				       unsigned depth)
{
	if (depth > SCHEMA_MAX_DEPTH)
		return invalid(c, "nested deeper than %d levels",
			       SCHEMA_MAX_DEPTH);
	if (cJSON_IsBool(s))
		return SCHEMA_OK;
	if (!cJSON_IsObject(s))
		return invalid(
			c, "expected a schema (an object or a boolean), got %s",
			json_type_a(s));
	for (const cJSON *k = s->child; k; k = k->next) {
		enum schema_result rc;
		size_t saved;

		if (!k->string)
			return invalid(c, "a keyword without a name");
		if (!is_keyword(k->string))
			continue;
		saved = path_push_key(&c->spath, k->string);
		if (cJSON_GetObjectItemCaseSensitive(s, k->string) != k)
			rc = invalid(c, "the keyword is given twice");
		else
			rc = check_keyword(c, k, depth);
		if (rc != SCHEMA_OK)
			return rc;
		path_pop(&c->spath, saved);
	}
	return SCHEMA_OK;
}

/* ---- pass 2: the value ---------------------------------------------- */

static enum schema_result validate(struct sv *c, const cJSON *s, const cJSON *v,
				   unsigned depth);

/* Deep equality of JSON values; objects regardless of member order,
 * numbers by value (1 equals 1.0). a is the schema's side, whose depth
 * pass 1 bounded. */
static bool json_equal(const cJSON *a, const cJSON *b, unsigned depth)
{
	const cJSON *x, *y;
	size_t na = 0, nb = 0;

	if (depth > SCHEMA_MAX_DEPTH || !a || !b)
		return false;
	if (cJSON_IsNumber(a) || cJSON_IsNumber(b))
		return cJSON_IsNumber(a) && cJSON_IsNumber(b) &&
		       a->valuedouble == b->valuedouble;
	if ((a->type & 0xFF) != (b->type & 0xFF))
		return false;
	if (cJSON_IsString(a))
		return a->valuestring && b->valuestring &&
		       strcmp(a->valuestring, b->valuestring) == 0;
	if (cJSON_IsArray(a)) {
		for (x = a->child, y = b->child; x && y;
		     x = x->next, y = y->next)
			if (!json_equal(x, y, depth + 1))
				return false;
		return !x && !y;
	}
	if (cJSON_IsObject(a)) {
		for (x = a->child; x; x = x->next)
			na++;
		for (y = b->child; y; y = y->next)
			nb++;
		if (na != nb)
			return false;
		for (x = a->child; x; x = x->next) {
			if (!x->string)
				return false;
			y = cJSON_GetObjectItemCaseSensitive(b, x->string);
			if (!json_equal(x, y, depth + 1))
				return false;
		}
		/* With duplicate names, equal counts alone do not prove b has
		 * no member a lacks. */
		for (y = b->child; y; y = y->next)
			if (!y->string ||
			    !cJSON_GetObjectItemCaseSensitive(a, y->string))
				return false;
		return true;
	}
	return cJSON_IsBool(a) || cJSON_IsNull(a);
}

static bool type_matches(const char *name, const cJSON *v)
{
	if (strcmp(name, "integer") == 0)
		return cJSON_IsNumber(v) && json_is_integer(v);
	return strcmp(name, json_type(v)) == 0;
}

static enum schema_result check_value_type(struct sv *c, const cJSON *t,
					   const cJSON *v)
{
	const cJSON *e;
	size_t n = 0, i = 0;

	if (cJSON_IsString(t)) {
		if (type_matches(t->valuestring, v))
			return SCHEMA_OK;
		return fail(c, "expected %s, got %s", t->valuestring,
			    json_type(v));
	}
	for (e = t->child; e; e = e->next, n++)
		if (type_matches(e->valuestring, v))
			return SCHEMA_OK;
	fail_start(c);
	mb_printf(&c->msg, "expected ");
	for (e = t->child; e; e = e->next, i++)
		mb_printf(&c->msg, "%s%s",
			  i == 0     ? "" :
			  i + 1 == n ? " or " :
				       ", ",
			  e->valuestring);
	mb_printf(&c->msg, ", got %s", json_type(v));
	return SCHEMA_FAIL;
}

static enum schema_result check_enum(struct sv *c, const cJSON *en,
				     const cJSON *v)
{
	size_t i = 0;

	for (const cJSON *e = en->child; e; e = e->next)
		if (json_equal(e, v, 0))
			return SCHEMA_OK;
	fail_start(c);
	put_value(&c->msg, v);
	mb_printf(&c->msg, " is not one of the allowed values");
	for (const cJSON *e = en->child; e; e = e->next, i++) {
		if (i == SCHEMA_ENUM_LIST_MAX) {
			mb_printf(&c->msg, ", ...");
			break;
		}
		mb_printf(&c->msg, i ? ", " : ": ");
		put_value(&c->msg, e);
	}
	return SCHEMA_FAIL;
}

static enum schema_result number_fail(struct sv *c, double v, const char *what,
				      double bound)
{
	char a[40], b[40];

	fmt_num(a, sizeof(a), v);
	fmt_num(b, sizeof(b), bound);
	return fail(c, "%s %s %s", a, what, b);
}

/* minimum, maximum and the exclusive bounds in both of their forms. The
 * comparisons are written so that a NaN fails them all. */
static enum schema_result check_number(struct sv *c, const cJSON *s, double v)
{
	const cJSON *min = cJSON_GetObjectItemCaseSensitive(s, "minimum");
	const cJSON *max = cJSON_GetObjectItemCaseSensitive(s, "maximum");
	const cJSON *xmin =
		cJSON_GetObjectItemCaseSensitive(s, "exclusiveMinimum");
	const cJSON *xmax =
		cJSON_GetObjectItemCaseSensitive(s, "exclusiveMaximum");

	if (cJSON_IsNumber(min)) {
		if (cJSON_IsTrue(xmin)) {
			if (!(v > min->valuedouble))
				return number_fail(
					c, v,
					"is not greater than the exclusive minimum",
					min->valuedouble);
		} else if (!(v >= min->valuedouble)) {
			return number_fail(c, v, "is less than the minimum",
					   min->valuedouble);
		}
	}
	if (cJSON_IsNumber(max)) {
		if (cJSON_IsTrue(xmax)) {
			if (!(v < max->valuedouble))
				return number_fail(
					c, v,
					"is not less than the exclusive maximum",
					max->valuedouble);
		} else if (!(v <= max->valuedouble)) {
			return number_fail(c, v, "is greater than the maximum",
					   max->valuedouble);
		}
	}
	if (cJSON_IsNumber(xmin) && !(v > xmin->valuedouble))
		return number_fail(c, v,
				   "is not greater than the exclusive minimum",
				   xmin->valuedouble);
	if (cJSON_IsNumber(xmax) && !(v < xmax->valuedouble))
		return number_fail(c, v,
				   "is not less than the exclusive maximum",
				   xmax->valuedouble);
	return SCHEMA_OK;
}

static const pcre2_code *find_pattern(const struct sv *c, const cJSON *p)
{
	for (size_t i = 0; i < c->npats; i++)
		if (c->pats[i].node == p)
			return c->pats[i].code;
	return NULL;
}

static enum schema_result check_string(struct sv *c, const cJSON *s,
				       const char *str)
{
	const cJSON *minl = cJSON_GetObjectItemCaseSensitive(s, "minLength");
	const cJSON *maxl = cJSON_GetObjectItemCaseSensitive(s, "maxLength");
	const cJSON *pat = cJSON_GetObjectItemCaseSensitive(s, "pattern");
	size_t n = strlen(str), chars;
	const pcre2_code *code;
	char bound[40];

	if (minl || maxl) {
		if (!utf8_count(str, n, &chars))
			return fail(c, "the string is not valid UTF-8");
		if (cJSON_IsNumber(minl) && (double)chars < minl->valuedouble) {
			fmt_num(bound, sizeof(bound), minl->valuedouble);
			return fail(
				c,
				"is %zu characters long, shorter than the minimum length %s",
				chars, bound);
		}
		if (cJSON_IsNumber(maxl) && (double)chars > maxl->valuedouble) {
			fmt_num(bound, sizeof(bound), maxl->valuedouble);
			return fail(
				c,
				"is %zu characters long, longer than the maximum length %s",
				chars, bound);
		}
	}
	if (!pat)
		return SCHEMA_OK;
	code = find_pattern(c, pat);
	if (!code)
		return invalid(c, "pattern: not compiled");
	if (++c->nmatches > SCHEMA_MAX_MATCHES)
		return fail(c,
			    "more than %d pattern checks in one call (limit)",
			    SCHEMA_MAX_MATCHES);
	switch (pattern_match(code, str, n, c->md, c->mctx)) {
	case PM_MATCH:
		return SCHEMA_OK;
	case PM_NOMATCH:
		fail_start(c);
		put_str(&c->msg, str, '"');
		mb_printf(&c->msg, " does not match the pattern ");
		put_str(&c->msg, pat->valuestring, '"');
		return SCHEMA_FAIL;
	case PM_LIMIT:
		fail_start(c);
		mb_printf(&c->msg, "matching the pattern ");
		put_str(&c->msg, pat->valuestring, '"');
		mb_printf(&c->msg, " hit the match limit (failing closed)");
		return SCHEMA_FAIL;
	case PM_BADUTF:
		return fail(c, "the string is not valid UTF-8");
	case PM_NOMEM:
		return nomem(c);
	case PM_ERROR:
	default:
		fail_start(c);
		mb_printf(&c->msg, "the pattern ");
		put_str(&c->msg, pat->valuestring, '"');
		mb_printf(&c->msg, " failed to run (failing closed)");
		return SCHEMA_FAIL;
	}
}

static enum schema_result check_array(struct sv *c, const cJSON *s,
				      const cJSON *v, unsigned depth)
{
	const cJSON *mini = cJSON_GetObjectItemCaseSensitive(s, "minItems");
	const cJSON *maxi = cJSON_GetObjectItemCaseSensitive(s, "maxItems");
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(s, "items");
	const cJSON *tuple = cJSON_IsArray(items) ? items->child : NULL;
	size_t n = 0, i = 0;
	char bound[40];

	for (const cJSON *e = v->child; e; e = e->next)
		n++;
	if (cJSON_IsNumber(mini) && (double)n < mini->valuedouble) {
		fmt_num(bound, sizeof(bound), mini->valuedouble);
		return fail(c, "has %zu items, fewer than the minimum %s", n,
			    bound);
	}
	if (cJSON_IsNumber(maxi) && (double)n > maxi->valuedouble) {
		fmt_num(bound, sizeof(bound), maxi->valuedouble);
		return fail(c, "has %zu items, more than the maximum %s", n,
			    bound);
	}
	if (!items)
		return SCHEMA_OK;
	for (const cJSON *e = v->child; e; e = e->next, i++) {
		const cJSON *sub = items;
		enum schema_result rc;
		size_t saved;

		if (cJSON_IsArray(items)) {
			/* Items past the tuple are not constrained. */
			if (!tuple)
				break;
			sub = tuple;
			tuple = tuple->next;
		}
		saved = path_push_index(&c->vpath, i);
		rc = validate(c, sub, e, depth + 1);
		if (rc != SCHEMA_OK)
			return rc;
		path_pop(&c->vpath, saved);
	}
	return SCHEMA_OK;
}

static enum schema_result check_object(struct sv *c, const cJSON *s,
				       const cJSON *v, unsigned depth)
{
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required");
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
	const cJSON *addl =
		cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");

	if (req)
		for (const cJSON *r = req->child; r; r = r->next) {
			if (cJSON_GetObjectItemCaseSensitive(v, r->valuestring))
				continue;
			fail_start(c);
			mb_printf(&c->msg, "missing required property ");
			put_str(&c->msg, r->valuestring, '\'');
			return SCHEMA_FAIL;
		}
	/* Every member is checked, duplicates included, so a name given
	 * twice cannot hide a second value behind a valid first one. */
	for (const cJSON *m = v->child; m; m = m->next) {
		const cJSON *sub = NULL;
		enum schema_result rc;
		size_t saved;

		if (!m->string)
			return fail(c, "an object member without a name");
		if (props)
			sub = cJSON_GetObjectItemCaseSensitive(props,
							       m->string);
		if (!sub)
			sub = addl;
		if (!sub)
			continue;
		saved = path_push_key(&c->vpath, m->string);
		if (sub == addl && cJSON_IsFalse(addl))
			rc = fail(c, "additional property not allowed");
		else
			rc = validate(c, sub, m, depth + 1);
		if (rc != SCHEMA_OK)
			return rc;
		path_pop(&c->vpath, saved);
	}
	return SCHEMA_OK;
}

static enum schema_result validate(struct sv *c, const cJSON *s, const cJSON *v,
				   unsigned depth)
{
	const cJSON *k;
	enum schema_result rc;

	if (depth > SCHEMA_MAX_DEPTH)
		return fail(c, "nested deeper than %d levels",
			    SCHEMA_MAX_DEPTH);
	if (cJSON_IsTrue(s))
		return SCHEMA_OK;
	if (cJSON_IsFalse(s))
		return fail(c, "no value is allowed here");
	if (!cJSON_IsObject(s))
		return invalid(c, "expected a schema, got %s", json_type_a(s));
	if (!cJSON_IsObject(v) && !cJSON_IsArray(v) && !cJSON_IsString(v) &&
	    !cJSON_IsNumber(v) && !cJSON_IsBool(v) && !cJSON_IsNull(v))
		return fail(c, "an unsupported JSON value");

	k = cJSON_GetObjectItemCaseSensitive(s, "type");
	if (k && (rc = check_value_type(c, k, v)) != SCHEMA_OK)
		return rc;
	k = cJSON_GetObjectItemCaseSensitive(s, "enum");
	if (k && (rc = check_enum(c, k, v)) != SCHEMA_OK)
		return rc;
	k = cJSON_GetObjectItemCaseSensitive(s, "const");
	if (k && !json_equal(k, v, 0)) {
		fail_start(c);
		mb_printf(&c->msg, "must equal ");
		put_value(&c->msg, k);
		mb_printf(&c->msg, ", got ");
		put_value(&c->msg, v);
		return SCHEMA_FAIL;
	}
	if (cJSON_IsNumber(v))
		return check_number(c, s, v->valuedouble);
	if (cJSON_IsString(v))
		return v->valuestring ? check_string(c, s, v->valuestring) :
					fail(c, "a string without text");
	if (cJSON_IsArray(v))
		return check_array(c, s, v, depth);
	if (cJSON_IsObject(v))
		return check_object(c, s, v, depth);
	return SCHEMA_OK;
}

enum schema_result schema_validate(const cJSON *schema, const cJSON *value,
				   char *msg, size_t msgcap)
{
	struct sv *c = cordon__malloc(sizeof(*c));
	enum schema_result rc;

	if (!c) {
		struct mbuf m;

		mb_init(&m, msg, msgcap);
		mb_printf(&m, "validation error: out of memory");
		return SCHEMA_NOMEM;
	}
	sv_init(c, msg, msgcap);
	if (!sv_open(c))
		rc = nomem(c);
	else if (!schema)
		rc = invalid(c, "no schema");
	else
		rc = check_schema(c, schema, 0);
	if (rc == SCHEMA_OK) {
		if (!value)
			rc = fail(c, "no value");
		else
			rc = validate(c, schema, value, 0);
	}
	if (rc == SCHEMA_OK)
		mb_reset(&c->msg);
	sv_close(c);
	free(c);
	return rc;
}

enum schema_result schema_validate_text(const char *schema_json,
					const cJSON *value, char *msg,
					size_t msgcap)
{
	const char *end = NULL;
	cJSON *schema;
	enum schema_result rc;
	struct mbuf m;

	mb_init(&m, msg, msgcap);
	if (!schema_json) {
		mb_printf(&m, "validation error: invalid schema: no schema");
		return SCHEMA_INVALID;
	}
	schema = cJSON_ParseWithOpts(schema_json, &end, true);
	if (!schema) {
		/* cJSON does not tell a syntax error from a failed
		 * allocation; either way the schema cannot be used. */
		mb_printf(
			&m,
			"validation error: invalid schema: not valid JSON (at byte %zu)",
			end && end >= schema_json ?
				(size_t)(end - schema_json) :
				(size_t)0);
		return SCHEMA_INVALID;
	}
	rc = schema_validate(schema, value, msg, msgcap);
	cJSON_Delete(schema);
	return rc;
}

/* ---- argument limits ------------------------------------------------ */

/* "blocked: argument 'ARG' of tool 'TOOL' " */
static void lim_start(struct mbuf *m, const struct config_arg_limit *l)
{
	mb_reset(m);
	mb_printf(m, "blocked: argument ");
	put_str(m, l->arg, '\'');
	mb_printf(m, " of tool ");
	put_str(m, l->tool, '\'');
	mb_putc(m, ' ');
}

/* " (arg_limits.TOOL.ARG.RULE)"; always false, for returning. */
static bool lim_end(struct mbuf *m, const struct config_arg_limit *l,
		    const char *rule)
{
	mb_printf(m, " (arg_limits.");
	put_str(m, l->tool, 0);
	mb_putc(m, '.');
	put_str(m, l->arg, 0);
	mb_printf(m, ".%s)", rule);
	return false;
}

static bool lim_wrong_type(struct mbuf *m, const struct config_arg_limit *l,
			   const cJSON *a, const char *want, const char *rule)
{
	lim_start(m, l);
	mb_printf(m, "is %s, not %s", json_type_a(a), want);
	return lim_end(m, l, rule);
}

static bool lim_numbers(struct mbuf *m, const struct config_arg_limit *l,
			const cJSON *a)
{
	double v;

	if (!cJSON_IsNumber(a))
		return lim_wrong_type(m, l, a, "a number",
				      l->has_min_value ? "min_value" :
							 "max_value");
	v = a->valuedouble;
	/* Written so that a NaN on either side fails. */
	if (l->has_min_value && !(v >= l->min_value)) {
		lim_start(m, l);
		mb_printf(m, "is ");
		put_num(m, v);
		mb_printf(m, ", under the minimum of ");
		put_num(m, l->min_value);
		return lim_end(m, l, "min_value");
	}
	if (l->has_max_value && !(v <= l->max_value)) {
		lim_start(m, l);
		mb_printf(m, "is ");
		put_num(m, v);
		mb_printf(m, ", over the maximum of ");
		put_num(m, l->max_value);
		return lim_end(m, l, "max_value");
	}
	return true;
}

static bool lim_choices(struct mbuf *m, const struct config_arg_limit *l,
			const char *s)
{
	for (size_t i = 0; i < l->choices.n; i++)
		if (l->choices.v && l->choices.v[i] &&
		    strcmp(l->choices.v[i], s) == 0)
			return true;
	lim_start(m, l);
	mb_printf(m, "is ");
	put_str(m, s, '\'');
	if (l->choices.n == 0 || !l->choices.v) {
		mb_printf(m, ", and no choice is allowed");
		return lim_end(m, l, "choices");
	}
	mb_printf(m, ", not one of ");
	for (size_t i = 0; i < l->choices.n; i++) {
		if (i == SCHEMA_ENUM_LIST_MAX) {
			mb_printf(m, ", ...");
			break;
		}
		if (i)
			mb_printf(m, ", ");
		put_str(m, l->choices.v[i], '\'');
	}
	return lim_end(m, l, "choices");
}

/* The whole string against the limit's pattern, compiled for this call. */
static bool lim_pattern(struct mbuf *m, const struct config_arg_limit *l,
			const char *s)
{
	pcre2_match_context *mctx = NULL;
	pcre2_match_data *md = NULL;
	pcre2_code *code = NULL;
	enum pmatch pm = PM_NOMEM;
	size_t plen = strlen(l->pattern);
	PCRE2_SIZE erroff = 0;
	int errcode = 0;

	if (plen > SCHEMA_PATTERN_MAX) {
		lim_start(m, l);
		mb_printf(
			m,
			"cannot be checked: the pattern is %zu bytes, longer than the limit of %d",
			plen, SCHEMA_PATTERN_MAX);
		return lim_end(m, l, "pattern");
	}
	code = pcre2_compile((PCRE2_SPTR)l->pattern, plen,
			     PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED |
				     PCRE2_DOLLAR_ENDONLY |
				     PCRE2_NEVER_BACKSLASH_C,
			     &errcode, &erroff, NULL);
	if (!code && errcode != PCRE2_ERROR_NOMEMORY) {
		PCRE2_UCHAR why[160];

		if (pcre2_get_error_message(errcode, why, sizeof(why)) < 0)
			snprintf((char *)why, sizeof(why), "error %d", errcode);
		lim_start(m, l);
		mb_printf(
			m,
			"cannot be checked: the pattern does not compile (%s at offset %zu)",
			(const char *)why, (size_t)erroff);
		return lim_end(m, l, "pattern");
	}
	if (code) {
		mctx = pcre2_match_context_create(NULL);
		md = pcre2_match_data_create(1, NULL);
	}
	if (mctx && md) {
		pcre2_set_match_limit(mctx, SCHEMA_MATCH_LIMIT);
		pcre2_set_depth_limit(mctx, SCHEMA_DEPTH_LIMIT);
		pcre2_set_heap_limit(mctx, SCHEMA_HEAP_LIMIT_KIB);
		pm = pattern_match(code, s, strlen(s), md, mctx);
	}
	pcre2_match_data_free(md);
	pcre2_match_context_free(mctx);
	pcre2_code_free(code);

	if (pm == PM_MATCH)
		return true;
	lim_start(m, l);
	switch (pm) {
	case PM_NOMATCH:
		mb_printf(m, "does not match the pattern ");
		put_str(m, l->pattern, '\'');
		break;
	case PM_LIMIT:
		mb_printf(m, "cannot be checked: matching the pattern ");
		put_str(m, l->pattern, '\'');
		mb_printf(m, " hit the match limit");
		break;
	case PM_BADUTF:
		mb_printf(m, "is not valid UTF-8");
		break;
	case PM_NOMEM:
		mb_printf(m, "cannot be checked: out of memory");
		break;
	case PM_MATCH:
	case PM_ERROR:
	default:
		mb_printf(m, "cannot be checked: the pattern failed to run");
		break;
	}
	return lim_end(m, l, "pattern");
}

static bool lim_strings(struct mbuf *m, const struct config_arg_limit *l,
			const cJSON *a)
{
	const char *s;
	size_t n;

	if (!cJSON_IsString(a) || !a->valuestring)
		return lim_wrong_type(m, l, a, "a string",
				      l->has_max_length ? "max_length" :
				      l->pattern	? "pattern" :
							  "choices");
	s = a->valuestring;
	n = strlen(s);
	if (l->has_max_length && n > l->max_length) {
		lim_start(m, l);
		mb_printf(m, "is %zu bytes, over the limit of %zu", n,
			  l->max_length);
		return lim_end(m, l, "max_length");
	}
	if ((l->has_choices || l->choices.n) && !lim_choices(m, l, s))
		return false;
	if (l->pattern && !lim_pattern(m, l, s))
		return false;
	return true;
}

/* Applies one limit to one occurrence of its argument. */
static bool lim_one(struct mbuf *m, const struct config_arg_limit *l,
		    const cJSON *a)
{
	if ((l->has_min_value || l->has_max_value) && !lim_numbers(m, l, a))
		return false;
	if ((l->has_max_length || l->pattern || l->has_choices ||
	     l->choices.n) &&
	    !lim_strings(m, l, a))
		return false;
	return true;
}

bool schema_arglimit_check(const struct config_arg_limit *lims, size_t n,
		    const char *tool, const cJSON *args, char *msg,
		    size_t msgcap)
{
	struct mbuf m;

	mb_init(&m, msg, msgcap);
	if (n && (!lims || !tool)) {
		mb_printf(
			&m,
			"blocked: a tool call without a tool name cannot be checked (arg_limits)");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const struct config_arg_limit *l = &lims[i];

		if (!l->tool || strcmp(l->tool, tool) != 0)
			continue;
		if (!args)
			continue;
		if (!cJSON_IsObject(args)) {
			mb_printf(&m, "blocked: the arguments of tool ");
			put_str(&m, tool, '\'');
			mb_printf(&m, " are %s, not an object (arg_limits.",
				  json_type_a(args));
			put_str(&m, tool, 0);
			mb_printf(&m, ")");
			return false;
		}
		if (!l->arg) {
			mb_printf(&m, "blocked: a limit for tool ");
			put_str(&m, tool, '\'');
			mb_printf(&m, " names no argument (arg_limits.");
			put_str(&m, tool, 0);
			mb_printf(&m, ")");
			return false;
		}
		/* Every occurrence: with a name given twice, the tool may
		 * read either. */
		for (const cJSON *a = args->child; a; a = a->next)
			if (a->string && strcmp(a->string, l->arg) == 0 &&
			    !lim_one(&m, l, a))
				return false;
	}
	return true;
}
