#include "shape.h"

#include <ctype.h>
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

static int fail(struct shape_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct shape_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Append ".name" or "[i]" to the path; returns the old length to restore. */
static size_t path_push(struct shape_error *err, const char *name, int index)
{
	size_t old = strlen(err->path);

	if (name)
		snprintf(err->path + old, sizeof err->path - old, "%s%s",
			 old ? "." : "", name);
	else
		snprintf(err->path + old, sizeof err->path - old, "[%d]", index);
	return old;
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

static int check_bounds(const struct shape *s, jv v, struct shape_error *err)
{
	double m;
	const char *unit;

	if (!(s->flags & (SHAPE_MIN | SHAPE_MAX)))
		return 0;
	m = measure(s, v);
	unit = s->kind == SK_STRING ? " characters" : (s->kind == SK_ARRAY ? " items" : "");
	if ((s->flags & SHAPE_MIN) && m < s->min) {
		if (s->flags & SHAPE_MAX)
			return fail(err, "must be between %g and %g%s", s->min, s->max, unit);
		return fail(err, "must be at least %g%s", s->min, unit);
	}
	if ((s->flags & SHAPE_MAX) && m > s->max) {
		if (s->flags & SHAPE_MIN)
			return fail(err, "must be between %g and %g%s", s->min, s->max, unit);
		return fail(err, "must be at most %g%s", s->max, unit);
	}
	return 0;
}

static int normalize_object(const struct shape *s, jv v, jv *out,
			    struct shape_error *err)
{
	jv result = jv_object();

	jv_object_foreach(v, key, val) {
		const struct field *f = s->fields;
		while (f->name && strcmp(f->name, jv_string_value(key)))
			f++;
		if (!f->name) {
			path_push(err, jv_string_value(key), 0);
			jv_free(key);
			jv_free(val);
			jv_free(result);
			return fail(err, "unknown field");
		}
		jv_free(key);
		jv_free(val);
	}
	for (const struct field *f = s->fields; f->name; f++) {
		jv val = jv_object_get(jv_copy(v), jv_string(f->name));
		size_t old = path_push(err, f->name, 0);
		jv norm;

		if (!jv_is_valid(val)) {
			jv_free(val);
			if (!(f->flags & FIELD_OPTIONAL)) {
				jv_free(result);
				return fail(err, "is required");
			}
			val = f->default_json ? jv_parse(f->default_json) : jv_null();
		}
		int rc = shape_normalize(f->shape, val, &norm, err);
		jv_free(val);
		if (rc != 0) {
			jv_free(result);
			return -1;
		}
		err->path[old] = '\0';
		result = jv_object_set(result, jv_string(f->name), norm);
	}
	*out = result;
	return 0;
}

static int normalize_items(const struct shape *s, jv v, jv *out,
			   struct shape_error *err)
{
	int is_map = s->kind == SK_MAP;
	jv result = is_map ? jv_object() : jv_array();

	if (is_map) {
		jv_object_foreach(v, key, val) {
			size_t old = path_push(err, jv_string_value(key), 0);
			jv norm;
			int rc = shape_normalize(s->items, val, &norm, err);
			jv_free(val);
			if (rc != 0) {
				jv_free(key);
				jv_free(result);
				return -1;
			}
			err->path[old] = '\0';
			result = jv_object_set(result, key, norm);
		}
	} else {
		jv_array_foreach(v, idx, item) {
			size_t old = path_push(err, NULL, idx);
			jv norm;
			int rc = shape_normalize(s->items, item, &norm, err);
			jv_free(item);
			if (rc != 0) {
				jv_free(result);
				return -1;
			}
			err->path[old] = '\0';
			result = jv_array_append(result, norm);
		}
	}
	*out = result;
	return 0;
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

int shape_normalize(const struct shape *s, jv v, jv *out, struct shape_error *err)
{
	jv result;

	if (jv_get_kind(v) == JV_KIND_NULL && (s->flags & SHAPE_NULLABLE)) {
		*out = jv_null();
		return 0;
	}
	if (!kind_matches(s->kind, v))
		return fail(err, "must be %s%s, not %s",
			    s->expect ? s->expect : kind_name(s->kind),
			    s->flags & SHAPE_NULLABLE ? " or null" : "",
			    jv_kind_desc(v));
	if (check_bounds(s, v, err) != 0)
		return -1;
	switch (s->kind) {
	case SK_OBJECT:
		if (normalize_object(s, v, &result, err) != 0)
			return -1;
		break;
	case SK_ARRAY:
	case SK_MAP:
		if (normalize_items(s, v, &result, err) != 0)
			return -1;
		break;
	case SK_UNION: {
		const struct shape *alt = chosen_alternative(s, v);
		if (!alt)
			return fail(err, "must be %s", s->expect ? s->expect : "one of its kinds");
		if (shape_normalize(alt, v, &result, err) != 0)
			return -1;
		break;
	}
	default:
		result = jv_copy(v);
	}
	if (s->check && s->check(result, err->why, sizeof err->why) != 0) {
		jv_free(result);
		return -1;
	}
	*out = result;
	return 0;
}

int shape_check_id(jv v, char *why, size_t whylen)
{
	const char *s = jv_string_value(v);

	if (!(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0])))
		goto bad;
	for (const char *p = s; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      *p == '_' || *p == '-'))
			goto bad;
	return 0;
bad:
	snprintf(why, whylen, "must match ^[a-z0-9][a-z0-9_-]*$");
	return -1;
}

int shape_check_hex64(jv v, char *why, size_t whylen)
{
	const char *s = jv_string_value(v);
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if (!(isdigit((unsigned char)s[i]) || (s[i] >= 'a' && s[i] <= 'f')))
			n = 0;
	if (n == 64)
		return 0;
	snprintf(why, whylen, "must be 64 lowercase hex digits (a sha256)");
	return -1;
}

static int digits(const char **p, int n)
{
	for (int i = 0; i < n; i++, (*p)++)
		if (!isdigit((unsigned char)**p))
			return 0;
	return 1;
}

int shape_check_datetime(jv v, char *why, size_t whylen)
{
	const char *p = jv_string_value(v);

	if (!digits(&p, 4) || *p++ != '-' || !digits(&p, 2) || *p++ != '-' ||
	    !digits(&p, 2) || !(*p == 'T' || *p == 't' || *p == ' ') ||
	    (p++, !digits(&p, 2)) || *p++ != ':' || !digits(&p, 2) ||
	    *p++ != ':' || !digits(&p, 2))
		goto bad;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		while (isdigit((unsigned char)*p))
			p++;
	}
	/* a missing offset is accepted on input: Harbor writes some times
	 * naive, and the reference's models accept them */
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		p++;
		if (!digits(&p, 2) || *p++ != ':' || !digits(&p, 2))
			goto bad;
	}
	if (*p == '\0')
		return 0;
bad:
	snprintf(why, whylen, "must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS[.f][Z|±HH:MM])");
	return -1;
}
