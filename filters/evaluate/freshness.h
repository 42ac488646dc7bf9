/* freshness: whether a replay still describes its workload as the catalog
 * has it now (docs/DESIGN.md §3.7).  A replay carries the manifest it ran
 * (`task`); rescoring with pc-evaluate --catalog compares it with the
 * current catalog's manifest of the same id.  A workload whose manifest
 * changed since (other probes, fragments, thresholds, checksum) or that the
 * catalog no longer has is stale: still evaluated and shown, never counted
 * as passed (verdict.h).
 */
#ifndef PC_EVALUATE_FRESHNESS_H
#define PC_EVALUATE_FRESHNESS_H

#include <jv.h>

#include "err.h"

/* The current manifests of the catalog at path (root resolving its
 * datasets and provenance, as pc-select's --root): id to normalized
 * manifest (owned in *out); -1 with the catalog's problems printed on
 * stderr and e saying so. */
int freshness_load(const char *path, const char *root, jv *out, struct pc_err *e);

/* Null when the replay's task (borrowed) is its workload's current manifest
 * in current (borrowed); else pc-e2e's "stale" attribute (owned):
 * {"changed": [dotted fields]} or {"removed": true} when the catalog no
 * longer has the workload. */
jv freshness_of(jv task, jv current);

#endif
