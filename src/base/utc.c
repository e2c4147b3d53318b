/* utc — see utc.h. */
#include <string.h>

#include "utc.h"
#include "banned.h"

/* Days from 1970-01-01 to 0000-03-01 (the year 0 counted as one, the
 * calendar's 400-year cycle then starting on a March 1st). */
#define EPOCH_FROM_0000_03_01 719468
#define DAYS_PER_400Y 146097

/* The limits: 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
#define UTC_MIN (-62167219200LL)
#define UTC_MAX 253402300799LL

bool utc_from_unix(int64_t sec, struct tm *tm)
{
	int64_t days, rem, z, era, doe, yoe, doy, mp, year;
	int month, mday;
	bool leap;

	if (sec < UTC_MIN || sec > UTC_MAX)
		return false;
	days = sec / 86400;
	rem = sec % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	/* Counted from a March 1st, the leap day is the last of a year, so
	 * a month's first day is (153 * m + 2) / 5 days into its year. */
	z = days + EPOCH_FROM_0000_03_01;
	era = (z >= 0 ? z : z - (DAYS_PER_400Y - 1)) / DAYS_PER_400Y;
	/* The era's day (0 .. 146096) and year (0 .. 399), the day of that
	 * year from its March 1st (0 .. 365), the month from March (0 ..
	 * 11). */
	doe = z - era * DAYS_PER_400Y;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	month = (int)(mp < 10 ? mp + 3 : mp - 9);
	year = yoe + era * 400 + (month <= 2);

	memset(tm, 0, sizeof(*tm));
	tm->tm_year = (int)(year - 1900);
	tm->tm_mon = month - 1;
	tm->tm_mday = mday;
	tm->tm_hour = (int)(rem / 3600);
	tm->tm_min = (int)(rem % 3600 / 60);
	tm->tm_sec = (int)(rem % 60);
	/* 1970-01-01 was a Thursday. */
	tm->tm_wday = (int)(((days % 7) + 11) % 7);
	/* doy counts from March 1st: January 1st is its day 306, and March
	 * 1st the year's day 59, or 60 in a leap year. */
	leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	tm->tm_yday = (int)(month <= 2 ? doy - 306 : doy + 59 + leap);
	return true;
}
