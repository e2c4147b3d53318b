/* cmdwords — a shell command line as plain argv lists, for prefix rules.
 *
 * Prefix rules ("allow commands starting with git push") are only sound on
 * commands whose words are known before they run. cmdwords_split() accepts
 * a line when it is nothing but simple commands joined by ';', '&&', '||',
 * '|', '&' and newlines, every word a literal after quote removal (quotes
 * and escapes are fine; no $x, $( ), backticks, <( ), arithmetic), no
 * assignments (FOO=1 cmd), no compound commands, functions or here-docs,
 * and no redirections other than fd duplications (2>&1, >&2) and to or from
 * /dev/null. Unquoted glob characters are allowed but remembered per word:
 * a glob word can never stand where a rule's prefix word must match. An
 * unquoted '{' counts as a glob character too (brace expansion turns one
 * word into several). Words holding a NUL byte are not plain.
 * Anything else is "not plain" and only exact-command rules can apply.
 */
#ifndef CORDON_CMDWORDS_H
#define CORDON_CMDWORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "strlist.h"
#include "cordon.h"

struct cw_seg {
	const char **argv; /* NUL-terminated words (quote removal done) */
	bool *glob; /* glob[i]: word i has unquoted * ? [ { */
	size_t argc;
};

struct cmdwords {
	struct cw_seg *seg;
	size_t nseg;
};

/* Splits cmd[0..len) (limits from lim, NULL for the defaults) into plain
 * segments in arena a. Returns true when the line is plain (an empty or
 * comment-only line is plain with nseg 0); on false out is empty. */
bool cmdwords_split(struct arena *a, const struct cordon_limits *lim,
		    const char *cmd, size_t len, struct cmdwords *out);

/* The same from the command list of a line cordon_classify() read
 * (cmdlist.h): its parse is reused, the line is not parsed again. A line
 * that did not parse, or whose list is incomplete, is not plain. */
struct cmdlist;
bool cmdwords_from_list(struct arena *a, const struct cmdlist *list,
			struct cmdwords *out);

/* Does segment s begin with prefix (word by word, exact bytes, the command
 * name compared as written: "/usr/bin/git" does not match "git")? An empty
 * prefix matches nothing (it would otherwise allow every command). */
bool cmdwords_seg_has_prefix(const struct cw_seg *s,
			     const struct strlist *prefix);

/* Does every segment of example begin with prefix? false when the example
 * is not plain. For match/not_match checks of rules. */
bool cmdwords_matches_prefix(const struct strlist *prefix,
			     const char *example);

#endif
