/* Tests for schema.c: JSON Schema validation of tool arguments (every
 * keyword passing and failing, with the path and text of each message),
 * malformed and over-deep schemas, bounded regex work, and cordon's own
 * per-argument limits (arg_limits). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "schema.h"
#include "tap.h"

static char msg[1024];

/* Validates the JSON text value against the schema text; -1 when the
 * test's own value does not parse. */
static int run(const char *schema, const char *value)
{
	cJSON *v = cJSON_Parse(value);
	int rc;

	if (!v) {
		diag("test value does not parse: %s", value);
		return -1;
	}
	rc = (int)schema_validate_text(schema, v, msg, sizeof(msg));
	cJSON_Delete(v);
	return rc;
}

static void pass(const char *schema, const char *value, const char *name)
{
	if (!is_int(run(schema, value), SCHEMA_OK, name))
		diag("  msg: %s", msg);
}

static void fails(const char *schema, const char *value, const char *want,
		  const char *name)
{
	is_int(run(schema, value), SCHEMA_FAIL, name);
	is_str(msg, want, name);
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The schema is refused as malformed, with the given message (or, when
 * want ends in "...", a message starting with what precedes it). */
static void bad_schema(const char *schema, const char *want, const char *name)
{
	size_t n = strlen(want);

	is_int(run(schema, "{}"), SCHEMA_INVALID, name);
	if (n > 3 && strcmp(want + n - 3, "...") == 0) {
		char prefix[512];

		snprintf(prefix, sizeof(prefix), "%.*s", (int)(n - 3), want);
		if (!ok(starts_with(msg, prefix), "%s: message", name))
			diag("  got: %s", msg);
	} else {
		is_str(msg, want, name);
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A schema nested n levels deep through `key` ("items" or a property). */
static char *nested_schema(const char *open, const char *close, int n)
{
	size_t lo = strlen(open), lc = strlen(close);
	char *s = malloc((lo + lc) * (size_t)n + 3);
	size_t p = 0;

	if (!s)
		abort();
	for (int i = 0; i < n; i++, p += lo)
		memcpy(s + p, open, lo);
	memcpy(s + p, "{}", 2);
	p += 2;
	for (int i = 0; i < n; i++, p += lc)
		memcpy(s + p, close, lc);
	s[p] = '\0';
	return s;
}

/* "[v, v, ... v]" with n copies of v, inside prefix and suffix. */
static char *repeated(const char *prefix, const char *v, int n,
		      const char *suffix)
{
	size_t lv = strlen(v),
	       cap = strlen(prefix) + strlen(suffix) + (lv + 1) * (size_t)n + 4;
	char *s = malloc(cap);
	size_t p;

	if (!s)
		abort();
	p = (size_t)snprintf(s, cap, "%s[", prefix);
	for (int i = 0; i < n; i++) {
		if (i)
			s[p++] = ',';
		memcpy(s + p, v, lv);
		p += lv;
	}
	snprintf(s + p, cap - p, "]%s", suffix);
	return s;
}

static void test_type(void)
{
	pass("{\"type\":\"string\"}", "\"x\"", "type string");
	fails("{\"type\":\"string\"}", "5",
	      "validation error: args: expected string, got number",
	      "type string vs number");
	pass("{\"type\":\"object\"}", "{}", "type object");
	fails("{\"type\":\"object\"}", "[]",
	      "validation error: args: expected object, got array",
	      "type object vs array");
	pass("{\"type\":\"array\"}", "[1]", "type array");
	fails("{\"type\":\"array\"}", "{}",
	      "validation error: args: expected array, got object",
	      "type array vs object");
	pass("{\"type\":\"number\"}", "1.5", "type number (fraction)");
	pass("{\"type\":\"number\"}", "3", "type number (whole)");
	fails("{\"type\":\"number\"}", "\"3\"",
	      "validation error: args: expected number, got string",
	      "type number vs numeric string");
	pass("{\"type\":\"boolean\"}", "false", "type boolean");
	fails("{\"type\":\"boolean\"}", "0",
	      "validation error: args: expected boolean, got number",
	      "type boolean vs 0");
	pass("{\"type\":\"null\"}", "null", "type null");
	fails("{\"type\":\"null\"}", "false",
	      "validation error: args: expected null, got boolean",
	      "type null vs false");

	pass("{\"type\":\"integer\"}", "3", "integer 3");
	pass("{\"type\":\"integer\"}", "1.0", "integer: 1.0 counts");
	pass("{\"type\":\"integer\"}", "-7", "integer -7");
	pass("{\"type\":\"integer\"}", "1e20", "integer 1e20");
	fails("{\"type\":\"integer\"}", "1.5",
	      "validation error: args: expected integer, got number",
	      "integer: 1.5 does not count");
	fails("{\"type\":\"integer\"}", "\"1\"",
	      "validation error: args: expected integer, got string",
	      "integer vs string");

	pass("{\"type\":[\"string\",\"null\"]}", "null", "type list: null");
	pass("{\"type\":[\"string\",\"null\"]}", "\"a\"", "type list: string");
	fails("{\"type\":[\"string\",\"null\"]}", "3",
	      "validation error: args: expected string or null, got number",
	      "type list of two");
	fails("{\"type\":[\"string\",\"number\",\"null\"]}", "true",
	      "validation error: args: expected string, number or null, got boolean",
	      "type list of three");
	fails("{\"type\":[\"integer\",\"string\"]}", "2.5",
	      "validation error: args: expected integer or string, got number",
	      "type list with integer vs 2.5");
	pass("{\"type\":[\"integer\",\"string\"]}", "2.0",
	     "type list with integer vs 2.0");
}

static void test_objects(void)
{
	fails("{\"required\":[\"path\"]}", "{}",
	      "validation error: args: missing required property 'path'",
	      "required missing");
	pass("{\"required\":[\"path\"]}", "{\"path\":\"/x\"}",
	     "required present");
	fails("{\"required\":[\"a\",\"b\"]}", "{\"a\":1}",
	      "validation error: args: missing required property 'b'",
	      "second required missing");
	pass("{\"required\":[\"path\"]}", "\"text\"",
	     "required applies to objects only");
	fails("{\"required\":[\"Path\"]}", "{\"path\":1}",
	      "validation error: args: missing required property 'Path'",
	      "required names are case-sensitive");

	fails("{\"properties\":{\"count\":{\"type\":\"integer\","
	      "\"maximum\":10}}}",
	      "{\"count\":12}",
	      "validation error: args.count: 12 is greater than the maximum 10",
	      "property maximum");
	pass("{\"properties\":{\"count\":{\"type\":\"integer\"}}}",
	     "{\"other\":\"x\"}", "unlisted property allowed by default");
	fails("{\"properties\":{\"opts\":{\"properties\":{\"n\":"
	      "{\"type\":\"string\"}}}}}",
	      "{\"opts\":{\"n\":1}}",
	      "validation error: args.opts.n: expected string, got number",
	      "nested property path");
	fails("{\"properties\":{\"opts\":{\"type\":\"object\","
	      "\"required\":[\"x\"]}}}",
	      "{\"opts\":{}}",
	      "validation error: args.opts: missing required property 'x'",
	      "nested required path");
	pass("{\"properties\":{\"opts\":{\"required\":[\"x\"]}}}",
	     "{\"opts\":{\"x\":null}}", "nested required present");

	fails("{\"properties\":{\"a\":{}},\"additionalProperties\":false}",
	      "{\"a\":1,\"extra\":2}",
	      "validation error: args.extra: additional property not allowed",
	      "additionalProperties false");
	pass("{\"properties\":{\"a\":{}},\"additionalProperties\":false}",
	     "{\"a\":1}", "additionalProperties false, only listed");
	pass("{\"additionalProperties\":true}", "{\"z\":1}",
	     "additionalProperties true");
	fails("{\"properties\":{\"o\":{\"additionalProperties\":false}}}",
	      "{\"o\":{\"deep\":1}}",
	      "validation error: args.o.deep: additional property not allowed",
	      "nested additionalProperties false");
	pass("{\"properties\":{\"n\":{\"type\":\"number\"}},"
	     "\"additionalProperties\":{\"type\":\"string\"}}",
	     "{\"n\":1,\"s\":\"x\"}",
	     "additionalProperties schema: listed and extra pass");
	fails("{\"properties\":{\"n\":{\"type\":\"number\"}},"
	      "\"additionalProperties\":{\"type\":\"string\"}}",
	      "{\"n\":1,\"s\":2}",
	      "validation error: args.s: expected string, got number",
	      "additionalProperties schema fails an extra");
	fails("{\"additionalProperties\":{\"maxLength\":2}}", "{\"k\":\"abc\"}",
	      "validation error: args.k: is 3 characters long, longer than "
	      "the maximum length 2",
	      "additionalProperties schema, string keyword");

	fails("{\"properties\":{\"my key\":{\"type\":\"string\"}}}",
	      "{\"my key\":1}",
	      "validation error: args[\"my key\"]: expected string, got number",
	      "a key with a space is bracketed");
	fails("{\"additionalProperties\":false}", "{\"a\\nb\":1}",
	      "validation error: args[\"a\\x0Ab\"]: additional property not "
	      "allowed",
	      "a control byte in a key is escaped");
	fails("{\"additionalProperties\":false}", "{\"q\\\"\":1}",
	      "validation error: args[\"q\\\"\"]: additional property not "
	      "allowed",
	      "a quote in a key is escaped");
	fails("{\"properties\":{\"file-path\":{\"type\":\"string\"}}}",
	      "{\"file-path\":[]}",
	      "validation error: args.file-path: expected string, got array",
	      "a key with a hyphen stays plain");
	fails("{\"required\":[\"it's\"]}", "{}",
	      "validation error: args: missing required property 'it\\'s'",
	      "a quote in a required name is escaped");

	/* A name given twice: both values are checked. */
	fails("{\"properties\":{\"a\":{\"type\":\"string\"}}}",
	      "{\"a\":\"ok\",\"a\":5}",
	      "validation error: args.a: expected string, got number",
	      "duplicate member: the second value is checked too");
}

static void test_arrays(void)
{
	fails("{\"items\":{\"type\":\"string\"}}", "[\"a\",\"b\",3]",
	      "validation error: args[2]: expected string, got number",
	      "items at the root");
	pass("{\"items\":{\"type\":\"string\"}}", "[]", "items, empty array");
	fails("{\"properties\":{\"items\":{\"type\":\"array\",\"items\":"
	      "{\"properties\":{\"name\":{\"type\":\"string\"}}}}}}",
	      "{\"items\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":5}]}",
	      "validation error: args.items[2].name: expected string, got "
	      "number",
	      "items inside properties: path with index");
	fails("{\"items\":{\"items\":{\"type\":\"integer\"}}}", "[[1],[2,3.5]]",
	      "validation error: args[1][1]: expected integer, got number",
	      "arrays in arrays");
	pass("{\"items\":{\"type\":\"string\"}}", "{\"a\":1}",
	     "items applies to arrays only");

	pass("{\"minItems\":2}", "[1,2]", "minItems met");
	fails("{\"properties\":{\"tags\":{\"minItems\":2}}}", "{\"tags\":[1]}",
	      "validation error: args.tags: has 1 items, fewer than the "
	      "minimum 2",
	      "minItems");
	pass("{\"maxItems\":2}", "[1,2]", "maxItems met");
	fails("{\"maxItems\":2}", "[1,2,3]",
	      "validation error: args: has 3 items, more than the maximum 2",
	      "maxItems");
	pass("{\"maxItems\":0}", "[]", "maxItems 0, empty");

	pass("{\"items\":[{\"type\":\"string\"},{\"type\":\"number\"}]}",
	     "[\"a\",1,true]", "tuple items; extra items unconstrained");
	fails("{\"items\":[{\"type\":\"string\"},{\"type\":\"number\"}]}",
	      "[\"a\",\"b\"]",
	      "validation error: args[1]: expected number, got string",
	      "tuple items, second fails");
	pass("{\"items\":false}", "[]", "items false, empty");
	fails("{\"items\":false}", "[1]",
	      "validation error: args[0]: no value is allowed here",
	      "items false");
}

