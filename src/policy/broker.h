/* broker — handing an ASK to the running console (`cordon console`).
 *
 * A door with no terminal (cordon mcp, cordon hook, cordon check) that has
 * approvals.broker on sets a prompt callback that calls broker_ask(): it
 * connects to the console's unix socket, sends the pending call as one JSON
 * line, and waits up to the deadline for one JSON line back. The door then
 * records the answer through the approvals code as it records a terminal's
 * (session grants, durable always/never, destructive only by exact grant).
 *
 * The request (door -> console), one line, at most BROKER_LINE_MAX bytes:
 *   {"v": 1, "door": "mcp", "tool": "Bash", "kind": "execute",
 *    "args": {...} (redacted), "command": "..." | null (redacted),
 *    "path": "..." | null, "risk": "caution" | null, "labels": ["..."],
 *    "reason": "...", "session": "..." | null, "exactOnly": false,
 *    "sandbox": "full" | "partial" | "none" | "unknown",
 *    "timeoutMs": 120000}
 * Every member is required, no other is accepted, a duplicate is refused;
 * labels are label names, risk a tier name, kind a kind name.
 *
 * The answer (console -> door), one line:
 *   {"answer": "allow_session"}   one of cordon_answer_name()'s names
 *   {"answer": "allow_session", "scope": "prefix"}
 * "scope" is optional: "exact" (the default) grants the exact command,
 * "prefix" (allow_session and allow_always only) the family the door's
 * own policy proposes (approvals_family, cordon_result_family); the door
 * takes the words from its own result, never from the console, and the
 * approvals code checks them again. No other member; a duplicate, an
 * unknown scope, or "prefix" with another answer is not an answer.
 *
 * A request relayed by a `cordon run` (below) carries one more member,
 * "relay": {"run": ID, "command": "cordon run -- …"}: ID 32 hex digits,
 * the command at most 1024 bytes. The console takes it only on its own
 * socket (0600, the host user's, masked in every sandbox): the run writes
 * it, never the door inside.
 *
 * Failing closed: no socket, a console that does not accept, a console
 * gone before it answered, or an answer that is not one of the names is
 * POLICY_ANSWER_NOBODY (cordon_policy_decide() denies it at step
 * no_prompt, as when nobody can be asked); the deadline passing is
 * CORDON_ANSWER_TIMED_OUT.
 */
#ifndef CORDON_BROKER_H
#define CORDON_BROKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cordon.h"

#define BROKER_LINE_MAX (256u << 10)
#define BROKER_SOCKET_NAME "console.sock"
#define BROKER_TOKEN_NAME "console.token"

/* The console's files: $XDG_RUNTIME_DIR/cordon/NAME, else
 * $XDG_STATE_HOME/cordon/NAME (or HOME/.local/state/cordon/NAME). name
 * NULL: the directory. 0, or -1 when there is no absolute directory or it
 * does not fit in cap. */
int broker_path(const char *name, char *buf, size_t cap);

/* What a door hands over. */
struct broker_ask {
	const char *door; /* "mcp", "hook", "check" */
	const struct cordon_result *asked;
	const char *sandbox; /* "full", "partial", "none"; NULL: "unknown" */
	unsigned timeout_ms;
};

/* The request line for a (malloc'd, NUL-terminated, ending in '\n'), the
 * arguments and the command redacted (cordon_redact). NULL when out of
 * memory. */
char *broker_request_line(const struct broker_ask *a, size_t *len);

/* Asks the console listening on sock_path. Returns the answer, or
 * POLICY_ANSWER_NOBODY with why (a sentence) set; *family (may be NULL)
 * true when the console granted the family (scope "prefix"). Blocks at most
 * a->timeout_ms (then CORDON_ANSWER_TIMED_OUT). */
enum cordon_answer broker_ask(const char *sock_path, const struct broker_ask *a,
			      bool *family, char *why, size_t whycap);

/* A request as the console reads it: the strings are owned (free with
 * broker_request_free). */
struct broker_request {
	char *door, *tool, *kind, *command, *path, *risk, *reason, *session,
		*sandbox;
	char *relay_run, *relay_command; /* NULL: not relayed */
	cJSON *args;
	uint64_t labels;
	bool exact_only;
	unsigned timeout_ms;
};

/* Parses one request line s[0..n) (the trailing newline may be there).
 * CORDON_OK, CORDON_E_PARSE with why naming the member, CORDON_E_LIMIT
 * over BROKER_LINE_MAX, CORDON_E_NOMEM. On error out is empty. */
enum cordon_err broker_parse_request(const char *s, size_t n,
				     struct broker_request *out, char *why,
				     size_t whycap);
