/* Fuzz target: what `cordon hook AGENT` makes of the agent's event, and the
 * answer it writes back (cli/hook_input.c, cli/hook_door_input.c: the
 * functions the doors themselves run).
 *
 * The first byte picks the door: 0 claude, 1 gemini, then cursor, copilot,
 * codex, windsurf, qwen, kiro, cline (modulo 9); the rest is the event.
 *
 * Claude Code and Gemini CLI: a refused input says why and is answered
 * "deny"; an accepted one has a tool name and an arguments object, and
 * for every decision (and "no decision") the answer is one JSON object
 * that says that decision. A shell call the sandbox rewrite takes comes
 * back, through the answer's JSON, as a command whose base64 and SHA-256
 * decode (hooksbx_decode, as `cordon run` reads them) to the command's
 * bytes exactly, every other member of the input kept.
 *
 * The other doors: a refused input says why and its answer is never an
 * allow; every call an accepted one turns into is one the Claude door
 * accepts (hook_parse_input), and the answer for each decision says it in
 * the agent's shape (ask as deny where the agent has no ask). Where the
 * agent takes a rewritten command back (Codex, Cline's CLI), what it
 * would run decodes to the command the Claude door judged, and that is
 * the command the agent sent.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "hook_input.h"
#include "hooksbx.h"

#include "banned.h"

static const struct hooksbx_opts sbx = { .bin = "/usr/bin/cordon",
					 .workspace = "/w" };

static const char *const decisions[] = { "allow", "deny", "ask" };

static const cJSON *member(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The member k of o as a string, or NULL. */
static const char *str_member(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(member(o, k));
}

/* The command `cordon run` would run for a rewritten command line: the
 * values after --command-b64 and --command-sha256, decoded. Aborts when
 * the line carries neither. */
static char *decode_rewrite(const char *line)
{
	const char *b = strstr(line, " --command-b64 ");
	const char *h = strstr(line, " --command-sha256 ");
	char why[256], *b64, *out;

	if (!b || !h || h < b)
		abort(); /* not what hooksbx_command writes */
	b += strlen(" --command-b64 ");
	h += strlen(" --command-sha256 ");
	b64 = strndup(b, strcspn(b, " "));
	if (!b64)
		abort();
	out = hooksbx_decode(b64, h, why, sizeof(why));
	free(b64);
	if (!out)
		abort(); /* the rewrite does not read back */
	return out;
}

/* The answer text parsed: one JSON object, or abort. */
static cJSON *parse_answer(const char *text)
{
	const char *end = NULL;
	cJSON *a;

	if (!text)
		abort();
	a = cJSON_ParseWithOpts(text, &end, 1);
	if (!cJSON_IsObject(a) || strchr(text, '\n'))
		abort(); /* not one line of JSON */
	return a;
}

/* a and b print the same (in order: cJSON_Compare() looks a key up, so a
 * key given twice would compare its first value with both). */
static bool same_json(const cJSON *a, const cJSON *b)
{
	char *ta = cJSON_PrintUnformatted(a), *tb = cJSON_PrintUnformatted(b);
	bool same;

	if (!ta || !tb)
		abort();
	same = strcmp(ta, tb) == 0;
	free(ta);
	free(tb);
	return same;
}

/* tool_input and the rewritten one are the same but for "command" (the
 * first, which cJSON reads): member by member in order, so a key given
 * twice is compared too (the policy refuses such arguments, but the
 * rewrite must not be what changes them). */
static void same_but_command(const cJSON *was, const cJSON *now)
{
	const cJSON *x = was->child, *y = now->child;
	bool replaced = false;

	for (; x && y; x = x->next, y = y->next) {
		if (strcmp(x->string, y->string) != 0)
			abort(); /* a member lost, added or moved */
		if (!replaced && strcmp(x->string, "command") == 0) {
			replaced = true;
			continue;
		}
		if (!same_json(x, y))
			abort(); /* a member changed by the rewrite */
	}
	if (x || y || !replaced)
		abort();
}

/* ---- claude, gemini ------------------------------------------------------ */

/* What the answer says: "allow", "deny", "ask", or NULL for none. */
static const char *claude_said(enum hook_agent agent, bool pr, const cJSON *a)
{
	const cJSON *h = member(a, "hookSpecificOutput");

	if (agent == HOOK_GEMINI)
		return str_member(a, "decision");
	if (!cJSON_IsObject(h))
		abort();
	if (pr) {
		if (strcmp(or_empty(str_member(h, "hookEventName")),
			   "PermissionRequest") != 0)
			abort();
		return str_member(member(h, "decision"), "behavior");
	}
	if (strcmp(or_empty(str_member(h, "hookEventName")), "PreToolUse") !=
		    0 ||
	    !cJSON_IsString(member(h, "permissionDecisionReason")))
		abort();
	return str_member(h, "permissionDecision");
}

