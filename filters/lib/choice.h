/* choice: a value that must be one of a table's names, and the one place
 * such a list is worded, for a refusal ("--runner must be local or
 * harbor") or a synopsis ("local|harbor").
 *
 * A table is whatever its module keeps (rows, pointers to rows, strings);
 * the module hands a name_at that reads its i-th name, NULL past the last. */
#ifndef PC_CHOICE_H
#define PC_CHOICE_H

#include <stddef.h>

#include "text.h"

typedef const char *choice_name_at(const void *table, size_t i);

/* name_at for a NULL-terminated array of strings (const char *const []). */
const char *choice_string_at(const void *table, size_t i);

/* The names joined by sep, with last_sep before the last one. */
void choice_add_names(struct sbuf *b, choice_name_at *name_at, const void *table,
		      const char *sep, const char *last_sep);

/* "WHAT must be a, b or c" (malloc'd): the refusal of a value no name
 * matches. */
char *choice_refusal(const char *what, choice_name_at *name_at, const void *table);

#endif
