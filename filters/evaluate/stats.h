/* stats: the paired comparison's figures, bit for bit as CPython computes
 * them in PowerContext 1.4.1's harness (docs/DESIGN.md §11.4).
 *
 * An exactly rounded sum (math.fsum), the mean (statistics.fmean), the
 * Wilson score interval of a success rate and the seeded percentile
 * bootstrap of a mean, whose resampling is random.Random(0)'s Mersenne
 * Twister drawn as random.choices draws.  Interval bounds that 1.4.1
 * writes as floats are doubles here, equal to the last bit.
 */
#ifndef PC_EVALUATE_STATS_H
#define PC_EVALUATE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* CPython's random.Random: MT19937 with its seeding and its 53-bit floats. */
struct python_random {
	uint32_t mt[624];
	int index;
};

/* random.Random(seed) for a seed from 0 to 2^32 - 1. */
void python_random_seed(struct python_random *r, uint32_t seed);
uint32_t python_random_u32(struct python_random *r);
/* random.random(): [0, 1) with 53 random bits. */
double python_random_double(struct python_random *r);

/* math.fsum: the correctly rounded sum of n doubles. */
double stats_fsum(const double *v, size_t n);

/* statistics.fmean: fsum / n (n > 0). */
double stats_fmean(const double *v, size_t n);

struct stats_interval {
	double low, high;
};

/* The 95% Wilson score interval of successes out of trials (trials > 0). */
struct stats_interval stats_wilson(long successes, long trials);

/* The 95% percentile bootstrap interval of the mean of v (n > 0): 10,000
 * resamples of n values from random.Random(0), their means sorted, the
 * 251st and the 9,750th. */
struct stats_interval stats_bootstrap_mean(const double *v, size_t n);

#endif
