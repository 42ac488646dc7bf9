/* typed: a document type (shape.h) compiled once for reading yyjson
 * values: each object shape's fields with their names' lengths, shapes and
 * parsed defaults, in declaration order and in jq's key order, and a hash
 * table of their names, so that finding a field is one probe and one
 * comparison, and writing an object in canonical order sorts nothing.
 *
 * The compiled shapes mirror the declared ones, one for each (a shape used
 * in many places is compiled once); a view (view.h) holds one.  All of it
 * is owned by struct typed_doc, which main builds and frees.
 */
#ifndef PC_EVALUATE_TYPED_H
#define PC_EVALUATE_TYPED_H

#include <stddef.h>
#include <string.h>
#include <yyjson.h>

#include "shape.h"

struct typed_shape;

struct typed_field {
	const char *name; /* borrowed from the declaration */
	size_t len;
	const struct field *decl;
	const struct typed_shape *shape;
	yyjson_val *dflt; /* its default_json, parsed (typed_doc owns it); or NULL */
};

struct typed_alternative {
	const char *key; /* NULL: the last, which takes the rest */
	const struct typed_shape *shape;
};

struct typed_shape {
	const struct shape *decl;
	const struct typed_shape *items; /* SK_ARRAY items, SK_MAP values */
	/* SK_OBJECT: the fields, their indexes in jq's key order, and a hash
	 * table of their names (1 + a field's index, or 0) of mask + 1 (a
	 * power of two) buckets; each owned */
	struct typed_field *fields;
	size_t n_fields;
	size_t *sorted;
	size_t *buckets;
	size_t mask;
	struct typed_alternative *alternatives; /* SK_UNION: n_alternatives, owned */
	size_t n_alternatives;
};

/* Every compiled shape of one document type. */
struct typed_doc {
	const struct typed_shape *root;
	struct typed_shape **shapes; /* owned, each owned */
	size_t n_shapes, cap_shapes;
	yyjson_doc **defaults; /* owned: the parsed default_json of every field */
	size_t n_defaults, cap_defaults;
};

/* Compile the document type doc (its tables outlive t). */
void typed_compile(struct typed_doc *t, const struct shape *doc);
void typed_free(struct typed_doc *t);

/* A name's bucket: its length and three of its bytes tell a shape's few
 * names apart well enough, at the cost of a few instructions. */
static inline size_t typed_bucket(const char *key, size_t n, size_t mask)
{
	const unsigned char *k = (const unsigned char *)key;

	return (n * 131 + k[0] * 31 + k[n / 2] * 7 + k[n - 1]) & mask;
}

/* A key the program names is often the declaration's own string (the
 * linker merges equal literals), found without comparing its bytes. */
static inline int typed_is_named(const struct typed_field *f, const char *key, size_t n)
{
	return f->len == n && (f->name == key || !memcmp(f->name, key, n));
}

/* The field of object shape s named by the n bytes at key, or NULL.  The
 * field at hint is looked at first (past the last field: none): a text
 * written in declaration order names the one after the last it named.
 * Inline: a replay's reading looks up some two hundred fields. */
static inline const struct typed_field *typed_field(const struct typed_shape *s, const char *key,
						    size_t n, size_t hint)
{
	if (hint < s->n_fields && typed_is_named(&s->fields[hint], key, n))
		return &s->fields[hint];
	if (!s->buckets || !n)
		return NULL;
	for (size_t b = typed_bucket(key, n, s->mask); s->buckets[b]; b = (b + 1) & s->mask)
		if (typed_is_named(&s->fields[s->buckets[b] - 1], key, n))
			return &s->fields[s->buckets[b] - 1];
	return NULL;
}

/* s itself, or for a union the kind v's keys choose, as shape.c chooses:
 * the first alternative whose key v has. */
const struct typed_shape *typed_resolve(const struct typed_shape *s, yyjson_val *v);

#endif
