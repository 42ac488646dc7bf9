/* preflight: what pc-run-bub refuses before any workload runs, so that
 * nothing is written for a run that could not stand (docs/DESIGN.md §5):
 * paired workloads without --paired, and under it anything else or a host
 * that cannot run here (paired/paired.h); model-backed workloads without their
 * model, or the scripted model without its script or a loopback endpoint;
 * a batch:<name> group that cannot share a trial (batch/batch.h).
 */
#ifndef PC_RUN_BUB_PREFLIGHT_H
#define PC_RUN_BUB_PREFLIGHT_H

#include <jv.h>

#include "err.h"
#include "run/run.h"

/* 0 when every selection (borrowed) can run under o; else -1 with e
 * naming what cannot and why. */
int preflight_check(const struct run_bub_options *o, jv selections, struct pc_err *e);

#endif
