/* buf — one bounded growable text buffer, after curl's dynbuf.
 *
 * A buffer gets its ceiling when it is made (buf_init(b, max)): no input
 * can grow it past max bytes. Failure is sticky: once an add hits the
 * ceiling or runs out of memory, the buffer is marked failed, later adds
 * do nothing and buf_take() gives NULL, so a builder can add many pieces
 * and check once at the end. What was added is always NUL-terminated
 * (buf_str() is "" before the first add). The buffer owns its memory until
 * buf_take() hands it over; buf_free() releases it. A buffer made with
 * buf_init_arena() takes its memory from an arena instead: nothing is
 * freed, and the text lives as long as the arena does.
 */
#ifndef CORDON_BUF_H
#define CORDON_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *p; /* NULL until the first add; NUL-terminated after len */
	size_t len; /* bytes added, without the NUL */
	size_t cap; /* bytes allocated */
	size_t max; /* the ceiling on len */
	bool failed; /* the ceiling was hit or memory ran out */
	struct arena *arena; /* NULL: the heap */
};

/* The same as buf_init(b, max), as an initialiser. */
#define BUF_INIT(max)                                                          \
	{                                                                      \
		NULL, 0, 0, (max), false, NULL                                 \
	}

/* Starts an empty buffer that may hold at most max bytes. Cannot fail. */
void buf_init(struct buf *b, size_t max);
/* The same, its memory from a (which must outlive the text): for scratch
 * strings of one classification. buf_take() then returns the arena's
 * memory, which the caller must not free. */
struct arena;
void buf_init_arena(struct buf *b, struct arena *a, size_t max);

/* Appends s[0..n) (may hold NUL bytes). Each add returns false once the
 * buffer has failed (now or before); nothing of a failed add is kept. */
bool buf_add(struct buf *b, const void *s, size_t n);
/* Appends the string s. */
bool buf_adds(struct buf *b, const char *s);
/* Appends one byte. */
bool buf_addc(struct buf *b, char c);
/* Appends printf-style text. */
bool buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Makes room for n more bytes (and the NUL) without adding them, so a
 * caller that knows the size grows the buffer once; a failure counts as
 * an add's. After it b->p is not NULL. */
bool buf_reserve(struct buf *b, size_t n);

/* For a writer that builds in place (by hand, or read() into it): room
 * for n more bytes at the end, returned (NULL when the buffer failed);
 * buf_commit(b, k) then counts the first k of them as added (false, and
 * the buffer failed, when k is more than the room). Any add in between
 * invalidates the pointer. */
char *buf_space(struct buf *b, size_t n);
bool buf_commit(struct buf *b, size_t k);

/* Marks the buffer failed for a reason of the caller's (a piece of the
 * text that could not be made), so one check at the end covers it. */
void buf_fail(struct buf *b);

/* Whether an add has failed since buf_init() or buf_reset(). */
bool buf_failed(const struct buf *b);
/* The text so far ("" when empty), valid until the next add. */
const char *buf_str(const struct buf *b);
size_t buf_len(const struct buf *b);
/* Cuts the text back to its first len bytes (a mark taken earlier with
 * buf_len); false when len is past the end. Does not clear a failure. */
bool buf_setlen(struct buf *b, size_t len);
/* Empties the buffer and clears the failure; keeps the memory. */
void buf_reset(struct buf *b);
/* Hands the text over: a malloc'd NUL-terminated string the caller frees
 * (an empty one when nothing was added), *len (may be NULL) its length.
 * NULL when the buffer failed or memory ran out. The buffer is left empty
 * (as after buf_init with the same ceiling) either way. */
char *buf_take(struct buf *b, size_t *len);
/* Frees the memory; the buffer is empty again. Accepts NULL. */
void buf_free(struct buf *b);

#endif
