/* scores: the scores, labels and metrics of a case (docs/DESIGN.md §3).
 *
 * Each returns an object owned by the caller, read from the case's facts
 * (borrowed) alone.  Only a Memory case has scores and metrics: the others
 * get empty objects, as PowerContext 1.4.1 writes them.
 */
#ifndef PC_EVALUATE_SCORES_H
#define PC_EVALUATE_SCORES_H

#include <jv.h>

#include "facts.h"

/* Name to {value, reason null}, the Harbor rewards last, names sorted. */
jv scores_of(const struct facts *f);

/* task_outcome: {value, reason null}. */
jv labels_of(const struct facts *f);

/* Name to number. */
jv metrics_of(const struct facts *f);

#endif
