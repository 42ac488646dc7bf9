/* stats: the paired comparison's figures as CPython computes them (stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "stats.h"

#define MT_N                624
#define MT_M                397
#define BOOTSTRAP_RESAMPLES 10000
/* (1 - 0.95) / 2 of the resamples fall below the interval */
#define BOOTSTRAP_CUT 250
/* statistics.NormalDist().inv_cdf(0.975), as CPython computes it */
#define WILSON_Z 0x1.f5c0331eeff82p+0

static void init_genrand(struct python_random *r, uint32_t s)
{
	r->mt[0] = s;
	for (int i = 1; i < MT_N; i++)
		r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
	r->index = MT_N;
}

/* CPython seeds an int by its 32-bit words, least significant first; a
 * seed below 2^32 is one word (0 included). */
void python_random_seed(struct python_random *r, uint32_t seed)
{
	uint32_t *mt = r->mt;
	int i = 1;

	init_genrand(r, 19650218u);
	for (int k = MT_N; k; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + seed;
		if (++i >= MT_N) {
			mt[0] = mt[MT_N - 1];
			i = 1;
		}
	}
	for (int k = MT_N - 1; k; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
		if (++i >= MT_N) {
			mt[0] = mt[MT_N - 1];
			i = 1;
		}
	}
	mt[0] = 0x80000000u;
	r->index = MT_N;
}

static void twist(struct python_random *r)
{
	uint32_t *mt = r->mt;

	for (int k = 0; k < MT_N; k++) {
		uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % MT_N] & 0x7fffffffu);
		mt[k] = mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
	}
	r->index = 0;
}

uint32_t python_random_u32(struct python_random *r)
{
	if (r->index >= MT_N)
		twist(r);
	uint32_t y = r->mt[r->index++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	return y ^ (y >> 18);
}

double python_random_double(struct python_random *r)
{
	uint32_t a = python_random_u32(r) >> 5, b = python_random_u32(r) >> 6;

	return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* Shewchuk's partials, then the sum rounded once, with CPython's
 * half-way correction; the values are finite. */
double stats_fsum(const double *v, size_t n)
{
	double stack[32], *p = stack, hi = 0.0, lo = 0.0;
	size_t np = 0, cap = sizeof stack / sizeof *stack;

	for (size_t k = 0; k < n; k++) {
		double x = v[k];
		size_t i = 0;
		for (size_t j = 0; j < np; j++) {
			double y = p[j];
			if (fabs(x) < fabs(y)) {
				double t = x;
				x = y;
				y = t;
			}
			hi = x + y;
			lo = y - (hi - x);
			if (lo != 0.0)
				p[i++] = lo;
			x = hi;
		}
		np = i;
		if (x != 0.0) {
			if (np == cap) {
				cap *= 2;
				double *bigger = pc_xmalloc(cap * sizeof *bigger);
				memcpy(bigger, p, np * sizeof *p);
				if (p != stack)
					free(p);
				p = bigger;
			}
			p[np++] = x;
		}
	}
	hi = 0.0;
	if (np > 0) {
		hi = p[--np];
		while (np > 0) {
			double x = hi, y = p[--np];
			hi = x + y;
			lo = y - (hi - x);
			if (lo != 0.0)
				break;
		}
		if (np > 0 && ((lo < 0.0 && p[np - 1] < 0.0) || (lo > 0.0 && p[np - 1] > 0.0))) {
			double y = lo * 2.0, x = hi + y;
			if (y == x - hi)
				hi = x;
		}
	}
	if (p != stack)
		free(p);
	return hi;
}

double stats_fmean(const double *v, size_t n)
{
	return stats_fsum(v, n) / (double)n;
}

struct stats_interval stats_wilson(long successes, long trials)
{
	double n = (double)trials, z2 = pow(WILSON_Z, 2);
	double rate = (double)successes / n;
	double denominator = 1 + z2 / n;
	double centre = (rate + z2 / (2 * n)) / denominator;
	double margin = WILSON_Z * pow((rate * (1 - rate) + z2 / (4 * n)) / n, 0.5) / denominator;

	return (struct stats_interval){ .low = fmax(0.0, centre - margin),
					.high = fmin(1.0, centre + margin) };
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stats_interval stats_bootstrap_mean(const double *v, size_t n)
{
	struct python_random r;
	double *means = pc_xmalloc(BOOTSTRAP_RESAMPLES * sizeof *means);
	double *picks = pc_xmalloc(n * sizeof *picks);

	python_random_seed(&r, 0);
	for (int s = 0; s < BOOTSTRAP_RESAMPLES; s++) {
		for (size_t k = 0; k < n; k++)
			picks[k] = v[(size_t)floor(python_random_double(&r) * (double)n)];
		means[s] = stats_fmean(picks, n);
	}
	qsort(means, BOOTSTRAP_RESAMPLES, sizeof *means, compare_doubles);
	struct stats_interval out = { .low = means[BOOTSTRAP_CUT],
				      .high = means[BOOTSTRAP_RESAMPLES - 1 - BOOTSTRAP_CUT] };
	free(picks);
	free(means);
	return out;
}
