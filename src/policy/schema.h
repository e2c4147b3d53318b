/* schema — argument checks for tool calls: JSON Schema and argument limits.
 *
 * schema_validate() checks a JSON value against the subset of JSON Schema
 * that tool definitions use: type (a name or a list of names: object,
 * array, string, number, integer, boolean, null), required, properties,
 * additionalProperties (false or a schema), enum, const, minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, minLength, maxLength (in Unicode code
 * points), pattern (PCRE2, unanchored as JSON Schema says), items (a
 * schema), minItems, maxItems. Unknown keywords are ignored, as the
 * specification says; a keyword of the wrong type ("minimum": "x") makes the
 * schema invalid, which is an error, never a pass. Recursion into nested
 * schemas and values is bounded (SCHEMA_MAX_DEPTH): deeper is a failure.
 *
 * schema_arglimit_check() applies cordon's own per-argument limits (config
 * safety.arg_limits): max_length, min_value, max_value, pattern (matched
 * against the whole string), choices.
 *
 * Both are pure. Failures are written as one readable sentence into msg:
 * schema failures as "validation error: args.path: expected string, got
 * number"; limit failures as "blocked: argument 'name' of tool 'T' is
 * longer than 64 bytes (arg_limits.T.name.max_length)".
 */
#ifndef CORDON_SCHEMA_H
#define CORDON_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "config.h"

#define SCHEMA_MAX_DEPTH 32

enum schema_result {
	SCHEMA_OK = 0,
	SCHEMA_FAIL = 1,    /* the value does not satisfy the schema */
	SCHEMA_INVALID = 2, /* the schema itself is malformed (or too deep) */
	SCHEMA_NOMEM = 3,
};

/* Validates value against schema; on failure msg holds
 * "validation error: <path>: <why>" where path starts with "args". */
enum schema_result schema_validate(const cJSON *schema, const cJSON *value,
				   char *msg, size_t msgcap);

/* The same with schema text (parsed each call; the policy engine caches
 * parsed schemas). */
enum schema_result schema_validate_text(const char *schema_json,
					const cJSON *value, char *msg,
					size_t msgcap);

/* Checks args (a JSON object) against every limit in lims[0..n) whose tool
 * is `tool`. Returns true when all pass; otherwise false with msg set. A
 * limit on an argument that is absent passes; a numeric limit on a
 * non-number, or a string limit on a non-string, fails (fail closed). A
 * pattern that does not compile fails with a message saying so. */
bool schema_arglimit_check(const struct config_arg_limit *lims, size_t n,
		    const char *tool, const cJSON *args, char *msg,
		    size_t msgcap);

#endif
