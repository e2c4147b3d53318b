/* hook_door — `cordon hook cursor|copilot|codex|windsurf|qwen|kiro|cline`:
 * the pre-tool hooks of Cursor, GitHub Copilot CLI, Codex CLI, Windsurf,
 * Qwen Code, Kiro CLI and Cline (cline_call).
 *
 * Each door reads its agent's JSON, turns it into the one call shape the
 * Claude Code door already decides (tool, tool_input, cwd, session), runs
 * that door's pipeline in-process (configuration, policy, approvals,
 * audit log, the hints for the model: cli/hook.c, with stdin and stdout
 * pointed at memory) and answers in the agent's own shape. The audit
 * record names the real door ("cursor-hook", "copilot-hook").
 *
 * Cursor (.cursor/hooks.json, cursor.com/docs/agent/hooks): every event
 * carries hook_event_name, conversation_id, generation_id and
 * workspace_roots; then
 *   beforeShellExecution {command, cwd}          -> Bash {command}
 *   beforeMCPExecution   {tool_name, tool_input,  -> mcp__cursor__TOOL
 *                         url | command}             (tool_input: an object
 *                                                    or its JSON text)
 *   beforeReadFile       {file_path, content,     -> Read {file_path}
 *                         attachments}               (content not read)
 * answered {"permission": "allow|deny|ask", "user_message", "agent_message"}
 * (beforeReadFile: {"permission": "allow|deny"} only, so ask is deny).
 *
 * GitHub Copilot CLI (every .json in .github/hooks/, preToolUse): {timestamp, cwd,
 * toolName, toolArgs} with toolArgs the arguments' JSON text (an object is
 * taken too); bash -> Bash {command}, view -> Read, create -> Write, edit
 * -> Edit (path -> file_path), any other tool by its own name. Answered
 * {"permissionDecision": "allow|deny", "permissionDecisionReason"}: the
 * CLI acts only on deny, so a call that needs approval is denied with a
 * reason saying so (letting it through would run it unasked).
 *
 * Codex CLI (hooks.json, PreToolUse; the input and output schemas ship
 * in the codex binary): Claude Code's input shape {hook_event_name,
 * session_id, cwd, permission_mode, tool_name, tool_input, tool_use_id,
 * transcript_path, model, turn_id}; its shell tools (Bash, shell,
 * exec_command, local_shell, unified_exec; command a string or an argv
 * list) become Bash {command}, apply_patch one Write per file the patch
 * names (the strictest answer wins), other tools pass by name. Answered
 * with Claude's hookSpecificOutput: deny with a reason; allow as no
 * output (Codex takes "allow" only with updatedInput, which carries the
 * Claude door's sandbox rewrite of a command string); ask is deny.
 *
 * Windsurf (Cascade hooks): {agent_action_name, trajectory_id,
 * tool_info}; pre_run_command, pre_read_code, pre_write_code and
 * pre_mcp_tool_use as Bash, Read, Write and mcp__SERVER__TOOL; a pre-hook
 * blocks by exiting 2 with its reason on stderr, allows by exiting 0
 * (and has no ask: it is a block).
 *
 * Qwen Code (.qwen/settings.json, PreToolUse; read from the shipped
 * cli.js of @qwen-code/qwen-code 0.15.10): Claude's input shape with
 * Gemini CLI's tool names and its own approval modes (qwen_call);
 * answered with Claude's hookSpecificOutput, allow or deny with a reason.
 * Its PreToolUse blocks on "ask" without a dialog and does not apply
 * updatedInput (only its PermissionRequest hook does), so ask is deny and
 * a sandbox rewrite is refused.
 *
 * Kiro CLI (an agent's hooks.preToolUse in .kiro/agents/NAME.json): exit
 * 0 runs the call, exit 2 blocks it with stderr given to the model
 * (kiro_call); no ask, no rewrite.
 *
 * Cursor and Copilot CLI do not let a hook change the command, so a call
 * the Claude door
 * would only allow rewritten into cordon's sandbox (updatedInput) is
 * refused there (and for Codex when there is no command string to
 * rewrite): never run unsandboxed what was to be sandboxed.
 *
 * Fail closed as the other doors: malformed input, a pipeline that does
 * not answer, and an answer that cannot be read are all "deny" (exit 0 so
 * the agent reads why); --fail-open turns only malformed input into allow.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agents.h"
#include "cli.h"
#include "cordon.h"
#include "hook_input.h"
#include "hooksbx.h"
#include "json.h"

#include "banned.h"

#define DOOR_MAX_INPUT (1024 * 1024)
#define DOOR_MAX_ANSWER (256 * 1024)

const char *cli_hook_door_name;

/* Cline's tools that touch nothing outside the conversation, mapped as
 * the Claude door maps its own: the VS Code extension's (its
 * src/shared/tools.ts) and the CLI's (@cline/core 0.0.86). Subagents and
 * teammates are not here: whether their calls reach the hook was not
 * checked, so they are decided as unknown tools. */
