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
#include "hooksbx.h"
#include "cordon.h"
#include "json.h"

#include "banned.h"

#define DOOR_MAX_INPUT (1024 * 1024)
#define DOOR_MAX_ANSWER (256 * 1024)

const char *cli_hook_door_name;

enum door_agent {
	DOOR_CURSOR = 0,
	DOOR_COPILOT = 1,
	DOOR_CODEX = 2,
	DOOR_WINDSURF = 3,
	DOOR_QWEN = 4,
	DOOR_KIRO = 5,
	DOOR_CLINE = 6,
};

/* How each door answers. */
enum answer_shape {
	SHAPE_CURSOR,	   /* permission, user_message, agent_message */
	SHAPE_CURSOR_READ, /* permission only; no ask */
	SHAPE_COPILOT,	   /* permissionDecision(Reason); no ask */
	SHAPE_CODEX,	   /* Claude's hookSpecificOutput, deny only */
	SHAPE_EXIT2,	   /* Windsurf, Kiro: exit 2 and the reason on stderr */
	SHAPE_QWEN,	   /* Claude's hookSpecificOutput, allow or deny */
	SHAPE_CLINE,	   /* cancel, errorMessage, contextModification */
};

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

/* ---- the agents' input --------------------------------------------------- */

/* The call in the Claude Code door's shape, and how to answer. */
struct door_call {
	cJSON *claude;	   /* {"hook_event_name": "PreToolUse", …} */
	cJSON *more;	   /* Codex apply_patch: one call a file after it */
	cJSON *tool_input; /* Codex: the input as sent, for updatedInput */
	bool rewritable; /* Cline's CLI: one command, sent back rewritten */
	enum answer_shape shape;
	char workspace[PATH_MAX]; /* from the input, or "" */
};

/* An optional string member: 0 absent or a string (*out set), -1 wrong
 * type (why filled). */
static int opt_str(const cJSON *o, const char *k, const char **out, char *why,
		   size_t cap)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v)) {
		snprintf(why, cap, "%s: expected a string", k);
		return -1;
	}
	*out = v->valuestring;
	return 0;
}

static int need_str(const cJSON *o, const char *k, const char **out,
		    char *why, size_t cap)
{
	if (opt_str(o, k, out, why, cap))
		return -1;
	if (!*out || !(*out)[0]) {
		snprintf(why, cap, "%s: expected a non-empty string", k);
		return -1;
	}
	return 0;
}

/* Arguments given as an object, or as the JSON text of one (Copilot's
 * toolArgs, some Cursor versions' tool_input). NULL with why filled. */
static cJSON *args_object(const cJSON *v, const char *k, char *why, size_t cap)
{
	cJSON *o;

	if (!v || cJSON_IsNull(v))
		return cJSON_CreateObject();
	if (cJSON_IsObject(v))
		return cJSON_Duplicate(v, 1);
	if (!cJSON_IsString(v)) {
		snprintf(why, cap, "%s: expected an object or its JSON text", k);
		return NULL;
	}
	if (json_nul_escape_at(v->valuestring, strlen(v->valuestring)) <
	    strlen(v->valuestring)) {
		snprintf(why, cap, "%s: holds a \\u0000 escape", k);
		return NULL;
	}
	o = cJSON_Parse(v->valuestring);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		snprintf(why, cap, "%s: not the JSON text of an object", k);
		return NULL;
	}
	return o;
}

/* A Claude-shaped call: {"hook_event_name": "PreToolUse", "tool_name",
 * "tool_input" (taken), "cwd", "session_id"}. NULL when out of memory. */
static cJSON *claude_call(const char *tool, cJSON *input, const char *cwd,
			  const char *session)
{
	cJSON *c = cJSON_CreateObject();

	if (!c || !input ||
	    !cJSON_AddStringToObject(c, "hook_event_name", "PreToolUse") ||
	    !cJSON_AddStringToObject(c, "tool_name", tool) ||
	    !cJSON_AddItemToObject(c, "tool_input", input)) {
		cJSON_Delete(input);
		cJSON_Delete(c);
		return NULL;
	}
	if ((cwd && !cJSON_AddStringToObject(c, "cwd", cwd)) ||
	    (session && !cJSON_AddStringToObject(c, "session_id", session))) {
		cJSON_Delete(c);
		return NULL;
	}
	return c;
}

static int cursor_call(const cJSON *in, struct door_call *dc, char *why,
		       size_t cap)
{
	const char *event, *session, *cwd = NULL, *s;
	const cJSON *roots = cJSON_GetObjectItemCaseSensitive(in,
							      "workspace_roots");
	cJSON *args = NULL;
	char tool[600];

	if (need_str(in, "hook_event_name", &event, why, cap) ||
	    opt_str(in, "conversation_id", &session, why, cap))
		return -1;
	if (roots && !cJSON_IsArray(roots)) {
		snprintf(why, cap, "workspace_roots: expected an array");
		return -1;
	}
	if (cJSON_IsArray(roots) && cJSON_IsString(cJSON_GetArrayItem(roots, 0)) &&
	    cJSON_GetArrayItem(roots, 0)->valuestring[0] == '/')
		snprintf(dc->workspace, sizeof(dc->workspace), "%s",
			 cJSON_GetArrayItem(roots, 0)->valuestring);
	if (strcmp(event, "beforeShellExecution") == 0) {
		if (need_str(in, "command", &s, why, cap) ||
		    opt_str(in, "cwd", &cwd, why, cap))
			return -1;
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "command", s)) {
			cJSON_Delete(args);
			args = NULL;
		}
		dc->shape = SHAPE_CURSOR;
		dc->claude = claude_call("Bash", args, cwd, session);
	} else if (strcmp(event, "beforeMCPExecution") == 0) {
		if (need_str(in, "tool_name", &s, why, cap))
			return -1;
		if (strlen(s) > 512) {
			snprintf(why, cap, "tool_name: over 512 bytes");
			return -1;
		}
		args = args_object(cJSON_GetObjectItemCaseSensitive(in,
								    "tool_input"),
				   "tool_input", why, cap);
		if (!args && why[0])
			return -1;
		/* Cursor does not name the server: its MCP tools are
		 * mcp__cursor__TOOL to cordon's rules. */
		snprintf(tool, sizeof(tool), "%s%s",
			 strncmp(s, "mcp__", 5) == 0 ? "" : "mcp__cursor__", s);
		dc->shape = SHAPE_CURSOR;
		dc->claude = claude_call(tool, args, NULL, session);
	} else if (strcmp(event, "beforeReadFile") == 0) {
		if (need_str(in, "file_path", &s, why, cap))
			return -1;
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "file_path", s)) {
			cJSON_Delete(args);
			args = NULL;
		}
		dc->shape = SHAPE_CURSOR_READ;
		dc->claude = claude_call("Read", args, NULL, session);
	} else {
		snprintf(why, cap,
			 "hook_event_name '%.64s' is not one cordon decides "
			 "(beforeShellExecution, beforeMCPExecution, "
			 "beforeReadFile)",
			 event);
		return -1;
	}
	if (!dc->claude) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	return 0;
}

