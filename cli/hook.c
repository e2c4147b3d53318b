/* cordon hook — the agent hook protocols on stdin/stdout.
 *
 * `cordon hook claude` is Claude Code's PreToolUse hook and `cordon hook
 * gemini` Gemini CLI's BeforeTool hook. Each call is one process: read one
 * JSON object on stdin (at most 1 MiB), turn it into a cordon_call, decide
 * with the policy (approvals apply, nobody is prompted here), record the
 * decision in the audit log, print the agent's answer and exit 0.
 *
 * Claude Code gets
 *   {"hookSpecificOutput":{"hookEventName":"PreToolUse",
 *    "permissionDecision":"allow|deny|ask","permissionDecisionReason":"…",
 *    "updatedInput":{…}}}
 * and Gemini CLI {"decision":"allow|deny|ask","reason":"…",
 * "hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{…}}}
 * (0.61 runs BeforeTool before its own policy check; "ask" forces its
 * dialog).
 *
 * The sandbox rewrite (hooks.sandbox, default auto): a shell call (Bash,
 * run_shell_command) that is allowed or asked about comes back with its
 * command replaced by one that runs the judged bytes in `cordon run`
 * (hooksbx.h), every other input member kept. The policy then knows the
 * sandbox holds the writes. No backend here: strict refuses the call, auto
 * leaves it to the agent and says so. A command the rewrite cannot carry is
 * refused, never run outside the sandbox.
 *
 * PermissionRequest (Claude Code, before its dialog): the command inside
 * cordon's own rewrite (only when the whole text is exactly that rewrite) is
 * judged again; allow and deny are answered, an ask leaves the dialog.
 *
 * Out of the way: when cordon's only reason to ask is the mode and nothing
 * risky was found, the answer has no decision, so the agent's own rules and
 * dialog decide (the rewrite stays). Deny and risk-driven ask stay.
 *
 * Fail closed: malformed input, a configuration that does not load and an
 * audit log that cannot be written all answer "deny" (exit 0, so the agent
 * reads why). --fail-open turns only the malformed-input case into "allow".
 * Bad options exit 2, which both agents also treat as a block.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agents.h"
#include "import.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "atomic.h"
#include "audit.h"
#include "hook_input.h"
#include "hooksbx.h"
#include "json.h"
#include "policy.h"
#include "sandbox.h"

#include "banned.h"

#define HOOK_MAX_INPUT (1024 * 1024)
#define HOOK_MAX_REASON 8192

static const char *const agent_doors[] = { "claude-hook", "gemini-hook" };

void cli_hook_usage(FILE *out)
{
	fputs("usage: cordon hook claude [OPTIONS] < HOOK-INPUT.json\n"
	      "       cordon hook gemini [OPTIONS] < HOOK-INPUT.json\n"
	      "\n"
	      "Decide one tool call for an agent's hook: Claude Code's "
	      "PreToolUse or\n"
	      "Gemini CLI's BeforeTool. Reads the hook's JSON on stdin "
	      "(at most 1 MiB),\n"
	      "prints the agent's answer on stdout and exits 0; every call "
	      "is recorded\n"
	      "in the audit log. Install it with 'cordon init claude' or "
	      "'cordon init\n"
	      "gemini'.\n"
	      "\n"
	      "options:\n"
	      "  --config FILE     a configuration file, applied after the "
	      "user and\n"
	      "                    project files\n"
	      "  --audit-log FILE  where audit records go (default: "
	      "audit.path, or\n"
	      "                    $XDG_STATE_HOME/cordon/audit.jsonl)\n"
	      "  --workspace DIR   the workspace (default: $CLAUDE_PROJECT_DIR "
	      "or\n"
	      "                    $GEMINI_PROJECT_DIR, else the input's cwd)\n"
	      "  --mode MODE       the permission mode when the agent sends "
	      "none\n"
	      "                    (Gemini CLI never does): supervised, "
	      "auto-accept-edits,\n"
	      "                    auto, full-access; clamped to "
	      "max_permission_mode\n"
	      "  --fail-open       allow (instead of deny) when the input is "
	      "malformed\n"
	      "  --claude-settings FILE\n"
	      "                    also apply the permission rules of a Claude "
	      "Code\n"
	      "                    settings file (permissions.allow, ask, deny; "
	      "repeatable,\n"
	      "                    in order: user, project, local)\n"
	      "  --claude-scopes   also apply the rules of every Claude Code "
	      "settings\n"
	      "                    scope that exists, read at each call: "
	      "the user's\n"
	      "                    ($CLAUDE_CONFIG_DIR or ~/.claude)/"
	      "settings.json, the\n"
	      "                    project's .claude/settings.json and "
	      "settings.local.json,\n"
	      "                    then /etc/claude-code/"
	      "managed-settings.json\n"
	      "  --sandbox MODE    hooks.sandbox for this hook: off, auto or "
	      "strict\n"
	      "  --no-rewrite      the agent cannot run a changed command: "
	      "auto leaves it\n"
	      "                    to the agent unsandboxed, strict refuses "
	      "it\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "Claude Code's permission_mode: default -> supervised, "
	      "acceptEdits ->\n"
	      "auto-accept-edits, plan -> read-only, auto -> auto,\n"
	      "bypassPermissions -> full-access, "
	      "dontAsk -> supervised where a call that needs approval is "
	      "denied.\n"
	      "\n"
	      "exit status: 0 with an answer printed (also for a deny), 2 on "
	      "a usage\n"
	      "error, 1 when the answer could not be written.\n",
	      out);
}

/* ---- the input ----------------------------------------------------------- */

/* Reads stdin whole. Returns the buffer (NUL-terminated, *len bytes), or
 * NULL with *over set when it passes HOOK_MAX_INPUT, or NULL on a read
 * error or out of memory (why says which). */
static char *read_input(size_t *len, bool *over, char *why, size_t why_cap)
{
	char *buf = cli_read_file("-", HOOK_MAX_INPUT, len);

	*over = !buf && errno == EFBIG;
	if (buf || *over)
		return buf;
	if (errno == ENOMEM)
		snprintf(why, why_cap, "out of memory");
	else
		snprintf(why, why_cap, "reading stdin: %s", strerror(errno));
	return NULL;
}

/* ---- modes --------------------------------------------------------------- */

/* What Claude Code's permission_mode means here. */
struct agent_mode {
	enum cordon_mode mode;
	bool read_only;
	bool ask_is_deny; /* dontAsk: nobody will be asked */
};

static struct agent_mode claude_mode(const char *name)
{
	struct agent_mode m = { CORDON_MODE_SUPERVISED, false, false };

