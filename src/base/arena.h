/* arena — bump allocation for one classification.
 *
 * Parse trees and scratch strings live in an arena that is reset, not freed,
 * between commands, so classifying a batch allocates almost nothing. The
 * arena has a ceiling: past it arena_alloc returns NULL like malloc does.
 */
#ifndef CORDON_ARENA_H
#define CORDON_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head; /* the chunk being filled; owns the list */
	size_t used_total;        /* bytes handed out since the last reset */
	size_t ceiling;           /* arena_alloc fails past this */
};

void arena_init(struct arena *a, size_t ceiling);
/* Frees every chunk but the first, which is kept for reuse. */
void arena_reset(struct arena *a);
/* Frees everything. Accepts an arena that was only initialised. */
void arena_release(struct arena *a);
/* Zeroed, 16-byte aligned; NULL when out of memory or past the ceiling. */
void *arena_alloc(struct arena *a, size_t size);
/* The same, not zeroed: for buffers the caller fills at once. */
void *arena_alloc_raw(struct arena *a, size_t size);
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(struct arena *a, const char *s, size_t n);

#endif