static const char *const cline_internal[] = {
	"ask_followup_question", "attempt_completion", "new_task",
	"plan_mode_respond",	 "act_mode_respond",   "focus_chain",
	"condense",		 "summarize_task",     "load_mcp_documentation",
	"use_skill",		 "ask_question",       "submit_and_exit",
	"skills",
	/* browser_action without a url (click, type, scroll, close): on
	 * the page its launch opened, whose url was decided then. */
	"browser_action",	 NULL,
};

static const struct {
	const char *name;
	const char *door;
	const char *title;
	bool rewrites; /* the agent runs a command the hook hands back */
	/* its bookkeeping tools (conversation only), or NULL */
	const char *const *internal_tools;
} doors[] = {
	[DOOR_CURSOR] = { "cursor", "cursor-hook", "Cursor", false, NULL },
	[DOOR_COPILOT] = { "copilot", "copilot-hook", "GitHub Copilot CLI",
			   false, NULL },
	[DOOR_CODEX] = { "codex", "codex-hook", "Codex CLI", true, NULL },
	[DOOR_WINDSURF] = { "windsurf", "windsurf-hook", "Windsurf", false, NULL },
	[DOOR_QWEN] = { "qwen", "qwen-hook", "Qwen Code", false, NULL },
	[DOOR_KIRO] = { "kiro", "kiro-hook", "Kiro CLI", false, NULL },
	/* Cline's CLI rewrites (a call at a time: door_call.rewritable). */
	[DOOR_CLINE] = { "cline", "cline-hook", "Cline", false,
			 cline_internal },
};

