/* entry: what a case maps each assertion, score and label name to,
 * {value, reason}, and how reasons quote JSON values: as PowerContext
 * 1.4.1's evaluator does, with Python's repr().
 */
#ifndef PC_EVALUATE_ENTRY_H
#define PC_EVALUATE_ENTRY_H

#include <jv.h>
#include <stddef.h>

#include "text.h"

/* {value, reason}: value consumed; reason (malloc'd, or NULL for null)
 * freed. */
jv entry(jv value, char *reason);

/* The bytes of a JSON string (borrowed) and their count in *n: JSON
 * strings may hold NUL, so their length is never strlen's. */
const char *string_bytes(jv s, size_t *n);

/* Python repr() of a JSON string (borrowed), None for anything else. */
void repr_string(struct sbuf *b, jv v);

/* Malloc'd Python repr() of a list of strings (consumed). */
char *repr_list(jv list);

#endif
