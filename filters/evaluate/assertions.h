/* assertions: the assertions of a case (docs/DESIGN.md §3), one table row
 * each.
 *
 * A row names the assertion, says whether it applies to a case and judges
 * it from the case's facts.  The table's order is the order the assertions
 * are written in, which PowerContext 1.4.1's evaluator fixes.
 */
#ifndef PC_EVALUATE_ASSERTIONS_H
#define PC_EVALUATE_ASSERTIONS_H

#include <jv.h>

#include "facts.h"
#include "redact.h"

/* The assertions that apply to the case of f (borrowed): an object mapping
 * each name to its {value, reason}, owned by the caller. */
jv assertions_judge(const struct facts *f);

/* pc-e2e's diagnosis of each assertion judged (borrowed) of replay
 * (borrowed): an object mapping each name to {expected, actual[,
 * evidence]} (diagnosis.h), owned by the caller. */
jv assertions_diagnose(const struct facts *f, jv replay, jv judged, const struct redactor *red);

#endif
