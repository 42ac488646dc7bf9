/* batch_trial: a batch:<name> group's workloads run as one shared trial,
 * as PowerContext 1.4.1 runs them (docs/DESIGN.md §5.4).
 *
 * A group's run makes one merged task (its members' steps as <id>-<step>,
 * min_reward 1 on each under fail-fast), a Scope per member, runs the
 * merged task once on the chosen runner with each agent invocation bound
 * to its member's Scope, and gives each member its own steps, errors and
 * status.
 */
#ifndef PC_RUN_BUB_BATCH_TRIAL_H
#define PC_RUN_BUB_BATCH_TRIAL_H

#include <jv.h>

#include "run/run.h"

/* Run the group (batch.h) whose first selection is first as one trial: its
 * members' records, in selection order (owned). */
jv batch_run(const struct fleet *f, int first);

#endif