static void test_enum_const(void)
{
	pass("{\"enum\":[\"a\",\"b\"]}", "\"b\"", "enum string");
	fails("{\"enum\":[\"a\",\"b\"]}", "\"c\"",
	      "validation error: args: \"c\" is not one of the allowed values: "
	      "\"a\", \"b\"",
	      "enum string fails");
	fails("{\"enum\":[\"a\"]}", "\"A\"",
	      "validation error: args: \"A\" is not one of the allowed values: "
	      "\"a\"",
	      "enum is case-sensitive");
	pass("{\"enum\":[1,\"x\",null]}", "1.0", "enum: 1.0 equals 1");
	pass("{\"enum\":[1,\"x\",null]}", "null", "enum null");
	fails("{\"enum\":[1]}", "\"1\"",
	      "validation error: args: \"1\" is not one of the allowed values: 1",
	      "enum: \"1\" is not 1");
	fails("{\"enum\":[null,true]}", "false",
	      "validation error: args: false is not one of the allowed values: "
	      "null, true",
	      "enum: false is not true");
	pass("{\"enum\":[{\"a\":1,\"b\":[1,{\"c\":null}]}]}",
	     "{\"b\":[1,{\"c\":null}],\"a\":1}",
	     "enum object, keys in another order");
	fails("{\"enum\":[{\"a\":1,\"b\":[1,2]}]}", "{\"a\":1,\"b\":[2,1]}",
	      "validation error: args: an object is not one of the allowed "
	      "values: an object",
	      "enum object: array order matters");
	is_int(run("{\"enum\":[{\"a\":1,\"b\":2}]}", "{\"a\":1}"), SCHEMA_FAIL,
	       "enum object: a missing member");
	is_int(run("{\"enum\":[{\"a\":1}]}", "{\"a\":1,\"b\":2}"), SCHEMA_FAIL,
	       "enum object: an extra member");
	is_int(run("{\"enum\":[{\"a\":1}]}", "{\"a\":2}"), SCHEMA_FAIL,
	       "enum object: another value");
	is_int(run("{\"enum\":[{\"x\":1,\"x\":1}]}", "{\"x\":1,\"y\":2}"),
	       SCHEMA_FAIL, "enum object with a duplicate name");
	is_int(run("{\"enum\":[[1,2]]}", "[1,2,3]"), SCHEMA_FAIL,
	       "enum array: longer");
	pass("{\"enum\":[[1,2]]}", "[1,2]", "enum array");
	fails("{\"enum\":[1,2,3,4,5,6,7,8,9,10]}", "11",
	      "validation error: args: 11 is not one of the allowed values: 1, "
	      "2, 3, 4, 5, 6, 7, 8, ...",
	      "a long enum list is cut");
	is_int(run("{\"enum\":[]}", "1"), SCHEMA_FAIL,
	       "empty enum allows nothing");

	pass("{\"const\":\"file\"}", "\"file\"", "const");
	fails("{\"const\":\"file\"}", "\"dir\"",
	      "validation error: args: must equal \"file\", got \"dir\"",
	      "const fails");
	pass("{\"const\":{\"a\":[1,{\"b\":null}]}}",
	     "{\"a\":[1.0,{\"b\":null}]}", "const object");
	fails("{\"properties\":{\"k\":{\"const\":5}}}", "{\"k\":6}",
	      "validation error: args.k: must equal 5, got 6",
	      "const in a property");
}

