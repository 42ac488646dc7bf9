/* aggregate: a merged batch's own evaluation (docs/DESIGN.md §2.6).
 *
 * The members of one batch run (consecutive cases with the same batch and
 * run id) are written again together, in order, as
 * DIR/batch-<name>/eval-report.json in the experiment
 * "<prefix>:batch:<name>", as PowerContext 1.4.1 writes it.
 */
#ifndef PC_EVALUATE_AGGREGATE_H
#define PC_EVALUATE_AGGREGATE_H

#include <jv.h>

#include "err.h"
#include "redact.h"

struct aggregate {
	const char *prefix, *outdir; /* borrowed: --experiment-prefix, --output */
	const struct redactor *red;  /* borrowed */
	jv batch, run_id;            /* owned: the open batch's, or null */
	jv cases;                    /* owned: its cases so far */
};

void aggregate_init(struct aggregate *a, const char *prefix, const char *outdir,
		    const struct redactor *red);
/* One evaluation document (consumed), or the end of the stream
 * (jv_invalid()): a batch that ended is written. */
int aggregate_add(struct aggregate *a, jv evaluation, struct pc_err *e);
void aggregate_free(struct aggregate *a);

#endif
