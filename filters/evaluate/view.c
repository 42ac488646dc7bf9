#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* ---- the index ---- */

void view_index_reset(struct view_index *x, yyjson_doc *doc)
{
	x->first = doc ? yyjson_doc_get_root(doc) : NULL;
	x->n_values = doc ? yyjson_doc_get_val_count(doc) : 0;
	x->n_slots = 0;
	if (x->n_values > x->cap_values) {
		x->cap_values = x->n_values * 2;
		free(x->fields_at);
		x->fields_at = pc_xmalloc(x->cap_values * sizeof *x->fields_at);
	}
	if (x->n_values)
		memset(x->fields_at, 0, x->n_values * sizeof *x->fields_at);
}

void view_index_free(struct view_index *x)
{
	free(x->fields_at);
	free(x->slots);
	*x = (struct view_index){ 0 };
}

size_t view_index_add(struct view_index *x, yyjson_val *obj, size_t n)
{
	size_t first = x->n_slots;

	if (x->n_slots + n > x->cap_slots) {
		x->cap_slots = (x->n_slots + n) * 2 + 64;
		x->slots = pc_xrealloc(x->slots, x->cap_slots * sizeof *x->slots);
	}
	memset(x->slots + first, 0, n * sizeof *x->slots);
	x->n_slots += n;
	x->fields_at[obj - x->first] = (uint32_t)(first + 1);
	return first;
}

/* The slots of obj's fields, or NULL when the index does not hold it. */
static inline yyjson_val *const *slots_of(const struct view_index *x, yyjson_val *obj)
{
	if (!x || obj < x->first || obj >= x->first + x->n_values || !x->fields_at[obj - x->first])
		return NULL;
	return x->slots + x->fields_at[obj - x->first] - 1;
}

/* ---- reading ---- */

static struct view make(yyjson_val *v, const struct typed_shape *s, const struct view_index *x)
{
	int is_union = s && s->decl->kind == SK_UNION;

	return (struct view){ v, is_union ? typed_resolve(s, v) : s, x };
}

struct view view_root(yyjson_doc *doc, const struct typed_shape *doc_shape,
		      const struct view_index *x)
{
	return make(yyjson_doc_get_root(doc), doc_shape, x);
}

static int is_declared(const struct typed_shape *s)
{
	return s && s->decl->kind == SK_OBJECT;
}

/* The shape of an object's member key: a declared object's field's (NULL
 * for a key it does not declare), a map's values', or any. */
static const struct typed_shape *member_shape(const struct typed_shape *s, const char *key,
					      size_t n)
{
	if (is_declared(s)) {
		const struct typed_field *f = typed_field(s, key, n, s->n_fields);
		return f ? f->shape : NULL;
	}
	return s && s->decl->kind == SK_MAP ? s->items : NULL;
}

/* The member named key, or NULL. */
static yyjson_val *member(yyjson_val *obj, const char *key, size_t n)
{
	yyjson_obj_iter it;
	yyjson_val *k;

	yyjson_obj_iter_init(obj, &it);
	while ((k = yyjson_obj_iter_next(&it)))
		if (yyjson_get_len(k) == n && !memcmp(yyjson_get_str(k), key, n))
			return yyjson_obj_iter_get_val(k);
	return NULL;
}

/* Field at (its index) of declared object obj: its member, read from
 * obj's slots when the index holds obj (slots_of), else found by name; its
 * default when the text leaves it out. */
static inline struct view field_of(struct view obj, yyjson_val *const *slots, size_t at)
{
	const struct typed_field *f = &obj.s->fields[at];
	yyjson_val *v = slots ? slots[at] : member(obj.v, f->name, f->len);

	return make(v ? v : f->dflt, f->shape, obj.index);
}

struct view view_getn(struct view obj, const char *key, size_t n)
{
	if (!yyjson_is_obj(obj.v))
		return make(NULL, NULL, obj.index);
	if (!is_declared(obj.s))
		return make(member(obj.v, key, n), member_shape(obj.s, key, n), obj.index);
	/* a declared object has no member but its fields (accept.c) */
	const struct typed_field *f = typed_field(obj.s, key, n, obj.s->n_fields);
	if (!f)
		return make(NULL, NULL, obj.index);
	return field_of(obj, slots_of(obj.index, obj.v), (size_t)(f - obj.s->fields));
}

