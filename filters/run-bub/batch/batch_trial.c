/* batch_trial: a batch's workloads run as one shared trial (batch_trial.h): the
 * merged task, the members' preparation, the trial on the runner, and each
 * member's share of it. */
#include <stdlib.h>
#include <string.h>

#include "base/harbor.h"
#include "base/toml.h"
#include "batch/batch.h"
#include "batch/batch_trial.h"
#include "harbor_layout.h"
#include "io.h"
#include "json.h"
#include "outdir.h"
#include "run/workload.h"
#include "text.h"

/* ---- the merged task ---- */

/* Under DIR/batch-<name>/harbor-runtime-dataset/: the first member's
 * environment and tests, every member's steps as <id>-<step> in order, and
 * the first member's task.toml over those steps, each gated at reward 1
 * under fail-fast and not at all under collect-all; NULL with e. */
static char *merge_tasks(const struct fleet *f, const char *batch, const struct source *src, int n,
			 struct pc_err *e)
{
	static const char *const shared[] = { "environment", "tests" };
	char hex[13], *home = outdir_batch(batch);
	int fail_fast = !strcmp(f->o->policy, "fail-fast");

	harbor_random_hex(hex, 12);
	char *dir = text_fmt("%s/%s/" OUTDIR_RUNTIME_DATASET "/batch-%s-%s", f->outdir, home, batch,
			     hex);
	jv steps = jv_array();
	int rc = io_mkdirs(dir, e);

	free(home);
	for (size_t i = 0; rc == 0 && i < sizeof shared / sizeof *shared; i++) {
		char *from = io_join(src[0].dir, shared[i]), *to = io_join(dir, shared[i]);
		rc = io_copy_tree(from, to, e);
		free(from);
		free(to);
	}
	for (int k = 0; rc == 0 && k < n; k++) {
		jv own = json_get(src[k].toml, "steps");
		jv_array_foreach(own, i, step) {
			char *from = text_fmt("%s/steps/%s", src[k].dir, json_str(step, "name"));
			char *name = text_fmt("%s-%s", json_str(src[k].workload, "id"),
					      json_str(step, "name"));
			char *to = text_fmt("%s/steps/%s", dir, name);
			if (rc == 0)
				rc = io_copy_tree(from, to, e);
			step = jv_object_set(step, jv_string("name"), jv_string(name));
			step = jv_object_delete(step, jv_string("min_reward"));
			if (fail_fast)
				step = jv_object_set(step, jv_string("min_reward"), jv_number(1));
			steps = jv_array_append(steps, step);
			free(from);
			free(name);
			free(to);
		}
		jv_free(own);
	}
	jv merged = jv_object_set(jv_copy(src[0].toml), jv_string("steps"), steps);
	char *text = toml_dump(merged);
	jv_free(merged);
	if (rc == 0)
		rc = io_write_artifact(dir, "task.toml", text, strlen(text), e);
	free(text);
	if (rc == 0)
		return dir;
	free(dir);
	return NULL;
}

/* ---- the run ---- */

struct member {
	struct source src;
	struct workload_run run;
	jv readiness, before; /* owned: the Server's answers before the trial */
	jv steps;             /* owned: its steps' names in the merged task */
};

/* Each agent invocation's member scope and model, in the merged task's
 * step order. */
static jv invocations_of(const struct member *m, int n)
{
	jv list = jv_array();

	for (int k = 0; k < n; k++)
		jv_array_foreach(m[k].steps, i, name) {
			jv inv = JV_OBJECT(jv_string("scope"), jv_string(m[k].run.scope));
			if (m[k].run.agent_model)
				inv = jv_object_set(inv, jv_string("model"),
						    jv_string(m[k].run.agent_model));
			list = jv_array_append(list, inv);
			jv_free(name);
		}
	return list;
}

