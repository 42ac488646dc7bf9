/* local_step: one step of the local runner's trial (docs/DESIGN.md §5.5):
 * its instruction as Harbor gives it, the step-failure marker, its agent
 * (local_acp.h), then its verifier.
 */
#ifndef PC_RUN_BUB_LOCAL_STEP_H
#define PC_RUN_BUB_LOCAL_STEP_H

#include <jv.h>

#include "run/run.h"

/* One step (borrowed; task_toml too) of the trial in res: its step
 * result.  *stop is set when the trial must not go on. */
jv local_step(struct workload_run *r, struct runner_result *res, const char *task_dir,
	      jv task_toml, jv step, int *stop);

#endif
