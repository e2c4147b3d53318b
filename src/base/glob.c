/* glob — see glob.h.
 *
 * A pattern is first reduced to a core and two flags: a trailing '/' and
 * a trailing "/" + "**" are stripped (dir_tail: the core may also end at a
 * '/' of the path), and a pattern without a '/' floats (it starts as if it
 * began with "**" + "/"). The core is then matched left to right,
 * remembering only the last '*' and the last "**" + "/" to back up to.
 * Neither '*' nor anything but a literal '/' matches a '/', so once a '/'
 * has matched, an earlier '*' can no longer change where its component
 * ends and is forgotten; the segment after the last "**" is retried one
 * path component later, which finds a match whenever one exists because
 * earlier segments were placed as far left as they could go. The work is
 * at most about patlen * plen per retried component start, never
 * exponential.
 */
#include <string.h>

#include "glob.h"
#include "banned.h"

struct glob_core {
	const char *p;
	size_t n;
	bool floating; /* no '/': match the last component at any depth */
	bool dir_tail; /* ended in '/' or "/" + "**": also everything below */
};

/* Is p[i] escaped, i.e. preceded by an odd run of '\'? */
static bool escaped(const char *p, size_t i)
{
	size_t k = 0;

	while (k < i && p[i - 1 - k] == '\\')
		k++;
	return k & 1;
}

/* The length of the bracket class opening at p[i] == '[', through its
 * closing ']', or 0 when it is not closed (then '[' is a literal). */
static size_t class_len(const char *p, size_t n, size_t i)
{
	size_t j = i + 1;

	if (j < n && (p[j] == '!' || p[j] == '^'))
		j++;
	if (j < n && p[j] == ']')
		j++;
	while (j < n && p[j] != ']') {
		if (p[j] == '\\' && j + 1 < n)
			j++;
		j++;
	}
	return j < n ? j + 1 - i : 0;
}

/* One member of a class at p[*j] (before end): the byte, unescaped. */
static unsigned char class_byte(const char *p, size_t *j, size_t end)
{
	if (p[*j] == '\\' && *j + 1 < end)
		(*j)++;
	return (unsigned char)p[(*j)++];
}

/* Does the class p[i..end] (p[i] == '[', p[end] == ']') match c? A '/'
 * never matches, not even a negated class. */
static bool class_match(const char *p, size_t i, size_t end, unsigned char c)
{
	size_t j = i + 1;
	bool neg = false, hit = false;

	if (c == '/')
		return false;
	if (p[j] == '!' || p[j] == '^') {
		neg = true;
		j++;
	}
	while (j < end) {
		unsigned char lo = class_byte(p, &j, end), hi = lo;

		if (j + 1 < end && p[j] == '-') {
			j++;
			hi = class_byte(p, &j, end);
		}
		if (lo <= c && c <= hi)
			hit = true;
	}
	return hit != neg;
}

/* Can the pattern byte c mean anything but itself, alone or as part of a
 * class or an escape? */
static bool is_special(char c)
{
	return c == '*' || c == '?' || c == '[' || c == ']' || c == '\\';
}

/* The length of a path separator at p[i]: 1 for '/', 2 for an escaped
 * '/', 0 for anything else. */
static size_t slash_len(const char *p, size_t n, size_t i)
{
	if (i < n && p[i] == '/')
		return 1;
	if (i + 1 < n && p[i] == '\\' && p[i + 1] == '/')
		return 2;
	return 0;
}

/* Does p[0..n) hold a separator outside bracket classes? */
static bool has_slash(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t cl;

		if (slash_len(p, n, i))
			return true;
		if (p[i] == '\\' && i + 1 < n)
			i += 2;
		else if (p[i] == '[' && (cl = class_len(p, n, i)) != 0)
			i += cl;
		else
			i++;
	}
	return false;
}

/* Reduces a pattern to its core: trailing separators and "/" + "**" go
 * (they only widen the match to everything below), floating is decided on
 * the pattern without its trailing separators, as gitignore does. */
static void glob_prepare(const char *pat, size_t n, struct glob_core *g)
{
	bool stripped = false;

	g->p = pat;
	g->dir_tail = false;
	while (n > 0 && pat[n - 1] == '/') {
		n -= escaped(pat, n - 1) ? 2 : 1;
		g->dir_tail = true;
	}
	g->floating = n > 0 && !has_slash(pat, n);
	do {
		stripped = false;
		if (n >= 3 && pat[n - 1] == '*' && pat[n - 2] == '*' &&
		    pat[n - 3] == '/') {
			n -= 2;
			stripped = true;
		}
		while (n > 0 && pat[n - 1] == '/') {
			n -= escaped(pat, n - 1) ? 2 : 1;
			stripped = true;
		}
		if (stripped)
			g->dir_tail = true;
	} while (stripped);
	g->n = n;
}

