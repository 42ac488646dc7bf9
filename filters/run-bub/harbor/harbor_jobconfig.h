/* harbor_jobconfig: the JobConfig the Harbor runner hands `harbor run -c`
 * (docs/DESIGN.md §5.11): job name = run id, jobs dir = the run's
 * harbor-jobs/, one attempt, the task's dataset (a local task by its path, a
 * registry dataset by name and version, through --registry's resolved copy
 * when there is one), pc-e2e's environment and agent classes from
 * python/pc_e2e_harbor.  Bub's environment is not in it: Harbor writes
 * the JobConfig to disk.  A command-line host's agent is PowerContext
 * 1.4.1's own class for it (hosts/cli_host.h's harbor_agent), configured
 * as 1.4.1 configures it: its model, its kwargs, and in the ON arm the
 * plugin's settings with the credential as a reference that Harbor resolves
 * from its own environment (harbor_agent_secrets) and the arm's mounts.
 */
#ifndef PC_RUN_BUB_HARBOR_JOBCONFIG_H
#define PC_RUN_BUB_HARBOR_JOBCONFIG_H

#include <jv.h>

#include "hosts/cli_host.h"
#include "run/agent.h"
#include "run/run.h"

/* The registry copy Harbor reads, with absolute task paths, in the job
 * directory beside Harbor's own files. */
#define HARBOR_RESOLVED_REGISTRY_FILE "pc-e2e-registry.json"
#define SETTLE_PLUGIN_CLASS           "pc_e2e_harbor.settle:SettlePlugin"

/* The JobConfig (owned) of r's job in job_dir, for the task in task_dir
 * (NULL: r's registry dataset); d is the provisioned command-line host of
 * r's arm (borrowed), NULL for an ACP agent. */
jv harbor_job_config(const struct workload_run *r, const char *task_dir, const char *job_dir,
		     const struct cli_dir *d);

/* What the JobConfig's agent environment refers to, set in Harbor's
 * environment env: a command-line host's ON arm's credential. */
void harbor_agent_secrets(const struct workload_run *r, struct envv *env);

#endif
