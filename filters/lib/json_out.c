#include "json_out.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "err.h"

void json_out_free(struct json_out *o)
{
	free(o->text);
	*o = (struct json_out){ 0 };
}

void json_out_grow(struct json_out *o, size_t n)
{
	o->cap = o->cap * 2 + n + 256;
	o->text = pc_xrealloc(o->text, o->cap);
}

static void put(struct json_out *o, char c)
{
	json_out_reserve(o, 1);
	o->text[o->len++] = c;
}

/* 0 for a byte written as it is, else the letter of its short escape, or
 * 'u' for \u00XX: the control characters, DEL, quote and backslash. */
/* clang-format off */
static const char escape_of[256] = {
	['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
	[0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u',
	[0x05] = 'u', [0x06] = 'u', [0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u',
	[0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u', [0x13] = 'u',
	[0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u', [0x18] = 'u',
	[0x19] = 'u', [0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u', [0x1d] = 'u',
	[0x1e] = 'u', [0x1f] = 'u', [0x7f] = 'u', ['"'] = '"', ['\\'] = '\\',
};
/* clang-format on */

/* Whether none of the 8 bytes at p needs an escape: no byte under 0x20,
 * no quote, backslash or DEL (the "has a zero byte" test on x, x ^ '"',
 * x ^ '\\' and x ^ DEL, and "has a byte under 0x20"; a byte of 0x80 or
 * more is plain, and its high bit masks it out). */
static int plain8(const char *p)
{
	static const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t x;

	memcpy(&x, p, sizeof x);
	uint64_t quote = x ^ (ones * '"'), backslash = x ^ (ones * '\\'), del = x ^ (ones * 0x7f);
	uint64_t found = ((x - ones * 0x20) | (quote - ones) | (backslash - ones) | (del - ones)) &
			 ~x & highs;
	return found == 0;
}

void json_out_string(struct json_out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	/* at most 6 bytes per input byte, so one reservation covers the text */
	json_out_reserve(o, n * 6 + 2);
	o->text[o->len++] = '"';
	for (size_t i = 0; i < n; i++) {
		while (i + 8 <= n && plain8(s + i))
			i += 8;
		if (i >= n)
			break;
		char esc = escape_of[(unsigned char)s[i]];
		if (!esc)
			continue;
		memcpy(o->text + o->len, s + run, i - run);
		o->len += i - run;
		run = i + 1;
		o->text[o->len++] = '\\';
		if (esc != 'u') {
			o->text[o->len++] = esc;
			continue;
		}
		memcpy(o->text + o->len, "u00", 3);
		o->text[o->len + 3] = hex[(unsigned char)s[i] >> 4];
		o->text[o->len + 4] = hex[(unsigned char)s[i] & 15];
		o->len += 5;
	}
	memcpy(o->text + o->len, s + run, n - run);
	o->len += n - run;
	o->text[o->len++] = '"';
}

void json_out_cstring(struct json_out *o, const char *s)
{
	if (s)
		json_out_string(o, s, strlen(s));
	else
		json_out_bytes(o, "null", 4);
}

void json_out_member(struct json_out *o, const char *key, size_t n, int *members)
{
	/* the comma, the string (at most 6 bytes a byte and its quotes), the colon */
	json_out_reserve(o, n * 6 + 4);
	if ((*members)++)
		o->text[o->len++] = ',';
	json_out_string(o, key, n);
	o->text[o->len++] = ':';
}

/* x's digits and point as shortest_digits gives them, when x is m / 10^j
 * for an m of at most 15 digits and j <= 15 (a ratio, a threshold): two
 * decimals of at most 15 significant digits are never within a double's
 * rounding of each other, so the one that reads back as x is the shortest
 * one, and it is found by scaling x instead of printing it.  m / 10^j is
 * rounded once, as a decimal is read, because both are exact doubles.
 * 0 for any other x (positive, finite). */
static int short_decimal(double x, char digits[24], int *decpt)
{
	double scale = 1;

	for (int j = 1; j <= 15; j++) {
		scale *= 10;
		double m = nearbyint(x * scale);
		if (m >= 1e15)
			return 0;
		if (m > 0 && m / scale == x) {
			char text[DECIMAL_MAX], *end = text + sizeof text;
			const char *t = decimal_write(end, (uint64_t)m, 0);
			int n = (int)(end - t);
			*decpt = n - j;
			while (n > 1 && t[n - 1] == '0')
				n--;
			memcpy(digits, t, (size_t)n);
			digits[n] = '\0';
			return 1;
		}
	}
	return 0;
}

/* The shortest significant digits of x (finite, positive) that read back
 * as x, as dtoa's mode 0 gives them, into digits (NUL-ended) and the
 * position of the decimal point (x = 0.DIGITS * 10^decpt).  The nearest
 * decimal of 15 digits is the shortest one when it reads back (a normal
 * double holds more than 15 digits, so no shorter one can be nearer), else
 * the nearest of 16, else of 17, which always reads back.  A subnormal one
 * holds fewer digits: its search starts at one. */
static void shortest_digits(double x, char digits[24], int *decpt)
{
	char text[40];
	int exponent;

	if (short_decimal(x, digits, decpt))
		return;

	for (int precision = x < DBL_MIN ? 1 : 15;; precision++) {
		snprintf(text, sizeof text, "%.*e", precision - 1, x);
		if (precision == 17 || strtod(text, NULL) == x)
			break;
	}
	/* text is D.DDDDe[+-]XX */
	char *e = strchr(text, 'e');
	size_t n = 0;
	for (const char *p = text; p < e; p++)
		if (*p != '.')
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	exponent = atoi(e + 1);
	*decpt = exponent + 1;
}

/* An integer under 10^15 is its digits in jq's format too. */
static int put_integer(struct json_out *o, double x)
{
	char digits[DECIMAL_MAX], *end = digits + sizeof digits;

	if (!(x > -1e15 && x < 1e15 && x == (double)(long long)x && !(x == 0 && signbit(x))))
		return 0;
	long long i = (long long)x;
	const char *d = decimal_write(end, decimal_magnitude(i), i < 0);
	json_out_bytes(o, d, (size_t)(end - d));
	return 1;
}

/* jq's jvp_dtoa_fmt: plain digits while the point is within 15 places of
 * them, else one digit, the rest after a point and e[+-]XX. */
void json_out_number(struct json_out *o, double x)
{
	char digits[24], text[48], *t = text;
	int decpt;

	if (isnan(x)) {
		json_out_bytes(o, "null", 4);
		return;
	}
	if (put_integer(o, x))
		return;
	if (signbit(x))
		*t++ = '-';
	x = fabs(x) > DBL_MAX ? DBL_MAX : fabs(x);
	if (x == 0) {
		*t++ = '0';
		json_out_bytes(o, text, (size_t)(t - text));
		return;
	}
	shortest_digits(x, digits, &decpt);
	int n = (int)strlen(digits);
	if (decpt <= -4 || decpt > n + 15) {
		*t++ = digits[0];
		if (n > 1)
			t += sprintf(t, ".%s", digits + 1);
		t += sprintf(t, "e%c%02d", decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
	} else if (decpt <= 0) {
		t += sprintf(t, "0.%.*s%s", -decpt, "000", digits);
	} else {
		for (int i = 0; i < n || i < decpt; i++) {
			if (i == decpt)
				*t++ = '.';
			*t++ = i < n ? digits[i] : '0';
		}
	}
	json_out_bytes(o, text, (size_t)(t - text));
}

static void indent(struct json_out *o, int depth)
{
	json_out_reserve(o, (size_t)depth * 2 + 1);
	o->text[o->len++] = '\n';
	memset(o->text + o->len, ' ', (size_t)depth * 2);
	o->len += (size_t)depth * 2;
}

static void put_jv_string(struct json_out *o, jv s /* borrowed */)
{
	json_out_string(o, jv_string_value(s), (size_t)jv_string_length_bytes(jv_copy(s)));
}

static void put_value(struct json_out *o, jv v, enum json_layout how, int depth);

/* jq's order for a sorted dump: the bytes, then the length. */
static int key_order(const void *a, const void *b)
{
	const jv *x = a, *y = b;
	int nx = jv_string_length_bytes(jv_copy(*x)), ny = jv_string_length_bytes(jv_copy(*y));
	int r = memcmp(jv_string_value(*x), jv_string_value(*y), (size_t)(nx < ny ? nx : ny));

	return r ? r : nx - ny;
}

/* One "key":value of an object (both borrowed). */
static void put_member(struct json_out *o, jv key, jv val, int first, enum json_layout how,
		       int depth)
{
	if (!first)
		put(o, ',');
	if (how == JSON_INDENTED)
		indent(o, depth + 1);
	put_jv_string(o, key);
	put(o, ':');
	if (how == JSON_INDENTED)
		put(o, ' ');
	put_value(o, val, how, depth + 1);
}

static void put_object(struct json_out *o, jv v, enum json_layout how, int depth)
{
	int n = 0;

	/* jv_object_length walks every slot: the first one tells emptiness */
	if (!jv_object_iter_valid(v, jv_object_iter(v))) {
		json_out_bytes(o, "{}", 2);
		return;
	}
	put(o, '{');
	if (how == JSON_CANONICAL) {
		size_t cap = 16;
		jv *keys = pc_xmalloc(cap * sizeof *keys);
		for (int it = jv_object_iter(v); jv_object_iter_valid(v, it);
		     it = jv_object_iter_next(v, it)) {
			if ((size_t)n == cap)
				keys = pc_xrealloc(keys, (cap *= 2) * sizeof *keys);
			keys[n++] = jv_object_iter_key(v, it);
		}
		qsort(keys, (size_t)n, sizeof *keys, key_order);
		for (int i = 0; i < n; i++) {
			jv val = jv_object_get(jv_copy(v), jv_copy(keys[i]));
			put_member(o, keys[i], val, i == 0, how, depth);
			jv_free(keys[i]);
			jv_free(val);
		}
		free(keys);
	} else {
		/* jv_object_foreach would look each value up by its key again */
		for (int it = jv_object_iter(v); jv_object_iter_valid(v, it);
		     it = jv_object_iter_next(v, it)) {
			jv key = jv_object_iter_key(v, it), val = jv_object_iter_value(v, it);
			put_member(o, key, val, n++ == 0, how, depth);
			jv_free(key);
			jv_free(val);
		}
	}
	if (how == JSON_INDENTED)
		indent(o, depth);
	put(o, '}');
}

static void put_array(struct json_out *o, jv v, enum json_layout how, int depth)
{
	int n = jv_array_length(jv_copy(v));

	if (n == 0) {
		json_out_bytes(o, "[]", 2);
		return;
	}
	put(o, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			put(o, ',');
		if (how == JSON_INDENTED)
			indent(o, depth + 1);
		jv item = jv_array_get(jv_copy(v), i);
		put_value(o, item, how, depth + 1);
		jv_free(item);
	}
	if (how == JSON_INDENTED)
		indent(o, depth);
	put(o, ']');
}

static void put_value(struct json_out *o, jv v, enum json_layout how, int depth)
{
	switch (jv_get_kind(v)) {
	case JV_KIND_NULL: json_out_bytes(o, "null", 4); break;
	case JV_KIND_TRUE: json_out_bytes(o, "true", 4); break;
	case JV_KIND_FALSE: json_out_bytes(o, "false", 5); break;
	case JV_KIND_NUMBER: json_out_number(o, jv_number_value(v)); break;
	case JV_KIND_STRING: put_jv_string(o, v); break;
	case JV_KIND_ARRAY: put_array(o, v, how, depth); break;
	case JV_KIND_OBJECT: put_object(o, v, how, depth); break;
	default: json_out_bytes(o, "<invalid>", 9); break;
	}
}

void json_out_value(struct json_out *o, jv v, enum json_layout how)
{
	put_value(o, v, how, 0);
}
