#include "yamldoc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "text.h"

/* Deeper than any document of pc-e2e's needs: the loader recurses once per
 * level, so hostile nesting must end here, not in a stack overflow. */
#define MAX_DEPTH 256

struct loader {
	yaml_parser_t parser;
	const char *file;
	jv marks;
	jv anchors;
	int depth; /* collections open around the node being parsed */
	struct pc_err *e;
};

static int parser_error(struct loader *l)
{
	yaml_parser_t *p = &l->parser;

	return pc_fail(l->e, "%s:%zu:%zu: invalid YAML: %s%s%s", l->file,
		       p->problem_mark.line + 1, p->problem_mark.column + 1,
		       p->problem ? p->problem : "syntax error",
		       p->context ? " " : "", p->context ? p->context : "");
}

static int next_event(struct loader *l, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&l->parser, ev))
		return parser_error(l);
	return 0;
}

static int matches(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(s, *words))
			return 1;
	return 0;
}

/* Digits (and YAML 1.1 '_' separators) of the given base, at least one. */
static int all_digits(const char *s, int base)
{
	int any = 0;

	for (; *s; s++) {
		if (*s == '_')
			continue;
		int d = isdigit((unsigned char)*s)    ? *s - '0'
			: isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10
						      : 99;
		if (d >= base)
			return 0;
		any = 1;
	}
	return any;
}

/* In a double, as every number ends up in a jv: exact up to 2^53, rounded
 * beyond, where a long long would overflow (undefined behaviour) and wrap,
 * letting 18446744073709551626 pass as 10. */
static double parse_int_digits(const char *s, int base)
{
	double v = 0;

	for (; *s; s++)
		if (*s != '_')
			v = v * base + (isdigit((unsigned char)*s)
						? *s - '0'
						: tolower((unsigned char)*s) - 'a' + 10);
	return v;
}

static int resolve_int(const char *s, jv *out)
{
	int neg = *s == '-';
	const char *p = s + (*s == '-' || *s == '+');
	int base = 10;

	if (p[0] == '0' && p[1] == 'x')
		base = 16, p += 2;
	else if (p[0] == '0' && p[1] == 'b')
		base = 2, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, p += 1;
	if (!all_digits(p, base))
		return 0;
	double v = parse_int_digits(p, base);
	*out = jv_number(neg ? -v : v);
	return 1;
}

/* PyYAML's float: a '.' is required; optional exponent with a sign. */
static int resolve_float(const char *s, jv *out)
{
	static const char *const inf[] = { ".inf", ".Inf", ".INF", NULL };
	static const char *const nan_words[] = { ".nan", ".NaN", ".NAN", NULL };
	const char *p = s + (*s == '-' || *s == '+');
	struct sbuf clean = { 0 };
	int seen_dot = 0, seen_digit = 0;

	if (matches(p, inf)) {
		*out = jv_number(*s == '-' ? -INFINITY : INFINITY);
		return 1;
	}
	if (matches(s, nan_words)) {
		*out = jv_number(NAN);
		return 1;
	}
	for (const char *q = p; *q && *q != 'e' && *q != 'E'; q++) {
		if (*q == '.')
			seen_dot++;
		else if (isdigit((unsigned char)*q))
			seen_digit = 1;
		else if (*q != '_')
			return 0;
	}
	const char *exp = strpbrk(p, "eE");
	if (seen_dot != 1 || (!seen_digit && p[0] == '.' && !p[1]))
		return 0;
	if (exp && !((exp[1] == '+' || exp[1] == '-') && all_digits(exp + 2, 10)))
		return 0;
	for (const char *q = s; *q; q++)
		if (*q != '_')
			sbuf_addn(&clean, q, 1);
	char *text = sbuf_take(&clean);
	*out = jv_number(strtod(text, NULL));
	free(text);
	return 1;
}

static jv resolve_scalar(const yaml_event_t *ev)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const trues[] = { "yes", "Yes", "YES", "true", "True",
					     "TRUE", "on", "On", "ON", NULL };
	static const char *const falses[] = { "no", "No", "NO", "false", "False",
					      "FALSE", "off", "Off", "OFF", NULL };
	const char *s = (const char *)ev->data.scalar.value;
	const char *tag = (const char *)ev->data.scalar.tag;
	jv v;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    (tag && !strcmp(tag, YAML_STR_TAG)))
		return jv_string_sized(s, (int)ev->data.scalar.length);
	if (matches(s, nulls))
		return jv_null();
	if (matches(s, trues))
		return jv_true();
	if (matches(s, falses))
		return jv_false();
	if (resolve_int(s, &v) || resolve_float(s, &v))
		return v;
	return jv_string_sized(s, (int)ev->data.scalar.length);
}

