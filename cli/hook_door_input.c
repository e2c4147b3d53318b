/* hook_door_input — the other agents' events turned into the Claude Code
 * door's call shape, and the answers in each agent's own shape, with no
 * I/O: cli/hook_door.c reads stdin into hook_door_parse(), decides the
 * call through cli/hook.c's pipeline and prints what
 * hook_door_answer_text() builds; fuzz/fuzz_hookinput.c drives both. What
 * each agent sends and reads is in cli/hook_door.c's header comment.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hook_input.h"
#include "hooksbx.h"
#include "json.h"

#include "banned.h"

/* ---- the agents' input --------------------------------------------------- */

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

static int need_str(const cJSON *o, const char *k, const char **out, char *why,
		    size_t cap)
{
	if (opt_str(o, k, out, why, cap))
		return -1;
	if (!*out || !(*out)[0]) {
		snprintf(why, cap, "%s: expected a non-empty string", k);
		return -1;
	}
	return 0;
}

/* The value the JSON text s (member k of the agent's input) holds, whole:
 * *out the value, or NULL when s is not JSON text or has more after the
 * value. -1 with why filled when s holds a \u0000 escape: cJSON cuts a
 * string at it, so the call judged would not be the one the agent runs. */
static int json_text(const char *s, const char *k, cJSON **out, char *why,
		     size_t cap)
{
	*out = NULL;
	if (json_nul_escape_at(s, strlen(s)) < strlen(s)) {
		snprintf(why, cap, "%s: holds a \\u0000 escape", k);
		return -1;
	}
	*out = cJSON_ParseWithOpts(s, NULL, 1);
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
		snprintf(why, cap, "%s: expected an object or its JSON text",
			 k);
		return NULL;
	}
	if (json_text(v->valuestring, k, &o, why, cap) != 0)
		return NULL;
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		snprintf(why, cap, "%s: not the JSON text of an object", k);
		return NULL;
	}
	return o;
}

/* Claude's file tools name their path file_path: the agent's key k of
 * args renamed so. -1 with why filled when args has both (which one the
 * agent's tool reads is not cordon's to guess; the policy judges
 * file_path). */
static int as_file_path(cJSON *args, const char *k, const char *where,
			char *why, size_t cap)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(args, k);

	if (!v)
		return 0;
	if (cJSON_GetObjectItemCaseSensitive(args, "file_path")) {
		snprintf(why, cap, "%s: both %s and file_path", where, k);
		return -1;
	}
	cJSON_DetachItemViaPointer(args, v);
	cJSON_AddItemToObject(args, "file_path", v);
	return 0;
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
	const cJSON *roots =
		cJSON_GetObjectItemCaseSensitive(in, "workspace_roots");
	cJSON *args = NULL;
	char tool[600];

	if (need_str(in, "hook_event_name", &event, why, cap) ||
	    opt_str(in, "conversation_id", &session, why, cap))
		return -1;
	if (roots && !cJSON_IsArray(roots)) {
		snprintf(why, cap, "workspace_roots: expected an array");
		return -1;
	}
	if (cJSON_IsArray(roots) &&
	    cJSON_IsString(cJSON_GetArrayItem(roots, 0)) &&
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
		args = args_object(
			cJSON_GetObjectItemCaseSensitive(in, "tool_input"),
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

/* An agent's tool name and the Claude Code tool it is judged as. */
struct door_tool {
	const char *name;
	const char *tool;
};

/* The Claude Code tool for name in t[0..n), or name itself. */
static const char *door_tool(const struct door_tool *t, size_t n,
			     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, t[i].name) == 0)
			return t[i].tool;
	return name;
}

/* Copilot CLI's tools and the argument that names their path. */
static const struct door_tool copilot_tools[] = {
	{ "bash", "Bash" }, { "view", "Read" },	       { "create", "Write" },
	{ "edit", "Edit" }, { "str_replace", "Edit" },
};

