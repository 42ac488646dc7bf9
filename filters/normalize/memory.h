/* memory: a Memory snapshot as a replay keeps it ({entries}), from the
 * listing pc-run-bub read from the Server before or after the run: a
 * legacy entry (before PowerContext 1.3.0) with its citation and source
 * references, an atomic record (1.3.0+) with its lineage from the revision
 * pc-run-bub read for it.
 */
#ifndef PC_NORMALIZE_MEMORY_H
#define PC_NORMALIZE_MEMORY_H

#include <jv.h>

/* The snapshot of listing (consumed; null: none, and no entries). */
jv memory_snapshot(jv listing);

#endif
