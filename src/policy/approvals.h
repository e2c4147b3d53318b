/* approvals — what resolves an ASK: session grants, durable rules, answers.
 *
 * A store holds the rules of the approvals file (JSON, see below) and the
 * session grants of this process (in memory, per session id). Before the
 * user is asked, approvals_lookup() consults the session grants, then the file's
 * rules; first match decides. Deny grants also apply to calls the policy
 * would allow (a "no, never" sticks); allow grants only resolve an ASK.
 *
 * The approvals file:
 *   {"version": 1, "rules": [
 *     {"tool": "Bash", "decision": "allow", "commandPrefix": ["git", "push"],
 *      "match": ["git push origin main"], "not_match": ["git pull"]},
 *     {"tool": "Bash", "decision": "allow", "command": "rm -rf build"},
 *     {"tool": "Write", "decision": "deny", "path": "/home/u/x/.env"},
 *     {"tool": "mcp__github__create_issue", "decision": "allow"}]}
 *     {"tool": "Bash", "decision": "allow", "commandPrefix": ["npm", "test"],
 *      "labels": ["network"]},
 * "tool" may be "*". A rule has at most one of commandPrefix, command, path;
 * with none it covers every call of the tool. Extra keys "created" (an ISO
 * 8601 time) and "session" are kept and ignored. "labels" (label names,
 * beside commandPrefix only) bounds a prefix rule: it covers a command
 * only when every label of the command's verdict is among them; without
 * it any labels. Any other key, a duplicate
 * key, or a "version" other than 1 is a bad shape (a misspelt
 * "commandPrefix" must not widen a rule to the whole tool). match /
 * not_match are checked for commandPrefix rules (every segment begins with
 * the prefix) and command rules (string equality); on other rules they are
 * an error of that rule. Limits: 4 MiB, 10000 rules.
 *
 * Loading: a file that does not exist, or is empty, is an empty store. A
 * file that is not all usable is corrupt, with a warning naming the file
 * and its first problem (never an allow, never a crash): when its rules
 * can be read one by one (a bad rule, an unknown key beside "rules"),
 * its deny rules that parse are kept and its allow rules are not (a "no,
 * never" must not be lost to a typo elsewhere); when no rule can be read
 * (not JSON, a NUL, another version, not a regular file, unreadable, over
 * the limits, every rule bad) the store is unusable and every call the
 * mode would allow asks instead (cordon_policy_decide, step
 * approvals_unreadable), since a denial in it cannot be checked. A rule
 * whose match / not_match examples fail is dropped with a warning naming
 * rules[i].
 *
 * Matching a shell command: an exact rule compares the whole command
 * string. A prefix rule applies only when the command is plain (cmdwords.h)
 * and then per segment: each segment takes the first rule whose prefix it
 * begins with; the command is denied when any segment's first rule denies,
 * allowed when every segment's first rule allows, otherwise undecided. A
 * destructive command (exact_only) is only ever allowed by an exact rule.
 *
 * Recording: *_ONCE stores nothing; *_SESSION adds a session grant;
 * *_ALWAYS appends a rule to the file under an exclusive lock (flock on
 * FILE.lock), re-reading the file under the lock so two processes granting
 * at once both land, writing a temp file in the same directory, fsync,
 * rename, fsync of the directory. When the file is corrupt nothing is
 * written to it (it is not overwritten: the grant is kept for the session
 * and the warning says so). A grant is exact for destructive commands and
 * for commands that are not plain; with an amendment (a prefix the user
 * chose) it is a prefix rule bounded by the labels of the command answered
 * ("labels": a later command of the prefix with a label this one did not
 * have asks again), unless the amendment would open an
 * interpreter or wrapper (wrappers_opens_code on its first word: python3
 * -c, bash -lc, env, sudo, xargs, eval …), is empty, is not a prefix of the
 * command, or the command is destructive: then the amendment is refused
 * (the answer still counts, as an exact grant) and *note says why. A call
 * of a tool named "*" (or "") is never recorded: in a rule it means every
 * tool. The lock is waited for at most 5 s. An amendment on a command that
 * is a wrapper only with a subcommand (npm exec, uv run) must name another
 * subcommand: "npm" alone or "npm exec" is refused, "npm test" is not.
 *
 * The family cordon proposes (approvals_family): what "allow for the
 * session" or "always" covers when the user takes cordon's proposal in
 * its prompt or the console, instead of the exact bytes. It is the
 * command name as written, then the words the command table (cmdtab.c)
 * reads as subcommands there: the first operand when the table has rows
 * with subcommands for the name (git commit -m x -> git commit, npm test
 * -- --watch -> npm test), a further one while a row's subcommand goes
 * on (git stash pop -> git stash pop, aws s3 ls s3://b -> aws s3 ls), and
 * the operand after a row's subcommand when that row's args name words
 * that select what runs (npm run build -> npm run build, kubectl get pods
 * -> kubectl get pods), and every operand while a row without a
 * subcommand has such args (aws ec2 describe-instances, curl URL: their
 * rows judge any operand). A name the table has no rows with subcommands
 * or such args for is its own family (pytest, ls, ./build.sh). Stops at the first option, glob
 * or "--"; at most APPROVALS_FAMILY_MAX_WORDS words. None (exact only)
 * for destructive or non-plain commands, for a command that takes a
 * subcommand with none right after its name (git -C dir status), for a
 * line whose commands are of different families (git add . && git commit,
 * ls | wc), and whenever approvals_amendment_refusal() refuses it
 * (shells, interpreters, wrappers, npm exec). A family grant covers later
 * commands of the family that are not destructive: `git push --force`
 * after a family grant for `git push origin main` asks again.
 */
