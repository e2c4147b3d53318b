/* userrules — regex rules over command text (PCRE2 with JIT); see the header.
 *
 * Loading is all or nothing: every rule of a JSON document is validated and
 * compiled into a private array first, and only when all of them succeeded
 * (and the memory to hold them is in hand) are they appended to the set.
 *
 * Matching fails closed: a match that PCRE2 gives up on (match, depth or
 * heap limit, JIT stack exhausted, out of memory) counts as a match, so a
 * hostile or unlucky pattern costs bounded time and never lets a command
 * through that the rule might have caught.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "diag.h"
#include "json.h"
#include "userrules.h"
#include "alloc.h"
#include "banned.h"

/* Longest accepted rule id, in bytes. */
#define URULE_ID_MAX 128
/* Bounds on one match. The match limit caps backtracking work (about a
 * millisecond with JIT); the depth and heap limits only apply to the
 * interpreter, used when JIT is unavailable. */
#define URULE_MATCH_LIMIT 100000u
#define URULE_DEPTH_LIMIT 1000u
#define URULE_HEAP_LIMIT_KIB 16384u
/* JIT stack: starts small, may grow to 1 MiB before a match gives up. */
#define URULE_JIT_STACK_MIN (32u * 1024u)
#define URULE_JIT_STACK_MAX (1024u * 1024u)
/* A set JIT-compiles its patterns (and makes its JIT stack) once it has
 * matched this many texts. Compiling the built-in deny patterns costs
 * about 1 M instructions, more than interpreting them on a few lines, and
 * a hook process classifies one line; `classify --jsonl` over thousands
 * reaches it on its ninth. */
#define URULE_JIT_AFTER 8u
/* Longest piece of input text quoted back in a message. */
#define URULE_QUOTE_MAX 48

struct urule {
	char *strings; /* owns one block: id, label, description, category */
	const char *id;
	const char *label;
	const char *description;
	const char *category;
	pcre2_code *code; /* owned */
	enum cordon_risk tier;
	uint64_t labels;
	bool windows; /* kept, never matched here */
	bool jit; /* pcre2_jit_compile was tried */
};

struct urules {
	struct urule *rules; /* owned, n used of cap */
	size_t n;
	size_t cap;
	size_t max;
	pcre2_match_context *mctx; /* owned */
	pcre2_jit_stack *jit_stack; /* owned; NULL without JIT (yet) */
	pcre2_match_data *md; /* owned; shared by every match */
	uint32_t md_pairs;
	unsigned matched; /* texts matched, up to URULE_JIT_AFTER */
};

/* The fields of one rule as text, before validation. NULL = absent. */
enum urule_field {
	UF_ID,
	UF_LABEL,
	UF_DESCRIPTION,
	UF_PATTERN,
	UF_CATEGORY,
	UF_SEVERITY,
	UF_PLATFORM,
	UF_COUNT
};

static const char *const urule_field_names[UF_COUNT] = {
	[UF_ID] = "id",
	[UF_LABEL] = "label",
	[UF_DESCRIPTION] = "description",
	[UF_PATTERN] = "pattern",
	[UF_CATEGORY] = "category",
	[UF_SEVERITY] = "severity",
	[UF_PLATFORM] = "platform",
};

/* A validated rule, still borrowing its strings. */
struct urule_spec {
	const char *id;
	const char *label;
	const char *description;
	const char *pattern;
	const char *category;
	enum cordon_risk tier;
	uint64_t labels;
	bool windows;
};

/* The 1-based line and column (in bytes) of offset within text. */
static void text_position(const char *text, size_t offset, unsigned *line,
			  unsigned *column)
{
	size_t line_start = 0;

	*line = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			if (*line < UINT_MAX)
				(*line)++;
			line_start = i + 1;
		}
	}
	*column = offset - line_start < UINT_MAX ?
			  (unsigned)(offset - line_start + 1) :
			  UINT_MAX;
}

/* A JSON error at offset in json: what happened, where (line, column). */
static enum cordon_err json_error(struct cordon_diag *diag, const char *json,
				  size_t offset, const char *what)
{
	unsigned line;
	unsigned column;

	text_position(json, offset, &line, &column);
	diag_at(diag, CORDON_E_JSON, offset,
		"%s at line %u, column %u (byte %zu)", what, line, column,
		offset);
	if (diag) {
		diag->line = line;
		diag->column = column;
	}
	return CORDON_E_JSON;
}