	if (strcmp(name, "default") == 0)
		return m;
	if (strcmp(name, "acceptEdits") == 0) {
		m.mode = CORDON_MODE_AUTO_EDITS;
		return m;
	}
	if (strcmp(name, "plan") == 0) {
		m.read_only = true;
		return m;
	}
	if (strcmp(name, "auto") == 0) {
		m.mode = CORDON_MODE_AUTO;
		return m;
	}
	if (strcmp(name, "bypassPermissions") == 0) {
		m.mode = CORDON_MODE_FULL_ACCESS;
		return m;
	}
	if (strcmp(name, "dontAsk") == 0) {
		m.ask_is_deny = true;
		return m;
	}
	/* A mode this version does not know: the strictest ordinary one. */
	return m;
}

/* ---- the answer ---------------------------------------------------------- */

/* What the model should do instead, for a shell command the classifier or
 * the deny list refused: by the labels that matter most. */
static const char *command_hint(uint64_t labels)
{
	static const struct {
		uint64_t labels;
		const char *hint;
	} table[] = {
		{ CORDON_L(FORK_BOMB) | CORDON_L(SYSTEM_POWER) | CORDON_L(DISK),
		  "this could take the machine down; do not run it in any "
		  "form" },
		{ CORDON_L(REVERSE_SHELL) | CORDON_L(PERSISTENCE) |
			  CORDON_L(SHELL_RC),
		  "do not open remote shells or change startup files; ask the "
		  "user" },
		{ CORDON_L(SECRETS) | CORDON_L(SECRETS_READ) |
			  CORDON_L(EXFILTRATION),
		  "do not read or send credentials or secrets; ask the user "
		  "for what you need" },
		{ CORDON_L(REMOTE_CODE),
		  "do not pipe a download into a shell; download the file, "
		  "show it to the user and let them run it" },
		{ CORDON_L(OBFUSCATION) | CORDON_L(DYNAMIC_COMMAND) |
			  CORDON_L(EVAL),
		  "write the command out plainly, without encoding, eval or "
		  "generated code" },
		{ CORDON_L(PRIVILEGE),
		  "do not use sudo or change privileges; ask the user to run "
		  "it" },
		{ CORDON_L(VCS_DESTRUCTIVE) | CORDON_L(DISCARD_CHANGES),
		  "do not rewrite or discard version-control history; make a "
		  "new commit or ask the user" },
		{ CORDON_L(INFRA_DESTRUCTIVE) |
			  CORDON_L(CONTAINER_DESTRUCTIVE) | CORDON_L(DATA_LOSS),
		  "leave destructive infrastructure and database operations to "
		  "the user" },
		{ CORDON_L(DELETE) | CORDON_L(DELETE_RECURSIVE) |
			  CORDON_L(ROOT_PATH) | CORDON_L(HOME_PATH) |
			  CORDON_L(SYSTEM_PATH) | CORDON_L(WILDCARD) |
			  CORDON_L(OUTSIDE_WORKSPACE) |
			  CORDON_L(WRITES_OUTSIDE_WORKSPACE),
		  "use a narrower command, e.g. delete specific files inside "
		  "the workspace" },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (labels & table[i].labels)
			return table[i].hint;
	return "choose a narrower command that stays inside the workspace, "
	       "or ask the user";
}

/* What the model should do instead of a refused call, by the step that
 * refused it (the names are in src/policy/steps.def). */
static const char *deny_hint(const char *step, uint64_t labels)
{
	static const char *const hints[POLICY_STEP__COUNT] = {
		[POLICY_STEP_READ_ONLY] =
			"this session is read-only (plan mode or "
			"safety.read_only): read and plan, do not "
			"change files or run commands",
		[POLICY_STEP_PATH_RULES] =
			"the user's path rules forbid this path; do "
			"not reach it another way, ask the user",
		[POLICY_STEP_DENIED_PATHS] =
			"this path is protected (credentials, keys "
			"or system files): do not read or change it "
			"with this or any other tool; ask the user for "
			"what you need",
		[POLICY_STEP_READ_ONLY_PATHS] =
			"this path is read-only for the agent; "
			"write elsewhere in the workspace or "
			"ask the user",
		[POLICY_STEP_ALLOWED_PATHS] =
			"stay inside the allowed paths (the "
			"workspace); do not work around it",
		[POLICY_STEP_COMMAND_RULES] =
			"the user's command rules forbid this "
			"command; do not rephrase it, ask the "
			"user",
		[POLICY_STEP_PERMISSIONS] =
			"the user's Claude Code permission rules "
			"forbid this; do not work around them, ask "
			"the user",
		[POLICY_STEP_DENIED_TOOLS] =
			"this tool is not allowed here; use another "
			"tool or ask the user",
		[POLICY_STEP_ALLOWED_TOOLS] =
			"this tool is not allowed here; use "
			"another tool or ask the user",
		[POLICY_STEP_ARG_LIMITS] =
			"an argument is outside the limits set for "
			"this tool; change the argument",
		[POLICY_STEP_SCHEMA] =
			"fix the arguments and call the tool again",
		[POLICY_STEP_SESSION_GRANT] =
			"the user refused this before; do not "
			"retry it, ask the user",
		[POLICY_STEP_APPROVALS_RULE] =
			"the user refused this before; do not "
			"retry it, ask the user",
	};
	int s = policy_step_from_name(step);

	if (s == POLICY_STEP_CLASSIFIER || s == POLICY_STEP_DENIED_COMMANDS)
		return command_hint(labels);
	if (s >= 0 && hints[s])
		return hints[s];
	return "ask the user";
}

/* Prints the agent's answer (one line of JSON). reason is cleaned of NUL
 * bytes and invalid UTF-8. Returns 0, or -1 when stdout failed. */
static int print_answer_full(enum hook_agent agent, const struct hook_answer *a)
{
	char *text = hook_answer_text(agent, a);
	int rc = -1;

	if (text && puts(text) >= 0 && fflush(stdout) == 0)
		rc = 0;
	if (!text) {
		/* Out of memory: a fixed refusal still reaches the agent. */
		if (agent == HOOK_CLAUDE)
			fputs("{\"hookSpecificOutput\":{\"hookEventName\":"
			      "\"PreToolUse\",\"permissionDecision\":\"deny\","
			      "\"permissionDecisionReason\":\"cordon: out of "
			      "memory\"}}\n",
			      stdout);
		else
			fputs("{\"decision\":\"deny\",\"reason\":\"cordon: "
			      "out of memory\"}\n",
			      stdout);
		rc = fflush(stdout) == 0 ? 0 : -1;
	}
	free(text);
	return rc;
}

static int print_answer(enum hook_agent agent, enum cordon_decision d,
			const char *reason)
{
	struct hook_answer a = { .d = d, .reason = reason };

	return print_answer_full(agent, &a);
}

/* A refusal cordon makes itself (configuration, audit log, malformed
 * input without --fail-open). Returns the exit status. */
__attribute__((format(printf, 2, 3))) static int refuse(enum hook_agent agent,
							const char *fmt, ...)
{
	char reason[HOOK_MAX_REASON];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return print_answer(agent, CORDON_DENY, reason) == 0 ? CLI_EXIT_OK :
							       CLI_EXIT_FAILURE;
}

#define CONFIG_REFUSAL                                                         \
	"cordon: the configuration did not load (%s); every call is "          \
	"refused until it is fixed: ask the user to run 'cordon config show'"
#define AUDIT_REFUSAL                                                          \
	"cordon: the audit log cannot be written (%s); every call is "         \
	"refused until it can be: ask the user to check audit.path"

/* The extra members of the audit record: which door, the agent's call id
 * and mode, and what the agent was told when it differs from the policy's
 * decision. malloc'd JSON, or NULL when out of memory. */
static char *audit_extra(enum hook_agent agent, const struct hook_input *in,
			 const char *sent, const char *why, bool sandboxed)
{
	cJSON *o = cJSON_CreateObject();
	char *text = NULL;
	bool ok = o && cJSON_AddStringToObject(o, "door",
						cli_hook_door_name ?
							cli_hook_door_name :
							agent_doors[agent]);

	if (ok && in && in->tool_use_id)
		ok = cJSON_AddItemToObject(
			o, "toolUseId",
			json_clean_string(in->tool_use_id,
					  strlen(in->tool_use_id)));
	if (ok && in && in->permission_mode)
		ok = cJSON_AddItemToObject(
			o, "permissionMode",
			json_clean_string(in->permission_mode,
					  strlen(in->permission_mode)));
	if (ok && sent)
		ok = cJSON_AddStringToObject(o, "sent", sent) != NULL;
	if (ok && why)
		ok = cJSON_AddItemToObject(o, "malformed",
					   json_clean_string(why, strlen(why)));
	if (ok && sandboxed)
		ok = cJSON_AddBoolToObject(o, "sandboxed", 1) != NULL;
	if (ok)
		text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return text;
}

/* The workspace: --workspace, the agent's project directory, the input's
 * cwd, the process's cwd. NULL when none is absolute. */
static const char *pick_workspace(const struct cli_hook_opts *o,
				  const struct hook_input *in, char *buf,
				  size_t cap)
{
	const char *env[2] = { NULL, NULL };

	if (o->workspace)
		return o->workspace;
	if (o->agent == HOOK_GEMINI) {
		env[0] = getenv("GEMINI_PROJECT_DIR");
		env[1] = getenv("CLAUDE_PROJECT_DIR");
	} else {
		env[0] = getenv("CLAUDE_PROJECT_DIR");
	}
	for (size_t i = 0; i < 2; i++)
		if (env[i] && env[i][0] == '/')
			return env[i];
	if (in && in->cwd && in->cwd[0] == '/')
		return in->cwd;
	return getcwd(buf, cap);
}

/* Applies the agent's mode to the configuration. */
static enum cordon_err apply_mode(struct cordon_config *cfg,
				  const struct cli_hook_opts *o,
				  const struct hook_input *in,
				  struct agent_mode *am)
{
	enum cordon_err err = CORDON_OK;

	am->mode = CORDON_MODE_SUPERVISED;
	am->read_only = false;
	am->ask_is_deny = false;
	if (o->agent == HOOK_CLAUDE && in->permission_mode) {
		*am = claude_mode(in->permission_mode);
		return config_flag_mode(cfg, am->mode); /* read_only: later */
	}
	if (o->mode)
		err = config_flag_mode(
			cfg, (enum cordon_mode)cordon_mode_from_name(o->mode));
	return err;
}

/* The agents' own bookkeeping tools: they touch nothing outside the
 * conversation (a subagent's tool calls come through the hook one by
 * one), so they are mapped as reads of the cwd unless the user's tool map
 * names them. Without this, plan mode (read-only) would refuse
 * ExitPlanMode and every session would be asked about its to-do list. */
static const char *const claude_internal[] = {
	/* Claude Code 2.1: subagents, skills and workflows (their own tool
	 * calls come through the hook), tasks, teammates, schedules, plan
	 * mode, questions, tool search, structured output, MCP resources. */
	"Agent",
	"AskUserQuestion",
	"BashOutput",
	"Brief",
	"CronCreate",
	"CronDelete",
	"CronList",
	"EnterPlanMode",
	"EnterWorktree", /* a git worktree of the project, entered */
	"ExitPlanMode",
	"ExitWorktree",
	"KillShell",
	"LSP",
	"ListMcpResourcesTool",
	"ReadMcpResourceTool",
	"ScheduleWakeup",
	"SendMessage",
	"SendUserMessage",
	"Skill",
	"StructuredOutput",
	"Task",
	"TaskCreate",
	"TaskGet",
	"TaskList",
	"TaskOutput",
	"TaskStop",
	"TaskUpdate",
	"TodoWrite",
	"ToolSearch",
	"Workflow",
	NULL,
};
static const char *const gemini_internal[] = {
	/* Gemini CLI 0.61 */
	"activate_skill",      "ask_user",
	"complete_task",       "enter_plan_mode",
	"exit_plan_mode",      "get_internal_docs",
	"invoke_agent",	       "list_mcp_resources",
	"read_mcp_resource",   "tracker_add_dependency",
	"tracker_create_task", "tracker_get_task",
	"tracker_list_tasks",  "tracker_update_task",
	"tracker_visualize",   "update_topic",
	"write_todos",	       NULL,
};

/* The pipeline's own list, then the door's (o->internal_tools: the
 * bookkeeping tools of the agent whose door runs this pipeline). */
static enum cordon_err add_agent_tools(struct cordon_config *cfg,
				       const struct cli_hook_opts *o,
				       const char *tool,
				       struct cordon_diag *diag)
{
	const char *const *lists[2] = {
		o->agent == HOOK_CLAUDE ? claude_internal : gemini_internal,
		o->internal_tools,
	};
	const char *const *names;
	cJSON *doc = cJSON_CreateObject();
	cJSON *tools = doc ? cJSON_AddObjectToObject(doc, "tools") : NULL;
	enum cordon_err err = CORDON_E_NOMEM;
	char *text = NULL;
	size_t n = 0;

	if (!tools)
		goto out;
	/* Only the tool this call names: the decision reads no other entry,
	 * and a config layer of every name cost a fifth of a call (loading
	 * a layer copies the whole configuration). Most calls add none. */
	for (size_t l = 0; l < 2; l++) {
		for (names = lists[l]; names && *names; names++) {
			const struct config_tool *te = NULL;
			cJSON *t;

			if (strcmp(*names, tool) != 0)
				continue;
			if (config_tool_kind(cfg, *names, &te) !=
				    CORDON_KIND_OTHER ||
			    te)
				continue;
			t = cJSON_AddObjectToObject(tools, *names);
			if (!t || !cJSON_AddStringToObject(t, "kind", "read"))
				goto out;
			n++;
		}
	}
	err = CORDON_OK;
	if (!n)
		goto out;
	text = cJSON_PrintUnformatted(doc);
	err = text ? cordon_config_load_json(cfg, text, strlen(text),
					     "cordon-hook-agent-tools",
					     CORDON_CONFIG_EXPLICIT, diag) :
		     CORDON_E_NOMEM;
out:
	cJSON_Delete(doc);
	free(text);
	return err;
}

/* A path rule written relative to its file's project root ("Read(/src)")
 * made absolute ("Read(//srv/app/src)"), so that rules from several files
 * keep their own roots once merged. NULL when r is not such a rule (or on
 * out of memory: then *oom). */
static char *rule_at_root(const char *r, const char *root, bool *oom)
{
	const char *open = strchr(r, '(');
	size_t head, rl = strlen(root);
	char *out;

	*oom = false;
	if (!open || open[1] != '/' || open[2] == '/' ||
	    strncmp(r, "Bash(", 5) == 0 || strncmp(r, "WebFetch(", 9) == 0)
		return NULL;
	head = (size_t)(open - r) + 1;
	out = malloc(head + 1 + rl + strlen(open + 1) + 1);
	if (!out) {
		*oom = true;
		return NULL;
	}
	memcpy(out, r, head);
	out[head] = '/';
	memcpy(out + head + 1, root, rl);
	memcpy(out + head + 1 + rl, open + 1, strlen(open + 1) + 1);
	return out;
}

/* Appends the rules of one imported file to the merged lists. */
static bool merge_rules(cJSON *lists[3], const cJSON *perms)
{
	static const char *const keys[] = { "allow", "ask", "deny" };
	const cJSON *root = cJSON_GetObjectItemCaseSensitive(perms, "root");

	for (int l = 0; l < 3; l++) {
		const cJSON *it;

		cJSON_ArrayForEach (
			it, cJSON_GetObjectItemCaseSensitive(perms, keys[l])) {
			bool oom = false;
			char *abs = cJSON_IsString(root) && it->valuestring ?
					    rule_at_root(it->valuestring,
							 root->valuestring,
							 &oom) :
					    NULL;
			cJSON *v;

			if (oom)
				return false;
			if (!cJSON_IsString(it))
				continue;
			v = cJSON_CreateString(abs ? abs : it->valuestring);
			free(abs);
			if (!v || !cJSON_AddItemToArray(lists[l], v)) {
				cJSON_Delete(v);
				return false;
			}
		}
	}
	return true;
}

/* The rules the configuration already holds (the user's imported rules)
 * come first, at their own root. */
static bool merge_config_rules(cJSON *lists[3], const struct cordon_config *cfg)
{
	const struct strlist *have[3] = { &cfg->perm_allow, &cfg->perm_ask,
					  &cfg->perm_deny };
	static const char *const keys[] = { "allow", "ask", "deny" };
	cJSON *perms = cJSON_CreateObject();
	bool ok = perms != NULL;

	for (int l = 0; ok && l < 3; l++) {
		cJSON *arr = cJSON_AddArrayToObject(perms, keys[l]);
		for (size_t i = 0; arr && i < have[l]->n; i++)
			ok = ok &&
			     cJSON_AddItemToArray(
				     arr, cJSON_CreateString(have[l]->v[i]));
		ok = ok && arr;
	}
	if (ok && cfg->perm_root)
		ok = cJSON_AddStringToObject(perms, "root", cfg->perm_root);
	ok = ok && merge_rules(lists, perms);
	cJSON_Delete(perms);
	return ok;
}

/* --claude-scopes: Claude Code's settings scopes that exist now, in the
 * order --claude-settings takes them (user, project, local, then the
 * managed file, whose defaultMode wins), after the files given. A scope
 * that is not there is skipped; one that is there and does not load
 * refuses the call as any configuration error does. The names kept live
 * in scope_paths (one call per process): held in the options, zeroed with
 * them, they were 16 KB of stack written in every hook call. */
static char scope_paths[4][PATH_MAX];

static void add_claude_scopes(struct cli_hook_opts *o, const char *workspace)
{
	const char *cfgdir = getenv("CLAUDE_CONFIG_DIR");
	const char *home = getenv("HOME");
	char want[4][PATH_MAX];
	size_t n = 0;
	int w;

	if (!o->claude_scopes)
		return;
	if (cfgdir && cfgdir[0] == '/')
		w = snprintf(want[n], PATH_MAX, "%s/settings.json", cfgdir);
	else if (home && home[0] == '/')
		w = snprintf(want[n], PATH_MAX, "%s/.claude/settings.json",
			     home);
	else
		w = -1;
	if (w > 0 && w < PATH_MAX)
		n++;
	if (workspace && workspace[0] == '/') {
		w = snprintf(want[n], PATH_MAX, "%s/.claude/settings.json",
			     workspace);
		if (w > 0 && w < PATH_MAX)
			n++;
		w = snprintf(want[n], PATH_MAX,
			     "%s/.claude/settings.local.json", workspace);
		if (w > 0 && w < PATH_MAX)
			n++;
	}
	snprintf(want[n++], PATH_MAX, "/etc/claude-code/managed-settings.json");
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		if (access(want[i], F_OK) != 0 ||
		    o->nclaude_settings == CLI_HOOK_MAX_SETTINGS)
			continue;
		/* The user's file is the project's when the project is
		 * $HOME. */
		for (size_t k = 0; k < o->nclaude_settings; k++)
			dup = dup ||
			      strcmp(o->claude_settings[k], want[i]) == 0;
		if (dup)
			continue;
		memcpy(scope_paths[i], want[i], PATH_MAX);
		o->claude_settings[o->nclaude_settings++] = scope_paths[i];
	}
}

