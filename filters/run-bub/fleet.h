/* fleet: every selected workload of one invocation run (docs/DESIGN.md §5,
 * §5.12).  What the workloads share (struct fleet, run/run.h) is set up here
 * from the options, the Server and the agent; then each unit runs, one
 * after another in this process or with --jobs N in worker processes
 * (workers.h), each workload from run_begin to run_end (run/run.h) through
 * workload_run (run/workload.h), a merged batch's as one trial (batch/batch_trial.h),
 * a paired one as its arms (paired/paired.h), each record written as soon as it
 * is made.
 */
#ifndef PC_RUN_BUB_FLEET_H
#define PC_RUN_BUB_FLEET_H

#include <jv.h>

#include "redact.h"
#include "run/run.h"

/* Run every selection (borrowed, already checked: preflight.h): the exit
 * status, 128 + the signal when a stop ended the run. */
int fleet_run(const struct run_bub_options *o, const struct redactor *red, jv selections);

#endif
