/* workload: one workload's run and its record (workload.h). */
#include <stdlib.h>
#include <string.h>

#include "base/proc.h"
#include "base/registry.h"
#include "clock.h"
#include "docs.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "run/agent.h"
#include "run/fault.h"
#include "run/probes.h"
#include "run/workload.h"
#include "text.h"

int workload_model(const struct run_bub_options *o, jv workload, char **model, struct pc_err *e)
{
	jv m = jv_getpath(jv_copy(workload), JV_ARRAY(jv_string("execution"), jv_string("model")));
	const char *bub_model = getenv("BUB_MODEL"), *id = json_str(workload, "id");
	char hex[SHA256_HEX_LEN + 1];
	int model_backed = jv_get_kind(m) == JV_KIND_TRUE, rc = 0;

	jv_free(m);
	*model = NULL;
	if (!model_backed)
		return 0;
	if (o->model_scripts) {
		char *script = text_fmt("%s/%s.json", o->model_scripts, id);
		if ((rc = sha256_file_hex(script, hex, NULL, e)) == 0)
			*model = text_fmt("openai:pc-e2e-scripted/%s@%.12s", id, hex);
		free(script);
	} else if (bub_model && *bub_model)
		*model = pc_xstrdup(bub_model);
	else
		rc = pc_fail(e, "BUB_MODEL is not set");
	return rc;
}

char *workload_host_model(const char *model)
{
	const char *colon = strchr(model, ':'), *slash = strchr(model, '/');

	return pc_xstrdup(colon && (!slash || colon < slash) ? colon + 1 : model);
}

/* The run's model into r->agent_model; -1 when there is none to be had,
 * an error of the run. */
static int resolve_model(struct workload_run *r)
{
	struct pc_err e;

	if (workload_model(r->fleet->o, r->workload, &r->agent_model, &e) == 0)
		return 0;
	run_error(r, "the workload's model: %s", e.msg);
	return -1;
}

/* ---- the run ---- */

/* The workload's own empty scope.  Releases before 0.2.0 take any name;
 * later ones choose the id of a scope created first, named the way
 * PowerContext's own harness names its workloads' scopes.  A Server that
 * cannot say what it is fails a Memory workload here; an outcome workload
 * does not depend on the Server, so it runs under the name it would have
 * had before 0.2.0. */
static int open_scope(struct workload_run *r, int memory)
{
	const struct fleet *f = r->fleet;
	const char *id = json_str(r->workload, "id");
	struct pc_err e;
	char *scope = NULL;

	if (!f->api && memory) {
		run_error(r, "%s", f->api_error);
		return -1;
	}
	if (!f->api || !f->api->creates_scopes)
		return 0;
	char *title = text_fmt("E2E workload: %s", id);
	char *summary =
		text_fmt("Isolated Scope for the %s workload in E2E run %s.", id, r->run_id);
	char *key = text_fmt("e2e:%s:%s", r->run_id, id);
	int rc = pc_create_scope(f->client, title, summary, key, &scope, &e);
	if (rc == 0) {
		free(r->scope);
		r->scope = scope;
	} else
		run_error(r, "creating the workload's scope: %s", e.msg);
	free(title);
	free(summary);
	free(key);
	return rc;
}

int workload_is_memory(const struct workload_run *r)
{
	jv evaluation = json_get(r->workload, "evaluation");
	int memory = docs_evaluation_kind(evaluation) == EVALUATION_MEMORY;

	jv_free(evaluation);
	return memory;
}

int workload_prepare(struct workload_run *r, jv *readiness, jv *before)
{
	const struct fleet *f = r->fleet;
	int memory = workload_is_memory(r);
	struct pc_err e;

	if (resolve_model(r) != 0 || open_scope(r, memory) != 0)
		return -1;
	if (memory && pc_ready(f->client, readiness, &e) != 0)
		run_error(r, "readiness: %s", e.msg);
	else if (memory && pc_memory_snapshot(f->client, f->api, r->scope, before, &e) != 0)
		run_error(r, "memory baseline: %s", e.msg);
	else
		return 0;
	return -1;
}

void workload_scrub(struct workload_run *r)
{
	const char *job_dir = r->result.job_dir;

	if (!job_dir)
		return;
	jv files = io_find_files(job_dir, NULL);
	struct pc_err e;

	jv_array_foreach(files, i, rel) {
		char *path = io_join(job_dir, jv_string_value(rel));
		if (redact_file(r->fleet->red, path, &e) != 0)
			run_error(r, "%s", e.msg);
		free(path);
		jv_free(rel);
	}
	jv_free(files);
}

