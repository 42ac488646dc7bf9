#include "accept.h"

#include <math.h>
#include <string.h>

/* Past this depth a value goes to shape_normalize, whose parser refuses
 * what is deeper than its own limit. */
#define ACCEPT_DEPTH_MAX 64

static int accept(const struct typed_shape *t, yyjson_val *v, struct view_index *x, int depth);

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
		struct view num = { v, NULL, NULL };
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
 * is valid by declaration).  Where each member lies goes in the index. */
static int accept_fields(const struct typed_shape *t, yyjson_val *obj, struct view_index *x,
			 int depth)
{
	unsigned long long seen = 0;
	size_t slots = view_index_add(x, obj, t->n_fields), next = 0, i;
	yyjson_obj_iter it;
	yyjson_val *k;

	yyjson_obj_iter_init(obj, &it);
	while ((k = yyjson_obj_iter_next(&it))) {
		const struct typed_field *f =
			typed_field(t, yyjson_get_str(k), yyjson_get_len(k), next);
		i = f ? (size_t)(f - t->fields) : 64;
		if (i >= 64 || (seen & (1ULL << i)))
			return 0;
		seen |= 1ULL << i;
		next = i + 1;
		x->slots[slots + i] = yyjson_obj_iter_get_val(k);
		if (!accept(f->shape, yyjson_obj_iter_get_val(k), x, depth + 1))
			return 0;
	}
	for (i = 0; i < t->n_fields; i++)
		if (!(t->fields[i].decl->flags & FIELD_OPTIONAL) && !(seen & (1ULL << i)))
			return 0;
	return 1;
}

/* Items of a list, values of a map (names once each), or any value. */
static int accept_items(const struct typed_shape *items, yyjson_val *v, struct view_index *x,
			int depth)
{
	if (yyjson_is_arr(v)) {
		yyjson_arr_iter it;
		yyjson_val *item;
		yyjson_arr_iter_init(v, &it);
		while ((item = yyjson_arr_iter_next(&it)))
			if (!accept(items, item, x, depth + 1))
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
		if (!accept(items, yyjson_obj_iter_get_val(k), x, depth + 1))
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

/* The object rules' reader of a view (shape.h): it reads the value as
 * shape_normalize would pass it, defaults filled.  A list of strings is
 * flat in yyjson, so its item i is found at once. */
static const char *rule_text(const void *v, const char *key, size_t *n)
{
	return view_str(view_get(*(const struct view *)v, key), n);
}

static int rule_is_set(const void *v, const char *key)
{
	return !view_is_null(view_get(*(const struct view *)v, key));
}

static const char *rule_item(const void *v, const char *key, size_t i, size_t *n)
{
	const struct view *obj = v;
	struct view list = key ? view_get(*obj, key) : *obj;
	struct view item = { yyjson_arr_get(list.v, i), NULL, NULL };

	return item.v ? view_str(item, n) : NULL;
}

static const struct rule_reader view_rule_reader = { rule_text, rule_is_set, rule_item };

/* A rule runs once the value is accepted, so its fields are indexed. */
static int rule_holds(const struct typed_shape *t, yyjson_val *v, const struct view_index *x)
{
	char why[1024];
	struct view value = { v, t, x };

	return t->decl->check((struct rule_value){ &view_rule_reader, &value }, why, sizeof why) ==
	       0;
}

static int accept(const struct typed_shape *t, yyjson_val *v, struct view_index *x, int depth)
{
	const struct shape *s = t ? t->decl : NULL;
	int ok;

	if (depth > ACCEPT_DEPTH_MAX)
		return 0;
	if (!s)
		return accept_items(NULL, v, x, depth);
	if (yyjson_is_null(v) && (s->flags & SHAPE_NULLABLE))
		return 1;
	if (!kind_matches(s, v) || !within_bounds(s, v))
		return 0;
	switch (s->kind) {
	case SK_OBJECT: ok = accept_fields(t, v, x, depth); break;
	case SK_ARRAY:
	case SK_MAP:
	case SK_ANY: ok = accept_items(t->items, v, x, depth); break;
	case SK_UNION: {
		const struct typed_shape *kind = typed_resolve(t, v);
		ok = kind && accept(kind, v, x, depth);
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
	return ok && (!s->check || rule_holds(t, v, x));
}

int accept_document(const struct typed_doc *doc, yyjson_doc *text, struct view_index *x)
{
	view_index_reset(x, text);
	return accept(doc->root, yyjson_doc_get_root(text), x, 0);
}
