/* json — JSON helpers shared by every component that writes or reads the
 * JSON cordon judges (see json.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "json.h"

#include "alloc.h"
#include "buf.h"
#include "text.h"
#include "banned.h"

/* A NUL-terminated, valid UTF-8 copy of s[0..n): every NUL byte and every
 * byte that does not start a well-formed sequence becomes U+FFFD. The caller
 * frees it. NULL when out of memory. */
static char *utf8_clean(const char *s, size_t n)
{
	const unsigned char *in = (const unsigned char *)s;
	size_t cap;
	char *out;
	size_t o = 0;

	/* Each input byte grows to at most the 3 bytes of U+FFFD. */
	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	cap = 3 * n + 1;
	out = cordon__malloc(cap);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t len, run = i;

		/* ASCII without NUL, the common case, is copied a run at a
		 * time. */
		while (run < n && in[run] && in[run] < 0x80)
			run++;
		if (run > i) {
			memcpy(out + o, in + i, run - i);
			o += run - i;
			i = run;
			continue;
		}
		len = in[i] ? text_utf8_decode(in + i, n - i, &cp) : 0;

		if (len) {
			memcpy(out + o, in + i, len);
			o += len;
			i += len;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

/* A JSON string item holding s[0..n), cleaned. NULL when out of memory. */
cJSON *json_clean_string(const char *s, size_t n)
{
	char *clean = utf8_clean(s ? s : "", s ? n : 0);
	cJSON *item;

	if (!clean)
		return NULL;
	item = cJSON_CreateString(clean);
	free(clean);
	return item;
}

/* 1 for the ASCII bytes copied as they are inside a JSON string: not a
 * control character, '"' or '\\' (which cJSON escapes); 0 for the rest
 * and for every byte from 0x80 (which is checked as UTF-8). */
/* clang-format off */
static const unsigned char json_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};
/* clang-format on */

/* Input bytes written per reservation: each grows to at most 6 bytes
 * ("\u001f"), so a long string is not reserved at six times its size. */
#define JSON_CLEAN_CHUNK 4096u

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether none of the eight bytes in x needs more than a copy: no control
 * character, '"', '\\' or byte from 0x80 (json_plain[] eight at a time).
 * For a byte below 0x80, adding 0x60 sets its high bit when it is 0x20 or
 * more, and adding 0x7f to it xor '"' (xor '\\') when it is not '"' ('\\'),
 * with no carry into the next byte; a byte from 0x80 fails the ~x test,
 * whatever a carry out of it did. */
static inline bool json_plain8(uint64_t x)
{
	uint64_t ok = (x + ONES * 0x60) & ((x ^ (ONES * '"')) + ONES * 0x7f) &
		      ((x ^ (ONES * '\\')) + ONES * 0x7f) & ~x;

	return (ok & HIGHS) == HIGHS;
}

size_t json_plain_span(const char *s, size_t n)
{
	const unsigned char *in = (const unsigned char *)s;
	size_t i = 0;
	uint64_t x;

	while (n - i >= 8) {
		memcpy(&x, in + i, 8);
		if (!json_plain8(x))
			break;
		i += 8;
	}
	while (i < n && json_plain[in[i]])
		i++;
	return i;
}

/* Writes in[*at..end) escaped into o and returns the new end of o; *at
 * moves to where it stopped (past end when a UTF-8 sequence begun before
 * end runs on: at most 4 bytes out for its at most 4 in). in holds n bytes
 * in all. */
static char *json_put_range(char *o, const unsigned char *in, size_t *at,
			    size_t end, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = *at;

	while (i < end) {
		uint32_t cp;
		size_t len;
		unsigned char c = in[i];

		/* printable ASCII, the common case, eight bytes at a time,
		 * then a byte at a time */
		if (json_plain[c]) {
			size_t run = i;
			uint64_t x;

			while (end - i >= 8) {
				memcpy(&x, in + i, 8);
				if (!json_plain8(x))
					break;
				memcpy(o, &x, 8);
				o += 8;
				i += 8;
			}
			/* fewer than eight left after eight or more copied:
			 * the eight that end the range, partly again */
			if (i < end && end - i < 8 && end - run >= 8) {
				memcpy(&x, in + end - 8, 8);
				if (json_plain8(x)) {
					memcpy(o + (end - i) - 8, &x, 8);
					o += end - i;
					i = end;
					continue;
				}
			}
			while (i < end && json_plain[in[i]])
				*o++ = (char)in[i++];
			continue;
		}
		if (c && c < 0x80) {
			*o++ = '\\';
			switch (c) {
			case '"':
			case '\\':
				*o++ = (char)c;
				break;
			case '\b':
				*o++ = 'b';
				break;
			case '\f':
				*o++ = 'f';
				break;
			case '\n':
				*o++ = 'n';
				break;
			case '\r':
				*o++ = 'r';
				break;
			case '\t':
				*o++ = 't';
				break;
			default:
				memcpy(o, "u00", 3);
				o[3] = hex[c >> 4];
				o[4] = hex[c & 15];
				o += 5;
			}
			i++;
			continue;
		}
		/* NUL and bytes that start no well-formed sequence: U+FFFD,
		 * as utf8_clean() */
		len = c ? text_utf8_decode(in + i, n - i, &cp) : 0;
		if (len) {
			memcpy(o, in + i, len);
			o += len;
			i += len;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*at = i;
	return o;
}

char *json_put_clean_string(char *o, const char *s, size_t n)
{
	const unsigned char *in = (const unsigned char *)s;
	size_t i = 0, at;
	uint64_t x;

	/* most strings are plain ASCII through and through: copied here,
	 * eight bytes a step and the last few by one overlapping step,
	 * before json_put_range() is asked for the rest */
	*o++ = '"';
	while (n - i >= 8) {
		memcpy(&x, in + i, 8);
		if (!json_plain8(x))
			break;
		memcpy(o + i, &x, 8);
		i += 8;
	}
	if (i < n && n - i < 8 && n >= 8) {
		memcpy(&x, in + n - 8, 8);
		if (json_plain8(x)) {
			memcpy(o + n - 8, &x, 8);
			i = n;
		}
	}
	while (i < n && json_plain[in[i]]) {
		o[i] = (char)in[i];
		i++;
	}
	o += i;
	if (i < n) {
		at = i; /* i's address is not taken: it stays in a register */
		o = json_put_range(o, in, &at, n, n);
	}
	*o++ = '"';
	return o;
}

bool json_add_clean_string(struct buf *b, const char *s, size_t n)
{
	const unsigned char *in = (const unsigned char *)s;
	size_t i = 0;
	char *start, *o;

	/* most strings are short: one reservation, quotes included */
	if (n <= JSON_CLEAN_CHUNK) {
		start = buf_space(b, JSON_CLEAN_ROOM(n));
		if (!start)
			return false;
		o = json_put_clean_string(start, s, n);
		return buf_commit(b, (size_t)(o - start));
	}
	if (!buf_addc(b, '"'))
		return false;
	while (i < n) {
		size_t room = n - i;

		if (room > JSON_CLEAN_CHUNK)
			room = JSON_CLEAN_CHUNK;
		start = buf_space(b, 6 * room);
		if (!start)
			return false;
		o = json_put_range(start, in, &i, i + room, n);
		if (!buf_commit(b, (size_t)(o - start)))
			return false;
	}
	return buf_addc(b, '"');
}

/* A JSON array of the names of the label bits set in labels, in bit order.
 * NULL when out of memory. */
cJSON *json_labels_array(uint64_t labels)
{
	cJSON *arr = cJSON_CreateArray();

	if (!arr)
		return NULL;
	for (unsigned bit = 0; bit < CORDON_LABEL_COUNT && bit < 64; bit++) {
		const char *name = cordon_label_name(bit);
		cJSON *item;

		if (!(labels & (UINT64_C(1) << bit)) || !name)
			continue;
		/* Label names are static ASCII: referenced, not copied. */
		item = cJSON_CreateStringReference(name);
		if (!item || !cJSON_AddItemToArray(arr, item)) {
			cJSON_Delete(item);
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

size_t json_nul_escape_at(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '\\')
			continue;
		if (n - i >= 6 && memcmp(s + i + 1, "u0000", 5) == 0)
			return i;
		i++; /* the escaped character */
	}
	return n;
}

#define JSON_INDENT_MAX_DEPTH 1000

static bool indent_item(struct buf *b, const cJSON *it, unsigned depth);

static bool indent_line(struct buf *b, unsigned depth)
{
	if (!buf_addc(b, '\n'))
		return false;
	for (unsigned i = 0; i < depth; i++)
		if (!buf_add(b, "  ", 2))
			return false;
	return true;
}

static bool indent_scalar(struct buf *b, const cJSON *it)
{
	cJSON copy = *it;
	char *text;
	bool ok;

	/* Printed alone: without its siblings and its member name. */
	copy.next = copy.prev = NULL;
	copy.string = NULL;
	text = cJSON_PrintUnformatted(&copy);
	if (!text)
		return false;
	ok = buf_adds(b, text);
	cJSON_free(text);
	return ok;
}

static bool indent_container(struct buf *b, const cJSON *it, unsigned depth)
{
	bool obj = cJSON_IsObject(it);
	const cJSON *c;

	if (!buf_addc(b, obj ? '{' : '['))
		return false;
	for (c = it->child; c; c = c->next) {
		if (!indent_line(b, depth + 1))
			return false;
		if (obj) {
			cJSON key = { 0 };

			key.type = cJSON_String;
			key.valuestring = c->string;
			if (!indent_scalar(b, &key) || !buf_add(b, ": ", 2))
				return false;
		}
		if (!indent_item(b, c, depth + 1) ||
		    (c->next && !buf_addc(b, ',')))
			return false;
	}
	if (it->child && !indent_line(b, depth))
		return false;
	return buf_addc(b, obj ? '}' : ']');
}

static bool indent_item(struct buf *b, const cJSON *it, unsigned depth)
{
	if (depth > JSON_INDENT_MAX_DEPTH)
		return false;
	if (cJSON_IsObject(it) || cJSON_IsArray(it))
		return indent_container(b, it, depth);
	return indent_scalar(b, it);
}

char *json_print_indented(const cJSON *item)
{
	struct buf b = BUF_INIT(SIZE_MAX / 2);

	if (!item || !indent_item(&b, item, 0)) {
		buf_free(&b);
		return NULL;
	}
	return buf_take(&b, NULL);
}
