#include "shape.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *kind_name(enum shape_kind k)
{
	switch (k) {
	case SK_STRING: return "a string";
	case SK_INT: return "an integer";
	case SK_NUMBER: return "a number";
	case SK_BOOL: return "a boolean";
	case SK_OBJECT:
	case SK_MAP:
	case SK_UNION: return "an object";
	case SK_ARRAY: return "a list";
	default: return "a value";
	}
}

static const char *jv_kind_desc(jv v)
{
	switch (jv_get_kind(v)) {
	case JV_KIND_NULL: return "null";
	case JV_KIND_TRUE:
	case JV_KIND_FALSE: return "a boolean";
	case JV_KIND_NUMBER: return "a number";
	case JV_KIND_STRING: return "a string";
	case JV_KIND_ARRAY: return "a list";
	case JV_KIND_OBJECT: return "an object";
	default: return "an invalid value";
	}
}

/* Where a value sits: a chain of frames on the stack, written out as
 * "evaluation.probes[1].id" only when a value is wrong, so a valid document
 * costs no formatting. */
struct at {
	const struct at *up;
	const char *name; /* NULL for an array index */
	int index;
};

/* Append ".name" or "[i]" to the path, cut at its size as each part is. */
static void path_push(struct shape_error *err, const char *name, int index)
{
	size_t old = strlen(err->path);

	if (name)
		snprintf(err->path + old, sizeof err->path - old, "%s%s",
			 old ? "." : "", name);
	else
		snprintf(err->path + old, sizeof err->path - old, "[%d]", index);
}

static void path_write(struct shape_error *err, const struct at *at)
{
	if (!at) {
		err->path[0] = '\0';
		return;
	}
	path_write(err, at->up);
	path_push(err, at->name, at->index);
}

static int fail(struct shape_error *err, const struct at *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct shape_error *err, const struct at *at, const char *fmt, ...)
{
	va_list ap;

	path_write(err, at);
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
	return -1;
}

static int kind_matches(enum shape_kind k, jv v)
{
	jv_kind vk = jv_get_kind(v);

	switch (k) {
	case SK_ANY: return 1;
	case SK_STRING: return vk == JV_KIND_STRING;
	case SK_NUMBER: return vk == JV_KIND_NUMBER;
	case SK_INT: {
		if (vk != JV_KIND_NUMBER)
			return 0;
		double x = jv_number_value(v);
		return isfinite(x) && x == floor(x);
	}
	case SK_BOOL: return vk == JV_KIND_TRUE || vk == JV_KIND_FALSE;
	case SK_OBJECT:
	case SK_MAP:
	case SK_UNION: return vk == JV_KIND_OBJECT;
	case SK_ARRAY: return vk == JV_KIND_ARRAY;
	}
	return 0;
}

static double measure(const struct shape *s, jv v)
{
	switch (s->kind) {
	case SK_STRING: {
		/* characters, as Python counts them */
		const unsigned char *p = (const unsigned char *)jv_string_value(v);
		double n = 0;
		for (; *p; p++)
			n += (*p & 0xC0) != 0x80;
		return n;
	}
	case SK_ARRAY: return jv_array_length(jv_copy(v));
	default: return jv_number_value(v);
	}
}

static int check_bounds(const struct shape *s, jv v, const struct at *at, struct shape_error *err)
{
	double m;
	const char *unit;

	if (!(s->flags & (SHAPE_MIN | SHAPE_MAX)))
		return 0;
	m = measure(s, v);
	unit = s->kind == SK_STRING ? " characters" : (s->kind == SK_ARRAY ? " items" : "");
	if ((s->flags & SHAPE_MIN) && m < s->min) {
		if (s->flags & SHAPE_MAX)
			return fail(err, at, "must be between %g and %g%s", s->min, s->max, unit);
		return fail(err, at, "must be at least %g%s", s->min, unit);
	}
	if ((s->flags & SHAPE_MAX) && m > s->max) {
		if (s->flags & SHAPE_MIN)
			return fail(err, at, "must be between %g and %g%s", s->min, s->max, unit);
		return fail(err, at, "must be at most %g%s", s->max, unit);
	}
	return 0;
}

