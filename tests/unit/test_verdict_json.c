/* cordon_verdict_to_json(): the classify object of DESIGN.md, checked
 * against the public accessors for a few commands, including ones with NUL
 * bytes and invalid UTF-8 (the output must stay valid JSON and UTF-8). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cordon.h"
#include "json.h"
#include "tap.h"
#include "verdict_json.h"

/* 1 when s[0..n) is well-formed UTF-8 with no NUL byte. */
static int valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		size_t len;
		uint32_t cp;

		if (c == 0)
			return 0;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			len = 2;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4;
			cp = c & 0x07;
		} else {
			return 0;
		}
		if (n - i < len)
			return 0;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

static int labels_match(const cJSON *arr, uint64_t labels)
{
	const cJSON *item;
	unsigned next = 0;
	uint64_t seen = 0;

	if (!cJSON_IsArray(arr))
		return 0;
	cJSON_ArrayForEach (item, arr) {
		int bit;

		if (!cJSON_IsString(item))
			return 0;
		bit = cordon_label_from_name(item->valuestring,
					     strlen(item->valuestring));
		/* Known names, in bit order, no duplicates. */
		if (bit < 0 || (unsigned)bit < next)
			return 0;
		next = (unsigned)bit + 1;
		seen |= UINT64_C(1) << bit;
	}
	return seen == labels;
}

static int strings_match(const cJSON *arr, size_t n,
			 const char *(*get)(const struct cordon_verdict *,
					    size_t),
			 const struct cordon_verdict *v)
{
	const cJSON *item;
	size_t i = 0;

	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != n)
		return 0;
	cJSON_ArrayForEach (item, arr) {
		const char *want = get(v, i++);

		if (!cJSON_IsString(item))
			return 0;
		if (want &&
		    valid_utf8((const unsigned char *)want, strlen(want)) &&
		    strcmp(item->valuestring, want) != 0)
			return 0;
	}
	return 1;
}

static int segments_match(const cJSON *arr, const struct cordon_verdict *v)
{
	const cJSON *seg;
	size_t i = 0;

	if (!cJSON_IsArray(arr) ||
	    (size_t)cJSON_GetArraySize(arr) != cordon_verdict_segment_count(v))
		return 0;
	cJSON_ArrayForEach (seg, arr) {
		size_t len = 0;
		enum cordon_risk risk;
		uint64_t labels;
		const char *text =
			cordon_verdict_segment(v, i++, &len, &risk, &labels);
		const cJSON *jt = cJSON_GetObjectItemCaseSensitive(seg, "text");
		const cJSON *jr = cJSON_GetObjectItemCaseSensitive(seg, "risk");
		const cJSON *jl =
			cJSON_GetObjectItemCaseSensitive(seg, "labels");

		if (cJSON_GetArraySize(seg) != 3 || !cJSON_IsString(jt) ||
		    !cJSON_IsString(jr) || !labels_match(jl, labels) ||
		    strcmp(jr->valuestring, cordon_risk_name(risk)) != 0)
			return 0;
		if (text && valid_utf8((const unsigned char *)text, len)) {
			if (strlen(jt->valuestring) != len ||
			    memcmp(jt->valuestring, text, len) != 0)
				return 0;
		} else if (text && len &&
			   !strstr(jt->valuestring, "\xef\xbf\xbd")) {
			return 0;
		}
	}
	return 1;
}

/* Classifies cmd[0..len) and checks the JSON against the accessors. */
static void check_command(struct cordon_classifier *cls,
			  struct cordon_verdict *v, const char *name,
			  const char *cmd, size_t len)
{
	static const char *const keys[] = {
		"risk",	   "segments",	   "labels",
		"reasons", "matchedRules", "parsed",
	};
	static const char *const order[] = {
		"risk",	    "labels",	    "reasons",
		"segments", "matchedRules", "parsed",
	};
	struct cordon_context ctx = {
		.cwd = "/home/user/project",
		.workspace = "/home/user/project",
		.home = "/home/user",
		.tmpdir = "/tmp",
	};
	enum cordon_err rc = cordon_classify(cls, &ctx, cmd, len, v, NULL);
	char *json = cordon_verdict_to_json(v);
	cJSON *root, *item;
	int keys_ok = 1, order_ok = 1;
	size_t k = 0;

	ok(rc == CORDON_OK, "%s: classify returns OK (%s)", name,
	   cordon_strerror(rc));
	if (!ok(json != NULL, "%s: to_json returns a string", name)) {
		skip(7, "no JSON");
		return;
	}
	ok(strchr(json, '\n') == NULL &&
		   valid_utf8((unsigned char *)json, strlen(json)),
	   "%s: one line of valid UTF-8", name);
	root = cJSON_Parse(json);
	if (!ok(cJSON_IsObject(root), "%s: parses as an object", name)) {
		diag("%s", json);
		skip(5, "unparsable JSON");
		free(json);
		cJSON_Delete(root);
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!cJSON_HasObjectItem(root, keys[i]))
			keys_ok = 0;
	cJSON_ArrayForEach (item, root) {
		if (k >= sizeof(order) / sizeof(order[0]) ||
		    strcmp(item->string, order[k++]) != 0)
			order_ok = 0;
	}
	ok(keys_ok && order_ok && k == 6, "%s: the six keys, in order", name);

	item = cJSON_GetObjectItemCaseSensitive(root, "risk");
	ok(cJSON_IsString(item) &&
		   strcmp(item->valuestring,
			  cordon_risk_name(cordon_verdict_risk(v))) == 0,
	   "%s: risk matches the accessor", name);
	ok(labels_match(cJSON_GetObjectItemCaseSensitive(root, "labels"),
			cordon_verdict_labels(v)),
	   "%s: labels are the accessor's bits, by name, in bit order", name);
	ok(strings_match(cJSON_GetObjectItemCaseSensitive(root, "reasons"),
			 cordon_verdict_reason_count(v), cordon_verdict_reason,
			 v) &&
		   strings_match(cJSON_GetObjectItemCaseSensitive(
					 root, "matchedRules"),
				 cordon_verdict_rule_count(v),
				 cordon_verdict_rule, v),
	   "%s: reasons and matchedRules match the accessors", name);
	item = cJSON_GetObjectItemCaseSensitive(root, "parsed");
	ok(cJSON_IsBool(item) &&
		   !cJSON_IsTrue(item) == !cordon_verdict_parsed(v) &&
		   segments_match(cJSON_GetObjectItemCaseSensitive(root,
								   "segments"),
				  v),
	   "%s: parsed and segments match the accessors", name);
	cJSON_Delete(root);
	free(json);
}