/* An outcome workload whose trial scored below 1 failed, errors or not. */
static int reward_failed(const struct workload_run *r)
{
	jv reward = json_get(r->result.rewards, "reward");
	int failed = jv_get_kind(reward) == JV_KIND_NUMBER && jv_number_value(reward) < 1;

	jv_free(reward);
	return failed;
}

/* ---- the record ---- */

/* What really ran: the recorded identity of the project's Bub when the
 * agent confirmed it is Bub, else what the agent said in initialize. */
static jv adapter_versions(const struct workload_run *r)
{
	jv adapter_identity = r->agent->adapter;
	const char *name = json_str(r->result.agent_info, "name");
	const char *version = json_str(r->result.agent_info, "version");
	const char *recorded = json_str(adapter_identity, "adapter_version");
	const char *protocol = json_str(adapter_identity, "adapter_protocol_version");

	/* a command-line host is named by its pin, both versions, as 1.4.1's
	 * harness drives it through its own CLI of that version */
	if (r->arm.cli)
		return JV_ARRAY(jv_string(version ? version : "unknown"),
				jv_string(version ? version : "unknown"));
	/* a paired arm names its host as 1.4.1 does, by the bare versions, the
	 * same in both arms: the plugin is what the arms compare */
	if (name && !strcmp(name, "bub") && protocol && version && r->arm.paired) {
		const char *bare = strrchr(protocol, ' ');
		return JV_ARRAY(jv_string(version), jv_string(bare ? bare + 1 : protocol));
	}
	if (name && !strcmp(name, "bub") && recorded && protocol)
		return JV_ARRAY(jv_string(recorded), jv_string(protocol));
	char *adapter = name ? text_fmt("%s %s", name, version ? version : "unknown")
			     : text_fmt("unknown (no agent answered initialize)");
	char *acp = text_fmt("ACP %g", r->result.protocol);
	jv out = JV_ARRAY(jv_string(adapter), jv_string(acp));

	free(adapter);
	free(acp);
	return out;
}

/* The Server's inference models as this environment names them (the
 * Server runs with it); null for one it leaves to its default. */
static jv extraction_models(void)
{
	const char *generation = getenv("POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL");
	const char *embedding = getenv("POWERCONTEXT_SERVER_INFERENCE_EMBEDDING_MODEL");

	return JV_OBJECT(jv_string("generation"),
			 json_string_or_null(generation && *generation ? generation : NULL),
			 jv_string("embedding"),
			 json_string_or_null(embedding && *embedding ? embedding : NULL));
}

/* The record of one workload; its status, the Server's answers and the
 * fault (both consumed; null: none) are what the run found, the rest
 * comes from r. */
static jv run_record(const struct workload_run *r, const char *status, jv powercontext,
		     jv fault)
{
	const struct fleet *f = r->fleet;
	char finished[CLOCK_UTC_LEN];
	jv versions = adapter_versions(r);
	const char *database = getenv("POWERCONTEXT_E2E_DATABASE");

	clock_utc_now(finished);
	/* a command-line host as 1.4.1 records it: its name, the model as the
	 * host takes it, its reasoning effort */
	jv adapter = r->arm.cli ? jv_string(r->arm.host) : json_at(r->workload, "execution.type");
	char *model = r->arm.cli && r->agent_model ? workload_host_model(r->agent_model) : NULL;
	jv settings = r->arm.cli ? JV_OBJECT(jv_string("reasoning_effort"),
					     jv_string(r->arm.reasoning_effort))
				 : jv_object();
	jv record = JV_OBJECT(
		jv_string("schema"), jv_string(SCHEMA_RUN),
		jv_string("run_id"), jv_string(r->run_id),
		jv_string("scope_id"), json_string_or_null(r->scope),
		jv_string("runner"), jv_string(f->o->runner->name),
		jv_string("workload"), jv_copy(r->workload),
		jv_string("manifest"), json_get(r->selection, "manifest"),
		jv_string("task"), json_get(r->selection, "task"),
		jv_string("job_dir"), json_string_or_null(r->result.job_dir),
		jv_string("trial_dir"), json_string_or_null(r->result.trial_dir));
	if (jv_get_kind(r->batch) == JV_KIND_OBJECT)
		record = jv_object_set(record, jv_string("batch"), jv_copy(r->batch));
	jv environment = JV_OBJECT(
		jv_string("commit"), jv_string(f->commit),
		jv_string("database"), jv_string(database ? database : "sqlite"),
		jv_string("adapter"), adapter,
		jv_string("adapter_version"), jv_array_get(jv_copy(versions), 0),
		jv_string("adapter_protocol_version"), jv_array_get(jv_copy(versions), 1),
		jv_string("agent_model"), json_string_or_null(model ? model : r->agent_model),
		jv_string("agent_settings"), settings,
		jv_string("started_at"), jv_string(r->started),
		jv_string("finished_at"), jv_string(finished));
	jv agent = JV_OBJECT(jv_string("command"), jv_string(r->agent->command),
			     jv_string("info"), jv_copy(r->result.agent_info));
	record = jv_object_set(record, jv_string("environment"), environment);
	record = jv_object_set(record, jv_string("agent"), agent);
	record = jv_object_set(record, jv_string("failure_policy"), jv_string(f->o->policy));
	record = jv_object_set(record, jv_string("status"), jv_string(status));
	record = jv_object_set(record, jv_string("errors"), jv_copy(r->errors));
	if (jv_get_kind(fault) == JV_KIND_OBJECT)
		record = jv_object_set(record, jv_string("fault"), fault);
	else
		jv_free(fault);
	record = jv_object_set(record, jv_string("extraction_models"), extraction_models());
	record = jv_object_set(record, jv_string("powercontext"), powercontext);
	jv_free(versions);
	free(model);
	return record;
}

