/* buf: the bounded growable buffer — appends, the ceiling, the sticky
 * failure, take and reset. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "arena.h"
#include "buf.h"
#include "tap.h"

static void test_basics(void)
{
	struct buf b;
	size_t len = 99;
	char *s;

	buf_init(&b, 1024);
	is_str(buf_str(&b), "", "an empty buffer reads as \"\"");
	is_int((long long)buf_len(&b), 0, "and has length 0");
	ok(buf_adds(&b, "ab"), "buf_adds");
	ok(buf_addc(&b, 'c'), "buf_addc");
	ok(buf_add(&b, "d\0e", 3), "buf_add with a NUL byte");
	ok(buf_addf(&b, "-%d-%s", 42, "x"), "buf_addf");
	is_int((long long)buf_len(&b), 11, "length counts every byte");
	ok(memcmp(buf_str(&b), "abcd\0e-42-x", 12) == 0,
	   "the bytes, NUL-terminated");
	ok(!buf_failed(&b), "not failed");
	s = buf_take(&b, &len);
	ok(s && len == 11 && memcmp(s, "abcd\0e-42-x", 12) == 0,
	   "buf_take hands over the text and its length");
	is_int((long long)buf_len(&b), 0, "the buffer is empty after take");
	is_str(buf_str(&b), "", "and reads as \"\"");
	free(s);
	s = buf_take(&b, &len);
	ok(s && len == 0 && s[0] == '\0',
	   "take of an empty buffer gives an empty string");
	free(s);
	buf_free(&b);
	buf_free(NULL);
	ok(1, "buf_free accepts NULL");
}

static void test_ceiling(void)
{
	struct buf b;
	char big[100];

	memset(big, 'x', sizeof(big));
	buf_init(&b, 10);
	ok(buf_add(&b, big, 10), "exactly the ceiling fits");
	ok(b.cap <= 11, "no more memory than the ceiling needs (cap %zu)",
	   b.cap);
	ok(!buf_addc(&b, 'y'), "one byte more fails");
	ok(buf_failed(&b), "the failure is recorded");
	ok(!buf_adds(&b, ""), "and is sticky: even an empty add fails");
	ok(!buf_addf(&b, "%s", ""), "addf fails too");
	is_int((long long)buf_len(&b), 10, "what was there is unchanged");
	ok(buf_take(&b, NULL) == NULL, "take of a failed buffer is NULL");
	ok(!buf_failed(&b), "and leaves a fresh buffer");
	ok(buf_adds(&b, "abc"), "which takes adds again");
	buf_reset(&b);
	ok(buf_len(&b) == 0 && !buf_failed(&b) && buf_str(&b)[0] == '\0',
	   "buf_reset empties and clears the failure");
	buf_fail(&b);
	ok(buf_failed(&b) && !buf_adds(&b, "x"),
	   "buf_fail marks it failed like an add would");
	buf_reset(&b);
	buf_free(&b);

	buf_init(&b, 5);
	ok(!buf_addf(&b, "%s", "123456"), "addf past the ceiling fails");
	is_int((long long)buf_len(&b), 0, "and keeps nothing of it");
	buf_free(&b);

	buf_init(&b, 0);
	ok(!buf_addc(&b, 'a'), "a zero ceiling takes nothing");
	buf_free(&b);

	buf_init(&b, SIZE_MAX);
	ok(buf_adds(&b, "a"), "an unbounded buffer grows");
	ok(!buf_add(&b, big, SIZE_MAX), "a length that would overflow fails");
	ok(buf_failed(&b), "and is recorded");
	buf_free(&b);
}

static void test_setlen(void)
{
	struct buf b;

	buf_init(&b, 100);
	buf_adds(&b, "hello world");
	ok(buf_setlen(&b, 5) && strcmp(buf_str(&b), "hello") == 0,
	   "setlen cuts back to a mark");
	ok(!buf_setlen(&b, 6), "and never grows the text");
	ok(buf_setlen(&b, 0) && buf_str(&b)[0] == '\0', "to nothing");
	buf_free(&b);
}

static void test_reserve(void)
{
	struct buf b;
	char *p;

	buf_init(&b, 100);
	ok(buf_reserve(&b, 50) && b.cap >= 51 && b.p && b.p[0] == '\0',
	   "reserve allocates room and the NUL");
	p = b.p;
	ok(buf_add(&b, "0123456789", 10) && b.p == p,
	   "adds within the reserve do not move the text");
	ok(!buf_reserve(&b, 91), "a reserve past the ceiling fails");
	ok(buf_failed(&b) && !buf_addc(&b, 'x'), "and sticks like an add");
	buf_free(&b);
}

static void test_space(void)
{
	struct buf b;
	char *w;

	buf_init(&b, 16);
	buf_adds(&b, "ab");
	w = buf_space(&b, 4);
	ok(w == b.p + 2, "space starts at the end of the text");
	memcpy(w, "cdef", 4);
	ok(buf_commit(&b, 3) && buf_len(&b) == 5 &&
		   strcmp(buf_str(&b), "abcde") == 0,
	   "commit adds what was written, NUL-terminated");
	ok(!buf_commit(&b, 100), "committing more than the room fails");
	ok(buf_failed(&b) && buf_space(&b, 1) == NULL,
	   "and sticks: no more space");
	buf_free(&b);
	buf_init(&b, 4);
	ok(buf_space(&b, 5) == NULL && buf_failed(&b),
	   "space past the ceiling fails");
	buf_free(&b);
}

static void test_arena(void)
{
	struct arena a;
	struct buf b;
	bool good = true;
	char *s;

	arena_init(&a, 4096);
	buf_init_arena(&b, &a, 1000);
	for (int i = 0; i < 101; i++)
		good &= buf_adds(&b, "0123456789");
	ok(!good && buf_failed(&b), "an arena buffer has its own ceiling");
	good = true;
	buf_free(&b);
	ok(b.arena == &a && !buf_failed(&b), "buf_free keeps the arena");
	ok(buf_addf(&b, "%s-%d", "x", 7), "and the buffer takes adds again");
	s = buf_take(&b, NULL);
	is_str(s, "x-7", "take gives the arena's text (not to be freed)");
	buf_init_arena(&b, &a, SIZE_MAX);
	for (int i = 0; i < 1000 && good; i++)
		good = buf_adds(&b, "0123456789");
	ok(!good && buf_failed(&b), "the arena's ceiling is a failure too");
	arena_release(&a);
}

static void test_growth(void)
{
	struct buf b;
	bool good = true;

	buf_init(&b, 1 << 20);
	for (int i = 0; i < 10000; i++)
		good &= buf_addf(&b, "%04d,", i % 10000);
	ok(good && buf_len(&b) == 50000, "many adds grow it (%zu bytes)",
	   buf_len(&b));
	ok(memcmp(buf_str(&b) + 49995, "9999,", 5) == 0,
	   "the last piece is at the end");
	buf_free(&b);
}

/* Out of memory is a failure like the ceiling: sticky, nothing kept. */
static void test_oom(void)
{
	struct buf b;

	buf_init(&b, 1024);
	cordon__alloc_fail_after(0);
	ok(!buf_adds(&b, "abc"), "an add that cannot allocate fails");
	cordon__alloc_fail_after(-1);
	ok(buf_failed(&b), "the failure is recorded");
	ok(!buf_adds(&b, "abc"), "and sticks once memory is back");
	ok(buf_take(&b, NULL) == NULL, "take gives NULL");
	buf_free(&b);
}

int main(void)
{
	tap_no_plan();
	test_basics();
	test_ceiling();
	test_setlen();
	test_reserve();
	test_space();
	test_arena();
	test_growth();
	test_oom();
	return tap_done();
}
