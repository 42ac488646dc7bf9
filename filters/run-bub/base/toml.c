#include "base/toml.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Arrays recurse once per level: hostile nesting ends here, not in a stack
 * overflow. No task.toml needs more than two. */
#define MAX_ARRAY_DEPTH 64

struct cursor {
	const char *p;
	const char *file;
	int line;
	int depth; /* arrays open around the value being parsed */
	struct pc_err *e;
};

static void skip_space(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static int bad(struct cursor *c, const char *what)
{
	return pc_fail(c->e, "%s:%d: unsupported or invalid TOML: %s", c->file, c->line, what);
}

static int parse_string(struct cursor *c, jv *out)
{
	char quote = *c->p++;
	struct sbuf b = { 0 };

	while (*c->p && *c->p != quote && *c->p != '\n') {
		if (quote == '"' && *c->p == '\\') {
			c->p++;
			char esc = *c->p++;
			const char *map = strchr("n\nt\tr\r\"\"\\\\", esc);
			if (!esc || !map || (map - "n\nt\tr\r\"\"\\\\") % 2) {
				free(sbuf_take(&b));
				return bad(c, "string escape");
			}
			sbuf_addn(&b, map + 1, 1);
		} else
			sbuf_addn(&b, c->p++, 1);
	}
	if (*c->p != quote) {
		free(sbuf_take(&b));
		return bad(c, "unterminated string");
	}
	c->p++;
	char *s = sbuf_take(&b);
	*out = jv_string(s);
	free(s);
	return 0;
}

static int parse_value(struct cursor *c, jv *out);

static int parse_array(struct cursor *c, jv *out)
{
	jv arr = jv_array();

	c->p++;
	for (;;) {
		skip_space(c);
		if (*c->p == ']') {
			c->p++;
			*out = arr;
			return 0;
		}
		jv item;
		if (parse_value(c, &item) != 0) {
			jv_free(arr);
			return -1;
		}
		arr = jv_array_append(arr, item);
		skip_space(c);
		if (*c->p == ',')
			c->p++;
		else if (*c->p != ']') {
			jv_free(arr);
			return bad(c, "array (one line, comma-separated)");
		}
	}
}

static int parse_value(struct cursor *c, jv *out)
{
	char *end;

	if (*c->p == '"' || *c->p == '\'')
		return parse_string(c, out);
	if (*c->p == '[') {
		if (c->depth >= MAX_ARRAY_DEPTH)
			return bad(c, "arrays nested deeper than 64 levels");
		c->depth++;
		int rc = parse_array(c, out);
		c->depth--;
		return rc;
	}
	if (!strncmp(c->p, "true", 4) || !strncmp(c->p, "false", 5)) {
		int t = *c->p == 't';
		c->p += t ? 4 : 5;
		*out = jv_bool(t);
		return 0;
	}
	double x = strtod(c->p, &end);
	if (end == c->p)
		return bad(c, "value");
	c->p = end;
	*out = jv_number(x);
	return 0;
}

static int parse_key(struct cursor *c, jv *path)
{
	*path = jv_array();
	for (;;) {
		skip_space(c);
		const char *start = c->p;
		while (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '-')
			c->p++;
		if (c->p == start) {
			jv_free(*path);
			return bad(c, "key");
		}
		*path = jv_array_append(*path, jv_string_sized(start, (int)(c->p - start)));
		skip_space(c);
		if (*c->p != '.')
			return 0;
		c->p++;
	}
}

static int line_end(struct cursor *c)
{
	skip_space(c);
	if (*c->p == '#')
		while (*c->p && *c->p != '\n')
			c->p++;
	if (*c->p && *c->p != '\n' && *c->p != '\r')
		return bad(c, "trailing characters");
	return 0;
}

/* The path of key parts in doc: a part naming an array of tables means its
 * last table, so [steps.agent] after [[steps]] belongs to that step. */
static jv resolve(jv doc, jv parts)
{
	jv path = jv_array();

	jv_array_foreach(parts, i, part) {
		path = jv_array_append(path, part);
		jv at = jv_getpath(jv_copy(doc), jv_copy(path));
		if (jv_get_kind(at) == JV_KIND_ARRAY && jv_array_length(jv_copy(at)) > 0)
			path = jv_array_append(path, jv_number(jv_array_length(jv_copy(at)) - 1));
		jv_free(at);
	}
	jv_free(parts);
	return path;
}

/* [a.b] or [[a]]: returns the path new keys go under. */
static int parse_header(struct cursor *c, jv *doc, jv *table)
{
	int array = c->p[1] == '[';
	jv path, parts;

	c->p += array ? 2 : 1;
	if (parse_key(c, &parts) != 0)
		return -1;
	/* the last part is the table itself: [[a]] appends to a, it does not
	 * reopen a's last table */
	jv last = jv_array_get(jv_copy(parts), jv_array_length(jv_copy(parts)) - 1);
	path = jv_array_append(
		resolve(*doc, jv_array_slice(parts, 0, jv_array_length(jv_copy(parts)) - 1)), last);
	if (*c->p != ']' || (array && c->p[1] != ']')) {
		jv_free(path);
		return bad(c, "table header");
	}
	c->p += array ? 2 : 1;
	jv_free(*table);
	if (array) {
		jv list = jv_getpath(jv_copy(*doc), jv_copy(path));
		int n = jv_get_kind(list) == JV_KIND_ARRAY ? jv_array_length(jv_copy(list)) : 0;
		jv_free(list);
		*doc = jv_setpath(*doc, jv_array_append(jv_copy(path), jv_number(n)), jv_object());
		*table = jv_array_append(path, jv_number(n));
	} else {
		*doc = jv_setpath(*doc, jv_copy(path), jv_object());
		*table = path;
	}
	if (!jv_is_valid(*doc)) {
		jv_free(*doc);
		*doc = jv_object();
		return bad(c, "table header (a table cannot extend a value)");
	}
	return line_end(c);
}

static int parse_document(struct cursor *c, jv *out)
{
	jv doc = jv_object(), table = jv_array();

	for (; *c->p; c->line++) {
		skip_space(c);
		int rc = 0;
		if (*c->p == '[')
			rc = parse_header(c, &doc, &table);
		else if (*c->p && *c->p != '#' && *c->p != '\n' && *c->p != '\r') {
			jv key, val;
			rc = parse_key(c, &key);
			if (rc == 0 && *c->p != '=') {
				jv_free(key);
				rc = bad(c, "expected '='");
			} else if (rc == 0) {
				c->p++;
				skip_space(c);
				if ((rc = parse_value(c, &val)) != 0)
					jv_free(key);
				else {
					jv full = jv_array_concat(jv_copy(table), key);
					doc = jv_setpath(doc, full, val);
					rc = line_end(c);
				}
			}
		}
		if (rc != 0) {
			jv_free(doc);
			jv_free(table);
			return -1;
		}
		while (*c->p && *c->p != '\n')
			c->p++;
		if (*c->p)
			c->p++;
	}
	jv_free(table);
	*out = doc;
	return 0;
}

int toml_load(const char *path, jv *out, struct pc_err *e)
{
	FILE *f = fopen(path, "rb");
	struct sbuf b = { 0 };
	char chunk[4096];
	size_t n;

	if (!f)
		return pc_fail_errno(e, "%s: cannot open", path);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		sbuf_addn(&b, chunk, n);
	fclose(f);
	char *text = sbuf_take(&b);
	struct cursor c = { .p = text, .file = path, .line = 1, .e = e };
	int rc = parse_document(&c, out);
	free(text);
	return rc;
}

/* ---- writing ---- */

static void dump_key(struct sbuf *b, const char *key)
{
	static const char bare_chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
	size_t bare = strspn(key, bare_chars);

	if (*key && !key[bare])
		sbuf_add(b, key);
	else
		sbuf_addf(b, "\"%s\"", key);
}

static void dump_scalar(struct sbuf *b, jv v)
{
	if (jv_get_kind(v) == JV_KIND_STRING) {
		sbuf_add(b, "\"");
		for (const char *p = jv_string_value(v); *p; p++) {
			const char *esc = strchr("\\\"\n\t\r", *p);
			if (esc)
				sbuf_addf(b, "\\%c", "\\\"ntr"[esc - "\\\"\n\t\r"]);
			else
				sbuf_addn(b, p, 1);
		}
		sbuf_add(b, "\"");
	} else if (jv_get_kind(v) == JV_KIND_ARRAY) {
		sbuf_add(b, "[");
		jv_array_foreach(v, i, item) {
			sbuf_add(b, i ? ", " : "");
			dump_scalar(b, item);
			jv_free(item);
		}
		sbuf_add(b, "]");
	} else {
		jv text = jv_dump_string(jv_copy(v), 0);
		sbuf_add(b, jv_string_value(text));
		jv_free(text);
	}
}

static int is_table_array(jv v)
{
	int tables = jv_get_kind(v) == JV_KIND_ARRAY && jv_array_length(jv_copy(v)) > 0;

	if (tables)
		jv_array_foreach(v, i, item) {
			tables = tables && jv_get_kind(item) == JV_KIND_OBJECT;
			jv_free(item);
		}
	return tables;
}

static void dump_table(struct sbuf *b, const char *path, jv table)
{
	for (int pass = 0; pass < 3; pass++)
		jv_object_foreach(table, key, v) {
			int kind = jv_get_kind(v) == JV_KIND_OBJECT ? 1 : is_table_array(v) ? 2
											    : 0;
			if (kind == pass) {
				struct sbuf name = { 0 };
				sbuf_addf(&name, "%s%s", path, *path ? "." : "");
				dump_key(&name, jv_string_value(key));
				char *sub = sbuf_take(&name);
				if (pass == 0) {
					dump_key(b, jv_string_value(key));
					sbuf_add(b, " = ");
					dump_scalar(b, v);
					sbuf_add(b, "\n");
				} else if (pass == 1) {
					sbuf_addf(b, "\n[%s]\n", sub);
					dump_table(b, sub, v);
				} else
					jv_array_foreach(v, i, item) {
						sbuf_addf(b, "\n[[%s]]\n", sub);
						dump_table(b, sub, item);
						jv_free(item);
					}
				free(sub);
			}
			jv_free(key);
			jv_free(v);
		}
}

char *toml_dump(jv doc)
{
	struct sbuf b = { 0 };

	dump_table(&b, "", doc);
	return sbuf_take(&b);
}