/* Copies s into out (outsz bytes) for quoting in a message: at most
 * URULE_QUOTE_MAX bytes, control bytes, quotes and backslashes shown as '?',
 * "..." when cut. */
static void quote_text(char *out, size_t outsz, const char *s)
{
	size_t room = outsz > 4 ? outsz - 4 : 0;
	size_t o = 0;
	size_t i;

	if (room > URULE_QUOTE_MAX)
		room = URULE_QUOTE_MAX;
	for (i = 0; s[i] && i < room; i++) {
		unsigned char c = (unsigned char)s[i];

		out[o++] = (c < 0x20 || c == 0x7f || c == '"' || c == '\\') ?
				   '?' :
				   (char)c;
	}
	if (s[i] && outsz >= 4) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	if (outsz)
		out[o] = '\0';
}

static void rule_release(struct urule *r)
{
	free(r->strings);
	pcre2_code_free(r->code);
	memset(r, 0, sizeof(*r));
}

struct urules *userrules_new(size_t max_rules)
{
	struct urules *u = cordon__calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->max = max_rules;
	u->mctx = pcre2_match_context_create(NULL);
	u->md = pcre2_match_data_create(1, NULL);
	if (!u->mctx || !u->md) {
		userrules_free(u);
		return NULL;
	}
	u->md_pairs = 1;
	pcre2_set_match_limit(u->mctx, URULE_MATCH_LIMIT);
	pcre2_set_depth_limit(u->mctx, URULE_DEPTH_LIMIT);
	pcre2_set_heap_limit(u->mctx, URULE_HEAP_LIMIT_KIB);
	return u;
}

void userrules_free(struct urules *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++)
		rule_release(&u->rules[i]);
	free(u->rules);
	pcre2_match_data_free(u->md);
	pcre2_jit_stack_free(u->jit_stack);
	pcre2_match_context_free(u->mctx);
	free(u);
}

size_t userrules_jit_count(const struct urules *u)
{
	size_t k = 0;

	for (size_t i = 0; u && i < u->n; i++) {
		size_t size = 0;

		if (u->rules[i].jit &&
		    pcre2_pattern_info(u->rules[i].code, PCRE2_INFO_JITSIZE,
				       &size) == 0 &&
		    size > 0)
			k++;
	}
	return k;
}

size_t userrules_count(const struct urules *u)
{
	return u ? u->n : 0;
}

/* Checks the text fields of one rule (f[UF_*], NULL = absent) and turns
 * them into *spec. prefix names the rule in messages ("rules[2]", "[2]",
 * "rule"). Uniqueness of the id is the caller's job. */
static enum cordon_err spec_from_fields(const char *const f[UF_COUNT],
					const char *prefix,
					struct urule_spec *spec,
					struct cordon_diag *diag)
{
	static const enum urule_field required[] = { UF_ID, UF_PATTERN,
						     UF_SEVERITY };
	const char *sev = f[UF_SEVERITY];
	const char *plat = f[UF_PLATFORM];
	char q[URULE_QUOTE_MAX + 4];
	size_t idlen;

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		if (!f[required[i]])
			return diag_at(diag, CORDON_E_CONFIG, 0,
				       "%s.%s: required field missing", prefix,
				       urule_field_names[required[i]]);
	}
	idlen = strlen(f[UF_ID]);
	if (idlen == 0)
		return diag_at(diag, CORDON_E_CONFIG, 0,
			       "%s.id: must not be empty", prefix);
	if (idlen > URULE_ID_MAX)
		return diag_at(diag, CORDON_E_CONFIG, 0,
			       "%s.id: %zu bytes, longer than the limit of %d",
			       prefix, idlen, URULE_ID_MAX);
	if (f[UF_PATTERN][0] == '\0')
		return diag_at(diag, CORDON_E_CONFIG, 0,
			       "%s.pattern: must not be empty", prefix);

	memset(spec, 0, sizeof(*spec));
	if (strcmp(sev, "critical") == 0) {
		spec->tier = CORDON_RISK_BLOCKED;
	} else if (strcmp(sev, "warning") == 0) {
		spec->tier = CORDON_RISK_CAUTION;
	} else {
		quote_text(q, sizeof(q), sev);
		return diag_at(
			diag, CORDON_E_CONFIG, 0,
			"%s.severity: \"%s\" is not one of: critical, warning",
			prefix, q);
	}
	if (!plat || strcmp(plat, "all") == 0 || strcmp(plat, "unix") == 0) {
		spec->windows = false;
	} else if (strcmp(plat, "windows") == 0) {
		spec->windows = true;
	} else {
		quote_text(q, sizeof(q), plat);
		return diag_at(
			diag, CORDON_E_CONFIG, 0,
			"%s.platform: \"%s\" is not one of: all, unix, windows",
			prefix, q);
	}
	spec->id = f[UF_ID];
	spec->label = f[UF_LABEL] ? f[UF_LABEL] : "";
	spec->description = f[UF_DESCRIPTION] ? f[UF_DESCRIPTION] : "";
	spec->pattern = f[UF_PATTERN];
	spec->category = f[UF_CATEGORY] ? f[UF_CATEGORY] : "";
	spec->labels = CORDON_L(USER_RULE);
	return CORDON_OK;
}