/* Copilot CLI's tools and the argument that names their path. */
static const struct {
	const char *copilot;
	const char *tool;
} copilot_tools[] = {
	{ "bash", "Bash" },
	{ "view", "Read" },
	{ "create", "Write" },
	{ "edit", "Edit" },
	{ "str_replace", "Edit" },
};

static int copilot_call(const cJSON *in, struct door_call *dc, char *why,
			size_t cap)
{
	const char *name, *cwd, *tool;
	cJSON *args, *path;

	if (need_str(in, "toolName", &name, why, cap) ||
	    opt_str(in, "cwd", &cwd, why, cap))
		return -1;
	if (!cJSON_GetObjectItemCaseSensitive(in, "toolArgs")) {
		snprintf(why, cap, "toolArgs is missing");
		return -1;
	}
	args = args_object(cJSON_GetObjectItemCaseSensitive(in, "toolArgs"),
			   "toolArgs", why, cap);
	if (!args)
		return -1;
	tool = name;
	for (size_t i = 0; i < sizeof(copilot_tools) / sizeof(copilot_tools[0]);
	     i++)
		if (strcmp(name, copilot_tools[i].copilot) == 0)
			tool = copilot_tools[i].tool;
	/* Claude's file tools name their path file_path. */
	path = cJSON_GetObjectItemCaseSensitive(args, "path");
	if (tool != name && strcmp(tool, "Bash") != 0 && path &&
	    !cJSON_GetObjectItemCaseSensitive(args, "file_path")) {
		cJSON_DetachItemViaPointer(args, path);
		cJSON_AddItemToObject(args, "file_path", path);
	}
	if (cwd && cwd[0] == '/')
		snprintf(dc->workspace, sizeof(dc->workspace), "%s", cwd);
	dc->shape = SHAPE_COPILOT;
	dc->claude = claude_call(tool, args, cwd, NULL);
	if (!dc->claude) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	return 0;
}

/* argv as one shell line: each word single-quoted unless plain. NULL
 * when out of memory or a word is not a string. */
static char *argv_line(const cJSON *arr)
{
	size_t cap = 1;
	const cJSON *w;
	char *out, *o;

	cJSON_ArrayForEach (w, arr) {
		if (!cJSON_IsString(w) || strlen(w->valuestring) > 65536)
			return NULL;
		cap += 4 * strlen(w->valuestring) + 3;
	}
	out = malloc(cap);
	if (!out)
		return NULL;
	o = out;
	cJSON_ArrayForEach (w, arr) {
		const char *p = w->valuestring;
		bool plain = *p != '\0' && strspn(p, "abcdefghijklmnopqrstuvwxyz"
						     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						     "0123456789/._+-,:=@%") ==
							 strlen(p);

		if (o != out)
			*o++ = ' ';
		if (plain) {
			memcpy(o, p, strlen(p));
			o += strlen(p);
			continue;
		}
		*o++ = '\'';
		for (; *p; p++) {
			if (*p == '\'') {
				memcpy(o, "'\\''", 4);
				o += 4;
			} else {
				*o++ = *p;
			}
		}
		*o++ = '\'';
	}
	*o = '\0';
	return out;
}

/* Codex's shell tools and the names Claude Code gives them. */
static bool codex_shell_tool(const char *name)
{
	static const char *const names[] = { "Bash",	  "shell",
					     "local_shell", "exec_command",
					     "unified_exec", "container.exec" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* apply_patch: a Write call for every file the patch adds, updates,
 * deletes or moves to ("*** Update File: PATH" …), in dc->claude (the
 * first) and dc->more (the rest). */
static int codex_patch(const cJSON *ti, const char *cwd, const char *session,
		       struct door_call *dc, char *why, size_t cap)
{
	static const char *const heads[] = { "*** Add File: ",
					     "*** Update File: ",
					     "*** Delete File: ", "*** Move to: " };
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(ti, "input");
	const char *text, *line;

	if (!cJSON_IsString(p))
		p = cJSON_GetObjectItemCaseSensitive(ti, "patch");
	if (!cJSON_IsString(p) &&
	    cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(ti, "command")))
		p = cJSON_GetArrayItem(
			cJSON_GetObjectItemCaseSensitive(ti, "command"), 1);
	if (!cJSON_IsString(p)) {
		snprintf(why, cap, "apply_patch: no patch text in tool_input");
		return -1;
	}
	text = p->valuestring;
	dc->more = cJSON_CreateArray();
	if (!dc->more) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	for (line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t len = strcspn(line, "\r\n");

		for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
			size_t hl = strlen(heads[h]);
			char path[PATH_MAX];
			cJSON *args, *c;

			if (len <= hl || strncmp(line, heads[h], hl) != 0)
				continue;
			if (len - hl >= sizeof(path)) {
				snprintf(why, cap, "apply_patch: a path over "
					 "%zu bytes", sizeof(path));
				return -1;
			}
			memcpy(path, line + hl, len - hl);
			path[len - hl] = '\0';
			args = cJSON_CreateObject();
			if (args &&
			    !cJSON_AddStringToObject(args, "file_path", path)) {
				cJSON_Delete(args);
				args = NULL;
			}
			c = claude_call("Write", args, cwd, session);
			if (!c) {
				snprintf(why, cap, "out of memory");
				return -1;
			}
			if (!dc->claude)
				dc->claude = c;
			else
				cJSON_AddItemToArray(dc->more, c);
		}
	}
	if (!dc->claude) {
		snprintf(why, cap, "apply_patch: the patch names no file");
		return -1;
	}
	return 0;
}

/* Codex CLI's PreToolUse (its hooks follow Claude Code's input shape):
 * shell tools become Bash {command} (an argv list joined), apply_patch a
 * Write per file, anything else passes by its own name. */
