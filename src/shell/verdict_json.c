/* verdict_json — a verdict as the classify object of DESIGN.md.
 *
 * Built only from the public accessors, so it shows exactly what a C caller
 * can see. Strings in a verdict may be slices of the command line and so may
 * hold NUL bytes or invalid UTF-8; cJSON takes NUL-terminated UTF-8 and
 * escapes control characters, so every string passes through
 * json_clean_string() (json.h) and the output is always valid JSON.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "json.h"

#include "banned.h"

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
