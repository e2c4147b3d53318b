/* verdict_json — a verdict as the classify object of DESIGN.md.
 *
 * Built only from the public accessors, so it shows exactly what a C caller
 * can see. Strings in a verdict may be slices of the command line and so may
 * hold NUL bytes or invalid UTF-8, so every string passes through
 * json_add_clean_string() (json.h) and the output is always valid JSON.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cordon.h"
#include "buf.h"
#include "json.h"

#include "banned.h"

/* Adds a string literal without a strlen. */
#define ADD_LIT(b, lit) buf_add((b), (lit), sizeof(lit) - 1)

/* A name (label, risk, rule id) as a JSON string. The built-in ones are
 * letters, digits and "-_.:", which need no escape: they are copied
 * between quotes in one step. Anything else (a user rule's id may hold
 * any text) goes through json_add_clean_string(). */
static void add_name(struct buf *b, const char *s)
{
	size_t n = 0;

	for (;; n++) {
		unsigned char c = (unsigned char)s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.' || c == ':'))
			break;
	}
	if (s[n]) {
		json_add_clean_string(b, s, strlen(s));
		return;
	}
	char *o = buf_space(b, n + 2);
	if (!o)
		return;
	o[0] = '"';
	memcpy(o + 1, s, n);
	o[n + 1] = '"';
	buf_commit(b, n + 2);
}

/* A JSON array of the names of the label bits set in labels, in bit order,
 * as json_labels_array() prints. */
static void add_labels(struct buf *b, uint64_t labels)
{
	bool first = true;

	buf_addc(b, '[');
	if (CORDON_LABEL_COUNT < 64)
		labels &= (UINT64_C(1) << CORDON_LABEL_COUNT) - 1;
	for (; labels; labels &= labels - 1) {
		const char *name =
			cordon_label_name((unsigned)__builtin_ctzll(labels));

		if (!name)
			continue;
		if (!first)
			buf_addc(b, ',');
		first = false;
		add_name(b, name);
	}
	buf_addc(b, ']');
}

static void add_segments(struct buf *b, const struct cordon_verdict *v)
{
	size_t n = cordon_verdict_segment_count(v);

	buf_addc(b, '[');
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		enum cordon_risk risk = CORDON_RISK_BLOCKED;
		uint64_t labels = 0;
		const char *text =
			cordon_verdict_segment(v, i, &len, &risk, &labels);
		const char *rn = cordon_risk_name(risk);

		buf_adds(b, i ? ",{\"text\":" : "{\"text\":");
		json_add_clean_string(b, text, text ? len : 0);
		ADD_LIT(b, ",\"risk\":");
		add_name(b, rn ? rn : "");
		ADD_LIT(b, ",\"labels\":");
		add_labels(b, labels);
		buf_addc(b, '}');
	}
	buf_addc(b, ']');
}

/* reasons or matchedRules: count/get accessor pairs; names: the strings
 * are names (add_name). */
static void add_strings(struct buf *b, const struct cordon_verdict *v,
			size_t (*count)(const struct cordon_verdict *),
			const char *(*get)(const struct cordon_verdict *,
					   size_t),
			bool names)
{
	size_t n = count(v);

	buf_addc(b, '[');
	for (size_t i = 0; i < n; i++) {
		const char *s = get(v, i);

		if (i)
			buf_addc(b, ',');
		if (names)
			add_name(b, s ? s : "");
		else
			json_add_clean_string(b, s, s ? strlen(s) : 0);
	}
	buf_addc(b, ']');
}

/* Written straight into one buffer, in the member order and spelling
 * cJSON_PrintUnformatted gives the same object (test_verdict_json holds
 * the two to each other): building a cJSON tree first cost more than the
 * classification itself in `cordon classify --jsonl`. */
char *cordon_verdict_to_json(const struct cordon_verdict *v)
{
	struct buf b = BUF_INIT(SIZE_MAX / 2);
	const char *rn;

	if (!v)
		return NULL;
	rn = cordon_risk_name(cordon_verdict_risk(v));
	if (!buf_reserve(&b, 256))
		return NULL;
	ADD_LIT(&b, "{\"risk\":");
	add_name(&b, rn ? rn : "");
	ADD_LIT(&b, ",\"labels\":");
	add_labels(&b, cordon_verdict_labels(v));
	ADD_LIT(&b, ",\"reasons\":");
	add_strings(&b, v, cordon_verdict_reason_count, cordon_verdict_reason,
		    false);
	ADD_LIT(&b, ",\"segments\":");
	add_segments(&b, v);
	ADD_LIT(&b, ",\"matchedRules\":");
	add_strings(&b, v, cordon_verdict_rule_count, cordon_verdict_rule,
		    true);
	buf_adds(&b, cordon_verdict_parsed(v) ? ",\"parsed\":true}" :
						",\"parsed\":false}");
	return buf_take(&b, NULL);
}
