/* cmdlist — every simple command a shell line would run, as the
 * classifier's walk found it.
 *
 * cordon_classify() records one entry per command it judges: the
 * top-level commands of the line and every command in a substitution
 * ($( ), backticks, <( ), >( )), in a payload (sh -c and every other
 * shell the classifier knows, eval, su -c, env -S, ssh, a here-doc or echo
 * piped into a shell, the shell calls of inline code), behind every
 * wrapper hop (sudo git push gives [sudo git push] and then [git push])
 * and in every batch runner (xargs, find -exec). The words are the
 * classifier's evaluated words: quote removal done, the variables it knows
 * expanded, IFS splitting and brace expansion applied; a word whose value
 * is only known when it runs is marked unknown. A compound command's
 * redirections come as an entry without words.
 *
 * The policy's command rules and shell path words, cmdwords and the
 * Claude-rule matcher read this list instead of walking or parsing the
 * line again. It lives in the classifier's arena: valid until the next
 * cordon_classify() with the same classifier.
 */
#ifndef CORDON_CMDLIST_H
#define CORDON_CMDLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"
#include "sh.h"

/* How an entry is nested (a bit set; 0: a command of the line itself).
 * RUNNER: started by another command (a wrapper such as sudo, env or
 * timeout, xargs, find -exec …, and the shell or other carrier of a
 * payload), or the same words read again (split at $IFS, a mixed-case
 * name); PAYLOAD: in a command line given as text; SUBST: in a command or
 * process substitution. */
#define CMD_FROM_RUNNER (1u << 0)
#define CMD_FROM_PAYLOAD (1u << 1)
#define CMD_FROM_SUBST (1u << 2)

/* Entries past this many make the list incomplete. */
#define CMDLIST_MAX 65536

struct cmd_word {
	const char *s; /* the evaluated text (unknown parts left out) */
	size_t n;
	bool known; /* the whole value is known before it runs */
	bool glob; /* an unquoted * ? [ : the shell expands it */
	bool tilde; /* began with ~ or ~/, which s holds expanded */
	const struct sh_word *src; /* the word as parsed (NULL: made up by a
				      runner, as xargs' appended operand) */
};

struct cmd_run {
	const struct cmd_word *w; /* the words, w[0] the command name */
	size_t argc;
	const struct cmd_word *redir; /* redirection targets (no here-docs) */
	size_t nredir;
	const char *cwd; /* where it runs: after cd, sudo -D, env -C … */
	const struct sh_redir *redirs; /* its redirections as parsed */
	unsigned from; /* CMD_FROM_* */
	unsigned depth; /* payload depth (0: the line) */
	size_t parent; /* 1 + the index of the command that started it
			  (the wrapper or runner), 0: none */
};

/* A piece of text read as a command line (sh -c, eval, a here-doc or echo
 * fed to a shell …). */
struct cmd_text {
	const char *s;
	size_t n;
};

/* A variable the line assigns (NAME=v cmd, NAME=v alone, export NAME=v,
 * env NAME=v …). */
struct cmd_var {
	const char *name;
	size_t n;
};

struct cmdlist {
	struct cmd_run *v;
	size_t n, cap;
	struct sh_result tree; /* the line's parse (root NULL: not parsed) */
	struct cmd_text *texts; /* every payload, in the order read */
	size_t ntexts, texts_cap;
	struct cmd_var *vars; /* every variable assigned */
	size_t nvars, vars_cap;
	bool subst;   /* holds a command substitution ($( ), backticks) */
	bool procsub; /* holds a process substitution (<( ), >( )) */
	bool test;    /* holds [[ … ]] or (( … )) */
	bool unparsed; /* a payload did not parse */
	bool too_deep; /* a payload nested past the depth limit was not read */
	bool incomplete; /* an entry was lost (CMDLIST_MAX, out of memory):
			    consumers fail closed */
};

struct arena;
struct cordon_verdict;

/* The commands of the last classification into v. */
const struct cmdlist *cmdlist_of(const struct cordon_verdict *v);

/* Appends a copy of *r (its arrays are not copied) to l, growing it in a.
 * false (and l->incomplete) when it cannot. */
bool cmdlist_push(struct cmdlist *l, struct arena *a, const struct cmd_run *r);
/* Records a payload's text and an assigned variable's name the same way. */
bool cmdlist_push_text(struct cmdlist *l, struct arena *a, const char *s,
		       size_t n);
bool cmdlist_push_var(struct cmdlist *l, struct arena *a, const char *name,
		      size_t n);

#endif
