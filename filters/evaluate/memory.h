/* memory: what a Memory workload's run captured, wrote to Memory and
 * recalled: the counts of docs/DESIGN.md §3 over its capture records,
 * Memory snapshots and probes.
 */
#ifndef PC_EVALUATE_MEMORY_H
#define PC_EVALUATE_MEMORY_H

#include <jv.h>

#include "facts.h"

/* Fill *c, *m and *p from replay (borrowed), whose counts start at 0; the
 * jv fields filled are owned by the caller and freed by facts_free. */
void memory_count(jv replay, struct capture_facts *c, struct memory_facts *m,
		  struct probe_facts *p);

#endif