/* Appends s and its NUL at *pos in block; returns where it went. */
static const char *block_put(char *block, size_t *pos, const char *s,
			     size_t len)
{
	char *at = block + *pos;

	memcpy(at, s, len);
	at[len] = '\0';
	*pos += len + 1;
	return at;
}

/* Compiles spec into *out (zeroed on failure), copying its strings.
 * Patterns are compiled without UTF (and may not switch it on) because
 * commands are arbitrary bytes: a UTF pattern would make every invalid
 * UTF-8 subject an error. */
static enum cordon_err rule_build(const struct urule_spec *spec,
				  const char *prefix, struct urule *out,
				  struct cordon_diag *diag)
{
	const char *parts[4] = { spec->id, spec->label, spec->description,
				 spec->category };
	size_t lens[4];
	size_t total = 0;
	size_t pos = 0;
	int errcode;
	PCRE2_SIZE erroff;
	char q[URULE_QUOTE_MAX + 4];

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < 4; i++) {
		lens[i] = strlen(parts[i]);
		if (lens[i] >= SIZE_MAX - total)
			return diag_at(diag, CORDON_E_NOMEM, 0,
				       "%s: rule text too large", prefix);
		total += lens[i] + 1;
	}

	out->code = pcre2_compile((PCRE2_SPTR)spec->pattern,
				  PCRE2_ZERO_TERMINATED, PCRE2_NEVER_UTF,
				  &errcode, &erroff, NULL);
	if (!out->code) {
		PCRE2_UCHAR msg[160];

		if (pcre2_get_error_message(errcode, msg, sizeof(msg)) < 0)
			snprintf((char *)msg, sizeof(msg), "error %d", errcode);
		quote_text(q, sizeof(q), spec->id);
		return diag_at(diag, CORDON_E_REGEX, erroff,
			       "%s (id \"%s\"): pattern: %s at offset %zu",
			       prefix, q, (const char *)msg, (size_t)erroff);
	}
	/* JIT comes later (jit_rule): after URULE_JIT_AFTER texts. */

	out->strings = cordon__malloc(total);
	if (!out->strings) {
		pcre2_code_free(out->code);
		out->code = NULL;
		return diag_at(diag, CORDON_E_NOMEM, 0, "%s: out of memory",
			       prefix);
	}
	out->id = block_put(out->strings, &pos, parts[0], lens[0]);
	out->label = block_put(out->strings, &pos, parts[1], lens[1]);
	out->description = block_put(out->strings, &pos, parts[2], lens[2]);
	out->category = block_put(out->strings, &pos, parts[3], lens[3]);
	out->tier = spec->tier;
	out->labels = spec->labels;
	out->windows = spec->windows;
	return CORDON_OK;
}

static uint32_t rule_pairs(const struct urule *r)
{
	uint32_t captures = 0;

	if (pcre2_pattern_info(r->code, PCRE2_INFO_CAPTURECOUNT, &captures) !=
	    0)
		captures = 0;
	return captures < UINT16_MAX ? captures + 1 : UINT16_MAX;
}

