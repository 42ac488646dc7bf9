/* registry: a local Harbor registry, through which workloads that pin a
 * registry dataset ({name, version, task_id}) find their task
 * (docs/DESIGN.md §5.13).
 *
 * A registry is Harbor's JSON file: a list of datasets {name, version,
 * description, tasks: [{name, path}]}.  pc-e2e reads a task's relative path
 * against the registry file's directory (Harbor would read it against its
 * working directory), so a registry and its tasks can live in a repository;
 * Harbor is handed a copy with every path made absolute.
 */
#ifndef PC_RUN_BUB_REGISTRY_H
#define PC_RUN_BUB_REGISTRY_H

#include <jv.h>

#include "err.h"

/* The directory of the task dataset (a workload's, borrowed) names in the
 * registry file at path, malloc'd into *task_dir; -1 with e naming the
 * registry, the dataset and what is missing. */
int registry_task_dir(const char *path, jv dataset, char **task_dir, struct pc_err *e);

/* Write the registry file at path to dir/name with every local task's path
 * absolute, for Harbor; -1 with e. */
int registry_write_resolved(const char *path, const char *dir, const char *name,
			    struct pc_err *e);

#endif
