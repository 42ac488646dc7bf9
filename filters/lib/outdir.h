/* outdir: where a workload's files live under an --output directory
 * (docs/DESIGN.md §2.6), spelled here once for the four filters that write
 * there.
 *
 * A workload run alone keeps its files in DIR/<id>/.  The members of a
 * batch merged into one shared trial keep theirs in
 * DIR/batch-<name>/tasks/<id>/, beside the batch's own files in
 * DIR/batch-<name>/ (its Harbor jobs, its merged task, its aggregate
 * evaluation and report), as PowerContext 1.4.1 lays them out.  Each arm
 * of a paired comparison keeps its observation and its Harbor jobs in
 * DIR/<id>/trial-<n>/<off|on>/.
 */
#ifndef PC_OUTDIR_H
#define PC_OUTDIR_H

#include <jv.h>

/* The merged task's directory under a batch's directory. */
#define OUTDIR_RUNTIME_DATASET "harbor-runtime-dataset"
/* Harbor's job directories under a workload's or a batch's directory. */
#define OUTDIR_HARBOR_JOBS "harbor-jobs"

/* The evaluation case attribute (pc-e2e's own) naming a member's merged
 * batch, so that pc-report finds its directory without the replay. */
#define OUTDIR_CASE_BATCH "batch"

/* A batch's own directory, relative: "batch-<name>" (owned). */
char *outdir_batch(const char *batch);

/* A workload's directory, relative (owned): "<id>" alone, or
 * "batch-<name>/tasks/<id>" for a member of that merged batch. */
char *outdir_workload(const char *id, const char *batch);

/* A paired trial's directory, relative (owned): "<id>/trial-<n>". */
char *outdir_trial(const char *id, int trial);

/* A paired arm's directory, relative (owned): "<id>/trial-<n>/<arm>". */
char *outdir_arm(const char *id, int trial, const char *arm);

/* The workload's batch:<name> group (borrowed from workload), or NULL. */
const char *outdir_batch_of(jv workload);

#endif
