/* harbor_check: what the harbor runner checks before any workload runs
 * (runners.h): Harbor is there, its registry serves the registry datasets
 * the selections pin when no --registry names them, and a remote
 * environment has what it needs.
 */
#ifndef PC_RUN_BUB_HARBOR_CHECK_H
#define PC_RUN_BUB_HARBOR_CHECK_H

#include <jv.h>

#include "err.h"
#include "run/agent.h"
#include "server/pcclient.h"

/* The runner's check (struct runner, run/run.h; selections borrowed); -1
 * with e naming what is missing. */
int harbor_runner_check(const struct run_bub_options *o, const struct pc_client *c,
			const char *project, const struct agent *agent, jv selections,
			struct pc_err *e);

#endif
