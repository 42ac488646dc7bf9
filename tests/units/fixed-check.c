/* fixed-check: sbuf_add_fixed and sbuf_add_int (filters/lib/text.c)
 * against printf's "%.<d>f" and "%lld" on COUNT random values (seeded):
 * ratios of small counts, thresholds, halves and near-halves at every
 * scale, negatives, -0, huge values and NaN.  Prints the first difference
 * and exits 1, or how many were compared.
 * usage: fixed-check COUNT [SEED] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double value(uint64_t *s)
{
	double x;
	uint64_t bits;

	switch (next(s) % 6) {
	case 0: return (double)(next(s) % 1000) / (double)(1 + next(s) % 1000);
	case 1: return ((double)(next(s) % 100000) + 0.5) / 1000.0;
	case 2:
		x = (double)(next(s) % 10000) / 1000.0 + 0.0005;
		return nextafter(x, next(s) % 2 ? 0 : 1e9);
	case 3: return -(double)(next(s) % 1000) / 7.0;
	case 4: return (double[]){ 0.0, -0.0, 1e12, 1e300, NAN, -1e-9, 0.0005, 2.5 }[next(s) % 8];
	default:
		bits = next(s);
		memcpy(&x, &bits, sizeof x);
		return x;
	}
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 0;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 88172645463325252ULL;
	char want[512];

	if (count <= 0) {
		fprintf(stderr, "usage: fixed-check COUNT [SEED]\n");
		return 1;
	}
	for (long i = 0; i < count; i++) {
		double x = value(&seed);
		int decimals = (int)(next(&seed) % 7);
		long long n = (long long)next(&seed) >> (next(&seed) % 64);
		struct sbuf b = { 0 };
		sbuf_add_fixed(&b, x, decimals);
		snprintf(want, sizeof want, "%.*f", decimals, x);
		int ok = !strcmp(b.s, want);
		if (ok) {
			free(sbuf_take(&b));
			sbuf_add_int(&b, n);
			snprintf(want, sizeof want, "%lld", n);
			ok = !strcmp(b.s, want);
		}
		if (!ok) {
			printf("value %ld differs: printf %s, text.c %s\n", i, want, b.s);
			return 1;
		}
		free(sbuf_take(&b));
	}
	printf("%ld values: identical\n", count);
	return 0;
}
