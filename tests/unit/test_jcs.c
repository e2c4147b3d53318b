/* test_jcs — RFC 8785 canonicalisation: the RFC's published vectors, the
 * cases where plain sorted-keys JSON differs, and the refusals. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jcs.h"
#include "tap.h"

static double from_bits(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* RFC 8785 Appendix B, "Number Serialization Samples"
 * (https://www.rfc-editor.org/rfc/rfc8785#appendix-B): IEEE 754 bits and
 * the JSON text ECMAScript writes for them. The NaN and Infinity rows have
 * no JSON form; they are refusals below. */
static const struct {
	uint64_t bits;
	const char *want;
} appendix_b[] = {
	{ 0x0000000000000000, "0" },
	{ 0x8000000000000000, "0" },
	{ 0x0000000000000001, "5e-324" },
	{ 0x8000000000000001, "-5e-324" },
	{ 0x7fefffffffffffff, "1.7976931348623157e+308" },
	{ 0xffefffffffffffff, "-1.7976931348623157e+308" },
	{ 0x4340000000000000, "9007199254740992" },
	{ 0xc340000000000000, "-9007199254740992" },
	{ 0x4430000000000000, "295147905179352830000" },
	{ 0x44b52d02c7e14af5, "9.999999999999997e+22" },
	{ 0x44b52d02c7e14af6, "1e+23" },
	{ 0x44b52d02c7e14af7, "1.0000000000000001e+23" },
	{ 0x444b1ae4d6e2ef4e, "999999999999999700000" },
	{ 0x444b1ae4d6e2ef4f, "999999999999999900000" },
	{ 0x444b1ae4d6e2ef50, "1e+21" },
	{ 0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7" },
	{ 0x3eb0c6f7a0b5ed8d, "0.000001" },
	{ 0x41b3de4355555553, "333333333.3333332" },
	{ 0x41b3de4355555554, "333333333.33333325" },
	{ 0x41b3de4355555555, "333333333.3333333" },
	{ 0x41b3de4355555556, "333333333.3333334" },
	{ 0x41b3de4355555557, "333333333.33333343" },
	{ 0xbecbf647612f3696, "-0.0000033333333333333333" },
	{ 0x43143ff3c1cb0959, "1424953923781206.2" },
};

/* Canonical form of json, or a "ERR: message" string; caller frees. */
static char *canon(const char *json)
{
	struct cordon_diag d;
	char *out = NULL, *err;
	size_t len = 0;

	memset(&d, 0, sizeof(d));
	if (jcs_canonicalize(json, strlen(json), &out, &len, &d) != CORDON_OK) {
		err = malloc(strlen(d.message) + 6);
		if (!err)
			abort();
		memcpy(err, "ERR: ", 5);
		memcpy(err + 5, d.message, strlen(d.message) + 1);
		return err;
	}
	if (strlen(out) != len)
		diag("length %zu differs from strlen %zu", len, strlen(out));
	return out;
}

static void is_canon(const char *json, const char *want, const char *name)
{
	char *got = canon(json);

	is_str(got, want, name);
	free(got);
}

/* Refused with CORDON_E_JSON and a message containing why. */
static void refused(const char *json, size_t len, const char *why,
		    const char *name)
{
	static char sentinel[] = "unset";
	struct cordon_diag d;
	char *out = sentinel;
	enum cordon_err rc;

	memset(&d, 0, sizeof(d));
	rc = jcs_canonicalize(json, len, &out, NULL, &d);
	ok(rc == CORDON_E_JSON && out == NULL && strstr(d.message, why),
	   "refused: %s (%s)", name, d.message);
	if (out != sentinel)
		free(out);
}

static void test_numbers(void)
{
	char buf[32];

	for (size_t i = 0; i < sizeof(appendix_b) / sizeof(appendix_b[0]);
	     i++) {
		size_t n =
			jcs_format_number(from_bits(appendix_b[i].bits), buf);

		ok(strcmp(buf, appendix_b[i].want) == 0 &&
			   n == strlen(appendix_b[i].want),
		   "Appendix B %016llx -> %s (got %s)",
		   (unsigned long long)appendix_b[i].bits, appendix_b[i].want,
		   buf);
	}
	/* ES boundaries of the plain, fractional and exponent forms. */
	jcs_format_number(1e21, buf);
	is_str(buf, "1e+21", "1e21 takes the exponent form");
	jcs_format_number(1e20, buf);
	is_str(buf, "100000000000000000000", "1e20 is written out");
	jcs_format_number(1e-7, buf);
	is_str(buf, "1e-7", "1e-7 takes the exponent form");
	jcs_format_number(1.5e-7, buf);
	is_str(buf, "1.5e-7", "1.5e-7: point and exponent");
	jcs_format_number(0.1, buf);
	is_str(buf, "0.1", "0.1");
	jcs_format_number(-0.5, buf);
	is_str(buf, "-0.5", "-0.5");
	jcs_format_number(123.456, buf);
	is_str(buf, "123.456", "123.456");
	jcs_format_number(-1.7976931348623157e308, buf);
	ok(strlen(buf) < 32, "longest negative fits in 32 bytes");
	jcs_format_number(-1.2345678901234567e-6, buf);
	is_str(buf, "-0.0000012345678901234567", "longest fractional form");
}

/* RFC 8785 §3.2.2 sample input and §3.2.3 canonical output; §3.2.4 gives
 * the same output as UTF-8 bytes, which the Euro sign is here. */
static void test_rfc_sample(void)
{
	static const char in[] =
		"{\n"
		"  \"numbers\": [333333333.33333329, 1E30, 4.50,\n"
		"              2e-3, 0.000000000000000000000000001],\n"
		"  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c"
		"\\\\\\\"\\/\",\n"
		"  \"literals\": [null, true, false]\n"
		"}";
	static const char want[] =
		"{\"literals\":[null,true,false],\"numbers\":[333333333."
		"3333333,1e+30,4.5,0.002,1e-27],\"string\":\"\xe2\x82\xac$"
		"\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
	cJSON *v = cJSON_Parse(in);
	struct cordon_diag d;
	char fp[65];

	is_canon(in, want, "RFC 8785 §3.2.2 sample -> §3.2.3 output");
	/* sha256 of the canonical bytes, computed independently with
	 * Python's hashlib. */
	ok(v && jcs_fingerprint(v, fp, &d) == CORDON_OK, "fingerprint");
	is_str(fp,
	       "2d5e01a318d0f0879ab568c4be289c8b"
	       "1f64ef8921a53c6277d5e069978baacb",
	       "fingerprint is SHA-256 of the canonical bytes");
	cJSON_Delete(v);
}

/* RFC 8785 §3.2.3 sorting example: names compared as UTF-16 code units. */
static void test_rfc_sort(void)
{
	static const char in[] =
		"{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\","
		" \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\","
		" \"1\": \"One\", \"\\ud83d\\ude00\": \"Emoji: Grinning Face\","
		" \"\\u0080\": \"Control\","
		" \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"}";
	static const char want[] =
		"{\"\\r\":\"Carriage Return\",\"1\":\"One\","
		"\"\xc2\x80\":\"Control\","
		"\"\xc3\xb6\":\"Latin Small Letter O With Diaeresis\","
		"\"\xe2\x82\xac\":\"Euro Sign\","
		"\"\xf0\x9f\x98\x80\":\"Emoji: Grinning Face\","
		"\"\xef\xac\xb3\":\"Hebrew Letter Dalet With Dagesh\"}";

	is_canon(in, want, "RFC 8785 §3.2.3 sorting example");
	is_canon("{\"b\":1,\"a\":2,\"ab\":3,\"\":4}",
		 "{\"\":4,\"a\":2,\"ab\":3,\"b\":1}",
		 "prefix sorts first, empty name first of all");
	is_canon("{\"z\":{\"y\":1,\"x\":[{\"d\":1,\"c\":2}]}}",
		 "{\"z\":{\"x\":[{\"c\":2,\"d\":1}],\"y\":1}}",
		 "nested objects sorted, array order kept");
}

