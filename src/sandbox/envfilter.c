/* envfilter — the environment the sandboxed command gets (envfilter.h).
 *
 * Names are compared case-insensitively in ASCII (never through the
 * locale), values are copied untouched, and an entry without '=' or with
 * an empty name is dropped as malformed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "envfilter.h"

#include "alloc.h"
#include "banned.h"

static char *default_allow_v[] = {
	"PATH",	  "HOME", "TERM", "LANG", "LC_*",
	"TMPDIR", "TMP",  "TEMP", "USER", "SHELL",
};

static char *default_deny_v[] = {
	"*_API_KEY",  "*_TOKEN", "*SECRET*",
	"*PASSWORD*", "AWS_*",	 "GOOGLE_APPLICATION_CREDENTIALS",
};

static const struct strlist default_allow = {
	default_allow_v, sizeof(default_allow_v) / sizeof(default_allow_v[0])
};

static const struct strlist default_deny = {
	default_deny_v, sizeof(default_deny_v) / sizeof(default_deny_v[0])
};

const struct strlist *envfilter_default_allow(void)
{
	return &default_allow;
}

const struct strlist *envfilter_default_deny(void)
{
	return &default_deny;
}

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* glob[0..gl) against name[0..nl): '*' any run, '?' one byte, everything
 * else itself, case folded. Backtracks only to the last '*', so the time
 * is O(gl * nl) at worst. */
static bool match_n(const char *glob, size_t gl, const char *name, size_t nl)
{
	size_t g = 0, n = 0, star_g = SIZE_MAX, star_n = 0;

	while (n < nl) {
		if (g < gl && glob[g] == '*') {
			star_g = g++;
			star_n = n;
		} else if (g < gl && (glob[g] == '?' ||
				      fold((unsigned char)glob[g]) ==
					      fold((unsigned char)name[n]))) {
			g++;
			n++;
		} else if (star_g != SIZE_MAX) {
			g = star_g + 1;
			n = ++star_n;
		} else {
			return false;
		}
	}
	while (g < gl && glob[g] == '*')
		g++;
	return g == gl;
}

int envfilter_name_matches(const char *glob, const char *name)
{
	return match_n(glob, strlen(glob), name, strlen(name));
}

static bool list_matches(const struct strlist *l, const char *name,
			 size_t nl)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] && match_n(l->v[i], strlen(l->v[i]), name, nl))
			return true;
	return false;
}

/* The length of the name of "NAME=value", or 0 when malformed. */
static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) : 0;
}

/* Does extra hold a well-formed entry with this exact name? (Names are
 * case-sensitive in the environment itself.) */
static bool extra_has(char *const *extra, const char *name, size_t nl)
{
	if (!extra)
		return false;
	for (size_t i = 0; extra[i]; i++)
		if (name_len(extra[i]) == nl && memcmp(extra[i], name, nl) == 0)
			return true;
	return false;
}

static size_t count(char *const *v)
{
	size_t n = 0;

	if (v)
		while (v[n])
			n++;
	return n;
}

char **envfilter_build(char *const *environ_, const struct strlist *allow,
		  const struct strlist *deny, char *const *extra)
{
	size_t ne = count(environ_), nx = count(extra), cap, out = 0;
	char **env;

	if (ne > SIZE_MAX / sizeof(char *) - nx - 1)
		return NULL;
	if (!deny)
		deny = &default_deny;
	cap = ne + nx + 1;
	env = cordon__calloc(cap, sizeof(char *));
	if (!env)
		return NULL;

	for (size_t i = 0; i < ne; i++) {
		const char *e = environ_[i];
		size_t nl = name_len(e);

		if (nl == 0)
			continue;
		if (allow && !list_matches(allow, e, nl))
			continue;
		if (list_matches(deny, e, nl))
			continue;
		if (extra_has(extra, e, nl))
			continue;
		env[out] = cordon__strdup(e);
		if (!env[out])
			goto oom;
		out++;
	}
	for (size_t i = 0; i < nx; i++) {
		if (name_len(extra[i]) == 0)
			continue;
		env[out] = cordon__strdup(extra[i]);
		if (!env[out])
			goto oom;
		out++;
	}
	env[out] = NULL;
	return env;
oom:
	envfilter_free(env);
	return NULL;
}

void envfilter_free(char **env)
{
	if (!env)
		return;
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	free(env);
}