/* Moves rules add[0..k) into the set, taking ownership. On failure (out of
 * memory) nothing is moved and the caller still owns add[]. */
static enum cordon_err rules_commit(struct urules *u, struct urule *add,
				    size_t k, struct cordon_diag *diag)
{
	uint32_t pairs = u->md_pairs;
	pcre2_match_data *md = NULL;

	for (size_t i = 0; i < k; i++) {
		uint32_t p = rule_pairs(&add[i]);

		if (p > pairs)
			pairs = p;
	}
	if (pairs > u->md_pairs) {
		md = pcre2_match_data_create(pairs, NULL);
		if (!md)
			goto nomem;
	}
	if (k > u->cap - u->n) {
		size_t cap = u->cap ? u->cap : 8;
		struct urule *grown;

		while (cap - u->n < k) {
			if (cap > SIZE_MAX / 2 / sizeof(*grown))
				goto nomem;
			cap *= 2;
		}
		grown = cordon__realloc(u->rules, cap * sizeof(*grown));
		if (!grown)
			goto nomem;
		u->rules = grown;
		u->cap = cap;
	}
	if (md) {
		pcre2_match_data_free(u->md);
		u->md = md;
		u->md_pairs = pairs;
	}
	if (k)
		memcpy(u->rules + u->n, add, k * sizeof(*add));
	u->n += k;
	return CORDON_OK;
nomem:
	pcre2_match_data_free(md);
	return diag_at(diag, CORDON_E_NOMEM, 0, "out of memory adding rules");
}

static bool id_taken(const struct urules *u, const char *id)
{
	for (size_t i = 0; i < u->n; i++)
		if (strcmp(u->rules[i].id, id) == 0)
			return true;
	return false;
}

static enum cordon_err room_for(const struct urules *u, size_t k,
				struct cordon_diag *diag)
{
	if (u->n > u->max || k > u->max - u->n)
		return diag_at(
			diag, CORDON_E_LIMIT, 0,
			"%zu new rules with %zu loaded would exceed max_rules (%zu)",
			k, u->n, u->max);
	return CORDON_OK;
}

/* ---- JSON ---------------------------------------------------------------- */

/* A set of ids for duplicate detection while loading (open addressing). */
struct idset {
	const char **slot;
	size_t mask;
};

static uint64_t id_hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(1099511628211);
	}
	return h;
}

static bool idset_init(struct idset *set, size_t n)
{
	size_t size = 16;

	while (size / 2 < n) {
		if (size > SIZE_MAX / 2 / sizeof(*set->slot))
			return false;
		size *= 2;
	}
	set->slot = cordon__calloc(size, sizeof(*set->slot));
	set->mask = size - 1;
	return set->slot != NULL;
}

/* Adds id (borrowed); false when it was already there. */
static bool idset_add(struct idset *set, const char *id)
{
	size_t i = (size_t)id_hash(id) & set->mask;

	while (set->slot[i]) {
		if (strcmp(set->slot[i], id) == 0)
			return false;
		i = (i + 1) & set->mask;
	}
	set->slot[i] = id;
	return true;
}

/* cJSON stops at a NUL byte and cuts a string at "\u0000" without saying
 * so; both would make the rule differ from what the file says. Returns the
 * offset of the first one (setting *what), or len. */
static size_t json_hidden_nul(const char *s, size_t len, const char **what)
{
	const char *nul = memchr(s, '\0', len);

	if (nul) {
		*what = "NUL byte in input";
		return (size_t)(nul - s);
	}
	size_t at = json_nul_escape_at(s, len);
	if (at < len)
		*what = "\\u0000 escape in a string";
	return at;
}

/* Reads one rule object into its text fields, rejecting unknown and
 * repeated keys and non-string values (null counts as absent for the
 * optional fields). */
static enum cordon_err fields_from_json(const cJSON *obj, const char *prefix,
					const char *f[UF_COUNT],
					struct cordon_diag *diag)
{
	bool seen[UF_COUNT] = { false };
	char q[URULE_QUOTE_MAX + 4];

