/* arena — bump allocation for one classification.
 *
 * Parse trees and scratch strings live in an arena that is reset, not freed,
 * between commands, so classifying a batch allocates almost nothing. The
 * arena has a ceiling: past it arena_alloc returns NULL like malloc does.
 */
#ifndef CORDON_ARENA_H
#define CORDON_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head; /* the chunk being filled; owns the list */
	size_t used_total;        /* bytes handed out since the last reset */
	size_t ceiling;           /* arena_alloc fails past this */
	/* the free part of head's data: allocation bumps next */
	unsigned char *next, *limit;
};

void arena_init(struct arena *a, size_t ceiling);
/* Frees every chunk but the first, which is kept for reuse. */
void arena_reset(struct arena *a);
/* Frees everything. Accepts an arena that was only initialised. */
void arena_release(struct arena *a);
/* Zeroed, 16-byte aligned; NULL when out of memory or past the ceiling. */
static inline void *arena_alloc(struct arena *a, size_t size);
/* The same, not zeroed: for buffers the caller fills at once. */
static inline void *arena_alloc_raw(struct arena *a, size_t size);
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(struct arena *a, const char *s, size_t n);

/* The slow path of arena_alloc_raw: a new chunk, or the ceiling. */
void *arena_alloc_chunk(struct arena *a, size_t size);

/* Every allocation takes place here: most of the parser's and the walk's
 * allocations are small and fit the chunk being filled, so the common
 * case is a bump of a pointer, inline. */
static inline void *arena_alloc_raw(struct arena *a, size_t size)
{
	size_t need = (size + 15) & ~(size_t)15;

	if (size - 1 < 4096 &&
	    need <= (size_t)((uintptr_t)a->limit - (uintptr_t)a->next) &&
	    a->used_total <= a->ceiling && need <= a->ceiling - a->used_total) {
		void *p = a->next;
		a->next += need;
		a->used_total += need;
		return p;
	}
	return arena_alloc_chunk(a, size);
}

static inline void *arena_alloc(struct arena *a, size_t size)
{
	void *p = arena_alloc_raw(a, size);

	if (p)
		memset(p, 0, size);
	return p;
}

#endif