static void claude_answers(enum hook_agent agent, const struct hook_input *in)
{
	for (int d = CORDON_ALLOW; d <= CORDON_ASK; d++) {
		for (int none = 0; none < 2; none++) {
			struct hook_answer a = {
				.d = (enum cordon_decision)d,
				.no_decision = none,
				.reason = in->tool,
				.permission_request = in->permission_request
			};
			char *text = hook_answer_text(agent, &a);
			cJSON *p = parse_answer(text);
			const char *said =
				claude_said(agent, a.permission_request, p);
			const char *want = cordon_decision_name(a.d);

			if (a.permission_request && a.d == CORDON_ASK)
				want = NULL; /* its dialog decides */
			if (none)
				want = NULL;
			if (want ? !said || strcmp(said, want) != 0 :
				   said != NULL)
				abort(); /* the answer says another decision */
			cJSON_Delete(p);
			free(text);
		}
	}
}

/* The sandbox rewrite of a shell call, through the answer's JSON. */
static void claude_rewrite(enum hook_agent agent, const struct hook_input *in)
{
	const char *cmd = str_member(in->tool_input, "command");
	struct hook_answer a = { .d = CORDON_ALLOW, .reason = "r" };
	char why[512], *text, *back;
	const cJSON *ti;
	cJSON *p;

	if (!hook_shell_tool(agent, in->tool) || !cmd || in->nul_escape ||
	    in->permission_request)
		return; /* the door does not rewrite it (plan_sandbox) */
	a.updated = hook_rewrite_input(&sbx, in->tool_input, why, sizeof(why));
	if (!a.updated) {
		if (strlen(cmd) <= HOOKSBX_MAX_COMMAND)
			abort(); /* only the length may refuse it */
		return;
	}
	text = hook_answer_text(agent, &a);
	p = parse_answer(text);
	ti = agent == HOOK_CLAUDE ?
		     member(member(p, "hookSpecificOutput"), "updatedInput") :
		     member(member(p, "hookSpecificOutput"), "tool_input");
	if (!cJSON_IsObject(ti) || !str_member(ti, "command"))
		abort(); /* the rewrite is not in the answer */
	back = decode_rewrite(str_member(ti, "command"));
	if (strcmp(back, cmd) != 0)
		abort(); /* the sandbox would run other bytes than judged */
	same_but_command(in->tool_input, ti);
	free(back);
	cJSON_Delete(p);
	free(text);
	cJSON_Delete(a.updated);
}

static void claude_door(enum hook_agent agent, const char *text, size_t len)
{
	struct hook_input in = { 0 };
	char why[512] = "";
	cJSON *args;

	if (hook_parse_input(agent, text, len, &in, why, sizeof(why)) != 0) {
		struct hook_answer a = { .d = CORDON_DENY, .reason = why };
		char *t = hook_answer_text(agent, &a);
		cJSON *p = parse_answer(t);

		if (!why[0] ||
		    strcmp(or_empty(claude_said(agent, false, p)), "deny") != 0)
			abort(); /* a refusal that does not say why or deny */
		cJSON_Delete(p);
		free(t);
		hook_input_free(&in);
		return;
	}
	if (!in.tool || !in.tool[0] || !cJSON_IsObject(in.tool_input) ||
	    !in.args)
		abort();
	args = cJSON_Parse(in.args);
	if (!cJSON_IsObject(args))
		abort(); /* the policy is handed arguments that are no object */
	cJSON_Delete(args);
	claude_answers(agent, &in);
	claude_rewrite(agent, &in);
	hook_input_free(&in);
}

/* ---- the other doors ----------------------------------------------------- */

/* What a door's answer says: "allow" or "deny" (or "ask" for Cursor). */
static const char *door_said(enum answer_shape shape, const cJSON *a)
{
	const cJSON *c;

	switch (shape) {
	case SHAPE_CURSOR:
	case SHAPE_CURSOR_READ:
		return str_member(a, "permission");
	case SHAPE_COPILOT:
		return str_member(a, "permissionDecision");
	case SHAPE_CODEX:
	case SHAPE_QWEN:
		return str_member(member(a, "hookSpecificOutput"),
				  "permissionDecision");
	case SHAPE_CLINE:
		c = member(a, "cancel");
		if (!cJSON_IsBool(c))
			abort();
		return cJSON_IsTrue(c) ? "deny" : "allow";
	case SHAPE_EXIT2:
		break;
	}
	abort();
}

/* The decision as the agent gets it: "ask" where it has one, else deny. */
static const char *door_means(enum answer_shape shape, const char *d)
{
	return strcmp(d, "ask") == 0 && shape != SHAPE_CURSOR ? "deny" : d;
}

