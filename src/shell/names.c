/* names — see names.h. The index itself is generated (indexgen.c). */
#include <string.h>

#include "names.h"
#include "wrappers.h"
#include "banned.h"

static const struct name_roles *probe(const char *s, size_t n)
{
	size_t mask = names_index_cap - 1;
	size_t i = names_hash(s, n) & mask;

	for (;; i = (i + 1) & mask) {
		const struct name_roles *sl = &names_index[i];
		if (!sl->len)
			return NULL;
		if (sl->len == n && memcmp(names_pool + sl->name, s, n) == 0)
			return sl;
	}
}

_Thread_local struct names_last names__last;

/* names_find() missed its copy of the last name (names.h). */
const struct name_roles *names_find_slow(const char *name, size_t n)
{
	struct names_last *l = &names__last;
	const struct name_roles *r = n && n <= UINT8_MAX ? probe(name, n) :
							   NULL;

	if (n <= NAMES_LAST_MAX) {
		memcpy(l->s, name, n);
		l->n = n;
		l->r = r;
		l->valid = true;
	}
	return r;
}

const struct wrapper *names_wrapper(const struct name_roles *r)
{
	size_t n;

	return r && r->wrapper ? &wrappers_table(&n)[r->wrapper - 1] : NULL;
}

handler_fn *names_handler(const struct name_roles *r)
{
	size_t len;
	handler_fn *fn = NULL;

	if (r && r->handler)
		commands_handler_row(r->handler - 1u, &len, &fn);
	return fn;
}

const struct wrappers_interp *names_interp(const struct name_roles *r)
{
	size_t n;

	return r && r->interp ? &wrappers_interps(&n)[r->interp - 1] : NULL;
}