static int codex_call(const cJSON *in, struct door_call *dc, char *why,
		      size_t cap)
{
	const char *event, *tool, *cwd, *session, *mode;
	const cJSON *ti = cJSON_GetObjectItemCaseSensitive(in, "tool_input");
	cJSON *args;

	if (need_str(in, "hook_event_name", &event, why, cap) ||
	    need_str(in, "tool_name", &tool, why, cap) ||
	    opt_str(in, "cwd", &cwd, why, cap) ||
	    opt_str(in, "session_id", &session, why, cap) ||
	    opt_str(in, "permission_mode", &mode, why, cap))
		return -1;
	if (strcmp(event, "PreToolUse") != 0) {
		snprintf(why, cap,
			 "hook_event_name '%.64s' is not PreToolUse (cordon "
			 "hook codex handles only PreToolUse)",
			 event);
		return -1;
	}
	if (!ti) {
		snprintf(why, cap, "tool_input is missing");
		return -1;
	}
	if (cwd && cwd[0] == '/')
		snprintf(dc->workspace, sizeof(dc->workspace), "%s", cwd);
	dc->shape = SHAPE_CODEX;
	dc->tool_input = cJSON_Duplicate(ti, 1);
	if (!dc->tool_input) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	if (strcmp(tool, "apply_patch") == 0) {
		cJSON *c;

		if (codex_patch(ti, cwd, session, dc, why, cap) != 0)
			return -1;
		if (mode && !cJSON_AddStringToObject(dc->claude,
						     "permission_mode", mode))
			goto oom;
		cJSON_ArrayForEach (c, dc->more)
			if (mode && !cJSON_AddStringToObject(
					    c, "permission_mode", mode))
				goto oom;
		return 0;
	}
	if (codex_shell_tool(tool)) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(ti, "command");
		char *line = NULL;

		if (!cJSON_IsObject(ti) || !c) {
			snprintf(why, cap, "tool_input.command is missing");
			return -1;
		}
		if (cJSON_IsArray(c))
			line = argv_line(c);
		else if (cJSON_IsString(c))
			line = strdup(c->valuestring);
		if (!line) {
			snprintf(why, cap, "tool_input.command: expected a "
				 "string or a list of strings");
			return -1;
		}
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "command", line)) {
			cJSON_Delete(args);
			args = NULL;
		}
		free(line);
		dc->claude = claude_call("Bash", args, cwd, session);
	} else {
		args = args_object(ti, "tool_input", why, cap);
		if (!args)
			return -1;
		dc->claude = claude_call(tool, args, cwd, session);
	}
	if (!dc->claude) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	/* Codex sends Claude Code's permission modes. */
	if (mode && !cJSON_AddStringToObject(dc->claude, "permission_mode",
					     mode))
		goto oom;
	return 0;
oom:
	snprintf(why, cap, "out of memory");
	return -1;
}

/* Windsurf's Cascade hooks (hooks.json, docs.windsurf.com/windsurf/
 * cascade/hooks): {agent_action_name, trajectory_id, execution_id,
 * timestamp, tool_info}; pre_run_command {command_line, cwd} -> Bash,
 * pre_read_code {file_path} -> Read, pre_write_code {file_path, edits} ->
 * Write, pre_mcp_tool_use {mcp_server_name, mcp_tool_name,
 * mcp_tool_arguments} -> mcp__SERVER__TOOL. A pre-hook blocks by exiting
 * 2; what it writes on stderr is shown. */
static int windsurf_call(const cJSON *in, struct door_call *dc, char *why,
			 size_t cap)
{
	const cJSON *ti = cJSON_GetObjectItemCaseSensitive(in, "tool_info");
	const char *action, *session, *s, *cwd = NULL;
	cJSON *args = NULL;

	if (need_str(in, "agent_action_name", &action, why, cap) ||
	    opt_str(in, "trajectory_id", &session, why, cap))
		return -1;
	if (!cJSON_IsObject(ti)) {
		snprintf(why, cap, "tool_info: expected an object");
		return -1;
	}
	dc->shape = SHAPE_EXIT2;
	if (strcmp(action, "pre_run_command") == 0) {
		if (need_str(ti, "command_line", &s, why, cap) ||
		    opt_str(ti, "cwd", &cwd, why, cap))
			return -1;
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "command", s)) {
			cJSON_Delete(args);
			args = NULL;
		}
		if (cwd && cwd[0] == '/')
			snprintf(dc->workspace, sizeof(dc->workspace), "%s",
				 cwd);
		dc->claude = claude_call("Bash", args, cwd, session);
	} else if (strcmp(action, "pre_read_code") == 0 ||
		   strcmp(action, "pre_write_code") == 0) {
		bool read = action[4] == 'r';

		if (need_str(ti, "file_path", &s, why, cap))
			return -1;
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "file_path", s)) {
			cJSON_Delete(args);
			args = NULL;
		}
		dc->claude = claude_call(read ? "Read" : "Write", args, NULL,
					 session);
	} else if (strcmp(action, "pre_mcp_tool_use") == 0) {
		const char *server, *tool;
		char name[600];

		if (need_str(ti, "mcp_server_name", &server, why, cap) ||
		    need_str(ti, "mcp_tool_name", &tool, why, cap))
			return -1;
		if (strlen(server) > 256 || strlen(tool) > 256) {
			snprintf(why, cap, "MCP names over 256 bytes");
			return -1;
		}
		args = args_object(cJSON_GetObjectItemCaseSensitive(
					   ti, "mcp_tool_arguments"),
				   "tool_info.mcp_tool_arguments", why, cap);
		if (!args)
			return -1;
		snprintf(name, sizeof(name), "mcp__%s__%s", server, tool);
		dc->claude = claude_call(name, args, NULL, session);
	} else {
		snprintf(why, cap,
			 "agent_action_name '%.64s' is not one cordon decides "
			 "(pre_run_command, pre_read_code, pre_write_code, "
			 "pre_mcp_tool_use)",
			 action);
		return -1;
	}
	if (!dc->claude) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	return 0;
}

/* Qwen Code's PreToolUse (settings.json hooks; the input is built in the
 * shipped cli.js, firePreToolUseHook): {session_id, transcript_path, cwd,
 * hook_event_name, timestamp, permission_mode (default, plan, auto_edit,
 * yolo), tool_name, tool_input, tool_use_id}. Its tools carry Gemini
 * CLI's names: run_shell_command {command, directory} -> Bash (run in
 * directory), read_file {file_path | absolute_path} -> Read, write_file
 * -> Write, edit -> Edit; MCP tools are already mcp__SERVER__TOOL; any
 * other passes by name. */
static const struct {
	const char *qwen;
	const char *tool;
} qwen_tools[] = {
	{ "run_shell_command", "Bash" },
	{ "read_file", "Read" },
	{ "write_file", "Write" },
	{ "edit", "Edit" },
};

/* Qwen's approval modes as Claude Code's permission modes; a mode this
 * version does not know passes as it is (the Claude door then takes the
 * strictest ordinary mode). */
