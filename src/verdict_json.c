/* verdict_json — a verdict as the classify object of DESIGN.md.
 *
 * Built only from the public accessors, so it shows exactly what a C caller
 * can see. Strings in a verdict may be slices of the command line and so may
 * hold NUL bytes or invalid UTF-8; cJSON takes NUL-terminated UTF-8 and
 * escapes control characters, so every string passes through utf8_clean()
 * first and the output is always valid JSON.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "jsonutil.h"

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
	out = malloc(cap);
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

/* Appends a string to arr; 0 on success, -1 when out of memory. */
static int add_string(cJSON *arr, const char *s, size_t n)
{
	cJSON *item = json_clean_string(s, n);

	if (!item)
		return -1;
	if (!cJSON_AddItemToArray(arr, item)) {
		cJSON_Delete(item);
		return -1;
	}
	return 0;
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

/* Adds item to obj under key, taking ownership of item in every case.
 * 0 on success, -1 on failure (item NULL or the add failed). */
static int add_owned(cJSON *obj, const char *key, cJSON *item)
{
	if (!item)
		return -1;
	if (!cJSON_AddItemToObject(obj, key, item)) {
		cJSON_Delete(item);
		return -1;
	}
	return 0;
}

static cJSON *segments_array(const struct cordon_verdict *v)
{
	cJSON *arr = cJSON_CreateArray();
	size_t n = cordon_verdict_segment_count(v);

	if (!arr)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		enum cordon_risk risk = CORDON_RISK_BLOCKED;
		uint64_t labels = 0;
		const char *text =
			cordon_verdict_segment(v, i, &len, &risk, &labels);
		cJSON *seg = cJSON_CreateObject();
		int err = !seg;

		if (!err && add_owned(seg, "text", json_clean_string(text, len)) < 0)
			err = 1;
		if (!err && !cJSON_AddStringToObject(seg, "risk",
						     cordon_risk_name(risk)))
			err = 1;
		if (!err && add_owned(seg, "labels", json_labels_array(labels)) < 0)
			err = 1;
		if (err || !cJSON_AddItemToArray(arr, seg)) {
			cJSON_Delete(seg);
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

/* reasons or matchedRules: count/get accessor pairs. */
static cJSON *strings_array(const struct cordon_verdict *v,
			    size_t (*count)(const struct cordon_verdict *),
			    const char *(*get)(const struct cordon_verdict *,
					       size_t))
{
	cJSON *arr = cJSON_CreateArray();
	size_t n = count(v);

	if (!arr)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *s = get(v, i);

		if (add_string(arr, s, s ? strlen(s) : 0) < 0) {
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

char *cordon_verdict_to_json(const struct cordon_verdict *v)
{
	cJSON *obj;
	char *out = NULL;

	if (!v)
		return NULL;
	obj = cJSON_CreateObject();
	if (!obj)
		return NULL;
	if (!cJSON_AddStringToObject(obj, "risk",
				     cordon_risk_name(cordon_verdict_risk(v))))
		goto out;
	if (add_owned(obj, "labels", json_labels_array(cordon_verdict_labels(v))) <
	    0)
		goto out;
	if (add_owned(obj, "reasons",
		      strings_array(v, cordon_verdict_reason_count,
				    cordon_verdict_reason)) < 0)
		goto out;
	if (add_owned(obj, "segments", segments_array(v)) < 0)
		goto out;
	if (add_owned(obj, "matchedRules",
		      strings_array(v, cordon_verdict_rule_count,
				    cordon_verdict_rule)) < 0)
		goto out;
	if (!cJSON_AddBoolToObject(obj, "parsed",
				   cordon_verdict_parsed(v) ? 1 : 0))
		goto out;
	out = cJSON_PrintUnformatted(obj);
out:
	cJSON_Delete(obj);
	return out;
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