/* Matches s[0..sn) against a prepared core, as the head of this file
 * describes. */
static bool glob_core_match(const struct glob_core *g, const char *s, size_t sn)
{
	const char *p = g->p;
	size_t n = g->n;
	size_t px = 0, sx = 0;
	bool comp = true; /* px is at the start of a pattern component */
	/* star: resume at star_px with the last '*' ending at star_sx;
	 * gs: resume at gs_px with the last "**" + "/" ending at gs_sx */
	bool star = false, gs = g->floating;
	size_t star_px = 0, star_sx = 0, gs_px = 0, gs_sx = 0;

	for (;;) {
		if (px < n) {
			unsigned char pc = (unsigned char)p[px];

			if (pc == '*') {
				size_t sl;

				if (comp && px + 1 < n && p[px + 1] == '*') {
					if (px + 2 == n)
						return true;
					sl = slash_len(p, n, px + 2);
					if (sl) {
						gs = true;
						gs_px = px + 2 + sl;
						gs_sx = sx;
						star = false;
						px = gs_px;
						continue;
					}
				}
				star = true;
				star_px = ++px;
				star_sx = sx;
				comp = false;
				continue;
			}
			if (sx < sn) {
				unsigned char c = (unsigned char)s[sx];
				size_t tl = 1, cl;
				bool hit;

				if (pc == '?') {
					hit = c != '/';
				} else if (pc == '[' &&
					   (cl = class_len(p, n, px)) != 0) {
					hit = class_match(p, px, px + cl - 1,
							  c);
					tl = cl;
				} else if (pc == '\\' && px + 1 < n) {
					hit = c == (unsigned char)p[px + 1];
					tl = 2;
				} else {
					hit = c == pc;
				}
				if (hit) {
					px += tl;
					sx++;
					comp = c == '/';
					if (comp)
						star = false;
					continue;
				}
			}
		} else if (sx == sn || (g->dir_tail && s[sx] == '/')) {
			return true;
		}
		/* A mismatch: let the last '*' take one more byte of its
		 * component, else move the last "**" one component on. */
		if (star && star_sx < sn && s[star_sx] != '/') {
			sx = ++star_sx;
			px = star_px;
			comp = false;
			continue;
		}
		if (gs) {
			/* the next component start; one that cannot match a
			 * plain literal first byte is skipped at once */
			bool lit = gs_px < n && !is_special(p[gs_px]);

			do {
				while (gs_sx < sn && s[gs_sx] != '/')
					gs_sx++;
				if (gs_sx == sn)
					return false;
				gs_sx++;
			} while (lit && (gs_sx == sn || s[gs_sx] != p[gs_px]));
			sx = gs_sx;
			px = gs_px;
			comp = true;
			star = false;
			continue;
		}
		return false;
	}
}

/* The length of the run of plain literal bytes that ends the core: bytes
 * that match only themselves and always consume one byte of the path.
 * ']' and '\\' end the run, so it never reaches into a class or an escape,
 * and so does '/', which "**" + "/" may match with nothing. */
static size_t tail_run(const struct glob_core *g)
{
	size_t k = 0;

	while (k < g->n && g->p[g->n - 1 - k] != '/' &&
	       !is_special(g->p[g->n - 1 - k]))
		k++;
	return k;
}

bool glob_match(const char *pattern, size_t patlen, const char *path,
		size_t plen)
{
	struct glob_core g;
	size_t k;

	if (patlen == 0)
		return plen == 0;
	glob_prepare(pattern, patlen, &g);
	/* The core's final literal run is in any matching path, and ends it
	 * unless dir_tail lets the match stop at a '/'. This rejects most
	 * paths ("**" + "/" + "*.pem" against "/w/main.c") before any
	 * backtracking. */
	k = tail_run(&g);
	if (k > 0 && !g.dir_tail) {
		if (plen < k || memcmp(path + plen - k, g.p + g.n - k, k) != 0)
			return false;
	} else if (k > 0 && (g.floating || (g.n >= 2 && g.p[0] == '*'))) {
		/* Only where "**" would try every component: an anchored
		 * pattern fails at its first differing byte sooner than
		 * memmem starts. */
		if (!memmem(path, plen, g.p + g.n - k, k))
			return false;
	}
	return glob_core_match(&g, path, plen);
}

bool glob_matchz(const char *pattern, const char *path)
{
	return glob_match(pattern, strlen(pattern), path, strlen(path));
}
