/* workload: one workload's run and its record (docs/DESIGN.md §5).
 *
 * Per workload: its scope, readiness, the Memory baseline, the Harbor
 * task's steps through an ACP agent (by the chosen runner), the final
 * Memory and every probe through prepare_context.  A failure anywhere
 * still makes the record with what was collected, status "failed".
 * Outcome workloads are judged on how they ended, so they skip the Memory
 * and the probes.
 */
#ifndef PC_RUN_BUB_WORKLOAD_H
#define PC_RUN_BUB_WORKLOAD_H

#include <jv.h>

#include "err.h"
#include "run/run.h"

/* The model a workload's (borrowed) agent runs on, malloc'd into *model
 * (NULL when it is model-free): its script's with --model-scripts, else
 * BUB_MODEL's. */
int workload_model(const struct run_bub_options *o, jv workload, char **model, struct pc_err *e);

/* The model's name as a command-line host takes it: Bub's "provider:"
 * before it dropped (malloc'd). */
char *workload_host_model(const char *model);

/* Run the workload of r (begun, not yet run) and return its record. */
jv workload_run(struct workload_run *r);

/* The phases of workload_run, which a merged batch (batch/batch.h) runs for each
 * member around its one shared trial. */

/* A Memory workload: judged on its Memory, so it needs the Server. */
int workload_is_memory(const struct workload_run *r);
/* Before the trial: its model, its scope, and for a Memory workload the
 * Server's readiness and the Memory baseline (*readiness and *before,
 * owned); -1 when something failed, an error of r. */
int workload_prepare(struct workload_run *r, jv *readiness, jv *before);
/* After it: the job directory holds no secret (agents, verifiers and
 * runners all write there). */
void workload_scrub(struct workload_run *r);
/* The record (owned), with the final Memory and the probes when readiness
 * (consumed, like before) is not null and the workload was not skipped. */
jv workload_finish(struct workload_run *r, int skipped, jv readiness, jv before);

/* The record of a workload that did not run: skipped (why NULL) when an
 * earlier member of its batch ended the batch, failed with why when the
 * worker process running it ended before writing its record. */
jv workload_unrun(struct workload_run *r, const char *why);

#endif