	if (!cJSON_IsObject(obj))
		return diag_at(diag, CORDON_E_CONFIG, 0,
			       "%s: expected an object", prefix);
	for (size_t i = 0; i < UF_COUNT; i++)
		f[i] = NULL;
	for (const cJSON *c = obj->child; c; c = c->next) {
		const char *key = c->string ? c->string : "";
		size_t k;

		for (k = 0; k < UF_COUNT; k++)
			if (strcmp(key, urule_field_names[k]) == 0)
				break;
		if (k == UF_COUNT) {
			quote_text(q, sizeof(q), key);
			return diag_at(diag, CORDON_E_CONFIG, 0,
				       "%s.%s: unknown field", prefix, q);
		}
		if (seen[k])
			return diag_at(diag, CORDON_E_CONFIG, 0,
				       "%s.%s: field given twice", prefix,
				       urule_field_names[k]);
		seen[k] = true;
		if (cJSON_IsNull(c) && k != UF_ID && k != UF_PATTERN &&
		    k != UF_SEVERITY)
			continue;
		if (!cJSON_IsString(c) || !c->valuestring)
			return diag_at(diag, CORDON_E_CONFIG, 0,
				       "%s.%s: expected a string", prefix,
				       urule_field_names[k]);
		f[k] = c->valuestring;
	}
	return CORDON_OK;
}

/* Finds the array of rules in the parsed document and says how to name
 * its elements: "rules[i]" under {"rules": ...}, "[i]" for a bare array. */
static enum cordon_err rules_array(const cJSON *root, const cJSON **arr,
				   bool *wrapped, struct cordon_diag *diag)
{
	const cJSON *found = NULL;
	char q[URULE_QUOTE_MAX + 4];

	if (cJSON_IsArray(root)) {
		*arr = root;
		*wrapped = false;
		return CORDON_OK;
	}
	if (!cJSON_IsObject(root))
		return diag_at(
			diag, CORDON_E_CONFIG, 0,
			"expected an array of rules or an object with \"rules\"");
	for (const cJSON *c = root->child; c; c = c->next) {
		const char *key = c->string ? c->string : "";

		if (strcmp(key, "rules") != 0) {
			quote_text(q, sizeof(q), key);
			return diag_at(diag, CORDON_E_CONFIG, 0,
				       "%s: unknown field (expected \"rules\")",
				       q);
		}
		if (found)
			return diag_at(diag, CORDON_E_CONFIG, 0,
				       "rules: field given twice");
		found = c;
	}
	if (!found)
		return diag_at(diag, CORDON_E_CONFIG, 0,
			       "rules: required field missing");
	if (!cJSON_IsArray(found))
		return diag_at(diag, CORDON_E_CONFIG, 0,
			       "rules: expected an array");
	*arr = found;
	*wrapped = true;
	return CORDON_OK;
}

/* Parses json[0..len) with cJSON, reporting syntax errors with their
 * position. The error position comes from this call's return_parse_end,
 * not the process-global cJSON_GetErrorPtr(). */
static enum cordon_err json_parse(const char *json, size_t len, cJSON **out,
				  struct cordon_diag *diag)
{
	const char *what = NULL;
	const char *end = NULL;
	size_t off;
	cJSON *root;

	*out = NULL;
	if (len == 0)
		return json_error(diag, json, 0, "empty input");
	off = json_hidden_nul(json, len, &what);
	if (off < len)
		return json_error(diag, json, off, what);
	root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	if (!root) {
		off = (end && end >= json && (size_t)(end - json) <= len) ?
			      (size_t)(end - json) :
			      0;
		return json_error(diag, json, off, "JSON syntax error");
	}
	off = (end && end >= json && (size_t)(end - json) <= len) ?
		      (size_t)(end - json) :
		      len;
	while (off < len && (json[off] == ' ' || json[off] == '\t' ||
			     json[off] == '\n' || json[off] == '\r'))
		off++;
	if (off < len) {
		cJSON_Delete(root);
		return json_error(diag, json, off,
				  "unexpected data after the JSON value");
	}
	*out = root;
	return CORDON_OK;
}

/* Validates and compiles every element of arr into add[] (k elements). On
 * error the rules built so far are released and add[] is all zero. */