/* A value's normalized form: -1 on a violation; 0 when it is the value
 * itself (*out untouched), the common case, which costs no copy; 1 with
 * *out (owned) when anything was reordered or filled in. */
static int normalize(const struct shape *s, jv v, const struct at *at, jv *out,
		     struct shape_error *err);

/* v (consumed) normalized into *out (owned), changed or not. */
static int normalized(const struct shape *s, jv v, const struct at *at, jv *out,
		      struct shape_error *err)
{
	int rc = normalize(s, v, at, out, err);

	if (rc == 0)
		*out = jv_copy(v);
	jv_free(v);
	return rc < 0 ? -1 : 0;
}

static jv default_of(const struct field *f)
{
	return f->default_json ? jv_parse(f->default_json) : jv_null();
}

/* The exact order of the checks, for an object the quick pass gave up on:
 * unknown keys first, in the object's order, then the fields in declaration
 * order; the object is rebuilt in that order, defaults filled. */
static int rebuild_object(const struct shape *s, jv v, const struct at *at, jv *out,
			  struct shape_error *err)
{
	jv result = jv_object();

	jv_object_foreach(v, key, val) {
		const char *name = jv_string_value(key);
		const struct field *f = s->fields;
		while (f->name && strcmp(f->name, name))
			f++;
		if (!f->name) {
			const struct at here = { at, name, 0 };
			fail(err, &here, "unknown field");
		}
		jv_free(key);
		jv_free(val);
		if (!f->name) {
			jv_free(result);
			return -1;
		}
	}
	for (const struct field *f = s->fields; f->name; f++) {
		const struct at here = { at, f->name, 0 };
		jv val = jv_object_get(jv_copy(v), jv_string(f->name));
		jv norm;

		if (!jv_is_valid(val)) {
			jv_free(val);
			if (!(f->flags & FIELD_OPTIONAL)) {
				jv_free(result);
				return fail(err, &here, "is required");
			}
			val = default_of(f);
		}
		if (normalized(f->shape, val, &here, &norm, err) != 0) {
			jv_free(result);
			return -1;
		}
		result = jv_object_set(result, jv_string(f->name), norm);
	}
	*out = result;
	return 1;
}

/* The first n members of v as they are, to append changed ones to. */
static jv members_before(jv v, int n)
{
	jv result;

	if (jv_get_kind(v) == JV_KIND_ARRAY)
		return jv_array_slice(jv_copy(v), 0, n);
	result = jv_object();
	for (int j = jv_object_iter(v), i = 0; i < n; j = jv_object_iter_next(v, j), i++)
		result =
			jv_object_set(result, jv_object_iter_key(v, j), jv_object_iter_value(v, j));
	return result;
}

/* Adds member i (key and item consumed; key null in an array) to *result,
 * which stays invalid while every member so far is unchanged. */
static void add_member(jv *result, jv v, int i, jv key, jv item, int changed)
{
	if (!jv_is_valid(*result) && !changed) {
		jv_free(key);
		jv_free(item);
		return;
	}
	if (!jv_is_valid(*result))
		*result = members_before(v, i);
	if (jv_get_kind(*result) == JV_KIND_ARRAY) {
		*result = jv_array_append(*result, item);
		jv_free(key);
	} else
		*result = jv_object_set(*result, key, item);
}

/* One pass over an object whose keys are fields in declaration order, some
 * optional ones absent: the common case, checked in place.  Anything else
 * (a key out of order or unknown, a required field missing, a wrong value)
 * goes to rebuild_object, which finds the error the exact order names. */
