/* local: the runner without Harbor (docs/DESIGN.md §5.5), in three parts:
 * local.c runs the trial and writes the Harbor-shaped job files,
 * local_step.c runs one step (its instruction, agent and verifier), and
 * local_acp.c speaks ACP with the step's agent and runs the terminals it
 * asks for.
 */
#ifndef PC_RUN_BUB_LOCAL_H
#define PC_RUN_BUB_LOCAL_H

#include <jv.h>

#include "run.h"

/* Where one step's files go, each owned. */
struct step_paths {
	char *dir, *agent, *verifier, *workspace, *tests;
};

/* One step (borrowed; task_toml too) of the trial in res: its step
 * result.  *stop is set when the trial must not go on. */
jv local_step(struct workload_run *r, struct runner_result *res, const char *task_dir,
	      jv task_toml, jv step, int *stop);

/* The step's agent in a new ACP session inside a sandbox, given the
 * instruction, for up to timeout_s (0: no limit): its agent_result, and
 * *exception set when it failed.  The first agent that answers initialize
 * is noted in res. */
jv local_agent(struct workload_run *r, struct runner_result *res, const struct step_paths *sp,
	       const char *instruction, double timeout_s, jv *exception);

#endif