static void test_numbers(void)
{
	pass("{\"minimum\":1}", "1", "minimum met");
	fails("{\"minimum\":1}", "0",
	      "validation error: args: 0 is less than the minimum 1",
	      "minimum");
	pass("{\"maximum\":10}", "10", "maximum met");
	fails("{\"maximum\":10}", "10.5",
	      "validation error: args: 10.5 is greater than the maximum 10",
	      "maximum");
	fails("{\"maximum\":0.1}", "0.3",
	      "validation error: args: 0.3 is greater than the maximum 0.1",
	      "numbers are written shortest");
	fails("{\"minimum\":-5}", "-1e10",
	      "validation error: args: -10000000000 is less than the minimum -5",
	      "whole numbers without an exponent");
	fails("{\"maximum\":1e20}", "1.5e21",
	      "validation error: args: 1.5e+21 is greater than the maximum "
	      "1e+20",
	      "very large numbers with one");
	pass("{\"exclusiveMinimum\":0}", "0.1", "exclusiveMinimum met");
	fails("{\"exclusiveMinimum\":0}", "0",
	      "validation error: args: 0 is not greater than the exclusive "
	      "minimum 0",
	      "exclusiveMinimum");
	pass("{\"exclusiveMaximum\":10}", "9.99", "exclusiveMaximum met");
	fails("{\"exclusiveMaximum\":10}", "10",
	      "validation error: args: 10 is not less than the exclusive "
	      "maximum 10",
	      "exclusiveMaximum");
	fails("{\"minimum\":0,\"exclusiveMinimum\":true}", "0",
	      "validation error: args: 0 is not greater than the exclusive "
	      "minimum 0",
	      "draft-4 exclusiveMinimum true");
	pass("{\"minimum\":0,\"exclusiveMinimum\":false}", "0",
	     "draft-4 exclusiveMinimum false");
	fails("{\"maximum\":5,\"exclusiveMaximum\":true}", "5",
	      "validation error: args: 5 is not less than the exclusive maximum "
	      "5",
	      "draft-4 exclusiveMaximum true");
	pass("{\"maximum\":5,\"exclusiveMaximum\":false}", "5",
	     "draft-4 exclusiveMaximum false");
	pass("{\"minimum\":5,\"maximum\":1}", "\"abc\"",
	     "number bounds apply to numbers only");

	/* A NaN (possible in a tree built by hand) fails every bound. */
	{
		cJSON *nan_v = cJSON_CreateNumber(NAN);
		int rc = (int)schema_validate_text("{\"minimum\":0}", nan_v,
						   msg, sizeof(msg));

		is_int(rc, SCHEMA_FAIL, "NaN fails a minimum");
		rc = (int)schema_validate_text("{\"maximum\":0}", nan_v, msg,
					       sizeof(msg));
		is_int(rc, SCHEMA_FAIL, "NaN fails a maximum");
		rc = (int)schema_validate_text("{\"type\":\"integer\"}", nan_v,
					       msg, sizeof(msg));
		is_int(rc, SCHEMA_FAIL, "NaN is not an integer");
		cJSON_Delete(nan_v);
	}
}