static void test_strings(void)
{
	is_canon("\"\\u0001\\u001f\\u007f\"", "\"\\u0001\\u001f\x7f\"",
		 "controls as lower-case \\u00xx; DEL raw");
	is_canon("\"\\b\\f\\n\\r\\t\"", "\"\\b\\f\\n\\r\\t\"",
		 "the five short escapes");
	is_canon("\"\\u0008\\u000C\\u000a\"", "\"\\b\\f\\n\"",
		 "\\u forms of short escapes become short");
	is_canon("\"\\\"\\\\\"", "\"\\\"\\\\\"", "quote and backslash");
	is_canon("\"\\u00e9\\u2028\\ud83d\\ude00\"",
		 "\"\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\"",
		 "non-ASCII written raw (U+2028 too)");
	is_canon("\"\\u0041\\u0062\"", "\"Ab\"", "escaped ASCII unescaped");
	is_canon("\"\\/\"", "\"/\"", "\\/ written as /");
	is_canon("\"\xf0\x9f\x98\x80\"", "\"\xf0\x9f\x98\x80\"",
		 "raw UTF-8 kept");
	is_canon("  [ 1 , \"a\" , { } , [ ] ]  ", "[1,\"a\",{},[]]",
		 "whitespace removed");
	is_canon("true", "true", "a bare literal");
	is_canon("[null,false]", "[null,false]", "literals");
}

