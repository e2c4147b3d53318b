/* utc — a Unix time as a UTC calendar date and time, by arithmetic alone.
 *
 * gmtime_r() takes glibc's time-zone lock and, the first time in a
 * process, reads the TZ variable and /etc/localtime (an open, a read and
 * a parse), although UTC needs neither: in a hook call, one process per
 * call that writes one audit record, that was 8,600 instructions and seven
 * system calls. This is the proleptic Gregorian calendar, no leap seconds,
 * as gmtime_r() gives.
 */
#ifndef CORDON_UTC_H
#define CORDON_UTC_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Fills *tm (tm_year .. tm_sec, tm_wday, tm_yday; tm_isdst 0) for sec
 * seconds since 1970-01-01T00:00:00Z. false, *tm untouched, when the year
 * is outside 0 to 9999 (what the callers can print in four digits). */
bool utc_from_unix(int64_t sec, struct tm *tm);

#endif
