/* arena — see arena.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "alloc.h"
#include "banned.h"

#define ARENA_CHUNK 32768u

struct arena_chunk {
	struct arena_chunk *prev;
	size_t size; /* bytes of data[] */
	size_t used;
	_Alignas(16) unsigned char data[];
};

void arena_init(struct arena *a, size_t ceiling)
{
	a->head = NULL;
	a->used_total = 0;
	a->ceiling = ceiling;
	a->next = a->limit = NULL;
}

void arena_reset(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c && c->prev) {
		struct arena_chunk *prev = c->prev;
		free(c);
		c = prev;
	}
	if (c)
		c->used = 0;
	a->head = c;
	a->used_total = 0;
	a->next = c ? c->data : NULL;
	a->limit = c ? c->data + c->size : NULL;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *prev = c->prev;
		free(c);
		c = prev;
	}
	a->head = NULL;
	a->used_total = 0;
	a->next = a->limit = NULL;
}

void *arena_alloc_chunk(struct arena *a, size_t size)
{
	struct arena_chunk *c = a->head;
	size_t need;

	/* what the inline path handed out of this chunk */
	if (c)
		c->used = (size_t)(a->next - c->data);

	if (size > SIZE_MAX - 15)
		return NULL;
	need = (size + 15) & ~(size_t)15;
	if (need == 0)
		need = 16;
	if (a->used_total > a->ceiling || need > a->ceiling - a->used_total)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t sz = need > ARENA_CHUNK ? need : ARENA_CHUNK;
		struct arena_chunk *n = cordon__malloc(sizeof(*n) + sz);
		if (!n)
			return NULL;
		n->prev = c;
		n->size = sz;
		n->used = 0;
		a->head = n;
		c = n;
	}
	void *p = c->data + c->used;
	c->used += need;
	a->used_total += need;
	a->next = c->data + c->used;
	a->limit = c->data + c->size;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *d;

	if (n == SIZE_MAX)
		return NULL;
	d = arena_alloc_raw(a, n + 1);
	if (!d)
		return NULL;
	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}
