/* Fuzz target: the input is a pattern and a path separated by the first NUL
 * or newline. glob_match must not crash or hang, and on small inputs it
 * must agree with a plain dynamic-programming matcher written separately
 * here (tokens, then a table over pattern token x path byte), which cannot
 * go wrong by backtracking too little. The raw input, and the path part
 * under the pattern part as cwd and home, also go through
 * path_normalize_call, whose result must look absolute, hold no '\', no
 * "." or ".." components, and normalise to itself. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "fuzz.h"
#include "glob.h"
#include "path.h"

#include "banned.h"

/* ---- the reference matcher -------------------------------------------- */

enum rtok_kind { R_LIT, R_SEP, R_ANY, R_STAR, R_GLOBSTAR, R_CLASS };

struct rtok {
	enum rtok_kind kind;
	unsigned char c;
	bool neg;
	size_t nr;            /* ranges of a class */
	unsigned char lo[64]; /* a class has at most 64 ranges here */
	unsigned char hi[64];
};

#define REF_MAX_TOKENS 96
#define REF_MAX_PATH 200

struct ref {
	struct rtok t[REF_MAX_TOKENS];
	size_t n;
	bool floating, dir_tail;
};

/* Parses a class at p[i] == '['; returns its length or 0 if unclosed or
 * too big for the reference (then the caller skips the comparison). */
static size_t ref_class(const char *p, size_t n, size_t i, struct rtok *t,
			bool *too_big)
{
	size_t j = i + 1;
	bool first = true;

	t->kind = R_CLASS;
	t->neg = false;
	t->nr = 0;
	if (j < n && (p[j] == '!' || p[j] == '^')) {
		t->neg = true;
		j++;
	}
	for (;;) {
		unsigned char lo, hi;

		if (j >= n)
			return 0;
		if (p[j] == ']' && !first)
			return j + 1 - i;
		first = false;
		if (p[j] == '\\' && j + 1 < n)
			j++;
		lo = hi = (unsigned char)p[j++];
		if (j + 1 < n && p[j] == '-' && p[j + 1] != ']') {
			j++;
			if (p[j] == '\\' && j + 1 < n)
				j++;
			hi = (unsigned char)p[j++];
		}
		if (t->nr == 64) {
			*too_big = true;
			return 0;
		}
		t->lo[t->nr] = lo;
		t->hi[t->nr] = hi;
		t->nr++;
	}
}

/* Tokenises and reduces a pattern as glob.h describes; false when the
 * pattern is too big for the reference. */
static bool ref_compile(const char *p, size_t n, struct ref *r)
{
	size_t i = 0, k;
	bool any_sep = false, too_big = false;

	r->n = 0;
	while (i < n) {
		struct rtok *t;
		size_t cl;

		if (r->n == REF_MAX_TOKENS)
			return false;
		t = &r->t[r->n];
		if (p[i] == '[' && (cl = ref_class(p, n, i, t, &too_big))) {
			i += cl;
		} else if (too_big) {
			return false;
		} else if (p[i] == '\\' && i + 1 < n) {
			t->kind = p[i + 1] == '/' ? R_SEP : R_LIT;
			t->c = (unsigned char)p[i + 1];
			i += 2;
		} else {
			t->c = (unsigned char)p[i];
			t->kind = p[i] == '/'   ? R_SEP
				  : p[i] == '?' ? R_ANY
				  : p[i] == '*' ? R_STAR
						: R_LIT;
			i++;
		}
		r->n++;
	}
	/* "**" as a whole component */
	for (k = 0; k + 1 < r->n; k++)
		if (r->t[k].kind == R_STAR && r->t[k + 1].kind == R_STAR &&
		    (k == 0 || r->t[k - 1].kind == R_SEP) &&
		    (k + 2 == r->n || r->t[k + 2].kind == R_SEP)) {
			memmove(&r->t[k + 1], &r->t[k + 2],
				(r->n - k - 2) * sizeof(r->t[0]));
			r->n--;
			r->t[k].kind = R_GLOBSTAR;
		}
	r->dir_tail = false;
	while (r->n > 0 && r->t[r->n - 1].kind == R_SEP) {
		r->n--;
		r->dir_tail = true;
	}
	for (k = 0; k < r->n; k++)
		if (r->t[k].kind == R_SEP)
			any_sep = true;
	r->floating = r->n > 0 && !any_sep;
	while (r->n >= 2 && r->t[r->n - 1].kind == R_GLOBSTAR &&
	       r->t[r->n - 2].kind == R_SEP) {
		r->n -= 2;
		r->dir_tail = true;
		while (r->n > 0 && r->t[r->n - 1].kind == R_SEP)
			r->n--;
	}
	return true;
}