static const char *qwen_mode(const char *m)
{
	static const char *const map[][2] = {
		{ "default", "default" },
		{ "plan", "plan" },
		{ "auto_edit", "acceptEdits" },
		{ "yolo", "bypassPermissions" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(m, map[i][0]) == 0)
			return map[i][1];
	return m;
}

static int qwen_call(const cJSON *in, struct door_call *dc, char *why,
		     size_t cap)
{
	const char *event, *name, *cwd, *session, *mode, *tool, *dir = NULL;
	const cJSON *ti = cJSON_GetObjectItemCaseSensitive(in, "tool_input");
	cJSON *args, *v;

	if (need_str(in, "hook_event_name", &event, why, cap) ||
	    need_str(in, "tool_name", &name, why, cap) ||
	    opt_str(in, "cwd", &cwd, why, cap) ||
	    opt_str(in, "session_id", &session, why, cap) ||
	    opt_str(in, "permission_mode", &mode, why, cap))
		return -1;
	if (strcmp(event, "PreToolUse") != 0) {
		snprintf(why, cap,
			 "hook_event_name '%.64s' is not PreToolUse (cordon "
			 "hook qwen handles only PreToolUse)",
			 event);
		return -1;
	}
	if (!ti) {
		snprintf(why, cap, "tool_input is missing");
		return -1;
	}
	if (!cJSON_IsObject(ti)) {
		snprintf(why, cap, "tool_input: expected an object");
		return -1;
	}
	if (strlen(name) > 512) {
		snprintf(why, cap, "tool_name: over 512 bytes");
		return -1;
	}
	tool = name;
	for (size_t i = 0; i < sizeof(qwen_tools) / sizeof(qwen_tools[0]); i++)
		if (strcmp(name, qwen_tools[i].qwen) == 0)
			tool = qwen_tools[i].tool;
	args = cJSON_Duplicate(ti, 1);
	if (!args)
		goto oom;
	if (strcmp(tool, "Bash") == 0) {
		v = cJSON_GetObjectItemCaseSensitive(args, "command");
		if (!cJSON_IsString(v) || !v->valuestring[0]) {
			cJSON_Delete(args);
			snprintf(why, cap, "tool_input.command: expected a "
				 "non-empty string");
			return -1;
		}
		if (opt_str(args, "directory", &dir, why, cap)) {
			cJSON_Delete(args);
			return -1;
		}
	} else if (tool != name) {
		/* Claude's file tools name their path file_path. */
		v = cJSON_GetObjectItemCaseSensitive(args, "absolute_path");
		if (v && !cJSON_GetObjectItemCaseSensitive(args, "file_path")) {
			cJSON_DetachItemViaPointer(args, v);
			cJSON_AddItemToObject(args, "file_path", v);
		}
		v = cJSON_GetObjectItemCaseSensitive(args, "file_path");
		if (!cJSON_IsString(v) || !v->valuestring[0]) {
			cJSON_Delete(args);
			snprintf(why, cap, "tool_input.file_path: expected a "
				 "non-empty string");
			return -1;
		}
	}
	if (cwd && cwd[0] == '/')
		snprintf(dc->workspace, sizeof(dc->workspace), "%s", cwd);
	dc->shape = SHAPE_QWEN;
	/* The command runs in its directory (absolute, inside the
	 * workspace): judged there. */
	dc->claude = claude_call(tool, args,
				 dir && dir[0] == '/' ? dir : cwd, session);
	if (!dc->claude)
		goto oom;
	if (mode && !cJSON_AddStringToObject(dc->claude, "permission_mode",
					     qwen_mode(mode)))
		goto oom;
	return 0;
oom:
	snprintf(why, cap, "out of memory");
	return -1;
}

/* Kiro CLI's preToolUse hook (an agent's "hooks" in .kiro/agents/NAME.json,
 * kiro.dev/docs/cli/hooks): {hook_event_name: "preToolUse", cwd,
 * tool_name, tool_input}; exit 0 lets the call run, exit 2 blocks it with
 * stderr returned to the model. Built-in tools by their current and
 * earlier names: shell / execute_bash {command} -> Bash, read / fs_read
 * {path, or operations[] with a path each} -> a Read per path (the
 * strictest answer wins), write / fs_write {path} -> Write; MCP tools
 * "@SERVER/TOOL" -> mcp__SERVER__TOOL; any other passes by name. */
static int kiro_read_paths(const cJSON *ti, const char *cwd,
			   struct door_call *dc, char *why, size_t cap)
{
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(ti, "operations");
	const cJSON *one = cJSON_GetObjectItemCaseSensitive(ti, "path");
	const cJSON *op;
	int n = 0;

	if (!ops)
		ops = cJSON_GetObjectItemCaseSensitive(ti, "ops");
	if (ops && !cJSON_IsArray(ops)) {
		snprintf(why, cap, "tool_input.operations: expected an array");
		return -1;
	}
	dc->more = cJSON_CreateArray();
	if (!dc->more)
		goto oom;
	for (op = cJSON_IsString(one) ? one : ops ? ops->child : NULL; op;
	     op = op == one ? (ops ? ops->child : NULL) : op->next) {
		const cJSON *p = op == one ?
					 one :
					 cJSON_GetObjectItemCaseSensitive(op,
									  "path");
		cJSON *args, *c;

		if (!cJSON_IsString(p) || !p->valuestring[0]) {
			snprintf(why, cap, "tool_input: an operation without "
				 "a path");
			return -1;
		}
		args = cJSON_CreateObject();
		if (args &&
		    !cJSON_AddStringToObject(args, "file_path", p->valuestring)) {
			cJSON_Delete(args);
			args = NULL;
		}
		c = claude_call("Read", args, cwd, NULL);
		if (!c)
			goto oom;
		if (!dc->claude)
			dc->claude = c;
		else
			cJSON_AddItemToArray(dc->more, c);
		n++;
	}
	if (!n) {
		snprintf(why, cap, "tool_input: no path to read");
		return -1;
	}
	return 0;
oom:
	snprintf(why, cap, "out of memory");
	return -1;
}

/* need_str on a member of tool_input, naming it tool_input.K. */
static int need_ti_str(const cJSON *ti, const char *k, const char **out,
		       char *why, size_t cap)
{
	if (!need_str(ti, k, out, why, cap))
		return 0;
	snprintf(why, cap, "tool_input.%s: expected a non-empty string", k);
	return -1;
}

static int kiro_call(const cJSON *in, struct door_call *dc, char *why,
		     size_t cap)
{
	static const char *const shells[] = { "shell", "execute_bash",
					      "execute_cmd" };
	const char *event, *tool, *cwd, *s;
	const cJSON *ti = cJSON_GetObjectItemCaseSensitive(in, "tool_input");
	cJSON *args;
	bool shell = false;

	if (need_str(in, "hook_event_name", &event, why, cap) ||
	    need_str(in, "tool_name", &tool, why, cap) ||
	    opt_str(in, "cwd", &cwd, why, cap))
		return -1;
	if (strcmp(event, "preToolUse") != 0) {
		snprintf(why, cap,
			 "hook_event_name '%.64s' is not preToolUse (cordon "
			 "hook kiro handles only preToolUse)",
			 event);
		return -1;
	}
	if (!cJSON_IsObject(ti)) {
		snprintf(why, cap, "tool_input: expected an object");
		return -1;
	}
	if (strlen(tool) > 512) {
		snprintf(why, cap, "tool_name: over 512 bytes");
		return -1;
	}
	if (cwd && cwd[0] == '/')
		snprintf(dc->workspace, sizeof(dc->workspace), "%s", cwd);
	dc->shape = SHAPE_EXIT2;
	for (size_t i = 0; i < sizeof(shells) / sizeof(shells[0]); i++)
		shell |= strcmp(tool, shells[i]) == 0;
	if (shell) {
		if (need_ti_str(ti, "command", &s, why, cap))
			return -1;
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "command", s)) {
			cJSON_Delete(args);
			args = NULL;
		}
		dc->claude = claude_call("Bash", args, cwd, NULL);
	} else if (strcmp(tool, "read") == 0 || strcmp(tool, "fs_read") == 0) {
		return kiro_read_paths(ti, cwd, dc, why, cap);
	} else if (strcmp(tool, "write") == 0 ||
		   strcmp(tool, "fs_write") == 0) {
		if (need_ti_str(ti, "path", &s, why, cap))
			return -1;
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "file_path", s)) {
			cJSON_Delete(args);
			args = NULL;
		}
		dc->claude = claude_call("Write", args, cwd, NULL);
	} else if (tool[0] == '@') {
		const char *slash = strchr(tool + 1, '/');
		char name[600];

		if (!slash || slash == tool + 1 || !slash[1]) {
			snprintf(why, cap, "tool_name '%.64s': an MCP tool is "
				 "@SERVER/TOOL", tool);
			return -1;
		}
		args = cJSON_Duplicate(ti, 1);
		snprintf(name, sizeof(name), "mcp__%.*s__%s",
			 (int)(slash - tool - 1), tool + 1, slash + 1);
		dc->claude = claude_call(name, args, cwd, NULL);
	} else {
		args = cJSON_Duplicate(ti, 1);
		dc->claude = claude_call(tool, args, cwd, NULL);
	}
	if (!dc->claude) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	return 0;
}

