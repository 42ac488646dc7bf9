#include "clock.h"

#include <stdio.h>
#include <sys/time.h>
#include <time.h>

void clock_utc_now(char out[CLOCK_UTC_LEN])
{
	struct timeval tv;
	struct tm tm;
	char date[32];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, CLOCK_UTC_LEN, "%.19s.%06dZ", date, (int)(tv.tv_usec % 1000000));
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long days_from_civil(long long y, int m, int d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

int clock_parse_us(const char *s, long long *us)
{
	int y, mo, d, h, mi, sec, n = 0;
	long long frac = 0;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 ||
	    n != 19 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	const char *p = s + n;
	if (*p == '.') {
		int digits = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 6)
				frac = frac * 10 + (*p - '0');
		if (digits == 0)
			return -1;
		for (; digits < 6; digits++)
			frac *= 10;
	}
	long long offset = 0;
	if ((*p == '+' || *p == '-') && p[1] && p[2] && p[3] == ':' && p[4] && p[5] && !p[6]) {
		int oh = (p[1] - '0') * 10 + (p[2] - '0'), om = (p[4] - '0') * 10 + (p[5] - '0');
		offset = (*p == '+' ? 1 : -1) * (oh * 3600LL + om * 60LL);
	} else if (!((*p == 'Z' || *p == 'z') && !p[1]))
		return -1;
	long long secs = days_from_civil(y, mo, d) * 86400 + h * 3600LL + mi * 60LL + sec - offset;
	*us = secs * 1000000 + frac;
	return 0;
}