static enum cordon_err build_all(const struct urules *u, const cJSON *arr,
				 bool wrapped, struct urule *add, size_t k,
				 struct cordon_diag *diag)
{
	struct idset ids;
	enum cordon_err err = CORDON_OK;
	const cJSON *el = arr->child;
	size_t built = 0;

	if (u->n > SIZE_MAX - k || !idset_init(&ids, u->n + k))
		return diag_at(diag, CORDON_E_NOMEM, 0,
			       "out of memory loading rules");
	for (size_t i = 0; i < u->n; i++)
		idset_add(&ids, u->rules[i].id);

	for (; el && built < k; el = el->next, built++) {
		const char *f[UF_COUNT];
		struct urule_spec spec;
		char prefix[40];
		char q[URULE_QUOTE_MAX + 4];

		snprintf(prefix, sizeof(prefix), "%s[%zu]",
			 wrapped ? "rules" : "", built);
		err = fields_from_json(el, prefix, f, diag);
		if (err == CORDON_OK)
			err = spec_from_fields(f, prefix, &spec, diag);
		if (err == CORDON_OK && !idset_add(&ids, spec.id)) {
			quote_text(q, sizeof(q), spec.id);
			err = diag_at(diag, CORDON_E_CONFIG, 0,
				      "%s.id: duplicate id \"%s\"", prefix, q);
		}
		if (err == CORDON_OK)
			err = rule_build(&spec, prefix, &add[built], diag);
		if (err != CORDON_OK)
			break;
	}
	free(ids.slot);
	if (err != CORDON_OK) {
		for (size_t i = 0; i < built; i++)
			rule_release(&add[i]);
	}
	return err;
}

enum cordon_err userrules_add_json(struct urules *u, const char *json, size_t len,
				size_t max_bytes, struct cordon_diag *diag)
{
	const cJSON *arr = NULL;
	cJSON *root = NULL;
	struct urule *add = NULL;
	bool wrapped = false;
	enum cordon_err err;
	size_t k = 0;

	if (!u || (!json && len))
		return diag_at(diag, CORDON_E_INVAL, 0,
			       "no rule set or no input");
	if (len > max_bytes)
		return diag_at(
			diag, CORDON_E_LIMIT, 0,
			"rules input is %zu bytes, over max_rules_bytes (%zu)",
			len, max_bytes);
	err = json_parse(json ? json : "", len, &root, diag);
	if (err != CORDON_OK)
		return err;
	err = rules_array(root, &arr, &wrapped, diag);
	if (err != CORDON_OK)
		goto out;
	for (const cJSON *c = arr->child; c; c = c->next)
		k++;
	err = room_for(u, k, diag);
	if (err != CORDON_OK)
		goto out;
	if (k) {
		add = cordon__calloc(k, sizeof(*add));
		if (!add) {
			err = diag_at(diag, CORDON_E_NOMEM, 0,
				      "out of memory loading rules");
			goto out;
		}
	}
	err = build_all(u, arr, wrapped, add, k, diag);
	if (err != CORDON_OK)
		goto out;
	err = rules_commit(u, add, k, diag);
	if (err != CORDON_OK) {
		for (size_t i = 0; i < k; i++)
			rule_release(&add[i]);
		goto out;
	}
	diag_clear(diag);
out:
	free(add);
	cJSON_Delete(root);
	return err;
}

/* ---- C API ------------------------------------------------------------- */

/* Adds one validated spec: id unique, room left, compiled, committed. */
static enum cordon_err add_one(struct urules *u, const struct urule_spec *spec,
			       enum cordon_err dup_code,
			       struct cordon_diag *diag)
{
	struct urule r;
	enum cordon_err err;
	char q[URULE_QUOTE_MAX + 4];

	if (id_taken(u, spec->id)) {
		quote_text(q, sizeof(q), spec->id);
		return diag_at(diag, dup_code, 0,
			       "rule.id: duplicate id \"%s\"", q);
	}
	err = room_for(u, 1, diag);
	if (err != CORDON_OK)
		return err;
	err = rule_build(spec, "rule", &r, diag);
	if (err != CORDON_OK)
		return err;
	err = rules_commit(u, &r, 1, diag);
	if (err != CORDON_OK) {
		rule_release(&r);
		return err;
	}
	diag_clear(diag);
	return CORDON_OK;
}

