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

bool cmdlist_push(struct cmdlist *l, struct arena *a, const struct cmd_run *r)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 16;
		struct cmd_run *nv;

		if (l->n >= CMDLIST_MAX || nc > SIZE_MAX / sizeof(*nv))
			goto lost;
		/* the old array stays in the arena until its reset */
		nv = arena_alloc(a, nc * sizeof(*nv));
		if (!nv)
			goto lost;
		if (l->n)
			memcpy(nv, l->v, l->n * sizeof(*nv));
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n++] = *r;
	return true;
lost:
	l->incomplete = true;
	return false;
}