/* Cline's PreToolUse hook: an executable file named PreToolUse in
 * .clinerules/hooks/ (or ~/Documents/Cline/Hooks/, ~/.cline/hooks/), JSON
 * on stdin, {"cancel", "contextModification", "errorMessage"} on stdout;
 * "cancel": true stops Cline's task (the only block its hooks have),
 * and a hook that exits non-zero or prints no JSON lets the call run.
 * Two inputs:
 *   the VS Code extension (src/core/hooks, hooks.proto's HookInput):
 *     {clineVersion, hookName: "PreToolUse", timestamp, taskId,
 *      workspaceRoots, userId, model, preToolUse: {toolName, parameters}}
 *     with every parameter a string (objects and lists as their JSON
 *     text); its answer cannot change the call;
 *   the CLI (@cline/core 0.0.86, hook-file-hooks): hookName "tool_call",
 *     the same base fields and preToolUse, and tool_call {id, name,
 *     input} with the input as the tool has it; "overrideInput" in the
 *     answer replaces the input, so a shell call can come back rewritten
 *     into cordon's sandbox.
 * The tools, of both: execute_command {command} and run_commands
 * {commands: [string | {command, args}]} -> a Bash per command (the
 * strictest answer wins); read_file {path} and read_files {files: [{path}]
 * …} -> a Read per path; write_to_file, new_rule -> Write, replace_in_file
 * and editor -> Edit {path}; apply_patch {input} -> a Write per file the
 * patch names; list_files, list_code_definition_names -> LS, search_files
 * -> Grep {path}, search_codebase -> Grep in the cwd; web_fetch,
 * fetch_web_content, browser_action with a url -> WebFetch (the browser's
 * other actions work the page its launch opened), web_search ->
 * WebSearch; use_mcp_tool {server_name, tool_name, arguments} ->
 * mcp__SERVER__TOOL, access_mcp_resource {server_name, uri} ->
 * mcp__SERVER__access_mcp_resource; the conversation's own tools
 * (cline_internal) as the Claude door's; any other passes by name. */

/* A call decided after the first (the strictest answer wins). */
static int cline_push(struct door_call *dc, cJSON *c)
{
	if (!c)
		return -1;
	if (!dc->claude) {
		dc->claude = c;
		return 0;
	}
	if (!dc->more)
		dc->more = cJSON_CreateArray();
	if (!dc->more || !cJSON_AddItemToArray(dc->more, c)) {
		cJSON_Delete(c);
		return -1;
	}
	return 0;
}

/* tool {key: value} as one more call. */
static int cline_one(struct door_call *dc, const char *tool, const char *key,
		     const char *value, const char *cwd, const char *session)
{
	cJSON *args = cJSON_CreateObject();

	if (args && key && !cJSON_AddStringToObject(args, key, value)) {
		cJSON_Delete(args);
		args = NULL;
	}
	return cline_push(dc, claude_call(tool, args, cwd, session));
}

/* One command of run_commands: a shell line, or {command, args} run
 * without a shell (joined quoted). malloc'd, or NULL. */
static char *cline_command(const cJSON *c)
{
	const cJSON *cmd, *args, *w;
	cJSON *argv;
	char *line;

	if (cJSON_IsString(c))
		return c->valuestring[0] ? strdup(c->valuestring) : NULL;
	cmd = cJSON_GetObjectItemCaseSensitive(c, "command");
	args = cJSON_GetObjectItemCaseSensitive(c, "args");
	if (!cJSON_IsObject(c) || !cJSON_IsString(cmd) || !cmd->valuestring[0])
		return NULL;
	if (!args || cJSON_IsNull(args))
		return strdup(cmd->valuestring);
	if (!cJSON_IsArray(args))
		return NULL;
	argv = cJSON_CreateArray();
	if (!argv || !cJSON_AddItemToArray(argv, cJSON_CreateString(
							  cmd->valuestring))) {
		cJSON_Delete(argv);
		return NULL;
	}
	cJSON_ArrayForEach (w, args)
		if (!cJSON_IsString(w) ||
		    !cJSON_AddItemToArray(argv,
					  cJSON_CreateString(w->valuestring))) {
			cJSON_Delete(argv);
			return NULL;
		}
	line = argv_line(argv);
	cJSON_Delete(argv);
	return line;
}