enum cordon_err userrules_add(struct urules *u, const struct cordon_user_rule *r,
			   struct cordon_diag *diag)
{
	const char *f[UF_COUNT];
	struct urule_spec spec;
	enum cordon_err err;

	if (!u || !r)
		return diag_at(diag, CORDON_E_INVAL, 0,
			       "no rule set or no rule");
	f[UF_ID] = r->id;
	f[UF_LABEL] = r->label;
	f[UF_DESCRIPTION] = r->description;
	f[UF_PATTERN] = r->pattern;
	f[UF_CATEGORY] = r->category;
	f[UF_SEVERITY] = r->severity;
	f[UF_PLATFORM] = r->platform;
	err = spec_from_fields(f, "rule", &spec, diag);
	if (err != CORDON_OK)
		return err;
	return add_one(u, &spec, CORDON_E_CONFIG, diag);
}

enum cordon_err userrules_add_pattern(struct urules *u, const char *id,
				   const char *pattern, enum cordon_risk tier,
				   uint64_t labels, const char *description,
				   struct cordon_diag *diag)
{
	struct urule_spec spec;
	size_t idlen;

	if (!u || !id || !pattern)
		return diag_at(diag, CORDON_E_INVAL, 0,
			       "no rule set, id or pattern");
	idlen = strlen(id);
	if (idlen == 0 || idlen > URULE_ID_MAX)
		return diag_at(diag, CORDON_E_INVAL, 0,
			       "rule.id: must be 1 to %d bytes (is %zu)",
			       URULE_ID_MAX, idlen);
	if (pattern[0] == '\0')
		return diag_at(diag, CORDON_E_INVAL, 0,
			       "rule.pattern: must not be empty");
	if ((unsigned)tier > (unsigned)CORDON_RISK_BLOCKED)
		return diag_at(diag, CORDON_E_INVAL, 0,
			       "rule: tier %d out of range", (int)tier);
	memset(&spec, 0, sizeof(spec));
	spec.id = id;
	spec.label = "";
	spec.description = description ? description : "";
	spec.pattern = pattern;
	spec.category = "";
	spec.tier = tier;
	spec.labels = labels;
	return add_one(u, &spec, CORDON_E_INVAL, diag);
}

/* ---- matching ------------------------------------------------------------ */

/* JIT is an accelerator only: without it (no JIT in this PCRE2, or out of
 * executable memory) pcre2_match runs the interpreter under the same
 * limits, as it does for a set's first URULE_JIT_AFTER texts. */
static void jit_rule(struct urules *u, struct urule *r)
{
	r->jit = true;
	/* NULL when this PCRE2 has no JIT: the stack is never needed. */
	if (!u->jit_stack) {
		u->jit_stack = pcre2_jit_stack_create(URULE_JIT_STACK_MIN,
						      URULE_JIT_STACK_MAX, NULL);
		if (u->jit_stack)
			pcre2_jit_stack_assign(u->mctx, NULL, u->jit_stack);
	}
	(void)pcre2_jit_compile(r->code, PCRE2_JIT_COMPLETE);
}

size_t userrules_match(struct urules *u, const char *text, size_t len,
		    void (*cb)(void *ud, const struct urule_match *m), void *ud)
{
	size_t hits = 0;

	if (!u)
		return 0;
	if (!text) {
		text = "";
		len = 0;
	}
	for (size_t i = 0; i < u->n; i++) {
		struct urule *r = &u->rules[i];
		struct urule_match m;
		int rc;

		if (r->windows)
			continue;
		if (!r->jit && u->matched == URULE_JIT_AFTER)
			jit_rule(u, r); /* from the set's ninth text on */
		rc = pcre2_match(r->code, (PCRE2_SPTR)text, len, 0, 0, u->md,
				 u->mctx);
		/* Any outcome but "no match" is a match: fail closed when
		 * a limit stops the search. */
		if (rc == PCRE2_ERROR_NOMATCH)
			continue;
		hits++;
		if (!cb)
			continue;
		m.id = r->id;
		m.label = r->label;
		m.description = r->description;
		m.category = r->category;
		m.tier = r->tier;
		m.labels = r->labels;
		cb(ud, &m);
	}
	if (u->matched < URULE_JIT_AFTER)
		u->matched++;
	return hits;
}
