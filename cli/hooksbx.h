/* hooksbx — a shell command a hook let through, rewritten so that it runs in
 * cordon's sandbox, and read back by `cordon run` (hooksbx.c).
 *
 * The hook judged exact bytes; the agent will hand its tool's `command` to a
 * shell once more. So the rewritten command holds the judged bytes in a form
 * no shell re-splits or expands: base64 (standard alphabet, one word) with
 * their SHA-256 beside it. Everything else in it is a word of the set
 * [A-Za-z0-9_./=:+-] or single-quoted. `cordon run --command-b64 B64
 * --command-sha256 HEX` decodes strictly, refuses a NUL byte, checks the
 * digest, and runs `bash -c` on the bytes themselves: no second parse.
 *
 *   'BIN' run --workspace 'WS' [--config 'F'] [--audit-log 'F'
 *       [--audit-sync DEV:INO]] [--mode strict] --command-b64 B64
 *       --command-sha256 HEX
 *
 * --audit-sync names the log file the hook's record went to, unsynced:
 * the run fdatasyncs it before the command execs (src/audit/audit.h,
 * "durability that rides with the effect").
 */
#ifndef CORDON_CLI_HOOKSBX_H
#define CORDON_CLI_HOOKSBX_H

#include <stdbool.h>
#include <stddef.h>

/* The longest command the rewrite carries: its base64 must stay one
 * argument under the kernel's 128 KiB (MAX_ARG_STRLEN) with the agent's own
 * wrapper around it. A longer one is refused: the agent is told to write
 * a script file. */
#define HOOKSBX_MAX_COMMAND (90 * 1024)

/* How a hook's reason ends, saying how an allowed shell command runs
 * ("…; " then one of these): the doors that turn an ask into a deny cut
 * it off (hook_door.c), so both sides use these words. */
#define HOOKSBX_NOTE_SANDBOXED "it runs in cordon's sandbox"
#define HOOKSBX_NOTE_UNSANDBOXED "not sandboxed: "

struct hooksbx_opts {
	const char *bin; /* cordon's absolute path */
	const char *workspace; /* absolute */
	const char *config; /* --config of the hook, or NULL */
	const char *audit_log; /* --audit-log of the hook, or NULL */
	const char *audit_sync; /* "DEV:INO" of audit_log's file, or NULL */
	bool strict; /* hooks.sandbox strict: `cordon run --mode strict` */
};

/* The rewritten command for cmd[0..len) (malloc'd), or NULL with why
 * filled: a NUL byte, over HOOKSBX_MAX_COMMAND, a path that is not
 * absolute, out of memory. */
char *hooksbx_command(const struct hooksbx_opts *o, const char *cmd, size_t len,
		      char *why, size_t why_cap);

/* What `cordon run --command-b64 B64 --command-sha256 HEX` runs: the
 * decoded command (malloc'd, NUL-terminated), or NULL with why filled when
 * B64 is not strict base64, decodes to a NUL byte or over the limit, or
 * its SHA-256 is not HEX. */
char *hooksbx_decode(const char *b64, const char *want_hex, char *why,
		     size_t why_cap);

/* Appends s single-quoted for a POSIX shell ('\'' for a quote) to the
 * malloc'd string *dst of *len bytes. False when out of memory. */
bool hooksbx_quote(char **dst, size_t *len, const char *s);

#endif
