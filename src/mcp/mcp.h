/* mcp — the MCP stdio gateway (`cordon mcp … -- SERVER`).
 *
 * Sits between a client (our stdin/stdout) and a server (a child process,
 * optionally run by the sandbox) and relays newline-delimited JSON-RPC
 * both ways. What it does not inspect passes through byte for byte. It
 * inspects:
 *   client → server: "tools/call" requests (decided by the policy as tool
 *     "mcp__<name>__<tool>" with the pinned inputSchema; a pending or
 *     unknown tool, or a DENY, never reaches the server: the client gets a
 *     result with isError true and text starting "blocked: "), and
 *     "tools/list" / "initialize" requests (their ids are remembered to
 *     recognise the answers);
 *   server → client: the answers to those (initialize: server name,
 *     version, instructions recorded and pinned; tools/list: every tool
 *     observed by pins.c, pending tools removed from the list or kept
 *     with a warning prefixed to the description),
 *     "notifications/tools/list_changed" (forwarded, and the gateway sends
 *     its own tools/list with ids "cordon-gw-<n>" whose answers it keeps).
 * Batches are split: each element is handled as above, the forwarded
 * elements go on as one batch and the gateway's own answers as another.
 * Malformed lines from the client get a JSON-RPC error (-32700 / -32600)
 * with the id when one could be read, and are not forwarded; from the
 * server they are reported on stderr and dropped. Over-long lines are
 * answered (client) or dropped (server) likewise. Every call decision and
 * pin event goes to the audit log.
 */
#ifndef CORDON_MCP_H
#define CORDON_MCP_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"
#include "jsonrpc.h"
#include "pins.h"
#include "sandbox.h"

struct mcp_gateway_opts {
	const char *name;              /* server name: pins, tool names */
	char *const *argv;             /* the server command */
	struct cordon_policy *policy;  /* decides tools/call */
	unsigned decide_flags;         /* CORDON_DECIDE_* for the policy */
	struct cordon_audit *audit;    /* may be NULL */
	struct mcp_pins *pins;
	bool warn_pending;             /* keep pending tools, with a warning */
	bool new_tools_trusted;        /* mcp.new_tools "trust" */
	const char *session;           /* for session grants and the log */
	const struct sandbox_opts *sandbox; /* NULL: run the server directly */
	struct jsonrpc_limits limits;
	int client_in;                 /* normally 0 */
	int client_out;                /* normally 1 */
	/* Added by the gateway: */
	/* with sandbox: called in the process that ran sandbox_run, after it
	 * returned (rep->error says why when status is 125), before that
	 * process exits with rep->status: the CLI prints the error and
	 * writes --report there. NULL: nothing. */
	void (*sandbox_done)(const struct sandbox_report *rep, void *arg);
	void *sandbox_done_arg;
};

/* Runs the gateway until the client closes its side (then the server's
 * stdin is closed and it is waited for, killed after 5 s) or the server
 * exits (then pending client requests get an error answer). Returns the
 * exit status for `cordon mcp`: the server's (128 + the signal when one
 * killed it), 125 when it could not be started (diag says why). The
 * gateway audits every decision itself: do not also set
 * cordon_audit_on_decision as the policy's sink. SIGPIPE is ignored while
 * it runs (and restored); the server starts with it at its default. */
int mcp_gateway_run(const struct mcp_gateway_opts *o,
		    struct cordon_diag *diag);

#endif