static jv runtime_steps(const struct source *s)
{
	jv out = jv_array(), steps = json_get(s->toml, "steps");

	if (jv_get_kind(steps) == JV_KIND_ARRAY)
		jv_array_foreach(steps, i, step) {
			const char *id = json_str(s->workload, "id");
			out = jv_array_append(out,
					      jv_string_fmt("%s-%s", id, json_str(step, "name")));
			jv_free(step);
		}
	jv_free(steps);
	return out;
}

/* The step results of the trial the runner wrote (owned), [] for none. */
static jv trial_steps(const struct workload_run *trial)
{
	jv result, steps = jv_null();
	struct pc_err e;
	char *path = trial->result.trial_dir ? io_join(trial->result.trial_dir, HARBOR_RESULT_FILE)
					     : NULL;

	if (path && json_read_file(path, &result, &e) == 0) {
		steps = json_get(result, "step_results");
		jv_free(result);
	}
	free(path);
	if (jv_get_kind(steps) == JV_KIND_ARRAY)
		return steps;
	jv_free(steps);
	return jv_array();
}

/* Of the trial's step results (borrowed), those of the steps names (borrowed). */
static jv owned_steps(jv results, jv names)
{
	jv own = jv_array();

	jv_array_foreach(results, i, step) {
		jv name = json_get(step, "step_name");
		int mine = 0;
		jv_array_foreach(names, j, n) {
			/* jv_equal frees both: called for every name, matched or not */
			int same = jv_equal(jv_copy(name), n);
			mine = mine || same;
		}
		own = mine ? jv_array_append(own, step) : (jv_free(step), own);
		jv_free(name);
	}
	return own;
}

/* Member k's share of the trial: its steps' exceptions and rewards, the
 * trial's errors when it owns them, a missing step; 1 when it is skipped. */
static int attribute(struct member *mk, const struct workload_run *trial, jv results, int owner)
{
	struct workload_run *r = &mk->run;
	jv own = owned_steps(results, mk->steps), ran = jv_object(), missing = jv_array();
	int n_own = jv_array_length(jv_copy(own));

	/* a member with nothing run and nothing of its own gone wrong was skipped */
	if (!n_own && !owner && jv_array_length(jv_copy(r->errors)) == 0) {
		jv_free(own);
		jv_free(ran);
		jv_free(missing);
		return 1;
	}
	if (owner)
		jv_array_foreach(trial->errors, i, msg) {
			run_error(r, "%s", jv_string_value(msg));
			jv_free(msg);
		}
	jv_array_foreach(own, i, step) {
		jv exception = json_get(step, "exception_info");
		if (jv_get_kind(exception) == JV_KIND_OBJECT)
			run_step_exception(r, json_str(step, "step_name"), exception);
		ran = jv_object_set(ran, json_get(step, "step_name"), jv_true());
		jv_free(r->result.rewards);
		r->result.rewards = json_at(step, HARBOR_REWARDS_PATH);
		jv_free(exception);
		jv_free(step);
	}
	jv_array_foreach(mk->steps, i, name) {
		if (!jv_object_has(jv_copy(ran), jv_copy(name)))
			missing = jv_array_append(missing, jv_copy(name));
		jv_free(name);
	}
	if (jv_array_length(jv_copy(missing)) > 0) {
		jv text = jv_dump_string(jv_copy(missing), 0);
		run_error(r, "the shared trial did not run its steps %s", jv_string_value(text));
		jv_free(text);
	}
	jv_free(missing);
	jv_free(ran);
	jv_free(own);
	return 0;
}

/* What the member's record says of the shared trial: its job, its agent. */
static void share_trial(struct workload_run *r, const struct runner_result *t,
			const struct source *s, jv steps, const char *batch)
{
	r->result.job_dir = t->job_dir ? pc_xstrdup(t->job_dir) : NULL;
	r->result.trial_dir = t->trial_dir ? pc_xstrdup(t->trial_dir) : NULL;
	r->result.trial_name = t->trial_name ? pc_xstrdup(t->trial_name) : NULL;
	jv_free(r->result.agent_info);
	r->result.agent_info = jv_copy(t->agent_info);
	r->result.protocol = t->protocol;
	jv_free(r->batch);
	r->batch = JV_OBJECT(jv_string("name"), jv_string(batch),
			     jv_string("steps"), jv_copy(steps),
			     jv_string("source_task_checksum"), jv_string(s->checksum));
}

