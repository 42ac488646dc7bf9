#include "accept.h"

#include <math.h>
#include <string.h>

/* Past this depth a value goes to shape_normalize, whose parser refuses
 * what is deeper than its own limit. */
#define ACCEPT_DEPTH_MAX 64

static int accept(const struct shape *s, yyjson_val *v, const struct view_defaults *d,
		  int depth);

static int is_integral(yyjson_val *v)
{
	double x = yyjson_get_num(v);

	return !yyjson_is_real(v) || (isfinite(x) && x == floor(x));
}

static int kind_matches(const struct shape *s, yyjson_val *v)
{
	switch (s->kind) {
	case SK_ANY: return 1;
	case SK_STRING: return yyjson_is_str(v);
	case SK_NUMBER: return yyjson_is_num(v);
	case SK_INT: return yyjson_is_num(v) && is_integral(v);
	case SK_BOOL: return yyjson_is_bool(v);
	case SK_OBJECT:
	case SK_MAP:
	case SK_UNION: return yyjson_is_obj(v);
	case SK_ARRAY: return yyjson_is_arr(v);
	}
	return 0;
}

/* What shape.c measures: a string's characters up to a NUL (it reads the C
 * string), a list's items, a number's value. */
static double measure(const struct shape *s, yyjson_val *v)
{
	double n = 0;

	switch (s->kind) {
	case SK_STRING:
		for (const unsigned char *p = (const unsigned char *)yyjson_get_str(v); *p; p++)
			n += (*p & 0xC0) != 0x80;
		return n;
	case SK_ARRAY: return (double)yyjson_arr_size(v);
	default: {
		struct view num = { v, s, NULL };
		return view_num_or(num, 0);
	}
	}
}

static int within_bounds(const struct shape *s, yyjson_val *v)
{
	if (!(s->flags & (SHAPE_MIN | SHAPE_MAX)))
		return 1;
	double m = measure(s, v);
	return !((s->flags & SHAPE_MIN) && m < s->min) && !((s->flags & SHAPE_MAX) && m > s->max);
}

/* Whether an object has two members of one name. */
static int has_duplicate_key(yyjson_val *obj)
{
	yyjson_obj_iter it, later;
	yyjson_val *k, *l;

	yyjson_obj_iter_init(obj, &it);
	while ((k = yyjson_obj_iter_next(&it))) {
		later = it;
		while ((l = yyjson_obj_iter_next(&later)))
			if (yyjson_equals_strn(l, yyjson_get_str(k), yyjson_get_len(k)))
				return 1;
	}
	return 0;
}

/* A declared object: only its fields, each once and valid, every
 * required one present (an absent optional one takes its default, which
 * is valid by declaration). */
static int accept_fields(const struct shape *s, yyjson_val *obj, const struct view_defaults *d,
			 int depth)
{
	unsigned long long seen = 0;
	const struct field *next = NULL;
	yyjson_obj_iter it;
	yyjson_val *k;
	long i;

	yyjson_obj_iter_init(obj, &it);
	while ((k = yyjson_obj_iter_next(&it))) {
		const struct field *f = view_field(s, yyjson_get_str(k), yyjson_get_len(k), next);
		i = f ? f - s->fields : 64;
		if (i >= 64 || (seen & (1ULL << i)))
			return 0;
		seen |= 1ULL << i;
		next = f[1].name ? f + 1 : NULL;
		if (!accept(f->shape, yyjson_obj_iter_get_val(k), d, depth + 1))
			return 0;
	}
	i = 0;
	for (const struct field *f = s->fields; f->name; f++, i++)
		if (!(f->flags & FIELD_OPTIONAL) && !(seen & (1ULL << i)))
			return 0;
	return 1;
}

/* Items of a list, values of a map (names once each), or any value. */
static int accept_items(const struct shape *items, yyjson_val *v, const struct view_defaults *d,
			int depth)
{
	if (yyjson_is_arr(v)) {
		yyjson_arr_iter it;
		yyjson_val *item;
		yyjson_arr_iter_init(v, &it);
		while ((item = yyjson_arr_iter_next(&it)))
			if (!accept(items, item, d, depth + 1))
				return 0;
		return 1;
	}
	if (!yyjson_is_obj(v))
		return 1;
	if (has_duplicate_key(v))
		return 0;
	yyjson_obj_iter it;
	yyjson_val *k;
	yyjson_obj_iter_init(v, &it);
	while ((k = yyjson_obj_iter_next(&it)))
		if (!accept(items, yyjson_obj_iter_get_val(k), d, depth + 1))
			return 0;
	return 1;
}

/* Past this many items a list's uniqueness is left to shape_normalize,
 * which checks it in one pass (this compares pairs). */
#define ACCEPT_UNIQUE_MAX 64

/* Whether no item of the list repeats an earlier one's unique key (0 also
 * for a list too long to compare its pairs). */
static int items_unique(const struct unique_items *u, yyjson_val *list)
{
	if (yyjson_arr_size(list) > ACCEPT_UNIQUE_MAX)
		return 0;
	yyjson_arr_iter it, earlier;
	yyjson_val *item, *before;

	yyjson_arr_iter_init(list, &it);
	while ((item = yyjson_arr_iter_next(&it))) {
		yyjson_val *id = yyjson_obj_get(item, u->key);
		if (!yyjson_is_str(id))
			continue;
		yyjson_arr_iter_init(list, &earlier);
		while ((before = yyjson_arr_iter_next(&earlier)) != item)
			if (yyjson_equals_strn(yyjson_obj_get(before, u->key), yyjson_get_str(id),
					       yyjson_get_len(id)))
				return 0;
	}
	return 1;
}

static const struct shape any = { .kind = SK_ANY };

/* The rule a shape names, on the value as shape_normalize passes it. */
static int rule_holds(const struct shape *s, yyjson_val *v, const struct view_defaults *d)
{
	char why[1024];
	struct view value = { v, s, d };
	jv normalized = view_to_jv(value);
	int ok = s->check(normalized, why, sizeof why) == 0;

	jv_free(normalized);
	return ok;
}

static int accept(const struct shape *s, yyjson_val *v, const struct view_defaults *d,
		  int depth)
{
	int ok;

	if (depth > ACCEPT_DEPTH_MAX)
		return 0;
	if (yyjson_is_null(v) && (s->flags & SHAPE_NULLABLE))
		return 1;
	if (!kind_matches(s, v) || !within_bounds(s, v))
		return 0;
	switch (s->kind) {
	case SK_OBJECT: ok = accept_fields(s, v, d, depth); break;
	case SK_ARRAY:
	case SK_MAP: ok = accept_items(s->items, v, d, depth); break;
	case SK_ANY: ok = accept_items(&any, v, d, depth); break;
	case SK_UNION: {
		const struct shape *kind = view_resolve(s, v);
		ok = kind && accept(kind, v, d, depth);
		break;
	}
	default: ok = 1; break;
	}
	if (ok && s->unique)
		ok = items_unique(s->unique, v);
	if (ok && s->check_text) {
		char why[1024];
		ok = s->check_text(yyjson_get_str(v), yyjson_get_len(v), why, sizeof why) == 0;
	}
	return ok && (!s->check || rule_holds(s, v, d));
}

int accept_document(const struct shape *doc, yyjson_val *root, const struct view_defaults *d)
{
	return accept(doc, root, d, 0);
}
