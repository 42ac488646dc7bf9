/* scores: the scores, labels and metrics of a case (docs/DESIGN.md §3).
 *
 * Each writes an object read from the case's facts alone.  Only a Memory
 * case has scores and metrics: the others get empty objects, as
 * PowerContext 1.4.1 writes them.
 */
#ifndef PC_EVALUATE_SCORES_H
#define PC_EVALUATE_SCORES_H

#include "facts.h"
#include "json_out.h"

/* Name to {value, reason null}, the Harbor rewards last, names sorted. */
void scores_write(struct json_out *o, const struct facts *f);

/* task_outcome: {value, reason null}. */
void labels_write(struct json_out *o, const struct facts *f);

/* Name to number. */
void metrics_write(struct json_out *o, const struct facts *f);

#endif
