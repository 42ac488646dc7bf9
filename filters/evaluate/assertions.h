/* assertions: the assertions of a case (docs/DESIGN.md §3), one table row
 * each.
 *
 * A row names the assertion, says whether it applies to a case, judges it
 * from the case's facts and diagnoses it (diagnosis.h).  The table's order
 * is the order the assertions are written in, which PowerContext 1.4.1's
 * evaluator fixes.
 */
#ifndef PC_EVALUATE_ASSERTIONS_H
#define PC_EVALUATE_ASSERTIONS_H

#include "facts.h"
#include "json_out.h"
#include "redact.h"

/* More than any kind of case has. */
#define ASSERTIONS_MAX 16

/* One assertion judged: its row's name (static) and whether it holds. */
struct judgement {
	const char *name;
	int held;
};

/* The assertions that apply to the case of f, written as the object
 * mapping each name to its {value, reason}; their judgements into
 * judged, and their count returned. */
size_t assertions_write(struct json_out *o, const struct facts *f,
			struct judgement judged[ASSERTIONS_MAX]);

/* pc-e2e's diagnosis of each of the n judged: the object mapping each name
 * to {expected, actual[, evidence]} (diagnosis.h). */
void assertions_diagnose(struct json_out *o, const struct facts *f,
			 const struct judgement *judged, size_t n, const struct redactor *red);

#endif
