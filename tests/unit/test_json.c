/* json: the two-space printer (json_print_indented) that `cordon config
 * show`, `doctor --json`, `approvals list --json` and the importers use:
 * the exact layout, empty containers, escapes kept, a round trip to the
 * same value, and the depth ceiling; and json_add_clean_string(), which
 * must print what cJSON prints for json_clean_string() of the same bytes,
 * as json_put_clean_string() must within its room, and json_plain_span(). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "json.h"
#include "tap.h"

static void layout(const char *in, const char *want, const char *what)
{
	cJSON *v = cJSON_Parse(in);
	char *got = v ? json_print_indented(v) : NULL;

	is_str(got ? got : "(null)", want, what);
	free(got);
	cJSON_Delete(v);
}

/* json_add_clean_string(s, n) against cJSON's printing of the cleaned
 * string. */
static void same_as_cjson(const char *s, size_t n, const char *what)
{
	struct buf b = BUF_INIT(1 << 20);
	cJSON *item = json_clean_string(s, n);
	char *want = item ? cJSON_PrintUnformatted(item) : NULL;
	bool added = json_add_clean_string(&b, s, n);

	ok(added && want && strcmp(buf_str(&b), want) == 0, "%s", what);
	if (want && strcmp(buf_str(&b), want) != 0)
		diag("got %s, cJSON %s", buf_str(&b), want);
	free(want);
	cJSON_Delete(item);
	buf_free(&b);
}

static void clean_strings(void)
{
	static const struct {
		const char *s;
		size_t n;
		const char *what;
	} rows[] = {
		{ "", 0, "empty" },
		{ "ls -la", 6, "plain ASCII" },
		{ "a\"b\\c", 5, "quote and backslash" },
		{ "\b\f\n\r\t", 5, "the short escapes" },
		{ "\x01\x1f\x7f", 3, "other control bytes and DEL" },
		{ "a\0b", 3, "a NUL byte becomes U+FFFD" },
		{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9,
		  "well-formed 2, 3 and 4 byte sequences" },
		{ "\xc3", 1, "a cut sequence" },
		{ "\xc0\xaf", 2, "an overlong slash" },
		{ "\xed\xa0\x80", 3, "a surrogate" },
		{ "\xff\xfe x", 4, "bytes that start nothing" },
		{ "\xf4\x90\x80\x80", 4, "past U+10FFFF" },
	};
	char all[256];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		same_as_cjson(rows[i].s, rows[i].n, rows[i].what);
	for (int c = 0; c < 256; c++)
		all[c] = (char)c;
	same_as_cjson(all, sizeof(all), "every byte value in order");
	{
		/* past the 4096-byte chunk: sequences and escapes across
		 * each boundary */
		static const char piece[] = "\xe2\x82\xac\x01\"\xf0\x9f\x98\x80"
					    "a\xc3";
		size_t pn = sizeof(piece) - 1, n = 0;
		char *big = malloc(20000);

		while (big && n + pn <= 20000) {
			memcpy(big + n, piece, pn);
			n += pn;
		}
		if (big)
			same_as_cjson(big, n,
				      "20,000 bytes of mixed sequences");
		free(big);
		big = malloc(4097);
		if (big) {
			memset(big, 'a', 4095);
			memcpy(big + 4095, "\xc3\xa9", 2);
			same_as_cjson(big, 4097,
				      "a sequence across the chunk boundary");
		}
		free(big);
	}
	for (int c = 1; c < 256; c++) {
		char one[2] = { (char)c, 'x' };
		struct buf b = BUF_INIT(1 << 20);
		cJSON *item = json_clean_string(one, 2);
		char *want = item ? cJSON_PrintUnformatted(item) : NULL;

		json_add_clean_string(&b, one, 2);
		if (!want || strcmp(buf_str(&b), want) != 0) {
			ok(0, "byte 0x%02x then x: got %s, cJSON %s", c,
			   buf_str(&b), want ? want : "(null)");
		}
		free(want);
		cJSON_Delete(item);
		buf_free(&b);
	}
	ok(1, "each byte value alone, followed by x, matched");
}

/* The eight-byte steps of json_put_clean_string() and json_plain_span():
 * every byte value at every place in runs of plain bytes one to 24 long
 * (each lane of a step, the overlapping last step, the byte loop after
 * it), written into memory of exactly JSON_CLEAN_ROOM(n) bytes (ASan
 * sees a byte past it). */
