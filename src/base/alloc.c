/* alloc — see alloc.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define CORDON_ALLOC_IMPL
#include "banned.h"

static atomic_long fail_after = -1; /* < 0: never fail */
static atomic_bool fail_once;       /* only allocation fail_after fails */
static atomic_long attempts;

/* Whether this allocation is to fail; counts it either way. */
static int should_fail(void)
{
	long limit = atomic_load_explicit(&fail_after, memory_order_relaxed);
	long n = atomic_fetch_add_explicit(&attempts, 1, memory_order_relaxed);

	if (limit < 0 || n < limit)
		return 0;
	if (n > limit && atomic_load_explicit(&fail_once, memory_order_relaxed))
		return 0;
	errno = ENOMEM;
	return 1;
}

void cordon__alloc_fail_after(long n)
{
	atomic_store(&attempts, 0);
	atomic_store(&fail_once, false);
	atomic_store(&fail_after, n < 0 ? -1 : n);
}

void cordon__alloc_fail_once(long n)
{
	atomic_store(&attempts, 0);
	atomic_store(&fail_once, true);
	atomic_store(&fail_after, n < 0 ? -1 : n);
}

long cordon__alloc_count(void)
{
	return atomic_load(&attempts);
}

void *cordon__malloc(size_t n)
{
	return should_fail() ? NULL : malloc(n);
}

void *cordon__calloc(size_t count, size_t size)
{
	return should_fail() ? NULL : calloc(count, size);
}

void *cordon__realloc(void *p, size_t n)
{
	return should_fail() ? NULL : realloc(p, n);
}

char *cordon__strdup(const char *s)
{
	return should_fail() ? NULL : strdup(s);
}

char *cordon__strndup(const char *s, size_t n)
{
	return should_fail() ? NULL : strndup(s, n);
}