static int door_of(const char *name)
{
	for (size_t i = 0; i < sizeof(doors) / sizeof(doors[0]); i++)
		if (strcmp(doors[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool cli_hook_door_owns(int argc, char **argv)
{
	return argc >= 2 && door_of(argv[1]) >= 0;
}

static void usage(FILE *out)
{
	fputs("usage: cordon hook cursor [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook copilot [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook codex [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook windsurf [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook qwen [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook kiro [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook cline [OPTIONS] < HOOK-INPUT.json\n"
	      "\n"
	      "Decide one tool call for Cursor's beforeShellExecution, "
	      "beforeMCPExecution\n"
	      "or beforeReadFile hook, GitHub Copilot CLI's preToolUse hook, "
	      "or Codex CLI's\n"
	      "PreToolUse hook, or Windsurf's pre_run_command, pre_read_code, "
	      "pre_write_code\n"
	      "and pre_mcp_tool_use hooks, Qwen Code's PreToolUse hook or "
	      "Kiro CLI's\n"
	      "preToolUse hook, or Cline's PreToolUse hook (the VS Code "
	      "extension's and the CLI's), with the\n"
	      "same policy, approvals and audit log as 'cordon hook claude'. "
	      "Install it\n"
	      "with 'cordon init cursor', 'cordon init copilot' or 'cordon "
	      "init codex' (and so on for each agent).\n"
	      "\n"
	      "options:\n"
	      "  --config FILE     a configuration file, applied after the "
	      "user and\n"
	      "                    project files\n"
	      "  --audit-log FILE  where audit records go\n"
	      "  --workspace DIR   the workspace (default: Cursor's first "
	      "workspace root,\n"
	      "                    Copilot's cwd, else the current directory)\n"
	      "  --mode MODE       the permission mode: supervised "
	      "(default),\n"
	      "                    auto-accept-edits, auto, full-access\n"
	      "  --fail-open       allow (instead of deny) when the input is "
	      "malformed\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "exit status: 0 with an answer printed (also for a deny), 2 on "
	      "a usage\n"
	      "error, 1 when the answer could not be written. Windsurf and "
	      "Kiro read no\n"
	      "answer: there 0 allows and 2 blocks, the reason on stderr. "
	      "Cline's refusal\n"
	      "({\"cancel\": true}) cancels its task.\n",
	      out);
}

struct door_opts {
	enum door_agent agent;
	struct cli_hook_opts h; /* as for every agent (hookopts.c) */
	bool call_rewrites; /* this call can come back rewritten (Cline) */
};

/* 0 parsed, 1 help printed, -1 usage error (reported). */
static int parse_options(int argc, char **argv, struct door_opts *o)
{
	int rc = cli_hook_parse_options(argc, argv, &o->h, usage);

	if (rc)
		return rc;
	o->agent = (enum door_agent)door_of(o->h.name);
	return 0;
}

/* Reads and converts the agent's input. 0, or -1 with why filled. */
static int read_call(enum door_agent agent, struct door_call *dc, char *why,
		     size_t cap)
{
	size_t len = 0;
	char *text = cli_read_file("-", DOOR_MAX_INPUT, &len);
	int rc;

	dc->shape = hook_door_shape(agent);
	if (!text) {
		snprintf(why, cap, "%s",
			 errno == EFBIG ? "the input is over the limit of "
					  "1048576 bytes" :
					  strerror(errno));
		return -1;
	}
	rc = hook_door_parse(agent, text, len, dc, why, cap);
	free(text);
	return rc;
}

/* ---- the answer ---------------------------------------------------------- */

/* Prints the answer in the agent's shape (updated taken). 0, 2 for an
 * exit status 2 (the reason on stderr), or -1 when stdout failed. */
static int answer(enum answer_shape shape, const char *decision,
		  const char *reason, cJSON *updated)
{
	char *text = NULL;
	int rc = hook_door_answer_text(shape, decision, reason, updated, &text);
	bool ok;

	if (rc == 2) {
		fprintf(stderr, "%s\n", reason);
		return 2;
	}
	if (rc == 0 && !text)
		return fflush(stdout) == 0 ? 0 : -1;
	if (!text) {
		/* Out of memory: a fixed refusal still reaches the agent. */
		fputs(shape == SHAPE_CLINE ?
			      "{\"cancel\":true,\"errorMessage\":\"cordon: "
			      "out of memory\"}\n" :
		      shape == SHAPE_COPILOT ?
			      "{\"permissionDecision\":\"deny\","
			      "\"permissionDecisionReason\":\"cordon: out of "
			      "memory\"}\n" :
		      shape == SHAPE_CODEX || shape == SHAPE_QWEN ?
			      "{\"hookSpecificOutput\":{\"hookEventName\":"
			      "\"PreToolUse\",\"permissionDecision\":\"deny\","
			      "\"permissionDecisionReason\":\"cordon: out of "
			      "memory\"}}\n" :
			      "{\"permission\":\"deny\"}\n",
		      stdout);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	ok = puts(text) >= 0 && fflush(stdout) == 0;
	free(text);
	return ok ? 0 : -1;
}

/* Records a refused malformed input; the door answers either way, but a
 * record that cannot be written turns --fail-open's allow into a deny. */
static bool audit_malformed(const struct door_opts *o, const char *ws,
			    const char *sent, const char *why)
{
	struct cordon_config *cfg = NULL;
	struct cordon_audit *audit = NULL;
	struct cordon_diag diag = { 0 };
	cJSON *x = cJSON_CreateObject();
	char *extra = NULL;
	bool ok = false;

	if (!x || !cJSON_AddStringToObject(x, "door", doors[o->agent].door) ||
	    !cJSON_AddStringToObject(x, "sent", sent) ||
	    !cJSON_AddItemToObject(x, "malformed",
				   json_clean_string(why, strlen(why))) ||
	    !(extra = cJSON_PrintUnformatted(x)))
		goto out;
	if (cli_load_config(&cfg, o->h.config, ws) != 0 ||
	    cli_open_audit(cfg, o->h.audit_log, &audit) != 0)
		goto out;
	ok = cordon_audit_event(audit, "hook", extra, &diag) == CORDON_OK;
	if (!ok)
		fprintf(stderr, "cordon hook: %s\n", diag.message);
	ok = cordon_audit_close(audit) == CORDON_OK && ok;
	audit = NULL;
out:
	cordon_audit_close(audit);
	cordon_config_free(cfg);
	cJSON_Delete(x);
	free(extra);
	return ok;
}

/* Runs the Claude Code door on the call with stdin and stdout in memory.
 * Returns the answer's text (malloc'd) or NULL with why filled. */
static char *run_claude_door(const struct door_opts *o, const cJSON *call,
			     const char *ws, char *why, size_t cap)
{
	char *in = cJSON_PrintUnformatted(call), *out = NULL;
	struct cli_hook_opts *h = malloc(sizeof(*h));
	int in_fd = -1, out_fd = -1, saved_in = -1, saved_out = -1;
	size_t len = 0;
	int status;

	/* The Claude door with this door's options, as parsed. */
	if (h) {
		*h = o->h;
		h->agent = 0;
		h->workspace = ws;
		/* --fail-open is for the agent's input, read already: a call
		 * the door built that the Claude door cannot take (over its
		 * 1 MiB once an argv is quoted) is refused. */
		h->fail_open = false;
		h->no_rewrite |= !doors[o->agent].rewrites && !o->call_rewrites;
		h->internal_tools = doors[o->agent].internal_tools;
	}
	if (!in || !h) {
		free(in);
		free(h);
		snprintf(why, cap, "out of memory");
		return NULL;
	}
	in_fd = memfd_create("cordon-hook-in", MFD_CLOEXEC);
	out_fd = memfd_create("cordon-hook-out", MFD_CLOEXEC);
	if (in_fd < 0 || out_fd < 0 ||
	    write(in_fd, in, strlen(in)) != (ssize_t)strlen(in) ||
	    lseek(in_fd, 0, SEEK_SET) != 0 || fflush(stdout) != 0 ||
	    (saved_in = dup(STDIN_FILENO)) < 0 ||
	    (saved_out = dup(STDOUT_FILENO)) < 0) {
		snprintf(why, cap, "cannot set up the decision: %s",
			 strerror(errno));
		goto out;
	}
	if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0) {
		snprintf(why, cap, "cannot set up the decision: %s",
			 strerror(errno));
		goto restore;
	}
	cli_hook_door_name = doors[o->agent].door;
	status = cli_hook_run(h);
	cli_hook_door_name = NULL;
	fflush(stdout);
	if (status != CLI_EXIT_OK) {
		snprintf(why, cap, "the decision failed (status %d; the error "
			 "is on the hook's stderr)", status);
		goto restore;
	}
	if (lseek(out_fd, 0, SEEK_SET) != 0) {
		snprintf(why, cap, "cannot read the decision: %s",
			 strerror(errno));
		goto restore;
	}
restore:
	if (dup2(saved_in, STDIN_FILENO) < 0 ||
	    dup2(saved_out, STDOUT_FILENO) < 0) {
		/* stdout is gone: nothing more can be said to the agent. */
		_exit(CLI_EXIT_FAILURE);
	}
	if (!why[0]) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", out_fd);
		out = cli_read_file(path, DOOR_MAX_ANSWER, &len);
		if (!out)
			snprintf(why, cap, "cannot read the decision: %s",
				 strerror(errno));
	}
out:
	if (saved_in >= 0)
		close(saved_in);
	if (saved_out >= 0)
		close(saved_out);
	if (in_fd >= 0)
		close(in_fd);
	if (out_fd >= 0)
		close(out_fd);
	free(in);
	free(h);
	return out;
}

/* How strict a decision is: deny > ask > allow. */
static int rank(const char *d)
{
	return strcmp(d, "deny") == 0 ? 2 : strcmp(d, "ask") == 0 ? 1 : 0;
}

/* One call through the Claude door: its decision into decision (static
 * strings), its reason into reason, updatedInput (taken) into *updated. */
static void decide_one(const struct door_opts *o, const cJSON *call,
		       const char *ws, const char **decision, char *reason,
		       size_t cap, cJSON **updated)
{
	char why[512] = "";
	char *ans = run_claude_door(o, call, ws, why, sizeof(why));
	cJSON *a = ans ? cJSON_Parse(ans) : NULL;
	cJSON *hso = cJSON_GetObjectItemCaseSensitive(a, "hookSpecificOutput");
	const char *d = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(hso, "permissionDecision"));
	const char *r = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(hso, "permissionDecisionReason"));

	*updated = NULL;
	/* No decision with a reason: the Claude door leaves a call that only
	 * the mode would ask about to Claude Code's own rules. These agents'
	 * own rules are not cordon's to read, so it stays an ask (a deny
	 * where the agent has no ask). */
	if (!d && r && hso)
		d = "ask";
	if (!d || (strcmp(d, "allow") && strcmp(d, "deny") && strcmp(d, "ask"))) {
		*decision = "deny";
		snprintf(reason, cap, "cordon: %s; the call is refused",
			 why[0] ? why : "the decision could not be read");
	} else {
		*decision = strcmp(d, "allow") == 0 ? "allow" :
			    strcmp(d, "ask") == 0   ? "ask" :
						      "deny";
		snprintf(reason, cap, "%s", r ? r : "");
		*updated = cJSON_DetachItemFromObjectCaseSensitive(
			hso, "updatedInput");
	}
	cJSON_Delete(a);
	free(ans);
}

/* The Claude door's reason ends with how an allowed command would run
 * (HOOKSBX_NOTE_SANDBOXED or HOOKSBX_NOTE_UNSANDBOXED after "; ", hook.c's
 * sandbox_answer); a call these doors turn from ask into deny does not
 * run, so that part goes. */
static void drop_sandbox_note(char *reason)
{
	static const char *const notes[] = { "; " HOOKSBX_NOTE_SANDBOXED,
					     "; " HOOKSBX_NOTE_UNSANDBOXED };

	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
		char *at = strstr(reason, notes[i]);

		if (at)
			*at = '\0';
	}
}

