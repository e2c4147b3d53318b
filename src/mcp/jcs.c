/* jcs — RFC 8785 JSON Canonicalization Scheme.
 *
 * jcs_canonicalize checks the text strictly first (RFC 8259 grammar, UTF-8,
 * escapes, nesting), because cJSON is lenient where JCS must not be: it
 * takes "01" and "1." as numbers, raw control characters and invalid UTF-8
 * in strings, and keeps duplicate members. Then cJSON builds the tree and
 * jcs_from_cjson writes the canonical form, checking what a tree can still
 * hold (duplicates, invalid UTF-8, non-finite numbers, depth).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jcs.h"
#include "sha256.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

#define JCS_MAX_DEPTH 128

/* ---- UTF-8 -------------------------------------------------------------- */

/* Compares two valid UTF-8 strings as sequences of UTF-16 code units (RFC
 * 8785 §3.2.3). UTF-8 byte order is code point order, which is UTF-16 order
 * except between U+E000..U+FFFF and the non-BMP planes, whose surrogates
 * (D800..DFFF) sort below U+E000: so at the first differing code point a
 * non-BMP one is compared by its high surrogate. */
static int utf16_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;
	uint32_t ca, cb;

	for (;;) {
		size_t ka, kb;

		if (*x == 0 || *y == 0)
			return (*x != 0) - (*y != 0);
		ka = text_utf8_decode(x, strnlen((const char *)x, 4), &ca);
		kb = text_utf8_decode(y, strnlen((const char *)y, 4), &cb);
		if (ka == 0 || kb == 0)
			return strcmp((const char *)x, (const char *)y);
		if (ca != cb)
			break;
		x += ka;
		y += kb;
	}
	if (ca >= 0x10000 && cb < 0x10000)
		ca = 0xd800 + ((ca - 0x10000) >> 10);
	else if (cb >= 0x10000 && ca < 0x10000)
		cb = 0xd800 + ((cb - 0x10000) >> 10);
	return ca < cb ? -1 : 1;
}

/* ---- strict pre-scan ---------------------------------------------------- */

struct scan {
	const char *s;
	size_t len;
	size_t pos;
	struct cordon_diag *diag;
};

static void scan_ws(struct scan *sc)
{
	while (sc->pos < sc->len) {
		char c = sc->s[sc->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		sc->pos++;
	}
}

/* Four hex digits at s[pos..]; -1 when they are not there. */
static long hex4(const struct scan *sc, size_t pos)
{
	long v = 0;

	if (pos > sc->len || sc->len - pos < 4)
		return -1;
	for (size_t i = 0; i < 4; i++) {
		int h = text_hex_value((unsigned char)sc->s[pos + i]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

static enum cordon_err scan_string(struct scan *sc)
{
	const unsigned char *u = (const unsigned char *)sc->s;

	sc->pos++; /* the opening quote */
	while (sc->pos < sc->len) {
		unsigned char c = u[sc->pos];
		uint32_t cp;
		long v, w;
		size_t k;

		if (c == '"') {
			sc->pos++;
			return CORDON_OK;
		}
		if (c < 0x20)
			return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
				       "control character 0x%02x in a string",
				       c);
		if (c >= 0x80) {
			k = text_utf8_decode(u + sc->pos, sc->len - sc->pos,
					     &cp);
			if (k == 0)
				return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
					       "invalid UTF-8 in a string");
			sc->pos += k;
			continue;
		}
		if (c != '\\') {
			sc->pos++;
			continue;
		}
		if (sc->pos + 1 >= sc->len)
			break;
		c = u[sc->pos + 1];
		if (strchr("\"\\/bfnrt", c) && c != 0) {
			sc->pos += 2;
			continue;
		}
		if (c != 'u')
			return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
				       "invalid escape in a string");
		v = hex4(sc, sc->pos + 2);
		if (v < 0)
			return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
				       "invalid \\u escape in a string");
		if (v == 0)
			/* cJSON ends its strings at the NUL it decodes: what
			 * follows would vanish from the canonical form. */
			return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
				       "\\u0000 in a string is not supported");
		if (v >= 0xdc00 && v <= 0xdfff)
			return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
				       "lone low surrogate \\u%04lx", v);
		if (v >= 0xd800 && v <= 0xdbff) {
			w = -1;
			if (sc->pos + 12 <= sc->len && u[sc->pos + 6] == '\\' &&
			    u[sc->pos + 7] == 'u')
				w = hex4(sc, sc->pos + 8);
			if (w < 0xdc00 || w > 0xdfff)
				return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
					       "lone high surrogate \\u%04lx",
					       v);
			sc->pos += 12;
			continue;
		}
		sc->pos += 6;
	}
	return diag_at(sc->diag, CORDON_E_JSON, sc->len, "unterminated string");
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* RFC 8259 number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static enum cordon_err scan_number(struct scan *sc)
{
	const char *s = sc->s;
	size_t start = sc->pos, p = sc->pos, n = sc->len;

	if (p < n && s[p] == '-')
		p++;
	if (p < n && s[p] == '0') {
		p++;
	} else if (p < n && is_digit(s[p])) {
		while (p < n && is_digit(s[p]))
			p++;
	} else {
		return diag_at(sc->diag, CORDON_E_JSON, start,
			       "invalid number");
	}
	if (p < n && s[p] == '.') {
		p++;
		if (p >= n || !is_digit(s[p]))
			return diag_at(sc->diag, CORDON_E_JSON, start,
				       "invalid number");
		while (p < n && is_digit(s[p]))
			p++;
	}
	if (p < n && (s[p] == 'e' || s[p] == 'E')) {
		p++;
		if (p < n && (s[p] == '+' || s[p] == '-'))
			p++;
		if (p >= n || !is_digit(s[p]))
			return diag_at(sc->diag, CORDON_E_JSON, start,
				       "invalid number");
		while (p < n && is_digit(s[p]))
			p++;
	}
	sc->pos = p;
	return CORDON_OK;
}

