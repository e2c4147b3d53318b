/* audit — the tamper-evident log (the public API is in cordon.h).
 *
 * A record is one line of JSON:
 *   {"v":1,"seq":N,"time":"2026-11-29T17:30:38.123456Z","host":"h",
 *    "pid":123,"event":"decision", …fields…,
 *    "prev":"<64 hex>","hash":"<64 hex>"}\n
 * "prev" is the "hash" of the record before it (the first record ever has
 * seq 1 and 64 zeros; the first record of a file made by rotation is an
 * event "rotated" whose "previous_head" is its prev, the last hash of the
 * file before it). "hash" is SHA-256 (lower-case hex) of the line's bytes
 * from its first '{' up to and including the closing quote of the prev
 * value, i.e. of everything before ",\"hash\":\""; with a key
 * (audit.key_file) it is HMAC-SHA-256 of the same bytes and the member
 * just before "prev" is "hmac":"<key id>" (16 hex: the first 8 bytes of
 * SHA-256 of "cordon audit key id" and the key), so a verifier knows which
 * key to ask for. "seq" counts records from 1 across rotated files.
 * "prev" and "hash" are always the last two members, in that order, with
 * exactly that spelling.
 *
 * A writer that is killed mid-append leaves a last line without '\n'.
 * The next writer ends it with '\n' and follows it with a record of event
 * "recovered" naming everything after the last whole record: the length
 * and SHA-256 of those bytes as they were ("torn_bytes", "torn_sha256";
 * the cut line, and lines that are not records, such as a recovery that
 * was itself cut); its "prev" is the last whole record's hash. A write
 * that fails part-way (a full disk) is cut back under the lock instead.
 *
 * Appends: open with O_APPEND (never through a symlink, never anything
 * but a regular file of this user that others cannot write), flock
 * (LOCK_EX) per record, fstat, and a check that the path still names the
 * locked file (else reopen); when the file is not the one this handle
 * wrote last (another process appended, or rotated) the tail is re-read
 * to find the last hash and seq; the line is written with one write();
 * fsync per policy; unlock. Rotation happens under the same lock:
 * path.N-1 → path.N … path.2, the new file is made beside the path
 * (path.new, locked, holding its "rotated" record), path is linked as
 * path.1 and path.new renamed over path: the path never goes missing.
 */
#ifndef CORDON_AUDIT_H
#define CORDON_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon.h"

#define AUDIT_HASH_HEX 64
#define AUDIT_KEYID_HEX 16
/* The longest record line (a longer one is refused by the writer and is
 * an error for the verifier). */
#define AUDIT_MAX_LINE ((size_t)1 << 20)

