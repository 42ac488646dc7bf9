/* spool: pc-report's spool file, and a jv in it as compact bytes read
 * without parsing.
 *
 * pc-report writes each case to its spool once and reads it back once per
 * pass over the report (cases.h).  The spool is an unnamed file in
 * TMPDIR, gone when closed, so memory does not grow with the number of
 * cases.  Parsing JSON text on every pass would
 * cost several times the report itself, so a value is spooled as bytes a
 * reader walks: a kind byte (enum jv_kind), then a number's double, a
 * string's length (uint32_t), bytes and a NUL, or an array's or object's
 * length in bytes (uint64_t) before its members, an object's member being
 * its key (a string value) then its value.  A lookup skips what it does
 * not need, a string is read where it lies, and a jv is built only of what
 * a renderer asks for.  A value reads back exactly as it was: keys in
 * their order, numbers to the last bit.  This module owns the file and
 * that encoding.
 *
 * A value is a pointer to its kind byte; NULL is a value that is not there.
 */
#ifndef PC_REPORT_SPOOL_H
#define PC_REPORT_SPOOL_H

#include <stddef.h>
#include <stdio.h>

#include <jv.h>

#include "err.h"
#include "text.h"

/* An open spool file, written and read through its own buffer. */
struct spool_file {
	FILE *f;      /* NULL when none is open */
	char *buffer; /* owned: f's stdio buffer */
};

/* Create the spool file in TMPDIR; -1 with e filled when it cannot be. */
int spool_open(struct spool_file *s, struct pc_err *e);
/* Close it (it is then gone) and free its buffer; nothing when none is
 * open. */
void spool_close(struct spool_file *s);

/* Append v (consumed) to b. */
void spool_add(struct sbuf *b, jv v);

/* The bytes of the value at p. */
size_t spool_size(const char *p);

/* The value at p as a new jv; invalid when p is NULL. */
jv spool_jv(const char *p);

/* The member key of the object at p, or NULL (p NULL or no object). */
const char *spool_get(const char *p, const char *key);
/* The same for a key of n bytes, which may hold a NUL. */
const char *spool_member(const char *p, const char *key, size_t n);

/* The string at p, or NULL (p NULL or no string). */
const char *spool_str(const char *p);

/* The kind of the value at p; JV_KIND_INVALID when p is NULL. */
jv_kind spool_kind(const char *p);

/* The members of an array or object, one at a time:
 *	for (struct spool_each e = spool_each(p); spool_next(&e);)
 * gives each in e.value, an object's with its key in e.key (a string
 * value); none when p is NULL or neither. */
struct spool_each {
	const char *key, *value;
	const char *next, *end;
	int object;
};
struct spool_each spool_each(const char *p);
int spool_next(struct spool_each *e);

#endif
