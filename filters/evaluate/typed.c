#include "typed.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

static const struct typed_shape *compile(struct typed_doc *t, const struct shape *s);

static yyjson_val *parse_default(struct typed_doc *t, const char *json)
{
	if (t->n_defaults == t->cap_defaults) {
		t->cap_defaults = t->cap_defaults * 2 + 16;
		t->defaults = pc_xrealloc(t->defaults, t->cap_defaults * sizeof *t->defaults);
	}
	yyjson_doc *d = yyjson_read(json, strlen(json), 0);
	t->defaults[t->n_defaults++] = d;
	return yyjson_doc_get_root(d);
}

/* jq's key order, the names' bytes: an insertion sort of a few names. */
static void sort_fields(struct typed_shape *c)
{
	c->sorted = pc_xmalloc((c->n_fields ? c->n_fields : 1) * sizeof *c->sorted);
	for (size_t i = 0; i < c->n_fields; i++)
		c->sorted[i] = i;
	for (size_t i = 1; i < c->n_fields; i++)
		for (size_t j = i; j > 0 && strcmp(c->fields[c->sorted[j - 1]].name,
						   c->fields[c->sorted[j]].name) > 0;
		     j--) {
			size_t k = c->sorted[j];
			c->sorted[j] = c->sorted[j - 1];
			c->sorted[j - 1] = k;
		}
}

/* Open addressing at a load of at most one half. */
static void hash_fields(struct typed_shape *c)
{
	c->mask = 7;
	while (c->mask + 1 < c->n_fields * 2)
		c->mask = c->mask * 2 + 1;
	c->buckets = pc_xmalloc((c->mask + 1) * sizeof *c->buckets);
	memset(c->buckets, 0, (c->mask + 1) * sizeof *c->buckets);
	for (size_t i = 0; i < c->n_fields; i++) {
		size_t b = typed_bucket(c->fields[i].name, c->fields[i].len, c->mask);
		while (c->buckets[b])
			b = (b + 1) & c->mask;
		c->buckets[b] = i + 1;
	}
}

static void compile_fields(struct typed_doc *t, struct typed_shape *c)
{
	const struct field *decl = c->decl->fields;

	while (decl[c->n_fields].name)
		c->n_fields++;
	c->fields = pc_xmalloc((c->n_fields ? c->n_fields : 1) * sizeof *c->fields);
	for (size_t i = 0; i < c->n_fields; i++) {
		const struct field *f = &decl[i];
		c->fields[i] = (struct typed_field){
			f->name,
			strlen(f->name),
			f,
			NULL,
			f->default_json ? parse_default(t, f->default_json) : NULL,
		};
	}
	for (size_t i = 0; i < c->n_fields; i++)
		c->fields[i].shape = compile(t, decl[i].shape);
	sort_fields(c);
	hash_fields(c);
}

static void compile_alternatives(struct typed_doc *t, struct typed_shape *c)
{
	const struct alternative *decl = c->decl->alternatives;

	while (decl[c->n_alternatives].shape)
		c->n_alternatives++;
	c->alternatives = pc_xmalloc((c->n_alternatives + 1) * sizeof *c->alternatives);
	for (size_t i = 0; i < c->n_alternatives; i++)
		c->alternatives[i] = (struct typed_alternative){ decl[i].key,
								 compile(t, decl[i].shape) };
}

/* s compiled, once: a shape met again (or inside itself) is the one
 * compiled first. */
static const struct typed_shape *compile(struct typed_doc *t, const struct shape *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < t->n_shapes; i++)
		if (t->shapes[i]->decl == s)
			return t->shapes[i];
	if (t->n_shapes == t->cap_shapes) {
		t->cap_shapes = t->cap_shapes * 2 + 32;
		t->shapes = pc_xrealloc(t->shapes, t->cap_shapes * sizeof *t->shapes);
	}
	struct typed_shape *c = pc_xmalloc(sizeof *c);
	t->shapes[t->n_shapes++] = c;
	*c = (struct typed_shape){ .decl = s };
	c->items = compile(t, s->items);
	if (s->fields)
		compile_fields(t, c);
	if (s->alternatives)
		compile_alternatives(t, c);
	return c;
}

void typed_compile(struct typed_doc *t, const struct shape *doc)
{
	*t = (struct typed_doc){ 0 };
	t->root = compile(t, doc);
}

void typed_free(struct typed_doc *t)
{
	for (size_t i = 0; i < t->n_shapes; i++) {
		free(t->shapes[i]->fields);
		free(t->shapes[i]->sorted);
		free(t->shapes[i]->buckets);
		free(t->shapes[i]->alternatives);
		free(t->shapes[i]);
	}
	for (size_t i = 0; i < t->n_defaults; i++)
		yyjson_doc_free(t->defaults[i]);
	free(t->shapes);
	free(t->defaults);
	*t = (struct typed_doc){ 0 };
}

const struct typed_shape *typed_resolve(const struct typed_shape *s, yyjson_val *v)
{
	while (s && s->decl->kind == SK_UNION) {
		const struct typed_alternative *a = s->alternatives;
		while (a < s->alternatives + s->n_alternatives && a->key &&
		       !(yyjson_is_obj(v) && yyjson_obj_get(v, a->key)))
			a++;
		s = a < s->alternatives + s->n_alternatives ? a->shape : NULL;
	}
	return s;
}
