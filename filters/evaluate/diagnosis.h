/* diagnosis: why each assertion of a case holds or not, in pc-e2e's own
 * attribute "diagnosis" beside the case (docs/DESIGN.md §3.6).
 *
 * Per assertion: EXPECTED and ACTUAL in typed form (numbers, counts,
 * strings, lists), and for one that does not hold, the evidence that
 * decides it: each unsupported probe's query, fragments found and missing
 * and an excerpt of its prepared context; the Memory entry nearest to an
 * expected fragment no entry holds; the events not captured; the entries
 * that cite no captured Source; the exceptions and rewards of an outcome.
 * The report reads it and never recomputes acceptance.  It is bounded
 * whatever the replay holds (excerpts of EXCERPT_MAX bytes, excerpt.h;
 * lists of DIAGNOSIS_LIST_MAX items and the count of the rest, frame.h),
 * and every text is redacted before it is cut, so no part of a secret
 * reaches it.  This header declares the diagnoses of how the run ran and
 * what it wrote to Memory; recall.h those of what it recalled.
 */
#ifndef PC_EVALUATE_DIAGNOSIS_H
#define PC_EVALUATE_DIAGNOSIS_H

#include "facts.h"
#include "json_out.h"
#include "redact.h"
#include "view.h"

/* What one assertion's diagnosis reads (all borrowed); held: whether the
 * assertion holds (evidence only when not). */
struct diagnosis_input {
	struct view replay;
	const struct facts *f;
	const struct redactor *red;
	int held;
};
/* Writes the assertion's {expected, actual[, evidence]}. */
typedef void (*diagnosis_fn)(struct json_out *o, const struct diagnosis_input *in);

/* The diagnoses of the assertion rows (assertions.c names them). */
void diagnose_execution_outcome(struct json_out *o, const struct diagnosis_input *in);
void diagnose_execution_completed(struct json_out *o, const struct diagnosis_input *in);
void diagnose_collection_completed(struct json_out *o, const struct diagnosis_input *in);
void diagnose_task_provenance(struct json_out *o, const struct diagnosis_input *in);
void diagnose_native_acp(struct json_out *o, const struct diagnosis_input *in);
void diagnose_instructions(struct json_out *o, const struct diagnosis_input *in);
void diagnose_capture_coverage(struct json_out *o, const struct diagnosis_input *in);
void diagnose_memory_created(struct json_out *o, const struct diagnosis_input *in);
void diagnose_memory_grounded(struct json_out *o, const struct diagnosis_input *in);
void diagnose_scope_empty(struct json_out *o, const struct diagnosis_input *in);

/* The identities behind the result (run, workload, task, agent, the
 * PowerContext under test, Scope, evidence), written as an object. */
void diagnosis_identity(struct json_out *o, const struct facts *f);

#endif