static void test_strings(void)
{
	cJSON *bad;
	int rc;

	pass("{\"minLength\":3}", "\"abc\"", "minLength met");
	fails("{\"minLength\":3}", "\"ab\"",
	      "validation error: args: is 2 characters long, shorter than the "
	      "minimum length 3",
	      "minLength");
	pass("{\"maxLength\":3}", "\"abc\"", "maxLength met");
	fails("{\"maxLength\":3}", "\"abcd\"",
	      "validation error: args: is 4 characters long, longer than the "
	      "maximum length 3",
	      "maxLength");
	pass("{\"maxLength\":3}", "\"h\xc3\xa9\xc3\xa9\"",
	     "maxLength counts code points (2-byte)");
	pass("{\"maxLength\":3}", "\"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\"",
	     "maxLength counts code points (3-byte)");
	pass("{\"maxLength\":3}",
	     "\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\"",
	     "maxLength counts code points (4-byte)");
	fails("{\"maxLength\":3}",
	      "\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98"
	      "\x80\"",
	      "validation error: args: is 4 characters long, longer than the "
	      "maximum length 3",
	      "maxLength: four emoji are four characters");
	fails("{\"minLength\":2}", "\"\xc3\xa9\"",
	      "validation error: args: is 1 characters long, shorter than the "
	      "minimum length 2",
	      "minLength: a 2-byte character is one");
	pass("{\"minLength\":2,\"maxLength\":2}", "\"\\u00e9\\ud83d\\ude00\"",
	     "escaped characters and a surrogate pair count once each");
	pass("{\"minLength\":5}", "[1]",
	     "string keywords apply to strings only");

	bad = cJSON_CreateString("ab\xff");
	rc = (int)schema_validate_text("{\"maxLength\":10}", bad, msg,
				       sizeof(msg));
	is_int(rc, SCHEMA_FAIL, "invalid UTF-8 fails a length check");
	is_str(msg, "validation error: args: the string is not valid UTF-8",
	       "invalid UTF-8 message");
	rc = (int)schema_validate_text("{\"pattern\":\"a\"}", bad, msg,
				       sizeof(msg));
	is_int(rc, SCHEMA_FAIL, "invalid UTF-8 fails a pattern");
	is_str(msg, "validation error: args: the string is not valid UTF-8",
	       "invalid UTF-8 message (pattern)");
	cJSON_Delete(bad);
	bad = cJSON_CreateString("\xc0\xaf");
	rc = (int)schema_validate_text("{\"maxLength\":10}", bad, msg,
				       sizeof(msg));
	is_int(rc, SCHEMA_FAIL, "an overlong encoding is not valid UTF-8");
	cJSON_Delete(bad);
	bad = cJSON_CreateString("\xed\xa0\x80");
	rc = (int)schema_validate_text("{\"maxLength\":10}", bad, msg,
				       sizeof(msg));
	is_int(rc, SCHEMA_FAIL, "an encoded surrogate is not valid UTF-8");
	cJSON_Delete(bad);
}

static void test_patterns(void)
{
	double t0, t1;
	char *s;

	pass("{\"pattern\":\"[0-9]\"}", "\"abc1def\"",
	     "pattern is unanchored (JSON Schema)");
	fails("{\"pattern\":\"[0-9]\"}", "\"abc\"",
	      "validation error: args: \"abc\" does not match the pattern "
	      "\"[0-9]\"",
	      "pattern fails");
	pass("{\"pattern\":\"[a-z-]+\"}", "\"abc;rm\"",
	     "unanchored: [a-z-]+ finds a part of abc;rm");
	fails("{\"pattern\":\"^[a-z-]+$\"}", "\"abc;rm\"",
	      "validation error: args: \"abc;rm\" does not match the pattern "
	      "\"^[a-z-]+$\"",
	      "anchored by the schema author");
	fails("{\"pattern\":\"^[a-z]+$\"}", "\"abc\\n\"",
	      "validation error: args: \"abc\\x0A\" does not match the pattern "
	      "\"^[a-z]+$\"",
	      "$ does not match before a final newline");
	pass("{\"pattern\":\"^.$\"}", "\"\xc3\xa9\"",
	     "a dot matches one code point");
	pass("{\"pattern\":\"^\\\\u00e9$\"}", "\"\xc3\xa9\"",
	     "ECMA \\u escapes in patterns");
	pass("{\"pattern\":\"^x$\"}", "5", "pattern applies to strings only");
	fails("{\"properties\":{\"p\":{\"pattern\":\"^/\"}}}",
	      "{\"p\":\"rel\"}",
	      "validation error: args.p: \"rel\" does not match the pattern "
	      "\"^/\"",
	      "pattern in a property");

	t0 = now_ms();
	is_int(run("{\"pattern\":\"(a+)+$\"}",
		   "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\""),
	       SCHEMA_FAIL, "catastrophic backtracking is a FAIL");
	t1 = now_ms();
	is_str(msg,
	       "validation error: args: matching the pattern \"(a+)+$\" hit the "
	       "match limit (failing closed)",
	       "catastrophic backtracking: the match limit message");
	ok(t1 - t0 < 2000, "catastrophic backtracking ends quickly (%.1f ms)",
	   t1 - t0);
	pass("{\"pattern\":\"^(a|b)*$\"}", "\"abababababababababababababab\"",
	     "a repeated group still matches under the limits");

	s = repeated("", "\"a\"", 1024, "");
	pass("{\"items\":{\"pattern\":\"a\"}}", s, "1024 pattern checks pass");
	free(s);
	s = repeated("", "\"a\"", 1025, "");
	fails("{\"items\":{\"pattern\":\"a\"}}", s,
	      "validation error: args[1024]: more than 1024 pattern checks in "
	      "one call (limit)",
	      "the 1025th pattern check fails");
	free(s);
}

