/* harbor_trial: a run's Harbor trial and job results (harbor_trial.h). */
#include <stdlib.h>
#include <string.h>

#include "harbor_layout.h"
#include "harbor_trial.h"
#include "io.h"
#include "json.h"

static jv str_or_null(jv v)
{
	if (jv_get_kind(v) == JV_KIND_STRING)
		return v;
	jv_free(v);
	return jv_null();
}

/* Whether a step result (borrowed) is one of steps (borrowed). */
static int owned_step(jv step, jv steps)
{
	jv name = json_get(step, "step_name");
	int owned = 0;

	jv_array_foreach(steps, i, s) {
		/* jv_equal frees both: called for every step, matched or not */
		int same = jv_equal(jv_copy(name), s);
		owned = owned || same;
	}
	jv_free(name);
	return owned;
}

/* For a member of a merged batch (batch borrowed), what its own steps say
 * in place of the trial's: the last one's rewards, the first exception
 * among them, else a failed member's trial exception. */
static void member_outcome(jv batch, jv result, const char *status, jv *rewards, jv *exception)
{
	jv steps = json_get(batch, "steps"), results = json_get(result, "step_results");
	jv own_rewards = jv_object(), own_exception = jv_null();

	if (jv_get_kind(results) == JV_KIND_ARRAY)
		jv_array_foreach(results, i, step) {
			if (owned_step(step, steps)) {
				jv r = json_at(step, HARBOR_REWARDS_PATH);
				jv x = json_get(step, "exception_info");
				jv_free(own_rewards);
				if (jv_get_kind(r) != JV_KIND_OBJECT)
					jv_free(r), r = jv_object();
				own_rewards = r;
				if (jv_get_kind(own_exception) == JV_KIND_NULL)
					jv_free(own_exception), own_exception = x;
				else
					jv_free(x);
			}
			jv_free(step);
		}
	if (jv_get_kind(own_exception) != JV_KIND_OBJECT && !strcmp(status, "failed"))
		jv_free(own_exception);
	else {
		jv_free(*exception);
		*exception = own_exception;
	}
	jv_free(*rewards);
	*rewards = own_rewards;
	jv_free(steps);
	jv_free(results);
}

/* The trial's Harbor result (owned): an empty object when there is no
 * trial directory, or it holds no result an object. */
jv harbor_trial_result(const char *trial)
{
	jv result = jv_null();
	struct pc_err e;

	if (trial) {
		char *path = io_join(trial, HARBOR_RESULT_FILE);
		if (json_read_file(path, &result, &e) != 0)
			result = jv_null();
		free(path);
	}
	if (jv_get_kind(result) != JV_KIND_OBJECT) {
		jv_free(result);
		result = jv_object();
	}
	return result;
}

/* The record's Harbor observation, from the trial's result (borrowed) and
 * its job's. */
jv harbor_trial_observation(jv record, jv result)
{
	jv job_dir = json_at(record, "job_dir"), batch = json_get(record, "batch");
	jv job = jv_null();
	struct pc_err e;

	if (jv_get_kind(job_dir) == JV_KIND_STRING) {
		char *jp = io_join(jv_string_value(job_dir), HARBOR_RESULT_FILE);
		if (json_read_file(jp, &job, &e) != 0)
			job = jv_object();
		free(jp);
	} else
		job = jv_object();
	jv rewards = json_at(result, HARBOR_REWARDS_PATH);
	jv exception = json_at(result, "exception_info");
	if (jv_get_kind(batch) == JV_KIND_OBJECT) {
		jv status = json_get(record, "status");
		member_outcome(batch, result, jv_string_value(status), &rewards, &exception);
		jv_free(status);
	}
	jv h = JV_OBJECT(jv_string("job_id"), str_or_null(json_at(job, "id")),
			 jv_string("trial_name"), str_or_null(json_at(result, "trial_name")),
			 jv_string("trial_uri"), str_or_null(json_at(result, "trial_uri")),
			 jv_string("task_checksum"), str_or_null(json_at(result, "task_checksum")),
			 jv_string("source_task_checksum"),
			 str_or_null(json_get(batch, "source_task_checksum")));
	if (jv_get_kind(rewards) != JV_KIND_OBJECT) {
		jv_free(rewards);
		rewards = jv_object();
	}
	jv message = str_or_null(json_at(exception, "exception_message"));
	jv ended = JV_OBJECT(
		jv_string("rewards"), rewards,
		jv_string("exception_type"), str_or_null(json_at(exception, "exception_type")),
		jv_string("exception_message"), message,
		jv_string("started_at"), str_or_null(json_at(result, "started_at")),
		jv_string("finished_at"), str_or_null(json_at(result, "finished_at")));
	h = jv_object_merge(h, ended);
	jv_free(exception);
	jv_free(job);
	jv_free(job_dir);
	jv_free(batch);
	return h;
}
