/* alloc — the one way the library allocates memory.
 *
 * Every allocation in src/ goes through these (banned.h turns a plain
 * malloc, calloc, realloc, strdup or strndup in a component into a compile
 * error), so a test can make the Nth allocation fail and check that every
 * caller fails closed, as curl's and libuv's out-of-memory tests do. Memory
 * from them is released with free(). In normal use they are the C
 * library's functions and cost one relaxed atomic load more.
 */
#ifndef CORDON_ALLOC_H
#define CORDON_ALLOC_H

#include <stddef.h>

void *cordon__malloc(size_t n);
void *cordon__calloc(size_t count, size_t size);
void *cordon__realloc(void *p, size_t n);
char *cordon__strdup(const char *s);
char *cordon__strndup(const char *s, size_t n);

/* For tests: after n more successful allocations, every allocation fails
 * (returns NULL, errno ENOMEM) until the next call; n < 0 turns failure
 * off. Counts and fails across all threads. */
void cordon__alloc_fail_after(long n);
/* For tests: only the allocation after n more successful ones fails (a
 * large request refused while small ones still succeed); n < 0 turns
 * failure off. */
void cordon__alloc_fail_once(long n);
/* For tests: how many allocations were attempted since the last
 * cordon__alloc_fail_after() or cordon__alloc_fail_once() (or since
 * start). */
long cordon__alloc_count(void);

#endif
