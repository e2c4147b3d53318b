/* json — JSON helpers shared by every component that writes or reads the
 * JSON cordon judges (see json.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "json.h"

#include "alloc.h"
#include "banned.h"

/* Length of the well-formed UTF-8 sequence at s[0..n), or 0 when it is not
 * one (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

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
		size_t len = in[i] ? utf8_seq_len(in + i, n - i) : 0;

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
