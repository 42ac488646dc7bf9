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
#include "run.h"

/* The model a workload's (borrowed) agent runs on, malloc'd into *model
 * (NULL when it is model-free): its script's with --model-scripts, else
 * BUB_MODEL's. */
int workload_model(const struct options *o, jv workload, char **model, struct pc_err *e);

/* Run the workload of r (begun, not yet run) and return its record. */
jv workload_run(struct run *r);

/* The record of a workload that did not run: skipped (why NULL) when its
 * fail-fast group stopped before it, failed with why when the worker
 * process running it ended before writing its record. */
jv workload_unrun(struct run *r, const char *why);

#endif