/* --claude-settings: the permission rules of every file given, imported
 * (import_claude_settings) and merged as Claude Code merges its settings
 * scopes: the lists are concatenated (a deny in one file is not lost to
 * another file's lists), each file's "/path" rules kept at its own
 * project root; the mode comes from the last file that sets one. Applied
 * as one explicit layer. 0, or -1 after reporting on stderr. */
static int load_claude_settings(struct cordon_config *cfg,
				const struct cli_hook_opts *o)
{
	static const char *const keys[] = { "allow", "ask", "deny" };
	cJSON *merged = cJSON_CreateObject(), *perms, *lists[3] = { 0 };
	cJSON *safety = NULL;
	struct cordon_diag diag = { 0 };
	char *text = NULL;
	int rc = -1;

	if (o->nclaude_settings == 0) {
		cJSON_Delete(merged);
		return 0;
	}
	perms = merged ? cJSON_AddObjectToObject(merged, "permissions") : NULL;
	for (int l = 0; l < 3; l++)
		lists[l] = perms ? cJSON_AddArrayToObject(perms, keys[l]) :
				   NULL;
	if (!lists[0] || !lists[1] || !lists[2] ||
	    !merge_config_rules(lists, cfg)) {
		fputs("cordon hook: out of memory\n", stderr);
		goto out;
	}
	for (size_t i = 0; i < o->nclaude_settings; i++) {
		const char *path = o->claude_settings[i];
		char *doc = NULL, *warnings = NULL;
		size_t len = 0;
		enum cordon_err err;
		cJSON *one;

		text = cli_read_file(path, CONFIG_MAX_FILE_BYTES, &len);
		if (!text) {
			fprintf(stderr,
				"cordon hook: --claude-settings %s: %s\n", path,
				errno == EFBIG ? "over the limit of 1 MiB" :
						 strerror(errno));
			goto out;
		}
		err = import_claude_settings(text, len, path, &doc, &warnings,
					     &diag);
		free(text);
		text = NULL;
		/* What was not imported (the "hooks" key that runs this hook,
		 * among others) is for `cordon config import` to say, not
		 * for every tool call. */
		free(warnings);
		if (err != CORDON_OK) {
			fprintf(stderr,
				"cordon hook: --claude-settings %s: %s\n", path,
				diag.message);
			goto out;
		}
		one = cJSON_Parse(doc);
		free(doc);
		if (!one ||
		    !merge_rules(lists, cJSON_GetObjectItemCaseSensitive(
						one, "permissions"))) {
			cJSON_Delete(one);
			fputs("cordon hook: out of memory\n", stderr);
			goto out;
		}
		if (cJSON_GetObjectItemCaseSensitive(one, "safety")) {
			cJSON_Delete(safety);
			safety = cJSON_DetachItemFromObjectCaseSensitive(
				one, "safety");
		}
		cJSON_Delete(one);
	}
	if (safety) {
		cJSON_AddItemToObject(merged, "safety", safety);
		safety = NULL;
	}
	text = cJSON_PrintUnformatted(merged);
	if (!text) {
		fputs("cordon hook: out of memory\n", stderr);
		goto out;
	}
	if (cordon_config_load_json(cfg, text, strlen(text), "claude-settings",
				    CORDON_CONFIG_EXPLICIT,
				    &diag) != CORDON_OK) {
		fprintf(stderr, "cordon hook: --claude-settings: %s\n",
			diag.message);
		goto out;
	}
	rc = 0;
out:
	free(text);
	cJSON_Delete(safety);
	cJSON_Delete(merged);
	return rc;
}

