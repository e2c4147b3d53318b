/* audit — the tamper-evident log (the public API is in cordon.h).
 *
 * A record is one line of JSON:
 *   {"v":1,"seq":N,"time":"2026-11-29T17:30:38.123456Z","host":"h",
 *    "pid":123,"event":"decision", …fields…,
 *    "prev":"<64 hex>","hash":"<64 hex>"}\n
 * "prev" is the "hash" of the record before it (the first record ever has
 * 64 zeros; the first record of a file after rotation has the last hash of
 * the file before it). "hash" is SHA-256 (lower-case hex) of the line's
 * bytes from its first '{' up to and including the closing quote of the
 * prev value, i.e. of everything before ",\"hash\":\"". "seq" counts
 * records from 1 across rotated files. "prev" and "hash" are always the
 * last two members, in that order, with exactly that spelling; a writer
 * that is killed mid-append leaves a last line without '\n', which the
 * next writer terminates with '\n' and follows with a record of event
 * "recovered" naming the cut line's length and SHA-256 ("torn_bytes",
 * "torn_sha256"); its "prev" is the last whole record's hash.
 *
 * Appends: open with O_APPEND, flock(LOCK_EX) per record, fstat; when the
 * file is not the one this handle wrote last (another process appended,
 * or rotated) the tail is re-read to find the last hash and seq; the line
 * is written with one write(); fsync per policy; unlock. Rotation happens
 * under the same lock: path.N-1 → path.N … path → path.1, a new path.
 */
#ifndef CORDON_AUDIT_H
#define CORDON_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon.h"

#define AUDIT_HASH_HEX 64
/* The longest record line (a longer one is refused by the writer and is
 * an error for the verifier). */
#define AUDIT_MAX_LINE ((size_t)1 << 20)

/* One line as the verifier reads it. */
struct audit_line {
	uint64_t seq;
	char event[32];
	char prev[AUDIT_HASH_HEX + 1];
	char hash[AUDIT_HASH_HEX + 1];     /* as written in the line */
	char computed[AUDIT_HASH_HEX + 1]; /* SHA-256 of the hashed prefix */
	/* recovered records: the cut line they name */
	uint64_t torn_bytes;
	char torn_sha256[AUDIT_HASH_HEX + 1];
};

/* Parses line[0..len) (without its '\n'): valid JSON object, "v" 1, the
 * members above with the right types, "prev" and "hash" last and well
 * formed; computes the hash. Returns CORDON_OK, or CORDON_E_PARSE with
 * why (NUL-terminated, e.g. "the hash member is not last") filled. Pure. */
enum cordon_err audit_parse_line(const char *line, size_t len,
				 struct audit_line *out, char *why,
				 size_t why_cap);

/* The RFC 3339 UTC time with microseconds of a CLOCK_REALTIME timespec:
 * "2026-11-29T17:30:38.123456Z" (27 bytes and NUL). */
void audit_format_time(int64_t sec, long nsec, char buf[32]);

/* The RFC 5424 message for one record (without a trailing newline):
 * "<PRI>1 TIME HOST cordon PID EVENT - JSON". pri is facility*8+severity;
 * the JSON is the record line without '\n'. Returns the length, or 0 when
 * it does not fit in cap. */
size_t audit_syslog_format(char *buf, size_t cap, int pri, const char *time,
			   const char *host, long pid, const char *event,
			   const char *json, size_t json_len);

/* The SHA-256 of data as lower-case hex (the empty string if OpenSSL
 * fails, which only running out of memory makes it do). */
void audit_sha256_hex(const void *data, size_t len,
		      char out[AUDIT_HASH_HEX + 1]);

/* cordon_audit_verify() on one file held in memory, data[0..len) (named
 * "<buffer>" in the report), for the fuzzer. Pure. CORDON_OK, or
 * CORDON_E_NOMEM. */
enum cordon_err audit_verify_buffer(const char *data, size_t len,
				    struct cordon_audit_report *rep);

/* Tests only: when set, a record is written with two write() calls and
 * this is called between them (a test kills the process there to leave
 * a cut line). NULL in every real use. */
extern void (*audit_test_between_writes)(void);

#endif
