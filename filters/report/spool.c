/* The spool's encoding of a value (spool.h). */
#include <stdint.h>
#include <string.h>

#include "spool.h"

/* What follows the kind byte of a string, an array or an object. */
static uint32_t length_at(const char *p)
{
	uint32_t n;

	memcpy(&n, p + 1, sizeof n);
	return n;
}

static void add_length(struct sbuf *b, size_t n)
{
	uint32_t u = (uint32_t)n;

	sbuf_addn(b, (const char *)&u, sizeof u);
}

/* An array's or object's length is known once its members are written:
 * it is reserved, then filled in.  v is consumed. */
static void add_members(struct sbuf *b, jv v)
{
	size_t at = b->len + sizeof(uint32_t);

	add_length(b, 0);
	if (jv_get_kind(v) == JV_KIND_ARRAY) {
		jv_array_foreach(v, i, item)
			spool_add(b, item);
	} else {
		jv_object_foreach(v, key, value) {
			spool_add(b, key);
			spool_add(b, value);
		}
	}
	jv_free(v);
	uint32_t n = (uint32_t)(b->len - at);
	memcpy(b->s + at - sizeof n, &n, sizeof n);
}

void spool_add(struct sbuf *b, jv v)
{
	char kind = (char)jv_get_kind(v);

	sbuf_addn(b, &kind, 1);
	switch (jv_get_kind(v)) {
	case JV_KIND_NUMBER: {
		double d = jv_number_value(v);
		sbuf_addn(b, (const char *)&d, sizeof d);
		break;
	}
	case JV_KIND_STRING:
		add_length(b, (size_t)jv_string_length_bytes(jv_copy(v)));
		/* with its NUL: the reader hands out the string where it lies */
		sbuf_addn(b, jv_string_value(v), (size_t)jv_string_length_bytes(jv_copy(v)) + 1);
		break;
	case JV_KIND_ARRAY:
	case JV_KIND_OBJECT: add_members(b, v); return;
	default: break;
	}
	jv_free(v);
}

size_t spool_size(const char *p)
{
	switch (*p) {
	case JV_KIND_NUMBER: return 1 + sizeof(double);
	case JV_KIND_STRING: return 1 + sizeof(uint32_t) + length_at(p) + 1;
	case JV_KIND_ARRAY:
	case JV_KIND_OBJECT: return 1 + sizeof(uint32_t) + length_at(p);
	default: return 1;
	}
}

/* Where the string, array or object at p has its bytes or members. */
static const char *body(const char *p)
{
	return p + 1 + sizeof(uint32_t);
}

jv spool_jv(const char *p)
{
	double d;
	jv v;

	if (!p)
		return jv_invalid();
	switch (*p) {
	case JV_KIND_NULL: return jv_null();
	case JV_KIND_FALSE: return jv_false();
	case JV_KIND_TRUE: return jv_true();
	case JV_KIND_NUMBER: memcpy(&d, p + 1, sizeof d); return jv_number(d);
	case JV_KIND_STRING: return jv_string_sized(body(p), (int)length_at(p));
	case JV_KIND_ARRAY: v = jv_array(); break;
	default: v = jv_object();
	}
	for (const char *q = body(p), *end = p + spool_size(p); q < end;) {
		const char *next = q + spool_size(q);
		if (jv_get_kind(v) == JV_KIND_ARRAY) {
			v = jv_array_append(v, spool_jv(q));
			q = next;
		} else {
			v = jv_object_set(v, spool_jv(q), spool_jv(next));
			q = next + spool_size(next);
		}
	}
	return v;
}

const char *spool_get(const char *p, const char *key)
{
	if (!p || *p != JV_KIND_OBJECT)
		return NULL;
	size_t n = strlen(key);
	const char *q = body(p), *end = p + spool_size(p);

	while (q < end) {
		const char *value = q + spool_size(q);
		if (length_at(q) == n && !memcmp(body(q), key, n))
			return value;
		q = value + spool_size(value);
	}
	return NULL;
}

const char *spool_str(const char *p)
{
	return p && *p == JV_KIND_STRING ? body(p) : NULL;
}
