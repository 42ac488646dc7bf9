/* local: the runner without Harbor (docs/DESIGN.md §5.5).  It reads the
 * Harbor task itself and runs each step here (local_step.c): the agent in a
 * new ACP session inside a bubblewrap sandbox (its terminals in sandboxes
 * of their own), then the step's verifier; it writes the Harbor-shaped job
 * directory that pc-normalize reads.
 */
#include <stdlib.h>
#include <string.h>

#include "base/harbor.h"
#include "base/toml.h"
#include "clock.h"
#include "harbor_layout.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "local/local.h"
#include "local/local_step.h"
#include "run/agent.h"

static jv trial_config(const struct workload_run *r, const struct runner_result *res,
		       const char *task_dir)
{
	return JV_OBJECT(jv_string("task"), JV_OBJECT(jv_string("path"), jv_string(task_dir)),
			 jv_string("trial_name"), jv_string(res->trial_name),
			 jv_string("trials_dir"), jv_string(res->job_dir),
			 jv_string("agent"),
			 JV_OBJECT(jv_string("name"), jv_string("pc-e2e-local-acp"),
				   jv_string("command"), jv_string(r->agent->command)),
			 jv_string("environment"),
			 JV_OBJECT(jv_string("type"), jv_string("pc-e2e-local-bwrap")),
			 jv_string("job_id"), jv_string(r->run_id));
}

/* Harbor's min_reward gate after a step (result and min borrowed): a number
 * gates the "reward" reward, an object each of its keys; a missing reward
 * is below any minimum. */
static int below_min_reward(jv result, jv min)
{
	jv rewards = json_at(result, HARBOR_REWARDS_PATH), gate;
	int below = 0;

	if (jv_get_kind(min) == JV_KIND_NUMBER)
		gate = JV_OBJECT(jv_string("reward"), jv_copy(min));
	else if (jv_get_kind(min) == JV_KIND_OBJECT)
		gate = jv_copy(min);
	else
		gate = jv_object();
	jv_object_foreach(gate, key, floor) {
		jv got = json_get(rewards, jv_string_value(key));
		if (jv_get_kind(floor) == JV_KIND_NUMBER &&
		    (jv_get_kind(got) != JV_KIND_NUMBER ||
		     jv_number_value(got) < jv_number_value(floor)))
			below = 1;
		jv_free(got);
		jv_free(key);
		jv_free(floor);
	}
	jv_free(gate);
	jv_free(rewards);
	return below;
}

/* Run every step and write the trial and job files.  task_checksum is computed from the task
 * directory as it is run, never copied from the selection, so a task changed
 * after pc-select fails task_provenance_matches. */