static bool ref_one(const struct rtok *t, unsigned char c)
{
	switch (t->kind) {
	case R_LIT:
		return c == t->c;
	case R_SEP:
		return c == '/';
	case R_ANY:
		return c != '/';
	case R_CLASS: {
		bool hit = false;

		if (c == '/')
			return false;
		for (size_t i = 0; i < t->nr; i++)
			if (t->lo[i] <= c && c <= t->hi[i])
				hit = true;
		return hit != t->neg;
	}
	case R_STAR:
	case R_GLOBSTAR:
		break;
	}
	return false;
}

/* m[ti][sx]: does tokens ti.. match s[sx..]? Filled from the end. */
static bool ref_match(const struct ref *r, const char *s, size_t sn)
{
	static bool m[REF_MAX_TOKENS + 1][REF_MAX_PATH + 1];
	size_t ti = r->n + 1, sx;

	while (ti-- > 0) {
		bool rest = false; /* some '/' at j >= sx with m[ti+2][j+1] */

		sx = sn + 1;
		while (sx-- > 0) {
			bool v;

			if (ti == r->n) {
				v = sx == sn || (r->dir_tail && s[sx] == '/');
			} else if (r->t[ti].kind == R_GLOBSTAR) {
				if (ti + 1 == r->n) {
					v = true;
				} else {
					if (sx < sn && s[sx] == '/' &&
					    m[ti + 2][sx + 1])
						rest = true;
					v = m[ti + 2][sx] || rest;
				}
			} else if (r->t[ti].kind == R_STAR) {
				v = m[ti + 1][sx] ||
				    (sx < sn && s[sx] != '/' && m[ti][sx + 1]);
			} else {
				v = sx < sn &&
				    ref_one(&r->t[ti], (unsigned char)s[sx]) &&
				    m[ti + 1][sx + 1];
			}
			m[ti][sx] = v;
		}
	}
	if (!r->floating)
		return m[0][0];
	for (sx = 0; sx <= sn; sx++)
		if ((sx == 0 || s[sx - 1] == '/') && m[0][sx])
			return true;
	return false;
}

/* ---- path_normalize_call invariants ------------------------------------ */

static void check_normal(struct arena *a, const char *out)
{
	size_t n, i, st;
	char *again;

	if (!out)
		abort();
	n = strlen(out);
	if (memchr(out, '\\', n))
		abort();
	if (out[0] == '/') {
		i = 0;
		/* a UNC server name is kept as written */
		if (n >= 3 && out[1] == '/') {
			i = 2;
			while (i < n && out[i] != '/')
				i++;
		}
	} else if (n >= 3 && out[0] >= 'a' && out[0] <= 'z' && out[1] == ':' &&
		   out[2] == '/') {
		i = 2;
	} else {
		abort();
	}
	/* each component after the root: non-empty, not "." or ".." */
	while (i < n) {
		if (out[i] != '/')
			abort();
		st = ++i;
		while (i < n && out[i] != '/')
			i++;
		if (i == st && !(n == st && (st == 1 || st == 3)))
			abort();
		if ((i - st == 1 && out[st] == '.') ||
		    (i - st == 2 && out[st] == '.' && out[st + 1] == '.'))
			abort();
	}
	again = path_normalize_call(a, "/elsewhere", NULL, out, n);
	if (!again || strcmp(again, out) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ref ref;
	const char *in = (const char *)data;
	const char *cut = memchr(in, '\n', size);
	const char *nul = memchr(in, '\0', size);
	size_t pn, rest;
	struct arena a;
	char *cwd, *home;

	if (nul && (!cut || nul < cut))
		cut = nul;
	pn = cut ? (size_t)(cut - in) : size;
	rest = cut ? size - pn - 1 : 0;

	{
		bool got = glob_match(in, pn, cut ? cut + 1 : in, rest);

		if (pn <= 256 && rest <= REF_MAX_PATH &&
		    ref_compile(in, pn, &ref) &&
		    got != (pn == 0 ? rest == 0
				    : ref_match(&ref, cut ? cut + 1 : in,
						rest)))
			abort();
	}

	arena_init(&a, 1 << 22);
	check_normal(&a, path_normalize_call(&a, "/w/proj", "/home/u", in,
					     size));
	cwd = arena_strndup(&a, in, pn);
	home = arena_strndup(&a, cut ? cut + 1 : in, rest);
	if (!cwd || !home)
		abort();
	check_normal(&a, path_normalize_call(&a, cwd, home, home,
					     strlen(home)));
	check_normal(&a, path_normalize_call(&a, cwd, NULL, "~", 1));
	arena_release(&a);
	return 0;
}