int cli_hook_door(int argc, char **argv)
{
	struct door_opts o = { 0 };
	struct door_call dc = { 0 };
	char why[512] = "", reason[8192], wsbuf[PATH_MAX];
	const char *ws, *decision = "deny";
	cJSON *updated = NULL, *send = NULL;
	const cJSON *next;
	int rc;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (read_call(o.agent, &dc, why, sizeof(why)) != 0) {
		ws = o.h.workspace ? o.h.workspace : getcwd(wsbuf, sizeof(wsbuf));
		decision = o.h.fail_open ? "allow" : "deny";
		if (!audit_malformed(&o, ws, decision, why))
			decision = "deny";
		snprintf(reason, sizeof(reason),
			 "cordon: malformed %s hook input: %s; %s",
			 doors[o.agent].title, why,
			 strcmp(decision, "allow") == 0 ?
				 "allowed because the hook runs with "
				 "--fail-open" :
				 "the call is refused (cordon fails closed). "
				 "Instead: retry the call; if it keeps "
				 "failing, tell the user the cordon hook "
				 "cannot read its input");
		goto answer;
	}
	o.call_rewrites = dc.rewritable;
	ws = o.h.workspace     ? o.h.workspace :
	     dc.workspace[0] ? dc.workspace :
			       getcwd(wsbuf, sizeof(wsbuf));
	if (!ws) {
		snprintf(reason, sizeof(reason),
			 "cordon: no workspace (%s); the call is refused",
			 strerror(errno));
		goto answer;
	}
	decide_one(&o, dc.claude, ws, &decision, reason, sizeof(reason),
		   &updated);
	/* apply_patch: every file decided; the strictest answer is sent. */
	cJSON_ArrayForEach (next, dc.more) {
		const char *d2;
		char r2[sizeof(reason)];
		cJSON *u2;

		decide_one(&o, next, ws, &d2, r2, sizeof(r2), &u2);
		cJSON_Delete(u2);
		if (rank(d2) > rank(decision)) {
			decision = d2;
			memcpy(reason, r2, sizeof(reason));
		}
	}
	if (strcmp(decision, "allow") == 0 && updated) {
		send = hook_door_updated(&dc, updated);
		if (!send) {
			decision = "deny";
			snprintf(reason, sizeof(reason),
				 "cordon: this call is allowed only inside "
				 "cordon's sandbox, and %s's hook cannot "
				 "change this call; the call is refused. "
				 "Instead: ask the user to run the agent whole "
				 "under 'cordon run'",
				 doors[o.agent].title);
		}
	} else if (strcmp(decision, "ask") == 0 && dc.shape != SHAPE_CURSOR) {
		char more[sizeof(reason)];

		drop_sandbox_note(reason);

		snprintf(more, sizeof(more),
			 "%.7000s. %s's hook cannot ask for approval, so cordon "
			 "refuses it. Instead: ask the user to approve it (a "
			 "rule in cordon's approvals file, or a higher --mode "
			 "for the hook), or do the task without it",
			 reason, doors[o.agent].title);
		memcpy(reason, more, sizeof(reason));
	}
answer:
	rc = answer(dc.shape, decision, reason, send);
	rc = rc == 0 ? CLI_EXIT_OK : rc == 2 ? 2 : CLI_EXIT_FAILURE;
	cJSON_Delete(updated);
	hook_door_call_free(&dc);
	return rc;
}