static void run_trial(struct workload_run *r, struct runner_result *res, const char *task_dir)
{
	char checksum[SHA256_HEX_LEN + 1];
	struct pc_err e;
	char *toml_path = io_join(task_dir, "task.toml");
	jv task_toml, steps, results;
	char started[CLOCK_UTC_LEN], job_id[37], trial_id[37];
	int stop = 0;

	clock_utc_now(started);
	harbor_uuid(job_id);
	harbor_uuid(trial_id);
	if (harbor_task_checksum(task_dir, checksum, &e) != 0 ||
	    toml_load(toml_path, &task_toml, &e) != 0) {
		free(toml_path);
		run_error(r, "%s", e.msg);
		return;
	}
	free(toml_path);
	results = jv_array();
	if (harbor_write_json(res->trial_dir, HARBOR_CONFIG_FILE, trial_config(r, res, task_dir),
			      &e) != 0)
		run_error(r, "%s", e.msg);
	steps = jv_object_get(jv_copy(task_toml), jv_string("steps"));
	if (jv_get_kind(steps) != JV_KIND_ARRAY || jv_array_length(jv_copy(steps)) == 0) {
		run_error(
			r,
			"%s: task.toml declares no [[steps]]; the local runner runs multi-step tasks only",
			task_dir);
		jv_free(steps);
		steps = jv_array();
	}
	jv_array_foreach(steps, i, step) {
		if (!stop && json_str(step, "name") && run_bind_invocation(r, i) != 0)
			stop = 1;
		if (!stop && json_str(step, "name")) {
			jv result = local_step(r, res, task_dir, task_toml, step, &stop);
			jv min = json_get(step, "min_reward");
			stop = stop || below_min_reward(result, min);
			jv_free(min);
			results = jv_array_append(results, result);
		}
		jv_free(step);
	}
	jv_free(steps);
	const char *strategy = json_str(task_toml, "multi_step_reward_strategy");
	jv rewards = harbor_trial_rewards(jv_copy(results), strategy ? strategy : "mean");
	res->rewards = jv_copy(rewards);
	char *uri = harbor_file_uri(res->trial_dir);
	const char *slash = strrchr(task_dir, '/');
	/* Harbor's source: a path dataset's last component, a registry's name */
	jv dataset = json_at(r->workload, "dataset.path");
	if (jv_get_kind(dataset) != JV_KIND_STRING)
		jv_free(dataset), dataset = json_at(r->workload, "dataset.name");
	const char *dslash = strrchr(jv_string_value(dataset), '/');
	const char *source = dslash ? dslash + 1 : jv_string_value(dataset);
	jv result = JV_OBJECT(jv_string("id"), jv_string(trial_id),
			      jv_string("task_name"), jv_string(slash ? slash + 1 : task_dir),
			      jv_string("trial_name"), jv_string(res->trial_name),
			      jv_string("trial_uri"), jv_string(uri),
			      jv_string("task_id"),
			      JV_OBJECT(jv_string("path"), jv_string(task_dir)),
			      jv_string("source"), jv_string(source),
			      jv_string("task_checksum"), jv_string(checksum),
			      jv_string("config"), trial_config(r, res, task_dir));
	result = jv_object_set(result, jv_string("agent_info"),
			       JV_OBJECT(jv_string("name"), jv_string("pc-e2e-local-acp"),
					 jv_string("version"), jv_string(PC_VERSION),
					 jv_string("model_info"), jv_null()));
	result = jv_object_set(result, jv_string("agent_result"), jv_null());
	result = jv_object_set(result, jv_string("verifier_result"),
			       jv_get_kind(rewards) == JV_KIND_NULL
				       ? jv_null()
				       : JV_OBJECT(jv_string("rewards"), rewards));
	result = jv_object_set(result, jv_string("exception_info"), jv_null());
	result = jv_object_set(result, jv_string("started_at"), jv_string(started));
	char finished[CLOCK_UTC_LEN];
	clock_utc_now(finished);
	result = jv_object_set(result, jv_string("finished_at"), jv_string(finished));
	result = jv_object_set(result, jv_string("environment_setup"), harbor_timing(started));
	result = jv_object_set(result, jv_string("agent_setup"), harbor_timing(started));
	result = jv_object_set(result, jv_string("agent_execution"), jv_null());
	result = jv_object_set(result, jv_string("verifier"), jv_null());
	result = jv_object_set(result, jv_string("step_results"), results);
	if (harbor_write_json(res->trial_dir, HARBOR_RESULT_FILE, result, &e) != 0)
		run_error(r, "%s", e.msg);
	jv job = JV_OBJECT(jv_string("id"), jv_string(job_id),
			   jv_string("started_at"), jv_string(started),
			   jv_string("updated_at"), jv_string(finished),
			   jv_string("finished_at"), jv_string(finished),
			   jv_string("n_total_trials"), jv_number(1));
	if (harbor_write_json(res->job_dir, HARBOR_RESULT_FILE, job, &e) != 0)
		run_error(r, "%s", e.msg);
	free(uri);
	jv_free(dataset);
	jv_free(task_toml);
}

/* The job directory is written whatever happens; the trial is named as
 * Harbor names it, from the task directory. */
struct runner_result local_runner_run(struct workload_run *r, const char *task_dir)
{
	struct runner_result res = runner_result_none();
	struct pc_err e;

	/* a registry dataset runs here once --registry found its task */
	if (!task_dir)
		task_dir = r->registry_task;
	const char *slash = task_dir ? strrchr(task_dir, '/') : NULL;

	res.job_dir = io_join(r->jobs_dir, r->run_id);
	res.trial_name = harbor_trial_name(slash      ? slash + 1
					   : task_dir ? task_dir
						      : json_str(r->workload, "id"));
	res.trial_dir = io_join(res.job_dir, res.trial_name);
	if (!task_dir)
		run_error(
			r,
			"workload %s pins a registry dataset: without --registry only the harbor runner can fetch it",
			json_str(r->workload, "id"));
	else if (io_mkdirs(res.trial_dir, &e) != 0)
		run_error(r, "%s", e.msg);
	else
		run_trial(r, &res, task_dir);
	return res;
}
