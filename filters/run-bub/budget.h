/* budget: a run held to --budget calls only models --prices prices
 * (docs/paired.md), so a model without a price is refused before anything
 * runs: the agent's model of each workload and the Server's inference
 * models, as its environment names them.
 */
#ifndef PC_RUN_BUB_BUDGET_H
#define PC_RUN_BUB_BUDGET_H

#include <jv.h>

#include "err.h"
#include "run/run.h"

/* 0 when o sets no --prices, or its table can be read and, under
 * --budget, prices every model the selections (borrowed) call; else -1
 * with e, which starts with the option to blame. */
int budget_check(const struct run_bub_options *o, jv selections, struct pc_err *e);

#endif
