/* pathset — see pathset.h. */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "glob.h"
#include "pathset.h"
#include "alloc.h"
#include "banned.h"

static bool has_glob(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '\\')
			return true;
	return false;
}

/* Whether r[0..n) is components joined by single '/': no empty one, no
 * '/' at either end. */
static bool literal_path(const char *r, size_t n)
{
	if (n == 0 || r[0] == '/' || r[n - 1] == '/')
		return false;
	for (size_t i = 1; i < n; i++)
		if (r[i] == '/' && r[i - 1] == '/')
			return false;
	return true;
}

/* Works out which shape g has and where its literal part is. */
static void classify_pattern(struct pathset_pat *p)
{
	const char *g = p->glob;
	size_t n = strlen(g);

	p->shape = PS_GLOB;
	p->lit = g;
	p->litlen = n;
	if (strstr(g, "<cwd>")) {
		p->shape = PS_CWD;
		return;
	}
	/* A trailing '/' means the directory and below: glob_match knows. */
	if (n == 0 || g[n - 1] == '/')
		return;
	if (n > 3 && memcmp(g, "**/", 3) == 0) {
		const char *r = g + 3;
		size_t rn = n - 3;
		if (rn > 3 && memcmp(r + rn - 3, "/**", 3) == 0 &&
		    !has_glob(r, rn - 3) && literal_path(r, rn - 3)) {
			p->shape = PS_COMPONENT;
			p->lit = r;
			p->litlen = rn - 3;
			return;
		}
		if (memchr(r, '/', rn)) {
			if (!has_glob(r, rn) && literal_path(r, rn)) {
				p->shape = PS_TAIL;
				p->lit = r;
				p->litlen = rn;
			}
			return;
		}
		if (!has_glob(r, rn)) {
			p->shape = PS_BASENAME;
			p->lit = r;
			p->litlen = rn;
		} else if (r[0] == '*' && rn > 1 && !has_glob(r + 1, rn - 1)) {
			p->shape = PS_SUFFIX;
			p->lit = r + 1;
			p->litlen = rn - 1;
		} else if (r[rn - 1] == '*' && rn > 1 &&
			   !has_glob(r, rn - 1)) {
			p->shape = PS_PREFIX;
			p->lit = r;
			p->litlen = rn - 1;
		}
		return;
	}
	if (g[0] == '/') {
		if (n > 3 && memcmp(g + n - 3, "/**", 3) == 0 &&
		    !has_glob(g, n - 3)) {
			p->shape = PS_ABS_TREE;
			p->litlen = n - 3;
		} else if (!has_glob(g, n)) {
			p->shape = PS_ABS;
		}
	}
}

static bool expands_home(const char *src, const char *home)
{
	return home && src[0] == '~' && (src[1] == '/' || !src[1]);
}

/* The set is one allocation: the pattern array, then every pattern's text,
 * then the "~/"-expanded globs (a glob without "~/" is its pattern's
 * text). The policy builds four sets per process, one per hook call: a
 * copy per string was 130 allocations. */
enum cordon_err pathset_init(struct pathset *ps, const char *const *patterns,
			     size_t n, const char *home)
{
	size_t hl = home ? strlen(home) : 0, size;
	char *text;

	ps->pat = NULL;
	ps->n = 0;
	ps->ci = false;
	if (n == 0)
		return CORDON_OK;
	if (__builtin_mul_overflow(n, sizeof(*ps->pat), &size))
		return CORDON_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t sl = strlen(patterns[i]);

		if (__builtin_add_overflow(size, sl + 1, &size) ||
		    (expands_home(patterns[i], home) &&
		     __builtin_add_overflow(size, hl + sl, &size)))
			return CORDON_E_NOMEM;
	}
	ps->pat = cordon__calloc(1, size);
	if (!ps->pat)
		return CORDON_E_NOMEM;
	text = (char *)(ps->pat + n);
	for (size_t i = 0; i < n; i++) {
		size_t sl = strlen(patterns[i]);

		memcpy(text, patterns[i], sl + 1);
		ps->pat[i].pattern = ps->pat[i].glob = text;
		text += sl + 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct pathset_pat *p = &ps->pat[i];

		if (expands_home(p->pattern, home)) {
			size_t sl = strlen(p->pattern);

			/* "~/x" becomes HOME "/x" and its NUL: hl + sl. */
			memcpy(text, home, hl);
			memcpy(text + hl, p->pattern + 1, sl);
			p->glob = text;
			text += hl + sl;
		}
		classify_pattern(p);
	}
	ps->n = n;
	return CORDON_OK;
}

