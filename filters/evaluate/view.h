/* view: a replay as pc-evaluate reads it, parsed once by yyjson and read
 * as the normalized document it stands for (shape.h): a field the text
 * leaves out reads as its shape's default, a union as the kind its keys
 * choose, and a value is written in the normalized form pc-e2e's other
 * filters write (declared key order, defaults filled, numbers and strings
 * as jq writes them).  No jv is built to read or write a replay.
 *
 * A view is a value and the shape it has at its place in the document;
 * an absent value with no default reads as null.  Views borrow from the
 * yyjson document and from struct view_defaults, which outlive them.
 */
#ifndef PC_EVALUATE_VIEW_H
#define PC_EVALUATE_VIEW_H

#include <jv.h>
#include <stddef.h>
#include <yyjson.h>

#include "json_out.h"
#include "shape.h"

/* The parsed default_json of every optional field of a document type;
 * owned by main, built once by view_defaults_init. */
struct view_defaults {
	const struct field **fields; /* owned array; the fields borrowed */
	yyjson_doc **values;         /* owned: each field's default, parsed */
	size_t n, cap;
};

void view_defaults_init(struct view_defaults *d, const struct shape *doc);
void view_defaults_free(struct view_defaults *d);

struct view {
	yyjson_val *v;                   /* NULL: absent, reads as null */
	const struct shape *s;           /* NULL: any value */
	const struct view_defaults *dfl; /* borrowed */
};

/* s itself, or for a union the kind v's keys choose, as shape.c chooses. */
const struct shape *view_resolve(const struct shape *s, yyjson_val *v);

/* The field of object shape s named by the n bytes at key, or NULL; the
 * search starts at from (a field of s, or NULL for the first): a text in
 * declaration order finds each field where it looks first. */
const struct field *view_field(const struct shape *s, const char *key, size_t n,
			       const struct field *from);

/* The document's root, of shape doc. */
struct view view_root(yyjson_doc *doc, const struct shape *doc_shape,
		      const struct view_defaults *d);

/* The field key of an object (its default when absent); null otherwise. */
struct view view_get(struct view obj, const char *key);
/* The value at a dotted path ("task.dataset.checksum"), as view_get. */
struct view view_at(struct view v, const char *dotted);

int view_is_null(struct view v);
int view_is_true(struct view v);
int view_is_object(struct view v);
/* The string's bytes and *n, or NULL (and *n 0) when it is no string. */
const char *view_str(struct view v, size_t *n);
/* The string as a C string (to its first NUL, as jv_string_value reads
 * it), or NULL when it is no string. */
const char *view_cstr(struct view v);
/* Whether v is the string want, read as a C string. */
int view_str_is(struct view v, const char *want);
/* Whether v is a number, and its value as jq holds it in *x. */
int view_num(struct view v, double *x);
/* The number at v, or fallback when it is none. */
double view_num_or(struct view v, double fallback);

/* Items of an array (0 for anything else), walked by view_next. */
struct view_items {
	yyjson_arr_iter it;
	struct view parent;
	size_t n;
};
struct view_items view_items(struct view arr);
/* 1 with *item set while items remain. */
int view_next(struct view_items *items, struct view *item);

/* Members of a map (or of any object) in the text's order. */
struct view_members {
	yyjson_obj_iter it;
	struct view parent;
	size_t n;
};
struct view_members view_members(struct view map);
int view_next_member(struct view_members *m, const char **key, size_t *key_len,
		     struct view *value);

/* v as its normalized document writes it. */
void view_write(struct json_out *o, struct view v, enum json_layout how);

/* v as the jv shape_normalize would give (owned). */
jv view_to_jv(struct view v);

#endif