static void eight_at_a_time(void)
{
	int bad = 0, spans = 0;

	for (size_t n = 1; n <= 24; n++) {
		for (size_t at = 0; at < n; at++) {
			for (int c = 0; c < 256; c++) {
				char s[24];
				char *room = malloc(JSON_CLEAN_ROOM(n));
				struct buf b = BUF_INIT(1 << 20);
				cJSON *item;
				char *want, *end;
				size_t span = n;

				memset(s, 'a' + (int)(n % 26), n);
				s[at] = (char)c;
				item = json_clean_string(s, n);
				want = item ? cJSON_PrintUnformatted(item) :
					      NULL;
				end = room ? json_put_clean_string(room, s, n) :
					     NULL;
				json_add_clean_string(&b, s, n);
				if (!want || !end ||
				    (size_t)(end - room) != strlen(want) ||
				    memcmp(room, want, strlen(want)) != 0 ||
				    strcmp(buf_str(&b), want) != 0) {
					if (!bad++)
						diag("byte 0x%02x at %zu of %zu: "
						     "cJSON %s",
						     c, at, n,
						     want ? want : "?");
				}
				if (c < 0x20 || c == '"' || c == '\\' ||
				    c >= 0x80)
					span = at;
				if (json_plain_span(s, n) != span && !spans++)
					diag("span of byte 0x%02x at %zu of %zu: "
					     "%zu",
					     c, at, n, json_plain_span(s, n));
				free(want);
				free(room);
				cJSON_Delete(item);
				buf_free(&b);
			}
		}
	}
	ok(!bad, "every byte at every place of 1 to 24 bytes: as cJSON, "
		 "within JSON_CLEAN_ROOM");
	ok(!spans, "json_plain_span() stops at the first byte that is not "
		   "itself in a JSON string");
	{
		/* the most a string can grow: six bytes for each */
		char ctl[40], *room = malloc(JSON_CLEAN_ROOM(sizeof(ctl)));
		char *end;

		memset(ctl, 0x01, sizeof(ctl));
		end = room ? json_put_clean_string(room, ctl, sizeof(ctl)) :
			     NULL;
		ok(end && (size_t)(end - room) == JSON_CLEAN_ROOM(sizeof(ctl)),
		   "forty control bytes fill JSON_CLEAN_ROOM exactly");
		free(room);
	}
}

int main(void)
{
	char *got;
	cJSON *v;

	tap_no_plan();
	clean_strings();
	eight_at_a_time();
	layout("{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{}}",
	       "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null,\n    \"x\"\n"
	       "  ],\n  \"c\": {}\n}",
	       "members and elements one a line, two spaces a level");
	layout("[]", "[]", "an empty array");
	layout("{}", "{}", "an empty object");
	layout("\"a\\tb\\\"\\u0001\"", "\"a\\tb\\\"\\u0001\"",
	       "a string keeps its escapes (no raw tab reaches the output)");
	layout("{\"k\\n\":[[],{}]}",
	       "{\n  \"k\\n\": [\n    [],\n    {}\n  ]\n}",
	       "an escaped key, nested empty containers");

	/* A round trip gives the same value. */
	v = cJSON_Parse("{\"x\":[1,2.5,\"\\u00e9\",{\"y\":false}],\"z\":\"\"}");
	got = json_print_indented(v);
	{
		cJSON *back = got ? cJSON_Parse(got) : NULL;

		ok(back && cJSON_Compare(v, back, 1),
		   "a round trip keeps the value");
		cJSON_Delete(back);
	}
	free(got);
	cJSON_Delete(v);

	/* Past 1000 levels (built by hand: cJSON's parser stops at 1000):
	 * NULL, not a stack overflow. */
	v = cJSON_CreateArray();
	{
		cJSON *at = v;

		for (int i = 0; at && i < 1100; i++) {
			cJSON *in = cJSON_CreateArray();

			if (!in || !cJSON_AddItemToArray(at, in)) {
				cJSON_Delete(in);
				at = NULL;
				break;
			}
			at = in;
		}
		ok(at != NULL, "1100 nested arrays were built");
	}
	got = v ? json_print_indented(v) : NULL;
	ok(got == NULL, "1100 levels: refused (the ceiling is 1000)");
	free(got);
	cJSON_Delete(v);
	ok(json_print_indented(NULL) == NULL, "NULL in, NULL out");
	return tap_done();
}
