/* json-out-check: filters/lib/json_out.c against libjq's own writer.
 *
 * Writes COUNT random values (seeded, so a failure can be replayed) in the
 * three layouts and compares each with jv_dump_string's bytes; prints the
 * first difference and exits 1, or prints how many values and bytes were
 * compared.  The values mix what a document holds: integers around 10^15
 * and 10^17, random doubles (any bit pattern but NaN), short decimals
 * (m / 10^j for m up to 16 digits),
 * powers of ten near the exponent switch, -0, strings of control
 * characters, quotes, DEL and multi-byte UTF-8, and nested arrays and
 * objects whose keys repeat.
 * usage: json-out-check COUNT [SEED]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

struct rng {
	uint64_t state;
};

static uint64_t next(struct rng *r)
{
	r->state ^= r->state << 13;
	r->state ^= r->state >> 7;
	r->state ^= r->state << 17;
	return r->state;
}

static unsigned below(struct rng *r, unsigned n)
{
	return (unsigned)(next(r) % n);
}

static double random_number(struct rng *r)
{
	static const double edges[] = { 0, -0.0, 1, -1, 0.1, 0.25, 1e15, 1e15 - 1, 1e16, 1e17,
					123456789012345678.0, 1e-4, 1e-5, 0.001, 1e300, 1e-300,
					5e-324, 1.7976931348623157e308, 2.0 / 3, 1.0 / 3 };
	double x;
	uint64_t bits;

	switch (below(r, 7)) {
	case 0: return edges[below(r, sizeof edges / sizeof *edges)];
	case 1: return (double)(int64_t)(next(r) >> below(r, 64));
	case 2: return (double)below(r, 100000) / (double)(1 + below(r, 1000));
	case 3: return pow(10, (int)below(r, 40) - 20) * (below(r, 2) ? 1 : -1);
	case 4: return (double)below(r, 1000) * pow(10, (int)below(r, 30));
	/* m / 10^j, the ratios and thresholds json_out finds by scaling */
	case 5: return (double)(next(r) % 10000000000000000ULL) / pow(10, (int)below(r, 18));
	default:
		do {
			bits = next(r);
			memcpy(&x, &bits, sizeof x);
		} while (isnan(x) || isinf(x));
		return x;
	}
}

static jv random_string(struct rng *r)
{
	static const char *const pieces[] = { "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r",
					      "\b", "\f", "\x01", "\x1f", "\x7f", "é", "😀",
					      "中", "key", "~", "\xc2\xa0" };
	char text[128];
	size_t n = 0, parts = below(r, 12);

	for (size_t i = 0; i < parts; i++) {
		const char *p = pieces[below(r, sizeof pieces / sizeof *pieces)];
		size_t k = strlen(p);
		memcpy(text + n, p, k);
		n += k;
	}
	if (below(r, 8) == 0) /* a NUL inside the string */
		text[n++] = '\0';
	return jv_string_sized(text, (int)n);
}

static jv random_value(struct rng *r, int depth)
{
	unsigned kind = below(r, depth > 4 ? 5 : 8);

	switch (kind) {
	case 0: return jv_null();
	case 1: return jv_bool(below(r, 2));
	case 2:
	case 3: return jv_number(random_number(r));
	case 4: return random_string(r);
	case 5:
	case 6: {
		jv obj = jv_object();
		for (unsigned i = below(r, 6); i > 0; i--)
			obj = jv_object_set(obj, random_string(r), random_value(r, depth + 1));
		return obj;
	}
	default: {
		jv arr = jv_array();
		for (unsigned i = below(r, 5); i > 0; i--)
			arr = jv_array_append(arr, random_value(r, depth + 1));
		return arr;
	}
	}
}

static int same(jv v, enum json_layout how, int flags, struct json_out *o, size_t *bytes)
{
	jv want = jv_dump_string(jv_copy(v), flags);
	size_t n = (size_t)jv_string_length_bytes(jv_copy(want));

	o->len = 0;
	json_out_value(o, v, how);
	int ok = o->len == n && !memcmp(o->text, jv_string_value(want), n);
	if (!ok)
		printf("layout %d differs:\n  jq:       %s\n  json_out: %.*s\n", (int)how,
		       jv_string_value(want), (int)o->len, o->text);
	*bytes += n;
	jv_free(want);
	return ok;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 0;
	struct rng r = { argc > 2 ? strtoull(argv[2], NULL, 10) : 88172645463325252ULL };
	struct json_out o = { 0 };
	size_t bytes = 0;
	int ok = count > 0;

	if (!ok)
		fprintf(stderr, "usage: json-out-check COUNT [SEED]\n");
	for (long i = 0; ok && i < count; i++) {
		jv v = random_value(&r, 0);
		ok = same(v, JSON_COMPACT, 0, &o, &bytes) &&
		     same(v, JSON_CANONICAL, JV_PRINT_SORTED, &o, &bytes) &&
		     same(v, JSON_INDENTED, JV_PRINT_INDENT_FLAGS(2), &o, &bytes);
		if (!ok)
			printf("value %ld of seed %s\n", i, argc > 2 ? argv[2] : "default");
		jv_free(v);
	}
	json_out_free(&o);
	if (ok)
		printf("%ld values, %zu bytes: identical in the three layouts\n", count, bytes);
	return ok ? 0 : 1;
}
