/* wrappers — the one table of commands that run other commands: wrappers
 * (nice, sudo, timeout, env …) with their option grammars, shells, the
 * other runners (eval, xargs, find -exec, ssh …) and the interpreters that
 * run code given as operands. Every module that needs to know which words
 * of a command line are themselves a command asks here: the classifier
 * (commands.c), the code scanner, the Claude rule matcher, the policy's
 * command rules, approvals' amendment refusals and the deny patterns.
 *
 * The option grammars follow getopt_long as the tools use it, read from
 * their --help and man pages: a short option with a required value takes
 * the rest of its cluster or the next word (-T5, -T 5), one with an
 * optional value only the rest of its cluster (-m, -mFILE), a long option
 * with a value "=VALUE" or the next word, and a unique prefix of a long
 * option is that option. Options stop at "--" or the first operand.
 */
#ifndef CORDON_WRAPPERS_H
#define CORDON_WRAPPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codescan.h"
#include "cordon.h"

enum wrapper_kind {
	WRAPPER_RUNS, /* runs the command its operands name (nice, sudo) */
	WRAPPER_SHELL, /* a shell of the sh family: -c STRING is a command line */
	WRAPPER_FOREIGN, /* cmd, powershell: a command line in another language */
	WRAPPER_RUNNER, /* runs commands or code some other way (eval, xargs,
			   find -exec, su -c, awk): a handler reads it */
	WRAPPER_NAMES, /* names commands without running them (which, stat,
			  sha256sum): known, so not read as a wrapper */
};

#define WF_CLAUDE (1u << 0) /* Claude Code strips it before matching */
#define WF_DASH_NUM (1u << 1) /* -N is an option (nice -5) */
#define WF_ASSIGNS (1u << 2) /* NAME=value operands before the command */
#define WF_HANDLER (1u << 3) /* the classifier reads it with a handler */
#define WF_OPERANDS_FIRST (1u << 4) /* operands, then options (setarch) */
#define WF_MULTICALL                                                           \
	(1u << 5) /* its first operand is the program (busybox sh) */
#define WF_ITEMS (1u << 6) /* the command gets items after its words (fd -x) */

/* A row as wrappers_table.c writes it. */
struct wrapper_src {
	const char *name;
	enum wrapper_kind kind;
	unsigned flags;
	const char *sub; /* " run exec ": required first operand, or NULL */
	const char *short_val; /* short options with a required value */
	const char *short_opt; /* short options with an optional value */
	const char *long_val; /* " --a --b ": long options with a value */
	const char *long_val2; /* " --bind ": long options with two values */
	unsigned operands; /* operands before the command (timeout DURATION) */
	char payload_short; /* the option whose value is a command line */
	const char *payload_long; /* its long form */
	char chdir_short; /* the option whose value is the command's directory */
	const char *chdir_long; /* its long form (sudo -D, --chdir) */
	/* " --args ": options after which the words are the command (gdb
	 * --args, fd -x, nix develop -c); such a row reads options past its
	 * operands (fd PATTERN -x CMD) and runs nothing without one */
	const char *cmd_opts;
	/* " --exec ": options whose value is the program, run with the
	 * words after the row's options and operands (start-stop-daemon
	 * --exec PROG -- ARGS, flatpak run --command=PROG APP ARGS); such a
	 * row runs nothing without one */
	const char *prog_opts;
	/* " --start ": long options without a value that are a prefix of
	 * one above, so not its abbreviation (start-stop-daemon --start,
	 * --startas) */
	const char *long_flags;
	enum cordon_risk tier; /* what running through it is, by itself */
	uint64_t labels;
	const char *rule;
	const char *reason;
};

/* The rows, sorted by name. Only the build's indexgen and test_wrappers
 * link wrappers_table.c: its pointers would be relocated by the loader in
 * every process, page by page. */
extern const struct wrapper_src wrappers_src[];
extern const size_t wrappers_src_count;

/* The same rows as the library reads them, written by indexgen into
 * wrappers_rows.c (build directory): the fields of struct wrapper_src,
 * each string an offset into wrappers_pool, 0 for NULL, read with
 * wrappers_str(w->sub); so the table is plain read-only data. */
struct wrapper {
	uint16_t name, sub, short_val, short_opt, long_val, long_val2,
		payload_long, chdir_long, cmd_opts, prog_opts, long_flags, rule,
		reason;
	enum wrapper_kind kind;
	unsigned flags;
	unsigned operands;
	char payload_short;
	char chdir_short;
	enum cordon_risk tier;
	uint64_t labels;
};