static void test_misc(void)
{
	cJSON *schema, *v;
	char small[24];
	int rc;

	pass("true", "{\"anything\":1}", "schema true");
	fails("false", "1", "validation error: args: no value is allowed here",
	      "schema false");
	pass("{}", "[1,{\"a\":null}]", "empty schema");
	pass("{\"format\":\"email\",\"description\":\"d\",\"$ref\":\"#/x\","
	     "\"title\":5,\"x-foo\":{\"minimum\":\"bad\"}}",
	     "\"anything\"", "unknown keywords are ignored, content unchecked");

	/* The cJSON entry point, and msg cleared on success. */
	schema = cJSON_Parse("{\"type\":\"object\",\"properties\":{\"path\":"
			     "{\"type\":\"string\"}},\"required\":[\"path\"]}");
	v = cJSON_Parse("{\"path\":\"/tmp/x\"}");
	snprintf(msg, sizeof(msg), "stale");
	is_int(schema_validate(schema, v, msg, sizeof(msg)), SCHEMA_OK,
	       "schema_validate with a parsed schema");
	is_str(msg, "", "msg is emptied on success");
	cJSON_Delete(v);
	v = cJSON_Parse("{\"path\":7}");
	is_int(schema_validate(schema, v, msg, sizeof(msg)), SCHEMA_FAIL,
	       "schema_validate fails");
	is_str(msg, "validation error: args.path: expected string, got number",
	       "schema_validate message");
	is_int(schema_validate(schema, v, NULL, 0), SCHEMA_FAIL,
	       "no message buffer");
	rc = (int)schema_validate(schema, v, small, sizeof(small));
	is_int(rc, SCHEMA_FAIL, "small message buffer");
	is_int((long long)strlen(small), (long long)sizeof(small) - 1,
	       "small buffer: filled");
	ok(strcmp(small + sizeof(small) - 4, "...") == 0,
	   "small buffer: ends in ... (%s)", small);
	is_int(schema_validate(schema, NULL, msg, sizeof(msg)), SCHEMA_FAIL,
	       "no value fails");
	is_str(msg, "validation error: args: no value", "no value message");
	is_int(schema_validate(NULL, v, msg, sizeof(msg)), SCHEMA_INVALID,
	       "no schema is invalid");
	cJSON_Delete(v);
	cJSON_Delete(schema);

	/* A message cut inside a multi-byte character cuts before it. */
	v = cJSON_Parse("{\"\xc3\xa9\":1}");
	rc = (int)schema_validate_text("{\"additionalProperties\":false}", v,
				       small, 12);
	is_int(rc, SCHEMA_FAIL, "tiny buffer");
	is_str(small, "validati...", "tiny buffer text");
	{
		char cut[29];

		rc = (int)schema_validate_text(
			"{\"additionalProperties\":false}", v, cut,
			sizeof(cut));
		is_int(rc, SCHEMA_FAIL, "buffer ending inside a character");
		is_str(cut, "validation error: args[\"...",
		       "the cut falls before the character");
	}
	cJSON_Delete(v);
}

