/* jsonrpc — newline-delimited JSON-RPC 2.0 framing for the MCP gateway.
 *
 * Three parts: the framer (a byte stream into lines, with a ceiling), the
 * parser (a line into a message: cJSON for the tree, a small scanner over
 * the line's own bytes for where the id is), and the builders of the
 * answers the gateway writes itself.
 *
 * Requests and notifications are what the policy judges, so for them the
 * parser also refuses what would make cordon and the server read different
 * things: a member name twice in one object (cJSON keeps the first, many
 * servers the last) and a \u0000 escape (cJSON ends the string there, the
 * server does not). Names count as the same when they differ only in case:
 * Go's encoding/json fills a struct field from any member whose name
 * matches it without regard to case ("NAME", "argumentſ" with U+017F for
 * s), the last one winning. Responses are only held to the JSON-RPC shape,
 * and no message may carry a member spelled like a JSON-RPC one in
 * another case ("METHOD" would make a response a request to such a
 * server).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jcs.h"
#include "jsonrpc.h"
#include "json.h"
#include "sha256.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

#define JSONRPC_DEFAULT_MAX_MESSAGE ((size_t)4 * 1024 * 1024)
#define JSONRPC_DEFAULT_MAX_DEPTH 64u
#define JSONRPC_DEFAULT_MAX_BATCH ((size_t)256)

/* ---- framer ------------------------------------------------------------- */

void jsonrpc_framer_init(struct jsonrpc_framer *f, size_t max)
{
	memset(f, 0, sizeof(*f));
	buf_init(&f->pend, SIZE_MAX);
	f->max = max ? max : JSONRPC_DEFAULT_MAX_MESSAGE;
	/* room for max + 1 (a '\r' that may precede the newline) */
	if (f->max > SIZE_MAX / 2)
		f->max = SIZE_MAX / 2;
}

void jsonrpc_framer_free(struct jsonrpc_framer *f)
{
	if (!f)
		return;
	buf_free(&f->pend);
	f->dropping = false;
}

size_t jsonrpc_framer_pending(const struct jsonrpc_framer *f)
{
	return buf_len(&f->pend);
}

static enum cordon_err framer_append(struct jsonrpc_framer *f, const char *p,
				     size_t n)
{
	return buf_add(&f->pend, p, n) ? CORDON_OK : CORDON_E_NOMEM;
}

/* A line of total bytes (before its '\n', the last one being last) is over
 * the ceiling. An unfinished line may still end in "\r\n", so one byte
 * more is allowed while that byte is a '\r'. */
static bool framer_over(const struct jsonrpc_framer *f, size_t total, char last,
			bool complete)
{
	if (complete)
		return total - (total && last == '\r') > f->max;
	return total > f->max + 1 || (total == f->max + 1 && last != '\r');
}

/* Hands one complete line to fn without its '\r'; empty lines are skipped. */
static int framer_emit(const char *line, size_t len, jsonrpc_line_fn fn, void *ud)
{
	if (len && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return 0;
	return fn(ud, line, len, false);
}

/* Feeds p[0..n) through the line state in f (a partial line in f->pend, or
 * dropping). Sets *used to the bytes consumed; *stopped when fn asked to
 * stop (f->pend is then empty: the stop comes right after a whole line or a
 * too_long report). */
static enum cordon_err framer_run(struct jsonrpc_framer *f, const char *p,
				  size_t n, jsonrpc_line_fn fn, void *ud,
				  size_t *used, bool *stopped)
{
	size_t i = 0;

	*stopped = false;
	while (i < n) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t seg_end = nl ? (size_t)(nl - p) : n;
		size_t seg = seg_end - i, total;
		char last;
		int rc;

		if (f->dropping) {
			if (!nl) {
				i = n;
				break;
			}
			f->dropping = false;
			i = seg_end + 1;
			continue;
		}
		if (buf_len(&f->pend) == 0 && nl &&
		    !framer_over(f, seg, seg ? p[seg_end - 1] : 0, true)) {
			rc = framer_emit(p + i, seg, fn, ud);
			i = seg_end + 1;
			if (rc) {
				*stopped = true;
				break;
			}
			continue;
		}
		if (seg > SIZE_MAX - buf_len(&f->pend))
			return CORDON_E_NOMEM;
		total = buf_len(&f->pend) + seg;
		last = seg ? p[seg_end - 1] :
			     (buf_len(&f->pend) ?
				      buf_str(&f->pend)[buf_len(&f->pend) - 1] :
				      0);
		if (framer_over(f, total, last, nl != NULL)) {
			buf_setlen(&f->pend, 0);
			f->dropping = nl == NULL;
			i = nl ? seg_end + 1 : n;
			if (fn(ud, NULL, total, true)) {
				*stopped = true;
				break;
			}
			continue;
		}
		if (framer_append(f, p + i, seg))
			return CORDON_E_NOMEM;
		if (!nl) {
			i = n;
			break;
		}
		i = seg_end + 1;
		rc = framer_emit(buf_str(&f->pend), buf_len(&f->pend), fn, ud);
		buf_setlen(&f->pend, 0);
		if (rc) {
			*stopped = true;
			break;
		}
	}
	*used = i;
	return CORDON_OK;
}

