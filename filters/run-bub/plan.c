/* plan: the units of a run (plan.h). */
#include "plan.h"

#include <stdlib.h>

#include "batch/batch.h"
#include "json.h"
#include "outdir.h"
#include "stage.h"

/* The unit whose first selection is first: its directory (owned) and the
 * indexes of its selections. */
static jv unit_of_selections(jv selections, const int *unit_of, int n, int first, int trial)
{
	jv w = jv_getpath(jv_copy(selections), JV_ARRAY(jv_number(first), jv_string("workload")));
	const char *id = json_str(w, "id"), *batch = outdir_batch_of(w);
	char *dir = trial ? outdir_trial(id, trial) : batch ? outdir_batch(batch)
							    : outdir_workload(id, NULL);
	jv members = jv_array();

	for (int i = first; i < n; i++)
		if (unit_of[i] == first)
			members = jv_array_append(members, jv_number(i));
	jv unit = JV_OBJECT(jv_string("unit"), jv_string(dir), jv_string("selections"), members,
			    jv_string("trial"), trial ? jv_number(trial) : jv_null());
	free(dir);
	jv_free(w);
	return unit;
}

int plan_print(const struct run_bub_options *o, jv selections, const struct redactor *red)
{
	int n = jv_array_length(jv_copy(selections)), *unit_of = batch_units(selections, n);
	/* trial 0 stands for a run without trials */
	int first = o->trial ? o->trial : o->trials ? 1
						    : 0,
	    last = o->trial ? o->trial : o->trials;
	struct pc_err e;
	int status = EXIT_OK;

	for (int i = 0; i < n && status == EXIT_OK; i++)
		for (int t = first; t <= last && unit_of[i] == i && status == EXIT_OK; t++) {
			jv unit = unit_of_selections(selections, unit_of, n, i, t);
			if (stage_emit(red, unit, &e) != 0)
				status = stage_die(o->prog, red, EXIT_INVALID, e.msg);
		}
	free(unit_of);
	return status;
}