/* Every member's model and scope, and for a Memory member its baseline;
 * 0 when all were ready. */
static int prepare_members(const struct fleet *f, int first, struct member *m, const char *run_id,
			   const char *batch)
{
	int k = 0, ready = 1;
	struct pc_err e;

	for (int i = first; i < f->n; i++) {
		if (f->unit_of[i] != first)
			continue;
		struct member *mk = &m[k++];
		jv sel = jv_array_get(jv_copy(f->selections), i);
		run_begin(&mk->run, f, i);
		run_join_batch(&mk->run, run_id, batch);
		mk->readiness = mk->before = jv_null();
		if (batch_source_load(&mk->src, sel, batch, &e) != 0) {
			run_error(&mk->run, "%s", e.msg);
			ready = 0;
		} else if (workload_prepare(&mk->run, &mk->readiness, &mk->before) != 0)
			ready = 0;
		mk->steps = runtime_steps(&mk->src);
		jv_free(sel);
	}
	return ready ? 0 : -1;
}

/* The merged task on the runner, as the trial run of the batch. */
static void run_trial(const struct fleet *f, struct workload_run *trial, struct member *m, int n,
		      const char *batch, int ready)
{
	struct pc_err e;
	struct source *src = pc_xmalloc((size_t)n * sizeof *src);

	for (int k = 0; k < n; k++)
		src[k] = m[k].src;
	char *dir = ready ? merge_tasks(f, batch, src, n, &e) : NULL;
	if (ready) {
		trial->invocations = invocations_of(m, n);
		run_bind_invocation(trial, 0);
	}
	if (!ready)
		run_error(trial,
			  "the shared trial did not run: a workload of the batch could not be prepared");
	else if (!dir)
		run_error(trial, "%s", e.msg);
	else {
		run_progress(trial, "batch %s: %d workloads in one trial, run %s", batch, n,
			     trial->run_id);
		trial->result = f->o->runner->execute(trial, dir);
	}
	workload_scrub(trial);
	free(dir);
	free(src);
}

jv batch_run(const struct fleet *f, int first)
{
	int n = batch_size(f, first), owner = 0;
	struct member *m = pc_xmalloc((size_t)n * sizeof *m);
	jv w = jv_getpath(jv_copy(f->selections),
			  JV_ARRAY(jv_number(first), jv_string("workload")));
	const char *batch = outdir_batch_of(w);
	char hex[13], run_id[128];
	struct workload_run trial;

	harbor_random_hex(hex, 12);
	snprintf(run_id, sizeof run_id, "batch-%s-%s", batch, hex);
	int ready = prepare_members(f, first, m, run_id, batch) == 0;
	run_begin(&trial, f, first);
	run_join_batch(&trial, run_id, batch);
	trial.label = outdir_batch(batch);
	run_trial(f, &trial, m, n, batch, ready);
	jv results = trial_steps(&trial), records = jv_array();
	/* the trial's own errors go to the last member with a step run */
	for (int k = 0; k < n; k++) {
		jv own = owned_steps(results, m[k].steps);
		owner = jv_array_length(jv_copy(own)) > 0 ? k : owner;
		jv_free(own);
	}
	for (int k = 0; k < n; k++) {
		int skipped = attribute(&m[k], &trial, results, k == owner);
		share_trial(&m[k].run, &trial.result, &m[k].src, m[k].steps, batch);
		records = jv_array_append(records, workload_finish(&m[k].run, skipped,
								   m[k].readiness, m[k].before));
		jv_free(m[k].steps);
		source_free(&m[k].src);
		run_end(&m[k].run);
	}
	jv_free(results);
	run_end(&trial);
	jv_free(w);
	free(m);
	return records;
}