static void test_invalid(void)
{
	char *s;

	bad_schema(
		"{\"minimum\":\"x\"}",
		"validation error: invalid schema: minimum: expected a number, "
		"got a string",
		"minimum of the wrong type");
	bad_schema(
		"{\"maximum\":null}",
		"validation error: invalid schema: maximum: expected a number, "
		"got null",
		"maximum null");
	bad_schema("{\"type\":\"strng\"}",
		   "validation error: invalid schema: type: unknown type name "
		   "'strng'",
		   "unknown type name");
	bad_schema(
		"{\"type\":[]}",
		"validation error: invalid schema: type: an empty list of types",
		"empty type list");
	bad_schema(
		"{\"type\":[\"string\",1]}",
		"validation error: invalid schema: type: expected a type name, "
		"got a number",
		"a number in a type list");
	bad_schema(
		"{\"type\":{}}",
		"validation error: invalid schema: type: expected a type name "
		"or a list of them, got an object",
		"type object");
	bad_schema(
		"{\"required\":\"path\"}",
		"validation error: invalid schema: required: expected a list of "
		"names, got a string",
		"required not a list");
	bad_schema("{\"required\":[\"a\",1]}",
		   "validation error: invalid schema: required: expected a "
		   "property name, got a number",
		   "required not strings");
	bad_schema("{\"properties\":[]}",
		   "validation error: invalid schema: properties: expected an "
		   "object, got an array",
		   "properties not an object");
	bad_schema("{\"properties\":{\"a\":5}}",
		   "validation error: invalid schema: properties.a: expected a "
		   "schema (an object or a boolean), got a number",
		   "a property schema that is a number");
	bad_schema("{\"additionalProperties\":\"no\"}",
		   "validation error: invalid schema: additionalProperties: "
		   "expected a schema (an object or a boolean), got a string",
		   "additionalProperties a string");
	bad_schema(
		"{\"items\":5}",
		"validation error: invalid schema: items: expected a schema (an "
		"object or a boolean), got a number",
		"items a number");
	bad_schema(
		"{\"items\":[{},{\"type\":1}]}",
		"validation error: invalid schema: items[1].type: expected a "
		"type name or a list of them, got a number",
		"bad tuple item");
	bad_schema("{\"enum\":\"a\"}",
		   "validation error: invalid schema: enum: expected a list of "
		   "values, got a string",
		   "enum not a list");
	bad_schema("{\"minLength\":-1}",
		   "validation error: invalid schema: minLength: expected a "
		   "non-negative integer, got another number",
		   "minLength negative");
	bad_schema("{\"maxLength\":1.5}",
		   "validation error: invalid schema: maxLength: expected a "
		   "non-negative integer, got another number",
		   "maxLength fractional");
	bad_schema("{\"maxItems\":\"3\"}",
		   "validation error: invalid schema: maxItems: expected a "
		   "non-negative integer, got a string",
		   "maxItems a string");
	bad_schema("{\"minItems\":true}",
		   "validation error: invalid schema: minItems: expected a "
		   "non-negative integer, got a boolean",
		   "minItems a boolean");
	bad_schema(
		"{\"exclusiveMinimum\":\"x\"}",
		"validation error: invalid schema: exclusiveMinimum: expected a "
		"number or a boolean, got a string",
		"exclusiveMinimum a string");
	bad_schema(
		"{\"pattern\":\"(\"}",
		"validation error: invalid schema: pattern: does not compile: "
		"...",
		"pattern that does not compile");
	bad_schema(
		"{\"pattern\":5}",
		"validation error: invalid schema: pattern: expected a string, "
		"got a number",
		"pattern a number");
	bad_schema(
		"5",
		"validation error: invalid schema: expected a schema (an object "
		"or a boolean), got a number",
		"root schema a number");
	bad_schema(
		"[]",
		"validation error: invalid schema: expected a schema (an object "
		"or a boolean), got an array",
		"root schema an array");
	bad_schema(
		"{\"type\":",
		"validation error: invalid schema: not valid JSON (at byte 8)",
		"schema not JSON");
	bad_schema("{\"maximum\":1000,\"maximum\":1}",
		   "validation error: invalid schema: maximum: the keyword is "
		   "given twice",
		   "duplicate keyword");
	bad_schema(
		"{\"properties\":{\"a\":{},\"a\":{\"type\":\"string\"}}}",
		"validation error: invalid schema: properties.a: the property "
		"is defined twice",
		"duplicate property");
	bad_schema(
		"{\"additionalProperties\":{\"items\":{\"minimum\":[]}}}",
		"validation error: invalid schema: additionalProperties.items."
		"minimum: expected a number, got an array",
		"schema path of a nested error");

	/* The whole schema is checked, whatever the value exercises. */
	is_int(run("{\"properties\":{\"unused\":{\"minimum\":\"x\"}}}", "{}"),
	       SCHEMA_INVALID, "an error in an unused branch");
	is_str(msg,
	       "validation error: invalid schema: properties.unused.minimum: "
	       "expected a number, got a string",
	       "an error in an unused branch: message");
	is_int(run("{\"type\":\"string\",\"maxLength\":\"x\"}", "5"),
	       SCHEMA_INVALID, "an error in a keyword the value's type skips");

	is_int(schema_validate_text(NULL, NULL, msg, sizeof(msg)),
	       SCHEMA_INVALID, "NULL schema text");
	is_str(msg, "validation error: invalid schema: no schema",
	       "NULL schema text message");

	/* Limits. */
	s = repeated("{\"required\":", "\"a\"", 1025, "}");
	bad_schema(s,
		   "validation error: invalid schema: required: more than 1024 "
		   "entries (limit)",
		   "too many required names");
	free(s);
	s = repeated("{\"required\":", "\"a\"", 1024, "}");
	is_int(run(s, "{\"a\":1}"), SCHEMA_OK, "1024 required names");
	free(s);
	s = repeated("{\"enum\":", "0", 4097, "}");
	bad_schema(
		s,
		"validation error: invalid schema: enum: more than 4096 JSON "
		"values (limit)",
		"too many enum values");
	free(s);
	{
		char pat[4200];

		memset(pat, 'a', 4097);
		snprintf(pat + 4097, sizeof(pat) - 4097, "\"}");
		s = malloc(5000);
		snprintf(s, 5000, "{\"pattern\":\"%s", pat);
		bad_schema(s,
			   "validation error: invalid schema: pattern: 4097 "
			   "bytes, longer than the limit of 4096",
			   "pattern too long");
		free(s);
	}
	{
		/* 257 properties with a pattern each. */
		size_t cap = 257 * 40 + 64, p = 0;

		s = malloc(cap);
		p += (size_t)snprintf(s + p, cap - p, "{\"properties\":{");
		for (int i = 0; i < 257; i++)
			p += (size_t)snprintf(s + p, cap - p,
					      "%s\"p%d\":{\"pattern\":\"a\"}",
					      i ? "," : "", i);
		snprintf(s + p, cap - p, "}}");
		bad_schema(
			s,
			"validation error: invalid schema: properties.p256."
			"pattern: more than 256 patterns in one schema (limit)",
			"too many patterns");
		free(s);
	}
}

static void test_depth(void)
{
	char *s;

	s = nested_schema("{\"items\":", "}", SCHEMA_MAX_DEPTH);
	is_int(run(s, "[[[1]]]"), SCHEMA_OK, "32 nested schemas are fine");
	free(s);
	s = nested_schema("{\"items\":", "}", SCHEMA_MAX_DEPTH + 1);
	is_int(run(s, "[]"), SCHEMA_INVALID, "33 nested schemas are invalid");
	ok(strstr(msg, ": nested deeper than 32 levels") != NULL &&
		   starts_with(msg, "validation error: invalid schema: items."),
	   "depth message (%s)", msg);
	free(s);
	s = nested_schema("{\"properties\":{\"a\":", "}}",
			  SCHEMA_MAX_DEPTH + 1);
	is_int(run(s, "{}"), SCHEMA_INVALID,
	       "33 nested properties are invalid");
	free(s);
	s = nested_schema("{\"additionalProperties\":", "}", SCHEMA_MAX_DEPTH);
	is_int(run(s, "{\"a\":{\"b\":{}}}"), SCHEMA_OK,
	       "32 nested additionalProperties are fine");
	free(s);

	s = nested_schema("[", "]", SCHEMA_MAX_DEPTH + 1);
	{
		char *sch = malloc(strlen(s) + 32);

		snprintf(sch, strlen(s) + 32, "{\"enum\":[%s]}", s);
		is_int(run(sch, "1"), SCHEMA_INVALID,
		       "an enum value nested too deep");
		is_str(msg,
		       "validation error: invalid schema: enum: nested deeper "
		       "than 32 levels",
		       "enum depth message");
		free(sch);
	}
	free(s);
	s = nested_schema("[", "]", SCHEMA_MAX_DEPTH);
	{
		char *sch = malloc(strlen(s) + 32);

		snprintf(sch, strlen(s) + 32, "{\"const\":%s}", s);
		is_int(run(sch, s), SCHEMA_OK, "a const nested 32 deep");
		is_int(run(sch, "[[]]"), SCHEMA_FAIL,
		       "a const nested 32 deep, other value");
		free(sch);
	}
	free(s);

	/* A value deeper than the schema is fine: the schema drives. */
	s = nested_schema("[", "]", 200);
	is_int(run("{\"type\":\"array\"}", s), SCHEMA_OK,
	       "a deep value under a shallow schema");
	free(s);
}

/* ---- arg_limits ----------------------------------------------------- */