/* The shell commands of execute_command or run_commands, each a Bash
 * call. *n set to how many; *plain when there is one and it is a shell
 * line (then the CLI can take it back rewritten). */
static int cline_shell(const cJSON *ti, const char *cwd, const char *session,
		       struct door_call *dc, bool *plain, char *why,
		       size_t cap)
{
	const cJSON *list = ti, *c;
	int n = 0;

	*plain = false;
	if (cJSON_IsObject(ti)) {
		list = cJSON_GetObjectItemCaseSensitive(ti, "commands");
		if (!list && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
				     ti, "command")) &&
		    !cJSON_GetObjectItemCaseSensitive(ti, "args"))
			list = cJSON_GetObjectItemCaseSensitive(ti, "command");
		else if (!list && cJSON_GetObjectItemCaseSensitive(ti, "command"))
			list = ti; /* {command, args} */
		if (!list)
			list = cJSON_GetObjectItemCaseSensitive(ti, "cmd");
	}
	if (!list) {
		snprintf(why, cap, "the shell tool's input has no command");
		return -1;
	}
	for (c = cJSON_IsArray(list) ? list->child : list; c;
	     c = cJSON_IsArray(list) ? c->next : NULL) {
		char *line = cline_command(c);
		int rc;

		if (!line) {
			snprintf(why, cap, "a command of the shell tool is not "
				 "a non-empty string or {command, args}");
			return -1;
		}
		rc = cline_one(dc, "Bash", "command", line, cwd, session);
		free(line);
		if (rc)
			goto oom;
		*plain = n == 0 && cJSON_IsString(c);
		n++;
	}
	if (!n) {
		snprintf(why, cap, "the shell tool's command list is empty");
		return -1;
	}
	*plain = *plain && n == 1;
	return 0;
oom:
	snprintf(why, cap, "out of memory");
	return -1;
}

/* Every path in v (a path string, {path | file_path | filePath}, or a
 * list of them) as a call of tool. The number added, or -1. */
static int cline_paths(const cJSON *v, const char *tool, const char *cwd,
		       const char *session, struct door_call *dc)
{
	static const char *const keys[] = { "path", "file_path", "filePath" };
	const cJSON *e;
	int n = 0, k;

	if (cJSON_IsString(v))
		return v->valuestring[0] &&
				       cline_one(dc, tool, "file_path",
						 v->valuestring, cwd,
						 session) == 0 ?
			       1 :
			       -1;
	if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach (e, v) {
			k = cline_paths(e, tool, cwd, session, dc);
			if (k <= 0)
				return -1;
			n += k;
		}
		return n;
	}
	for (size_t i = 0; cJSON_IsObject(v) && i < 3; i++) {
		e = cJSON_GetObjectItemCaseSensitive(v, keys[i]);
		if (e)
			return cJSON_IsString(e) ?
				       cline_paths(e, tool, cwd, session, dc) :
				       -1;
	}
	return -1;
}

/* The extension's parameters: strings, and JSON text where the tool
 * has a list or an object ("arguments", "commands", "files" …). */
static cJSON *cline_params(const cJSON *p, char *why, size_t cap)
{
	static const char *const structured[] = { "commands", "files",
						  "file_paths", "paths",
						  "arguments", "requests" };
	cJSON *out = cJSON_CreateObject();
	const cJSON *v;

	if (!out)
		return NULL;
	if (p && !cJSON_IsObject(p)) {
		cJSON_Delete(out);
		snprintf(why, cap, "preToolUse.parameters: expected an object");
		return NULL;
	}
	cJSON_ArrayForEach (v, p) {
		cJSON *item = NULL;

		if (!cJSON_IsString(v)) {
			cJSON_Delete(out);
			snprintf(why, cap, "preToolUse.parameters.%.64s: "
				 "expected a string", v->string);
			return NULL;
		}
		for (size_t i = 0; i < sizeof(structured) / sizeof(*structured);
		     i++)
			if (strcmp(v->string, structured[i]) == 0 &&
			    strchr("[{", v->valuestring[0]) &&
			    v->valuestring[0])
				item = cJSON_Parse(v->valuestring);
		if (!item)
			item = cJSON_CreateString(v->valuestring);
		if (!item || !cJSON_AddItemToObject(out, v->string, item)) {
			cJSON_Delete(item);
			cJSON_Delete(out);
			snprintf(why, cap, "out of memory");
			return NULL;
		}
	}
	return out;
}

