/* plan_expected: what a planned paired run is expected to spend and how
 * long it is expected to take, scaled from a pilot run's own figures
 * (docs/DESIGN.md §11.8): its paired-run.json's tokens and cost per arm
 * and role, and how long its units took (pc-evaluate --paired).
 *
 * A unit is one trial of one workload, both its arms; the pilot's means
 * per unit are multiplied by the planned units.  Wall time on N nodes is
 * the units' seconds over N, and never less than the pilot's longest
 * unit: it counts the arms' own time, not a unit's Server start.
 */
#ifndef PC_REPORT_PLAN_EXPECTED_H
#define PC_REPORT_PLAN_EXPECTED_H

#include <jv.h>

#include "err.h"
#include "text.h"

/* x rounded to 4 places: a plan's figures are estimates, and a fifth
 * place would only print floating point's noise. */
double plan_places4(double x);

/* A pilot's figures per unit; a figure below 0 is unknown. */
struct plan_pilot_unit {
	int units; /* the pilot's units; 0: it has no paired-run.json */
	double agent_input, agent_cached, agent_output;
	double extraction_input, extraction_output;
	double usd; /* unknown when the pilot ran without PRICES */
	double seconds, longest_seconds;
};

/* The pilot run in dir (its OUTPUT) into *u; -1 with e naming the file
 * that cannot be read. */
int plan_pilot_load(const char *dir, struct plan_pilot_unit *u, struct pc_err *e);

/* What units of the pilot's kind are expected to cost, on nodes: as a
 * JSON object (owned; null without a pilot's units), or in a line of
 * words after the label. */
jv plan_expected_json(const struct plan_pilot_unit *u, long long units, int nodes);
void plan_expected_text(struct sbuf *b, const char *label, const struct plan_pilot_unit *u,
			long long units, int nodes);

#endif