struct view view_at(struct view v, const char *dotted)
{
	for (const char *k = dotted; *k;) {
		size_t n = strcspn(k, ".");
		v = view_getn(v, k, n);
		k += n + (k[n] == '.');
	}
	return v;
}

int view_is_null(struct view v)
{
	return !v.v || yyjson_is_null(v.v);
}

int view_is_true(struct view v)
{
	return yyjson_is_true(v.v);
}

int view_is_object(struct view v)
{
	return yyjson_is_obj(v.v);
}

const char *view_str(struct view v, size_t *n)
{
	if (!yyjson_is_str(v.v)) {
		*n = 0;
		return NULL;
	}
	*n = yyjson_get_len(v.v);
	return yyjson_get_str(v.v);
}

const char *view_cstr(struct view v)
{
	return yyjson_is_str(v.v) ? yyjson_get_str(v.v) : NULL;
}

int view_str_is(struct view v, const char *want)
{
	const char *s = view_cstr(v);

	return s && !strcmp(s, want);
}

/* jq holds every number as a double; yyjson reads "-0" as the integer 0,
 * which jq reads as -0.0 (a positive 0 is an unsigned integer). */
static double number_of(yyjson_val *v)
{
	if (yyjson_is_real(v))
		return yyjson_get_real(v);
	if (yyjson_is_uint(v))
		return (double)yyjson_get_uint(v);
	int64_t i = yyjson_get_sint(v);
	return i == 0 ? -0.0 : (double)i;
}

int view_num(struct view v, double *x)
{
	if (!yyjson_is_num(v.v))
		return 0;
	*x = number_of(v.v);
	return 1;
}

int view_num_literal(struct view v, char buf[static DECIMAL_MAX], const char **lit, size_t *len)
{
	int negative = yyjson_is_sint(v.v) && yyjson_get_sint(v.v) < 0;

	*lit = NULL;
	*len = 0;
	if (yyjson_is_real(v.v))
		return fabs(yyjson_get_real(v.v)) < 9e18;
	if (!yyjson_is_int(v.v))
		return 1;
	uint64_t x = negative ? decimal_magnitude(yyjson_get_sint(v.v)) : yyjson_get_uint(v.v);
	*lit = decimal_write(buf + DECIMAL_MAX, x, negative);
	*len = (size_t)(buf + DECIMAL_MAX - *lit);
	return 1;
}

double view_num_or(struct view v, double fallback)
{
	double x;

	return view_num(v, &x) ? x : fallback;
}

struct view_items view_items(struct view arr)
{
	struct view_items items = { .parent = arr };

	if (yyjson_arr_iter_init(arr.v, &items.it))
		items.n = yyjson_arr_size(arr.v);
	return items;
}

int view_next(struct view_items *items, struct view *item)
{
	yyjson_val *v = items->n ? yyjson_arr_iter_next(&items->it) : NULL;

	if (!v)
		return 0;
	*item = make(v, items->parent.s ? items->parent.s->items : NULL, items->parent.index);
	return 1;
}

struct view_members view_members(struct view map)
{
	struct view_members m = { .parent = map };

	if (yyjson_obj_iter_init(map.v, &m.it))
		m.n = yyjson_obj_size(map.v);
	return m;
}

int view_next_member(struct view_members *m, const char **key, size_t *key_len,
		     struct view *value)
{
	yyjson_val *k = m->n ? yyjson_obj_iter_next(&m->it) : NULL;

	if (!k)
		return 0;
	*key = yyjson_get_str(k);
	*key_len = yyjson_get_len(k);
	*value = make(yyjson_obj_iter_get_val(k), member_shape(m->parent.s, *key, *key_len),
		      m->parent.index);
	return 1;
}

/* ---- writing ---- */

/* An object's member names, for a canonical (sorted) layout. */
struct name {
	const char *text;
	size_t len;
	yyjson_val *value;
};

/* jq's order: the bytes, then the length. */
static int name_order(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int r = memcmp(x->text, y->text, x->len < y->len ? x->len : y->len);

	return r ? r : (x->len > y->len) - (x->len < y->len);
}

/* A declared object: its fields in declaration order, or sorted; a field
 * the text leaves out is written as its default. */
