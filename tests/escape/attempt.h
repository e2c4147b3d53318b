/* What the escape attempt programs (attempt.c, redteam3.c) print: one
 * line per attempt, "[step:]ENAME …" when the kernel refused, "ok …" when
 * the attempt went through. Included by each; they are built by their
 * scripts with cc, not by meson. ATTEMPT_PROG names the program in
 * number()'s usage error. */
#ifndef CORDON_ESCAPE_ATTEMPT_H
#define CORDON_ESCAPE_ATTEMPT_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints "[step:]ENAME" and more text; returns 1 (refused). */
static int refused(const char *step, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refused(const char *step, int e, const char *fmt, ...)
{
	const char *name = strerrorname_np(e);
	va_list ap;

	if (step)
		printf("%s:", step);
	printf("%s", name ? name : "E?");
	if (fmt) {
		putchar(' ');
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
	return 1;
}

/* Prints "ok ..."; returns 0 (the attempt succeeded). */
static int okay(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int okay(const char *fmt, ...)
{
	va_list ap;

	fputs("ok ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 0;
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, ATTEMPT_PROG ": not a number: %s\n", s);
		exit(2);
	}
	return v;
}

#endif
