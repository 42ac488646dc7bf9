/* recall: the diagnoses (diagnosis.h) of what a Memory run recalled: its
 * probes' prepared contexts (supported, forbidden context absent), the
 * contexts prepared during the run, and the expected Memory fragments.
 * The evidence of one that does not hold names each probe, its fragments
 * found and missing, an excerpt of its context (around a fragment found,
 * else the items it recalled) and the whole context, and the Memory entry
 * nearest to a fragment no entry holds.
 */
#ifndef PC_EVALUATE_RECALL_H
#define PC_EVALUATE_RECALL_H

#include "diagnosis.h"

void diagnose_probes_supported(struct json_out *o, const struct diagnosis_input *in);
void diagnose_recalled_during_run(struct json_out *o, const struct diagnosis_input *in);
void diagnose_expected_memory(struct json_out *o, const struct diagnosis_input *in);
void diagnose_forbidden_context(struct json_out *o, const struct diagnosis_input *in);

#endif