/* Bytes buffered after a stop start at a line boundary and may hold whole
 * lines or an unfinished one already over the ceiling: they are run again,
 * before data, on the next feed. A buffer that is only an unfinished line
 * within the ceiling (the usual case) is extended in place. */
enum cordon_err jsonrpc_framer_feed(struct jsonrpc_framer *f, const char *data,
				 size_t n, jsonrpc_line_fn fn, void *ud)
{
	enum cordon_err rc;
	bool stopped = false;
	size_t used = 0;

	const char *held = buf_str(&f->pend);
	size_t nheld = buf_len(&f->pend);

	if (nheld && (f->dropping || memchr(held, '\n', nheld) ||
		      framer_over(f, nheld, held[nheld - 1], false))) {
		struct buf old = f->pend;

		buf_init(&f->pend, SIZE_MAX);
		rc = framer_run(f, held, nheld, fn, ud, &used, &stopped);
		if (rc == CORDON_OK && stopped) {
			rc = framer_append(f, held + used, nheld - used);
			if (rc == CORDON_OK && n)
				rc = framer_append(f, data, n);
		}
		buf_free(&old);
		if (rc || stopped)
			return rc;
	}
	if (n == 0)
		return CORDON_OK;
	rc = framer_run(f, data, n, fn, ud, &used, &stopped);
	if (rc == CORDON_OK && stopped && used < n)
		rc = framer_append(f, data + used, n - used);
	return rc;
}

/* ---- scanning the line's bytes ------------------------------------------ */

unsigned jsonrpc_depth(const char *json, size_t len, unsigned stop_at)
{
	unsigned d = 0, max = 0;
	unsigned limit = stop_at == UINT_MAX ? stop_at : stop_at + 1;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = json[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
		} else if (c == '{' || c == '[') {
			if (++d > max) {
				max = d;
				if (max >= limit)
					return limit;
			}
		} else if ((c == '}' || c == ']') && d > 0) {
			d--;
		}
	}
	return max;
}

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n &&
	       (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* s[i] is '"': the offset after the closing quote, or 0 (unterminated). */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return 0;
}

/* The end of the value at s[i..n), or 0 when it is not one. Containers are
 * matched by counting brackets outside strings; scalars are the run of
 * characters a number or literal can hold. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
	size_t d = 0, start = i;

	if (i >= n)
		return 0;
	if (s[i] == '"')
		return skip_string(s, n, i);
	if (s[i] != '{' && s[i] != '[') {
		while (i < n && (s[i] == '-' || s[i] == '+' || s[i] == '.' ||
				 (s[i] >= '0' && s[i] <= '9') ||
				 (s[i] >= 'a' && s[i] <= 'z') ||
				 (s[i] >= 'A' && s[i] <= 'Z')))
			i++;
		return i > start ? i : 0;
	}
	for (; i < n; i++) {
		if (s[i] == '"') {
			i = skip_string(s, n, i);
			if (i == 0)
				return 0;
			i--;
		} else if (s[i] == '{' || s[i] == '[') {
			d++;
		} else if (s[i] == '}' || s[i] == ']') {
			if (--d == 0)
				return i + 1;
		}
	}
	return 0;
}

/* s[a..b) is a string token (quotes included) whose escapes are all valid
 * and which holds no raw control character: safe to copy into output. */
