/* gitexec — the git config keys whose value git runs (or that make git run
 * or load something else), one table for every reader: the shell
 * classifier judges `git config KEY VALUE`, `git -c` and
 * GIT_CONFIG_PARAMETERS by it (src/shell/families.c), and the sandbox's
 * sweep looks for these keys in a git config the command changed
 * (src/sandbox/sweep.c). A key in one list and not the other was a way
 * past the second; the sandbox may not include the shell, so the list
 * lives here, below both.
 *
 * A key is section[.subsection].name; section and name in any case (git
 * folds them), the subsection as it is.
 */
#ifndef CORDON_GITEXEC_H
#define CORDON_GITEXEC_H

#include <stdbool.h>
#include <stddef.h>

enum gitexec_kind {
	GITEXEC_NONE = 0,
	GITEXEC_RUNS, /* the value is a command or program git runs */
	GITEXEC_BANG, /* a command when the value starts with '!' (alias.*,
		       * submodule.*.update) */
	GITEXEC_HOOKS, /* the value names a directory whose programs git runs
			* or copies in as hooks (core.hooksPath,
			* init.templateDir) */
	GITEXEC_LOADS, /* the value names more config or another work tree
			* (include.path, includeIf.*.path, core.worktree) */
	GITEXEC_ALLOWS, /* lets a URL run a command (protocol.ext.allow) */
};

/* The kind of one key given in its parts: sec[0..secn), the subsection
 * sub[0..subn) when has_sub, name[0..namen). Bytes, no NUL needed. */
enum gitexec_kind gitexec_match(const char *sec, size_t secn, const char *sub,
				size_t subn, bool has_sub, const char *name,
				size_t namen);

/* The kind of a dotted key key[0..n) (core.pager, filter.a.b.clean: the
 * subsection is what is between the first and the last dot). */
enum gitexec_kind gitexec_key(const char *key, size_t n);

/* Does a value of kind k run a command? val[0..n) as git reads it (after
 * "=", blanks and quotes are skipped here); for GITEXEC_BANG only one that
 * starts with '!' does, or one this cannot read (a backslash first: an
 * escape or a continued line). */
bool gitexec_value_runs(enum gitexec_kind k, const char *val, size_t n);

/* The table, for its unit test: row i's key as "sec.sub.name" ("" for no
 * subsection, "*" any, "?" any or none) in out[0..cap), or false past the
 * last row. */
bool gitexec_row(size_t i, char *out, size_t cap, enum gitexec_kind *kind);

#endif
