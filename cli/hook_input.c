/* hook_input — Claude Code's PreToolUse and Gemini CLI's BeforeTool
 * input turned into a call, and the answer each reads back, with no I/O:
 * cli/hook.c reads stdin into these and prints what they build, the other
 * agents' doors hand them a Claude-shaped call (hook_door_input.c), and
 * fuzz/fuzz_hookinput.c drives them. The shapes are in cli/hook.c's
 * header comment.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "hook_input.h"
#include "hooksbx.h"
#include "json.h"
#include "path.h"

#include "banned.h"

#define HOOK_MAX_MEMBERS 256 /* top-level keys of the input */

static const char *const agent_names[] = { "claude", "gemini" };
static const char *const agent_events[] = { "PreToolUse", "BeforeTool" };

/* ---- the input ----------------------------------------------------------- */

void hook_input_free(struct hook_input *in)
{
	cJSON_Delete(in->root);
	free(in->tool_buf);
	free(in->args);
	free(in->call_cwd);
}

bool hook_only_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return false;
	return true;
}

/* An optional string member: 0 absent or a string (*out set), -1 wrong
 * type (why filled). */
static int opt_string(const cJSON *o, const char *name, const char **out,
		      char *why, size_t why_cap)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	*out = NULL;
	if (!v)
		return 0;
	if (!cJSON_IsString(v)) {
		snprintf(why, why_cap, "%s: expected a string", name);
		return -1;
	}
	*out = v->valuestring;
	return 0;
}

/* Gemini CLI names an MCP tool after its server in mcp_context; cordon's
 * tool map and rules know MCP tools as mcp__server__tool. */
static int gemini_mcp_name(struct hook_input *in, char *why, size_t why_cap)
{
	const cJSON *mc =
		cJSON_GetObjectItemCaseSensitive(in->root, "mcp_context");
	const char *server, *tool;
	size_t ls, lt;

	if (!mc || cJSON_IsNull(mc))
		return 0;
	if (!cJSON_IsObject(mc)) {
		snprintf(why, why_cap, "mcp_context: expected an object");
		return -1;
	}
	if (opt_string(mc, "server_name", &server, why, why_cap) ||
	    opt_string(mc, "tool_name", &tool, why, why_cap)) {
		char inner[128];
		snprintf(inner, sizeof(inner), "%s", why);
		snprintf(why, why_cap, "mcp_context.%s", inner);
		return -1;
	}
	if (!server || !server[0] || strncmp(in->tool, "mcp__", 5) == 0)
		return 0;
	if (!tool || !tool[0])
		tool = in->tool;
	ls = strlen(server);
	lt = strlen(tool);
	if (ls > 4096 || lt > 4096) {
		snprintf(why, why_cap, "mcp_context: names over 4096 bytes");
		return -1;
	}
	in->tool_buf = malloc(ls + lt + 8);
	if (!in->tool_buf) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	memcpy(in->tool_buf, "mcp__", 5);
	memcpy(in->tool_buf + 5, server, ls);
	memcpy(in->tool_buf + 5 + ls, "__", 2);
	memcpy(in->tool_buf + 7 + ls, tool, lt + 1);
	in->tool = in->tool_buf;
	return 0;
}

/* Gemini's run_shell_command runs in tool_input.dir_path (older versions:
 * directory), relative to the project: the classifier judges the command
 * from there. */
static int gemini_shell_dir(struct hook_input *in, const cJSON *ti, char *why,
			    size_t why_cap)
{
	static const char *const names[] = { "dir_path", "directory" };
	const cJSON *d = NULL;

	if (strcmp(in->tool, "run_shell_command") != 0)
		return 0;
	for (size_t i = 0; i < 2 && !d; i++) {
		d = cJSON_GetObjectItemCaseSensitive(ti, names[i]);
		if (d && cJSON_IsNull(d))
			d = NULL;
	}
	if (!d)
		return 0;
	if (!cJSON_IsString(d) || !d->valuestring[0])
		return 0; /* the policy judges the arguments as they are */
	if (d->valuestring[0] == '/' || !in->cwd || in->cwd[0] != '/')
		in->call_cwd = strdup(d->valuestring);
	else
		in->call_cwd = path_join(in->cwd, d->valuestring);
	if (!in->call_cwd) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	return 0;
}

