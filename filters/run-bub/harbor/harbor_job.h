/* harbor_job: the runner that hands a workload to the real Harbor CLI
 * (docs/DESIGN.md §5.11): one Harbor job per workload, its JobConfig
 * (harbor_jobconfig.h), `harbor run -c`, and the trial Harbor wrote.
 */
#ifndef PC_RUN_BUB_HARBOR_JOB_H
#define PC_RUN_BUB_HARBOR_JOB_H

#include "err.h"
#include "run/agent.h"
#include "run/run.h"

/* The Harbor venv ($POWERCONTEXT_E2E_HARBOR), or NULL. */
const char *harbor_venv(void);

/* Harbor's environment in env: what it needs to run and to find pc-e2e's
 * classes in project, its own HARBOR_* settings, the sandbox base over binds
 * (base/sandbox.h; NULL for a remote environment's checks) and a remote type's
 * credentials, never the rest of this process's (secrets included). */
void harbor_env(const char *project, const char *binds, const char *type, struct envv *env);

/* Run argv for up to timeout_ms with its output (stdout and stderr) in
 * *output; -1 with e when it could not run or timed out, else its exit
 * status. */
int harbor_run_quietly(char *const argv[], char *const env[], long timeout_ms, char **output,
		       struct pc_err *e);

/* The runner's execute (runners.h): one Harbor job, its JobConfig, `harbor
 * run`, and the trial it wrote. */
struct runner_result harbor_runner_run(struct workload_run *r, const char *task_dir);

#endif
