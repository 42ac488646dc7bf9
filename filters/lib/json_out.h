/* json_out: JSON text written into a byte buffer, byte for byte as libjq
 * 1.6's jv_dump_string writes it: compact (a stream line), canonical
 * (compact with every object's keys sorted, the form digests are taken of)
 * and indented by two spaces (artifact files).
 *
 * jq's own writer appends each character to a jv string (67 instructions
 * per byte of pc-evaluate's output, and 347 per byte for a sorted dump);
 * these append runs of plain bytes to one buffer the caller owns and
 * reuses, so the cost per byte is a table lookup.
 */
#ifndef PC_JSON_OUT_H
#define PC_JSON_OUT_H

#include <jv.h>
#include <stddef.h>
#include <string.h>

/* A growable buffer; {0} is an empty one.  The caller owns text. */
struct json_out {
	char *text;
	size_t len, cap;
};

enum json_layout {
	JSON_COMPACT,   /* jv_dump_string(v, 0) */
	JSON_CANONICAL, /* jv_dump_string(v, JV_PRINT_SORTED) */
	JSON_INDENTED,  /* jv_dump_string(v, JV_PRINT_INDENT_FLAGS(2)) */
};

void json_out_free(struct json_out *o);

/* Room for n more bytes.  The writers below are inline, so that a key or
 * a brace the program names costs a few instructions, not a call and a
 * strlen: pc-evaluate writes some three hundred of them a line. */
void json_out_grow(struct json_out *o, size_t n);
static inline void json_out_reserve(struct json_out *o, size_t n)
{
	if (o->cap - o->len < n)
		json_out_grow(o, n);
}

static inline void json_out_bytes(struct json_out *o, const char *p, size_t n)
{
	json_out_reserve(o, n);
	memcpy(o->text + o->len, p, n);
	o->len += n;
}

/* The JSON string of the n bytes at s (valid UTF-8), escaped as jq escapes:
 * quote, backslash, control characters and DEL; other text as it is. */
void json_out_string(struct json_out *o, const char *s, size_t n);

/* The NUL-ended string s as json_out_string writes it; null for NULL. */
void json_out_cstring(struct json_out *o, const char *s);

/* The start of an object's member: a comma unless it is the first
 * (*members counts the members written), the key's n bytes as a JSON
 * string, and a colon.  json_out_key: the same for a key the program
 * declares (plain ASCII, no quote or backslash), written as it is. */
void json_out_member(struct json_out *o, const char *key, size_t n, int *members);
static inline void json_out_key(struct json_out *o, const char *key, int *members)
{
	size_t n = strlen(key);

	json_out_reserve(o, n + 4);
	if ((*members)++)
		o->text[o->len++] = ',';
	o->text[o->len++] = '"';
	memcpy(o->text + o->len, key, n);
	o->len += n;
	o->text[o->len++] = '"';
	o->text[o->len++] = ':';
}

/* x as jq prints a number: the shortest text that reads back as x (NaN as
 * null, infinities as the largest finite double). */
void json_out_number(struct json_out *o, double x);

/* v (borrowed) in that layout.  Past 256 levels of nesting jq writes
 * "<stripped: exceeds max depth>", which is not JSON: this writes the
 * value (no document read is deeper than the reader's 256 levels). */
void json_out_value(struct json_out *o, jv v, enum json_layout how);

#endif