/* The reason the agent reads, from the policy's result. */
static void compose_reason(char *buf, size_t cap, enum hook_agent agent,
			   const struct cordon_result *res,
			   const struct agent_mode *am, const char *approvals,
			   enum cordon_decision *sent)
{
	enum cordon_decision d = cordon_result_decision(res);
	const char *step = cordon_result_step(res);
	const char *reason = cordon_result_reason(res);
	int risk = cordon_result_risk(res);
	uint64_t labels = risk >= 0 ? cordon_result_labels(res) : 0;

	*sent = d;
	if (d == CORDON_ALLOW) {
		snprintf(buf, cap, "cordon: %s (step: %s)", reason, step);
		return;
	}
	if (d == CORDON_DENY) {
		snprintf(buf, cap, "cordon: %s. Instead: %s. (step: %s)",
			 reason, deny_hint(step, labels), step);
		return;
	}
	if (am->ask_is_deny) {
		*sent = CORDON_DENY;
		snprintf(buf, cap,
			 "cordon: %s. Nobody can approve it: this session runs "
			 "in dontAsk mode. Instead: ask the user to allow it "
			 "(a rule in cordon's approvals file %s) or to switch "
			 "mode, or do the task without it. (step: %s)",
			 reason, approvals ? approvals : "", step);
		return;
	}
	/* Gemini CLI's BeforeTool runs before its own policy check and
	 * dialog, and "ask" forces the dialog (0.61: the scheduler's
	 * hookDecision "ask" becomes ASK_USER). */
	(void)agent;
	/* The policy's reason carries the risk and the labels. */
	snprintf(buf, cap, "cordon: %s (step: %s)", reason, step);
}

