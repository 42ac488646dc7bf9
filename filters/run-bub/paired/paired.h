/* paired: pc-run-bub --paired, the arms of PowerContext 1.4.1's paired
 * OFF/ON comparison (docs/DESIGN.md §11.5).
 *
 * Before anything runs, every workload must be a paired one pc-run-bub can
 * run and the Server must keep the arms apart (server/isolation.h).  Then,
 * per workload and trial, two arms (arm.h), each an ordinary run of the
 * chosen runner with a record of its own under DIR/<id>/trial-<n>/<off|on>/,
 * told what the arm needs of it through the run's struct run_arm.
 */
#ifndef PC_RUN_BUB_PAIRED_H
#define PC_RUN_BUB_PAIRED_H

#include <jv.h>

#include "err.h"
#include "run/run.h"
#include "server/pcclient.h"

/* 0 when every selection (borrowed) is a paired workload: a continuation
 * (a local task, the pinned one, two or more steps, the last its
 * recall_step, no earlier one with a min_reward) or a task-outcome
 * comparison (a task without steps); else -1 naming the first that is not. */
int paired_check_workloads(jv selections, struct pc_err *e);

/* Every trial's two arms of selection i, OFF first on odd trials and ON
 * first on even ones; each arm's record (consumed) goes to emit as soon as
 * the arm ends.  A task that is not the one its manifest pins stops the
 * workload's later arms.  0, or the first non-zero emit returned. */
typedef int (*paired_emit)(const struct fleet *f, jv record);
int paired_run(const struct fleet *f, int i, paired_emit emit);

/* The same arms' records, each failed with why, nothing run (--unrun). */
int paired_unrun(const struct fleet *f, int i, const char *why, paired_emit emit);

#endif
