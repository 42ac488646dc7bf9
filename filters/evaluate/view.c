#include "view.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* ---- defaults ---- */

static void collect_defaults(struct view_defaults *d, const struct shape *s, int depth)
{
	if (!s || depth > 32)
		return;
	for (const struct field *f = s->fields; f && f->name; f++) {
		if (f->default_json) {
			if (d->n == d->cap) {
				d->cap = d->cap * 2 + 16;
				d->fields = pc_xrealloc(d->fields, d->cap * sizeof *d->fields);
				d->values = pc_xrealloc(d->values, d->cap * sizeof *d->values);
			}
			d->fields[d->n] = f;
			d->values[d->n++] =
				yyjson_read(f->default_json, strlen(f->default_json), 0);
		}
		collect_defaults(d, f->shape, depth + 1);
	}
	collect_defaults(d, s->items, depth + 1);
	for (const struct alternative *a = s->alternatives; a && a->shape; a++)
		collect_defaults(d, a->shape, depth + 1);
}

void view_defaults_init(struct view_defaults *d, const struct shape *doc)
{
	*d = (struct view_defaults){ 0 };
	collect_defaults(d, doc, 0);
}

void view_defaults_free(struct view_defaults *d)
{
	for (size_t i = 0; i < d->n; i++)
		yyjson_doc_free(d->values[i]);
	free(d->fields);
	free(d->values);
	*d = (struct view_defaults){ 0 };
}

static yyjson_val *default_of(const struct view_defaults *d, const struct field *f)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->fields[i] == f)
			return yyjson_doc_get_root(d->values[i]);
	return NULL;
}

/* ---- reading ---- */

const struct shape *view_resolve(const struct shape *s, yyjson_val *v)
{
	while (s && s->kind == SK_UNION) {
		const struct alternative *a = s->alternatives;
		while (a->shape && a->key && !(yyjson_is_obj(v) && yyjson_obj_get(v, a->key)))
			a++;
		s = a->shape;
	}
	return s;
}

static struct view make(yyjson_val *v, const struct shape *s, const struct view_defaults *d)
{
	return (struct view){ v, view_resolve(s, v), d };
}

struct view view_root(yyjson_doc *doc, const struct shape *doc_shape,
		      const struct view_defaults *d)
{
	return make(yyjson_doc_get_root(doc), doc_shape, d);
}

static int is_named(const struct field *f, const char *key, size_t n)
{
	return f->name[0] == key[0] && !strncmp(f->name, key, n) && !f->name[n];
}

const struct field *view_field(const struct shape *s, const char *key, size_t n,
			       const struct field *from)
{
	const struct field *f;

	if (!s->fields)
		return NULL;
	for (f = from ? from : s->fields; f->name; f++)
		if (is_named(f, key, n))
			return f;
	for (f = s->fields; from && f < from; f++)
		if (is_named(f, key, n))
			return f;
	return NULL;
}

/* The shape of an object's member key, and the field it is (NULL in a
 * map or any object, and for a key the object does not declare). */
static const struct shape *member_shape(const struct shape *s, const char *key, size_t n,
					const struct field *from, const struct field **field)
{
	*field = NULL;
	if (!s || s->kind == SK_ANY)
		return NULL;
	if (s->kind == SK_MAP)
		return s->items;
	*field = view_field(s, key, n, from);
	return *field ? (*field)->shape : NULL;
}

/* The member named key and its place among the object's members (*at);
 * NULL when there is none. */
static yyjson_val *member(yyjson_val *obj, const char *key, size_t n, size_t *at)
{
	yyjson_obj_iter it;
	yyjson_val *k;

	yyjson_obj_iter_init(obj, &it);
	for (*at = 0; (k = yyjson_obj_iter_next(&it)); (*at)++)
		if (yyjson_get_len(k) == n && !memcmp(yyjson_get_str(k), key, n))
			return yyjson_obj_iter_get_val(k);
	return NULL;
}

static struct view get(struct view obj, const char *key, size_t n)
{
	const struct field *f;
	size_t at;

