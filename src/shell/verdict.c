/* verdict — the result of one classification (see classify_int.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify_int.h"
#include "alloc.h"
#include "banned.h"

struct cordon_verdict *cordon_verdict_new(void)
{
	struct cordon_verdict *v = cordon__calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	arena_init(&v->strings, (size_t)64 << 20);
	return v;
}

void cordon_verdict_free(struct cordon_verdict *v)
{
	if (!v)
		return;
	free(v->text);
	free(v->reasons);
	free(v->rules);
	free(v->segs);
	free(v->hits);
	arena_release(&v->strings);
	free(v);
}

void verdict_reset(struct cordon_verdict *v)
{
	v->risk = CORDON_RISK_SAFE;
	v->labels = 0;
	v->parsed = true;
	v->nreasons = 0;
	v->nrules = 0;
	v->nsegs = 0;
	v->nhits = 0;
	v->oom = false;
	memset(&v->cmds, 0, sizeof(v->cmds));
	arena_reset(&v->strings);
}

/* Grows *arr to hold one more element of size sz. */
static bool grow(void *arr, size_t *cap, size_t n, size_t sz)
{
	void **p = arr;

	if (n < *cap)
		return true;
	size_t nc = *cap ? *cap * 2 : 8;
	if (nc > SIZE_MAX / sz)
		return false;
	void *m = cordon__realloc(*p, nc * sz);
	if (!m)
		return false;
	*p = m;
	*cap = nc;
	return true;
}

bool verdict_set_text(struct cordon_verdict *v, const char *s, size_t n)
{
	if (n + 1 > v->text_cap) {
		char *m = cordon__realloc(v->text, n + 1);
		if (!m) {
			v->oom = true;
			return false;
		}
		v->text = m;
		v->text_cap = n + 1;
	}
	if (n)
		memcpy(v->text, s, n);
	v->text[n] = '\0';
	return true;
}

/* A verdict says why in a few dozen sentences at most: past that, more
 * reasons add nothing a person reads, and checking each new one against
 * all the others would make hostile input quadratic. The tier and labels
 * are never capped. */
#define MAX_REASONS 64
#define MAX_RULES 128

void verdict_add_reason(struct cordon_verdict *v, const char *s)
{
	if (!s || v->nreasons >= MAX_REASONS)
		return;
	for (size_t i = 0; i < v->nreasons; i++)
		if (v->reasons[i] == s || strcmp(v->reasons[i], s) == 0)
			return;
	if (!grow(&v->reasons, &v->reasons_cap, v->nreasons, sizeof(char *))) {
		v->oom = true;
		return;
	}
	v->reasons[v->nreasons++] = s;
}

void verdict_add_rule(struct cordon_verdict *v, const char *id)
{
	if (!id || v->nrules >= MAX_RULES)
		return;
	for (size_t i = 0; i < v->nrules; i++)
		if (v->rules[i] == id || strcmp(v->rules[i], id) == 0)
			return;
	if (!grow(&v->rules, &v->rules_cap, v->nrules, sizeof(char *))) {
		v->oom = true;
		return;
	}
	v->rules[v->nrules++] = id;
}

void verdict_set_trace(struct cordon_verdict *v, bool on)
{
	v->trace = on;
}

void verdict_set_commands(struct cordon_verdict *v, bool on)
{
	v->no_cmds = !on;
}

void verdict_add_hit(struct cordon_verdict *v, const struct vhit *h)
{
	if (!v->trace || v->nhits >= MAX_RULES * 4)
		return;
	if (!grow(&v->hits, &v->hits_cap, v->nhits, sizeof(*v->hits))) {
		v->oom = true;
		return;
	}
	v->hits[v->nhits++] = *h;
}

void verdict_add_segment(struct cordon_verdict *v, size_t off, size_t len,
			 enum cordon_risk risk, uint64_t labels)
{
	if (!grow(&v->segs, &v->segs_cap, v->nsegs, sizeof(*v->segs))) {
		v->oom = true;
		return;
	}
	v->segs[v->nsegs++] = (struct vsegment){ off, len, risk, labels };
}

const char *verdict_printf(struct cordon_verdict *v, const char *fmt, ...)
{
	va_list ap;
	char tmp[512];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	/* Reasons are for people: a long one is cut at a character
	 * boundary rather than refused. */
	size_t len = (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1;
	while (len > 0 && len < (size_t)n &&
	       ((unsigned char)tmp[len] & 0xC0) == 0x80)
		len--;
	char *s = arena_strndup(&v->strings, tmp, len);
	if (!s)
		v->oom = true;
	return s;
}

enum cordon_risk cordon_verdict_risk(const struct cordon_verdict *v)
{
	return v->risk;
}

uint64_t cordon_verdict_labels(const struct cordon_verdict *v)
{
	return v->labels;
}

int cordon_verdict_parsed(const struct cordon_verdict *v)
{
	return v->parsed;
}

size_t cordon_verdict_reason_count(const struct cordon_verdict *v)
{
	return v->nreasons;
}

const char *cordon_verdict_reason(const struct cordon_verdict *v, size_t i)
{
	return i < v->nreasons ? v->reasons[i] : NULL;
}

size_t cordon_verdict_rule_count(const struct cordon_verdict *v)
{
	return v->nrules;
}

const char *cordon_verdict_rule(const struct cordon_verdict *v, size_t i)
{
	return i < v->nrules ? v->rules[i] : NULL;
}

size_t cordon_verdict_segment_count(const struct cordon_verdict *v)
{
	return v->nsegs;
}

const char *cordon_verdict_segment(const struct cordon_verdict *v, size_t i,
				   size_t *len, enum cordon_risk *risk,
				   uint64_t *labels)
{
	if (i >= v->nsegs)
		return NULL;
	if (len)
		*len = v->segs[i].len;
	if (risk)
		*risk = v->segs[i].risk;
	if (labels)
		*labels = v->segs[i].labels;
	return v->text + v->segs[i].off;
}