static jv server_answers(const struct workload_run *r, jv readiness, jv before, jv after, jv probes)
{
	const char *database = getenv("POWERCONTEXT_E2E_DATABASE_IDENTITY");
	const struct pc_api *api = r->fleet->api;

	return JV_OBJECT(
		jv_string("server_url"), jv_string(r->fleet->client->base_url),
		jv_string("server_version"), api ? jv_string(api->version) : jv_null(),
		jv_string("database"), database && *database ? jv_string(database) : jv_null(),
		jv_string("readiness"), readiness,
		jv_string("memory_before"), before,
		jv_string("memory_after"), after,
		jv_string("probes"), probes);
}

jv workload_finish(struct workload_run *r, int skipped, jv readiness, jv before)
{
	jv after = jv_null(), probes = jv_array();
	struct pc_err e;

	/* a workload a stop cut short did not complete, whatever recorded it */
	if (!skipped && proc_stop_signal() && jv_array_length(jv_copy(r->errors)) == 0)
		run_error(r, "stopped: %s received %s while the workload ran", r->fleet->o->prog,
			  proc_stop_name());
	if (!skipped && jv_get_kind(readiness) != JV_KIND_NULL) {
		if (pc_memory_snapshot(r->fleet->client, r->fleet->api, r->scope, &after, &e) != 0)
			run_error(r, "final Memory: %s", e.msg), after = jv_null();
		else {
			jv_free(probes);
			probes = probes_collect(r);
		}
	}
	int failed = jv_array_length(jv_copy(r->errors)) > 0 ||
		     (!workload_is_memory(r) && reward_failed(r));
	const char *status = skipped ? "skipped" : failed ? "failed"
							  : "completed";
	jv fault = skipped ? jv_null() : fault_of(r);
	if (jv_get_kind(fault) == JV_KIND_OBJECT) {
		char *line = fault_line(fault);
		run_progress(r, "%s: %s", status, line);
		free(line);
	} else
		run_progress(r, "%s", status);
	return run_record(r, status, server_answers(r, readiness, before, after, probes), fault);
}

/* A registry dataset's task, found through --registry (dir, the selection's
 * local task directory, NULL); -1 when the registry cannot give it, an
 * error of r naming the registry and the dataset. */
static int find_registry_task(struct workload_run *r, const char *dir)
{
	const char *registry = r->fleet->o->registry;
	struct pc_err e;

	if (dir || !registry)
		return 0;
	jv dataset = json_get(r->workload, "dataset");
	int rc = registry_task_dir(registry, dataset, &r->registry_task, &e);
	jv_free(dataset);
	if (rc != 0)
		run_error(r, "%s", e.msg);
	return rc;
}

jv workload_run(struct workload_run *r)
{
	jv readiness = jv_null(), before = jv_null(), task = json_get(r->selection, "task");
	const char *dir = json_str(task, "dir");

	run_progress(r, "run %s", r->run_id);
	if (workload_prepare(r, &readiness, &before) == 0 && find_registry_task(r, dir) == 0)
		r->result = r->fleet->o->runner->execute(r, dir);
	jv_free(task);
	workload_scrub(r);
	return workload_finish(r, 0, readiness, before);
}

/* Nothing more is known of a workload that did not run than its selection:
 * no job, no Server answers, and the record says so. */
jv workload_unrun(struct workload_run *r, const char *why)
{
	jv fault = jv_null();

	resolve_model(r);
	if (why) {
		run_error(r, "%s", why);
		fault = fault_unrun(r, why);
		char *line = fault_line(fault);
		run_progress(r, "failed: %s", line);
		free(line);
	} else
		run_progress(r, "skipped: an earlier workload of its batch failed");
	return run_record(r, why ? "failed" : "skipped",
			  server_answers(r, jv_null(), jv_null(), jv_null(), jv_array()), fault);
}
