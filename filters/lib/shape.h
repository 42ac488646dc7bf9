/* shape: declarative checking and normalizing of JSON documents.
 *
 * A document type is a static tree of struct shape.  shape_normalize checks
 * kinds, ranges and patterns, rejects unknown fields, fills declared defaults
 * and returns the document with object keys in declaration order, so every
 * stage writes the same canonical form.  The first violation is reported
 * with its field path (e.g. "evaluation.probes[1].id"), which callers map to
 * a file line or a stream line.
 *
 * Checking is the hot path of every filter, so it costs no more than a
 * visit of each value: the path is formatted only for an error, and a value
 * already in canonical form is returned as it is (a reference, not a copy);
 * only the objects that lack a field or have keys out of order are rebuilt.
 */
#ifndef PC_SHAPE_H
#define PC_SHAPE_H

#include <jv.h>

enum shape_kind {
	SK_ANY,
	SK_STRING,
	SK_INT,
	SK_NUMBER,
	SK_BOOL,
	SK_OBJECT,
	SK_ARRAY,
	SK_MAP,
	SK_UNION
};

#define SHAPE_NULLABLE 1u /* null is accepted */
#define SHAPE_MIN      2u /* min applies (value, length or item count) */
#define SHAPE_MAX      4u /* max applies */

struct shape_error {
	char path[512];
	char why[1024];
};

struct field;
struct alternative;

/* A list of objects whose string field key differs from item to item,
 * named in the message ("probe ids must be unique: \"a\" repeats"). */
struct unique_items {
	const char *key, *name;
};

/* A value as an object rule reads it, from whichever reader parsed the
 * document (shape.c reads jv; pc-evaluate reads its own views), so that a
 * rule is written once.  The rules read strings, lists of strings and
 * whether a member is set, of the value as shape_normalize passes it
 * (defaults filled). */
struct rule_reader {
	/* The string member key of object v (its bytes, *n), or NULL. */
	const char *(*text)(const void *v, const char *key, size_t *n);
	/* Whether object v has member key, not null. */
	int (*is_set)(const void *v, const char *key);
	/* The string item i of the list at member key of object v (of v
	 * itself when key is NULL), or NULL past its end or for no string. */
	const char *(*item)(const void *v, const char *key, size_t i, size_t *n);
};
struct rule_value {
	const struct rule_reader *read;
	const void *v; /* the reader's value, borrowed */
};
/* The reader of a jv (a const jv *, borrowed). */
extern const struct rule_reader shape_jv_reader;

struct shape {
	enum shape_kind kind;
	unsigned flags;
	double min, max;
	const struct field *fields;             /* SK_OBJECT, ended by a NULL name */
	const struct shape *items;              /* SK_ARRAY items, SK_MAP values */
	const struct alternative *alternatives; /* SK_UNION, ended by a NULL shape */
	/* extra rule on the normalized value; fills why and returns -1 */
	int (*check)(struct rule_value v, char *why, size_t whylen);
	/* a string's rule, on its n bytes (a NUL-ended C string, which may
	 * hold a NUL before its end): a string needs no jv to be checked */
	int (*check_text)(const char *s, size_t n, char *why, size_t whylen);
	const struct unique_items *unique; /* SK_ARRAY: NULL, or what must differ */
	const char *expect;                /* what a good value is, for messages */
};

#define FIELD_OPTIONAL 1u /* may be absent; then default_json or null */

struct field {
	const char *name;
	const struct shape *shape;
	unsigned flags;
	const char *default_json;
};

/* One kind of a union of objects, told apart by a field only it has: the
 * first alternative whose key is present is the one a value is checked
 * against, and an alternative with a NULL key (the last) takes the rest, so
 * an error names the field that is wrong rather than every kind at once. */
struct alternative {
	const char *key;
	const struct shape *shape;
};

/* Normalize v (borrowed) into *out (owned); -1 with *err filled. */
int shape_normalize(const struct shape *s, jv v, jv *out, struct shape_error *err);

#endif
