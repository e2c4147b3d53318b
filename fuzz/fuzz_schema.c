/* Fuzz target: JSON Schema validation and argument limits. The input is
 * split at its first NUL byte into a schema text and a value text; both are
 * parsed with cJSON (inputs where either does not parse are skipped) and
 * the value is validated against the schema. Checks the promises of
 * schema.h: a result from the enum, the same result and message twice, a
 * terminated message that is empty on success and starts with "validation
 * error: " otherwise ("validation error: invalid schema: " for a malformed
 * schema), no overrun of a small message buffer. The value is also checked
 * as tool arguments against a fixed set of argument limits, whose failures
 * start with "blocked: ". */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "schema.h"

#include "banned.h"

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static void check_msg(enum schema_result rc, const char *msg, size_t cap)
{
	if (memchr(msg, '\0', cap) == NULL)
		abort();
	switch (rc) {
	case SCHEMA_OK:
		if (msg[0] != '\0')
			abort();
		break;
	case SCHEMA_FAIL:
	case SCHEMA_NOMEM:
		if (!has_prefix(msg, "validation error: ") ||
		    has_prefix(msg, "validation error: invalid schema: "))
			abort();
		break;
	case SCHEMA_INVALID:
		if (!has_prefix(msg, "validation error: invalid schema: "))
			abort();
		break;
	default:
		abort();
	}
}

static void check_limits(const cJSON *value)
{
	static char *choices[] = { "dev", "staging", "prod" };
	struct config_arg_limit l[4];
	char msg[256];

	memset(l, 0, sizeof(l));
	for (size_t i = 0; i < 4; i++)
		l[i].tool = "t";
	l[0].arg = "a";
	l[0].has_max_length = true;
	l[0].max_length = 8;
	l[1].arg = "a";
	l[1].pattern = "[a-z]+(-[a-z0-9]+)*";
	l[2].arg = "n";
	l[2].has_min_value = true;
	l[2].min_value = -1;
	l[2].has_max_value = true;
	l[2].max_value = 100;
	l[3].arg = "e";
	l[3].has_choices = true;
	l[3].choices.v = choices;
	l[3].choices.n = 3;

	if (schema_arglimit_check(l, 4, "t", value, msg, sizeof(msg))) {
		if (msg[0] != '\0')
			abort();
	} else if (!has_prefix(msg, "blocked: ") ||
		   memchr(msg, '\0', sizeof(msg)) == NULL) {
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	cJSON *schema, *value;
	enum schema_result r1, r2, r3;
	char m1[512], m2[512], small[20];
	size_t ls;

	if (!nul)
		return 0;
	ls = (size_t)(nul - data);
	schema = cJSON_ParseWithLength((const char *)data, ls);
	if (!schema)
		return 0;
	value = cJSON_ParseWithLength((const char *)nul + 1, size - ls - 1);
	if (!value) {
		cJSON_Delete(schema);
		return 0;
	}

	r1 = schema_validate(schema, value, m1, sizeof(m1));
	check_msg(r1, m1, sizeof(m1));
	r2 = schema_validate(schema, value, m2, sizeof(m2));
	if (r1 != r2 || strcmp(m1, m2) != 0)
		abort();
	r3 = schema_validate(schema, value, small, sizeof(small));
	if (r3 != r1 || memchr(small, '\0', sizeof(small)) == NULL)
		abort();
	(void)schema_validate(schema, value, NULL, 0);
	check_limits(value);

	cJSON_Delete(value);
	cJSON_Delete(schema);
	return 0;
}
