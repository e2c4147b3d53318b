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

/* Replaces *l with the NULL-terminated list v. */
bool strlist_fill(struct strlist *l, const char *const *v)
{
	strlist_clear(l);
	for (; v && *v; v++)
		if (!strlist_push(l, *v))
			return false;
	return true;
}

bool strlist_copy(struct strlist *dst, const struct strlist *src)
{
	dst->v = NULL;
	dst->n = 0;
	for (size_t i = 0; i < src->n; i++) {
		if (!strlist_push(dst, src->v[i])) {
			strlist_clear(dst);
			return false;
		}
	}
	return true;
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