static bool string_ok(const char *s, size_t a, size_t b)
{
	if (b - a < 2 || s[a] != '"' || s[b - 1] != '"')
		return false;
	for (size_t i = a + 1; i < b - 1; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (++i >= b - 1)
			return false;
		if (s[i] == 'u') {
			if (b - 1 - i < 5)
				return false;
			for (size_t k = 1; k <= 4; k++)
				if (text_hex_value((unsigned char)s[i + k]) < 0)
					return false;
			i += 4;
		} else if (!strchr("\"\\/bfnrt", s[i]) || s[i] == 0) {
			return false;
		}
	}
	return true;
}

/* s[a..b) is an RFC 8259 number. */
static bool number_ok(const char *s, size_t a, size_t b)
{
	size_t i = a;

	if (i < b && s[i] == '-')
		i++;
	if (i < b && s[i] == '0') {
		i++;
	} else {
		if (i >= b || s[i] < '1' || s[i] > '9')
			return false;
		while (i < b && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < b && s[i] == '.') {
		if (++i >= b || s[i] < '0' || s[i] > '9')
			return false;
		while (i < b && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < b && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < b && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= b || s[i] < '0' || s[i] > '9')
			return false;
		while (i < b && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return i == b;
}

/* The member name token s[a..b) (quotes included) decodes to "id". */
static bool name_is_id(const char *s, size_t a, size_t b)
{
	char got[3];
	size_t k = 0;

	for (size_t i = a + 1; i + 1 < b; i++) {
		long cp = (unsigned char)s[i];

		if (s[i] == '\\') {
			if (i + 5 >= b || s[i + 1] != 'u')
				return false;
			cp = 0;
			for (size_t h = 2; h <= 5; h++) {
				int v = text_hex_value((unsigned char)s[i + h]);

				if (v < 0)
					return false;
				cp = cp * 16 + v;
			}
			i += 5;
		}
		if (k == 2 || cp >= 0x80)
			return false;
		got[k++] = (char)cp;
	}
	return k == 2 && got[0] == 'i' && got[1] == 'd';
}

/* Where the first member named "id" of the object at s[from..n) has its
 * value: *a..*b. Returns 1 when found (the value may be of any type), 0
 * when the object has none or the bytes stop making sense before it. */
static int find_id(const char *s, size_t n, size_t from, size_t *a, size_t *b)
{
	size_t i = skip_ws(s, n, from);

	if (i >= n || s[i] != '{')
		return 0;
	i++;
	for (;;) {
		size_t ka, kb, va, vb;

		i = skip_ws(s, n, i);
		if (i >= n || s[i] != '"')
			return 0;
		ka = i;
		kb = skip_string(s, n, i);
		if (kb == 0)
			return 0;
		i = skip_ws(s, n, kb);
		if (i >= n || s[i] != ':')
			return 0;
		va = skip_ws(s, n, i + 1);
		vb = skip_value(s, n, va);
		if (vb == 0)
			return 0;
		if (name_is_id(s, ka, kb)) {
			*a = va;
			*b = vb;
			return 1;
		}
		i = skip_ws(s, n, vb);
		if (i >= n || s[i] != ',')
			return 0;
		i++;
	}
}

/* The id of the object at s[from..n) as raw bytes, when it is a string,
 * number or null that can be copied into an answer as it stands. */
static void find_id_raw(const char *s, size_t n, size_t from,
			struct jsonrpc_msg *m)
{
	size_t a, b;

	if (!find_id(s, n, from, &a, &b))
		return;
	if ((s[a] == '"' && string_ok(s, a, b)) ||
	    ((s[a] == '-' || (s[a] >= '0' && s[a] <= '9')) &&
	     number_ok(s, a, b)) ||
	    (b - a == 4 && memcmp(s + a, "null", 4) == 0)) {
		m->id_raw = s + a;
		m->id_raw_len = b - a;
	}
}

/* ---- parsing ------------------------------------------------------------ */

/* SHA-256 in hex of prefix (may be NULL) followed by p[0..n). */
static void hex_sha256_2(const char *prefix, const void *p, size_t n,
			 char out[65])
{
	unsigned char md[SHA256_BYTES];
	struct sha256 c;

	sha256_init(&c);
	if (prefix)
		sha256_update(&c, prefix, strlen(prefix));
	sha256_update(&c, p, n);
	sha256_final(&c, md);
	text_hex_encode(md, SHA256_BYTES, out);
}

static void hex_sha256(const void *p, size_t n, char out[65])
{
	hex_sha256_2(NULL, p, n, out);
}

static void hex_sha256_raw(const void *p, size_t n, char out[65])
{
	hex_sha256_2("raw:", p, n, out);
}

/* A map key for the id: the same for every spelling a peer may echo back
 * (a JavaScript server answers id 1.0 as 1 and "\u0061" as "a"), so
 * numbers go by their double in ECMAScript form and strings by their
 * decoded bytes. Two ids with the same key are one id to the gateway. */
static void make_id_key(struct jsonrpc_msg *m)
{
	const cJSON *id = m->id;
	char num[32], h[65];
	size_t n;

	m->id_key[0] = '\0';
	if (!id)
		return;
	if (cJSON_IsNull(id)) {
		memcpy(m->id_key, "null", 5);
	} else if (cJSON_IsNumber(id) && isfinite(id->valuedouble)) {
		n = jcs_format_number(id->valuedouble, num);
		memcpy(m->id_key, "n:", 2);
		memcpy(m->id_key + 2, num, n + 1);
	} else if (cJSON_IsString(id) && id->valuestring && m->id_raw &&
		   json_nul_escape_at(m->id_raw, m->id_raw_len) ==
			   m->id_raw_len) {
		n = strlen(id->valuestring);
		if (n + 3 <= sizeof(m->id_key)) {
			memcpy(m->id_key, "s:", 2);
			memcpy(m->id_key + 2, id->valuestring, n + 1);
		} else {
			hex_sha256(id->valuestring, n, h);
			memcpy(m->id_key, "h:", 2);
			memcpy(m->id_key + 2, h, 65);
		}
	} else if (m->id_raw) {
		/* A string with a NUL (cJSON's copy ends there) or a number
		 * past a double: keyed by its raw bytes, prefixed so they
		 * cannot meet a decoded string's hash. */
		hex_sha256_raw(m->id_raw, m->id_raw_len, h);
		memcpy(m->id_key, "h:", 2);
		memcpy(m->id_key + 2, h, 65);
	}
}

/* The next character of the member name *p as Go's encoding/json folds it
 * when it matches a name to a struct field: ASCII letters to lower case,
 * and the four non-ASCII letters whose case pair is ASCII (U+017F long s,
 * U+212A Kelvin sign, U+0130 and U+0131 dotted and dotless i) to theirs.
 * Other bytes are themselves: names differing in other non-ASCII letters
 * are not matched (Go would match some; member names that matter here are
 * ASCII). Advances *p. */
static unsigned fold_next(const unsigned char **p)
{
	const unsigned char *s = *p;

	if (s[0] >= 'A' && s[0] <= 'Z') {
		*p = s + 1;
		return s[0] + ('a' - 'A');
	}
	if (s[0] == 0xc5 && s[1] == 0xbf) { /* U+017F */
		*p = s + 2;
		return 's';
	}
	if (s[0] == 0xc4 && (s[1] == 0xb0 || s[1] == 0xb1)) {
		*p = s + 2;
		return 'i';
	}
	if (s[0] == 0xe2 && s[1] == 0x84 && s[2] == 0xaa) { /* U+212A */
		*p = s + 3;
		return 'k';
	}
	*p = s + 1;
	return s[0];
}

/* strcmp() of two member names folded by fold_next(). */
static int fold_cmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (;;) {
		unsigned x = *p ? fold_next(&p) : 0;
		unsigned y = *q ? fold_next(&q) : 0;

		if (x != y)
			return x < y ? -1 : 1;
		if (x == 0)
			return 0;
	}
}

static int name_cmp(const void *a, const void *b)
{
	return fold_cmp((*(const cJSON *const *)a)->string,
			(*(const cJSON *const *)b)->string);
}

/* The first name that appears twice among obj's members (folded:
 * fold_cmp), or NULL; sets *nomem when it could not tell. */
static const char *dup_member(const cJSON *obj, bool *nomem)
{
	const cJSON **v, *c;
	const char *dup = NULL;
	size_t n = 0, i;

	for (c = obj->child; c; c = c->next)
		n++;
	if (n < 2)
		return NULL;
	if (n <= 16) {
		for (c = obj->child; c; c = c->next)
			for (const cJSON *d = c->next; d; d = d->next)
				if (c->string && d->string &&
				    fold_cmp(c->string, d->string) == 0)
					return d->string;
		return NULL;
	}
	v = cordon__calloc(n, sizeof(*v));
	if (!v) {
		*nomem = true;
		return NULL;
	}
	for (i = 0, c = obj->child; c; c = c->next)
		if (c->string)
			v[i++] = c;
	n = i;
	qsort(v, n, sizeof(*v), name_cmp);
	for (i = 1; i < n && !dup; i++)
		if (fold_cmp(v[i - 1]->string, v[i]->string) == 0)
			dup = v[i]->string;
	free(v);
	return dup;
}

/* The first duplicated member name anywhere in v. */
static const char *dup_member_deep(const cJSON *v, bool *nomem)
{
	const char *d = NULL;

	if (cJSON_IsObject(v))
		d = dup_member(v, nomem);
	for (const cJSON *c = v->child; c && !d && !*nomem; c = c->next)
		if (cJSON_IsObject(c) || cJSON_IsArray(c))
			d = dup_member_deep(c, nomem);
	return d;
}

/* The offset of the first raw control character in s[0..n) that JSON does
 * not allow anywhere (all below 0x20 but tab and CR; the newline ends the
 * line before), or n. cJSON takes them as whitespace between tokens and
 * keeps them in strings, where a NUL ends its copy ("echo\0danger" is
 * "echo" to cordon); a lenient server may read them otherwise. */
static size_t raw_control_at(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && c != '\t' && c != '\r')
			return i;
	}
	return n;
}

