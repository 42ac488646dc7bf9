/* hex-check: shape_strings.c's shape_check_hex64, which reads 8 bytes at a time,
 * against the rule written byte by byte (64 characters, each 0-9 or a-f).
 *
 * Checks COUNT strings (seeded): a third random hex, a third hex with one
 * byte replaced by any byte (the neighbours of the two ranges among them),
 * a third of random bytes of which half are hex; prints the first string
 * they disagree on and exits 1, or prints how many agreed.
 * usage: hex-check COUNT [SEED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape_strings.h"

static const char hex[] = "0123456789abcdef";

static int by_bytes(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return n == 64;
}

static void fill(char s[65], long t)
{
	for (int i = 0; i < 64; i++)
		s[i] = t % 3 == 2 && rand() % 2 ? (char)(rand() % 256) : hex[rand() % 16];
	if (t % 3 == 1)
		s[rand() % 64] = (char)(rand() % 256);
	s[64] = '\0';
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 0;
	char s[65], why[128];

	srand(argc > 2 ? (unsigned)atoi(argv[2]) : 1);
	for (long t = 0; t < count; t++) {
		fill(s, t);
		if ((shape_check_hex64(s, 64, why, sizeof why) == 0) != by_bytes(s)) {
			printf("differs: string %ld, by bytes %d\n", t, by_bytes(s));
			return 1;
		}
	}
	printf("%ld strings: agreed\n", count);
	return 0;
}
