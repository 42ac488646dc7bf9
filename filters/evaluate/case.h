/* case: the evaluation document of one replay (docs/DESIGN.md §2.5): its
 * one case, judged from the replay's facts, and the attributes pc-report's
 * ledger compares runs by.
 */
#ifndef PC_EVALUATE_CASE_H
#define PC_EVALUATE_CASE_H

#include <jv.h>

#include "facts.h"
#include "redact.h"

/* The case of replay (borrowed) from its facts (borrowed), under the
 * failure policy it ran with; owned by the caller. */
jv case_build(jv replay, const struct facts *f, const char *policy, const struct redactor *red);

/* The powercontext.e2e-evaluation/v1 document of kase (consumed), in the
 * experiment "<prefix>:<case name>"; owned by the caller. */
jv case_document(jv kase, const char *prefix);

#endif
