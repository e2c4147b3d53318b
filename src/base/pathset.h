/* pathset — a list of path globs compiled for fast matching.
 *
 * The policy matches every path of every call against the denied paths
 * (twenty-five patterns by default), the read-only paths and the allowed
 * paths. Most patterns have one of a few shapes, and a shape can be tested
 * with a compare instead of a glob walk (written here with "** /" for the
 * any-depth prefix, since a C comment cannot hold the real spelling):
 *   ** / NAME         the last component is NAME
 *   ** / *SUFFIX      the last component ends in SUFFIX
 *   ** / PREFIX*      the last component starts with PREFIX
 *   ** / DIR / **     some component is DIR (the directory and below)
 *   /ABS              the path is /ABS
 *   /ABS / **         the path is /ABS or below it
 * where NAME, SUFFIX, PREFIX, DIR and ABS hold no glob characters. Every
 * other pattern goes to glob_match(). Patterns keep their order: the match
 * reports the first pattern (in the given order) that matches, so messages
 * name the same pattern glob_match() alone would.
 *
 * "~/" at the start of a pattern expands to home, "<cwd>" to the cwd given
 * at match time (such patterns are always matched by glob_match()).
 */
#ifndef CORDON_PATHSET_H
#define CORDON_PATHSET_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"

enum pathset_shape {
	PS_GLOB = 0,
	PS_BASENAME,
	PS_SUFFIX,
	PS_PREFIX,
	PS_COMPONENT, /* any-depth a/any or a/b/any: whole components anywhere */
	PS_TAIL, /* any-depth a/b: the last whole components */
	PS_ABS,
	PS_ABS_TREE,
	PS_CWD, /* holds <cwd>: expanded per match */
};

struct pathset_pat {
	const char *pattern; /* as given (for messages); in the set's block */
	const char *glob;    /* after ~ expansion; may be pattern itself */
	enum pathset_shape shape;
	const char *lit; /* the literal part (into glob) */
	size_t litlen;
};

struct pathset {
	struct pathset_pat *pat;
	size_t n;
	bool ci; /* match ASCII letters case-insensitively (set after init) */
};

/* Compiles patterns[0..n); home may be NULL (then "~/" stays literal). */
enum cordon_err pathset_init(struct pathset *ps, const char *const *patterns,
			     size_t n, const char *home);
void pathset_free(struct pathset *ps);

/* The index of the first pattern that matches path (absolute, normalised),
 * or -1; case-insensitively for ASCII when ps->ci is set. cwd is used for <cwd> patterns (may be NULL: they never match). */
long pathset_match(const struct pathset *ps, const char *path, size_t len,
		   const char *cwd);

#endif