#ifndef CORDON_APPROVALS_H
#define CORDON_APPROVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest approvals file read, and how long a writer waits for
 * another process's lock: one value for the store and its editor. */
#define APPROVALS_MAX_FILE_BYTES ((size_t)4 * 1024 * 1024)
#define APPROVALS_LOCK_WAIT_MS 5000
/* The most words a proposed family has (aws s3api put-object: 3). */
#define APPROVALS_FAMILY_MAX_WORDS 4

#include "cmdwords.h"
#include "config.h"
#include "cordon.h"
#include "policy.h"

enum approvals_match {
	APPROVALS_TOOL = 0,   /* every call of the tool */
	APPROVALS_PREFIX = 1, /* commandPrefix */
	APPROVALS_EXACT = 2,  /* command */
	APPROVALS_PATH = 3,   /* path */
};

struct approvals_rule {
	char *tool; /* or "*" */
	enum cordon_decision decision; /* ALLOW or DENY */
	enum approvals_match match;
	struct strlist prefix; /* APPROVALS_PREFIX */
	uint64_t labels;           /* bounded: the labels its commands may carry */
	bool bounded;
	char *value;               /* APPROVALS_EXACT: the command; APPROVALS_PATH: the path */
	char *session;             /* session grants: the session id */
};

struct approvals_store {
	char *path;                  /* the approvals file, NULL: none */
	struct approvals_rule *rules;     /* from the file */
	size_t nrules;
	bool corrupt;                /* the file is not all usable: only its
				      * deny rules that could be read are */
	bool unusable;               /* corrupt and no rule could be read:
				      * what the mode allows asks instead */
	struct approvals_rule *grants;    /* session grants */
	size_t ngrants;
	char **warnings;
	size_t nwarnings;
};

/* What is being asked about. */
struct approvals_query {
	const char *session;   /* may be NULL: no session grants apply */
	const char *tool;
	enum cordon_kind kind;
	const char *command;   /* EXECUTE: the command, else NULL */
	const struct cmdwords *words; /* EXECUTE: when plain, else NULL */
	bool exact_only;       /* destructive: only exact rules may allow */
	uint64_t labels;       /* EXECUTE: the verdict's labels */
	const char *path;      /* READ/WRITE/DELETE: normalised path, else NULL */
};

/* Opens a store on path (NULL: session grants only). Never fails for a bad
 * file (see above); CORDON_E_NOMEM, or CORDON_E_IO when the file exists but
 * cannot be read (then the store is usable and corrupt). */
enum cordon_err approvals_open(struct approvals_store *st, const char *path);
void approvals_close(struct approvals_store *st);

/* The decision of the first matching grant or rule: CORDON_ALLOW or
 * CORDON_DENY, or -1 when none matches. *source (may be NULL) gets
 * POLICY_STEP_SESSION_GRANT or POLICY_STEP_APPROVALS_RULE when one
 * matches and is left alone otherwise. */
int approvals_lookup(const struct approvals_store *st,
		     const struct approvals_query *q, enum policy_step *source);

/* Records an answer (see above). amend may be NULL. note (may be NULL)
 * receives a sentence when an amendment was refused or the file could not
 * be written. */
enum cordon_err approvals_record(struct approvals_store *st, const struct approvals_query *q,
			    enum cordon_answer answer,
			    const struct strlist *amend, char *note,
			    size_t notecap);

/* Why an amendment is refused, or NULL when it is acceptable for cmd. */
const char *approvals_amendment_refusal(const struct strlist *amend,
				   const struct approvals_query *q);

/* The family cordon proposes for q (see above): out (taken as empty) gets
 * its words, copies; or stays empty and *why (a static sentence) says why
 * only the exact command can be granted. CORDON_OK or CORDON_E_NOMEM (out
 * empty). */
enum cordon_err approvals_family(const struct approvals_query *q,
				 struct strlist *out, const char **why);

#endif