int main(void)
{
	static const char nul_cmd[] = "echo a\0b; rm -rf /tmp/x\0";
	static const char bad_utf8[] = "echo \xff\xfe \xc0\xaf \xed\xa0\x80 "
				       "\xf4\x90\x80\x80 \xe2\x82 caf\xc3\xa9";
	struct cordon_classifier *cls = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	char *json;

	tap_no_plan();
	if (!ok(cls && v, "classifier and verdict created"))
		return tap_done();

	ok(cordon_verdict_to_json(NULL) == NULL, "to_json(NULL) is NULL");

	check_command(cls, v, "ls", "ls", 2);
	check_command(cls, v, "rm -rf /", "rm -rf /", 8);
	json = cordon_verdict_to_json(v);
	ok(json && strstr(json, "{\"risk\":\"blocked\",") == json,
	   "rm -rf / is blocked, compact output");
	free(json);
	check_command(cls, v, "pipeline", "cat a | grep b && echo \"c\\d\"",
		      28);
	check_command(cls, v, "NUL bytes", nul_cmd, sizeof(nul_cmd) - 1);
	check_command(cls, v, "invalid UTF-8", bad_utf8, sizeof(bad_utf8) - 1);
	check_command(cls, v, "control characters", "echo \x1b[31m\t\x7f\x01",
		      14);
	check_command(cls, v, "unparsable", "echo 'unterminated", 18);
	check_command(cls, v, "empty", "", 0);

	/* rule ids are written without escaping when they are plain names;
	 * a user rule's id may be any text and must still come out as it is */
	{
		struct cordon_user_rule r = {
			.id = "odd \"id\"\\ \x01 caf\xc3\xa9",
			.label = "odd",
			.description = "an id that needs escapes",
			.pattern = "frobnicate",
			.severity = "warning",
		};
		const char *got = NULL;
		ok(cordon_classifier_add_rule(cls, &r, NULL) == CORDON_OK,
		   "a user rule with an odd id is added");
		check_command(cls, v, "user rule id with quotes",
			      "frobnicate x", 12);
		for (size_t i = 0; i < cordon_verdict_rule_count(v); i++)
			if (strcmp(cordon_verdict_rule(v, i), r.id) == 0)
				got = cordon_verdict_rule(v, i);
		ok(got != NULL, "the odd id is among the matched rules");
	}

	/* the writer copies label names between quotes as they are */
	{
		int plain = 1;

		for (unsigned bit = 0; bit < CORDON_LABEL_COUNT; bit++) {
			const char *name = cordon_label_name(bit);

			if (!name || !name[0] ||
			    json_plain_span(name, strlen(name)) != strlen(name))
				plain = 0;
		}
		ok(plain, "every label name needs no escape in JSON");
	}

	/* verdict_json_add(): what the batch writes, after the lines
	 * before it in the same buffer; a buffer that cannot hold it fails */
	{
		struct buf b = BUF_INIT(1 << 20), small = BUF_INIT(40);
		struct cordon_context ctx = { .cwd = "/w", .workspace = "/w" };
		char *one;

		cordon_classify(cls, &ctx, "rm -rf / && echo \"a\"", 20, v,
				NULL);
		one = cordon_verdict_to_json(v);
		buf_adds(&b, "before\n");
		ok(verdict_json_add(&b, v) && one &&
			   strncmp(buf_str(&b), "before\n", 7) == 0 &&
			   strcmp(buf_str(&b) + 7, one) == 0,
		   "verdict_json_add() appends what to_json() returns");
		ok(!verdict_json_add(&small, v) && buf_failed(&small),
		   "verdict_json_add() into a buffer too small fails it");
		free(one);
		buf_free(&b);
		buf_free(&small);
	}

	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return tap_done();
}