extern const struct wrapper wrappers_rows[];
extern const size_t wrappers_rows_count;
extern const char wrappers_pool[];
extern const size_t wrappers_pool_size;

/* A string field of a row of wrappers_rows: NULL when the row has none. */
static inline const char *wrappers_str(uint16_t off)
{
	return off ? wrappers_pool + off : NULL;
}

/* The entry for a command's base name (name, n), or NULL. An entry with a
 * required subcommand ("npm exec") is only returned when sub (may be NULL)
 * is one of its subcommands. */
const struct wrapper *wrappers_find(const char *name, size_t n, const char *sub,
				    size_t subn);

/* The subcommands that make a command a wrapper (" exec x " for npm, "
 * run " for uv), or NULL when none does: a prefix rule on the name alone
 * would cover them. */
const char *wrappers_subs(const char *name, size_t n);

/* A shell of the sh family (sh, bash, dash, mksh, yash …): its -c string
 * and what it reads on stdin are shell command lines. */
bool wrappers_is_shell(const char *name, size_t n);

/* Any shell, also cmd and powershell, whose command lines are not sh. */
bool wrappers_is_any_shell(const char *name, size_t n);

/* Runs code or a command given in its arguments: a shell, a wrapper, a
 * runner or an interpreter (python3 -c, bash -lc, env, sudo, xargs, eval).
 * A prefix rule on such a name would allow anything. The empty name too. */
bool wrappers_opens_code(const char *name, size_t n);

/* An interpreter whose operands can be code (python3 -c, node -e). */
struct wrappers_interp {
	const char *name; /* exact, or a prefix ending in '*' */
	enum code_lang lang;
	const char *code_opt; /* options whose value is code: " -c " */
	const char *arg_opt; /* other options that take a value */
	const char *module_opt; /* runs a module as a command: " -m " */
	const char *sub; /* a build tool ("go", "rustc"): the subcommands
			    before its files (" run build ", or " "); only a
			    file written on the line is read */
};

/* The interpreter for a command's base name, or NULL. */
const struct wrappers_interp *wrappers_find_interp(const char *name, size_t n);
/* Every interpreter's first letter is in the quick filter of
 * wrappers_find_interp (for the tests). */
bool wrappers_interp_firsts_cover(void);

/* The same found by walking the interpreter table, without the name
 * index (names.h), which is built from it; and that table. */
const struct wrappers_interp *wrappers_interp_scan(const char *name, size_t n);
const struct wrappers_interp *wrappers_interps(size_t *n);

/* Word i of a command, for wrappers_scan: false when the word is only
 * known at run time (then *s, *n are not read). */
typedef bool wrapper_word_fn(const void *ctx, size_t i, const char **s,
			     size_t *n);

/* Where a wrapper's parts are, by index into its words (0 is the
 * wrapper's name). Indices are argc when there is no such part. */
struct wrapper_scan {
	size_t opt_end; /* the first word after the wrapper's options */
	size_t assigns; /* the first NAME=value operand (WF_ASSIGNS) */
	size_t cmd; /* the command it runs */
	size_t payload; /* the word holding a command line (env -S, flock -c) */
	size_t payload_off; /* where the command line starts in that word */
	size_t chdir; /* the word holding the directory the command runs in */
	size_t chdir_off; /* where the directory starts in that word */
	size_t prog; /* the word holding the program (prog_opts) */
	size_t prog_off; /* where the program's name starts in that word */
	bool dynamic; /* a word known only at run time ends the options */
};

/* Reads a wrapper's options and operands in the words 0..argc. */
void wrappers_scan(const struct wrapper *w, size_t argc, wrapper_word_fn *get,
		   const void *ctx, struct wrapper_scan *out);

/* The entries in name order, for the tests that walk the table. */
const struct wrapper *wrappers_table(size_t *n);

/* The table is sorted by name, bytewise, and names are unique. */
bool wrappers_table_sorted(void);

/* Writes the names of the shells of the sh family as a regex alternation
 * ("bash|dash|…|sh"), for the deny patterns, into buf[0..cap) with a NUL.
 * Returns its length, 0 when cap is too small. */
size_t wrappers_shell_alternation(char *buf, size_t cap);

#endif