	if (!yyjson_is_obj(obj.v))
		return make(NULL, NULL, obj.dfl);
	yyjson_val *v = member(obj.v, key, n, &at);
	/* a member at place i is at the earliest field i: a text writes the
	 * fields once each (accept.c, or the normalized form), mostly in
	 * declaration order, so the field is where the search starts */
	const struct field *from = v && obj.s && obj.s->fields ? obj.s->fields + at : NULL;
	const struct shape *s = member_shape(obj.s, key, n, from, &f);
	if (!v && f)
		v = default_of(obj.dfl, f);
	return make(v, s, obj.dfl);
}

struct view view_get(struct view obj, const char *key)
{
	return get(obj, key, strlen(key));
}

struct view view_at(struct view v, const char *dotted)
{
	for (const char *k = dotted; *k;) {
		size_t n = strcspn(k, ".");
		v = get(v, k, n);
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
	*item = make(v, items->parent.s ? items->parent.s->items : NULL, items->parent.dfl);
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
	const struct field *f;

	*key = yyjson_get_str(k);
	*key_len = yyjson_get_len(k);
	yyjson_val *v = yyjson_obj_iter_get_val(k);
	*value = make(v, member_shape(m->parent.s, *key, *key_len, NULL, &f), m->parent.dfl);
	return 1;
}

/* ---- writing ---- */

/* An object's member names, for a canonical (sorted) layout. */
struct name {
	const char *text;
	size_t len;
	yyjson_val *value; /* NULL for a declared field, read by name */
};

/* jq's order: the bytes, then the length. */
static int name_order(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int r = memcmp(x->text, y->text, x->len < y->len ? x->len : y->len);

	return r ? r : (x->len > y->len) - (x->len < y->len);
}

/* A declared object: its fields in declaration order, or sorted.  The
 * text's members are matched to their fields in one pass; a field the text
 * leaves out is written as its default. */
static void write_fields(struct json_out *o, struct view obj, enum json_layout how)
{
	const struct field *fields = obj.s->fields, *next = NULL;
	yyjson_val *values[64] = { 0 };
	size_t order[64], n = 0;
	int members = 0;
	yyjson_obj_iter it;
	yyjson_val *k;

	while (n < 64 && fields[n].name)
		order[n] = n, n++;
	yyjson_obj_iter_init(obj.v, &it);
	while ((k = yyjson_obj_iter_next(&it))) {
		const char *key = yyjson_get_str(k);
		const struct field *f = view_field(obj.s, key, yyjson_get_len(k), next);
		if (f && (size_t)(f - fields) < n) {
			values[f - fields] = yyjson_obj_iter_get_val(k);
			next = f[1].name ? f + 1 : NULL;
		}
	}
	/* jq's order, the names' bytes: an insertion sort of a few names */
	for (size_t i = 1; how == JSON_CANONICAL && i < n; i++)
		for (size_t j = i;
		     j > 0 && strcmp(fields[order[j - 1]].name, fields[order[j]].name) > 0; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	json_out_bytes(o, "{", 1);
	for (size_t i = 0; i < n; i++) {
		const struct field *f = &fields[order[i]];
		yyjson_val *value = values[order[i]] ? values[order[i]] : default_of(obj.dfl, f);
		json_out_key(o, f->name, &members);
		view_write(o, make(value, f->shape, obj.dfl), how);
	}
	json_out_bytes(o, "}", 1);
}

/* A map's or any object's members in the text's order, or sorted. */
static void write_members(struct json_out *o, struct view obj, enum json_layout how)
{
	int members = 0;
	size_t n = yyjson_obj_size(obj.v), i = 0;
	struct name *names = pc_xmalloc((n ? n : 1) * sizeof *names);
	const struct shape *items = obj.s ? obj.s->items : NULL;
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
		view_write(o, make(names[i].value, items, obj.dfl), how);
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
		if (v.s && v.s->kind == SK_OBJECT)
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
		if (v.s && v.s->kind == SK_OBJECT) {
			for (const struct field *f = v.s->fields; f->name; f++)
				out = jv_object_set(out, jv_string(f->name),
						    view_to_jv(view_get(v, f->name)));
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