/* ---- the sandbox rewrite ------------------------------------------------ */

/* --sandbox MODE over hooks.sandbox (a flag: the last layer). 0. */
static int hook_sandbox_flag(struct cordon_config *cfg,
			     const struct cli_hook_opts *o)
{
	if (!o->sandbox)
		return 0;
	cfg->hooks_sandbox =
		strcmp(o->sandbox, "off") == 0	  ? CONFIG_SANDBOX_OFF :
		strcmp(o->sandbox, "strict") == 0 ? CONFIG_SANDBOX_STRICT :
						    CONFIG_SANDBOX_AUTO;
	return 0;
}

/* What hooks.sandbox makes of a shell call (hooksbx.h has the rewrite). */
struct hook_sandbox {
	bool shell; /* a shell tool whose input has a string "command" */
	bool use; /* the command will run in `cordon run` */
	bool refuse; /* strict, and no backend works: deny */
	bool read_only; /* plan mode: the whole host read-only, workspace too */
	char what[512]; /* the enforcement, for the reason */
	char why[512]; /* why not sandboxed, when shell && !use */
	/* The audit file a rewritten command's `cordon run` syncs before it
	 * execs (--audit-sync; audit.h): sync_id[0] when there is one. */
	const char *sync_log;
	struct audit_file_id sync_file;
	char sync_id[48];
};

/* The first line of the probe's text that says a backend works. */
static void probe_works_line(const char *text, char *out, size_t cap)
{
	const char *w = strstr(text, ": works");
	const char *start = w, *end;

	out[0] = '\0';
	if (!w)
		return;
	while (start > text && start[-1] != '\n')
		start--;
	end = strchr(w, '\n');
	if (!end)
		end = w + strlen(w);
	snprintf(out, cap, "%.*s", (int)(end - start), start);
}

static void plan_sandbox(const struct cli_hook_opts *o, const struct hook_input *in,
			 const struct cordon_config *cfg,
			 struct hook_sandbox *sp)
{
	const cJSON *c =
		cJSON_GetObjectItemCaseSensitive(in->tool_input, "command");
	char probe[1024] = "", works[256];
	int best;

