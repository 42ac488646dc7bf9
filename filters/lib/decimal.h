/* decimal: an integer's decimal text, written without printf, which costs
 * some thousand instructions a number where pc-evaluate writes a score, a
 * count or a literal every few hundred bytes of a line.
 */
#ifndef PC_DECIMAL_H
#define PC_DECIMAL_H

#include <stdint.h>

/* The longest text: a '-' and the 20 digits of 2^64 - 1. */
#define DECIMAL_MAX 21

/* The digits of u, after a '-' when negative, written so that they end
 * just before end; where they start (at most DECIMAL_MAX bytes back). */
static inline char *decimal_write(char *end, uint64_t u, int negative)
{
	do
		*--end = (char)('0' + u % 10);
	while (u /= 10);
	if (negative)
		*--end = '-';
	return end;
}

/* The magnitude of i, as an unsigned: -INT64_MIN fits. */
static inline uint64_t decimal_magnitude(long long i)
{
	return i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
}

#endif