int hook_parse_input(enum hook_agent agent, const char *text, size_t len,
		     struct hook_input *in, char *why, size_t why_cap)
{
	const char *end = NULL, *event, *ignored;
	const cJSON *tn, *ti;

	if (hook_only_space(text, len)) {
		snprintf(why, why_cap, "the input is empty");
		return -1;
	}
	in->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!in->root) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= text && at <= text + len ?
				     (size_t)(at - text) :
				     0;
		snprintf(why, why_cap,
			 "the input is not valid JSON (at byte %zu)", off);
		return -1;
	}
	if (end && !hook_only_space(end, len - (size_t)(end - text))) {
		snprintf(why, why_cap,
			 "the input is not valid JSON (text after the value "
			 "at byte %zu)",
			 (size_t)(end - text));
		return -1;
	}
	if (!cJSON_IsObject(in->root)) {
		snprintf(why, why_cap, "the input is not a JSON object");
		return -1;
	}
	if (cJSON_GetArraySize(in->root) > HOOK_MAX_MEMBERS) {
		snprintf(why, why_cap,
			 "the input has more than %d members (limit)",
			 HOOK_MAX_MEMBERS);
		return -1;
	}
	for (const cJSON *a = in->root->child; a; a = a->next)
		for (const cJSON *b = a->next; b; b = b->next)
			if (strcmp(a->string, b->string) == 0) {
				snprintf(why, why_cap,
					 "key '%.64s' appears twice",
					 a->string);
				return -1;
			}
	in->nul_escape = json_nul_escape_at(text, len) < len;
	if (opt_string(in->root, "hook_event_name", &event, why, why_cap))
		return -1;
	if (!event) {
		snprintf(why, why_cap, "hook_event_name is missing");
		return -1;
	}
	in->permission_request = agent == HOOK_CLAUDE &&
				 strcmp(event, "PermissionRequest") == 0;
	if (strcmp(event, agent_events[agent]) != 0 &&
	    !in->permission_request) {
		snprintf(why, why_cap,
			 "hook_event_name '%.64s' is not %s (cordon hook %s "
			 "handles only %s)",
			 event, agent_events[agent], agent_names[agent],
			 agent_events[agent]);
		return -1;
	}
	tn = cJSON_GetObjectItemCaseSensitive(in->root, "tool_name");
	if (!tn) {
		snprintf(why, why_cap, "tool_name is missing");
		return -1;
	}
	if (!cJSON_IsString(tn) || !tn->valuestring[0]) {
		snprintf(why, why_cap,
			 "tool_name: expected a non-empty string");
		return -1;
	}
	in->tool = tn->valuestring;
	ti = cJSON_GetObjectItemCaseSensitive(in->root, "tool_input");
	if (!ti) {
		snprintf(why, why_cap, "tool_input is missing");
		return -1;
	}
	if (!cJSON_IsObject(ti)) {
		snprintf(why, why_cap, "tool_input: expected an object");
		return -1;
	}
	if (opt_string(in->root, "cwd", &in->cwd, why, why_cap) ||
	    opt_string(in->root, "session_id", &in->session, why, why_cap) ||
	    opt_string(in->root, "transcript_path", &ignored, why, why_cap))
		return -1;
	if (agent == HOOK_CLAUDE) {
		if (opt_string(in->root, "tool_use_id", &in->tool_use_id, why,
			       why_cap) ||
		    opt_string(in->root, "permission_mode",
			       &in->permission_mode, why, why_cap))
			return -1;
	} else {
		if (opt_string(in->root, "timestamp", &ignored, why, why_cap))
			return -1;
		if (gemini_mcp_name(in, why, why_cap) ||
		    gemini_shell_dir(in, ti, why, why_cap))
			return -1;
	}
	in->tool_input = ti;
	in->args = cJSON_PrintUnformatted(ti);
	if (!in->args) {
		snprintf(why, why_cap, "out of memory");
		return -1;
	}
	return 0;
}

/* ---- the sandbox rewrite ------------------------------------------------ */