static void mark(struct loader *l, const char *path, yaml_mark_t m)
{
	l->marks = jv_object_set(l->marks, jv_string(path),
				 JV_ARRAY(jv_number((double)m.line + 1),
					  jv_number((double)m.column + 1)));
}

static int parse_node(struct loader *l, yaml_event_t *ev, const char *path, jv *out);

static void remember_anchor(struct loader *l, const yaml_char_t *anchor, jv v)
{
	if (anchor)
		l->anchors = jv_object_set(l->anchors, jv_string((const char *)anchor),
					   jv_copy(v));
}

static char *child_path(const char *path, const char *key, int index)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, path);
	if (key)
		sbuf_addf(&b, "%s%s", *path ? "." : "", key);
	else
		sbuf_addf(&b, "[%d]", index);
	return sbuf_take(&b);
}

/* Merge key "<<": its mapping (or list of mappings) supplies the keys the
 * mapping does not set itself, as in PyYAML. */
static int take_merge(struct loader *l, jv value, jv *merged, yaml_mark_t at)
{
	jv sources = jv_get_kind(value) == JV_KIND_ARRAY ? value : JV_ARRAY(value);
	int rc = 0;

	jv_array_foreach(sources, i, src) {
		if (jv_get_kind(src) != JV_KIND_OBJECT)
			rc = pc_fail(l->e,
				     "%s:%zu:%zu: a merge key (<<) needs a mapping or a list of mappings",
				     l->file, at.line + 1, at.column + 1);
		else
			jv_object_foreach(src, k, v) {
				jv seen = jv_object_get(jv_copy(*merged), jv_copy(k));
				if (!jv_is_valid(seen))
					*merged = jv_object_set(*merged, jv_copy(k), jv_copy(v));
				jv_free(seen);
				jv_free(k);
				jv_free(v);
			}
		jv_free(src);
	}
	jv_free(sources);
	return rc;
}

static int parse_mapping(struct loader *l, const char *path, jv *out)
{
	jv map = jv_object(), merged = jv_object();
	yaml_event_t ev;

	for (;;) {
		if (next_event(l, &ev) != 0)
			goto fail;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_mark_t at = ev.start_mark;
		jv key;
		int rc = parse_node(l, &ev, "", &key);
		yaml_event_delete(&ev);
		if (rc != 0)
			goto fail;
		if (jv_get_kind(key) != JV_KIND_STRING) {
			jv_free(key);
			pc_fail(l->e, "%s:%zu:%zu: %s: keys must be strings", l->file,
				at.line + 1, at.column + 1, *path ? path : "document");
			goto fail;
		}
		jv seen = jv_object_get(jv_copy(map), jv_copy(key));
		int dup = jv_is_valid(seen);
		jv_free(seen);
		char *sub = child_path(path, jv_string_value(key), 0);
		if (dup) {
			pc_fail(l->e, "%s:%zu:%zu: %s: duplicate key", l->file,
				at.line + 1, at.column + 1, sub);
			free(sub);
			jv_free(key);
			goto fail;
		}
		mark(l, sub, at);
		jv val;
		if (next_event(l, &ev) != 0) {
			free(sub);
			jv_free(key);
			goto fail;
		}
		rc = parse_node(l, &ev, sub, &val);
		yaml_event_delete(&ev);
		free(sub);
		if (rc != 0) {
			jv_free(key);
			goto fail;
		}
		if (!strcmp(jv_string_value(key), "<<")) {
			jv_free(key);
			if (take_merge(l, val, &merged, at) != 0)
				goto fail;
		} else
			map = jv_object_set(map, key, val);
	}
	jv_object_foreach(merged, k, v) {
		jv seen = jv_object_get(jv_copy(map), jv_copy(k));
		if (jv_is_valid(seen)) {
			jv_free(k);
			jv_free(v);
		} else
			map = jv_object_set(map, k, v);
		jv_free(seen);
	}
	jv_free(merged);
	*out = map;
	return 0;
fail:
	jv_free(map);
	jv_free(merged);
	return -1;
}

static int parse_sequence(struct loader *l, const char *path, jv *out)
{
	jv seq = jv_array();
	yaml_event_t ev;

	for (int i = 0;; i++) {
		if (next_event(l, &ev) != 0)
			goto fail;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		char *sub = child_path(path, NULL, i);
		jv item;
		mark(l, sub, ev.start_mark);
		int rc = parse_node(l, &ev, sub, &item);
		yaml_event_delete(&ev);
		free(sub);
		if (rc != 0)
			goto fail;
		seq = jv_array_append(seq, item);
	}
	*out = seq;
	return 0;
fail:
	jv_free(seq);
	return -1;
}

