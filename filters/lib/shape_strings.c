#include "shape_strings.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int shape_check_id(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n; /* the rule reads the C string, as it always has */
	if (!(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0])))
		goto bad;
	for (const char *p = s; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      *p == '_' || *p == '-'))
			goto bad;
	return 0;
bad:
	snprintf(why, whylen, "must match ^[a-z0-9][a-z0-9_-]*$");
	return -1;
}

/* The high bit of each of the 8 bytes of x (ASCII, high bits clear) that
 * lies in [lo, hi]: adding 0x80 - lo sets it from lo up, adding 0x7f - hi
 * from past hi up, and no sum carries into the next byte. */
static uint64_t bytes_within(uint64_t x, unsigned char lo, unsigned char hi)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = ones * 0x80;

	return (x + ones * (0x80u - lo)) & ~(x + ones * (0x7fu - hi)) & highs;
}

int shape_check_hex64(const char *s, size_t len, char *why, size_t whylen)
{
	const uint64_t highs = 0x8080808080808080ULL;
	size_t n = strlen(s), i = 0;
	uint64_t x;

	(void)len; /* the C string, as it always has been */
	/* 8 bytes at a time: each a digit or a to f */
	for (; n == 64 && i < n; i += 8) {
		memcpy(&x, s + i, sizeof x);
		if ((x & highs) || (bytes_within(x, '0', '9') | bytes_within(x, 'a', 'f')) != highs)
			break;
	}
	if (n == 64 && i == n)
		return 0;
	snprintf(why, whylen, "must be 64 lowercase hex digits (a sha256)");
	return -1;
}

static int digits(const char **p, int n)
{
	for (int i = 0; i < n; i++, (*p)++)
		if (!isdigit((unsigned char)**p))
			return 0;
	return 1;
}

int shape_check_datetime(const char *p, size_t n, char *why, size_t whylen)
{
	(void)n; /* the C string, as it always has been */
	if (!digits(&p, 4) || *p++ != '-' || !digits(&p, 2) || *p++ != '-' ||
	    !digits(&p, 2) || !(*p == 'T' || *p == 't' || *p == ' ') ||
	    (p++, !digits(&p, 2)) || *p++ != ':' || !digits(&p, 2) ||
	    *p++ != ':' || !digits(&p, 2))
		goto bad;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		while (isdigit((unsigned char)*p))
			p++;
	}
	/* a missing offset is accepted on input: Harbor writes some times
	 * naive, and the reference's models accept them */
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		p++;
		if (!digits(&p, 2) || *p++ != ':' || !digits(&p, 2))
			goto bad;
	}
	if (*p == '\0')
		return 0;
bad:
	snprintf(why, whylen, "must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS[.f][Z|±HH:MM])");
	return -1;
}
