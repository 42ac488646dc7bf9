/* paired: the arms of a paired OFF/ON comparison (paired.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/harbor.h"
#include "base/proc.h"
#include "base/source.h"
#include "docs.h"
#include "harbor_layout.h"
#include "hosts/cli_host.h"
#include "io.h"
#include "json.h"
#include "outdir.h"
#include "paired/arm.h"
#include "paired/hosts.h"
#include "paired/paired.h"
#include "run/agent.h"
#include "run/workload.h"
#include "server/audit.h"
#include "text.h"

/* ---- which session scores an arm ---- */

/* A continuation's recall step must be its last, after an earlier session,
 * and no earlier step may stop the trial before it (Harbor's min_reward). */
static int check_continuation(const struct source *s, const char *recall, struct pc_err *e)
{
	jv steps = source_steps(s);
	const char *id = json_str(s->workload, "id");
	int n = jv_array_length(jv_copy(steps)), rc = 0;
	jv last = jv_array_get(jv_copy(steps), n - 1);

	if (n < 2 || strcmp(json_str(last, "name") ? json_str(last, "name") : "", recall))
		rc = pc_fail(e,
			     "workload %s must end with its recall step '%s' after an earlier session",
			     id, recall);
	for (int k = 0; rc == 0 && k < n - 1; k++) {
		jv step = jv_array_get(jv_copy(steps), k), min = json_get(step, "min_reward");
		if (jv_get_kind(min) != JV_KIND_NULL && jv_is_valid(min))
			rc = pc_fail(e,
				     "workload %s sets min_reward on step '%s', which could stop its recall step from running",
				     id, json_str(step, "name"));
		jv_free(min);
		jv_free(step);
	}
	jv_free(last);
	jv_free(steps);
	return rc;
}

/* The session scoring selection's arms (0-based), and the step holding its
 * reward (owned; NULL: the trial's reward, a task-outcome workload's). */
static int scored_session(jv selection, int *session, char **step, struct pc_err *e)
{
	jv w = json_get(selection, "workload"), evaluation = json_get(w, "evaluation");
	jv recall = json_get(evaluation, "recall_step"), dir = json_at(selection, "task.dir");
	const char *id = json_str(w, "id");
	struct source s;
	int rc = 0;

	*session = 0;
	*step = NULL;
	if (docs_evaluation_kind(evaluation) != EVALUATION_PAIRED)
		rc = pc_fail(e,
			     "workload %s is not an OFF/ON comparison workload (a recall_step or comparison: task-outcome)",
			     id);
	else if (jv_get_kind(recall) == JV_KIND_STRING) {
		if ((rc = source_load(&s, selection, e)) == 0 &&
		    (rc = check_continuation(&s, jv_string_value(recall), e)) == 0) {
			*session = jv_array_length(source_steps(&s)) - 1;
			*step = pc_xstrdup(jv_string_value(recall));
		}
		source_free(&s);
	} else if (jv_get_kind(dir) == JV_KIND_STRING) {
		if ((rc = source_load(&s, selection, e)) == 0 &&
		    jv_array_length(source_steps(&s)) > 0)
			rc = pc_fail(e,
				     "workload %s has Harbor steps; a task-outcome workload runs one session",
				     id);
		source_free(&s);
	}
	jv_free(dir);
	jv_free(recall);
	jv_free(evaluation);
	jv_free(w);
	return rc;
}

int paired_check_workloads(jv selections, struct pc_err *e)
{
	int rc = 0;

	jv_array_foreach(selections, i, sel) {
		int session;
		char *step = NULL;
		if (rc == 0)
			rc = scored_session(sel, &session, &step, e);
		free(step);
		jv_free(sel);
	}
	return rc;
}

/* ---- one arm ---- */

/* The ON arm's own Scope, named as 1.4.1 names it; the audit window starts
 * after it, creating it being the harness's own decision. */
static int open_arm_scope(struct workload_run *r, struct arm *a)
{
	const char *id = json_str(r->workload, "id");
	char *title = text_fmt("E2E paired workload: %s", id);
	char *summary = text_fmt("Isolated Scope for the ON arm of %s, trial %d, in E2E run %s.",
				 id, a->trial, r->run_id);
	char *key = text_fmt("e2e:%s:%s", r->run_id, id), *scope = NULL;
	struct pc_err e;
	int rc = pc_create_scope(r->fleet->client, title, summary, key, &scope, &e);

	if (rc == 0) {
		r->scope = scope;
		clock_utc_now(a->window_start);
	} else
		run_error(r, "creating the arm's Scope: %s", e.msg);
	free(title);
	free(summary);
	free(key);
	return rc;
}

static void read_audit(struct workload_run *r, struct arm *a)
{
	char end[CLOCK_UTC_LEN];
	struct pc_err e;
	jv outside;

	if (!a->window_start[0])
		return;
	clock_utc_now(end);
	if (audit_outside_scope(r->fleet->client, r->scope, a->window_start, end, &outside, &e) !=
	    0) {
		run_error(r, "Reading the Access audit failed: %s", e.msg);
		return;
	}
	jv_free(a->outside_scope);
	a->outside_scope = outside;
}

/* The task the runner ran, when it is not the one the manifest pins: 1.4.1
 * stops the workload then, since more trials would repeat it. */