static int cline_call(const cJSON *in, struct door_call *dc, char *why,
		      size_t cap)
{
	static const char *const path_keys[] = { "files", "file_paths",
						 "paths",  "path",
						 "file_path", "filePath" };
	const cJSON *roots = cJSON_GetObjectItemCaseSensitive(in,
							      "workspaceRoots");
	const cJSON *pre = cJSON_GetObjectItemCaseSensitive(in, "preToolUse");
	const cJSON *tc = cJSON_GetObjectItemCaseSensitive(in, "tool_call");
	const char *event, *session, *tool, *s, *cwd = NULL;
	cJSON *ti = NULL, *args;
	bool cli, plain = false;
	int rc = -1;

	if (need_str(in, "hookName", &event, why, cap) ||
	    opt_str(in, "taskId", &session, why, cap))
		return -1;
	cli = strcmp(event, "tool_call") == 0;
	if (!cli && strcmp(event, "PreToolUse") != 0) {
		snprintf(why, cap,
			 "hookName '%.64s' is not PreToolUse (the extension) "
			 "or tool_call (the CLI): cordon hook cline decides "
			 "only those",
			 event);
		return -1;
	}
	if (roots && !cJSON_IsArray(roots)) {
		snprintf(why, cap, "workspaceRoots: expected an array");
		return -1;
	}
	s = cJSON_GetStringValue(cJSON_GetArrayItem(roots, 0));
	if (s && s[0] == '/') {
		snprintf(dc->workspace, sizeof(dc->workspace), "%s", s);
		cwd = s;
	}
	if (cli) {
		if (!cJSON_IsObject(tc) ||
		    need_str(tc, "name", &tool, why, cap)) {
			if (!why[0] || !cJSON_IsObject(tc))
				snprintf(why, cap, "tool_call: expected an "
					 "object with a name");
			return -1;
		}
		ti = cJSON_GetObjectItemCaseSensitive(tc, "input");
		ti = ti ? cJSON_Duplicate(ti, 1) : cJSON_CreateObject();
	} else {
		if (!cJSON_IsObject(pre) ||
		    need_str(pre, "toolName", &tool, why, cap)) {
			if (!why[0] || !cJSON_IsObject(pre))
				snprintf(why, cap, "preToolUse: expected an "
					 "object with a toolName");
			return -1;
		}
		ti = cline_params(cJSON_GetObjectItemCaseSensitive(pre,
								   "parameters"),
				  why, cap);
		if (!ti && why[0])
			return -1;
	}
	if (!ti)
		goto oom;
	if (strlen(tool) > 256) {
		snprintf(why, cap, "the tool name is over 256 bytes");
		goto out;
	}
	dc->shape = SHAPE_CLINE;
	if (strcmp(tool, "execute_command") == 0 ||
	    strcmp(tool, "run_commands") == 0) {
		rc = cline_shell(ti, cwd, session, dc, &plain, why, cap);
		dc->rewritable = rc == 0 && cli && plain &&
				 strcmp(tool, "run_commands") == 0;
	} else if (strcmp(tool, "read_file") == 0 ||
		   strcmp(tool, "read_files") == 0 ||
		   strcmp(tool, "write_to_file") == 0 ||
		   strcmp(tool, "new_rule") == 0 ||
		   strcmp(tool, "replace_in_file") == 0 ||
		   strcmp(tool, "editor") == 0) {
		const char *as = strncmp(tool, "read_", 5) == 0 ? "Read" :
				 strcmp(tool, "write_to_file") == 0 ||
						 strcmp(tool, "new_rule") == 0 ?
							 "Write" :
							 "Edit";
		int n = -1;

		if (!cJSON_IsObject(ti))
			n = cline_paths(ti, as, cwd, session, dc);
		for (size_t i = 0; n < 0 && cJSON_IsObject(ti) &&
				   i < sizeof(path_keys) / sizeof(*path_keys);
		     i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(
				ti, path_keys[i]);

			if (v)
				n = cline_paths(v, as, cwd, session, dc);
			if (v && n <= 0)
				break;
		}
		if (n <= 0) {
			snprintf(why, cap, "%.64s: no path, or a path that is "
				 "not a non-empty string", tool);
			goto out;
		}
		rc = 0;
	} else if (strcmp(tool, "apply_patch") == 0) {
		rc = codex_patch(ti, cwd, session, dc, why, cap);
	} else if (strcmp(tool, "list_files") == 0 ||
		   strcmp(tool, "list_code_definition_names") == 0 ||
		   strcmp(tool, "search_files") == 0) {
		const char *p = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(ti, "path"));

		if (!p || !p[0]) {
			snprintf(why, cap, "%.64s: path: expected a non-empty "
				 "string", tool);
			goto out;
		}
		rc = cline_one(dc, tool[0] == 's' ? "Grep" : "LS", "path", p,
			       cwd, session) ?
			     -2 :
			     0;
	} else if (strcmp(tool, "search_codebase") == 0) {
		rc = cline_one(dc, "Grep", NULL, NULL, cwd, session) ? -2 : 0;
	} else if (strcmp(tool, "web_fetch") == 0 ||
		   strcmp(tool, "fetch_web_content") == 0 ||
		   (strcmp(tool, "browser_action") == 0 &&
		    cJSON_GetObjectItemCaseSensitive(ti, "url"))) {
		const cJSON *reqs = cJSON_GetObjectItemCaseSensitive(ti,
								     "requests");
		const cJSON *r;
		int n = 0;

		for (r = cJSON_IsArray(reqs) ? reqs->child : ti; r;
		     r = cJSON_IsArray(reqs) ? r->next : NULL) {
			const char *u = cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(r, "url"));

			if (!u || !u[0]) {
				snprintf(why, cap, "%.64s: url: expected a "
					 "non-empty string", tool);
				goto out;
			}
			if (cline_one(dc, "WebFetch", "url", u, cwd, session))
				goto oom;
			n++;
		}
		if (!n) {
			snprintf(why, cap, "%.64s: no url", tool);
			goto out;
		}
		rc = 0;
	} else if (strcmp(tool, "web_search") == 0) {
		const char *q = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(ti, "query"));

		rc = cline_one(dc, "WebSearch", "query", q ? q : "", cwd,
			       session) ?
			     -2 :
			     0;
	} else if (strcmp(tool, "use_mcp_tool") == 0 ||
		   strcmp(tool, "access_mcp_resource") == 0) {
		const char *server, *name = "access_mcp_resource";
		char full[600];

		if (need_ti_str(ti, "server_name", &server, why, cap) ||
		    (tool[0] == 'u' &&
		     need_ti_str(ti, "tool_name", &name, why, cap)))
			goto out;
		if (strlen(server) > 256 || strlen(name) > 256) {
			snprintf(why, cap, "MCP names over 256 bytes");
			goto out;
		}
		if (tool[0] == 'u') {
			args = args_object(cJSON_GetObjectItemCaseSensitive(
						   ti, "arguments"),
					   "arguments", why, cap);
			if (!args)
				goto out;
		} else {
			args = cJSON_Duplicate(ti, 1);
		}
		snprintf(full, sizeof(full), "mcp__%s__%s", server, name);
		rc = cline_push(dc, claude_call(full, args, cwd, session)) ?
			     -2 :
			     0;
	} else {
		rc = cline_push(dc, claude_call(tool, cJSON_IsObject(ti) ?
							    cJSON_Duplicate(ti,
									    1) :
							    cJSON_CreateObject(),
						cwd, session)) ?
			     -2 :
			     0;
	}
	if (rc == -2)
		goto oom;
	goto out;
oom:
	snprintf(why, cap, "out of memory");
	rc = -1;
out:
	cJSON_Delete(ti);
	return rc;
}

