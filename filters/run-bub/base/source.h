/* source: a workload's own Harbor task, loaded and checked before it runs
 * in a shape of PowerContext 1.4.1's that needs its steps known first: as
 * a member of a merged batch (batch/batch.c) or as the arms of a paired
 * comparison (paired/paired.c).  The task must be local, the one its manifest
 * pins, with plain distinct step names.
 */
#ifndef PC_RUN_BUB_SOURCE_H
#define PC_RUN_BUB_SOURCE_H

#include <jv.h>

#include "err.h"
#include "hash.h"

struct source {
	jv workload; /* owned: the selection's */
	jv toml;     /* owned: its task.toml, or null when it could not be read */
	char *dir;   /* owned: its task directory, NULL for a registry dataset */
	char checksum[SHA256_HEX_LEN + 1];
};

/* Load the selection's (borrowed) task; -1 with e naming the workload and
 * what is wrong.  Every loaded source, failed or not, is freed by
 * source_free. */
int source_load(struct source *s, jv selection, struct pc_err *e);
void source_free(struct source *s);

/* Its [[steps]] (owned; an empty array for none). */
jv source_steps(const struct source *s);

#endif
