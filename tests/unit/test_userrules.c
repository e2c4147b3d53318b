/* userrules: loading rules from JSON and the C API, validation messages,
 * all-or-nothing loading, limits, and matching (fail closed on limits). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cordon.h"
#include "tap.h"
#include "userrules.h"

#define MAX_BYTES (1024 * 1024)

struct hits {
	size_t n;
	struct urule_match m[16];
};

static void collect(void *ud, const struct urule_match *m)
{
	struct hits *h = ud;

	if (h->n < sizeof(h->m) / sizeof(h->m[0]))
		h->m[h->n] = *m;
	h->n++;
}

static enum cordon_err load(struct urules *u, const char *json,
			    struct cordon_diag *d)
{
	return userrules_add_json(u, json, strlen(json), MAX_BYTES, d);
}

/* Matches text (NUL-terminated) and returns the hits in *h. */
static size_t match(struct urules *u, const char *text, struct hits *h)
{
	memset(h, 0, sizeof(*h));
	return userrules_match(u, text, strlen(text), collect, h);
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_valid_forms(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	struct hits h;

	ok(u != NULL, "userrules_new");
	is_int((long long)userrules_count(u), 0, "a new set is empty");
	is_int(load(u,
		    "[{\"id\": \"no-curl\", \"label\": \"Curl\","
		    " \"description\": \"no curl here\","
		    " \"pattern\": \"\\\\bcurl\\\\b\", \"category\": \"net\","
		    " \"severity\": \"warning\", \"platform\": \"all\"}]",
		    &d),
	       CORDON_OK, "bare array loads");
	is_int(d.code, CORDON_OK, "diag code is OK after success");
	is_int(load(u,
		    "{\"rules\": [{\"id\": \"no-shutdown\","
		    " \"pattern\": \"shutdown\", \"severity\": \"critical\","
		    " \"platform\": \"unix\"}]}",
		    &d),
	       CORDON_OK, "{\"rules\": [...]} loads");
	is_int((long long)userrules_count(u), 2, "two rules loaded");
	is_int(load(u, "[]", &d), CORDON_OK, "an empty array loads");
	is_int(load(u, " {\"rules\": []} \n", &d), CORDON_OK,
	       "an empty rules object loads, whitespace around it");
	is_int((long long)userrules_count(u), 2, "empty sets add nothing");

	is_int((long long)match(u, "curl -s x && shutdown -h now", &h), 2,
	       "both rules match");
	ok(h.n == 2 && strcmp(h.m[0].id, "no-curl") == 0 &&
		   strcmp(h.m[1].id, "no-shutdown") == 0,
	   "callbacks come in load order");
	is_int(h.m[0].tier, CORDON_RISK_CAUTION, "warning -> caution");
	is_int(h.m[1].tier, CORDON_RISK_BLOCKED, "critical -> blocked");
	ok(h.m[0].labels == CORDON_L(USER_RULE) &&
		   h.m[1].labels == CORDON_L(USER_RULE),
	   "user rules carry the user-rule label");
	is_str(h.m[0].label, "Curl", "label passed through");
	is_str(h.m[0].description, "no curl here",
	       "description passed through");
	is_str(h.m[0].category, "net", "category passed through");
	ok(strcmp(h.m[1].label, "") == 0 &&
		   strcmp(h.m[1].description, "") == 0 &&
		   strcmp(h.m[1].category, "") == 0,
	   "absent optional fields read as \"\"");
	is_int((long long)match(u, "curly fries", &h), 0,
	       "\\b in the pattern is honoured");
	userrules_free(u);
}

static void test_platform_and_nulls(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	struct hits h;

	is_int(load(u,
		    "[{\"id\": \"win\", \"pattern\": \"del\", \"severity\":"
		    " \"critical\", \"platform\": \"windows\"},"
		    " {\"id\": \"nul\", \"pattern\": \"del\", \"severity\":"
		    " \"warning\", \"label\": null, \"category\": null}]",
		    &d),
	       CORDON_OK, "windows rule and null optional fields load");
	is_int((long long)userrules_count(u), 2, "the windows rule is kept");
	is_int((long long)match(u, "del /s /q C:\\", &h), 1,
	       "only the non-windows rule matches");
	is_str(h.n ? h.m[0].id : NULL, "nul", "and it is the unix one");
	is_int(load(u,
		    "[{\"id\": \"p\", \"pattern\": \"x\", \"severity\":"
		    " \"warning\", \"platform\": \"darwin\"}]",
		    &d),
	       CORDON_E_CONFIG, "unknown platform refused");
	ok(strstr(d.message, "[0].platform") &&
		   strstr(d.message, "all, unix, windows"),
	   "platform error lists the allowed values: %s", d.message);
	is_int(load(u,
		    "[{\"id\": null, \"pattern\": \"x\", \"severity\":"
		    " \"warning\"}]",
		    &d),
	       CORDON_E_CONFIG, "null for a required field refused");
	is_str(d.message, "[0].id: expected a string", "null id message");
	userrules_free(u);
}

static void test_schema_errors(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;

	is_int(load(u,
		    "{\"rules\": [{\"id\": \"a\", \"pattern\": \"a\","
		    " \"severity\": \"warning\"}, {\"id\": \"b\", \"pattern\":"
		    " \"b\", \"severity\": \"warning\"}, {\"id\": \"c\","
		    " \"pattern\": \"c\", \"sevrity\": \"warning\"}]}",
		    &d),
	       CORDON_E_CONFIG, "unknown field refused");
	is_str(d.message, "rules[2].sevrity: unknown field",
	       "unknown field named with its path");
	is_int((long long)userrules_count(u), 0,
	       "all or nothing: the two good rules were not added");

	load(u, "[{\"id\": \"a\", \"pattern\": 5, \"severity\": \"warning\"}]",
	     &d);
	is_str(d.message, "[0].pattern: expected a string",
	       "wrong type named (bare array path)");
	load(u,
	     "{\"rules\": [{\"id\": \"a\", \"pattern\": \"a\","
	     " \"severity\": [\"warning\"]}]}",
	     &d);
	is_str(d.message, "rules[0].severity: expected a string",
	       "wrong type named (rules path)");
	load(u,
	     "{\"rules\": [{\"pattern\": \"a\", \"severity\": \"warning\"}]}",
	     &d);
	is_str(d.message, "rules[0].id: required field missing", "missing id");
	load(u, "[{\"id\": \"a\", \"severity\": \"warning\"}]", &d);
	is_str(d.message, "[0].pattern: required field missing",
	       "missing pattern");
	is_int(load(u, "[{\"id\": \"a\", \"pattern\": \"a\"}]", &d),
	       CORDON_E_CONFIG, "missing severity is a config error");
	is_str(d.message, "[0].severity: required field missing",
	       "missing severity");
	load(u, "[{\"id\": \"a\", \"pattern\": \"a\", \"severity\": \"high\"}]",
	     &d);
	is_str(d.message,
	       "[0].severity: \"high\" is not one of: critical, warning",
	       "bad severity lists the allowed values");
	load(u,
	     "[{\"id\": \"\", \"pattern\": \"a\", \"severity\": \"warning\"}]",
	     &d);
	is_str(d.message, "[0].id: must not be empty", "empty id refused");
	load(u,
	     "[{\"id\": \"a\", \"pattern\": \"\", \"severity\": \"warning\"}]",
	     &d);
	is_str(d.message, "[0].pattern: must not be empty",
	       "empty pattern refused");
	load(u,
	     "[{\"id\": \"a\", \"id\": \"b\", \"pattern\": \"a\","
	     " \"severity\": \"warning\"}]",
	     &d);
	is_str(d.message, "[0].id: field given twice", "repeated key refused");
	load(u,
	     "[{\"id\": \"a\", \"pattern\": \"a\", \"severity\": \"warning\"},"
	     " 7]",
	     &d);
	is_str(d.message, "[1]: expected an object",
	       "a non-object element is refused");
	load(u,
	     "[{\"id\": \"a\", \"pattern\": \"a\", \"severity\": \"warning\","
	     " \"extra\": {\"id\": \"b\"}}]",
	     &d);
	is_str(d.message, "[0].extra: unknown field",
	       "a nested rule object is refused");
	load(u, "{\"rules\": [], \"version\": 2}", &d);
	is_str(d.message, "version: unknown field (expected \"rules\")",
	       "unknown top-level key named");
	load(u, "{}", &d);
	is_str(d.message, "rules: required field missing",
	       "an object without rules");
	load(u, "{\"rules\": {}}", &d);
	is_str(d.message, "rules: expected an array", "rules must be an array");
	is_int(load(u, "\"rules\"", &d), CORDON_E_CONFIG,
	       "a scalar document is refused");
	is_int((long long)userrules_count(u), 0, "nothing was added by any of it");
	userrules_free(u);
}

static void test_ids(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	char json[512];
	char id[200];

	is_int(load(u,
		    "[{\"id\": \"a\", \"pattern\": \"a\", \"severity\":"
		    " \"warning\"}, {\"id\": \"a\", \"pattern\": \"b\","
		    " \"severity\": \"warning\"}]",
		    &d),
	       CORDON_E_CONFIG, "duplicate id within a set refused");
	is_str(d.message, "[1].id: duplicate id \"a\"",
	       "duplicate id named with its path");
	is_int(load(u,
		    "[{\"id\": \"a\", \"pattern\": \"a\", \"severity\":"
		    " \"warning\"}]",
		    &d),
	       CORDON_OK, "id a loads");
	is_int(load(u,
		    "{\"rules\": [{\"id\": \"b\", \"pattern\": \"a\","
		    " \"severity\": \"warning\"}, {\"id\": \"a\", \"pattern\":"
		    " \"a\", \"severity\": \"warning\"}]}",
		    &d),
	       CORDON_E_CONFIG, "duplicate of an already-loaded id refused");
	is_str(d.message, "rules[1].id: duplicate id \"a\"",
	       "and named with its path");
	is_int((long long)userrules_count(u), 1, "rule b was not added either");

	memset(id, 'x', 128);
	id[128] = '\0';
	snprintf(
		json, sizeof(json),
		"[{\"id\": \"%s\", \"pattern\": \"a\", \"severity\": \"warning\"}]",
		id);
	is_int(load(u, json, &d), CORDON_OK, "a 128-byte id is accepted");
	memset(id, 'y', 129);
	id[129] = '\0';
	snprintf(
		json, sizeof(json),
		"[{\"id\": \"%s\", \"pattern\": \"a\", \"severity\": \"warning\"}]",
		id);
	is_int(load(u, json, &d), CORDON_E_CONFIG, "a 129-byte id is refused");
	ok(starts_with(d.message, "[0].id: 129 bytes"), "id length named: %s",
	   d.message);
	userrules_free(u);
}

static void test_regex_errors(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	struct hits h;

	is_int(load(u,
		    "{\"rules\": ["
		    "{\"id\": \"a\", \"pattern\": \"a\", \"severity\": \"warning\"},"
		    "{\"id\": \"b\", \"pattern\": \"b\", \"severity\": \"warning\"},"
		    "{\"id\": \"c\", \"pattern\": \"c\", \"severity\": \"warning\"},"
		    "{\"id\": \"x\", \"pattern\": \"rm (-rf\", \"severity\": \"critical\"}"
		    "]}",
		    &d),
	       CORDON_E_REGEX, "bad regex refused");
	ok(starts_with(d.message, "rules[3] (id \"x\"): pattern: "),
	   "bad regex names the rule: %s", d.message);
	ok(strstr(d.message, " at offset 7") != NULL,
	   "and the offset in the message");
	is_int((long long)d.offset, 7, "diag offset is the pattern offset");
	is_int((long long)userrules_count(u), 0,
	       "all or nothing: no rule of the set added");

	is_int(load(u,
		    "[{\"id\": \"u\", \"pattern\": \"(*UTF)x\", \"severity\":"
		    " \"warning\"}]",
		    &d),
	       CORDON_E_REGEX, "(*UTF) is refused: subjects are bytes");

	is_int(load(u,
		    "[{\"id\": \"ci\", \"pattern\": \"(?i)drop\\\\s+table\","
		    " \"severity\": \"critical\"},"
		    " {\"id\": \"nul\", \"pattern\": \"a\\\\x00b\","
		    " \"severity\": \"warning\"},"
		    " {\"id\": \"many\", \"pattern\":"
		    " \"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)\","
		    " \"severity\": \"warning\"}]",
		    &d),
	       CORDON_OK,
	       "case-insensitive, NUL-escape, many-capture rules load");
	is_int((long long)match(u, "psql -c 'DROP  TABLE users'", &h), 1,
	       "(?i) matches upper case");
	is_str(h.n ? h.m[0].id : NULL, "ci", "the (?i) rule matched");
	is_int((long long)userrules_match(u, "x a\0b y", 7, collect, &h), 1,
	       "a pattern matches across a NUL byte in the text");
	is_int((long long)userrules_match(u, "echo\0abcdefghijkl", 17, NULL, NULL),
	       1, "a match after a NUL byte, with 12 captures, no callback");
	is_int((long long)userrules_match(u, "\xff\xfe\x80 drop table", 14, NULL,
				       NULL),
	       1, "invalid UTF-8 in the text is just bytes");
	is_int((long long)userrules_match(u, NULL, 0, NULL, NULL), 0,
	       "NULL text, length 0: nothing matches");
	userrules_free(u);
}

static void test_json_errors(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	const char nul_json[] = "[{\"id\": \"a\",\0 \"pattern\": \"a\"}]";
	char *deep;
	size_t n = 5000;

	is_int(load(u, "[\n  {\"id\": \"a\",,}\n]", &d), CORDON_E_JSON,
	       "JSON syntax error");
	ok(d.offset >= 15 && d.offset <= 16,
	   "syntax error offset near the "
	   "second comma (%zu)",
	   d.offset);
	is_int(d.line, 2, "syntax error line");
	is_int(d.column, (long long)d.offset - 1, "syntax error column");
	ok(strstr(d.message, "line 2") != NULL, "message has the line: %s",
	   d.message);

	is_int(load(u, "[{\"id\": \"a\"", &d), CORDON_E_JSON,
	       "truncated JSON refused");
	ok(d.offset <= 10, "its offset stays inside the input (%zu)", d.offset);
	is_int(load(u, "", &d), CORDON_E_JSON, "empty input refused");
	is_int(load(u, "[] []", &d), CORDON_E_JSON, "trailing data refused");
	is_int((long long)d.offset, 3, "trailing data offset");

	is_int(userrules_add_json(u, nul_json, sizeof(nul_json) - 1, MAX_BYTES,
			       &d),
	       CORDON_E_JSON, "a NUL byte in the input is refused");
	is_int((long long)d.offset, 12, "at the offset of the NUL");
	is_int(load(u,
		    "[{\"id\": \"a\", \"pattern\": \"a\\u0000b\","
		    " \"severity\": \"warning\"}]",
		    &d),
	       CORDON_E_JSON, "a \\u0000 escape is refused");
	is_int((long long)d.offset, 26, "at the offset of the escape");
	is_int(load(u,
		    "[{\"id\": \"a\\\\u0000\", \"pattern\": \"a\","
		    " \"severity\": \"warning\"}]",
		    &d),
	       CORDON_OK, "an escaped backslash before u0000 is fine");

	deep = malloc(2 * n + 64);
	if (deep) {
		size_t head = (size_t)snprintf(deep, 64,
					       "[{\"id\": \"d\", \"label\": ");
		size_t o = head;

		memset(deep + o, '[', n);
		memset(deep + o + n, ']', n);
		o += 2 * n;
		memcpy(deep + o, "}]", 3);
		is_int(load(u, deep, &d), CORDON_E_JSON,
		       "nesting beyond cJSON's limit refused");
		memcpy(deep + head, "[[[1]]]}]", 10);
		load(u, deep, &d);
		is_str(d.message, "[0].label: expected a string",
		       "a nested array where a string belongs");
		free(deep);
	} else {
		skip(2, "out of memory");
	}
	load(u,
	     "[{\"id\": 1e999999, \"pattern\": \"a\", \"severity\":"
	     " \"warning\"}]",
	     &d);
	is_str(d.message, "[0].id: expected a string", "a huge number id");
	is_int((long long)userrules_count(u), 1, "only the one good rule loaded");
	userrules_free(u);
}

static void test_limits(void)
{
	struct urules *u = userrules_new(3);
	struct cordon_diag d;
	const char *two = "[{\"id\": \"a\", \"pattern\": \"a\", \"severity\":"
			  " \"warning\"}, {\"id\": \"b\", \"pattern\": \"b\","
			  " \"severity\": \"warning\"}]";
	const char *more = "[{\"id\": \"c\", \"pattern\": \"a\", \"severity\":"
			   " \"warning\"}, {\"id\": \"d\", \"pattern\": \"b\","
			   " \"severity\": \"warning\"}]";
	char want[64];

	is_int(userrules_add_json(u, two, strlen(two), 20, &d), CORDON_E_LIMIT,
	       "input over max_bytes refused");
	snprintf(want, sizeof(want), "%zu bytes", strlen(two));
	ok(strstr(d.message, "max_rules_bytes") && strstr(d.message, want) &&
		   strstr(d.message, "(20)"),
	   "names the limit and both sizes: %s", d.message);
	is_int(load(u, two, &d), CORDON_OK, "two rules fit under max_rules 3");
	is_int(load(u, more, &d), CORDON_E_LIMIT,
	       "two more would exceed max_rules");
	ok(strstr(d.message, "max_rules (3)") != NULL, "names the limit: %s",
	   d.message);
	is_int((long long)userrules_count(u), 2, "and none was added");
	is_int(userrules_add_pattern(u, "p1", "x", CORDON_RISK_CAUTION, 0, NULL,
				  &d),
	       CORDON_OK, "a third rule fits");
	is_int(userrules_add_pattern(u, "p2", "x", CORDON_RISK_CAUTION, 0, NULL,
				  &d),
	       CORDON_E_LIMIT, "a fourth does not");
	userrules_free(u);
}

static void test_c_api(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	struct cordon_user_rule r = { 0 };
	struct hits h;

	r.id = "api";
	r.pattern = "git\\s+push\\s+--force";
	r.severity = "critical";
	is_int(userrules_add(u, &r, &d), CORDON_OK, "userrules_add with NULL labels");
	is_int(userrules_add(u, &r, &d), CORDON_E_CONFIG,
	       "userrules_add refuses a duplicate id");
	r.id = "api2";
	r.severity = NULL;
	is_int(userrules_add(u, &r, &d), CORDON_E_CONFIG,
	       "userrules_add needs a severity");
	is_str(d.message, "rule.severity: required field missing",
	       "and says so");
	r.severity = "warning";
	r.pattern = "[z-a]";
	is_int(userrules_add(u, &r, &d), CORDON_E_REGEX,
	       "userrules_add refuses a bad regex");
	ok(starts_with(d.message, "rule (id \"api2\"): pattern: ") &&
		   d.offset == 3,
	   "with the rule and offset: %s (%zu)", d.message, d.offset);

	is_int(userrules_add_pattern(u, "curl-sh", "curl[^|]*\\|\\s*(ba)?sh\\b",
				  CORDON_RISK_BLOCKED,
				  CORDON_L(REMOTE_CODE) | CORDON_L(DENYLISTED),
				  "download piped to a shell", &d),
	       CORDON_OK, "built-in pattern added");
	is_int(userrules_add_pattern(u, "bad", "(", CORDON_RISK_BLOCKED, 0, "",
				  &d),
	       CORDON_E_REGEX, "built-in bad regex refused");
	is_int(userrules_add_pattern(u, "t", "x", (enum cordon_risk)9, 0, "", &d),
	       CORDON_E_INVAL, "built-in tier out of range refused");
	is_int((long long)userrules_count(u), 2, "two rules in the set");
	is_int((long long)match(u,
				"curl -fsSL https://x | bash && git push"
				" --force",
				&h),
	       2, "both match");
	ok(h.m[0].labels == CORDON_L(USER_RULE) &&
		   h.m[1].labels ==
			   (CORDON_L(REMOTE_CODE) | CORDON_L(DENYLISTED)),
	   "user rule gets user-rule, built-in its own labels");
	is_str(h.m[1].description, "download piped to a shell",
	       "built-in description");
	is_int(h.m[1].tier, CORDON_RISK_BLOCKED, "built-in tier");
	userrules_free(u);
	userrules_free(NULL);
	is_int((long long)userrules_count(NULL), 0, "count of NULL is 0");
	is_int(userrules_add_json(NULL, "[]", 2, 10, NULL), CORDON_E_INVAL,
	       "NULL set refused, NULL diag accepted");
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A catastrophic pattern must neither hang nor let the text through: the
 * match limit stops it and a stopped match counts as a match. */
static void test_catastrophic(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	size_t n = 30000;
	char *text = malloc(n + 1);
	double t0;
	double ms;
	size_t hits;

	if (!u || !text) {
		skip(4, "out of memory");
		free(text);
		userrules_free(u);
		return;
	}
	memset(text, 'a', n);
	text[n] = '!';
	is_int(load(u,
		    "[{\"id\": \"evil\", \"pattern\": \"(a+)+$\","
		    " \"severity\": \"warning\"},"
		    " {\"id\": \"evil2\", \"pattern\": \"(a|aa)+$\","
		    " \"severity\": \"warning\"}]",
		    &d),
	       CORDON_OK, "catastrophic patterns load");
	t0 = now_ms();
	hits = userrules_match(u, text, n + 1, NULL, NULL);
	ms = now_ms() - t0;
	ok(ms < 2000.0, "matching 30000 bytes returns promptly (%.1f ms)", ms);
	is_int((long long)hits, 2,
	       "a match stopped by the limit counts (fail "
	       "closed)");
	is_int((long long)userrules_match(u, "aaa", 3, NULL, NULL), 2,
	       "and a real match still matches");
	free(text);
	userrules_free(u);
}

/* The patterns are JIT-compiled only from a set's ninth text on: a hook
 * process matches one line, and compiling costs more than interpreting it.
 * The answers are the same before and after. */
static void test_jit_later(void)
{
	struct urules *u = userrules_new(100);
	struct cordon_diag d;
	struct hits h;
	uint32_t jit = 0;
	bool same = true;

	is_int(load(u,
		    "[{\"id\": \"a\", \"label\": \"A\", \"description\":"
		    " \"d\", \"pattern\": \"\\\\brm\\\\s+-rf\\\\b\","
		    " \"category\": \"fs\", \"severity\": \"critical\"},"
		    " {\"id\": \"b\", \"label\": \"B\", \"description\":"
		    " \"d\", \"pattern\": \"curl.*\\\\|\\\\s*sh\","
		    " \"category\": \"net\", \"severity\": \"critical\"}]",
		    &d),
	       CORDON_OK, "two rules load");
	for (int i = 0; i < 8; i++)
		same = same && match(u, i % 2 ? "rm -rf /" : "ls", &h) ==
					(size_t)(i % 2);
	ok(same, "the first eight texts match as they should");
	is_int((long long)userrules_jit_count(u), 0,
	       "no pattern is JIT-compiled for the first eight texts");
	is_int((long long)match(u, "curl x | sh", &h), 1,
	       "the ninth text matches as it should");
	if (pcre2_config(PCRE2_CONFIG_JIT, &jit) != 0 || !jit)
		skip(1, "this PCRE2 has no JIT");
	else
		is_int((long long)userrules_jit_count(u), 2,
		       "from the ninth text on every pattern is JIT-compiled");
	is_int((long long)match(u, "rm -rf / ; curl a |sh", &h), 2,
	       "and matches as before");
	userrules_free(u);
}

int main(void)
{
	tap_no_plan();
	test_valid_forms();
	test_platform_and_nulls();
	test_schema_errors();
	test_ids();
	test_regex_errors();
	test_json_errors();
	test_limits();
	test_c_api();
	test_catastrophic();
	test_jit_later();
	return tap_done();
}
