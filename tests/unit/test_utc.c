/* utc: utc_from_unix gives what gmtime_r gives, for every day of the
 * years 0 to 9999 (at a second of the day that changes from day to day),
 * the days' first and last seconds around the epoch, and refuses the
 * times outside. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "utc.h"
#include "tap.h"

static bool same(const struct tm *a, const struct tm *b)
{
	return a->tm_year == b->tm_year && a->tm_mon == b->tm_mon &&
	       a->tm_mday == b->tm_mday && a->tm_hour == b->tm_hour &&
	       a->tm_min == b->tm_min && a->tm_sec == b->tm_sec &&
	       a->tm_wday == b->tm_wday && a->tm_yday == b->tm_yday;
}

/* Whether sec agrees with gmtime_r; the first disagreement is shown. */
static bool agrees(int64_t sec)
{
	static int shown;
	struct tm want, got;
	time_t t = (time_t)sec;

	if (!gmtime_r(&t, &want) || !utc_from_unix(sec, &got))
		return false;
	if (same(&want, &got))
		return true;
	if (!shown++)
		diag("%lld: want %d-%d-%d %d:%d:%d wday %d yday %d, got "
		     "%d-%d-%d %d:%d:%d wday %d yday %d",
		     (long long)sec, want.tm_year, want.tm_mon, want.tm_mday,
		     want.tm_hour, want.tm_min, want.tm_sec, want.tm_wday,
		     want.tm_yday, got.tm_year, got.tm_mon, got.tm_mday,
		     got.tm_hour, got.tm_min, got.tm_sec, got.tm_wday,
		     got.tm_yday);
	return false;
}

int main(void)
{
	const int64_t first = -62167219200LL, last = 253402300799LL;
	struct tm tm;
	long bad = 0;

	tap_no_plan();
	for (int64_t d = first / 86400; d <= last / 86400; d++)
		bad += !agrees(d * 86400 + (d * 7919 % 86400 + 86400) % 86400);
	is_int(bad, 0, "every day of the years 0 to 9999 agrees with gmtime_r");
	bad = 0;
	for (int64_t s = -3 * 86400; s <= 3 * 86400; s += 1)
		bad += !agrees(s);
	is_int(bad, 0, "every second of the week around the epoch agrees");
	ok(agrees(first) && agrees(last) && agrees(951782400) &&
		   agrees(4107542399LL),
	   "the limits, 2000-02-29, 2100-02-28T23:59:59 agree");
	ok(utc_from_unix(0, &tm) && tm.tm_year == 70 && tm.tm_mday == 1 &&
		   tm.tm_wday == 4 && tm.tm_isdst == 0,
	   "the epoch is Thursday 1970-01-01");
	memset(&tm, 0x5a, sizeof(tm));
	ok(!utc_from_unix(first - 1, &tm) && !utc_from_unix(last + 1, &tm) &&
		   tm.tm_year == 0x5a5a5a5a,
	   "before year 0 and after 9999: refused, tm untouched");
	ok(!utc_from_unix(INT64_MIN, &tm) && !utc_from_unix(INT64_MAX, &tm),
	   "and the extremes");
	return tap_done();
}
