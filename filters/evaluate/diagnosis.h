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
 * whatever the replay holds (excerpts of DIAGNOSIS_TEXT_MAX bytes, lists
 * of DIAGNOSIS_LIST_MAX items and the count of the rest), and every text
 * is redacted before it is cut, so no part of a secret reaches it.
 */
#ifndef PC_EVALUATE_DIAGNOSIS_H
#define PC_EVALUATE_DIAGNOSIS_H

#include <jv.h>

#include "facts.h"
#include "redact.h"

#define DIAGNOSIS_TEXT_MAX 240
#define DIAGNOSIS_LIST_MAX 12

/* One assertion's {expected, actual[, evidence]} (owned); replay and f
 * borrowed, held: whether the assertion holds (evidence only when not). */
struct diagnosis_input {
	jv replay;
	const struct facts *f;
	const struct redactor *red;
	int held;
};
typedef jv (*diagnosis_fn)(const struct diagnosis_input *in);

/* The diagnoses of the assertion rows (assertions.c names them). */
jv diagnose_execution_outcome(const struct diagnosis_input *in);
jv diagnose_execution_completed(const struct diagnosis_input *in);
jv diagnose_collection_completed(const struct diagnosis_input *in);
jv diagnose_task_provenance(const struct diagnosis_input *in);
jv diagnose_native_acp(const struct diagnosis_input *in);
jv diagnose_instructions(const struct diagnosis_input *in);
jv diagnose_capture_coverage(const struct diagnosis_input *in);
jv diagnose_memory_created(const struct diagnosis_input *in);
jv diagnose_memory_grounded(const struct diagnosis_input *in);
jv diagnose_probes_supported(const struct diagnosis_input *in);
jv diagnose_recalled_during_run(const struct diagnosis_input *in);
jv diagnose_scope_empty(const struct diagnosis_input *in);
jv diagnose_expected_memory(const struct diagnosis_input *in);
jv diagnose_forbidden_context(const struct diagnosis_input *in);

/* The identities behind the result (run, workload, task, agent, the
 * PowerContext under test, Scope, evidence), owned. */
jv diagnosis_identity(jv replay);

#endif
