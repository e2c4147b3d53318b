/* import_codex — Codex CLI's execpolicy rules (the .rules files in ~/.codex/rules)
 * turned into cordon command rules, for `cordon config import --from
 * codex FILE.rules`.
 *
 * A rules file is Starlark; what Codex reads of it, and so what this
 * reads, is a sequence of calls
 *   prefix_rule(pattern = ["gh", "pr", ["view", "list"]],
 *               decision = "prompt",          # allow (default) | prompt
 *                                             # | forbidden
 *               justification = "…",
 *               match = ["gh pr view 7", ["gh", "pr", "list"]],
 *               not_match = ["gh pr --repo x view 7"])
 * with # comments, '…' or "…" strings (\\ \' \" \n \t escapes) and
 * trailing commas. A pattern element that is a list is a set of
 * alternatives at that position. Examples are token lists or strings
 * split as a POSIX shell splits words (quotes, backslashes).
 *
 * Each rule becomes one safety.command_rules entry per combination of its
 * alternatives: {"prefix": [...], "decision": "allow" | "ask" | "deny",
 * "match": [...], "not_match": [...]} (prompt is ask, forbidden is deny);
 * a match example goes with the combinations it begins with, every
 * not_match example with all of them. Codex applies the strictest
 * decision of the rules that match; the entries are written deny first,
 * then ask, then allow, so a reader taking the first match agrees.
 *
 * Every example is checked here as Codex checks it when it loads the file
 * (a match example must begin with the pattern, a not_match example must
 * not): a failing one is an error naming rules[i].match[j], as is any
 * other function, an unknown or repeated argument, a value of the wrong
 * type, and anything that is not this grammar (line:column). Nothing is
 * guessed: a rule cordon cannot read is never dropped quietly, since a
 * dropped "forbidden" would loosen the policy. justification is not kept
 * (said in *warnings). Limits: 1 MiB of text, 1000 rules, 64 pattern
 * elements, 256 combinations a rule, 256 examples a rule, 4096 bytes a
 * string.
 */
#ifndef CORDON_IMPORT_CODEX_H
#define CORDON_IMPORT_CODEX_H

#include <stddef.h>

#include "cordon.h"

/* text[0..len) into a cordon configuration document (*out, malloc'd
 * JSON); *warnings malloc'd text (one per line) or NULL. */
enum cordon_err import_codex_rules(const char *text, size_t len, char **out,
				   char **warnings, struct cordon_diag *diag);

#endif
