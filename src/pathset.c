/* pathset — see pathset.h. */
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "pathset.h"
#include "banned.h"

static bool has_glob(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '\\')
			return true;
	return false;
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
		    !memchr(r, '/', rn - 3) && !has_glob(r, rn - 3)) {
			p->shape = PS_COMPONENT;
			p->lit = r;
			p->litlen = rn - 3;
			return;
		}
		if (memchr(r, '/', rn))
			return;
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

enum cordon_err pathset_init(struct pathset *ps, const char *const *patterns,
			     size_t n, const char *home)
{
	ps->pat = NULL;
	ps->n = 0;
	if (n == 0)
		return CORDON_OK;
	ps->pat = calloc(n, sizeof(*ps->pat));
	if (!ps->pat)
		return CORDON_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		struct pathset_pat *p = &ps->pat[i];
		const char *src = patterns[i];
		p->pattern = strdup(src);
		if (home && src[0] == '~' && (src[1] == '/' || !src[1])) {
			size_t hl = strlen(home), sl = strlen(src);
			p->glob = malloc(hl + sl);
			if (p->glob) {
				memcpy(p->glob, home, hl);
				memcpy(p->glob + hl, src + 1, sl);
			}
		} else {
			p->glob = strdup(src);
		}
		ps->n = i + 1;
		if (!p->pattern || !p->glob) {
			pathset_free(ps);
			return CORDON_E_NOMEM;
		}
		classify_pattern(p);
	}
	return CORDON_OK;
}

void pathset_free(struct pathset *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->pat[i].pattern);
		free(ps->pat[i].glob);
	}
	free(ps->pat);
	ps->pat = NULL;
	ps->n = 0;
}

/* Does some component of path[0..len) equal lit? */
static bool has_component(const char *path, size_t len, const char *lit,
			  size_t ln)
{
	size_t i = 0;

	while (i < len) {
		while (i < len && path[i] == '/')
			i++;
		size_t s = i;
		while (i < len && path[i] != '/')
			i++;
		if (i - s == ln && memcmp(path + s, lit, ln) == 0)
			return true;
	}
	return false;
}

/* Matches a pattern holding <cwd>: the expansion is built per call. */
static bool match_cwd(const struct pathset_pat *p, const char *path,
		      size_t len, const char *cwd)
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
	return glob_match(buf, pre + cl + post, path, len);
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
			hit = bn == p->litlen && memcmp(base, p->lit, bn) == 0;
			break;
		case PS_SUFFIX:
			hit = bn >= p->litlen &&
			      memcmp(base + bn - p->litlen, p->lit,
				     p->litlen) == 0;
			break;
		case PS_PREFIX:
			hit = bn >= p->litlen &&
			      memcmp(base, p->lit, p->litlen) == 0;
			break;
		case PS_COMPONENT:
			hit = has_component(path, len, p->lit, p->litlen);
			break;
		case PS_ABS:
			hit = len == p->litlen &&
			      memcmp(path, p->lit, len) == 0;
			break;
		case PS_ABS_TREE:
			hit = len >= p->litlen &&
			      memcmp(path, p->lit, p->litlen) == 0 &&
			      (len == p->litlen || path[p->litlen] == '/' ||
			       p->litlen == 0);
			break;
		case PS_CWD:
			hit = cwd && match_cwd(p, path, len, cwd);
			break;
		case PS_GLOB:
			hit = glob_match(p->glob, strlen(p->glob), path, len);
			break;
		}
		if (hit)
			return (long)i;
	}
	return -1;
}