static void write_fields(struct json_out *o, struct view obj, enum json_layout how)
{
	const struct typed_shape *s = obj.s;
	yyjson_val *const *slots = slots_of(obj.index, obj.v);
	int members = 0;

	json_out_bytes(o, "{", 1);
	for (size_t i = 0; i < s->n_fields; i++) {
		size_t at = how == JSON_CANONICAL ? s->sorted[i] : i;
		json_out_key(o, s->fields[at].name, &members);
		view_write(o, field_of(obj, slots, at), how);
	}
	json_out_bytes(o, "}", 1);
}

/* A map's or any object's members in the text's order, or sorted. */
static void write_members(struct json_out *o, struct view obj, enum json_layout how)
{
	int members = 0;
	size_t n = yyjson_obj_size(obj.v), i = 0;
	struct name *names = pc_xmalloc((n ? n : 1) * sizeof *names);
	const struct typed_shape *items = obj.s ? obj.s->items : NULL;
	yyjson_obj_iter it;
	yyjson_val *k;

	yyjson_obj_iter_init(obj.v, &it);
	while ((k = yyjson_obj_iter_next(&it)))
		names[i++] = (struct name){ yyjson_get_str(k), yyjson_get_len(k),
					    yyjson_obj_iter_get_val(k) };
	if (how == JSON_CANONICAL)
		qsort(names, n, sizeof *names, name_order);
	json_out_bytes(o, "{", 1);
	for (i = 0; i < n; i++) {
		json_out_member(o, names[i].text, names[i].len, &members);
		view_write(o, make(names[i].value, items, obj.index), how);
	}
	json_out_bytes(o, "}", 1);
	free(names);
}

static void write_items(struct json_out *o, struct view arr, enum json_layout how)
{
	struct view_items items = view_items(arr);
	struct view item;
	int first = 1;

	json_out_bytes(o, "[", 1);
	while (view_next(&items, &item)) {
		if (!first)
			json_out_bytes(o, ",", 1);
		first = 0;
		view_write(o, item, how);
	}
	json_out_bytes(o, "]", 1);
}

/* Only the compact and canonical layouts: pc-evaluate writes lines. */
void view_write(struct json_out *o, struct view v, enum json_layout how)
{
	switch (v.v ? yyjson_get_type(v.v) : YYJSON_TYPE_NULL) {
	case YYJSON_TYPE_BOOL:
		if (yyjson_get_bool(v.v))
			json_out_bytes(o, "true", 4);
		else
			json_out_bytes(o, "false", 5);
		break;
	case YYJSON_TYPE_NUM: json_out_number(o, number_of(v.v)); break;
	case YYJSON_TYPE_STR: json_out_string(o, yyjson_get_str(v.v), yyjson_get_len(v.v)); break;
	case YYJSON_TYPE_ARR: write_items(o, v, how); break;
	case YYJSON_TYPE_OBJ:
		if (is_declared(v.s))
			write_fields(o, v, how);
		else
			write_members(o, v, how);
		break;
	default: json_out_bytes(o, "null", 4); break;
	}
}

jv view_to_jv(struct view v)
{
	switch (v.v ? yyjson_get_type(v.v) : YYJSON_TYPE_NULL) {
	case YYJSON_TYPE_BOOL: return jv_bool(yyjson_get_bool(v.v));
	case YYJSON_TYPE_NUM: return jv_number(number_of(v.v));
	case YYJSON_TYPE_STR: return jv_string_sized(yyjson_get_str(v.v), (int)yyjson_get_len(v.v));
	case YYJSON_TYPE_ARR: {
		jv out = jv_array();
		struct view_items items = view_items(v);
		struct view item;
		while (view_next(&items, &item))
			out = jv_array_append(out, view_to_jv(item));
		return out;
	}
	case YYJSON_TYPE_OBJ: {
		jv out = jv_object();
		if (is_declared(v.s)) {
			for (size_t i = 0; i < v.s->n_fields; i++)
				out = jv_object_set(out, jv_string(v.s->fields[i].name),
						    view_to_jv(view_get(v, v.s->fields[i].name)));
			return out;
		}
		struct view_members m = view_members(v);
		struct view value;
		const char *key;
		size_t n;
		while (view_next_member(&m, &key, &n, &value))
			out = jv_object_set(out, jv_string_sized(key, (int)n), view_to_jv(value));
		return out;
	}
	default: return jv_null();
	}
}