	memset(sp, 0, sizeof(*sp));
	sp->shell = hook_shell_tool(o->agent, in->tool) && cJSON_IsString(c) &&
		    !in->nul_escape;
	if (!sp->shell)
		return;
	if (cfg->hooks_sandbox == CONFIG_SANDBOX_OFF) {
		snprintf(sp->why, sizeof(sp->why),
			 "hooks.sandbox is off: the agent runs the command "
			 "itself, outside cordon's sandbox");
		return;
	}
	/* The doors whose agent cannot take a changed command (cordon hook
	 * cursor, copilot, windsurf, ...): auto leaves the command to the
	 * agent, strict refuses it; never run unsandboxed what was to be
	 * sandboxed. */
	if (o->no_rewrite) {
		snprintf(sp->why, sizeof(sp->why),
			 "this agent's hook cannot change the command, so the "
			 "agent runs it itself, outside cordon's sandbox");
		sp->refuse = cfg->hooks_sandbox == CONFIG_SANDBOX_STRICT;
		return;
	}
	/* The cached verdict, read once, no child per call: the rewritten
	 * command's `cordon run` checks the backend itself. */
	best = sandbox_probe_any(probe, sizeof(probe));
	if (best < 0) {
		snprintf(sp->why, sizeof(sp->why),
			 "no sandbox backend works here (cordon run --probe: "
			 "%.300s)",
			 probe[0] ? probe : "nothing usable");
		for (char *q = sp->why; *q; q++)
			if (*q == '\n')
				*q = ' ';
		sp->refuse = cfg->hooks_sandbox == CONFIG_SANDBOX_STRICT;
		return;
	}
	probe_works_line(probe, works, sizeof(works));
	sp->use = true;
	snprintf(
		sp->what, sizeof(sp->what),
		HOOKSBX_NOTE_SANDBOXED " (%s; mode %s): writes only in "
		"the workspace%s, network %s, memory %lu MiB, credentials "
		"masked",
		works[0] ? works : "a backend works",
		cfg->hooks_sandbox == CONFIG_SANDBOX_STRICT ? "strict" : "auto",
		cfg->sandbox_allow_write.n ? " and safety.sandbox.allow_write" :
					     "",
		cfg->allowed_domains.n ? "only through the egress proxy to "
					 "network.allowedDomains" :
					 "none (loopback only)",
		cfg->max_memory_mb);
}

/* The tool input with its command rewritten to run in `cordon run`
 * (hooksbx.h); timeout, description, run_in_background and every other
 * member kept as they were. NULL with why filled when it cannot be. */
static cJSON *rewrite_input(const struct cli_hook_opts *o,
			    const struct hook_input *in, const char *workspace,
			    const struct cordon_config *cfg,
			    const char *sync_log, const char *sync_id,
			    char *why, size_t why_cap)
{
	char self[PATH_MAX];
	struct hooksbx_opts ho = { 0 };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || (size_t)n >= sizeof(self) - 1) {
		snprintf(why, why_cap, "cordon cannot find its own path");
		return NULL;
	}
	self[n] = '\0';
	ho.bin = self;
	ho.workspace = workspace;
	ho.config = o->config;
	ho.audit_log = sync_id ? sync_log : o->audit_log;
	ho.audit_sync = sync_id;
	ho.strict = cfg->hooks_sandbox == CONFIG_SANDBOX_STRICT;
	return hook_rewrite_input(&ho, in->tool_input, why, why_cap);
}

static int read_only_root(char *buf, size_t cap);

/* PermissionRequest for a command cordon rewrote: the judged command is
 * the one inside, when the whole text is exactly what the rewrite makes of
 * it (for the workspace or plan mode's empty root); anything else is judged
 * as it stands. 0, or -1 out of memory. */
static int read_own_rewrite(const struct cli_hook_opts *o, struct hook_input *in,
			    const char *workspace,
			    const struct cordon_config *cfg)
{
	const cJSON *c =
		cJSON_GetObjectItemCaseSensitive(in->tool_input, "command");
	const char *b64, *sha;
	char why[512], root[PATH_MAX], *inner, *args = NULL;
	char logbuf[PATH_MAX], sync_id[48];
	const char *roots[2] = { workspace, NULL };
	const char *sync_log = NULL, *as;
	struct audit_file_id fid;
	bool same = false;

	if (!hook_shell_tool(o->agent, in->tool) || !cJSON_IsString(c))
		return 0;
	b64 = strstr(c->valuestring, " --command-b64 ");
	sha = strstr(c->valuestring, " --command-sha256 ");
	if (!b64 || !sha || sha < b64)
		return 0;
	/* The file id the PreToolUse answer named: any, as long as the rest
	 * is the rewrite's (it only says which file the run syncs). */
	as = strstr(c->valuestring, " --audit-sync '");
	if (as) {
		size_t k = strcspn(as + 15, "'");

		if (k < sizeof(sync_id)) {
			memcpy(sync_id, as + 15, k);
			sync_id[k] = '\0';
			if (audit_file_id_parse(sync_id, &fid) == 0)
				sync_log = cli_audit_file(cfg, o->audit_log,
							  logbuf,
							  sizeof(logbuf));
		}
	}
	{
		size_t bn = (size_t)(sha - b64) - 15;
		char *b = strndup(b64 + 15, bn);

		if (!b)
			return -1;
		inner = hooksbx_decode(b, sha + 18, why, sizeof(why));
		free(b);
	}
	if (!inner)
		return 0;
	if (read_only_root(root, sizeof(root)) == 0)
		roots[1] = root;
	for (size_t i = 0; i < 2 && !same; i++) {
		struct hook_input probe = *in;
		cJSON *again;
		const cJSON *ac;

		if (!roots[i])
			continue;
		/* what the rewrite makes of the inner command, here */
		cJSON *ti = cJSON_Duplicate(in->tool_input, 1);
		if (!ti || !cJSON_ReplaceItemInObjectCaseSensitive(
				   ti, "command", cJSON_CreateString(inner))) {
			cJSON_Delete(ti);
			free(inner);
			return -1;
		}
		probe.tool_input = ti;
		again = rewrite_input(o, &probe, roots[i], cfg, sync_log,
				      sync_log ? sync_id : NULL, why,
				      sizeof(why));
		ac = again ? cJSON_GetObjectItemCaseSensitive(again,
							      "command") :
			     NULL;
		same = cJSON_IsString(ac) &&
		       strcmp(ac->valuestring, c->valuestring) == 0;
		if (same)
			args = cJSON_PrintUnformatted(ti);
		cJSON_Delete(again);
		cJSON_Delete(ti);
		if (same && !args) {
			free(inner);
			return -1;
		}
	}
	free(inner);
	if (!same)
		return 0;
	free(in->args);
	in->args = args;
	in->unwrapped = true;
	return 0;
}

/* Plan mode (read-only): a shell call the sandbox can run is judged as in
 * supervised mode and, when safe, runs with nothing writable at all (the
 * kernel keeps plan mode read-only, so `git status` works); every other
 * call meets safety.read_only. */
static enum cordon_err plan_read_only(struct cordon_config *cfg,
				      const struct cli_hook_opts *o,
				      const struct hook_input *in,
				      const struct agent_mode *am,
				      struct hook_sandbox *sp)
{
	plan_sandbox(o, in, cfg, sp);
	if (!am->read_only)
		return CORDON_OK;
	if (sp->use) {
		sp->read_only = true;
		snprintf(sp->what, sizeof(sp->what),
			 HOOKSBX_NOTE_SANDBOXED " with nothing "
			 "writable (the workspace read-only too), network "
			 "none unless network.allowedDomains");
		return CORDON_OK;
	}
	return config_flag_read_only(cfg);
}