/* A member of obj named like a JSON-RPC member in another case, or NULL. */
static const char *lookalike_member(const cJSON *obj)
{
	static const char *const known[] = { "jsonrpc", "id",	  "method",
					     "params",	"result", "error" };

	for (const cJSON *c = obj->child; c; c = c->next)
		for (size_t i = 0; c->string && i < 6; i++)
			if (fold_cmp(c->string, known[i]) == 0 &&
			    strcmp(c->string, known[i]) != 0)
				return c->string;
	return NULL;
}

const char *jsonrpc_dup_member(const cJSON *v, bool *nomem)
{
	*nomem = false;
	return v ? dup_member_deep(v, nomem) : NULL;
}

/* Fills m from the object obj whose text is line[from..to). */
static enum cordon_err parse_object(struct jsonrpc_msg *m, const cJSON *obj,
				    const char *line, size_t from, size_t to,
				    char *why, size_t cap)
{
	const cJSON *ver, *method, *result, *error, *params;
	const char *dup;
	bool nomem = false;

	m->kind = JSONRPC_INVALID;
	find_id_raw(line, to, from, m);
	m->id = cJSON_GetObjectItemCaseSensitive(obj, "id");
	if (m->id && !m->id_raw)
		m->id = NULL;
	make_id_key(m);
	dup = dup_member(obj, &nomem);
	if (nomem)
		return CORDON_E_NOMEM;
	if (dup) {
		text_setf(why, cap, "member \"%.60s\" appears twice", dup);
		return CORDON_OK;
	}
	dup = lookalike_member(obj);
	if (dup) {
		text_setf(why, cap,
			  "member \"%.60s\" is a JSON-RPC member in another "
			  "case",
			  dup);
		return CORDON_OK;
	}
	if (cJSON_GetObjectItemCaseSensitive(obj, "id") && !m->id) {
		text_setf(why, cap, "id must be a string, number or null");
		return CORDON_OK;
	}
	ver = cJSON_GetObjectItemCaseSensitive(obj, "jsonrpc");
	if (!cJSON_IsString(ver) || strcmp(ver->valuestring, "2.0") != 0) {
		text_setf(why, cap, "\"jsonrpc\" must be \"2.0\"");
		return CORDON_OK;
	}
	method = cJSON_GetObjectItemCaseSensitive(obj, "method");
	result = cJSON_GetObjectItemCaseSensitive(obj, "result");
	error = cJSON_GetObjectItemCaseSensitive(obj, "error");
	params = cJSON_GetObjectItemCaseSensitive(obj, "params");
	if (method) {
		if (!cJSON_IsString(method)) {
			text_setf(why, cap, "method must be a string");
			return CORDON_OK;
		}
		if (result || error) {
			text_setf(why, cap,
				  "a request cannot carry result or error");
			return CORDON_OK;
		}
		if (params && !cJSON_IsObject(params) &&
		    !cJSON_IsArray(params)) {
			text_setf(why, cap,
				  "params must be an object or array");
			return CORDON_OK;
		}
		dup = params ? dup_member_deep(params, &nomem) : NULL;
		if (nomem)
			return CORDON_E_NOMEM;
		if (dup) {
			text_setf(why, cap, "member \"%.60s\" appears twice",
				  dup);
			return CORDON_OK;
		}
		if (json_nul_escape_at(line + from, to - from) < to - from) {
			text_setf(why, cap, "\\u0000 in a request");
			return CORDON_OK;
		}
		m->method = method->valuestring;
		m->params = params;
		m->kind = m->id ? JSONRPC_REQUEST : JSONRPC_NOTIFICATION;
		return CORDON_OK;
	}
	if (!result && !error) {
		text_setf(why, cap, "neither method nor result nor error");
		return CORDON_OK;
	}
	if (result && error) {
		text_setf(why, cap, "a response has result or error, not both");
		return CORDON_OK;
	}
	if (!m->id) {
		text_setf(why, cap, "a response needs an id");
		return CORDON_OK;
	}
	if (error) {
		const cJSON *code =
			cJSON_GetObjectItemCaseSensitive(error, "code");
		const cJSON *msg =
			cJSON_GetObjectItemCaseSensitive(error, "message");

		if (!cJSON_IsObject(error) || !cJSON_IsNumber(code) ||
		    !cJSON_IsString(msg)) {
			text_setf(why, cap,
				  "error must be an object with a numeric code "
				  "and a string message");
			return CORDON_OK;
		}
	}
	m->kind = JSONRPC_RESPONSE;
	return CORDON_OK;
}