/* One line as the verifier reads it. */
struct audit_line {
	uint64_t seq;
	char event[32];
	char prev[AUDIT_HASH_HEX + 1];
	char hash[AUDIT_HASH_HEX + 1]; /* as written in the line */
	char computed[AUDIT_HASH_HEX + 1]; /* SHA-256 of the hashed prefix */
	/* recovered records: the cut bytes they name */
	uint64_t torn_bytes;
	char torn_sha256[AUDIT_HASH_HEX + 1];
	/* "rotated" records (their previous_head is their prev) */
	bool rotated;
	/* keyed records: the key id of the "hmac" member; computed is then
	 * empty (the verifier computes the MAC of line[0..hashed)) */
	bool keyed;
	char keyid[AUDIT_KEYID_HEX + 1];
	size_t hashed;
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

/* cordon_audit_verify() on one file held in memory, data[0..len) (named
 * "<buffer>" in the report), for the fuzzer, with the default options. Pure. CORDON_OK, or
 * CORDON_E_NOMEM. */
enum cordon_err audit_verify_buffer(const char *data, size_t len,
				    struct cordon_audit_report *rep);

/* A handle whose every record goes through fd (or, fd -1, a connection to
 * the socket path), the relay to the `cordon run` outside the sandbox
 * (relay.h), instead of a file: o's path, syslog, stderr and key are not
 * used (the run's own log has them); fd is borrowed and stays open, path
 * is copied. */
enum cordon_err audit_open_relay(const struct cordon_audit_opts *o, int fd,
				 const char *path, struct cordon_audit **out,
				 struct cordon_diag *diag);

/* ---- durability that rides with the effect --------------------------------
 *
 * A hook answers before the effect it permits; with audit.fsync every or
 * batch its record must be on disk before that effect, not necessarily
 * before the answer (README "Sinks and fsync"). A record whose effect
 * happens inside a `cordon run` (the hook's sandbox rewrite) is written
 * unsynced, and the run fdatasyncs the file, by its device and inode,
 * before it lets the command exec; a deny's record is written unsynced
 * and left to the next synced record of the file (fdatasync writes all of
 * the file's dirty data), a rotation (which syncs the file it renames
 * away) or the kernel's write-back. */

/* A log file as the rewrite names it: "DEV:INO", decimal. */
struct audit_file_id {
	unsigned long long dev, ino;
};

/* The file a's next record goes to (fstat of its descriptor) when that
 * record owes an fdatasync another process may take for it: a file sink
 * with an absolute path and audit.fsync every or batch. false otherwise
 * (no file, a relay, fsync never, a relative path). */
bool audit_sync_target(struct cordon_audit *a, struct audit_file_id *id);
/* The file sink's path as opened (NULL: none). */
const char *audit_file_path(const struct cordon_audit *a);
/* From now on records are written without their fdatasync; closing does
 * not take it either. The caller owes it: audit_sync(), or a run given
 * audit_last_file()'s id, or (a deny) nothing. */
void audit_defer_sync(struct cordon_audit *a);
/* The file the last record went to; false before any record. */
bool audit_last_file(struct cordon_audit *a, struct audit_file_id *id);
/* fdatasync of the file the last record went to (and the deferral ends).
 * CORDON_E_IO naming the path and errno. */
enum cordon_err audit_sync(struct cordon_audit *a, struct cordon_diag *diag);
/* fdatasync of the log file id, found at path or, rotated since, at
 * path.1. CORDON_E_IO when it is at neither, the sync fails, or the sync
 * mark names the file (below). */
enum cordon_err audit_sync_file(const char *path,
				const struct audit_file_id *id,
				struct cordon_diag *diag);

/* The sync mark. Linux reports a write-back error once per error to the
 * descriptors open when it happened; one opened after some process saw it
 * gets 0 from fdatasync. So every fdatasync of a log here is taken holding
 * an flock on PATH.syncfail (beside the log, made empty and 0600 the first
 * time, never through a symlink), and one that fails (a record's,
 * rotate()'s, audit_sync()'s, audit_sync_file()'s, at close) adds the
 * file's "DEV:INO" line to it before the lock goes. A sync whose
 * descriptor may be newer than the error (audit_sync_file(), rotate())
 * reads the mark under the lock and fails for a file it names; a rotation
 * never renames such a file away. A later sync that succeeds does not
 * clear it: the operator does, after checking the log (README "Sinks and
 * fsync"). */
#define AUDIT_MARK_SUFFIX ".syncfail"
/* audit_sync_file() in three steps, for a thread that must not allocate,
 * format or take the C library's locks (a run's, across the child's
 * clone): _new() makes the names (before the thread; NULL with diag when
 * they are over PATH_MAX or out of memory), _run() takes only system
 * calls and stores the outcome, _result() makes the message (a job not
 * run is refused). In builds other than release, _new() reads
 * CORDON_TEST_SYNC_DELAY_MS (_run() sleeps that long before the sync) and
 * CORDON_TEST_SYNC_FAIL (a sync that passed fails), for tests of the
 * caller's wait. */
struct audit_sync_job;
struct audit_sync_job *audit_sync_job_new(const char *path,
					  const struct audit_file_id *id,
					  struct cordon_diag *diag);
void audit_sync_job_run(struct audit_sync_job *j);
enum cordon_err audit_sync_job_result(const struct audit_sync_job *j,
				      struct cordon_diag *diag);
void audit_sync_job_free(struct audit_sync_job *j);
/* "DEV:INO" into buf; -1 when it does not fit. */
int audit_file_id_format(const struct audit_file_id *id, char *buf, size_t cap);
/* Strict "DEV:INO" (decimal, no sign, blank or leading zero, each within
 * 64 bits); -1 otherwise. Pure. */
int audit_file_id_parse(const char *s, struct audit_file_id *id);

/* Tests only: when set, a record is written with two write() calls and
 * this is called between them (a test kills the process there to leave
 * a cut line). NULL in every real use. */
extern void (*audit_test_between_writes)(void);

#endif
