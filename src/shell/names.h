/* names — every role a command name has, found with one lookup.
 *
 * A command word is looked up in several tables: the wrapper table
 * (wrappers_table.c), the handlers (commands.c), the interpreters
 * (wrappers.c), the short name lists and the command families of cmdtab.c.
 * Each table stays where it is and stays the one place its facts live;
 * this index holds, for every name any of them names, the number of each
 * row, in one hash table made at build time from the tables themselves
 * (src/shell/indexgen.c writes names_index.c), so a process starts with it
 * and a name costs one hash probe however many roles are asked about. It
 * holds row numbers and offsets, not pointers, so the loader has nothing
 * to relocate in it. Private to src/shell/.
 */
#ifndef CORDON_NAMES_H
#define CORDON_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands_int.h"

/* A slot of the index. Row numbers are 1 + the row's index, 0 for none. */
struct name_roles {
	uint32_t name; /* its offset in names_pool */
	uint8_t len; /* 0: an empty slot */
	uint8_t flags; /* NAMES_F_*: the roles of the short name lists */
	uint16_t wrapper; /* its wrapper row (before any subcommand check) */
	uint16_t handler; /* its row in the handlers table */
	uint16_t interp; /* its interpreter row (wrappers_interp_scan) */
	uint16_t fam; /* 1 + its number among the families of cmdtab_rules */
	uint16_t fam_first; /* its rules: names_fam_rules[fam_first] … */
	uint16_t fam_n; /* … and fam_n - 1 after it, in table order */
	uint16_t exec_first; /* its first row of commands.c's exec_opts */
	uint64_t exec_rows; /* bit k: row exec_first + k is this name's */
};

/* From lists of names that only say one thing about a command:
 * commands_known()'s builtins (commands.c), and filecmds.c's commands
 * that read their operands as files and those that never do. */
enum {
	NAMES_F_BUILTIN = 1u << 0,
	NAMES_F_READS_FILES = 1u << 1,
	NAMES_F_NEVER_READS = 1u << 2,
};

/* The generated index (names_index.c). names_index_cap is a power of two,
 * and at least twice the names, so that a probe ends soon; it is 0 in the
 * generator itself, which searches the tables. */
extern const char names_pool[];
extern const struct name_roles names_index[];
extern const size_t names_index_cap;
extern const uint16_t names_fam_rules[]; /* indices into cmdtab_rules */
extern const size_t names_fam_count; /* how many families */

/* The hash both the generator and the lookup use. */
static inline size_t names_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

/* Whether the index is there (always, but in the generator). Without it
 * the tables are searched. */
static inline bool names_ready(void)
{
	return names_index_cap != 0;
}

/* The roles of name[0..n), or NULL when no table names it exactly. An
 * interpreter found by a version suffix (python3.12 for "python*") is not
 * in the index: wrappers_find_interp() scans for those. Only when
 * names_ready(). */
const struct name_roles *names_find_slow(const char *name, size_t n);

/* The rows a slot names, or NULL (also when r is NULL). The tables' own
 * files index their rows directly. */
const struct wrapper *names_wrapper(const struct name_roles *r);
handler_fn *names_handler(const struct name_roles *r);
const struct wrappers_interp *names_interp(const struct name_roles *r);

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