/* Reads and converts the agent's input. 0, or -1 with why filled. */
static int read_call(enum door_agent agent, struct door_call *dc, char *why,
		     size_t cap)
{
	size_t len = 0;
	char *text = cli_read_file("-", DOOR_MAX_INPUT, &len);
	const char *end = NULL;
	cJSON *in;
	int rc = -1;

	/* Cursor's beforeReadFile answers permission only: until the input
	 * is read, a refusal takes the richer shape of its event family. */
	dc->shape = agent == DOOR_COPILOT  ? SHAPE_COPILOT :
		    agent == DOOR_CODEX	   ? SHAPE_CODEX :
		    agent == DOOR_WINDSURF ? SHAPE_EXIT2 :
		    agent == DOOR_KIRO	   ? SHAPE_EXIT2 :
		    agent == DOOR_QWEN	   ? SHAPE_QWEN :
		    agent == DOOR_CLINE	   ? SHAPE_CLINE :
					     SHAPE_CURSOR;
	if (!text) {
		snprintf(why, cap, "%s",
			 errno == EFBIG ? "the input is over the limit of "
					  "1048576 bytes" :
					  strerror(errno));
		return -1;
	}
	in = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!in || (end && strspn(end, " \t\r\n") != len - (size_t)(end - text))) {
		snprintf(why, cap, "the input is not valid JSON");
		goto out;
	}
	if (!cJSON_IsObject(in)) {
		snprintf(why, cap, "the input is not a JSON object");
		goto out;
	}
	for (const cJSON *a = in->child; a; a = a->next)
		for (const cJSON *b = a->next; b; b = b->next)
			if (strcmp(a->string, b->string) == 0) {
				snprintf(why, cap, "key '%.64s' appears twice",
					 a->string);
				goto out;
			}
	if (json_nul_escape_at(text, len) < len) {
		snprintf(why, cap, "the input holds a \\u0000 escape");
		goto out;
	}
	if (agent == DOOR_CURSOR) {
		const char *ev = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(in, "hook_event_name"));

		if (ev && strcmp(ev, "beforeReadFile") == 0)
			dc->shape = SHAPE_CURSOR_READ;
		rc = cursor_call(in, dc, why, cap);
	} else if (agent == DOOR_CODEX) {
		rc = codex_call(in, dc, why, cap);
	} else if (agent == DOOR_WINDSURF) {
		rc = windsurf_call(in, dc, why, cap);
	} else if (agent == DOOR_QWEN) {
		rc = qwen_call(in, dc, why, cap);
	} else if (agent == DOOR_KIRO) {
		rc = kiro_call(in, dc, why, cap);
	} else if (agent == DOOR_CLINE) {
		rc = cline_call(in, dc, why, cap);
	} else {
		rc = copilot_call(in, dc, why, cap);
	}
out:
	cJSON_Delete(in);
	free(text);
	return rc;
}

/* ---- the answer ---------------------------------------------------------- */

/* Prints the answer in the agent's shape. 0, or -1 when stdout failed. */
static int answer(enum answer_shape shape, const char *decision,
		  const char *reason, cJSON *updated)
{
	cJSON *o = cJSON_CreateObject(), *h;
	char *text = NULL;
	bool ok;

	if ((shape == SHAPE_CURSOR_READ || shape == SHAPE_COPILOT ||
	     shape == SHAPE_CODEX || shape == SHAPE_EXIT2 ||
	     shape == SHAPE_QWEN || shape == SHAPE_CLINE) &&
	    strcmp(decision, "ask") == 0)
		decision = "deny";
	if (shape == SHAPE_EXIT2) {
		/* Windsurf reads no answer: exit 2 blocks, stderr says why. */
		cJSON_Delete(o);
		cJSON_Delete(updated);
		if (strcmp(decision, "allow") == 0)
			return 0;
		fprintf(stderr, "%s\n", reason);
		return 2;
	}
	if (shape == SHAPE_CODEX && strcmp(decision, "allow") == 0 &&
	    !updated) {
		/* Codex takes "allow" only with updatedInput: no answer is
		 * its "go ahead". */
		cJSON_Delete(o);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	if (shape == SHAPE_CODEX || shape == SHAPE_QWEN) {
		h = o ? cJSON_AddObjectToObject(o, "hookSpecificOutput") : NULL;
		ok = h && cJSON_AddStringToObject(h, "hookEventName",
						  "PreToolUse") &&
		     cJSON_AddStringToObject(h, "permissionDecision", decision);
		if (ok && updated) {
			ok = cJSON_AddItemToObject(h, "updatedInput", updated);
			updated = NULL;
		} else if (ok) {
			ok = cJSON_AddItemToObject(
				h, "permissionDecisionReason",
				json_clean_string(reason, strlen(reason)));
		}
	} else if (shape == SHAPE_CLINE) {
		/* cancel stops Cline's task: the reason says why. An allowed
		 * command that runs outside cordon's sandbox says so to the
		 * model (contextModification); overrideInput is the CLI's
		 * input rewritten to run in it (no reason, as for Codex). */
		bool allow = strcmp(decision, "allow") == 0;

		ok = o && cJSON_AddBoolToObject(o, "cancel", !allow);
		if (ok && (!allow || (!updated && strstr(reason,
						  HOOKSBX_NOTE_UNSANDBOXED))))
			ok = cJSON_AddItemToObject(
				o, allow ? "contextModification" : "errorMessage",
				json_clean_string(reason, strlen(reason)));
		if (ok && updated) {
			ok = cJSON_AddItemToObject(o, "overrideInput", updated);
			updated = NULL;
		}
	} else if (shape == SHAPE_COPILOT) {
		ok = o &&
		     cJSON_AddStringToObject(o, "permissionDecision", decision) &&
		     cJSON_AddItemToObject(o, "permissionDecisionReason",
					   json_clean_string(reason,
							     strlen(reason)));
	} else {
		ok = o && cJSON_AddStringToObject(o, "permission", decision);
		if (ok && shape == SHAPE_CURSOR)
			ok = cJSON_AddItemToObject(o, "user_message",
						   json_clean_string(
							   reason,
							   strlen(reason))) &&
			     cJSON_AddItemToObject(o, "agent_message",
						   json_clean_string(
							   reason,
							   strlen(reason)));
	}
	text = ok ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	cJSON_Delete(updated);
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

/* Cline's CLI takes the input back whole (overrideInput): run_commands
 * with its one command rewritten. */
static cJSON *cline_updated(const cJSON *updated)
{
	const cJSON *nc = cJSON_GetObjectItemCaseSensitive(updated, "command");
	cJSON *out = cJSON_IsString(nc) ? cJSON_CreateObject() : NULL;
	cJSON *list = out ? cJSON_AddArrayToObject(out, "commands") : NULL;

	if (!list ||
	    !cJSON_AddItemToArray(list, cJSON_CreateString(nc->valuestring))) {
		cJSON_Delete(out);
		return NULL;
	}
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

/* Codex takes a rewritten command back (updatedInput): the tool's input
 * as sent with its command string replaced. NULL when the input has no
 * command string to replace. */
static cJSON *codex_updated(const cJSON *tool_input, const cJSON *updated)
{
	const cJSON *nc = cJSON_GetObjectItemCaseSensitive(updated, "command");
	cJSON *out;

	if (!cJSON_IsString(nc) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(tool_input,
							     "command")))
		return NULL;
	out = cJSON_Duplicate(tool_input, 1);
	if (out && !cJSON_ReplaceItemInObjectCaseSensitive(
			   out, "command", cJSON_CreateString(nc->valuestring))) {
		cJSON_Delete(out);
		return NULL;
	}
	return out;
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
		send = dc.shape == SHAPE_CODEX && !dc.more ?
			       codex_updated(dc.tool_input, updated) :
		       dc.shape == SHAPE_CLINE && dc.rewritable && !dc.more ?
			       cline_updated(updated) :
			       NULL;
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
	cJSON_Delete(dc.claude);
	cJSON_Delete(dc.more);
	cJSON_Delete(dc.tool_input);
	return rc;
}