/* An empty directory of cordon's own as the writable root of a read-only
 * run (the command's cwd stays the agent's). 0, or -1. */
static int read_only_root(char *buf, size_t cap)
{
	if (atomic_state_path(NULL, "plan-workspace", buf, cap) != 0)
		return -1;
	if (atomic_mkdirs(buf, 0700) != 0)
		return -1;
	return 0;
}

/* The answer for a shell call cordon lets through: rewritten to run in the
 * sandbox (the reason says so and with what), refused when the sandbox is
 * required and missing or the rewrite cannot carry the command (never run
 * outside it then), or left to the agent with the reason saying why it is
 * not sandboxed. */
static void sandbox_answer(const struct cli_hook_opts *o,
			   const struct hook_input *in,
			   const struct cordon_config *cfg,
			   const struct cordon_result *res,
			   const char *workspace, struct hook_sandbox *sp,
			   struct hook_answer *a, char *reason, size_t cap)
{
	char why[512];
	size_t used = strlen(reason);

	if (sp->refuse) {
		a->d = CORDON_DENY;
		snprintf(reason, cap,
			 "cordon: hooks.sandbox is strict and %s; the command "
			 "is refused rather than run outside the sandbox. "
			 "Instead: tell the user the sandbox does not work "
			 "here (they can run 'cordon run --probe'); do not run "
			 "it another way. (step: sandbox)",
			 sp->why);
		return;
	}
	if (!sp->use) {
		snprintf(reason + used, cap - used, "; " HOOKSBX_NOTE_UNSANDBOXED "%s",
			 sp->why);
		return;
	}
	if (sp->read_only) {
		char root[PATH_MAX];

		if (cordon_result_risk(res) != CORDON_RISK_SAFE) {
			a->d = CORDON_DENY;
			snprintf(reason, cap,
				 "cordon: plan mode is read-only and this "
				 "command is not safe (%s). Instead: read and "
				 "plan, do not change files or run commands "
				 "that do. (step: read_only)",
				 cordon_result_reason(res));
			return;
		}
		if (read_only_root(root, sizeof(root)) != 0) {
			a->d = CORDON_DENY;
			snprintf(reason, cap,
				 "cordon: plan mode: cordon's state directory "
				 "cannot be made; the command is refused. "
				 "(step: read_only)");
			return;
		}
		a->d = CORDON_ALLOW;
		a->updated = rewrite_input(o, in, root, cfg, sp->sync_log,
					   sp->sync_id[0] ? sp->sync_id : NULL,
					   why, sizeof(why));
		if (a->updated) {
			snprintf(reason, cap,
				 "cordon: plan mode, a safe command (risk %s): "
				 "allowed read-only: %s (step: read_only)",
				 cordon_risk_name(CORDON_RISK_SAFE), sp->what);
			return;
		}
	} else {
		a->updated = rewrite_input(o, in, workspace, cfg, sp->sync_log,
					   sp->sync_id[0] ? sp->sync_id : NULL,
					   why, sizeof(why));
	}
	if (!a->updated) {
		a->d = CORDON_DENY;
		snprintf(reason, cap,
			 "cordon: the command cannot be run in the sandbox: "
			 "%s; it is refused rather than run outside it. "
			 "(step: sandbox)",
			 why);
		return;
	}
	snprintf(reason + used, cap - used, "; %s", sp->what);
}

/* ---- the command --------------------------------------------------------- */

/* Records what a malformed input was answered. 0, or -1 (reported). */
static int audit_malformed(struct cordon_audit *audit, enum hook_agent agent,
			   enum cordon_decision d, const char *why)
{
	struct cordon_diag diag = { 0 };
	char *extra =
		audit_extra(agent, NULL, cordon_decision_name(d), why, false);
	enum cordon_err err =
		extra ? cordon_audit_event(audit, "hook", extra, &diag) :
			CORDON_E_NOMEM;

	if (err != CORDON_OK)
		fprintf(stderr, "cordon hook: %s\n",
			extra ? diag.message : "audit log: out of memory");
	free(extra);
	return err == CORDON_OK ? 0 : -1;
}

