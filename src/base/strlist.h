/* strlist — a list of malloc'd strings: the configuration's lists and
 * everything that hands them on (the sandbox's environment lists, command
 * rule prefixes).
 */
#ifndef CORDON_STRLIST_H
#define CORDON_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

/* A list of strings, each malloc'd; v may be NULL when n is 0. */
struct strlist {
	char **v;
	size_t n;
};

/* Frees every string and the array; leaves an empty list. */
void strlist_clear(struct strlist *l);
/* Whether l holds a string equal to s. */
bool strlist_has(const struct strlist *l, const char *s);
/* Appends s, taking ownership of it (freed on failure; NULL fails). */
bool strlist_take(struct strlist *l, char *s);
/* Appends a copy of s. */
bool strlist_push(struct strlist *l, const char *s);
/* Replaces *l with copies of the NULL-terminated list v; on failure *l is
 * left empty. */
bool strlist_fill(struct strlist *l, const char *const *v);
/* Makes *l (taken as empty, not freed) copies of v[0..n); on failure *l is
 * left empty. */
bool strlist_fill_n(struct strlist *l, const char *const *v, size_t n);
/* Makes *dst (taken as empty, not freed) a copy of src; on failure *dst is
 * left empty. */
bool strlist_copy(struct strlist *dst, const struct strlist *src);
/* Whether a and b hold the same strings in the same order. */
bool strlist_equal(const struct strlist *a, const struct strlist *b);

#endif