static enum cordon_err parse_batch(struct jsonrpc_msg *m, const cJSON *arr,
				   const char *line, size_t len,
				   const struct jsonrpc_limits *lim, char *why,
				   size_t cap)
{
	size_t n = (size_t)cJSON_GetArraySize(arr), i = 0, pos;
	bool reported = false;
	const cJSON *el;

	if (n == 0) {
		text_setf(why, cap, "empty batch");
		return CORDON_OK;
	}
	if (n > lim->max_batch) {
		text_setf(why, cap,
			  "batch of %zu messages is over max_batch (%zu)", n,
			  lim->max_batch);
		return CORDON_E_LIMIT;
	}
	m->items = cordon__calloc(n, sizeof(*m->items));
	if (!m->items)
		return CORDON_E_NOMEM;
	m->nitems = n;
	pos = skip_ws(line, len, 0) + 1; /* after '[' */
	for (el = arr->child; el && i < n; el = el->next, i++) {
		struct jsonrpc_msg *it = &m->items[i];
		size_t a = skip_ws(line, len, pos);
		size_t b = skip_value(line, len, a);
		char item_why[160] = "";
		enum cordon_err rc;

		if (b == 0) /* the scanner and cJSON disagree: no raw id */
			a = b = len;
		if (cJSON_IsObject(el)) {
			rc = parse_object(it, el, line, a, b, item_why,
					  sizeof(item_why));
			if (rc)
				return rc;
		} else {
			it->kind = JSONRPC_INVALID;
			text_setf(item_why, sizeof(item_why), "not an object");
		}
		if (it->kind == JSONRPC_INVALID && !reported) {
			text_setf(why, cap, "item %zu: %s", i, item_why);
			reported = true;
		}
		pos = skip_ws(line, len, b);
		if (pos < len && line[pos] == ',')
			pos++;
	}
	m->kind = JSONRPC_BATCH;
	return CORDON_OK;
}

