/* harbor_job: the runner that hands a workload to the real Harbor CLI
 * (docs/DESIGN.md §5.11): one Harbor job per workload, its JobConfig
 * (harbor_jobconfig.h), `harbor run -c`, and the trial Harbor wrote.
 */
#ifndef PC_RUN_BUB_HARBOR_JOB_H
#define PC_RUN_BUB_HARBOR_JOB_H

#include "err.h"
#include "pcclient.h"
#include "run.h"

/* The runner's check (runners.h): Harbor is there, and a remote
 * environment has what it needs: Harbor's own credential check for that
 * type, a Server it can reach, and a provisioned Bub to install there. */
int harbor_runner_check(const struct run_bub_options *o, const struct pc_client *c,
			const char *project, const struct agent *agent, struct pc_err *e);

/* The runner's execute (runners.h): one Harbor job, its JobConfig, `harbor
 * run`, and the trial it wrote. */
struct runner_result harbor_runner_run(struct workload_run *r, const char *task_dir);

#endif
