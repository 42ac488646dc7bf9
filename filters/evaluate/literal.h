/* literal: a value of a JSON text as the text writes it.
 *
 * A double cannot tell 1 from 1.0, and Python, which keeps them apart,
 * prints them differently in the reasons the evaluator must reproduce; so
 * the reward is also read as the replay's own text spells it.
 */
#ifndef PC_EVALUATE_LITERAL_H
#define PC_EVALUATE_LITERAL_H

#include <stddef.h>

#include "text.h"

/* The literal of the value at a dotted path in a valid JSON text, as it is
 * written: *lit and *lit_len point into text.  1 when found, 0 if not. */
int literal_at(const char *text, size_t len, const char *dotted, const char **lit,
	       size_t *lit_len);

/* The literal of key's value in the object that starts the JSON text
 * object (a key is matched whole, dots and all).  1 when found, 0 if not. */
int literal_member(const char *object, size_t len, const char *key, const char **lit,
		   size_t *lit_len);

/* Whether lit (NULL: no) writes an integer, which Python reads as an int. */
int literal_is_int(const char *lit, size_t lit_len);

/* Python's repr() of the number x a JSON text writes as lit: an integer's
 * digits as written (Python keeps an int an int), anything else, or lit
 * NULL, as a float's repr. */
void literal_add_repr(struct sbuf *b, double x, const char *lit, size_t lit_len);

#endif