enum cordon_err jsonrpc_parse(const char *line, size_t len,
			   const struct jsonrpc_limits *lim, struct jsonrpc_msg *m,
			   char *why, size_t why_cap)
{
	struct jsonrpc_limits l = { 0 };
	const char *end = NULL;
	enum cordon_err rc;
	unsigned depth;
	size_t tail, ctl;

	memset(m, 0, sizeof(*m));
	text_setf(why, why_cap, "%s", "");
	if (lim)
		l = *lim;
	if (!l.max_message)
		l.max_message = JSONRPC_DEFAULT_MAX_MESSAGE;
	if (!l.max_depth)
		l.max_depth = JSONRPC_DEFAULT_MAX_DEPTH;
	if (!l.max_batch)
		l.max_batch = JSONRPC_DEFAULT_MAX_BATCH;
	if (!line) {
		text_setf(why, why_cap, "no message");
		return CORDON_OK;
	}
	if (len > l.max_message) {
		find_id_raw(line, len, 0, m);
		text_setf(why, why_cap,
			  "message of %zu bytes is over max_message (%zu)", len,
			  l.max_message);
		return CORDON_E_LIMIT;
	}
	depth = jsonrpc_depth(line, len, l.max_depth);
	if (depth > l.max_depth) {
		find_id_raw(line, len, 0, m);
		text_setf(why, why_cap, "nesting is deeper than max_depth (%u)",
			  l.max_depth);
		return CORDON_E_LIMIT;
	}
	/* JSON allows no raw control character, and cJSON's reading of one
	 * (whitespace between tokens, a NUL ending its copy of a string) is
	 * not every peer's: refused before cJSON sees the line. */
	ctl = raw_control_at(line, len);
	if (ctl < len) {
		find_id_raw(line, len, 0, m);
		text_setf(
			why, why_cap,
			"a raw control character at byte %zu (JSON allows none)",
			ctl);
		return CORDON_OK;
	}
	m->root = cJSON_ParseWithLengthOpts(line, len, &end, 0);
	tail = end ? skip_ws(line, len, (size_t)(end - line)) : 0;
	if (m->root && tail != len) {
		cJSON_Delete(m->root);
		m->root = NULL;
	}
	if (!m->root) {
		find_id_raw(line, len, 0, m);
		text_setf(why, why_cap, "not JSON");
		return CORDON_OK;
	}
	if (cJSON_IsArray(m->root))
		return parse_batch(m, m->root, line, len, &l, why, why_cap);
	if (!cJSON_IsObject(m->root)) {
		text_setf(why, why_cap, "not an object or array");
		return CORDON_OK;
	}
	rc = parse_object(m, m->root, line, skip_ws(line, len, 0), len, why,
			  why_cap);
	return rc;
}

