/* pooltest.h — checks of the tables indexgen writes with their strings as
 * offsets into one pool (cmdtab.h, wrappers.h, codescan_int.h), for the
 * unit tests that hold such a table to the rows it was written from. */
#ifndef CORDON_POOLTEST_H
#define CORDON_POOLTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The string at off in pool[0..size), or NULL for offset 0; an offset
 * outside the pool, or not at the start of one of its strings (the byte
 * before it a NUL, a NUL after it inside the pool), counts one in *bad
 * and gives NULL. */
static inline const char *pool_at(const char *pool, size_t size, uint32_t off,
				  size_t *bad)
{
	if (off == 0)
		return NULL;
	if (off >= size || pool[off - 1] != '\0' ||
	    !memchr(pool + off, '\0', size - off)) {
		(*bad)++;
		return NULL;
	}
	return pool + off;
}

/* Both NULL, or the same string. */
static inline bool pool_same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* A pool as indexgen writes it: a NUL first (offset 0, NULL) and last. */
static inline bool pool_framed(const char *pool, size_t size)
{
	return size > 0 && pool[0] == '\0' && pool[size - 1] == '\0';
}

#endif
