/* cmdlist — see cmdlist.h. */
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "classify_int.h"
#include "cmdlist.h"
#include "banned.h"

const struct cmdlist *cmdlist_of(const struct cordon_verdict *v)
{
	return v ? &v->cmds : NULL;
}

/* arr (capacity *cap, n used) with room for one more element of size sz,
 * in a (the old array stays in the arena until its reset); NULL when there
 * is none. */
static void *grow(struct cmdlist *l, struct arena *a, void *arr, size_t *cap,
		  size_t n, size_t sz)
{
	size_t nc = *cap ? *cap * 2 : 16;
	void *nv;

	if (n < *cap)
		return arr;
	if (n >= CMDLIST_MAX || nc > SIZE_MAX / sz)
		goto lost;
	/* not zeroed: entries are read only up to the count, each written
	 * whole when pushed */
	nv = arena_alloc_raw(a, nc * sz);
	if (!nv)
		goto lost;
	if (n)
		memcpy(nv, arr, n * sz);
	*cap = nc;
	return nv;
lost:
	l->incomplete = true;
	return NULL;
}

bool cmdlist_push(struct cmdlist *l, struct arena *a, const struct cmd_run *r)
{
	struct cmd_run *v = grow(l, a, l->v, &l->cap, l->n, sizeof(*v));

	if (!v)
		return false;
	l->v = v;
	l->v[l->n++] = *r;
	return true;
}

bool cmdlist_push_text(struct cmdlist *l, struct arena *a, const char *s,
		       size_t n)
{
	struct cmd_text *t =
		grow(l, a, l->texts, &l->texts_cap, l->ntexts, sizeof(*t));

	if (!t)
		return false;
	l->texts = t;
	l->texts[l->ntexts].s = s;
	l->texts[l->ntexts++].n = n;
	return true;
}

bool cmdlist_push_var(struct cmdlist *l, struct arena *a, const char *name,
		      size_t n)
{
	struct cmd_var *v =
		grow(l, a, l->vars, &l->vars_cap, l->nvars, sizeof(*v));

	if (!v)
		return false;
	l->vars = v;
	l->vars[l->nvars].name = name;
	l->vars[l->nvars++].n = n;
	return true;
}
