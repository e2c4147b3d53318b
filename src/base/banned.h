/* banned — functions cordon's code must not call, as a compile error.
 *
 * Include this header LAST in every .c file under src/ and cli/, after the
 * system headers, so the macros below replace any later call. A call then
 * expands to an undeclared identifier whose name says what went wrong:
 * "sorry_strcpy_is_a_banned_function". This works with gcc and clang under
 * _FORTIFY_SOURCE (where `#pragma GCC poison` trips over glibc's own inline
 * definitions with clang).
 *
 * Why each is banned, and what to use instead:
 *   strcpy strcat strncpy strncat   no bound or a misleading one: memcpy with
 *                                    a checked length, or snprintf
 *   sprintf vsprintf                 no bound: snprintf / vsnprintf, and check
 *                                    the result for truncation
 *   gets                             no bound at all
 *   strtok                           hidden global state: strtok_r, or scan
 *                                    (ptr, len) ranges by hand
 *   atoi atol atoll                  no error reporting: strtol / strtoul with
 *                                    errno and end-pointer checks
 *   tmpnam mktemp                    race between naming and creating: mkstemp
 *   asctime ctime gmtime localtime   static buffers: the _r variants
 *   alloca                           unbounded stack growth: malloc
 */
#ifndef CORDON_BANNED_H
#define CORDON_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)

#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)

#undef gets
#define gets(x) BANNED(gets)

#undef strtok
#define strtok(x, y) BANNED(strtok)

#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atoll
#define atoll(x) BANNED(atoll)

#undef tmpnam
#define tmpnam(x) BANNED(tmpnam)
#undef mktemp
#define mktemp(x) BANNED(mktemp)

#undef asctime
#define asctime(x) BANNED(asctime)
#undef ctime
#define ctime(x) BANNED(ctime)
#undef gmtime
#define gmtime(x) BANNED(gmtime)
#undef localtime
#define localtime(x) BANNED(localtime)

#undef alloca
#define alloca(x) BANNED(alloca)

/* In the library every allocation goes through alloc.h, so that tests can
 * fail any one of them (alloc.c itself defines CORDON_ALLOC_IMPL). */
#if defined(CORDON_COMPONENT) && !defined(CORDON_ALLOC_IMPL)
#undef malloc
#define malloc(n) BANNED(malloc_use_cordon__malloc)
#undef calloc
#define calloc(n, s) BANNED(calloc_use_cordon__calloc)
#undef realloc
#define realloc(p, n) BANNED(realloc_use_cordon__realloc)
#undef strdup
#define strdup(s) BANNED(strdup_use_cordon__strdup)
#undef strndup
#define strndup(s, n) BANNED(strndup_use_cordon__strndup)
#endif

#endif
