/* run: one workload's run from run_begin to run_end (run.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/harbor.h"
#include "base/proc.h"
#include "json.h"
#include "outdir.h"
#include "run/run.h"
#include "text.h"

void run_begin(struct workload_run *r, const struct fleet *f, int i)
{
	char hex[13];
	jv selection = jv_array_get(jv_copy(f->selections), i);

	*r = (struct workload_run){ .fleet = f,
				    .selection = selection,
				    .workload = json_get(selection, "workload"),
				    .agent = f->agent };
	const char *id = json_str(r->workload, "id");
	harbor_random_hex(hex, 12);
	snprintf(r->run_id, sizeof r->run_id, "%s-%s", id, hex);
	r->scope = text_fmt("e2e:%s", r->run_id);
	run_place_jobs(r, id);
	r->invocations = jv_null();
	r->batch = jv_null();
	r->errors = jv_array();
	r->result = runner_result_none();
	r->started_ms = proc_now_ms();
	clock_utc_now(r->started);
}

void run_place_jobs(struct workload_run *r, const char *dir)
{
	free(r->jobs_dir);
	r->jobs_dir = text_fmt("%s/%s/" OUTDIR_HARBOR_JOBS, r->fleet->outdir, dir);
}

void run_end(struct workload_run *r)
{
	jv_free(r->selection);
	jv_free(r->workload);
	free(r->scope);
	free(r->jobs_dir);
	free(r->agent_model);
	free(r->registry_task);
	free(r->label);
	jv_free(r->invocations);
	jv_free(r->batch);
	jv_free(r->errors);
	free(r->result.job_dir);
	free(r->result.trial_dir);
	free(r->result.trial_name);
	jv_free(r->result.rewards);
	jv_free(r->result.agent_info);
}

struct runner_result runner_result_none(void)
{
	return (struct runner_result){ .rewards = jv_null(), .agent_info = jv_null() };
}

void run_join_batch(struct workload_run *r, const char *run_id, const char *batch)
{
	char *dir = outdir_batch(batch);

	snprintf(r->run_id, sizeof r->run_id, "%s", run_id);
	free(r->scope);
	r->scope = text_fmt("e2e:%s:%s", run_id, json_str(r->workload, "id"));
	run_place_jobs(r, dir);
	free(dir);
}

int run_bind_invocation(struct workload_run *r, int i)
{
	if (jv_get_kind(r->invocations) != JV_KIND_ARRAY)
		return 0;
	jv invocation = jv_array_get(jv_copy(r->invocations), i);
	if (!jv_is_valid(invocation)) {
		jv_free(invocation);
		run_error(r, "the merged task has no scope for agent invocation %d", i + 1);
		return -1;
	}
	const char *model = json_str(invocation, "model");
	free(r->scope);
	r->scope = pc_xstrdup(json_str(invocation, "scope"));
	free(r->agent_model);
	r->agent_model = model ? pc_xstrdup(model) : NULL;
	jv_free(invocation);
	return 0;
}

void run_progress(const struct workload_run *r, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	if (!r->fleet->progress)
		return;
	sbuf_addf(&b, "%s: [%s %.1fs] ", r->fleet->o->prog,
		  r->label ? r->label : json_str(r->workload, "id"),
		  (proc_now_ms() - r->started_ms) / 1000.0);
	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	sbuf_add(&b, "\n");
	/* one write: workers side by side share stderr, and their lines must not mix */
	char *line = sbuf_take(&b);
	fputs(line, stderr);
	free(line);
}

void run_error(struct workload_run *r, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	char *msg = sbuf_take(&b), *capped = text_cap(msg, TEXT_ERROR_CAP);
	r->errors = jv_array_append(r->errors, jv_string(capped));
	free(capped);
	free(msg);
}

void run_session_ended(struct workload_run *r)
{
	if (r->session_hook)
		r->session_hook(r, r->session_arg);
}

void run_step_exception(struct workload_run *r, const char *step, jv exception)
{
	int merged = jv_get_kind(r->invocations) == JV_KIND_ARRAY;

	if (r->arm.paired || (merged && strcmp(step, RUN_TRIAL_STEP)))
		return;
	run_error(r, "step %s: %s: %s", step, json_str(exception, "exception_type"),
		  json_str(exception, "exception_message"));
}

double run_agent_timeout(const struct workload_run *r, jv task_toml, jv step)
{
	if (r->fleet->o->agent_timeout > 0)
		return r->fleet->o->agent_timeout;
	return json_number_at(step, "agent.timeout_sec",
			      json_number_at(task_toml, "agent.timeout_sec", 0));
}

double run_verifier_timeout(jv task_toml, jv step)
{
	return json_number_at(step, "verifier.timeout_sec",
			      json_number_at(task_toml, "verifier.timeout_sec", 600));
}