static int parse_node(struct loader *l, yaml_event_t *ev, const char *path, jv *out)
{
	int rc = 0;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		*out = resolve_scalar(ev);
		remember_anchor(l, ev->data.scalar.anchor, *out);
		return 0;
	case YAML_ALIAS_EVENT: {
		jv v = jv_object_get(jv_copy(l->anchors),
				     jv_string((const char *)ev->data.alias.anchor));
		if (!jv_is_valid(v)) {
			jv_free(v);
			return pc_fail(l->e, "%s:%zu:%zu: unknown alias *%s", l->file,
				       ev->start_mark.line + 1, ev->start_mark.column + 1,
				       (const char *)ev->data.alias.anchor);
		}
		*out = v;
		return 0;
	}
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		if (l->depth >= MAX_DEPTH)
			return pc_fail(l->e, "%s:%zu:%zu: nested deeper than %d levels", l->file,
				       ev->start_mark.line + 1, ev->start_mark.column + 1,
				       MAX_DEPTH);
		l->depth++;
		if (ev->type == YAML_MAPPING_START_EVENT) {
			rc = parse_mapping(l, path, out);
			if (rc == 0)
				remember_anchor(l, ev->data.mapping_start.anchor, *out);
		} else {
			rc = parse_sequence(l, path, out);
			if (rc == 0)
				remember_anchor(l, ev->data.sequence_start.anchor, *out);
		}
		l->depth--;
		return rc;
	default:
		return pc_fail(l->e, "%s:%zu:%zu: unexpected YAML event", l->file,
			       ev->start_mark.line + 1, ev->start_mark.column + 1);
	}
}

/* Expect an event of the given type (consumed). */
static int expect(struct loader *l, yaml_event_type_t type, yaml_event_t *ev)
{
	if (next_event(l, ev) != 0)
		return -1;
	if (ev->type != type) {
		yaml_event_delete(ev);
		return -2;
	}
	return 0;
}

static int load_document(struct loader *l, jv *out)
{
	yaml_event_t ev;
	int rc;

	if (expect(l, YAML_STREAM_START_EVENT, &ev) != 0)
		return -1;
	yaml_event_delete(&ev);
	rc = expect(l, YAML_DOCUMENT_START_EVENT, &ev);
	if (rc == -2)
		return pc_fail(l->e, "%s: empty YAML file", l->file);
	if (rc != 0)
		return -1;
	yaml_event_delete(&ev);
	if (next_event(l, &ev) != 0)
		return -1;
	rc = parse_node(l, &ev, "", out);
	yaml_event_delete(&ev);
	if (rc != 0)
		return -1;
	rc = expect(l, YAML_DOCUMENT_END_EVENT, &ev);
	if (rc == 0) {
		yaml_event_delete(&ev);
		rc = expect(l, YAML_STREAM_END_EVENT, &ev);
		if (rc == 0)
			yaml_event_delete(&ev);
	}
	if (rc == -2)
		rc = pc_fail(l->e, "%s: more than one YAML document", l->file);
	if (rc != 0)
		jv_free(*out);
	return rc;
}

int yamldoc_load(const char *path, jv *out, struct yaml_marks *marks,
		 struct pc_err *e)
{
	struct loader l = { .file = path, .e = e };
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f)
		return pc_fail_errno(e, "%s: cannot open", path);
	yaml_parser_initialize(&l.parser);
	yaml_parser_set_input_file(&l.parser, f);
	l.marks = jv_object();
	l.anchors = jv_object();
	rc = load_document(&l, out);
	yaml_parser_delete(&l.parser);
	fclose(f);
	jv_free(l.anchors);
	if (rc != 0) {
		jv_free(l.marks);
		return -1;
	}
	marks->by_path = l.marks;
	return 0;
}

void yaml_marks_find(const struct yaml_marks *m, const char *path, int *line,
		     int *column)
{
	char *p = pc_xstrdup(path);

	*line = *column = 1;
	for (;;) {
		jv at = jv_object_get(jv_copy(m->by_path), jv_string(p));
		if (jv_get_kind(at) == JV_KIND_ARRAY) {
			*line = (int)jv_number_value(jv_array_get(jv_copy(at), 0));
			*column = (int)jv_number_value(jv_array_get(jv_copy(at), 1));
			jv_free(at);
			break;
		}
		jv_free(at);
		char *cut = strrchr(p, '.'), *bracket = strrchr(p, '[');
		if (bracket && (!cut || bracket > cut))
			cut = bracket;
		if (!cut)
			break;
		*cut = '\0';
	}
	free(p);
}

void yaml_marks_free(struct yaml_marks *m)
{
	jv_free(m->by_path);
}