static enum cordon_err scan_value(struct scan *sc, unsigned depth);

static enum cordon_err scan_container(struct scan *sc, unsigned depth)
{
	char close = sc->s[sc->pos] == '{' ? '}' : ']';
	enum cordon_err rc;

	if (depth + 1 > JCS_MAX_DEPTH)
		return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
			       "nesting deeper than %d", JCS_MAX_DEPTH);
	sc->pos++;
	scan_ws(sc);
	if (sc->pos < sc->len && sc->s[sc->pos] == close) {
		sc->pos++;
		return CORDON_OK;
	}
	for (;;) {
		if (close == '}') {
			scan_ws(sc);
			if (sc->pos >= sc->len || sc->s[sc->pos] != '"')
				return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
					       "expected a member name");
			rc = scan_string(sc);
			if (rc)
				return rc;
			scan_ws(sc);
			if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
				return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
					       "expected ':'");
			sc->pos++;
		}
		rc = scan_value(sc, depth + 1);
		if (rc)
			return rc;
		scan_ws(sc);
		if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
			sc->pos++;
			continue;
		}
		if (sc->pos < sc->len && sc->s[sc->pos] == close) {
			sc->pos++;
			return CORDON_OK;
		}
		return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
			       "expected ',' or '%c'", close);
	}
}

static enum cordon_err scan_value(struct scan *sc, unsigned depth)
{
	static const char *const lits[] = { "true", "false", "null" };
	char c;

	scan_ws(sc);
	if (sc->pos >= sc->len)
		return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
			       "unexpected end of input");
	c = sc->s[sc->pos];
	if (c == '{' || c == '[')
		return scan_container(sc, depth);
	if (c == '"')
		return scan_string(sc);
	if (c == '-' || is_digit(c))
		return scan_number(sc);
	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		size_t l = strlen(lits[i]);

		if (sc->len - sc->pos >= l &&
		    memcmp(sc->s + sc->pos, lits[i], l) == 0) {
			sc->pos += l;
			return CORDON_OK;
		}
	}
	return diag_at(sc->diag, CORDON_E_JSON, sc->pos,
		       "unexpected character");
}

/* ---- output ------------------------------------------------------------- */

/* Escapes only what RFC 8785 §3.2.2.2 requires; '/' and valid non-ASCII go
 * raw. */
void jcs_buf_string(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	const unsigned char *run = u;

	buf_addc(b, '"');
	for (; *u; u++) {
		char esc[6];
		size_t n = 2;

		if (*u >= 0x80) {
			uint32_t cp;
			size_t k = strnlen((const char *)u, 4);

			k = text_utf8_decode(u, k, &cp);
			if (k) {
				u += k - 1;
				continue;
			}
			buf_add(b, (const char *)run, (size_t)(u - run));
			buf_add(b, "\xef\xbf\xbd", 3);
			run = u + 1;
			continue;
		}
		if (*u >= 0x20 && *u != '"' && *u != '\\')
			continue;
		buf_add(b, (const char *)run, (size_t)(u - run));
		run = u + 1;
		esc[0] = '\\';
		switch (*u) {
		case '"':
		case '\\':
			esc[1] = (char)*u;
			break;
		case '\b':
			esc[1] = 'b';
			break;
		case '\f':
			esc[1] = 'f';
			break;
		case '\n':
			esc[1] = 'n';
			break;
		case '\r':
			esc[1] = 'r';
			break;
		case '\t':
			esc[1] = 't';
			break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[*u >> 4];
			esc[5] = hex[*u & 15];
			n = 6;
			break;
		}
		buf_add(b, esc, n);
	}
	buf_add(b, (const char *)run, (size_t)(u - run));
	buf_addc(b, '"');
}

