/* batch: which workloads form a batch, and whether they can share a trial
 * (batch.h); batch_trial.c runs them. */
#include <stdlib.h>
#include <string.h>

#include "base/toml.h"
#include "batch/batch.h"
#include "docs.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "outdir.h"
#include "text.h"

/* ---- groups ---- */

int *batch_units(jv selections, int n)
{
	int *unit = pc_xmalloc((size_t)n * sizeof *unit);
	jv first = jv_object(); /* batch name: the index of its first selection */

	jv_array_foreach(selections, i, sel) {
		jv w = json_get(sel, "workload");
		const char *batch = outdir_batch_of(w);
		jv seen = batch ? jv_object_get(jv_copy(first), jv_string(batch)) : jv_invalid();
		unit[i] = jv_is_valid(seen) ? (int)jv_number_value(seen) : i;
		if (batch && !jv_is_valid(seen))
			first = jv_object_set(first, jv_string(batch), jv_number(i));
		jv_free(seen);
		jv_free(w);
		jv_free(sel);
	}
	jv_free(first);
	return unit;
}

int batch_size(const struct fleet *f, int first)
{
	int n = 0;

	for (int i = first; i < f->n; i++)
		n += f->unit_of[i] == first;
	return n;
}

/* ---- one member's source task ---- */

int batch_source_load(struct source *s, jv selection, const char *batch, struct pc_err *e)
{
	if (source_load(s, selection, e) != 0)
		return pc_wrap(e, "batch %s: ", batch);
	const char *id = json_str(s->workload, "id");
	const char *strategy = json_str(s->toml, "multi_step_reward_strategy");
	jv steps = source_steps(s);
	int rc = 0;

	if (jv_array_length(jv_copy(steps)) == 0)
		rc = pc_fail(e, "batch %s: workload %s: its task.toml declares no [[steps]]", batch,
			     id);
	else if (!(strategy && !strcmp(strategy, "final")))
		rc = pc_fail(e,
			     "batch %s: workload %s: its task's multi_step_reward_strategy is %s; a batch needs \"final\"",
			     batch, id, strategy ? strategy : "not set (Harbor's \"mean\")");
	jv_free(steps);
	return rc;
}

static jv tree_hash(const char *task_dir, const char *name)
{
	char *dir = io_join(task_dir, name), hex[SHA256_HEX_LEN + 1];
	struct pc_err e;
	jv out = harbor_task_checksum(dir, hex, &e) == 0 ? jv_string(hex) : jv_null();

	free(dir);
	return out;
}

/* What must be the same for two tasks to share one trial, as 1.4.1
 * compares it: where the task comes from (but which), how the agent runs,
 * what it captures, the task's Harbor settings but its steps, and the
 * environment and tests the trial is built from. */
static jv profile_of(const struct source *s)
{
	jv dataset = json_get(s->workload, "dataset");
	jv evaluation = json_get(s->workload, "evaluation");
	jv capture = docs_evaluation_kind(evaluation) == EVALUATION_MEMORY
			     ? JV_ARRAY(json_get(evaluation, "capture_events"),
					json_get(evaluation, "checkpoint_every_events"),
					json_get(evaluation, "max_event_bytes"))
			     : JV_ARRAY(jv_false(), jv_number(5), jv_number(8192));

	dataset = jv_object_delete(jv_object_delete(dataset, jv_string("task_id")),
				   jv_string("checksum"));
	jv_free(evaluation);
	return JV_OBJECT(jv_string("dataset"), dataset,
			 jv_string("execution"), json_get(s->workload, "execution"),
			 jv_string("capture"), capture,
			 jv_string("harbor"),
			 jv_object_delete(jv_copy(s->toml), jv_string("steps")),
			 jv_string("environment"), tree_hash(s->dir, "environment"),
			 jv_string("tests"), tree_hash(s->dir, "tests"));
}

/* The profile keys where b (consumed) differs from a (borrowed), or "". */
static char *differences(jv a, jv b)
{
	struct sbuf names = { 0 };

	jv_object_foreach(a, key, value) {
		if (!jv_equal(value, json_get(b, jv_string_value(key))))
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", jv_string_value(key));
		jv_free(key);
	}
	jv_free(b);
	return sbuf_take(&names);
}

/* ---- the check before anything runs ---- */

static int check_group(jv selections, const int *unit, int n, int first, struct pc_err *e)
{
	jv w = jv_getpath(jv_copy(selections), JV_ARRAY(jv_number(first), jv_string("workload")));
	const char *batch = outdir_batch_of(w);
	struct source s0, s;
	jv ids = jv_object(), profile = jv_null();
	int rc = 0, loaded = 0;

	for (int i = first; i < n && rc == 0; i++) {
		if (unit[i] != first)
			continue;
		jv sel = jv_array_get(jv_copy(selections), i);
		struct source *into = loaded ? &s : &s0;
		if ((rc = batch_source_load(into, sel, batch, e)) == 0) {
			const char *id = json_str(into->workload, "id");
			if (jv_object_has(jv_copy(ids), jv_string(id)))
				rc = pc_fail(e, "batch %s: workload %s is selected twice", batch,
					     id);
			ids = jv_object_set(ids, jv_string(id), jv_true());
		}
		if (rc == 0 && !loaded)
			profile = profile_of(&s0);
		else if (rc == 0) {
			char *diff = differences(profile, profile_of(&s));
			if (*diff)
				rc = pc_fail(e,
					     "batch %s: workload %s cannot share a trial with %s: their %s differ",
					     batch, json_str(s.workload, "id"),
					     json_str(s0.workload, "id"), diff);
			free(diff);
		}
		if (loaded || rc != 0)
			source_free(into);
		loaded = loaded || rc == 0;
		jv_free(sel);
	}
	if (loaded)
		source_free(&s0);
	jv_free(profile);
	jv_free(ids);
	jv_free(w);
	return rc;
}

int batch_check(jv selections, struct pc_err *e)
{
	int n = jv_array_length(jv_copy(selections)), rc = 0;
	int *unit = batch_units(selections, n), *size = calloc((size_t)n + 1, sizeof *size);

	for (int i = 0; i < n; i++)
		size[unit[i]]++;
	for (int i = 0; i < n && rc == 0; i++)
		if (unit[i] == i && size[i] > 1)
			rc = check_group(selections, unit, n, i, e);
	free(size);
	free(unit);
	return rc;
}
