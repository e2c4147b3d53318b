/* relay — records of a door inside a cordon sandbox, written by the
 * `cordon run` outside it.
 *
 * The audit log's directory is read-only in the sandbox (a sandboxed agent
 * must never rewrite or cut the log), so a door that runs there (cordon's
 * own hook under `cordon run --agent`) cannot append to it. `cordon run`
 * makes a SOCK_SEQPACKET socketpair, keeps one end and hands the other to
 * the command as descriptor N, named by CORDON_AUDIT_FD=N (set by cordon
 * past the environment filter). A door whose log cannot be opened and
 * that finds that descriptor writes through it instead:
 *
 *   door -> run: one message, the record's event and members as a JSON
 *                object {"event":"decision", …members…} (already redacted
 *                by the door), at most AUDIT_RELAY_MAX bytes, carrying one
 *                descriptor (SCM_RIGHTS): the door's end of a fresh
 *                socketpair, where the answer goes (so that doors running
 *                at once never read each other's answers);
 *   run -> door: "ok" once the record is in the log, else "refused: WHY".
 *
 * No answer within AUDIT_RELAY_ACK_MS, or any other answer, is an error:
 * a call that cannot be recorded does not run. The run side never trusts
 * the message: it appends it as its own record, event "nested", holding
 * the inner event's name ("inner_event") and members ("inner"), chained
 * and redacted again like every record; it can add records, never change
 * or remove one. A message that is not such an object (not JSON, a
 * member the log owns such as "seq" or "hash", an event name the log owns
 * ("rotated", "recovered"), a name twice, too long, on the descriptor
 * without exactly one reply descriptor)
 * is refused and recorded as event "nested_refused" with its length and
 * SHA-256 (never its bytes). After AUDIT_RELAY_MAX_RECORDS records of
 * either kind in one run, or AUDIT_RELAY_MAX_BYTES of nested messages,
 * one more "nested_refused" says so and every later message is refused
 * unrecorded. The path (CORDON_AUDIT_SOCK below)
 * works the same, with the answer on the connection.
 */
#ifndef CORDON_AUDIT_RELAY_H
#define CORDON_AUDIT_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon.h"

#define AUDIT_RELAY_ENV "CORDON_AUDIT_FD"
/* The same relay by path, for a door whose launcher closed the descriptor
 * (Codex CLI's npm launcher spawns its binary with stdio only): a
 * SOCK_SEQPACKET socket `cordon run` listens on, of a random name in
 * "relay", a 0700 directory of this user's beside the audit log, outside
 * the writable roots (read-only in the sandbox, and left unmasked there;
 * the directory stays, the socket is removed after the run). One
 * connection per record; the answer comes on the connection, no
 * descriptor is passed. */
#define AUDIT_RELAY_SOCK_ENV "CORDON_AUDIT_SOCK"
/* The longest message (the default socket buffer holds it). */
#define AUDIT_RELAY_MAX ((size_t)128 * 1024)
/* Records a run writes for the doors inside it, nested and refused. */
#define AUDIT_RELAY_MAX_RECORDS ((uint64_t)100000)
/* Bytes of the messages it writes as nested records in one run: without
 * it, 100000 records of 128 KiB put 12 GiB into the caller's log. */
#define AUDIT_RELAY_MAX_BYTES ((uint64_t)64 << 20)
/* How long a door waits for the run's answer. */
#define AUDIT_RELAY_ACK_MS 30000

/* The descriptor named by the value of CORDON_AUDIT_FD (a decimal number
 * above 2, open, an AF_UNIX SOCK_SEQPACKET socket), or -1. */
int audit_relay_env_fd(const char *value);

/* 0 when the value of CORDON_AUDIT_SOCK is an absolute path naming a
 * socket of this user (not followed if a symlink), else -1. */
int audit_relay_env_path(const char *value);

/* The door's side: sends event and fields[0..flen) (members' JSON text
 * without braces, as audit.c's append() has them) through fd, or when fd
 * is -1 through a connection to path, and waits for the answer. CORDON_OK
 * only for "ok". */
enum cordon_err audit_relay_send(int fd, const char *path, const char *event,
				 const char *fields, size_t flen,
				 struct cordon_diag *diag);

/* Judges one message msg[0..len) (pure): on CORDON_OK, *out is the
 * members of the "nested" record as a JSON object (malloc'd, the caller
 * frees); else CORDON_E_PARSE, CORDON_E_INVAL or CORDON_E_LIMIT with why
 * (NUL-terminated) filled, or CORDON_E_NOMEM. */
enum cordon_err audit_relay_judge(const char *msg, size_t len, char **out,
				  char *why, size_t why_cap);

/* The run's side: one per run. */
struct audit_relay_server {
	struct cordon_audit *audit;
	uint64_t records; /* nested and nested_refused written */
	uint64_t nested;
	uint64_t refused;
	uint64_t bytes;	    /* of the messages written as nested */
	uint64_t max_bytes; /* AUDIT_RELAY_MAX_BYTES (tests lower it) */
	char *buf; /* AUDIT_RELAY_MAX + 1 bytes */
};

/* buf allocated; CORDON_OK or CORDON_E_NOMEM. */
enum cordon_err audit_relay_server_init(struct audit_relay_server *s,
					struct cordon_audit *a);
void audit_relay_server_free(struct audit_relay_server *s);

/* Reads one message from fd without blocking, records it (or its
 * refusal) and answers: on the descriptor it carried, or with conn (fd is
 * an accepted connection of the path) on fd itself. Returns 1 when a
 * message was handled, 0 when none was waiting, -1 when fd failed or its
 * peer is gone (errno). */
int audit_relay_serve(struct audit_relay_server *s, int fd, bool conn);

#endif
