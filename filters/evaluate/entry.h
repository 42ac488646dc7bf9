/* entry: what a case maps each assertion, score and label name to,
 * {value, reason}, and how reasons quote JSON values: as PowerContext
 * 1.4.1's evaluator does, with Python's repr().
 */
#ifndef PC_EVALUATE_ENTRY_H
#define PC_EVALUATE_ENTRY_H

#include <stddef.h>

#include "json_out.h"
#include "text.h"
#include "view.h"

/* {"value":<value>,"reason":<reason>}: reason malloc'd (freed; read to its
 * first NUL, as a jv string made of it is) or NULL for null. */
void entry_bool(struct json_out *o, int value, char *reason);
void entry_number(struct json_out *o, double value);
void entry_label(struct json_out *o, const char *value);

/* Python repr() of a JSON string, None for anything else. */
void repr_string(struct sbuf *b, struct view v);

/* Python's repr() of a list of strings, appended to b. */
void repr_list(struct sbuf *b, const struct view *items, size_t n);

/* The items of an array as an owned array of *n views. */
struct view *entry_items(struct view arr, size_t *n);

#endif
