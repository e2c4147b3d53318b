/* json: the two-space printer (json_print_indented) that `cordon config
 * show`, `doctor --json`, `approvals list --json` and the importers use:
 * the exact layout, empty containers, escapes kept, a round trip to the
 * same value, and the depth ceiling. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

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

int main(void)
{
	char *got;
	cJSON *v;

	tap_no_plan();
	layout("{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{}}",
	       "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null,\n    \"x\"\n"
	       "  ],\n  \"c\": {}\n}",
	       "members and elements one a line, two spaces a level");
	layout("[]", "[]", "an empty array");
	layout("{}", "{}", "an empty object");
	layout("\"a\\tb\\\"\\u0001\"", "\"a\\tb\\\"\\u0001\"",
	       "a string keeps its escapes (no raw tab reaches the output)");
	layout("{\"k\\n\":[[],{}]}", "{\n  \"k\\n\": [\n    [],\n    {}\n  ]\n}",
	       "an escaped key, nested empty containers");

	/* A round trip gives the same value. */
	v = cJSON_Parse("{\"x\":[1,2.5,\"\\u00e9\",{\"y\":false}],\"z\":\"\"}");
	got = json_print_indented(v);
	{
		cJSON *back = got ? cJSON_Parse(got) : NULL;

		ok(back && cJSON_Compare(v, back, 1), "a round trip keeps the value");
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
