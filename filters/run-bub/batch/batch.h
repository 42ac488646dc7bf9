/* batch: which workloads form a batch:<name> group, whose members run as
 * one shared trial as PowerContext 1.4.1 runs them (batch_trial.h), and
 * whether they can share it (docs/DESIGN.md §5.4).
 *
 * Two or more selected workloads with the same batch form a group, under
 * either failure policy; a workload alone in its batch runs as any other.
 * Before anything runs, every group is checked: local tasks, each its
 * pinned one, distinct ids, Harbor's "final" reward strategy, and one
 * runtime profile.
 */
#ifndef PC_RUN_BUB_BATCH_H
#define PC_RUN_BUB_BATCH_H

#include <jv.h>

#include "base/source.h"
#include "err.h"
#include "hash.h"
#include "run/run.h"

/* Per selection (n, borrowed), the index of the first selection of its
 * group: its own when it runs alone (malloc'd). */
int *batch_units(jv selections, int n);

/* The number of selections in the group whose first is first. */
int batch_size(const struct fleet *f, int first);

/* 0 when every group of selections (borrowed) can share a trial; else -1
 * with e naming the batch, the workload and what keeps it apart. */
int batch_check(jv selections, struct pc_err *e);

/* Load the member's task (selection borrowed) as source_load does; and
 * it must have steps, scored by Harbor's "final" strategy; -1 with e
 * naming the batch and the workload.  Freed by source_free, failed or not. */
int batch_source_load(struct source *s, jv selection, const char *batch, struct pc_err *e);

#endif
