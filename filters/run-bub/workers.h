/* workers: pc-run-bub's workloads side by side (--jobs N, docs/DESIGN.md §5.12).
 *
 * The workloads fall into units, each run from start to end by a worker
 * process of its own (fork): a workload alone, or a fail-fast batch, whose
 * workloads follow one another in selection order.  A worker writes its
 * records on its stdout, a pipe to the parent, which writes them on its own
 * stdout in selection order, each as soon as every record before it is out.
 * Workers share nothing mutable: each has its copy of what the parent held
 * when it forked, and none has threads.  A stop request reaches every
 * running worker, which finishes its workload as a lone pc-run-bub does, and
 * no unit starts after it.  A worker that dies leaves the workload it owed a
 * failed record naming how it ended, and the rest of its batch skipped.
 * Each worker is a session of its own, whose leftovers the parent (their
 * child subreaper) ends and reaps when the worker ends.
 */
#ifndef PC_RUN_BUB_WORKERS_H
#define PC_RUN_BUB_WORKERS_H

#include "err.h"

/* The most units --jobs runs at once. */
#define JOBS_MAX 256

struct workers {
	int n;              /* workloads, in selection order */
	const int *unit_of; /* per workload: the index of its unit's first workload */
	int max;            /* units running at once */
	const char *prog;   /* the filter's name, as a worker's failure names it */
	void *ctx;
	/* in a worker: the unit's workloads, records on stdout; the worker's status */
	int (*run_unit)(void *ctx, int unit);
	/* in the parent: the record line (malloc'd, newline-terminated) of
	 * workload i, which its worker did not write: failed with why, how
	 * the worker ended, or skipped when why is NULL */
	char *(*unwritten)(void *ctx, int i, const char *why);
};

/* Every unit, up to j->max at once.  In the parent: 0 once every worker has
 * ended, or -1 with e when stdout failed (the running workers are stopped
 * and reaped first).  In a worker, *worker is set and run_unit's status is
 * returned, for the caller to free what it holds and exit with. */
int workers_run(const struct workers *j, int *worker, struct pc_err *e);

#endif