void jsonrpc_msg_free(struct jsonrpc_msg *m)
{
	if (!m)
		return;
	free(m->items);
	cJSON_Delete(m->root);
	memset(m, 0, sizeof(*m));
}

/* ---- answers ------------------------------------------------------------ */

static void ob_id(struct buf *b, const char *id_raw, size_t id_raw_len)
{
	if (id_raw)
		buf_add(b, id_raw, id_raw_len);
	else
		buf_add(b, "null", 4);
}

char *jsonrpc_error_response(const char *id_raw, size_t id_raw_len, int code,
			  const char *message)
{
	struct buf b = BUF_INIT(SIZE_MAX);
	char num[24];

	(void)snprintf(num, sizeof(num), "%d", code);
	buf_adds(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	ob_id(&b, id_raw, id_raw_len);
	buf_adds(&b, ",\"error\":{\"code\":");
	buf_adds(&b, num);
	buf_adds(&b, ",\"message\":");
	jcs_buf_string(&b, message);
	buf_adds(&b, "}}\n");
	return buf_take(&b, NULL);
}

char *jsonrpc_tool_error_result(const char *id_raw, size_t id_raw_len,
			     const char *text)
{
	struct buf b = BUF_INIT(SIZE_MAX);

	buf_adds(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	ob_id(&b, id_raw, id_raw_len);
	buf_adds(&b, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
	jcs_buf_string(&b, text);
	buf_adds(&b, "}],\"isError\":true}}\n");
	return buf_take(&b, NULL);
}

char *jsonrpc_print_with_id(const cJSON *root, const char *id_raw,
			 size_t id_raw_len)
{
	struct buf b = BUF_INIT(SIZE_MAX);
	size_t n, a, z;
	char *p;

	if (!root)
		return NULL;
	p = cJSON_PrintUnformatted(root);
	if (!p)
		return NULL;
	n = strlen(p);
	if (cJSON_IsObject(root) && find_id(p, n, 0, &a, &z)) {
		buf_add(&b, p, a);
		ob_id(&b, id_raw, id_raw_len);
		buf_add(&b, p + z, n - z);
	} else {
		buf_add(&b, p, n);
	}
	buf_add(&b, "\n", 1);
	cJSON_free(p);
	return buf_take(&b, NULL);
}
