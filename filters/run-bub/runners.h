/* runners: every way pc-run-bub can run a workload, one row each
 * (docs/DESIGN.md §5).  The option parser, the usage text and the dispatch
 * all read runners[]; a new runner is its own module, its entry points in
 * its header and its row in runners.c.
 */
#ifndef PC_RUN_BUB_RUNNERS_H
#define PC_RUN_BUB_RUNNERS_H

#include "err.h"
#include "run.h"
#include "text.h"

struct runner {
	const char *name; /* as --runner takes it; pc-run-bub(1) describes it */
	/* 1: it fetches a registry dataset from Harbor's own registry when no
	 * --registry names one, and runs a task's Docker image given
	 * --harbor-env; 0: it reads registry tasks through --registry only and
	 * runs every task on this machine's system */
	int harbor_environments;
	/* before any workload runs: what the runner needs is there (NULL:
	 * nothing to check) */
	int (*check)(const struct run_bub_options *o, const struct pc_client *c,
		     const char *project, const struct agent *agent, jv selections,
		     struct pc_err *e);
	/* Execute the task in task_dir (NULL: a registry dataset), writing the
	 * job under r->jobs_dir/<run id>; every failure is a run_error. */
	struct runner_result (*execute)(struct workload_run *r, const char *task_dir);
};

/* Every runner, the default first; a row with a NULL name ends it. */
extern const struct runner runners[];

/* The i-th runner's name, NULL past the last: the table's choice_name_at
 * (choice.h; table unused). */
const char *runner_name_at(const void *table, size_t i);

/* The runner --runner name selects, or NULL. */
const struct runner *runner_named(const char *name);

#endif
