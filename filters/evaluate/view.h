/* view: a replay as pc-evaluate reads it, parsed once by yyjson and read
 * as the normalized document it stands for (shape.h): a field the text
 * leaves out reads as its shape's default, a union as the kind its keys
 * choose, and a value is written in the normalized form pc-e2e's other
 * filters write (declared key order, defaults filled, numbers and strings
 * as jq writes them).  No jv is built to read or write a replay.
 *
 * A view is a value and its compiled shape (typed.h) at its place in the
 * document; an absent value with no default reads as null.  A document's
 * index says where each declared object's fields lie, so a field is read
 * at once rather than searched for.  Views borrow from the yyjson
 * document, the compiled shapes and the index, which outlive them.
 */
#ifndef PC_EVALUATE_VIEW_H
#define PC_EVALUATE_VIEW_H

#include <jv.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <yyjson.h>

#include "decimal.h"
#include "json_out.h"
#include "typed.h"

/* Where the fields of each declared object of one document lie: accept
 * (accept.h) fills it as it matches members to fields.  Owned by main,
 * reused from document to document; an object it does not hold (of a map,
 * of any value, or of a document not indexed) is searched by name. */
struct view_index {
	yyjson_val *first; /* the document's values, contiguous */
	size_t n_values;
	uint32_t *fields_at; /* per value: 1 + its first slot, or 0 (owned) */
	yyjson_val **slots;  /* per field of each object: its member or NULL (owned) */
	size_t n_slots, cap_values, cap_slots;
};

/* Empty, for doc's values (NULL: for none). */
void view_index_reset(struct view_index *x, yyjson_doc *doc);
void view_index_free(struct view_index *x);
/* The first of n slots for the fields of obj (a value of the document),
 * each NULL until set. */
size_t view_index_add(struct view_index *x, yyjson_val *obj, size_t n);

struct view {
	yyjson_val *v;                  /* NULL: absent, reads as null */
	const struct typed_shape *s;    /* NULL: any value */
	const struct view_index *index; /* borrowed */
};

/* The text a document's views were read from, as it was written, and
 * whether they read that text itself (yyjson's reading, whose numbers
 * keep their literal's kind) or the normalized form libjq gave of it. */
struct view_text {
	const char *text; /* borrowed */
	size_t len;
	int as_written;
};

/* The document's root, of compiled shape doc. */
struct view view_root(yyjson_doc *doc, const struct typed_shape *doc_shape,
		      const struct view_index *x);

/* The field key of an object (its default when absent); null otherwise. */
struct view view_getn(struct view obj, const char *key, size_t n);
/* Inline, so that a named key's length is the compiler's to count. */
static inline struct view view_get(struct view obj, const char *key)
{
	return view_getn(obj, key, strlen(key));
}
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
/* How the text v reads wrote its number, as far as Python tells numbers
 * apart (literal.h), when the view alone knows it: 1 with *lit the digits
 * of an integer (written into buf, after a '-'), or NULL for a real, or
 * for no number at all.  0 when only the text can say: a real beyond
 * 2^63, whose text may be an integer too long for 64 bits.  yyjson reads
 * every JSON integer that fits 64 bits as an integer, so this is only for
 * a view of the text itself; "-0" reads as 0, which Python prints as 0. */
int view_num_literal(struct view v, char buf[static DECIMAL_MAX], const char **lit, size_t *len);
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
/* An object's member key (json_out_key): v, compact. */
static inline void view_write_member(struct json_out *o, const char *key, struct view v,
				     int *members)
{
	json_out_key(o, key, members);
	view_write(o, v, JSON_COMPACT);
}

/* v as the jv shape_normalize would give (owned). */
jv view_to_jv(struct view v);

#endif
