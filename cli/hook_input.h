/* hook_input — what every `cordon hook AGENT` door makes of the agent's
 * bytes and what it writes back, with no I/O: the event's JSON turned into
 * a call, and the agent's answer as text.
 *
 * hook_input.c holds the Claude Code and Gemini CLI converters (the
 * pipeline in cli/hook.c reads stdin into them), hook_door_input.c the
 * other agents' (cli/hook_door.c: each turns its agent's event into a
 * Claude-shaped call for that pipeline). fuzz/fuzz_hookinput.c drives the
 * same functions the doors run.
 */
#ifndef CORDON_CLI_HOOK_INPUT_H
#define CORDON_CLI_HOOK_INPUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "hooksbx.h"

/* ---- cordon hook claude|gemini (hook_input.c) ------------------------ */

enum hook_agent {
	HOOK_CLAUDE = 0,
	HOOK_GEMINI = 1,
};

/* What the hook input says, once checked. Strings point into root or into
 * the malloc'd buffers below. */
struct hook_input {
	cJSON *root;
	const char *tool;
	char *tool_buf; /* "mcp__server__tool" built for Gemini, or NULL */
	char *args; /* tool_input printed; malloc'd */
	const char *cwd; /* the agent's cwd, or NULL */
	char *call_cwd; /* run_shell_command's dir_path resolved, or NULL */
	const char *session;
	const char *tool_use_id;
	const char *permission_mode;
	const cJSON *tool_input; /* in root */
	bool permission_request; /* Claude Code's PermissionRequest event */
	bool unwrapped; /* args hold the command inside cordon's rewrite */
	bool nul_escape; /* a \u0000 escape somewhere in the input */
};

/* Checks the hook input text[0..len) and fills in (zeroed by the caller;
 * free it with hook_input_free() either way). Returns 0, or -1 with why
 * saying what is malformed. */
int hook_parse_input(enum hook_agent agent, const char *text, size_t len,
		     struct hook_input *in, char *why, size_t why_cap);
void hook_input_free(struct hook_input *in);

/* The tools whose "command" the agent hands to a shell and takes back
 * rewritten (hooks.sandbox). */
bool hook_shell_tool(enum hook_agent agent, const char *tool);

/* tool_input with its "command" string rewritten to run in `cordon run`
 * (hooksbx_command), every other member kept. NULL with why filled. */
cJSON *hook_rewrite_input(const struct hooksbx_opts *ho,
			  const cJSON *tool_input, char *why, size_t why_cap);

/* What the agent is told. */
struct hook_answer {
	enum cordon_decision d;
	/* No decision: the agent's own rules and dialog decide (cordon's
	 * only reason to ask was the mode); the rewrite still applies. */
	bool no_decision;
	const char *reason;
	/* The tool input to run instead (the sandbox rewrite), or NULL:
	 * Claude Code's updatedInput, Gemini CLI's tool_input. */
	cJSON *updated; /* owned by whoever filled it */
	/* Claude Code's PermissionRequest: {"decision": {"behavior":
	 * "allow|deny", "message"}}, or none (its dialog is shown). */
	bool permission_request;
};

/* The agent's answer as one line of JSON (malloc'd, no newline), or NULL
 * when out of memory. reason is cleaned of NUL bytes and invalid UTF-8. */
char *hook_answer_text(enum hook_agent agent, const struct hook_answer *a);

/* Whether s[0..n) is only JSON blanks (space, tab, CR, LF). */
bool hook_only_space(const char *s, size_t n);

/* ---- the other agents' doors (hook_door_input.c) ---------------------- */

enum door_agent {
	DOOR_CURSOR = 0,
	DOOR_COPILOT = 1,
	DOOR_CODEX = 2,
	DOOR_WINDSURF = 3,
	DOOR_QWEN = 4,
	DOOR_KIRO = 5,
	DOOR_CLINE = 6,
};
#define DOOR__COUNT 7

/* How each door answers. */
enum answer_shape {
	SHAPE_CURSOR, /* permission, user_message, agent_message */
	SHAPE_CURSOR_READ, /* permission only; no ask */
	SHAPE_COPILOT, /* permissionDecision(Reason); no ask */
	SHAPE_CODEX, /* Claude's hookSpecificOutput, deny only */
	SHAPE_EXIT2, /* Windsurf, Kiro: exit 2 and the reason on stderr */
	SHAPE_QWEN, /* Claude's hookSpecificOutput, allow or deny */
	SHAPE_CLINE, /* cancel, errorMessage, contextModification */
};

/* The call in the Claude Code door's shape, and how to answer. */
struct door_call {
	cJSON *claude; /* {"hook_event_name": "PreToolUse", …} */
	cJSON *more; /* Codex apply_patch: one call a file after it */
	cJSON *tool_input; /* Codex: the input as sent, for updatedInput */
	bool rewritable; /* Cline's CLI: one command, sent back rewritten */
	enum answer_shape shape;
	char workspace[PATH_MAX]; /* from the input, or "" */
};

/* The shape a door answers in before its input is read. */
enum answer_shape hook_door_shape(enum door_agent agent);

/* Converts the agent's event text[0..len) into dc (zeroed by the caller;
 * free it with hook_door_call_free() either way; dc->shape is set even on
 * failure). 0, or -1 with why filled. */
int hook_door_parse(enum door_agent agent, const char *text, size_t len,
		    struct door_call *dc, char *why, size_t cap);
void hook_door_call_free(struct door_call *dc);

/* What the agent runs instead of the call dc came from, given the Claude
 * door's updatedInput for dc->claude (its sandbox rewrite): Codex's
 * tool_input as sent with the command string replaced, Cline's CLI
 * {"commands": [the command]}. NULL when this agent or call cannot take a
 * changed command back (then the call is refused, never run unsandboxed),
 * or out of memory. */
cJSON *hook_door_updated(const struct door_call *dc, const cJSON *updated);

/* The answer in the agent's shape (decision "allow", "deny" or "ask";
 * updated taken). 0 with *text the JSON line (malloc'd, no newline), or
 * NULL when the agent is answered by no output (Codex's allow, an allow by
 * exit 0); 2 when the agent is answered by exit status 2 with the reason
 * on stderr; -1 when out of memory. */
int hook_door_answer_text(enum answer_shape shape, const char *decision,
			  const char *reason, cJSON *updated, char **text);

#endif
