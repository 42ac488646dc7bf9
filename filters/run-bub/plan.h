/* plan: the units a run's workloads fall into, printed by --plan for a
 * scheduler outside pc-run-bub (pipelines/units, docs/DESIGN.md §5.14).
 *
 * A unit is what runs whole on one worker: a workload alone, a batch:<name>
 * group (its members share one trial), or with --paired one trial of one
 * workload, both arms in their OFF/ON order.  Each unit is named by the
 * directory its files take under --output (outdir.h), so a scheduler can
 * lay out and gather units without knowing the rules that made them.
 */
#ifndef PC_RUN_BUB_PLAN_H
#define PC_RUN_BUB_PLAN_H

#include <jv.h>

#include "redact.h"
#include "run/run.h"

/* One line per unit on stdout, in selection order:
 * {"unit": DIR, "selections": [index, …], "trial": N or null}.
 * selections is borrowed; the exit status. */
int plan_print(const struct run_bub_options *o, jv selections, const struct redactor *red);

#endif
