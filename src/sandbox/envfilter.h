/* envfilter — the environment the sandboxed command gets.
 *
 * First an allow-list of names (globs, case-insensitive: PATH, HOME, TERM,
 * LANG, LC_*, TMPDIR, TMP, TEMP, USER, SHELL by default; NULL turns the
 * allow-list off), then a deny-list (globs, case-insensitive: *_API_KEY,
 * *_TOKEN, *SECRET*, *PASSWORD*, AWS_*, GOOGLE_APPLICATION_CREDENTIALS by
 * default) applied even when the allow-list is widened or off. extra (from
 * the C API host) is appended unfiltered and wins over a same-named
 * variable.
 */
#ifndef CORDON_ENVFILTER_H
#define CORDON_ENVFILTER_H

#include "strlist.h"

/* A malloc'd NULL-terminated array of malloc'd "NAME=value" strings; NULL
 * when out of memory. allow NULL: no allow-list; deny NULL: the default
 * deny-list (an empty list, n == 0, turns it off). Entries without '=' or
 * with an empty name are dropped; values are never looked at. */
char **envfilter_build(char *const *environ_, const struct strlist *allow,
		  const struct strlist *deny, char *const *extra);
void envfilter_free(char **env);

/* The built-in lists above (static; never freed). */
const struct strlist *envfilter_default_allow(void);
const struct strlist *envfilter_default_deny(void);

/* Does name match glob (case-insensitive, '*' and '?')? */
int envfilter_name_matches(const char *glob, const char *name);

#endif
