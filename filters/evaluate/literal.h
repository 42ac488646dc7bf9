/* literal: a value of a JSON text as the text writes it.
 *
 * A double cannot tell 1 from 1.0, and Python, which keeps them apart,
 * prints them differently in the reasons the evaluator must reproduce; so
 * the reward is also read as the replay's own text spells it.
 */
#ifndef PC_EVALUATE_LITERAL_H
#define PC_EVALUATE_LITERAL_H

#include <stddef.h>

/* The literal of the value at a dotted path in a valid JSON text, as it is
 * written: *lit and *lit_len point into text.  1 when found, 0 if not. */
int literal_at(const char *text, size_t len, const char *dotted, const char **lit,
	       size_t *lit_len);

#endif
