/* runners: every way pc-run-bub can run a workload, one row each
 * (docs/DESIGN.md §5).  The option parser, the usage text and the dispatch
 * all read runners[]; a new runner is its own module, its entry points in
 * its header and its row in runners.c.
 */
#ifndef PC_RUN_BUB_RUNNERS_H
#define PC_RUN_BUB_RUNNERS_H

#include "err.h"
#include "run/run.h"
#include "text.h"

/* Every runner, the default first; a row with a NULL name ends it. */
extern const struct runner runners[];

/* The i-th runner's name, NULL past the last: the table's choice_name_at
 * (choice.h; table unused). */
const char *runner_name_at(const void *table, size_t i);

/* The runner --runner name selects, or NULL. */
const struct runner *runner_named(const char *name);

#endif
