/* strlist: filling and copying make independent copies, all at once, and
 * leave the list empty when any allocation fails. */
#include <string.h>

#include "alloc.h"
#include "strlist.h"
#include "tap.h"

static const char *const three[] = { "a", "bb", "ccc", NULL };

int main(void)
{
	struct strlist l = { 0 }, c = { 0 };
	long all;

	tap_no_plan();
	ok(strlist_fill(&l, three) && l.n == 3, "fill takes three strings");
	is_str(l.v[2], "ccc", "in order");
	ok(l.v[0] != three[0], "as copies");
	ok(strlist_fill(&l, NULL) && l.n == 0 && !l.v,
	   "fill with NULL empties the list");
	ok(strlist_fill_n(&l, three, 2) && l.n == 2, "fill_n takes n");
	is_str(l.v[1], "bb", "fill_n's last");
	ok(strlist_copy(&c, &l) && strlist_equal(&c, &l), "copy is equal");
	ok(c.v != l.v && c.v[0] != l.v[0], "and shares nothing");
	ok(strlist_push(&c, "d") && c.n == 3 && l.n == 2,
	   "a pushed copy grows alone");
	strlist_clear(&c);
	strlist_clear(&l);

	/* Every allocation of a fill failing in turn: false, and empty. */
	cordon__alloc_fail_after(1000);
	ok(strlist_fill(&l, three), "a fill with room");
	all = cordon__alloc_count();
	cordon__alloc_fail_after(-1);
	strlist_clear(&l);
	is_int(all, 4, "is four allocations: the array and three strings");
	for (long i = 0; i < all; i++) {
		cordon__alloc_fail_once(i);
		ok(!strlist_fill(&l, three) && l.n == 0 && !l.v,
		   "allocation fails: the fill fails, the list is empty");
		cordon__alloc_fail_once(-1);
	}
	return tap_done();
}