/* ECMAScript Number::toString (ES2020 §7.1.12.1 / 6.1.6.1.20): the
 * shortest digits that read back as d (the %.*e forms are correctly
 * rounded, so the first precision that round-trips gives them, and the
 * closest such when several have that length), then placed by the
 * decimal exponent n: plain integers up to 21 digits, a point inside,
 * "0.000ddd" down to n = -5, exponent form otherwise. */
size_t jcs_format_number(double d, char buf[32])
{
	char tmp[40], digits[24];
	size_t k = 0, o = 0;
	int prec, e, n;
	char *p, *end;

	if (!isfinite(d)) {
		memcpy(buf, "null", 5);
		return 4;
	}
	if (d == 0) {
		memcpy(buf, "0", 2);
		return 1;
	}
	for (prec = 0; prec < 17; prec++) {
		(void)snprintf(tmp, sizeof(tmp), "%.*e", prec, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	if (prec == 17)
		(void)snprintf(tmp, sizeof(tmp), "%.*e", 16, d);
	p = tmp;
	if (*p == '-') {
		buf[o++] = '-';
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (is_digit(*p) && k < sizeof(digits))
			digits[k++] = *p;
	while (k > 1 && digits[k - 1] == '0')
		k--;
	e = (int)strtol(p + 1, &end, 10);
	n = e + 1;
	if ((int)k <= n && n <= 21) {
		memcpy(buf + o, digits, k);
		o += k;
		for (int i = 0; i < n - (int)k; i++)
			buf[o++] = '0';
	} else if (0 < n && n <= 21) {
		memcpy(buf + o, digits, (size_t)n);
		o += (size_t)n;
		buf[o++] = '.';
		memcpy(buf + o, digits + n, k - (size_t)n);
		o += k - (size_t)n;
	} else if (-6 < n && n <= 0) {
		buf[o++] = '0';
		buf[o++] = '.';
		for (int i = 0; i < -n; i++)
			buf[o++] = '0';
		memcpy(buf + o, digits, k);
		o += k;
	} else {
		int w;

		buf[o++] = digits[0];
		if (k > 1) {
			buf[o++] = '.';
			memcpy(buf + o, digits + 1, k - 1);
			o += k - 1;
		}
		w = snprintf(buf + o, 32 - o, "e%c%d", e < 0 ? '-' : '+',
			     e < 0 ? -e : e);
		if (w > 0)
			o += (size_t)w;
	}
	buf[o] = '\0';
	return o;
}

static int member_cmp(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a;
	const cJSON *y = *(const cJSON *const *)b;

	return utf16_cmp(x->string, y->string);
}

static enum cordon_err put_value(struct buf *b, const cJSON *v, unsigned depth,
				 struct cordon_diag *diag);

static enum cordon_err put_object(struct buf *b, const cJSON *v, unsigned depth,
				  struct cordon_diag *diag)
{
	const cJSON **m;
	const cJSON *c;
	enum cordon_err rc = CORDON_OK;
	size_t n = 0, i;

	for (c = v->child; c; c = c->next) {
		if (!c->string)
			return diag_at(diag, CORDON_E_JSON, 0,
				       "object member without a name");
		if (text_utf8_invalid_at(c->string, strlen(c->string)) !=
		    strlen(c->string))
			return diag_at(diag, CORDON_E_JSON, 0,
				       "invalid UTF-8 in a member name");
		n++;
	}
	buf_addc(b, '{');
	if (n == 0) {
		buf_addc(b, '}');
		return CORDON_OK;
	}
	m = cordon__calloc(n, sizeof(*m));
	if (!m)
		return diag_at(diag, CORDON_E_NOMEM, 0, "out of memory");
	for (i = 0, c = v->child; c; c = c->next)
		m[i++] = c;
	qsort(m, n, sizeof(*m), member_cmp);
	for (i = 0; i < n && rc == CORDON_OK; i++) {
		if (i > 0 && strcmp(m[i - 1]->string, m[i]->string) == 0) {
			rc = diag_at(diag, CORDON_E_JSON, 0,
				     "duplicate member name \"%.200s\"",
				     m[i]->string);
			break;
		}
		if (i > 0)
			buf_addc(b, ',');
		jcs_buf_string(b, m[i]->string);
		buf_addc(b, ':');
		rc = put_value(b, m[i], depth + 1, diag);
	}
	free(m);
	buf_addc(b, '}');
	return rc;
}

static enum cordon_err put_value(struct buf *b, const cJSON *v, unsigned depth,
				 struct cordon_diag *diag)
{
	enum cordon_err rc = CORDON_OK;
	char num[32];
	size_t n;

	switch (v->type & 0xff) {
	case cJSON_NULL:
		buf_add(b, "null", 4);
		break;
	case cJSON_True:
		buf_add(b, "true", 4);
		break;
	case cJSON_False:
		buf_add(b, "false", 5);
		break;
	case cJSON_Number:
		if (!isfinite(v->valuedouble))
			return diag_at(diag, CORDON_E_JSON, 0,
				       "number out of the range of a double");
		n = jcs_format_number(v->valuedouble, num);
		buf_add(b, num, n);
		break;
	case cJSON_String:
		if (!v->valuestring)
			return diag_at(diag, CORDON_E_JSON, 0,
				       "string without a value");
		n = strlen(v->valuestring);
		if (text_utf8_invalid_at(v->valuestring, n) != n)
			return diag_at(diag, CORDON_E_JSON, 0,
				       "invalid UTF-8 in a string");
		jcs_buf_string(b, v->valuestring);
		break;
	case cJSON_Array:
	case cJSON_Object:
		if (depth + 1 > JCS_MAX_DEPTH)
			return diag_at(diag, CORDON_E_JSON, 0,
				       "nesting deeper than %d", JCS_MAX_DEPTH);
		if ((v->type & 0xff) == cJSON_Object)
			return put_object(b, v, depth, diag);
		buf_addc(b, '[');
		for (const cJSON *c = v->child; c && !rc; c = c->next) {
			if (c != v->child)
				buf_addc(b, ',');
			rc = put_value(b, c, depth + 1, diag);
		}
		buf_addc(b, ']');
		break;
	default:
		return diag_at(diag, CORDON_E_JSON, 0,
			       "value of a type JSON does not have");
	}
	return rc;
}

enum cordon_err jcs_from_cjson(const cJSON *v, char **out, size_t *out_len,
			       struct cordon_diag *diag)
{
	struct buf b = BUF_INIT(SIZE_MAX);
	enum cordon_err rc;

	if (!out)
		return diag_at(diag, CORDON_E_INVAL, 0, "no output");
	*out = NULL;
	if (out_len)
		*out_len = 0;
	if (!v)
		return diag_at(diag, CORDON_E_INVAL, 0, "no value");
	/* The depth counts containers, so a container at the top is depth
	 * 1 once put_value adds it. */
	rc = put_value(&b, v, 0, diag);
	if (rc) {
		buf_free(&b);
		return rc;
	}
	*out = buf_take(&b, out_len);
	if (!*out)
		return diag_at(diag, CORDON_E_NOMEM, 0, "out of memory");
	return CORDON_OK;
}

enum cordon_err jcs_canonicalize(const char *json, size_t len, char **out,
				 size_t *out_len, struct cordon_diag *diag)
{
	struct scan sc = { json, len, 0, diag };
	const char *end = NULL;
	enum cordon_err rc;
	cJSON *root;

	if (!out)
		return diag_at(diag, CORDON_E_INVAL, 0, "no output");
	*out = NULL;
	if (out_len)
		*out_len = 0;
	if (!json)
		return diag_at(diag, CORDON_E_INVAL, 0, "no input");
	rc = scan_value(&sc, 0);
	if (rc)
		return rc;
	scan_ws(&sc);
	if (sc.pos != len)
		return diag_at(diag, CORDON_E_JSON, sc.pos,
			       "trailing data after the JSON value");
	root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	if (!root)
		/* It passed the strict scan: memory is the likely cause. */
		return diag_at(diag, CORDON_E_JSON, 0,
			       "cJSON could not parse the text");
	sc.pos = end ? (size_t)(end - json) : 0;
	scan_ws(&sc);
	if (sc.pos != len) {
		cJSON_Delete(root);
		return diag_at(diag, CORDON_E_JSON, sc.pos,
			       "cJSON stopped before the end of the text");
	}
	rc = jcs_from_cjson(root, out, out_len, diag);
	cJSON_Delete(root);
	return rc;
}

enum cordon_err jcs_fingerprint(const cJSON *v, char out[65],
				struct cordon_diag *diag)
{
	enum cordon_err rc;
	size_t len = 0;
	char *canon;

	out[0] = '\0';
	rc = jcs_from_cjson(v, &canon, &len, diag);
	if (rc)
		return rc;
	sha256_hex(canon, len, out);
	free(canon);
	return CORDON_OK;
}