static int copilot_call(const cJSON *in, struct door_call *dc, char *why,
			size_t cap)
{
	const char *name, *cwd, *tool;
	cJSON *args;

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
	tool = door_tool(copilot_tools,
			 sizeof(copilot_tools) / sizeof(copilot_tools[0]),
			 name);
	if (tool != name && strcmp(tool, "Bash") != 0 &&
	    as_file_path(args, "path", "toolArgs", why, cap) != 0) {
		cJSON_Delete(args);
		return -1;
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
		bool plain = *p != '\0' &&
			     strspn(p, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789/._+-,:=@%") == strlen(p);

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
	static const char *const names[] = { "Bash",	     "shell",
					     "local_shell",  "exec_command",
					     "unified_exec", "container.exec" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* A Write call for every file one patch text adds, updates, deletes or
 * moves to, after dc->claude in dc->more. 0, or -1 with why filled. */
static int patch_files(const char *text, const char *cwd, const char *session,
		       struct door_call *dc, char *why, size_t cap)
{
	static const char *const heads[] = {
		"*** Add File: ", "*** Update File: ", "*** Delete File: ",
		"*** Move to: "
	};
	const char *line;

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
				snprintf(why, cap,
					 "apply_patch: a path over "
					 "%zu bytes",
					 sizeof(path));
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
	return 0;
}

/* apply_patch: a Write call for every file the patch adds, updates,
 * deletes or moves to ("*** Update File: PATH" …), in dc->claude (the
 * first) and dc->more (the rest), of every patch text given (input,
 * patch, the argv's second word: which one the tool applies is not
 * cordon's to guess). */
static int codex_patch(const cJSON *ti, const char *cwd, const char *session,
		       struct door_call *dc, char *why, size_t cap)
{
	const cJSON *argv = cJSON_GetObjectItemCaseSensitive(ti, "command");
	const cJSON *texts[3] = {
		cJSON_GetObjectItemCaseSensitive(ti, "input"),
		cJSON_GetObjectItemCaseSensitive(ti, "patch"),
		cJSON_IsArray(argv) ? cJSON_GetArrayItem(argv, 1) : NULL,
	};
	size_t n = 0;

	dc->more = cJSON_CreateArray();
	if (!dc->more) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	for (size_t t = 0; t < 3; t++) {
		if (!cJSON_IsString(texts[t]))
			continue;
		n++;
		if (patch_files(texts[t]->valuestring, cwd, session, dc, why,
				cap) != 0)
			return -1;
	}
	if (!n) {
		snprintf(why, cap, "apply_patch: no patch text in tool_input");
		return -1;
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
		const cJSON *c =
			cJSON_GetObjectItemCaseSensitive(ti, "command");
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
			snprintf(why, cap,
				 "tool_input.command: expected a "
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
	if (mode &&
	    !cJSON_AddStringToObject(dc->claude, "permission_mode", mode))
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
static const struct door_tool qwen_tools[] = {
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
	tool = door_tool(qwen_tools, sizeof(qwen_tools) / sizeof(qwen_tools[0]),
			 name);
	args = cJSON_Duplicate(ti, 1);
	if (!args)
		goto oom;
	if (strcmp(tool, "Bash") == 0) {
		v = cJSON_GetObjectItemCaseSensitive(args, "command");
		if (!cJSON_IsString(v) || !v->valuestring[0]) {
			cJSON_Delete(args);
			snprintf(why, cap,
				 "tool_input.command: expected a "
				 "non-empty string");
			return -1;
		}
		if (opt_str(args, "directory", &dir, why, cap)) {
			cJSON_Delete(args);
			return -1;
		}
	} else if (tool != name) {
		if (as_file_path(args, "absolute_path", "tool_input", why,
				 cap) != 0) {
			cJSON_Delete(args);
			return -1;
		}
		v = cJSON_GetObjectItemCaseSensitive(args, "file_path");
		if (!cJSON_IsString(v) || !v->valuestring[0]) {
			cJSON_Delete(args);
			snprintf(why, cap,
				 "tool_input.file_path: expected a "
				 "non-empty string");
			return -1;
		}
	}
	if (cwd && cwd[0] == '/')
		snprintf(dc->workspace, sizeof(dc->workspace), "%s", cwd);
	dc->shape = SHAPE_QWEN;
	/* The command runs in its directory (absolute, inside the
	 * workspace): judged there. */
	dc->claude = claude_call(tool, args, dir && dir[0] == '/' ? dir : cwd,
				 session);
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
	for (op = cJSON_IsString(one) ? one :
		  ops		      ? ops->child :
					NULL;
	     op; op = op == one ? (ops ? ops->child : NULL) : op->next) {
		const cJSON *p =
			op == one ?
				one :
				cJSON_GetObjectItemCaseSensitive(op, "path");
		cJSON *args, *c;

		if (!cJSON_IsString(p) || !p->valuestring[0]) {
			snprintf(why, cap,
				 "tool_input: an operation without "
				 "a path");
			return -1;
		}
		args = cJSON_CreateObject();
		if (args && !cJSON_AddStringToObject(args, "file_path",
						     p->valuestring)) {
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
			snprintf(why, cap,
				 "tool_name '%.64s': an MCP tool is "
				 "@SERVER/TOOL",
				 tool);
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
	if (!argv ||
	    !cJSON_AddItemToArray(argv, cJSON_CreateString(cmd->valuestring))) {
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
 * call: those of every member that names some ("commands", "command" or
 * the whole {command, args}, "cmd"), as which one the tool runs is the
 * tool's to say, not cordon's to guess. *plain when there is one and it
 * is a shell line (then the CLI can take it back rewritten). */
static int cline_shell(const cJSON *ti, const char *cwd, const char *session,
		       struct door_call *dc, bool *plain, char *why, size_t cap)
{
	static const char *const keys[] = { "commands", "command", "cmd" };
	const cJSON *lists[3] = { ti }, *c;
	size_t nl = 1;
	int n = 0;

	*plain = false;
	if (cJSON_IsObject(ti)) {
		nl = 0;
		for (size_t k = 0; k < 3; k++) {
			c = cJSON_GetObjectItemCaseSensitive(ti, keys[k]);
			if (k == 1 && c &&
			    (!cJSON_IsString(c) ||
			     cJSON_GetObjectItemCaseSensitive(ti, "args")))
				c = ti; /* {command, args} */
			if (c)
				lists[nl++] = c;
		}
	}
	if (!nl || !lists[0]) {
		snprintf(why, cap, "the shell tool's input has no command");
		return -1;
	}
	for (size_t l = 0; l < nl; l++) {
		const cJSON *list = lists[l];

		for (c = cJSON_IsArray(list) ? list->child : list; c;
		     c = cJSON_IsArray(list) ? c->next : NULL) {
			char *line = cline_command(c);
			int rc;

			if (!line) {
				snprintf(why, cap,
					 "a command of the shell tool is not "
					 "a non-empty string or {command, "
					 "args}");
				return -1;
			}
			rc = cline_one(dc, "Bash", "command", line, cwd,
				       session);
			free(line);
			if (rc)
				goto oom;
			*plain = n == 0 && cJSON_IsString(c);
			n++;
		}
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
		return v->valuestring[0] && cline_one(dc, tool, "file_path",
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
	/* every key present: which one the tool reads is not cordon's to
	 * guess */
	for (size_t i = 0; cJSON_IsObject(v) && i < 3; i++) {
		e = cJSON_GetObjectItemCaseSensitive(v, keys[i]);
		if (!e)
			continue;
		k = cJSON_IsString(e) ? cline_paths(e, tool, cwd, session, dc) :
					-1;
		if (k <= 0)
			return -1;
		n += k;
	}
	return n ? n : -1;
}

/* The extension's parameters: strings, and JSON text where the tool
 * has a list or an object ("arguments", "commands", "files" …). */
static cJSON *cline_params(const cJSON *p, char *why, size_t cap)
{
	static const char *const structured[] = { "commands",	"files",
						  "file_paths", "paths",
						  "arguments",	"requests" };
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
		char name[96];

		if (!cJSON_IsString(v)) {
			cJSON_Delete(out);
			snprintf(why, cap,
				 "preToolUse.parameters.%.64s: "
				 "expected a string",
				 v->string);
			return NULL;
		}
		snprintf(name, sizeof(name), "preToolUse.parameters.%.64s",
			 v->string);
		for (size_t i = 0; i < sizeof(structured) / sizeof(*structured);
		     i++)
			if (strcmp(v->string, structured[i]) == 0 &&
			    strchr("[{", v->valuestring[0]) &&
			    v->valuestring[0] &&
			    json_text(v->valuestring, name, &item, why, cap) !=
				    0) {
				cJSON_Delete(out);
				return NULL;
			}
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
	static const char *const path_keys[] = { "files",     "file_paths",
						 "paths",     "path",
						 "file_path", "filePath" };
	const cJSON *roots =
		cJSON_GetObjectItemCaseSensitive(in, "workspaceRoots");
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
				snprintf(why, cap,
					 "tool_call: expected an "
					 "object with a name");
			return -1;
		}
		ti = cJSON_GetObjectItemCaseSensitive(tc, "input");
		ti = ti ? cJSON_Duplicate(ti, 1) : cJSON_CreateObject();
	} else {
		if (!cJSON_IsObject(pre) ||
		    need_str(pre, "toolName", &tool, why, cap)) {
			if (!why[0] || !cJSON_IsObject(pre))
				snprintf(why, cap,
					 "preToolUse: expected an "
					 "object with a toolName");
			return -1;
		}
		ti = cline_params(
			cJSON_GetObjectItemCaseSensitive(pre, "parameters"),
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
		/* every key present, as for each path object */
		for (size_t i = 0; cJSON_IsObject(ti) &&
				   i < sizeof(path_keys) / sizeof(*path_keys);
		     i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(
				ti, path_keys[i]);
			int k;

			if (!v)
				continue;
			k = cline_paths(v, as, cwd, session, dc);
			if (k <= 0) {
				n = -1;
				break;
			}
			n = (n < 0 ? 0 : n) + k;
		}
		if (n <= 0) {
			snprintf(why, cap,
				 "%.64s: no path, or a path that is "
				 "not a non-empty string",
				 tool);
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
			snprintf(why, cap,
				 "%.64s: path: expected a non-empty "
				 "string",
				 tool);
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
		const cJSON *reqs =
			cJSON_GetObjectItemCaseSensitive(ti, "requests");
		const cJSON *r;
		int n = 0;

		for (r = cJSON_IsArray(reqs) ? reqs->child : ti; r;
		     r = cJSON_IsArray(reqs) ? r->next : NULL) {
			const char *u = cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(r, "url"));

			if (!u || !u[0]) {
				snprintf(why, cap,
					 "%.64s: url: expected a "
					 "non-empty string",
					 tool);
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
		rc = cline_push(dc, claude_call(tool,
						cJSON_IsObject(ti) ?
							cJSON_Duplicate(ti, 1) :
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

enum answer_shape hook_door_shape(enum door_agent agent)
{
	/* Cursor's beforeReadFile answers permission only: until the input
	 * is read, a refusal takes the richer shape of its event family. */
	return agent == DOOR_COPILOT  ? SHAPE_COPILOT :
	       agent == DOOR_CODEX    ? SHAPE_CODEX :
	       agent == DOOR_WINDSURF ? SHAPE_EXIT2 :
	       agent == DOOR_KIRO     ? SHAPE_EXIT2 :
	       agent == DOOR_QWEN     ? SHAPE_QWEN :
	       agent == DOOR_CLINE    ? SHAPE_CLINE :
					SHAPE_CURSOR;
}

int hook_door_parse(enum door_agent agent, const char *text, size_t len,
		    struct door_call *dc, char *why, size_t cap)
{
	const char *end = NULL;
	cJSON *in;
	int rc = -1;

	dc->shape = hook_door_shape(agent);
	in = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!in || (end && !hook_only_space(end, len - (size_t)(end - text)))) {
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
			cJSON_GetObjectItemCaseSensitive(in,
							 "hook_event_name"));

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
	return rc;
}

void hook_door_call_free(struct door_call *dc)
{
	cJSON_Delete(dc->claude);
	cJSON_Delete(dc->more);
	cJSON_Delete(dc->tool_input);
	dc->claude = dc->more = dc->tool_input = NULL;
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

/* Codex takes a rewritten command back (updatedInput): the tool's input
 * as sent with its command string replaced. NULL when the input has no
 * command string to replace. */
static cJSON *codex_updated(const cJSON *tool_input, const cJSON *updated)
{
	const cJSON *nc = cJSON_GetObjectItemCaseSensitive(updated, "command");
	cJSON *out;

	if (!cJSON_IsString(nc) ||
	    !cJSON_IsString(
		    cJSON_GetObjectItemCaseSensitive(tool_input, "command")))
		return NULL;
	out = cJSON_Duplicate(tool_input, 1);
	if (out &&
	    !cJSON_ReplaceItemInObjectCaseSensitive(
		    out, "command", cJSON_CreateString(nc->valuestring))) {
		cJSON_Delete(out);
		return NULL;
	}
	return out;
}

cJSON *hook_door_updated(const struct door_call *dc, const cJSON *updated)
{
	if (dc->shape == SHAPE_CODEX && !dc->more)
		return codex_updated(dc->tool_input, updated);
	if (dc->shape == SHAPE_CLINE && dc->rewritable && !dc->more)
		return cline_updated(updated);
	return NULL;
}

/* ---- the answer ---------------------------------------------------------- */

int hook_door_answer_text(enum answer_shape shape, const char *decision,
			  const char *reason, cJSON *updated, char **text)
{
	cJSON *o, *h;
	bool ok;

	*text = NULL;
	if ((shape == SHAPE_CURSOR_READ || shape == SHAPE_COPILOT ||
	     shape == SHAPE_CODEX || shape == SHAPE_EXIT2 ||
	     shape == SHAPE_QWEN || shape == SHAPE_CLINE) &&
	    strcmp(decision, "ask") == 0)
		decision = "deny";
	if (shape == SHAPE_EXIT2) {
		/* Windsurf reads no answer: exit 2 blocks, stderr says why. */
		cJSON_Delete(updated);
		return strcmp(decision, "allow") == 0 ? 0 : 2;
	}
	if (shape == SHAPE_CODEX && strcmp(decision, "allow") == 0 &&
	    !updated) {
		/* Codex takes "allow" only with updatedInput: no answer is
		 * its "go ahead". */
		return 0;
	}
	o = cJSON_CreateObject();
	if (shape == SHAPE_CODEX || shape == SHAPE_QWEN) {
		h = o ? cJSON_AddObjectToObject(o, "hookSpecificOutput") : NULL;
		ok = h &&
		     cJSON_AddStringToObject(h, "hookEventName",
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
		if (ok &&
		    (!allow ||
		     (!updated && strstr(reason, HOOKSBX_NOTE_UNSANDBOXED))))
			ok = cJSON_AddItemToObject(
				o,
				allow ? "contextModification" : "errorMessage",
				json_clean_string(reason, strlen(reason)));
		if (ok && updated) {
			ok = cJSON_AddItemToObject(o, "overrideInput", updated);
			updated = NULL;
		}
	} else if (shape == SHAPE_COPILOT) {
		ok = o &&
		     cJSON_AddStringToObject(o, "permissionDecision",
					     decision) &&
		     cJSON_AddItemToObject(o, "permissionDecisionReason",
					   json_clean_string(reason,
							     strlen(reason)));
	} else {
		ok = o && cJSON_AddStringToObject(o, "permission", decision);
		if (ok && shape == SHAPE_CURSOR)
			ok = cJSON_AddItemToObject(
				     o, "user_message",
				     json_clean_string(reason,
						       strlen(reason))) &&
			     cJSON_AddItemToObject(
				     o, "agent_message",
				     json_clean_string(reason, strlen(reason)));
	}
	*text = ok ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	cJSON_Delete(updated);
	return *text ? 0 : -1;
}
