/* bench.h — what every benchmark program shares: a monotonic clock, the
 * comparisons qsort needs for medians, and a bounded count argument. */
#ifndef CORDON_BENCH_H
#define CORDON_BENCH_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* s as a whole number in [0, max]; -1 when it is not one. */
static inline long bench_count(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	return v;
}

#endif