void pathset_free(struct pathset *ps)
{
	free(ps->pat);
	ps->pat = NULL;
	ps->n = 0;
}

static bool eq(const char *a, const char *b, size_t n, bool ci)
{
	return ci ? strncasecmp(a, b, n) == 0 : memcmp(a, b, n) == 0;
}

/* Does a run of whole components of path[0..len) equal lit (one
 * component, or several joined by single '/')? */
static bool has_component(const char *path, size_t len, const char *lit,
			  size_t ln, bool ci)
{
	for (size_t i = 0; i + ln <= len; i++) {
		if ((i == 0 || path[i - 1] == '/') && path[i] != '/' &&
		    (i + ln == len || path[i + ln] == '/') &&
		    eq(path + i, lit, ln, ci))
			return true;
		while (i < len && path[i] != '/')
			i++;
	}
	return false;
}

/* Do the last whole components of path[0..len) equal lit? */
static bool has_tail(const char *path, size_t len, const char *lit, size_t ln,
		     bool ci)
{
	return len >= ln && (len == ln || path[len - ln - 1] == '/') &&
	       eq(path + len - ln, lit, ln, ci);
}

/* glob_match, folding ASCII case when ci (both sides lowered into a
 * buffer; a path too long for it is matched as it is). */
static bool glob_ci(const char *g, size_t gn, const char *path, size_t len,
		    bool ci)
{
	char lg[4096], lp[4096];

	if (!ci || gn >= sizeof(lg) || len >= sizeof(lp))
		return glob_match(g, gn, path, len);
	for (size_t i = 0; i < gn; i++)
		lg[i] = (char)tolower((unsigned char)g[i]);
	for (size_t i = 0; i < len; i++)
		lp[i] = (char)tolower((unsigned char)path[i]);
	return glob_match(lg, gn, lp, len);
}

/* Matches a pattern holding <cwd>: the expansion is built per call. */
static bool match_cwd(const struct pathset_pat *p, const char *path,
		      size_t len, const char *cwd, bool ci)
{
	char buf[4096];
	const char *at = strstr(p->glob, "<cwd>");
	size_t pre = (size_t)(at - p->glob), cl = strlen(cwd);
	size_t post = strlen(at + 5);

	if (pre + cl + post + 1 > sizeof(buf))
		return false;
	memcpy(buf, p->glob, pre);
	memcpy(buf + pre, cwd, cl);
	memcpy(buf + pre + cl, at + 5, post + 1);
	return glob_ci(buf, pre + cl + post, path, len, ci);
}

long pathset_match(const struct pathset *ps, const char *path, size_t len,
		   const char *cwd)
{
	/* The last component, once. */
	size_t b = len;
	while (b > 0 && path[b - 1] != '/')
		b--;
	const char *base = path + b;
	size_t bn = len - b;

	for (size_t i = 0; i < ps->n; i++) {
		const struct pathset_pat *p = &ps->pat[i];
		bool hit = false;
		switch (p->shape) {
		case PS_BASENAME:
			hit = bn == p->litlen && eq(base, p->lit, bn, ps->ci);
			break;
		case PS_SUFFIX:
			hit = bn >= p->litlen &&
			      eq(base + bn - p->litlen, p->lit, p->litlen,
				 ps->ci);
			break;
		case PS_PREFIX:
			hit = bn >= p->litlen &&
			      eq(base, p->lit, p->litlen, ps->ci);
			break;
		case PS_COMPONENT:
			hit = has_component(path, len, p->lit, p->litlen,
					    ps->ci);
			break;
		case PS_TAIL:
			hit = has_tail(path, len, p->lit, p->litlen, ps->ci);
			break;
		case PS_ABS:
			hit = len == p->litlen &&
			      eq(path, p->lit, len, ps->ci);
			break;
		case PS_ABS_TREE:
			hit = len >= p->litlen &&
			      eq(path, p->lit, p->litlen, ps->ci) &&
			      (len == p->litlen || path[p->litlen] == '/' ||
			       p->litlen == 0);
			break;
		case PS_CWD:
			hit = cwd && match_cwd(p, path, len, cwd, ps->ci);
			break;
		case PS_GLOB:
			hit = glob_ci(p->glob, strlen(p->glob), path, len,
				      ps->ci);
			break;
		}
		if (hit)
			return (long)i;
	}
	return -1;
}
