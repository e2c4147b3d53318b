/* verdict_json — a verdict as the classify object of DESIGN.md (see
 * verdict_json.h).
 *
 * Built only from the public accessors, so it shows exactly what a C caller
 * can see. Strings in a verdict may be slices of the command line and so may
 * hold NUL bytes or invalid UTF-8, so every string passes through
 * json_put_clean_string() (json.h) and the output is always valid JSON.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cordon.h"
#include "buf.h"
#include "json.h"
#include "verdict_json.h"

#include "banned.h"

/* Adds a string literal without a strlen. */
#define ADD_LIT(b, lit) buf_add((b), (lit), sizeof(lit) - 1)

/* Copies a string literal, returns the end. */
#define PUT_LIT(o, lit)                                                        \
	((char *)memcpy((o), (lit), sizeof(lit) - 1) + sizeof(lit) - 1)

/* Each label's name between quotes, from the one list in cordon.h, in a
 * slot of fixed size: a label is written with one fixed-size copy (the
 * writer keeps LABEL_SLOT bytes of slack) and the quotes come with it.
 * Label names need no escape (test_verdict_json checks each with
 * json_plain_span()). */
#define LABEL_SLOT 32
#define LABEL_CHECK(name, str)                                                 \
	_Static_assert(sizeof(str) + 1 < LABEL_SLOT, "label " str " too long");
CORDON_LABEL_MAP(LABEL_CHECK)
#undef LABEL_CHECK

static const struct quoted_label {
	char s[LABEL_SLOT];
	unsigned char n;
} quoted_labels[CORDON_LABEL_COUNT] = {
#define LABEL_QUOTED(name, str)                                                \
	[CORDON_LABEL_BIT_##name] = { "\"" str "\"", sizeof(str) + 1 },
	CORDON_LABEL_MAP(LABEL_QUOTED)
#undef LABEL_QUOTED
};

/* The room every label array needs at most: all names, quoted, with the
 * commas and brackets, and the slack of the fixed-size copies. */
#define LABEL_ALL(name, str) "\"" str "\","
#define LABELS_ROOM (sizeof("[" CORDON_LABEL_MAP(LABEL_ALL) "]") + LABEL_SLOT)

/* Writes a JSON array of the names of the label bits set in labels, in bit
 * order, as json_labels_array() prints; returns the end. o has
 * LABELS_ROOM bytes. */
static char *put_labels(char *o, uint64_t labels)
{
	bool first = true;

	*o++ = '[';
	if (CORDON_LABEL_COUNT < 64)
		labels &= (UINT64_C(1) << CORDON_LABEL_COUNT) - 1;
	for (; labels; labels &= labels - 1) {
		const struct quoted_label *q =
			&quoted_labels[__builtin_ctzll(labels)];

		if (!q->n)
			continue;
		if (!first)
			*o++ = ',';
		first = false;
		memcpy(o, q->s, LABEL_SLOT);
		o += q->n;
	}
	*o++ = ']';
	return o;
}

/* The room for a string of n bytes as JSON and extra bytes more, or
 * SIZE_MAX when that overflows (buf_space() then fails the buffer). */
static size_t string_room(size_t n, size_t extra)
{
	if (n > (SIZE_MAX - extra) / 6 - 1)
		return SIZE_MAX;
	return JSON_CLEAN_ROOM(n) + extra;
}

/* The most a risk name takes: they are short names (cordon_risk_name()),
 * escaped as any string would be. */
#define RISK_NAME_MAX 16

static char *put_risk(char *o, enum cordon_risk risk)
{
	const char *rn = cordon_risk_name(risk);
	size_t n = rn ? strnlen(rn, RISK_NAME_MAX) : 0;

	return json_put_clean_string(o, rn ? rn : "", n);
}

/* The elements of reasons or matchedRules (count/get accessor pairs),
 * comma-separated: the caller writes the brackets with its literals.
 * False when the buffer failed. */
static bool add_strings(struct buf *b, const struct cordon_verdict *v,
			size_t (*count)(const struct cordon_verdict *),
			const char *(*get)(const struct cordon_verdict *,
					   size_t))
{
	size_t n = count(v);

	for (size_t i = 0; i < n; i++) {
		const char *s = get(v, i);
		size_t len = s ? strlen(s) : 0;
		char *start = buf_space(b, string_room(len, 1)), *o = start;

		if (!o)
			return false;
		if (i)
			*o++ = ',';
		o = json_put_clean_string(o, s, len);
		buf_commit(b, (size_t)(o - start));
	}
	return true;
}

/* Every literal a segment's piece may write. */
#define SEGMENT_LITERALS "],\"segments\":[{\"text\":,\"risk\":,\"labels\":}"

/* Written straight into the buffer, piece by piece with one reservation
 * each, in the member order and spelling cJSON_PrintUnformatted gives the
 * same object (test_verdict_json holds the two to each other): building a
 * cJSON tree first cost more than the classification itself in `cordon
 * classify --jsonl`. */
bool verdict_json_add(struct buf *b, const struct cordon_verdict *v)
{
	size_t nseg = cordon_verdict_segment_count(v);
	char *start, *o;

	start = o = buf_space(
		b, sizeof("{\"risk\":,\"labels\":,\"reasons\":[") +
			   JSON_CLEAN_ROOM(RISK_NAME_MAX) + LABELS_ROOM);
	if (!o)
		return false;
	o = PUT_LIT(o, "{\"risk\":");
	o = put_risk(o, cordon_verdict_risk(v));
	o = PUT_LIT(o, ",\"labels\":");
	o = put_labels(o, cordon_verdict_labels(v));
	o = PUT_LIT(o, ",\"reasons\":[");
	buf_commit(b, (size_t)(o - start));
	if (!add_strings(b, v, cordon_verdict_reason_count,
			 cordon_verdict_reason))
		return false;
	for (size_t i = 0; i < nseg; i++) {
		size_t len = 0;
		enum cordon_risk risk = CORDON_RISK_BLOCKED;
		uint64_t labels = 0;
		const char *text =
			cordon_verdict_segment(v, i, &len, &risk, &labels);

		if (!text)
			len = 0;
		start = o = buf_space(
			b, string_room(len,
				       sizeof(SEGMENT_LITERALS) +
					       JSON_CLEAN_ROOM(RISK_NAME_MAX) +
					       LABELS_ROOM));
		if (!o)
			return false;
		if (i == 0)
			o = PUT_LIT(o, "],\"segments\":[{\"text\":");
		else
			o = PUT_LIT(o, ",{\"text\":");
		o = json_put_clean_string(o, text, len);
		o = PUT_LIT(o, ",\"risk\":");
		o = put_risk(o, risk);
		o = PUT_LIT(o, ",\"labels\":");
		o = put_labels(o, labels);
		*o++ = '}';
		buf_commit(b, (size_t)(o - start));
	}
	if (!(nseg ? ADD_LIT(b, "],\"matchedRules\":[") :
		     ADD_LIT(b, "],\"segments\":[],\"matchedRules\":[")) ||
	    !add_strings(b, v, cordon_verdict_rule_count, cordon_verdict_rule))
		return false;
	return cordon_verdict_parsed(v) ? ADD_LIT(b, "],\"parsed\":true}") :
					  ADD_LIT(b, "],\"parsed\":false}");
}

char *cordon_verdict_to_json(const struct cordon_verdict *v)
{
	struct buf b = BUF_INIT(SIZE_MAX / 2);

	if (!v)
		return NULL;
	if (!buf_reserve(&b, 512) || !verdict_json_add(&b, v)) {
		buf_free(&b);
		return NULL;
	}
	return buf_take(&b, NULL);
}
