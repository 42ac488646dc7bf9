/* harbor_jobconfig: the JobConfig the Harbor runner hands `harbor run -c`
 * (docs/DESIGN.md §5.11): job name = run id, jobs dir = the run's
 * harbor-jobs/, one attempt, the task's dataset (a local task by its path, a
 * registry dataset by name and version, through --registry's resolved copy
 * when there is one), pc-e2e's environment and agent classes from
 * python/pc_e2e_harbor.  The agent's environment is not in it: Harbor
 * writes the JobConfig to disk.
 */
#ifndef PC_RUN_BUB_HARBOR_JOBCONFIG_H
#define PC_RUN_BUB_HARBOR_JOBCONFIG_H

#include <jv.h>

#include "run/run.h"

/* The registry copy Harbor reads, with absolute task paths, in the job
 * directory beside Harbor's own files. */
#define HARBOR_RESOLVED_REGISTRY_FILE "pc-e2e-registry.json"
#define SETTLE_PLUGIN_CLASS           "pc_e2e_harbor.settle:SettlePlugin"

/* The JobConfig (owned) of r's job in job_dir, for the task in task_dir
 * (NULL: r's registry dataset). */
jv harbor_job_config(const struct workload_run *r, const char *task_dir, const char *job_dir);

#endif