static int normalize_object(const struct shape *s, jv v, const struct at *at, jv *out,
			    struct shape_error *err)
{
	const struct field *f = s->fields;
	jv result = jv_invalid();
	int i = 0, iter = jv_object_iter(v);

	for (;; i++) {
		int more = jv_object_iter_valid(v, iter);
		jv key = more ? jv_object_iter_key(v, iter) : jv_null();
		const char *name = more ? jv_string_value(key) : NULL;
		const struct field *g = f;
		while (g->name && !(name && !strcmp(g->name, name)))
			g++;
		for (; f < g; f++) { /* absent */
			const struct at here = { at, f->name, 0 };
			jv norm;
			if (!(f->flags & FIELD_OPTIONAL) ||
			    normalized(f->shape, default_of(f), &here, &norm, err) != 0) {
				jv_free(key);
				jv_free(result);
				return rebuild_object(s, v, at, out, err);
			}
			add_member(&result, v, i, jv_string(f->name), norm, 1);
		}
		if (!more || !g->name) {
			jv_free(key);
			if (more) {
				jv_free(result);
				return rebuild_object(s, v, at, out, err);
			}
			break;
		}
		const struct at here = { at, name, 0 };
		jv val = jv_object_iter_value(v, iter), norm;
		int rc = normalize(g->shape, val, &here, &norm, err);
		if (rc < 0) {
			jv_free(key);
			jv_free(val);
			jv_free(result);
			return rebuild_object(s, v, at, out, err);
		}
		add_member(&result, v, i, key, rc ? norm : jv_copy(val), rc);
		jv_free(val);
		f = g + 1;
		iter = jv_object_iter_next(v, iter);
	}
	if (!jv_is_valid(result))
		return 0;
	*out = result;
	return 1;
}

/* Each item of an array or value of a map against the items' shape. */
static int normalize_items(const struct shape *s, jv v, const struct at *at, jv *out,
			   struct shape_error *err)
{
	jv result = jv_invalid();
	int is_array = s->kind == SK_ARRAY;
	int n = is_array ? jv_array_length(jv_copy(v)) : 0;
	int iter = is_array ? 0 : jv_object_iter(v);

	for (int i = 0; is_array ? i < n : jv_object_iter_valid(v, iter); i++) {
		jv key = is_array ? jv_null() : jv_object_iter_key(v, iter);
		jv val = is_array ? jv_array_get(jv_copy(v), i) : jv_object_iter_value(v, iter);
		const struct at here = { at, is_array ? NULL : jv_string_value(key), i };
		jv norm;
		int rc = normalize(s->items, val, &here, &norm, err);

		if (rc < 0) {
			jv_free(key);
			jv_free(val);
			jv_free(result);
			return -1;
		}
		add_member(&result, v, i, key, rc ? norm : jv_copy(val), rc);
		jv_free(val);
		if (!is_array)
			iter = jv_object_iter_next(v, iter);
	}
	if (!jv_is_valid(result))
		return 0;
	*out = result;
	return 1;
}

/* Whether an item of the list v (borrowed) repeats an earlier item's
 * unique key: -1 with why filled.  One pass, the keys seen kept in an
 * object (a hash table): comparing every pair made 20,000 probes take
 * minutes. */
static int check_unique(const struct unique_items *u, jv v, char *why, size_t whylen)
{
	jv seen = jv_object();
	int rc = 0;

	jv_array_foreach(v, i, item) {
		jv id = jv_object_get(item, jv_string(u->key));
		if (rc == 0 && jv_get_kind(id) == JV_KIND_STRING) {
			if (jv_object_has(jv_copy(seen), jv_copy(id))) {
				snprintf(why, whylen, "%s must be unique: \"%s\" repeats", u->name,
					 jv_string_value(id));
				rc = -1;
			} else
				seen = jv_object_set(seen, jv_copy(id), jv_true());
		}
		jv_free(id);
	}
	jv_free(seen);
	return rc;
}

