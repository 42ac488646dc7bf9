/* probes: a Memory workload's probes through prepare_context, after its
 * run (docs/DESIGN.md §5).
 */
#ifndef PC_RUN_BUB_PROBES_H
#define PC_RUN_BUB_PROBES_H

#include <jv.h>

#include "run/run.h"

/* Every probe of r's workload, answered in r's scope: the record's probes
 * array (owned); a probe that failed is also an error of the run. */
jv probes_collect(struct workload_run *r);

#endif
