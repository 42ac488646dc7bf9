/* local_acp: the local runner's agent for one step, over ACP in a
 * bubblewrap sandbox, and the terminals it asks for (docs/DESIGN.md §5.5,
 * §5.6).
 */
#ifndef PC_RUN_BUB_LOCAL_ACP_H
#define PC_RUN_BUB_LOCAL_ACP_H

#include <jv.h>

#include "run/run.h"

/* Where one step's files go, each owned (local_step.c makes them); the
 * agent and its terminals run in them. */
struct step_paths {
	char *dir, *agent, *verifier, *workspace, *tests;
};

/* The step's agent in a new ACP session inside a sandbox, given the
 * instruction, for up to timeout_s (0: no limit): its agent_result, and
 * *exception set when it failed.  The first agent that answers initialize
 * is noted in res. */
jv local_agent(struct workload_run *r, struct runner_result *res, const struct step_paths *sp,
	       const char *instruction, double timeout_s, jv *exception);

#endif