static const struct shape *chosen_alternative(const struct shape *s, jv v)
{
	const struct alternative *a = s->alternatives;

	for (; a->shape; a++) {
		if (!a->key)
			return a->shape;
		jv has = jv_object_get(jv_copy(v), jv_string(a->key));
		int present = jv_is_valid(has);
		jv_free(has);
		if (present)
			return a->shape;
	}
	return NULL;
}

/* The object rules' reader of a jv (borrowed): a member's string stays
 * alive with the object that holds it. */
static jv rule_member(const void *v, const char *key)
{
	return jv_object_get(jv_copy(*(const jv *)v), jv_string(key));
}

static const char *string_of(jv s, size_t *n)
{
	if (jv_get_kind(s) != JV_KIND_STRING)
		return NULL;
	*n = (size_t)jv_string_length_bytes(jv_copy(s));
	return jv_string_value(s);
}

static const char *rule_text(const void *v, const char *key, size_t *n)
{
	jv member = rule_member(v, key);
	const char *s = string_of(member, n);

	jv_free(member);
	return s;
}

static int rule_is_set(const void *v, const char *key)
{
	jv member = rule_member(v, key);
	int set = jv_is_valid(member) && jv_get_kind(member) != JV_KIND_NULL;

	jv_free(member);
	return set;
}

static const char *rule_item(const void *v, const char *key, size_t i, size_t *n)
{
	jv list = key ? rule_member(v, key) : jv_copy(*(const jv *)v);
	const char *s = NULL;

	if (jv_get_kind(list) == JV_KIND_ARRAY && i < (size_t)jv_array_length(jv_copy(list))) {
		jv item = jv_array_get(jv_copy(list), (int)i);
		s = string_of(item, n);
		jv_free(item);
	}
	jv_free(list);
	return s;
}

const struct rule_reader shape_jv_reader = { rule_text, rule_is_set, rule_item };

static int normalize(const struct shape *s, jv v, const struct at *at, jv *out,
		     struct shape_error *err)
{
	jv result = jv_invalid();
	int rc = 0;

	if (jv_get_kind(v) == JV_KIND_NULL && (s->flags & SHAPE_NULLABLE))
		return 0;
	if (!kind_matches(s->kind, v))
		return fail(err, at, "must be %s%s, not %s",
			    s->expect ? s->expect : kind_name(s->kind),
			    s->flags & SHAPE_NULLABLE ? " or null" : "",
			    jv_kind_desc(v));
	if (check_bounds(s, v, at, err) != 0)
		return -1;
	switch (s->kind) {
	case SK_OBJECT:
		rc = normalize_object(s, v, at, &result, err);
		break;
	case SK_ARRAY:
	case SK_MAP:
		rc = normalize_items(s, v, at, &result, err);
		break;
	case SK_UNION: {
		const struct shape *alt = chosen_alternative(s, v);
		if (!alt)
			return fail(err, at, "must be %s",
				    s->expect ? s->expect : "one of its kinds");
		rc = normalize(alt, v, at, &result, err);
		break;
	}
	default:
		break;
	}
	if (rc < 0)
		return -1;
	jv checked = rc ? result : v;
	if ((s->unique && check_unique(s->unique, checked, err->why, sizeof err->why)) ||
	    (s->check && s->check((struct rule_value){ &shape_jv_reader, &checked }, err->why,
				  sizeof err->why) != 0) ||
	    (s->check_text &&
	     s->check_text(jv_string_value(v), (size_t)jv_string_length_bytes(jv_copy(v)),
			   err->why, sizeof err->why) != 0)) {
		path_write(err, at);
		jv_free(result);
		return -1;
	}
	if (rc)
		*out = result;
	return rc;
}

int shape_normalize(const struct shape *s, jv v, jv *out, struct shape_error *err)
{
	jv norm;
	int rc = normalize(s, v, NULL, &norm, err);

	if (rc < 0)
		return -1;
	*out = rc ? norm : jv_copy(v);
	return 0;
}
