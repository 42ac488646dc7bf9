/* plan: how many workloads a paired comparison needs, and what one could
 * detect (docs/DESIGN.md §11.8), in the words of pc-report --plan and of
 * the paired text report.  The test and its power are sign_power.h's.
 *
 * A workload's outcome is the sign of its mean ON minus OFF delta in the
 * paired report (tasks[].mean_delta): it helps above 0 and hurts below.
 * Its rates count only workloads with a scored pair: one without tells
 * nothing of how the next run of it goes.
 */
#ifndef PC_REPORT_PLAN_H
#define PC_REPORT_PLAN_H

#include <jv.h>

#include "text.h"

struct plan_pilot_unit;

/* Workloads with a scored pair, and how they fell. */
struct plan_sample {
	int scored, helped, hurt;
	int trials; /* the trials per arm they were measured at */
};

/* The sample of a paired report (borrowed). */
struct plan_sample plan_sample_of(jv report);

/* What a plan is asked: per-workload rates (at trials), and the run. */
struct plan_request {
	double help, hurt;
	int workloads, trials, nodes;
	const struct plan_sample *pilot; /* where the rates come from, or NULL */
	/* the pilot's spend and time per unit, or NULL (plan_expected.h) */
	const struct plan_pilot_unit *pilot_unit;
};

/* The plan in text (lines) or, with json, as one JSON object and a newline. */
void plan_add(struct sbuf *b, const struct plan_request *r, int json);

/* The paired text report's line of what its own sample could detect. */
void plan_add_detectable(struct sbuf *b, const struct plan_sample *s);

#endif
