/* codesinks.c — the lookups of the calls the code scanner knows.
 *
 * The tables are written in codesinks_table.c; the library reads them as
 * codesinks_sink_tab and codesinks_mod_tab, which indexgen writes from
 * them (codescan_int.h).
 */
#include "codescan_int.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "banned.h"

/* p[0..n) is one of the '|'-separated names in list (an empty name too).
 * One pass over list: this runs for every identifier against every row. */
int codesinks_name_in(const char *list, const char *p, size_t n, int ci)
{
	const char *a = list;

	for (;;) {
		size_t i = 0;
		while (i < n && a[i] && a[i] != '|' &&
		       (ci ? lower((unsigned char)a[i]) ==
					lower((unsigned char)p[i]) :
			     a[i] == p[i]))
			i++;
		if (i == n && (a[i] == '|' || a[i] == 0))
			return 1;
		a += i;
		while (*a && *a != '|')
			a++;
		if (!*a)
			return 0;
		a++;
	}
}

static const char *mod_exact(enum code_lang L, const char *p, size_t n)
{
	for (size_t i = 0; i < codesinks_nmod; i++)
		if ((codesinks_mod_tab[i].langs & (1u << L)) &&
		    codesinks_name_in(codesinks_str(codesinks_mod_tab[i].names),
				      p, n, 0))
			return codesinks_canon(i);
	return NULL;
}

/* The canonical module for a receiver or module name: perl and ruby names
 * are tried whole and then without their last ::parts, python and lua
 * dotted names whole and then by their first part, node specifiers without
 * a node: prefix. */
const char *codesinks_mod_lookup(enum code_lang L, const char *p, size_t n)
{
	const char *c;

	if (L == CODE_NODE && n > 5 && !memcmp(p, "node:", 5)) {
		p += 5;
		n -= 5;
	}
	c = mod_exact(L, p, n);
	if (c)
		return c;
	if (L == CODE_PERL || L == CODE_RUBY) {
		while (n > 2) {
			size_t k = n;
			while (k > 1 && !(p[k - 1] == ':' && p[k - 2] == ':'))
				k--;
			if (k <= 2)
				break;
			n = k - 2;
			c = mod_exact(L, p, n);
			if (c)
				return c;
		}
	}
	if (L == CODE_PYTHON || L == CODE_LUA) {
		const char *dot = memchr(p, '.', n);
		if (dot)
			return mod_exact(L, p, (size_t)(dot - p));
	}
	return NULL;
}

/* The row for name called on the canonical module mod ("" builtin, "*"
 * unknown receiver). A row's mod may list several with '|'. */
const struct sink *codesinks_find(enum code_lang L, const char *mod,
				  const char *p, size_t n)
{
	int ci = L == CODE_PHP;
	size_t mn = strlen(mod);

	for (size_t i = 0; i < codesinks_nsink; i++) {
		const struct sink *k = &codesinks_sink_tab[i];
		if (!(k->langs & (1u << L)))
			continue;
		if (!codesinks_name_in(codesinks_str(k->mod), mod, mn, 0))
			continue;
		if (codesinks_name_in(codesinks_str(k->names), p, n, ci))
			return k;
	}
	return NULL;
}