/* The tools whose "command" the agent hands to a shell, with a rewrite the
 * agent accepts: Claude Code's PreToolUse updatedInput and Gemini CLI's
 * BeforeTool hookSpecificOutput.tool_input (0.61 applies it before its
 * own policy check and runs the rebuilt invocation). Claude Code's
 * Monitor runs its "command" with the same shell (its "ws" form has none).
 * PowerShell is judged like Bash but not rewritten: bash cannot run it. */
bool hook_shell_tool(enum hook_agent agent, const char *tool)
{
	if (agent == HOOK_GEMINI)
		return strcmp(tool, "run_shell_command") == 0;
	return strcmp(tool, "Bash") == 0 || strcmp(tool, "Monitor") == 0;
}

/* timeout, description, run_in_background and every other member kept as
 * they were. */
cJSON *hook_rewrite_input(const struct hooksbx_opts *ho,
			  const cJSON *tool_input, char *why, size_t why_cap)
{
	const cJSON *c =
		cJSON_GetObjectItemCaseSensitive(tool_input, "command");
	cJSON *out, *cmd;
	char *text;

	if (!cJSON_IsString(c)) {
		snprintf(why, why_cap, "the tool input has no command string");
		return NULL;
	}
	text = hooksbx_command(ho, c->valuestring, strlen(c->valuestring), why,
			       why_cap);
	if (!text)
		return NULL;
	out = cJSON_Duplicate(tool_input, 1);
	cmd = cJSON_CreateString(text);
	free(text);
	if (!out || !cmd ||
	    !cJSON_ReplaceItemInObjectCaseSensitive(out, "command", cmd)) {
		cJSON_Delete(out);
		cJSON_Delete(cmd);
		snprintf(why, why_cap, "out of memory");
		return NULL;
	}
	return out;
}

/* ---- the answer ---------------------------------------------------------- */

char *hook_answer_text(enum hook_agent agent, const struct hook_answer *a)
{
	cJSON *root = cJSON_CreateObject(), *obj = root, *spec;
	cJSON *r = json_clean_string(a->reason, strlen(a->reason));
	cJSON *upd = a->updated ? cJSON_Duplicate(a->updated, 1) : NULL;
	const char *name = cordon_decision_name(a->d);
	char *text = NULL;

	if (!root || !r || (a->updated && !upd))
		goto out;
	if (agent == HOOK_CLAUDE && a->permission_request) {
		cJSON *dec;

		obj = cJSON_AddObjectToObject(root, "hookSpecificOutput");
		if (!obj || !cJSON_AddStringToObject(obj, "hookEventName",
						     "PermissionRequest"))
			goto out;
		if (!a->no_decision && a->d != CORDON_ASK) {
			dec = cJSON_AddObjectToObject(obj, "decision");
			if (!dec ||
			    !cJSON_AddStringToObject(
				    dec, "behavior",
				    a->d == CORDON_ALLOW ? "allow" : "deny"))
				goto out;
			if (a->d != CORDON_ALLOW) {
				cJSON_AddItemToObject(dec, "message", r);
				r = NULL;
			}
		}
	} else if (agent == HOOK_CLAUDE) {
		obj = cJSON_AddObjectToObject(root, "hookSpecificOutput");
		if (!obj ||
		    !cJSON_AddStringToObject(obj, "hookEventName",
					     "PreToolUse") ||
		    (!a->no_decision &&
		     !cJSON_AddStringToObject(obj, "permissionDecision", name)))
			goto out;
		cJSON_AddItemToObject(obj, "permissionDecisionReason", r);
		r = NULL;
		if (upd) {
			cJSON_AddItemToObject(obj, "updatedInput", upd);
			upd = NULL;
		}
	} else {
		if (!a->no_decision &&
		    !cJSON_AddStringToObject(obj, "decision", name))
			goto out;
		cJSON_AddItemToObject(obj, "reason", r);
		r = NULL;
		if (upd) {
			spec = cJSON_AddObjectToObject(obj,
						       "hookSpecificOutput");
			if (!spec ||
			    !cJSON_AddStringToObject(spec, "hookEventName",
						     "BeforeTool"))
				goto out;
			cJSON_AddItemToObject(spec, "tool_input", upd);
			upd = NULL;
		}
	}
	text = cJSON_PrintUnformatted(root);
out:
	cJSON_Delete(r);
	cJSON_Delete(upd);
	cJSON_Delete(root);
	return text;
}
