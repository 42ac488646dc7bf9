/* prices: the PRICES table a user gives (docs/paired.md), loaded and
 * checked, and what a model's tokens cost by it.
 *
 * The table is a JSON object keyed by model name as the replay records it,
 * "*" matching any model it does not name; each value is {"input",
 * "cached_input", "output"}, USD per million tokens.  pc-run-bub refuses a
 * budget with an unpriced model, pc-normalize prices each arm's account.
 */
#ifndef PC_PRICES_H
#define PC_PRICES_H

#include <jv.h>

#include "err.h"

/* The wildcard row's key. */
#define PRICES_ANY "*"

struct price {
	double input, cached_input, output; /* USD per million tokens */
};

/* Read and check the table at path into *table (the caller's); -1 with e
 * naming the file and the field that is wrong. */
int prices_load(const char *path, jv *table, struct pc_err *e);

/* model's row of table (borrowed), else the "*" row, into *p: 0, or -1
 * when the table prices neither. */
int prices_of(jv table, const char *model, struct price *p);

/* What input tokens (cached ones included), cached and output tokens
 * cost at p, in USD. */
double prices_cost(const struct price *p, double input, double cached, double output);

#endif