/* Where json.dumps(v, sort_keys=True, separators=(',',':')) (the output of
 * Python 3.11 is quoted in each name) is not JCS. */
static void test_not_plain_sorted_json(void)
{
	is_canon("{\"a\":1.0,\"b\":1e2,\"c\":1E-7}",
		 "{\"a\":1,\"b\":100,\"c\":1e-7}",
		 "numbers (python: {\"a\":1.0,\"b\":100.0,\"c\":1e-07})");
	is_canon("[1e21,1e20,0.000001,1e-7]",
		 "[1e+21,100000000000000000000,0.000001,1e-7]",
		 "ES number forms (python: [1e+21,1e+20,1e-06,1e-07])");
	is_canon("{\"\\ue000\":1,\"\\ud83d\\ude00\":2}",
		 "{\"\xf0\x9f\x98\x80\":2,\"\xee\x80\x80\":1}",
		 "U+1F600 before U+E000 (python sorts by code point: "
		 "{\"\\ue000\":1,\"\\ud83d\\ude00\":2})");
	is_canon("{\"k\":\"\\u00e9\\u20ac\"}",
		 "{\"k\":\"\xc3\xa9\xe2\x82\xac\"}",
		 "non-ASCII raw (python: {\"k\":\"\\u00e9\\u20ac\"})");
	is_canon("-0", "0", "-0 is 0");
	is_canon("[-0.0,0e10]", "[0,0]", "zeros (python: [-0.0,0.0])");
	is_canon("9007199254740993", "9007199254740992",
		 "integers beyond 2^53 round to the double (python keeps "
		 "9007199254740993)");
}

static void test_refusals(void)
{
	char deep[300];
	size_t i;

	refused("{\"a\":1,\"a\":2}", 13, "duplicate member name",
		"duplicate names");
	refused("{\"a\":1,\"\\u0061\":2}", 18, "duplicate member name",
		"duplicate names spelt differently");
	refused("\"\\ud800\"", 8, "lone high surrogate", "lone high surrogate");
	refused("\"\\ud800\\u0041\"", 14, "lone high surrogate",
		"high surrogate then a non-surrogate");
	refused("\"\\udc00\"", 8, "lone low surrogate", "lone low surrogate");
	refused("\"\xed\xa0\x80\"", 5, "invalid UTF-8",
		"surrogate encoded in UTF-8");
	refused("\"\xff\"", 3, "invalid UTF-8", "byte 0xff");
	refused("\"\xc0\xaf\"", 4, "invalid UTF-8", "overlong '/'");
	refused("\"\xf4\x90\x80\x80\"", 6, "invalid UTF-8", "above U+10FFFF");
	refused("\"a\x01\"", 4, "control character", "raw control");
	refused("\"a\\u0000b\"", 10, "\\u0000", "\\u0000 in a string");
	refused("1e400", 5, "range of a double", "1e400 overflows");
	refused("[-1e400]", 8, "range of a double", "-1e400 overflows");
	refused("[1] x", 5, "trailing data", "trailing garbage");
	refused("{} {}", 5, "trailing data", "two values");
	refused("[1]\0", 4, "trailing data", "trailing NUL byte");
	refused("01", 2, "trailing data", "leading zero");
	refused("1.", 2, "invalid number", "no digit after the point");
	refused(".5", 2, "unexpected character", "no digit before the point");
	refused("+1", 2, "unexpected character", "plus sign");
	refused("[1,]", 4, "unexpected character", "trailing comma");
	refused("{\"a\" 1}", 7, "expected ':'", "missing colon");
	refused("\"abc", 4, "unterminated string", "unterminated string");
	refused("\"\\x\"", 4, "invalid escape", "bad escape");
	refused("NaN", 3, "unexpected character", "NaN");
	refused("", 0, "unexpected end", "empty input");

	for (i = 0; i < 128; i++)
		deep[i] = '[';
	for (i = 0; i < 128; i++)
		deep[128 + i] = ']';
	deep[256] = '\0';
	{
		char *out = canon(deep);

		ok(strncmp(out, "[[[", 3) == 0 && strlen(out) == 256,
		   "depth 128 accepted");
		free(out);
	}
	memmove(deep + 1, deep, 257);
	deep[0] = '[';
	deep[258] = ']';
	deep[259] = '\0';
	refused(deep, 259, "nesting deeper than 128", "depth 129 refused");
}

