/* names — every role a command name has, found with one lookup.
 *
 * A command word is looked up in several tables: the wrapper table
 * (wrappers.c), the handlers (commands.c) and the interpreters
 * (wrappers.c). Each table stays where it is and stays the one place its
 * facts live; this index holds, for every name any of them names, a
 * pointer to each row, in one hash table built once per process from the
 * tables themselves. The tables' own lookups answer from it, so a name
 * costs one hash probe however many roles are asked about. Private to
 * src/shell/.
 */
#ifndef CORDON_NAMES_H
#define CORDON_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands_int.h"

struct name_roles {
	const char *name; /* NULL: an empty slot */
	size_t len;
	const struct wrapper *wrapper; /* its wrapper row (before any
					* subcommand check), or NULL */
	handler_fn *handler; /* its row in the handlers table, or NULL */
	const struct wrappers_interp *interp; /* its interpreter, or NULL */
	unsigned flags; /* NAMES_F_*: the roles of the short name lists */
	uint64_t exec_rows; /* bit t: row t of commands.c's exec_opts is
			     * this name's */
};

/* From lists of names that only say one thing about a command:
 * commands_known()'s builtins (commands.c), and filecmds.c's commands
 * that read their operands as files and those that never do. */
enum {
	NAMES_F_BUILTIN = 1u << 0,
	NAMES_F_READS_FILES = 1u << 1,
	NAMES_F_NEVER_READS = 1u << 2,
};

/* Whether the index was built (it always is unless a table outgrew it;
 * test_shell checks). Without it the tables are searched as before. */
bool names_ready(void);

/* The roles of name[0..n), or NULL when no table names it exactly. An
 * interpreter found by a version suffix (python3.12 for "python*") is not
 * in the index: wrappers_find_interp() scans for those. Only when
 * names_ready(). */
const struct name_roles *names_find_slow(const char *name, size_t n);

/* The last name asked about, by content: a command's name is asked
 * about several times in a row (wrapper, interpreter, handler, the file
 * lists), and comparing it with a copy, inline, costs less than the call,
 * the hash and the probe. Per thread, as classifiers are. */
#define NAMES_LAST_MAX 32
struct names_last {
	bool valid;
	size_t n;
	char s[NAMES_LAST_MAX];
	const struct name_roles *r;
};
extern _Thread_local struct names_last names__last;

static inline const struct name_roles *names_find(const char *name, size_t n)
{
	const struct names_last *l = &names__last;

	if (l->valid && l->n == n) {
		size_t i = 0;
		while (i < n && l->s[i] == name[i])
			i++;
		if (i == n)
			return l->r;
	}
	return names_find_slow(name, n);
}

#endif
