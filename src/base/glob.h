/* glob — gitignore-style glob matching on normalised paths.
 *
 * Patterns: '*' matches any run of characters except '/'; '?' one character
 * except '/'; '[…]' a class ('!' or '^' negates, ranges a-z, a ']' first is
 * literal, a '/' never matches); '\' escapes the next character; '**' as a
 * whole path component matches zero or more components ("a/" + "**"
 * matches "a" and everything below it, "**" + "/x" matches x at any depth,
 * "a/" + "**" + "/b" matches "a/b" and "a/x/y/b"). A pattern with no '/'
 * matches the last component at any depth (gitignore: "*.pem" is "**" +
 * "/" + "*.pem").
 * A pattern ending in '/' matches the directory and everything below it.
 *
 * Matching is on bytes, case-sensitive, and pure. It is linear-ish: the
 * matcher backtracks only to the last '*' and the last '**' (no
 * exponential blow-up on patterns like "*a*a*a*a*b").
 */
#ifndef CORDON_GLOB_H
#define CORDON_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* Does path[0..plen) match pattern[0..patlen)? path is absolute and
 * normalised (or relative for tests). A malformed pattern (an unclosed
 * '[') matches its bytes literally, as gitignore does. */
bool glob_match(const char *pattern, size_t patlen, const char *path,
		size_t plen);

/* The same with NUL-terminated strings. */
bool glob_matchz(const char *pattern, const char *path);

#endif
