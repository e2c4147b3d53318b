/* buf — the bounded growable text buffer (see buf.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "arena.h"
#include "buf.h"

#include "banned.h"

/* The first allocation: most buffers hold one short message or record. */
#define BUF_FIRST 64

void buf_init(struct buf *b, size_t max)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->failed = false;
	b->arena = NULL;
}

void buf_init_arena(struct buf *b, struct arena *a, size_t max)
{
	buf_init(b, max);
	b->arena = a;
}

/* cap bytes holding what b holds: realloc, or a fresh arena block. */
static char *buf_grow(struct buf *b, size_t cap)
{
	char *p;

	if (!b->arena)
		return cordon__realloc(b->p, cap);
	p = arena_alloc_raw(b->arena, cap);
	if (p && b->p)
		memcpy(p, b->p, b->len + 1);
	return p;
}

/* Makes room for n more bytes and the NUL; marks the buffer failed when
 * that would pass the ceiling or memory runs out. */
static bool buf_room(struct buf *b, size_t n)
{
	size_t need, cap;
	char *p;

	if (b->failed)
		return false;
	if (n > b->max - b->len || b->len + n == SIZE_MAX) {
		b->failed = true;
		return false;
	}
	need = b->len + n + 1;
	if (need <= b->cap)
		return true;
	cap = b->cap ? b->cap : BUF_FIRST;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	/* Never allocate much past what the ceiling allows. */
	if (b->max < SIZE_MAX && cap > b->max + 1)
		cap = b->max + 1;
	p = buf_grow(b, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

bool buf_reserve(struct buf *b, size_t n)
{
	if (!buf_room(b, n))
		return false;
	b->p[b->len] = '\0';
	return true;
}

char *buf_space(struct buf *b, size_t n)
{
	return buf_reserve(b, n) ? b->p + b->len : NULL;
}

bool buf_commit(struct buf *b, size_t k)
{
	if (b->failed || !b->p || k > b->cap - 1 - b->len) {
		b->failed = true;
		return false;
	}
	b->len += k;
	b->p[b->len] = '\0';
	return true;
}

bool buf_add(struct buf *b, const void *s, size_t n)
{
	if (!buf_room(b, n))
		return false;
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return true;
}

bool buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

bool buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

bool buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	if (b->failed)
		return false;
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !buf_room(b, (size_t)n)) {
		b->failed = true;
		return false;
	}
	(void)vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return true;
}

bool buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return ok;
}

void buf_fail(struct buf *b)
{
	b->failed = true;
}

bool buf_failed(const struct buf *b)
{
	return b->failed;
}

const char *buf_str(const struct buf *b)
{
	return b->p ? b->p : "";
}

size_t buf_len(const struct buf *b)
{
	return b->len;
}

bool buf_setlen(struct buf *b, size_t len)
{
	if (len > b->len)
		return false;
	b->len = len;
	if (b->p)
		b->p[len] = '\0';
	return true;
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	b->failed = false;
	if (b->p)
		b->p[0] = '\0';
}

char *buf_take(struct buf *b, size_t *len)
{
	char *p = NULL;

	if (!b->failed) {
		if (b->p)
			p = b->p;
		else
			p = b->arena ? arena_alloc(b->arena, 1) :
				       cordon__calloc(1, 1);
		if (p && len)
			*len = b->len;
		if (p == b->p)
			b->p = NULL;
	}
	buf_free(b);
	return p;
}

void buf_free(struct buf *b)
{
	struct arena *a;

	if (!b)
		return;
	a = b->arena;
	if (!a)
		free(b->p);
	buf_init(b, b->max);
	b->arena = a;
}
