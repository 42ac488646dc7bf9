/* local: the runner without Harbor (docs/DESIGN.md §5.5): the trial run
 * here, step by step (local_step.h), and the Harbor-shaped job and trial
 * files pc-normalize reads.
 */
#ifndef PC_RUN_BUB_LOCAL_H
#define PC_RUN_BUB_LOCAL_H

#include "run/run.h"

/* The runner's execute (runners.h): the task in task_dir, or r's registry
 * task (NULL), run here; the job directory is written whatever happens. */
struct runner_result local_runner_run(struct workload_run *r, const char *task_dir);

#endif
