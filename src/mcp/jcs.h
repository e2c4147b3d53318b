/* jcs — RFC 8785 JSON Canonicalization Scheme.
 *
 * Objects' members sorted by their names as UTF-16 code units (so a key
 * with a non-BMP character sorts by its surrogates, before U+E000…U+FFFF),
 * no whitespace, strings with only the escapes RFC 8785 §3.2.2.2 requires
 * (\" \\ \b \f \n \r \t, other controls as \u00xx lower-case hex, nothing
 * else escaped), numbers as ECMAScript's Number.prototype.toString
 * (shortest round-trip digits; exponent form below 1e-6 and from 1e21).
 * Pure; fuzzed.
 */
#ifndef CORDON_JCS_H
#define CORDON_JCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cordon.h"

/* Canonical JSON of json[0..len): refuses (CORDON_E_JSON, why in diag)
 * malformed JSON, duplicate member names, invalid UTF-8 or lone
 * surrogates, numbers that overflow a double, nesting deeper than 128.
 * *out malloc'd, NUL-terminated; *out_len its length. */
enum cordon_err jcs_canonicalize(const char *json, size_t len, char **out,
				 size_t *out_len, struct cordon_diag *diag);

/* The same for a parsed value (cJSON keeps duplicate members: refused). */
enum cordon_err jcs_from_cjson(const cJSON *v, char **out, size_t *out_len,
			       struct cordon_diag *diag);

/* ECMAScript's string for a finite double into buf (at most 32 bytes with
 * the NUL); returns the length. -0 is "0". */
size_t jcs_format_number(double d, char buf[32]);

/* SHA-256 (hex) of the canonical form of v: a tool's fingerprint. */
enum cordon_err jcs_fingerprint(const cJSON *v, char out[65],
				struct cordon_diag *diag);

/* Shared with the JSON-RPC writer (jsonrpc.c). */

/* Appends s (NULL: "") as a JSON string the way this module writes one:
 * '"', '\\' and the controls escaped, nothing else; an invalid UTF-8 byte
 * becomes U+FFFD (canonical input never has one), so the output is valid
 * JSON on one line. */
void jcs_buf_string(struct buf *b, const char *s);

#endif
