/* jsonutil — JSON helpers shared by the result printers (verdict_json.c). */
#ifndef CORDON_JSONUTIL_H
#define CORDON_JSONUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* A JSON string item holding s[0..n) with NUL bytes and invalid UTF-8
 * replaced, so the output is always valid JSON. NULL when out of memory. */
cJSON *json_clean_string(const char *s, size_t n);

/* A JSON array of the label names set in labels, in bit order. */
cJSON *json_labels_array(uint64_t labels);

/* Does JSON text s[0..n) hold a \u0000 escape (not an escaped backslash
 * followed by "u0000")? cJSON turns it into a NUL byte, which cuts every
 * string check short; callers refuse such input (policy.c). */
bool json_has_nul_escape(const char *s, size_t n);

#endif
