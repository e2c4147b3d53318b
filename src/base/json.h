/* json — JSON helpers: clean strings, label arrays, the \u0000 scan. */
#ifndef CORDON_JSON_H
#define CORDON_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* A JSON string item holding s[0..n) with NUL bytes and invalid UTF-8
 * replaced, so the output is always valid JSON. NULL when out of memory. */
cJSON *json_clean_string(const char *s, size_t n);

/* Appends s[0..n) to b as a quoted JSON string, byte for byte what
 * cJSON_PrintUnformatted(json_clean_string(s, n)) prints: NUL bytes and
 * invalid UTF-8 become U+FFFD, '"', '\\' and control characters are
 * escaped. s may be NULL when n is 0. False when b has failed. */
struct buf;
bool json_add_clean_string(struct buf *b, const char *s, size_t n);

/* The most json_put_clean_string() writes for n bytes in: six for each
 * ("\u001f"), and the quotes. */
#define JSON_CLEAN_ROOM(n) (6 * (size_t)(n) + 2)

/* The same string written at o, which has room for JSON_CLEAN_ROOM(n)
 * bytes (the caller checks that n * 6 cannot overflow); returns the end of
 * what was written. No NUL is added. For a writer that reserves once for
 * many pieces. */
char *json_put_clean_string(char *o, const char *s, size_t n);

/* How many bytes at the start of s[0..n) stand for themselves inside a
 * JSON string: printable ASCII other than '"' and '\\' (a byte from 0x80
 * ends the span too: it may start an invalid sequence). */
size_t json_plain_span(const char *s, size_t n);

/* A JSON array of the label names set in labels, in bit order. */
cJSON *json_labels_array(uint64_t labels);

/* The offset of the first \u0000 escape in JSON text s[0..n), or n when
 * there is none (an escaped backslash followed by "u0000" is text, not
 * this escape). cJSON turns the escape into a NUL byte, which cuts every
 * string check short, so every reader of JSON that cordon judges refuses
 * it: tool-call arguments, the approvals file, config and rules files. */
size_t json_nul_escape_at(const char *s, size_t n);

/* item as readable JSON: two spaces per level, one member or element a
 * line, empty objects and arrays as {} and [], scalars as cJSON prints
 * them; no newline at the end. malloc'd (cordon__malloc); NULL when out
 * of memory or past 1000 levels. */
char *json_print_indented(const cJSON *item);

#endif