int cli_hook_run(struct cli_hook_opts *o)
{
	struct hook_input in = { 0 };
	struct cordon_config *cfg = NULL;
	struct cordon_policy *pol = NULL;
	struct cordon_result *res = NULL;
	struct cordon_audit *audit = NULL;
	struct cordon_diag diag = { 0 };
	struct cordon_context ctx = { 0 };
	struct cordon_call call = { 0 };
	struct cli_broker broker;
	struct agent_mode am = { CORDON_MODE_SUPERVISED, false, false };
	struct hook_sandbox sp = { 0 };
	struct hook_answer answer = { 0 };
	char why[512] = "", reason[HOOK_MAX_REASON];
	char wsbuf[PATH_MAX], apbuf[PATH_MAX];
	const char *workspace, *approvals = NULL;
	char *text = NULL, *extra = NULL;
	size_t len = 0;
	bool over = false, malformed = false, rides;
	enum cordon_decision sent;
	enum cordon_err err;
	int status;


	text = read_input(&len, &over, why, sizeof(why));
	if (!text && !over) {
		status =
			refuse(o->agent, "cordon: %s; the call is refused", why);
		goto out;
	}
	if (over)
		snprintf(why, sizeof(why),
			 "the input is over the limit of %d bytes",
			 HOOK_MAX_INPUT);
	malformed = over || hook_parse_input(o->agent, text, len, &in, why,
					     sizeof(why)) != 0;

	workspace = pick_workspace(o, malformed ? NULL : &in, wsbuf,
				   sizeof(wsbuf));
	if (o->agent == HOOK_CLAUDE)
		add_claude_scopes(o, workspace);
	if (cli_load_config(&cfg, o->config, workspace) != 0 ||
	    load_claude_settings(cfg, o) != 0 || hook_sandbox_flag(cfg, o)) {
		status = refuse(o->agent, CONFIG_REFUSAL,
				"the error is on the hook's stderr");
		goto out;
	}
	if (!malformed &&
	    (apply_mode(cfg, o, &in, &am) != CORDON_OK ||
	     add_agent_tools(cfg, o, in.tool, &diag) != CORDON_OK ||
	     plan_read_only(cfg, o, &in, &am, &sp) != CORDON_OK ||
	     (in.permission_request &&
	      read_own_rewrite(o, &in, workspace, cfg) != 0))) {
		status = refuse(o->agent, "cordon: %s; the call is refused",
				"out of memory");
		goto out;
	}
	if (cli_open_audit(cfg, o->audit_log, &audit) != 0) {
		status = refuse(o->agent, AUDIT_REFUSAL,
				"the error is on the hook's stderr");
		goto out;
	}
	if (audit_sync_target(audit, &sp.sync_file) &&
	    audit_file_id_format(&sp.sync_file, sp.sync_id,
				 sizeof(sp.sync_id)) == 0)
		sp.sync_log = audit_file_path(audit);
	else
		sp.sync_id[0] = '\0';

	if (malformed) {
		enum cordon_decision d = o->fail_open ? CORDON_ALLOW :
						       CORDON_DENY;

		if (d == CORDON_DENY)
			audit_defer_sync(audit); /* nothing follows from it */
		err = audit_malformed(audit, o->agent, d, why) == 0 ?
			      cordon_audit_close(audit) :
			      CORDON_E_IO;
		audit = NULL;
		if (err != CORDON_OK) {
			status = refuse(o->agent, AUDIT_REFUSAL,
					"the error is on the hook's stderr");
			goto out;
		}
		if (o->fail_open)
			snprintf(reason, sizeof(reason),
				 "cordon: malformed hook input: %s; allowed "
				 "because the hook runs with --fail-open",
				 why);
		else
			snprintf(
				reason, sizeof(reason),
				"cordon: malformed hook input: %s; the call is "
				"refused (cordon fails closed). Instead: retry "
				"the call; if it keeps failing, tell the user "
				"the cordon hook cannot read its input",
				why);
		status = print_answer(o->agent, d, reason) == 0 ?
				 CLI_EXIT_OK :
				 CLI_EXIT_FAILURE;
		goto out;
	}

	call.tool = in.tool;
	call.args_json = in.args;
	call.cwd = in.call_cwd ? in.call_cwd : in.cwd;
	call.session = in.session;
	if (in.nul_escape) {
		/* cJSON cut a string at the escape: hand the policy
		 * arguments that still hold one, so it refuses the call as
		 * every other door does. */
		call.args_json = "{\"\\u0000\": 0}";
		call.cwd = NULL;
	}
	ctx.workspace = workspace;
	if (cordon_policy_new(cfg, &ctx, &pol, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon hook: %s\n", diag.message);
		status = refuse(o->agent, CONFIG_REFUSAL, diag.message);
		goto out;
	}
	/* With the rewrite, the sandbox holds the command's writes to the
	 * workspace (no forced ask for them); without it the agent runs the
	 * command itself. */
	cordon_policy_set_sandbox_enforces_writes(
		pol, in.permission_request ? in.unwrapped : sp.use);
	approvals = cfg->approvals_path;
	if (!approvals && cli_approvals_default_path(apbuf, sizeof(apbuf)) == 0)
		approvals = apbuf;
	res = cordon_result_new();
	if (!res || cordon_policy_open_approvals(pol, approvals) != CORDON_OK) {
		status = refuse(o->agent, "cordon: %s; the call is refused",
				"out of memory");
		goto out;
	}
	for (size_t i = 0; i < cordon_policy_warning_count(pol); i++)
		fprintf(stderr, "cordon hook: warning: %s\n",
			cordon_policy_warning(pol, i));
	/* approvals.broker: the running console answers what would ask */
	if (cordon_policy_decide(pol, &call,
				 cli_broker_attach(&broker, pol, cfg, "hook",
						   "none") ?
					 0 :
					 CORDON_DECIDE_NO_PROMPT,
				 res, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon hook: %s\n", diag.message);
		status = refuse(o->agent, "cordon: %s; the call is refused",
				diag.message);
		goto out;
	}
	compose_reason(reason, sizeof(reason), o->agent, res, &am, approvals,
		       &sent);
	answer.d = sent;
	answer.permission_request = in.permission_request;
	if (sent != CORDON_DENY && sp.shell && !in.permission_request)
		sandbox_answer(o, &in, cfg, res, workspace, &sp, &answer,
			       reason, sizeof(reason));
	/* Nothing risky found, only the mode asks: the agent's own rules
	 * and dialog decide (its "don't ask again" included). */
	if (answer.d == CORDON_ASK &&
	    cordon_result_risk(res) == CORDON_RISK_SAFE &&
	    strcmp(cordon_result_step(res), "mode") == 0)
		answer.no_decision = true;
	extra = audit_extra(o->agent, &in,
			    answer.no_decision ? "none" :
						 cordon_decision_name(answer.d),
			    NULL, answer.updated != NULL);
	/* audit.fsync every: the record is on disk before the effect the
	 * answer permits, not necessarily before the answer (audit.h). A
	 * rewritten command's `cordon run` syncs the file before it execs;
	 * a deny permits nothing, its record waits for the next sync of the
	 * file; anything the agent carries out itself is synced here. An
	 * answer with no decision (updatedInput alone) defers too: the
	 * agents that get a rewrite apply it with or without a decision
	 * (the doors that cannot deny or make none), which is what the
	 * sandbox itself rests on. */
	rides = answer.updated && sp.sync_id[0];
	if (rides || answer.d == CORDON_DENY)
		audit_defer_sync(audit);
	err = extra ? cordon_audit_decision(audit, res, extra, &diag) :
		      CORDON_E_NOMEM;
	if (err == CORDON_OK && rides) {
		struct audit_file_id last;

		/* Rotated under this very record: the rewrite names the
		 * file before it, so the record is synced here. */
		if (!audit_last_file(audit, &last) ||
		    last.dev != sp.sync_file.dev ||
		    last.ino != sp.sync_file.ino)
			err = audit_sync(audit, &diag);
	}
	if (err == CORDON_OK) {
		err = cordon_audit_close(audit);
		if (err != CORDON_OK)
			snprintf(diag.message, sizeof(diag.message),
				 "audit log: closing the log: %s",
				 cordon_strerror(err));
	} else {
		cordon_audit_close(audit);
	}
	audit = NULL;
	if (err != CORDON_OK) {
		const char *m =
			extra ? diag.message : "audit log: out of memory";

		/* The message names the audit log already. */
		fprintf(stderr, "cordon hook: %s\n", m);
		status = refuse(o->agent, AUDIT_REFUSAL, m);
		goto out;
	}
	answer.reason = reason;
	status = print_answer_full(o->agent, &answer) == 0 ? CLI_EXIT_OK :
							    CLI_EXIT_FAILURE;
out:
	cJSON_Delete(answer.updated);
	cordon_audit_close(audit);
	cordon_result_free(res);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
	hook_input_free(&in);
	free(extra);
	free(text);
	return status;
}

int cli_hook(int argc, char **argv)
{
	struct cli_hook_opts o = { 0 };
	int rc;

	/* The other agents' doors (hook_door.c) parse the same options and
	 * come back to cli_hook_run. */
	if (cli_hook_door_owns(argc, argv))
		return cli_hook_door(argc, argv);
	rc = cli_hook_parse_options(argc, argv, &o, cli_hook_usage);
	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	o.agent = strcmp(o.name, "gemini") == 0 ? HOOK_GEMINI : HOOK_CLAUDE;
	return cli_hook_run(&o);
}
