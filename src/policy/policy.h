/* policy — the decision layer: a tool call becomes ALLOW, DENY or ASK.
 *
 * cordon_policy_evaluate() is pure apart from one look at the file system
 * (resolving symlinks of paths that exist): the guardrails (denied and
 * allowed tools, argument limits, the tool's JSON Schema), then the ten
 * steps in order, each able to decide:
 *
 *   1 read_only        writes, deletes, executes, MCP and unknown tools
 *                      are denied (hard)
 *   2 path_rules       first matching rule whose access fits decides
 *   3 denied_paths     deny (hard)
 *   4 read_only_paths  reads allowed (hard), writes denied (hard)
 *   5 allowed_paths    when set, anything outside is denied (hard)
 *   6 command_rules    a deny rule matching any command anywhere in the
 *                      line denies (hard); allow rules need a plain line
 *                      whose every segment they cover
 *   7 denied_commands  the classifier's deny list; "classifier" for any
 *                      other blocked verdict (hard)
 *   8 sandbox          forced ASK for shell when allowed_paths is set and
 *                      the sandbox cannot enforce writes
 *   9 mode / classifier  the permission-mode table, require_approval_*,
 *                      destructive commands ask except in full-access
 *  10 default          allow
 *
 * Every step's name is in steps.def.
 *
 * Paths of file calls are judged twice when they exist behind a symlink:
 * as written (normalised) and as resolved; the stricter answer wins.
 * cordon_policy_decide() adds grants, the prompt and the sink.
 */
#ifndef CORDON_POLICY_H
#define CORDON_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"
#include "strlist.h"

/* The steps a decision can end in, from steps.def. */
enum policy_step {
#define STEP(name, text) POLICY_STEP_##name,
#include "steps.def"
#undef STEP
	POLICY_STEP__COUNT
};

/* What a prompt callback inside cordon (the console broker, broker.h)
 * answers when nobody could be asked: no console running, or the console
 * gone before it answered. cordon_policy_decide() denies it exactly as it
 * denies an ASK with no callback (step no_prompt), the reply's `by`
 * naming why. Not an answer a host can give: out of range of the public
 * enum. */
#define POLICY_ANSWER_NOBODY ((enum cordon_answer)8)

/* The name of step s ("denied_paths"); static. */
const char *policy_step_name(enum policy_step s);
/* The step called name, or -1 when no step is. */
int policy_step_from_name(const char *name);

/* `cordon explain`: the steps one evaluation visited, in order, each with
 * what it found. Set with policy_trace_set(); the policy only writes it. */
#define POLICY_TRACE_MAX 48
struct policy_trace {
	size_t n;
	struct {
		enum policy_step step;
		char what[240];
	} e[POLICY_TRACE_MAX];
};

struct cordon_policy;
/* Records the steps of the next evaluations into t (NULL: stop). */
void policy_trace_set(struct cordon_policy *p, struct policy_trace *t);

struct cordon_result {
	enum cordon_decision decision;
	const char *step; /* static */
	bool hard;
	char reason[1024];
	char *tool;
	size_t tool_cap;
	enum cordon_kind kind;
	char *args; /* the arguments' JSON text as given */
	size_t args_cap;
	int risk;
	uint64_t labels;
	int answer;
	char answered_by[64]; /* "" when nobody was asked */
	char *session;        /* the call's session id, or NULL */
	size_t session_cap;
	/* for approvals and the prompt */
	char *command;   /* EXECUTE */
	size_t command_cap;
	char *path;      /* file kinds: where the first path lands */
	size_t path_cap;
	size_t npaths;   /* paths judged; more than one: no path grant */
	bool exact_only; /* destructive */
	bool beyond;     /* an ask for a write beyond the workspace or to a
			  * file that runs later */
	bool confirm;    /* require_confirm: only a fresh yes allows */
	struct strlist family; /* an ASK shown to the prompt: the family a
				* session or always grant may cover
				* (approvals_family), else empty */
};

#endif