static int ran_pinned_task(struct workload_run *r)
{
	const char *trial = r->result.trial_dir;
	char *path = trial ? io_join(trial, HARBOR_RESULT_FILE) : NULL;
	jv result = jv_null(), pinned = json_at(r->workload, "dataset.checksum");
	struct pc_err e;
	int pinned_ok = 1;

	if (path && json_read_file(path, &result, &e) == 0) {
		const char *ran = json_str(result, "task_checksum");
		if (ran && jv_get_kind(pinned) == JV_KIND_STRING &&
		    strcmp(ran, jv_string_value(pinned))) {
			run_error(r, "Harbor ran task checksum %s, not the manifest's %s", ran,
				  jv_string_value(pinned));
			pinned_ok = 0;
		}
	}
	jv_free(result);
	jv_free(pinned);
	free(path);
	return pinned_ok;
}

static void name_arm(struct workload_run *r, const struct arm *a)
{
	const char *id = json_str(r->workload, "id");
	char hex[13], *arm_dir = outdir_arm(id, a->trial, arm_name(a));

	harbor_random_hex(hex, 12);
	snprintf(r->run_id, sizeof r->run_id, "%s-t%d-%s-%s", id, a->trial, arm_name(a), hex);
	free(r->scope);
	r->scope = NULL;
	run_place_jobs(r, arm_dir);
	r->label = text_fmt("%s t%d %s", id, a->trial, arm_name(a));
	free(arm_dir);
}

/* The session hook of an arm's run (run/run.h). */
static void arm_session_hook(struct workload_run *r, void *arm)
{
	arm_session_ended(arm, r->fleet->client, r->scope);
}

/* What an ON arm's Harbor job settled (python/pc_e2e_harbor/settle.py)
 * into a; a file that cannot be read is an error of the run. */
static void read_settled(struct workload_run *r, struct arm *a)
{
	char *path = r->result.job_dir ? io_join(r->result.job_dir, HARBOR_SETTLED_SESSIONS_FILE)
				       : NULL;
	struct pc_err e;

	if (path && arm_read_settled(a, path, &e) != 0)
		run_error(r, "%s", e.msg);
	free(path);
}

/* Workload i's run as arm a: named for it, with the OFF arm's agent. */
static void begin_arm(struct workload_run *r, const struct fleet *f, int i, struct arm *a)
{
	run_begin(r, f, i);
	r->arm = (struct run_arm){ .paired = 1,
				   .plugin_off = !a->on,
				   .settles = a->on,
				   .scored_session = a->scored_session,
				   .cli = f->o->host->cli };
	if (r->arm.cli) {
		r->arm.host = f->o->host->name;
		r->arm.reasoning_effort = cli_reasoning_effort(r->arm.cli);
		r->arm.agent_log = r->arm.cli->output_file;
	}
	r->session_hook = arm_session_hook;
	r->session_arg = a;
	name_arm(r, a);
	if (!a->on)
		r->agent = f->agent_off;
}

static jv run_arm(const struct fleet *f, int i, struct arm *a, int *pinned)
{
	struct workload_run r;
	struct pc_err e;

	begin_arm(&r, f, i, a);
	run_progress(&r, "run %s", r.run_id);
	jv task = json_get(r.selection, "task");
	if (workload_model(f->o, r.workload, &r.agent_model, &e) != 0)
		run_error(&r, "the workload's model: %s", e.msg);
	else if (!a->on || open_arm_scope(&r, a) == 0)
		r.result = f->o->runner->execute(&r, json_str(task, "dir"));
	read_settled(&r, a);
	jv_free(task);
	workload_scrub(&r);
	read_audit(&r, a);
	*pinned = ran_pinned_task(&r);
	jv record = workload_finish(&r, 0, jv_null(), jv_null());
	record = jv_object_set(record, jv_string("arm"), arm_block(a));
	run_end(&r);
	return record;
}

static jv unrun_arm(const struct fleet *f, int i, struct arm *a, const char *why)
{
	struct workload_run r;

	begin_arm(&r, f, i, a);
	jv record = workload_unrun(&r, why);
	record = jv_object_set(record, jv_string("arm"), arm_block(a));
	run_end(&r);
	return record;
}

/* Each arm of selection i's trials, run, or with why recorded as unrun. */
static int each_arm(const struct fleet *f, int i, const char *why, paired_emit emit)
{
	jv selection = jv_array_get(jv_copy(f->selections), i);
	char *step = NULL;
	int session, rc = 0, pinned = 1;
	struct pc_err e;

	/* checked before anything ran: this cannot fail now */
	if (scored_session(selection, &session, &step, &e) != 0)
		session = 0;
	int first = f->o->trial ? f->o->trial : 1, last = f->o->trial ? f->o->trial : f->o->trials;

	for (int trial = first; trial <= last && pinned && rc == 0; trial++)
		for (int position = 1; position <= 2 && pinned && rc == 0 && !proc_stop_signal();
		     position++) {
			struct arm a;
			arm_begin(&a, trial, position, session, step);
			rc = emit(f, why ? unrun_arm(f, i, &a, why) : run_arm(f, i, &a, &pinned));
			arm_end(&a);
		}
	free(step);
	jv_free(selection);
	return rc;
}

int paired_run(const struct fleet *f, int i, paired_emit emit)
{
	return each_arm(f, i, NULL, emit);
}

int paired_unrun(const struct fleet *f, int i, const char *why, paired_emit emit)
{
	return each_arm(f, i, why, emit);
}