static struct config_arg_limit lim(const char *tool, const char *arg)
{
	struct config_arg_limit l;

	memset(&l, 0, sizeof(l));
	l.tool = (char *)tool;
	l.arg = (char *)arg;
	return l;
}

static int check1(const struct config_arg_limit *l, size_t n, const char *tool,
		  const char *args)
{
	cJSON *a = cJSON_Parse(args);
	int r;

	if (!a) {
		diag("test args do not parse: %s", args);
		return -1;
	}
	r = schema_arglimit_check(l, n, tool, a, msg, sizeof(msg));
	cJSON_Delete(a);
	return r;
}

static void test_arglimits(void)
{
	struct config_arg_limit l[3];
	char *choices[] = { "dev", "staging" };
	char big[200];
	double t0, t1;

	/* max_length */
	l[0] = lim("deploy", "name");
	l[0].has_max_length = true;
	l[0].max_length = 64;
	memset(big, 'a', 80);
	snprintf(
		big, sizeof(big), "{\"name\":\"%.80s\"}",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaa");
	is_int(check1(l, 1, "deploy", big), 0, "max_length: 80 bytes fail");
	is_str(msg,
	       "blocked: argument 'name' of tool 'deploy' is 80 bytes, over the "
	       "limit of 64 (arg_limits.deploy.name.max_length)",
	       "max_length message");
	snprintf(
		big, sizeof(big), "{\"name\":\"%.64s\"}",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	snprintf(msg, sizeof(msg), "stale");
	is_int(check1(l, 1, "deploy", big), 1, "max_length: 64 bytes pass");
	is_str(msg, "", "msg emptied on a pass");
	l[0].max_length = 4;
	is_int(check1(l, 1, "deploy",
		      "{\"name\":\"\xc3\xa9\xc3\xa9\xc3\xa9\"}"),
	       0, "max_length counts bytes, not characters");
	is_int(check1(l, 1, "deploy", "{\"name\":5}"), 0,
	       "max_length on a number fails");
	is_str(msg,
	       "blocked: argument 'name' of tool 'deploy' is a number, not a "
	       "string (arg_limits.deploy.name.max_length)",
	       "wrong type message (string limit)");
	is_int(check1(l, 1, "deploy", "{\"name\":null}"), 0,
	       "null is a wrong type");
	is_int(check1(l, 1, "deploy", "{\"other\":\"long text\"}"), 1,
	       "an absent argument passes");
	is_int(check1(l, 1, "deploy", "{}"), 1, "empty args pass");
	is_int(schema_arglimit_check(l, 1, "deploy", NULL, msg, sizeof(msg)), 1,
	       "no args at all pass");
	is_int(check1(l, 1, "deploy2", "{\"name\":\"long text\"}"), 1,
	       "another tool's limit does not apply");
	is_int(check1(l, 1, "deploy", "[\"name\"]"), 0,
	       "args that are not an object fail");
	is_str(msg,
	       "blocked: the arguments of tool 'deploy' are an array, not an "
	       "object (arg_limits.deploy)",
	       "args not an object: message");
	is_int(check1(l, 1, "deploy",
		      "{\"name\":\"ok\",\"name\":\"too long\"}"),
	       0, "a name given twice: every value is checked");
	is_int(schema_arglimit_check(NULL, 0, "deploy", NULL, msg, sizeof(msg)), 1,
	       "no limits");

	/* min_value / max_value */
	l[0] = lim("deploy", "count");
	l[0].has_min_value = true;
	l[0].min_value = 1;
	l[0].has_max_value = true;
	l[0].max_value = 10;
	is_int(check1(l, 1, "deploy", "{\"count\":1}"), 1, "min_value met");
	is_int(check1(l, 1, "deploy", "{\"count\":10}"), 1, "max_value met");
	is_int(check1(l, 1, "deploy", "{\"count\":0}"), 0, "min_value");
	is_str(msg,
	       "blocked: argument 'count' of tool 'deploy' is 0, under the "
	       "minimum of 1 (arg_limits.deploy.count.min_value)",
	       "min_value message");
	is_int(check1(l, 1, "deploy", "{\"count\":12}"), 0, "max_value");
	is_str(msg,
	       "blocked: argument 'count' of tool 'deploy' is 12, over the "
	       "maximum of 10 (arg_limits.deploy.count.max_value)",
	       "max_value message");
	is_int(check1(l, 1, "deploy", "{\"count\":10.5}"), 0,
	       "max_value with a fraction");
	is_int(check1(l, 1, "deploy", "{\"count\":\"5\"}"), 0,
	       "a numeric limit on a string fails");
	is_str(msg,
	       "blocked: argument 'count' of tool 'deploy' is a string, not a "
	       "number (arg_limits.deploy.count.min_value)",
	       "wrong type message (numeric limit)");
	l[0].has_min_value = false;
	is_int(check1(l, 1, "deploy", "{\"count\":true}"), 0,
	       "max_value on a boolean fails");
	is_str(msg,
	       "blocked: argument 'count' of tool 'deploy' is a boolean, not a "
	       "number (arg_limits.deploy.count.max_value)",
	       "wrong type names the rule present");
	{
		cJSON *a = cJSON_CreateObject();

		cJSON_AddNumberToObject(a, "count", NAN);
		is_int(schema_arglimit_check(l, 1, "deploy", a, msg, sizeof(msg)), 0,
		       "NaN fails max_value");
		cJSON_Delete(a);
	}

	/* pattern: the whole string */
	l[0] = lim("deploy", "name");
	l[0].pattern = "[a-z-]+";
	is_int(check1(l, 1, "deploy", "{\"name\":\"abc-def\"}"), 1,
	       "pattern matches the whole string");
	is_int(check1(l, 1, "deploy", "{\"name\":\"abc;rm\"}"), 0,
	       "arg-limit pattern is anchored: [a-z-]+ rejects abc;rm");
	is_str(msg,
	       "blocked: argument 'name' of tool 'deploy' does not match the "
	       "pattern '[a-z-]+' (arg_limits.deploy.name.pattern)",
	       "pattern message");
	is_int(check1(l, 1, "deploy", "{\"name\":\";abc\"}"), 0,
	       "anchored at the start");
	is_int(check1(l, 1, "deploy", "{\"name\":\"abc\\n\"}"), 0,
	       "a final newline does not match");
	is_int(check1(l, 1, "deploy", "{\"name\":\"\"}"), 0,
	       "the empty string does not match [a-z-]+");
	is_int(check1(l, 1, "deploy", "{\"name\":[\"abc\"]}"), 0,
	       "pattern on an array fails");
	l[0].pattern = "a|ab";
	is_int(check1(l, 1, "deploy", "{\"name\":\"ab\"}"), 1,
	       "anchoring applies to the whole alternation");
	l[0].pattern = "b";
	is_int(check1(l, 1, "deploy", "{\"name\":\"abc\"}"), 0,
	       "a substring match is not enough");
	l[0].pattern = "(";
	is_int(check1(l, 1, "deploy", "{\"name\":\"abc\"}"), 0,
	       "a pattern that does not compile fails");
	ok(starts_with(msg,
		       "blocked: argument 'name' of tool 'deploy' cannot be "
		       "checked: the pattern does not compile (") &&
		   strstr(msg, "(arg_limits.deploy.name.pattern)") != NULL,
	   "compile failure message (%s)", msg);
	l[0].pattern = "(a+)+$";
	t0 = now_ms();
	is_int(check1(l, 1, "deploy",
		      "{\"name\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"}"),
	       0, "catastrophic pattern fails closed");
	t1 = now_ms();
	is_str(msg,
	       "blocked: argument 'name' of tool 'deploy' cannot be checked: "
	       "matching the pattern '(a+)+$' hit the match limit "
	       "(arg_limits.deploy.name.pattern)",
	       "catastrophic pattern message");
	ok(t1 - t0 < 2000, "catastrophic pattern ends quickly (%.1f ms)",
	   t1 - t0);
	l[0].pattern = ".*";
	{
		cJSON *a = cJSON_CreateObject();

		cJSON_AddStringToObject(a, "name", "ab\xfe");
		is_int(schema_arglimit_check(l, 1, "deploy", a, msg, sizeof(msg)), 0,
		       "invalid UTF-8 fails a pattern");
		is_str(msg,
		       "blocked: argument 'name' of tool 'deploy' is not valid "
		       "UTF-8 (arg_limits.deploy.name.pattern)",
		       "invalid UTF-8 message");
		cJSON_Delete(a);
	}

	/* choices */
	l[0] = lim("deploy", "env");
	l[0].has_choices = true;
	l[0].choices.v = choices;
	l[0].choices.n = 2;
	is_int(check1(l, 1, "deploy", "{\"env\":\"staging\"}"), 1,
	       "choices met");
	is_int(check1(l, 1, "deploy", "{\"env\":\"prod\"}"), 0, "choices");
	is_str(msg,
	       "blocked: argument 'env' of tool 'deploy' is 'prod', not one of "
	       "'dev', 'staging' (arg_limits.deploy.env.choices)",
	       "choices message");
	is_int(check1(l, 1, "deploy", "{\"env\":\"Dev\"}"), 0,
	       "choices are exact");
	is_int(check1(l, 1, "deploy", "{\"env\":\"dev \"}"), 0,
	       "choices: no trimming");
	is_int(check1(l, 1, "deploy", "{\"env\":1}"), 0,
	       "choices on a number fails");
	is_str(msg,
	       "blocked: argument 'env' of tool 'deploy' is a number, not a "
	       "string (arg_limits.deploy.env.choices)",
	       "choices wrong type message");
	l[0].choices.v = NULL;
	l[0].choices.n = 0;
	is_int(check1(l, 1, "deploy", "{\"env\":\"dev\"}"), 0,
	       "an empty choices list allows nothing");
	is_str(msg,
	       "blocked: argument 'env' of tool 'deploy' is 'dev', and no choice "
	       "is allowed (arg_limits.deploy.env.choices)",
	       "empty choices message");

	/* Several limits: all are checked. */
	l[0] = lim("deploy", "name");
	l[0].has_max_length = true;
	l[0].max_length = 10;
	l[1] = lim("deploy", "name");
	l[1].pattern = "[a-z]+";
	l[2] = lim("deploy", "count");
	l[2].has_max_value = true;
	l[2].max_value = 3;
	is_int(check1(l, 3, "deploy", "{\"name\":\"abc\",\"count\":3}"), 1,
	       "several limits pass");
	is_int(check1(l, 3, "deploy", "{\"name\":\"abc1\",\"count\":3}"), 0,
	       "the second limit on the same argument applies");
	ok(strstr(msg, "(arg_limits.deploy.name.pattern)") != NULL,
	   "second limit named (%s)", msg);
	is_int(check1(l, 3, "deploy",
		      "{\"name\":\"abcdefghijklmnop\",\"count\":3}"),
	       0, "the first limit applies");
	ok(strstr(msg, "(arg_limits.deploy.name.max_length)") != NULL,
	   "first limit named (%s)", msg);
	is_int(check1(l, 3, "deploy", "{\"name\":\"abc\",\"count\":4}"), 0,
	       "a limit on another argument applies");
	ok(strstr(msg, "(arg_limits.deploy.count.max_value)") != NULL,
	   "other argument named (%s)", msg);

	/* Names in messages are escaped. */
	l[0] = lim("de\nploy", "it's");
	l[0].has_max_length = true;
	l[0].max_length = 1;
	is_int(check1(l, 1, "de\nploy", "{\"it's\":\"ab\"}"), 0, "odd names");
	is_str(msg,
	       "blocked: argument 'it\\'s' of tool 'de\\x0Aploy' is 2 bytes, "
	       "over the limit of 1 (arg_limits.de\\x0Aploy.it's.max_length)",
	       "odd names are escaped");

	/* The same pattern as a schema keyword is unanchored. */
	is_int(run("{\"pattern\":\"[a-z-]+\"}", "\"abc;rm\""), SCHEMA_OK,
	       "contrast: as a schema pattern [a-z-]+ accepts abc;rm");
}

int main(void)
{
	tap_no_plan();
	test_type();
	test_objects();
	test_arrays();
	test_enum_const();
	test_numbers();
	test_strings();
	test_patterns();
	test_misc();
	test_invalid();
	test_depth();
	test_arglimits();
	return tap_done();
}
