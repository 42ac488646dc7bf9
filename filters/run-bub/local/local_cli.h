/* local_cli: the local runner's agent for one step when the arm's host is
 * a command-line program (hosts/cli_host.h; docs/DESIGN.md §5.5): one
 * bubblewrap sandbox running what Harbor's installed agent runs for the
 * step (the ON arm's plugin installed first), leaving the files Harbor
 * leaves in the step's agent/, and the host's token figures read from them.
 */
#ifndef PC_RUN_BUB_LOCAL_CLI_H
#define PC_RUN_BUB_LOCAL_CLI_H

#include <jv.h>

#include "local/local_acp.h"
#include "run/run.h"

/* The step's host (r->arm.cli) given the instruction, for up to timeout_s
 * (0: no limit): its agent_result, and *exception set, as Harbor raises it,
 * when a command failed.  The host's name and version are noted in res. */
jv local_cli(struct workload_run *r, struct runner_result *res, const struct step_paths *sp,
	     const char *instruction, double timeout_s, jv *exception);

#endif
