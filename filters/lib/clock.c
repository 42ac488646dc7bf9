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