/* The answer for decision d (updated taken) says d. */
static void door_answer(enum answer_shape shape, const char *d, cJSON *updated)
{
	char *text = NULL;
	bool had = updated != NULL;
	int rc = hook_door_answer_text(shape, d, "why", updated, &text);
	const char *want = door_means(shape, d);
	cJSON *p;

	if (shape == SHAPE_EXIT2) {
		if (rc != (strcmp(want, "allow") == 0 ? 0 : 2) || text)
			abort(); /* the exit status is the answer */
		return;
	}
	if (shape == SHAPE_CODEX && strcmp(want, "allow") == 0 && !had) {
		if (rc != 0 || text)
			abort(); /* Codex's allow is no answer */
		return;
	}
	if (rc != 0)
		abort();
	p = parse_answer(text);
	if (strcmp(or_empty(door_said(shape, p)), want) != 0)
		abort(); /* the answer says another decision */
	cJSON_Delete(p);
	free(text);
}

/* One Claude-shaped call a door made: the Claude door takes it. */
static void door_call_ok(const cJSON *call)
{
	char *text = cJSON_PrintUnformatted(call);
	struct hook_input in = { 0 };
	char why[512] = "";

	if (!text)
		abort();
	if (hook_parse_input(HOOK_CLAUDE, text, strlen(text), &in, why,
			     sizeof(why)) != 0 ||
	    in.permission_request)
		abort(); /* the Claude door would refuse the door's call */
	hook_input_free(&in);
	free(text);
}

/* Codex and Cline's CLI: the command the agent runs instead, through the
 * answer, is the command judged, and the one it sent. */
static void door_rewrite(enum door_agent agent, const struct door_call *dc)
{
	const cJSON *ti = member(dc->claude, "tool_input");
	const char *judged = str_member(ti, "command");
	char why[512], *text = NULL, *back;
	const char *ran;
	cJSON *upd, *send, *p;

	if (!judged || !cJSON_IsString(member(dc->claude, "tool_name")) ||
	    strcmp(str_member(dc->claude, "tool_name"), "Bash") != 0)
		return;
	upd = hook_rewrite_input(&sbx, ti, why, sizeof(why));
	if (!upd)
		return; /* refused: the call is denied */
	send = hook_door_updated(dc, upd);
	cJSON_Delete(upd);
	if (!send) {
		if ((agent == DOOR_CODEX && !dc->more &&
		     cJSON_IsString(member(dc->tool_input, "command"))) ||
		    (agent == DOOR_CLINE && dc->rewritable))
			abort(); /* a rewrite this agent takes was dropped */
		return;
	}
	if (agent != DOOR_CODEX && !(agent == DOOR_CLINE && dc->rewritable))
		abort(); /* a rewrite for an agent that cannot take one */
	if (hook_door_answer_text(dc->shape, "allow", "r", send, &text) != 0)
		abort();
	p = parse_answer(text);
	if (agent == DOOR_CODEX) {
		const cJSON *u =
			member(member(p, "hookSpecificOutput"), "updatedInput");
		ran = str_member(u, "command");
		if (!ran ||
		    strcmp(str_member(dc->tool_input, "command"), judged) != 0)
			abort(); /* Codex sent other bytes than were judged */
		same_but_command(dc->tool_input, u);
	} else {
		const cJSON *c = member(member(p, "overrideInput"), "commands");
		if (cJSON_GetArraySize(c) != 1)
			abort();
		ran = cJSON_GetStringValue(cJSON_GetArrayItem(c, 0));
	}
	if (!ran)
		abort();
	back = decode_rewrite(ran);
	if (strcmp(back, judged) != 0)
		abort(); /* the sandbox would run other bytes than judged */
	free(back);
	cJSON_Delete(p);
	free(text);
}

static void door(enum door_agent agent, const char *text, size_t len)
{
	struct door_call dc = { 0 };
	char why[512] = "";
	const cJSON *c;

	if (hook_door_parse(agent, text, len, &dc, why, sizeof(why)) != 0) {
		if (!why[0])
			abort(); /* a refusal says why */
		/* malformed: the door answers deny */
		door_answer(dc.shape, "deny", NULL);
		hook_door_call_free(&dc);
		return;
	}
	if (!dc.claude || (agent == DOOR_CODEX && !dc.tool_input) ||
	    (dc.rewritable && (agent != DOOR_CLINE || dc.more)))
		abort();
	door_call_ok(dc.claude);
	cJSON_ArrayForEach (c, dc.more)
		door_call_ok(c);
	for (size_t i = 0; i < sizeof(decisions) / sizeof(*decisions); i++)
		door_answer(dc.shape, decisions[i], NULL);
	door_rewrite(agent, &dc);
	hook_door_call_free(&dc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick;
	char *text;

	if (size == 0)
		return 0;
	pick = data[0] % (2 + DOOR__COUNT);
	/* A copy of exactly the event's bytes, no NUL after them: a read
	 * past the length is caught. */
	text = malloc(size - 1 ? size - 1 : 1);
	if (!text)
		abort();
	memcpy(text, data + 1, size - 1);
	if (pick < 2)
		claude_door((enum hook_agent)pick, text, size - 1);
	else
		door((enum door_agent)(pick - 2), text, size - 1);
	free(text);
	return 0;
}
