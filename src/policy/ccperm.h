/* ccperm — Claude Code permission rules, read and matched the way Claude
 * Code does. (The importers that turn Claude Code and srt settings into
 * cordon configuration are in import.h.)
 *
 * A rule is "Tool" or "Tool(specifier)":
 *   Bash(npm run test:*)   legacy prefix form: the command is "npm run
 *                          test" or starts with it followed by a word
 *                          boundary;
 *   Bash(git * main)       "*" matches any run of characters; a space
 *                          before "*" keeps the word boundary ("ls *"
 *                          matches "ls -la", not "lsof");
 *   Bash(npm test)         exact;
 *   Read(~/.ssh/X) Edit(//abs/X) Write(./x) Read(/src/X), X being two
 *                          stars (a C comment cannot hold them after a
 *                          slash): gitignore-style globs; "//p" is the
 *                          absolute path /p, "~/p" under the home
 *                          directory, "/p"
 *                          relative to the settings file's project root,
 *                          "./p" and "p" relative to the cwd; Edit rules
 *                          cover every file-editing tool (Write, Edit,
 *                          MultiEdit, NotebookEdit), Read rules cover
 *                          Read, Glob, Grep and the like (Claude Code
 *                          ignores a path in Write(…), MultiEdit(…),
 *                          NotebookEdit(…), Glob(…), Grep(…), LS(…):
 *                          cordon reads them as Edit(…) / Read(…) in
 *                          deny and ask, and ignores them in allow);
 *   WebFetch(domain:example.com)  the URL's host (subdomains too, as
 *                          Claude Code documents);
 *   mcp__server, mcp__server__*, mcp__server__tool;
 *   Tool with no specifier: every call of that tool.
 * Evaluation: deny rules, then ask, then allow; within a list the first
 * match wins. A compound command (&&, ||, ;, |, newlines, subshells) is
 * read as the list of commands cordon's classifier finds in it (cmdlist.h),
 * the same walk that judges the command: a deny or ask rule matching any part
 * applies; an allow rule applies only when every part matches some allow
 * rule. The wrappers Claude Code strips before matching (timeout, time,
 * nice, nohup, stdbuf, and leading VAR=value assignments) are stripped.
 * For deny and ask, cordon also reads through the runners Claude Code
 * does not strip (sudo, env, command, exec, xargs, find -exec, /bin/rm
 * for rm, sh -c and eval strings …); for allow, the command such a
 * runner starts must be allowed as well. cordon is stricter where Claude
 * Code's matching can be bypassed: an allow rule never covers a command
 * with a command substitution, process substitution, backticks, eval, a
 * nested shell (sh -c …), a shell reading commands from its input, an
 * assignment to PATH, LD_* and the like, a command name the shell expands
 * as a glob (/bin/r?), git -c / --config-env / --exec-path, or an output
 * redirection to a file; those fall through to cordon's own steps. For
 * deny and ask, a globbed command name is read as every rule's command it
 * could expand to. For -1 after such a
 * refusal, why says which. Read and Edit rules apply to the file tools
 * only, never to Bash commands (as in Claude Code).
 *
 * Pure apart from the importers' inputs; fuzzed.
 */
#ifndef CORDON_CCPERM_H
#define CORDON_CCPERM_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "cordon.h"

struct ccperm_set;

/* Compiles the three lists (any may be empty). root is the project root
 * for "/p" rules (NULL: the cwd of each call), home the home directory
 * (NULL: "~" rules never match). On a bad rule diag names it
 * ("permissions.allow[3]: unbalanced parenthesis in 'Bash(ls'"). */
enum cordon_err ccperm_compile(const struct strlist *allow,
			       const struct strlist *ask,
			       const struct strlist *deny, const char *root,
			       const char *home, struct ccperm_set **out,
			       struct cordon_diag *diag);
void ccperm_free(struct ccperm_set *s);

/* The decision of the rules for one call (tool name as the agent sent it,
 * its arguments object, the absolute cwd): CORDON_DENY, CORDON_ASK,
 * CORDON_ALLOW, or -1 when no rule applies. why (may be NULL) receives
 * the deciding rule and its list
 * ("permissions.deny[0] 'Read(~/.ssh/id_rsa)'"); for an allow, every rule
 * that covered a part of the command. */
int ccperm_decide(const struct ccperm_set *s, const char *tool,
		  const cJSON *args, const char *cwd, char *why,
		  size_t why_cap);

/* The same for a Bash call whose command (args' "command") the caller has
 * classified already: cmds is cmdlist_of() that verdict, read instead of
 * parsing the line again (ccperm_decide classifies it itself). */
struct cmdlist;
int ccperm_decide_cmds(const struct ccperm_set *s, const cJSON *args,
		       const char *cwd, const struct cmdlist *cmds, char *why,
		       size_t why_cap);

/* The three lists, in the order they are evaluated, and their keys in a
 * settings file ("deny", "ask", "allow"). */
enum ccperm_list { CCPERM_DENY, CCPERM_ASK, CCPERM_ALLOW };
const char *ccperm_list_key(enum ccperm_list l);

/* Rules in one list, at most. */
#define CCPERM_MAX_RULES 10000

/* Checks one rule, permissions.LIST[index], as ccperm_compile() reads it:
 * CORDON_OK, or the error with diag naming the rule. *note (may be NULL)
 * gets how cordon reads the rule differently from Claude Code (static
 * text), or NULL. For the importers. */
enum cordon_err ccperm_check_rule(const char *text, enum ccperm_list list,
				  size_t index, const char **note,
				  struct cordon_diag *diag);

/* Does the absolute path p match a Read/Edit rule's glob? With deny, a
 * matching directory above p counts too (gitignore: a matched directory
 * covers what is inside it). */
bool ccperm_path_matches(const char *glob, const char *p, bool deny);

#endif