static void test_from_cjson(void)
{
	struct cordon_diag d;
	cJSON *o = cJSON_CreateObject();
	cJSON *deep, *cur;
	char fp[65], *out = NULL;
	size_t len = 0;

	cJSON_AddNumberToObject(o, "b", 2);
	cJSON_AddNumberToObject(o, "a", 0.5);
	ok(jcs_from_cjson(o, &out, &len, &d) == CORDON_OK && out &&
		   strcmp(out, "{\"a\":0.5,\"b\":2}") == 0 && len == 15,
	   "from a built tree");
	free(out);
	cJSON_AddNumberToObject(o, "a", 1);
	ok(jcs_from_cjson(o, &out, &len, &d) == CORDON_E_JSON && !out &&
		   strstr(d.message, "duplicate"),
	   "duplicate member in a tree refused");
	ok(jcs_fingerprint(o, fp, &d) == CORDON_E_JSON && fp[0] == '\0',
	   "fingerprint refuses it too");
	cJSON_Delete(o);

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "s", "bad \xff byte");
	ok(jcs_from_cjson(o, &out, &len, &d) == CORDON_E_JSON &&
		   strstr(d.message, "UTF-8"),
	   "invalid UTF-8 value in a tree refused");
	cJSON_Delete(o);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "k\xc3", "v");
	ok(jcs_from_cjson(o, &out, &len, &d) == CORDON_E_JSON &&
		   strstr(d.message, "member name"),
	   "invalid UTF-8 name in a tree refused");
	cJSON_Delete(o);

	o = cJSON_CreateArray();
	cJSON_AddItemToArray(o, cJSON_CreateNumber(1.0 / 0.0));
	ok(jcs_from_cjson(o, &out, &len, &d) == CORDON_E_JSON,
	   "infinity in a tree refused");
	cJSON_Delete(o);
	o = cJSON_CreateRaw("1");
	ok(jcs_from_cjson(o, &out, &len, &d) == CORDON_E_JSON,
	   "cJSON raw item refused");
	cJSON_Delete(o);
	ok(jcs_from_cjson(NULL, &out, &len, &d) == CORDON_E_INVAL,
	   "NULL value refused");

	deep = cJSON_CreateArray();
	cur = deep;
	for (int i = 1; i < 129; i++) {
		cJSON *n = cJSON_CreateArray();

		cJSON_AddItemToArray(cur, n);
		cur = n;
	}
	ok(jcs_from_cjson(deep, &out, &len, &d) == CORDON_E_JSON &&
		   strstr(d.message, "128"),
	   "tree of depth 129 refused");
	cJSON_Delete(deep);

	/* Key order and spelling do not change a fingerprint. */
	{
		cJSON *a = cJSON_Parse("{\"name\":\"t\",\"inputSchema\":"
				       "{\"type\":\"object\"},\"n\":1.0}");
		cJSON *b = cJSON_Parse("{\"n\":1,\"inputSchema\":{\"type\":"
				       "\"object\"},\"name\":\"\\u0074\"}");
		cJSON *c = cJSON_Parse("{\"n\":1,\"inputSchema\":{\"type\":"
				       "\"object\"},\"name\":\"u\"}");
		char fa[65], fb[65], fc[65];

		ok(jcs_fingerprint(a, fa, &d) == CORDON_OK &&
			   jcs_fingerprint(b, fb, &d) == CORDON_OK &&
			   jcs_fingerprint(c, fc, &d) == CORDON_OK,
		   "three fingerprints");
		ok(strcmp(fa, fb) == 0 && strlen(fa) == 64,
		   "same value, same fingerprint");
		ok(strcmp(fa, fc) != 0, "changed value, other fingerprint");
		cJSON_Delete(a);
		cJSON_Delete(b);
		cJSON_Delete(c);
	}
}

/* Canonical output is a fixed point. */
static void test_idempotent(void)
{
	static const char *const in[] = {
		"{\"b\":[1.5e300,-2e-300,{\"y\":\"\\u001f\"}],\"a\":\"x\"}",
		"[0.1,0.2,0.30000000000000004,1e21,123456789012345680000]",
	};

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *once = canon(in[i]);
		char *twice = canon(once);

		is_str(twice, once, "canonical output is canonical");
		free(once);
		free(twice);
	}
}

int main(void)
{
	tap_no_plan();
	test_numbers();
	test_rfc_sample();
	test_rfc_sort();
	test_strings();
	test_not_plain_sorted_json();
	test_refusals();
	test_from_cjson();
	test_idempotent();
	return tap_done();
}