void broker_request_free(struct broker_request *r);

/* The answer in the line s[0..n): 0..7, or -1 when it is not
 * {"answer": NAME, "scope"?: "prefix" | "exact"} with a known NAME (see
 * above). *family (may be NULL): scope "prefix". */
int broker_parse_answer(const char *s, size_t n, bool *family);

/* The answer called name[0..n), or -1. */
int broker_answer_from_name(const char *name, size_t n);

/* The answer line {"answer":"NAME"} (with ,"scope":"prefix" when family)
 * and its newline into buf; its length, or 0 when it does not fit. */
size_t broker_answer_line(int answer, bool family, char *buf, size_t cap);

/* ---- the relay: doors inside `cordon run` ------------------------------
 *
 * The console's socket and token are masked in the sandbox (a sandboxed
 * command must never reach the console's API). With approvals.broker on,
 * `cordon run` hands the command one end of a SOCK_SEQPACKET socketpair
 * as descriptor N, named by CORDON_BROKER_FD=N (past the environment
 * filter), and serves the other end on a thread of its own:
 *
 *   door -> run: one message, the request line above (at most
 *                BROKER_RELAY_MAX bytes), carrying one descriptor
 *                (SCM_RIGHTS): the door's end of a fresh socketpair, where
 *                the answer goes (doors asking at once never read each
 *                other's answers);
 *   run -> door: one message, an answer line as the console writes it,
 *                or "refused: WHY\n" (the door denies at no_prompt).
 *
 * The run judges each message (broker_relay_judge, pure): a request
 * broker_parse_request takes, valid UTF-8, from one of the doors (mcp,
 * hook, check), without a "relay" member (a door inside cannot claim to
 * be relayed by another run), a tool named with letters, digits and
 * _ - . : / @ +, a session and reason without control, bidi control or
 * line separator characters; it sets "sandbox" to the run's own
 * enforcement, "risk" and "labels" to the run's classification of the
 * command (a claim can raise them, never lower them; no command: none,
 * the claim dropped), cuts "timeoutMs" to the run's approvals.timeout_s
 * and adds "relay". It sends that to the console's socket and hands back only the
 * console's answer, rebuilt (broker_answer_line): never a durable one
 * (allow_always, deny_always: the console refuses them for relayed items,
 * and the run refuses them again), never anything else the console wrote.
 * The console keeps a relayed item's session grants apart, under the run
 * and the door's session: they never answer a host door's call, nor a call
 * of another run.
 *
 * Ceilings per run: BROKER_RELAY_INFLIGHT asks waiting at once (one more
 * is refused at once), BROKER_RELAY_MAX_ASKS asks and BROKER_RELAY_MAX_BYTES
 * bytes of requests in all (then every later ask is refused). */
#define BROKER_RELAY_ENV "CORDON_BROKER_FD"
#define BROKER_RELAY_MAX ((size_t)128 * 1024)
#define BROKER_RELAY_INFLIGHT 8
#define BROKER_RELAY_MAX_ASKS 1000
#define BROKER_RELAY_MAX_BYTES ((uint64_t)16 << 20)
#define BROKER_RELAY_ID_LEN 32 /* hex digits of a run's id */
#define BROKER_RELAY_COMMAND_MAX 1024

/* The run a relayed request comes through. */
struct broker_relay_run {
	const char *id; /* BROKER_RELAY_ID_LEN hex digits */
	const char *command; /* what the card names: "cordon run -- claude" */
	const char *sandbox; /* the run's enforcement; NULL: "unknown" */
	unsigned max_timeout_ms;
	/* the run's own, for the tier and labels of a command (one thread's;
	 * NULL: a door's claim is dropped, the card shows no tier) */
	struct cordon_classifier *cls;
	struct cordon_verdict *verdict;
};

/* Judges one message msg[0..len) from inside the sandbox (pure): on
 * CORDON_OK, *out is the request line the console gets (malloc'd,
 * NUL-terminated, ending in '\n', *outlen its length, *timeout_ms its
 * deadline); else
 * CORDON_E_PARSE, CORDON_E_INVAL or CORDON_E_LIMIT with why filled, or
 * CORDON_E_NOMEM. */
enum cordon_err broker_relay_judge(const char *msg, size_t len,
				   const struct broker_relay_run *run,
				   char **out, size_t *outlen,
				   unsigned *timeout_ms, char *why,
				   size_t whycap);

/* The door's side inside: asks through the relay descriptor fd (see
 * above), as broker_ask() does through the console's socket. */
enum cordon_answer broker_ask_relay(int fd, const struct broker_ask *a,
				    bool *family, char *why, size_t whycap);

#endif
