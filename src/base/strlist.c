/* strlist — see strlist.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"

#include "alloc.h"
#include "banned.h"

void strlist_clear(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

/* Appends s (taking ownership of it; freed on failure). */
bool strlist_take(struct strlist *l, char *s)
{
	char **nv;

	if (!s)
		return false;
	if (l->n >= SIZE_MAX / sizeof(*nv) - 1 ||
	    !(nv = cordon__realloc(l->v, (l->n + 1) * sizeof(*nv)))) {
		free(s);
		return false;
	}
	l->v = nv;
	l->v[l->n++] = s;
	return true;
}

bool strlist_push(struct strlist *l, const char *s)
{
	return strlist_take(l, cordon__strdup(s));
}

/* The array is allocated once: a configuration fills its default lists
 * in every process, one per hook call, and growing the array one string
 * at a time was a realloc a string. */
bool strlist_fill_n(struct strlist *l, const char *const *v, size_t n)
{
	l->v = NULL;
	l->n = 0;
	if (n == 0)
		return true;
	l->v = cordon__calloc(n, sizeof(*l->v));
	if (!l->v)
		return false;
	for (size_t i = 0; i < n; i++) {
		l->v[i] = cordon__strdup(v[i]);
		if (!l->v[i]) {
			l->n = i;
			strlist_clear(l);
			return false;
		}
	}
	l->n = n;
	return true;
}

/* Replaces *l with the NULL-terminated list v. */
bool strlist_fill(struct strlist *l, const char *const *v)
{
	size_t n = 0;

	strlist_clear(l);
	while (v && v[n])
		n++;
	return strlist_fill_n(l, v, n);
}

bool strlist_copy(struct strlist *dst, const struct strlist *src)
{
	return strlist_fill_n(dst, (const char *const *)src->v, src->n);
}

bool strlist_equal(const struct strlist *a, const struct strlist *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}
