/* tap.h — a small Test Anything Protocol harness for cordon's unit tests.
 *
 *	tap_plan(3);            or tap_no_plan();
 *	ok(x > 0, "x is positive (%d)", x);
 *	is_int(got, 42, "the answer");
 *	is_str(name, "rm", "normalised name");
 *	return tap_done();
 *
 * Results go to stdout, line-buffered so a crash loses nothing already
 * reported; failures print "# got"/"# want" diagnostics. Everything is static
 * to the including test program.
 */
#ifndef CORDON_TAP_H
#define CORDON_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int run;
	int failed;
	int planned; /* -1: no plan, the plan is printed by tap_done() */
} tap_state;

static inline int ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void tap_plan(int n)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_state.planned = n;
	printf("1..%d\n", n);
}

static inline void tap_no_plan(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_state.planned = -1;
}

/* Prints fmt's text with every newline followed by "# ", so that text
 * holding newlines (a command's output) cannot break the TAP stream. */
__attribute__((format(printf, 1, 0))) static inline void
tap_vprint_line(const char *fmt, va_list ap)
{
	char buf[4096];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n < 0)
		return;
	for (const char *p = buf; *p; p++) {
		putchar(*p);
		if (*p == '\n' && p[1])
			fputs("# ", stdout);
	}
	if ((size_t)n >= sizeof(buf))
		fputs(" [...]", stdout);
}

__attribute__((format(printf, 2, 0))) static inline void
tap_vresult(int pass, const char *fmt, va_list ap)
{
	tap_state.run++;
	if (!pass)
		tap_state.failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_state.run);
	tap_vprint_line(fmt, ap);
	printf("\n");
}

static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(cond != 0, fmt, ap);
	va_end(ap);
	return cond != 0;
}

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	tap_vprint_line(fmt, ap);
	printf("\n");
	va_end(ap);
}

static inline int is_int(long long got, long long want, const char *name)
{
	int pass = ok(got == want, "%s", name);

	if (!pass) {
		diag("  got: %lld", got);
		diag(" want: %lld", want);
	}
	return pass;
}

static inline int is_str(const char *got, const char *want, const char *name)
{
	int pass = got && want ? strcmp(got, want) == 0 : got == want;

	ok(pass, "%s", name);
	if (!pass) {
		diag("  got: %s%s%s", got ? "\"" : "", got ? got : "NULL",
		     got ? "\"" : "");
		diag(" want: %s%s%s", want ? "\"" : "", want ? want : "NULL",
		     want ? "\"" : "");
	}
	return pass;
}

/* Reports n results as skipped, e.g. when a prerequisite is missing. */
static inline void skip(int n, const char *why)
{
	for (int i = 0; i < n; i++) {
		tap_state.run++;
		printf("ok %d # SKIP %s\n", tap_state.run, why);
	}
}

/* A fresh scratch directory /var/tmp/NAME.XXXXXX (mkdtemp) into buf;
 * 0, or -1 with a failed result. */
static inline int tap_mkdtemp(char *buf, size_t cap, const char *name)
{
	int n = snprintf(buf, cap, "/var/tmp/%s.XXXXXX", name);

	if (n > 0 && (size_t)n < cap && mkdtemp(buf))
		return 0;
	ok(0, "mkdtemp /var/tmp/%s.XXXXXX", name);
	return -1;
}

/* Removes dir and everything under it (a test's own scratch directory,
 * made with mkdtemp), saying so when it cannot. */
static inline void tap_rmtree(const char *dir)
{
	char cmd[4200];
	int n = snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);

	if (n < 0 || (size_t)n >= sizeof(cmd) || system(cmd) != 0)
		diag("could not remove %s", dir);
}

/* The exit status for main(): 0 when every result passed and the plan, if
 * one was given, was met. */
static inline int tap_done(void)
{
	if (tap_state.planned < 0)
		printf("1..%d\n", tap_state.run);
	else if (tap_state.run != tap_state.planned)
		diag("planned %d tests but ran %d", tap_state.planned,
		     tap_state.run);
	if (tap_state.failed)
		diag("failed %d of %d", tap_state.failed, tap_state.run);
	fflush(stdout);
	if (tap_state.failed)
		return 1;
	if (tap_state.planned >= 0 && tap_state.run != tap_state.planned)
		return 1;
	return 0;
}

#endif
