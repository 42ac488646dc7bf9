/* pc-run-bub: selections in, run records out (docs/DESIGN.md §5).
 *
 * Per workload: a fresh run id and scope, readiness, the Memory baseline, the
 * Harbor task's steps through an ACP agent (by a runner: run-bub/local.c
 * here, run-bub/harbor_job.c through the Harbor CLI), the final Memory and every
 * probe through prepare_context.  A failure anywhere still
 * emits the record with what was collected, status "failed".  Outcome
 * workloads are judged on how they ended, so they skip the Memory and the
 * probes.  Under fail-fast, a batch group stops at its first failure and the
 * rest of it is recorded as skipped.
 */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "clock.h"
#include "docs.h"
#include "harbor.h"
#include "hash.h"
#include "io.h"
#include "jobs.h"
#include "json.h"
#include "pcclient.h"
#include "probe.h"
#include "proc.h"
#include "run.h"
#include "stage.h"
#include "text.h"

extern char **environ;

static const char usage[] =
	"usage: pc-run-bub [--runner local|harbor] [--failure-policy POLICY] [--output DIR]\n"
	"                  [--agent CMD] [--agent-timeout SEC] [--harbor-env TYPE]\n"
	"                  [--model-scripts DIR] [--jobs N]\n"
	"Reads powercontext.e2e-selection/v1 lines and runs each workload, writing one\n"
	"powercontext.e2e-run/v1 record per workload and the Harbor job directory\n"
	"under DIR/<workload id>/harbor-jobs/ (default DIR: a new temporary directory).\n"
	"  --runner local   run steps here, sandboxed with bubblewrap (default)\n"
	"  --runner harbor  run through the Harbor CLI that pipelines/pc-powercontext harbor\n"
	"                   provides ($POWERCONTEXT_E2E_HARBOR), on a bubblewrap environment\n"
	"  --agent CMD      ACP agent command (default: $PC_E2E_AGENT, else the Bub in\n"
	"                   $POWERCONTEXT_E2E_BUB from pipelines/pc-powercontext bub,\n"
	"                   else bub-acp-server on PATH)\n"
	"  --agent-timeout SEC  override the task's agent timeout\n"
	"  --harbor-env TYPE  with --runner harbor: one of Harbor's remote environment\n"
	"                   types (daytona, modal, e2b, ...) instead of this machine\n"
	"  --model-scripts DIR  model-backed workloads run on the scripted model\n"
	"                   (pipelines/scripted-model at $BUB_API_BASE, which must be on\n"
	"                   loopback): workload W as openai:pc-e2e-scripted/W@<sha12>,\n"
	"                   the first 12 hex digits of the sha256 of DIR/W.json\n"
	"  --failure-policy POLICY  collect-all (default): run every workload;\n"
	"                   fail-fast: stop a batch:<name> group at its first failure\n"
	"                   and record the rest of it as skipped\n"
	"  --jobs N         run up to N workloads at once (1 to " JOBS_MAX_TEXT ", default 1), each in a\n"
	"                   worker process of its own; records stay in selection order,\n"
	"                   and a fail-fast batch:<name> group runs one workload at a time\n";

void run_progress(const struct run *r, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	if (!r->progress)
		return;
	sbuf_addf(&b, "pc-run-bub: [%s %.1fs] ", json_str(r->workload, "id"), (proc_now_ms() - r->started_ms) / 1000.0);
	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	sbuf_add(&b, "\n");
	/* one write: workers side by side share stderr, and their lines must not mix */
	char *line = sbuf_take(&b);
	fputs(line, stderr);
	free(line);
}

void run_error(struct run *r, const char *fmt, ...)
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

void run_step_exception(struct run *r, const char *step, jv exception)
{
	run_error(r, "step %s: %s: %s", step, json_str(exception, "exception_type"),
		  json_str(exception, "exception_message"));
}

double run_agent_timeout(const struct run *r, jv task_toml, jv step)
{
	if (r->opt->agent_timeout > 0)
		return r->opt->agent_timeout;
	return json_number_at(step, "agent.timeout_sec", json_number_at(task_toml, "agent.timeout_sec", 0));
}

double run_verifier_timeout(jv task_toml, jv step)
{
	return json_number_at(step, "verifier.timeout_sec", json_number_at(task_toml, "verifier.timeout_sec", 600));
}

/* ---- one workload ---- */

/* The PowerContext under test as replays name it: what the provisioning
 * said (a release's version, a checkout's commit), else the version the
 * Server reports. */
static char *commit_id(const struct pc_api *api)
{
	const char *set = getenv("POWERCONTEXT_E2E_COMMIT");

	if (set && *set)
		return pc_xstrdup(set);
	return pc_xstrdup(api ? api->version : "unknown");
}

/* What really ran: the recorded identity of the project's Bub when the
 * agent confirmed it is Bub, else what the agent said in initialize. */
static jv adapter_versions(const struct run *r)
{
	const char *name = json_str(r->agent_info, "name");
	const char *version = json_str(r->agent_info, "version");
	const char *recorded = json_str(r->agent_adapter, "adapter_version");
	const char *protocol = json_str(r->agent_adapter, "adapter_protocol_version");

	if (name && !strcmp(name, "bub") && recorded && protocol)
		return JV_ARRAY(jv_string(recorded), jv_string(protocol));
	char *adapter = name ? text_fmt("%s %s", name, version ? version : "unknown")
			     : text_fmt("unknown (no agent answered initialize)");
	char *acp = text_fmt("ACP %g", r->protocol);
	jv out = JV_ARRAY(jv_string(adapter), jv_string(acp));

	free(adapter);
	free(acp);
	return out;
}

/* Whether a prepared response (borrowed) is ready context that the spec
 * forbids. */
static int forbidden_context_in(jv response, jv spec)
{
	const char *status = json_str(response, "status");
	jv content = json_at(response, "content");
	int matched = status && !strcmp(status, "ready") && probe_context_forbidden(spec, content);

	jv_free(content);
	return matched;
}

/* Every probe through prepare_context.  Context that matched a forbidden
 * fragment is recorded as matched and blanked: the wrong answer is the
 * finding, and keeping its text would only spread it. */
static jv collect_probes(struct run *r)
{
	jv specs = jv_getpath(jv_copy(r->workload), JV_ARRAY(jv_string("evaluation"), jv_string("probes")));
	jv out = jv_array();
	struct pc_err e;

	jv_array_foreach(specs, i, spec) {
		(void)i;
		jv response = jv_null(), error = jv_null(), matched = jv_null();
		if (pc_prepare(r->client, r->scope, json_str(spec, "query"), &response, &e) != 0) {
			run_error(r, "probe %s: %s", json_str(spec, "id"), e.msg);
			error = jv_string(e.msg);
		} else if (jv_get_kind(response) == JV_KIND_OBJECT) {
			matched = jv_bool(forbidden_context_in(response, spec));
			if (jv_get_kind(matched) == JV_KIND_TRUE)
				response = jv_object_set(response, jv_string("content"), jv_string(""));
		}
		out = jv_array_append(out, JV_OBJECT(jv_string("id"), jv_object_get(jv_copy(spec), jv_string("id")),
						     jv_string("query"), jv_object_get(jv_copy(spec), jv_string("query")),
						     jv_string("response"), response, jv_string("error"), error,
						     jv_string("forbidden_context_matched"), matched));
		jv_free(spec);
	}
	jv_free(specs);
	return out;
}

static const struct runner *runner_of(const struct options *o)
{
	return strcmp(o->runner, "harbor") ? &local_runner : &harbor_runner;
}

/* Readiness, baseline, execution; what failed is in r->errors.  Outcome
 * workloads need no Memory, so they touch the Server only through the agent. */
static void execute(struct run *r, int memory, jv *readiness, jv *before)
{
	struct pc_err e;
	jv task = jv_object_get(jv_copy(r->selection), jv_string("task"));
	const char *dir = json_str(task, "dir");

	if (memory && pc_ready(r->client, readiness, &e) != 0)
		run_error(r, "readiness: %s", e.msg);
	else if (memory && pc_memory_snapshot(r->client, r->api, r->scope, before, &e) != 0)
		run_error(r, "memory baseline: %s", e.msg);
	else
		runner_of(r->opt)->run_task(r, dir);
	jv_free(task);
}

/* Agents, verifiers and this runner all write under the job directory;
 * none of it may keep a secret. */
static void scrub(struct run *r)
{
	if (!r->job_dir)
		return;
	jv files = io_find_files(r->job_dir, NULL);
	struct pc_err e;

	jv_array_foreach(files, i, rel) {
		(void)i;
		char *path = io_join(r->job_dir, jv_string_value(rel));
		if (redact_file(r->red, path, &e) != 0)
			run_error(r, "%s", e.msg);
		free(path);
		jv_free(rel);
	}
	jv_free(files);
}

/* An outcome workload whose trial scored below 1 failed, errors or not. */
static int reward_failed(const struct run *r)
{
	jv reward = json_get(r->rewards, "reward");
	int failed = jv_get_kind(reward) == JV_KIND_NUMBER && jv_number_value(reward) < 1;

	jv_free(reward);
	return failed;
}

static void new_run_id(struct run *r)
{
	char hex[13];

	harbor_random_hex(hex, 12);
	snprintf(r->run_id, sizeof r->run_id, "%s-%s", json_str(r->workload, "id"), hex);
	r->scope = text_fmt("e2e:%s", r->run_id);
}

/* The workload's own empty scope.  Releases before 0.2.0 take any name;
 * later ones choose the id of a scope created first, named the way
 * PowerContext's own harness names its workloads' scopes.  A Server that
 * cannot say what it is fails a Memory workload here; an outcome workload
 * does not depend on the Server, so it runs under the name it would have
 * had before 0.2.0. */
static int open_scope(struct run *r, int memory)
{
	const char *id = json_str(r->workload, "id");
	struct pc_err e;
	char *scope = NULL;

	if (!r->api && memory) {
		run_error(r, "%s", r->api_error);
		return -1;
	}
	if (!r->api || !r->api->creates_scopes)
		return 0;
	char *title = text_fmt("E2E workload: %s", id);
	char *summary = text_fmt("Isolated Scope for the %s workload in E2E run %s.", id, r->run_id);
	char *key = text_fmt("e2e:%s:%s", r->run_id, id);
	int rc = pc_create_scope(r->client, title, summary, key, &scope, &e);
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

/* The model a workload's agent runs on (malloc'd into *model, NULL when it
 * is model-free): its script's with --model-scripts, else BUB_MODEL's. */
static int workload_model(const struct options *o, jv workload, char **model, struct pc_err *e)
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

/* The record of one workload; status, times and the Server's answers
 * (consumed) are what the run found, the rest comes from r. */
static jv run_record(const struct run *r, const char *commit, const char *status,
		     const char *started, jv powercontext)
{
	char finished[CLOCK_UTC_LEN];
	jv versions = adapter_versions(r);
	const char *database = getenv("POWERCONTEXT_E2E_DATABASE");

	clock_utc_now(finished);
	jv record = JV_OBJECT(
		jv_string("schema"), jv_string(SCHEMA_RUN),
		jv_string("run_id"), jv_string(r->run_id),
		jv_string("scope_id"), jv_string(r->scope),
		jv_string("runner"), jv_string(r->opt->runner),
		jv_string("workload"), jv_copy(r->workload),
		jv_string("manifest"), json_get(r->selection, "manifest"),
		jv_string("task"), json_get(r->selection, "task"),
		jv_string("job_dir"), r->job_dir ? jv_string(r->job_dir) : jv_null(),
		jv_string("trial_dir"), r->trial_dir ? jv_string(r->trial_dir) : jv_null());
	/* clang-format off */
	record = jv_object_set(record, jv_string("environment"), JV_OBJECT(
		jv_string("commit"), jv_string(commit),
		jv_string("database"), jv_string(database ? database : "sqlite"),
		jv_string("adapter"), json_at(r->workload, "execution.type"),
		jv_string("adapter_version"), jv_array_get(jv_copy(versions), 0),
		jv_string("adapter_protocol_version"), jv_array_get(jv_copy(versions), 1),
		jv_string("agent_model"), r->agent_model ? jv_string(r->agent_model) : jv_null(),
		jv_string("agent_settings"), jv_object(),
		jv_string("started_at"), jv_string(started),
		jv_string("finished_at"), jv_string(finished)));
	record = jv_object_set(record, jv_string("agent"), JV_OBJECT(
		jv_string("command"), jv_string(r->agent_cmd), jv_string("info"), jv_copy(r->agent_info)));
	/* clang-format on */
	record = jv_object_set(record, jv_string("failure_policy"), jv_string(r->opt->policy));
	record = jv_object_set(record, jv_string("status"), jv_string(status));
	record = jv_object_set(record, jv_string("errors"), jv_copy(r->errors));
	record = jv_object_set(record, jv_string("powercontext"), powercontext);
	jv_free(versions);
	return record;
}

static jv server_answers(const struct run *r, jv readiness, jv before, jv after, jv probes)
{
	const char *database = getenv("POWERCONTEXT_E2E_DATABASE_IDENTITY");

	return JV_OBJECT(jv_string("server_url"), jv_string(r->client->base_url),
			 jv_string("server_version"), r->api ? jv_string(r->api->version) : jv_null(),
			 jv_string("database"), database && *database ? jv_string(database) : jv_null(),
			 jv_string("readiness"), readiness,
			 jv_string("memory_before"), before,
			 jv_string("memory_after"), after,
			 jv_string("probes"), probes);
}

static jv run_workload(struct run *r, const char *outdir, const char *commit)
{
	const char *id = json_str(r->workload, "id");
	jv evaluation = json_get(r->workload, "evaluation");
	int memory = docs_evaluation_kind(evaluation) == EVALUATION_MEMORY;
	char started[CLOCK_UTC_LEN];
	jv readiness = jv_null(), before = jv_null(), after = jv_null(), probes = jv_array();
	struct pc_err e;

	jv_free(evaluation);
	new_run_id(r);
	r->jobs_dir = text_fmt("%s/%s/harbor-jobs", outdir, id);
	r->job_dir = r->trial_dir = r->trial_name = NULL;
	r->errors = jv_array();
	r->agent_info = jv_null();
	r->rewards = jv_null();
	r->started_ms = proc_now_ms();
	clock_utc_now(started);
	run_progress(r, "run %s", r->run_id);
	if (workload_model(r->opt, r->workload, &r->agent_model, &e) != 0)
		run_error(r, "the workload's model: %s", e.msg);
	else if (open_scope(r, memory) == 0)
		execute(r, memory, &readiness, &before);
	scrub(r);
	/* a workload a stop cut short did not complete, whatever recorded it */
	if (proc_stop_signal() && jv_array_length(jv_copy(r->errors)) == 0)
		run_error(r, "stopped: pc-run-bub received %s while the workload ran",
			  proc_stop_name());
	if (jv_get_kind(readiness) != JV_KIND_NULL) {
		if (pc_memory_snapshot(r->client, r->api, r->scope, &after, &e) != 0)
			run_error(r, "final Memory: %s", e.msg), after = jv_null();
		else {
			jv_free(probes);
			probes = collect_probes(r);
		}
	}
	int failed = jv_array_length(jv_copy(r->errors)) > 0 || (!memory && reward_failed(r));
	const char *status = failed ? "failed" : "completed";
	jv record = run_record(r, commit, status, started, server_answers(r, readiness, before, after, probes));
	run_progress(r, "%s", status);
	jv_free(r->errors);
	jv_free(r->rewards);
	jv_free(r->agent_info);
	free(r->jobs_dir);
	free(r->job_dir);
	free(r->trial_dir);
	free(r->trial_name);
	free(r->scope);
	free(r->agent_model);
	return record;
}

/* A workload that did not run: skipped (why NULL) when its fail-fast group
 * stopped before it, failed with why when the worker process running it
 * ended before writing its record.  Either way nothing more is known of it
 * than its selection: no job, no Server answers, and the record says so. */
static jv unrun_workload(struct run *r, const char *commit, const char *why)
{
	char started[CLOCK_UTC_LEN];

	new_run_id(r);
	r->started_ms = proc_now_ms();
	r->jobs_dir = r->job_dir = r->trial_dir = NULL;
	r->errors = jv_array();
	r->agent_info = jv_null();
	struct pc_err e;
	if (workload_model(r->opt, r->workload, &r->agent_model, &e) != 0)
		run_error(r, "the workload's model: %s", e.msg);
	if (why)
		run_error(r, "%s", why);
	clock_utc_now(started);
	if (why)
		run_progress(r, "failed: %s", why);
	else
		run_progress(r, "skipped: an earlier workload of its batch failed under fail-fast");
	jv record = run_record(r, commit, why ? "failed" : "skipped", started,
			       server_answers(r, jv_null(), jv_null(), jv_null(), jv_array()));
	jv_free(r->errors);
	jv_free(r->agent_info);
	free(r->scope);
	free(r->agent_model);
	return record;
}

/* The workload's batch:<name> group (borrowed from workload), or NULL. */
static const char *batch_of(jv workload)
{
	jv categories = json_get(workload, "categories");
	const char *batch = NULL;

	jv_array_foreach(categories, i, c) {
		(void)i;
		/* the string lives on in workload */
		if (!batch)
			batch = docs_batch_name(jv_string_value(c));
		jv_free(c);
	}
	jv_free(categories);
	return batch;
}

/* ---- main ---- */

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "runner", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "agent", required_argument, NULL, 'a' },
		{ "agent-timeout", required_argument, NULL, 't' },
		{ "failure-policy", required_argument, NULL, 'f' },
		{ "harbor-env", required_argument, NULL, 'e' },
		{ "model-scripts", required_argument, NULL, 'm' },
		{ "jobs", required_argument, NULL, 'j' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-run-bub", usage, "", longs, argc, argv };
	char *end;
	int c;

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'r': o->runner = optarg; break;
		case 'o': o->output = optarg; break;
		case 'a': o->agent = optarg; break;
		case 'f': o->policy = optarg; break;
		case 'e': o->harbor_env = optarg; break;
		case 'm': o->model_scripts = optarg; break;
		case 'j':
			/* digits only: strtol would also take a sign, spaces and 0x */
			o->jobs = strspn(optarg, "0123456789") == strlen(optarg) && strlen(optarg) <= 4 ? atoi(optarg) : 0;
			if (o->jobs < 1 || o->jobs > JOBS_MAX)
				return stage_usage_error("pc-run-bub", usage, "--jobs must be a whole number of workloads from 1 to " JOBS_MAX_TEXT), STAGE_USAGE;
			break;
		default:
			o->agent_timeout = strtod(optarg, &end);
			/* strtod also reads nan, inf and hex: none is a number of seconds */
			if (*end || end == optarg || !(o->agent_timeout > 0 && o->agent_timeout < 1e9) ||
			    strpbrk(optarg, "xXnNiI"))
				return stage_usage_error("pc-run-bub", usage, "--agent-timeout must be a positive number of seconds"), STAGE_USAGE;
		}
	}
	if (c != STAGE_END)
		return c;
	if (strcmp(o->runner, "local") && strcmp(o->runner, "harbor"))
		return stage_usage_error("pc-run-bub", usage, "--runner must be local or harbor"), STAGE_USAGE;
	if (o->harbor_env && strcmp(o->runner, "harbor"))
		return stage_usage_error("pc-run-bub", usage, "--harbor-env needs --runner harbor"), STAGE_USAGE;
	if (o->harbor_env && !*o->harbor_env)
		return stage_usage_error("pc-run-bub", usage, "--harbor-env needs an environment type"), STAGE_USAGE;
	return stage_check_policy("pc-run-bub", usage, o->policy);
}

/* The repository holding this binary: its .tools/ holds the provisioned
 * Bub and Python, which the sandbox must see. */
static char *find_project(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n > 0) {
		exe[n] = '\0';
		for (char *slash; (slash = strrchr(exe, '/')) && slash != exe;) {
			*slash = '\0';
			char *probe = text_fmt("%s/pipelines/pc-powercontext", exe);
			int found = access(probe, R_OK) == 0;
			free(probe);
			if (found)
				return pc_xstrdup(exe);
		}
	}
	return getcwd(exe, sizeof exe) ? pc_xstrdup(exe) : pc_xstrdup(".");
}

static int read_selections(jv *out, const struct redactor *red)
{
	struct stage_input in;
	jv sel;

	*out = jv_array();
	stage_input_open(&in, "pc-run-bub", red, SCHEMA_SELECTION, &doc_selection);
	while (stage_input_next(&in, &sel))
		*out = jv_array_append(*out, sel);
	stage_input_close(&in);
	return in.status;
}

/* Paired workloads compare a run without PowerContext with one with it: a
 * single run of each cannot stand for that, so refuse before anything runs. */
static int check_unpaired(jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };

	jv_array_foreach(selections, i, sel) {
		(void)i;
		jv evaluation = json_at(sel, "workload.evaluation"), id = json_at(sel, "workload.id");
		if (docs_evaluation_kind(evaluation) == EVALUATION_PAIRED)
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", jv_string_value(id));
		jv_free(evaluation);
		jv_free(id);
		jv_free(sel);
	}
	char *list = sbuf_take(&names);
	/* clang-format off */
	int rc = *list ? pc_fail(e, "these workloads are OFF/ON paired comparisons and need a paired run "
				 "(one arm without PowerContext, one with it), which pc-run-bub does not do: %s", list) : 0;
	/* clang-format on */
	free(list);
	return rc;
}

/* Model-backed workloads need a model, and the scripted one a script and a
 * loopback endpoint: refuse before anything runs. */
static int check_models(const struct options *o, jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };
	const char *base = getenv("BUB_API_BASE");
	char *why = NULL;

	if (o->model_scripts && o->harbor_env)
		return pc_fail(e, "--model-scripts: the scripted model is on this machine's loopback, which a %s "
				  "sandbox cannot reach",
			       o->harbor_env);
	if (o->model_scripts && !(base && pc_url_is_loopback(base)))
		return pc_fail(e, "--model-scripts: BUB_API_BASE must be the scripted model's loopback URL "
				  "(http://127.0.0.1:PORT/v1), got %s",
			       base && *base ? base : "nothing");
	jv_array_foreach(selections, i, sel) {
		(void)i;
		jv w = jv_object_get(sel, jv_string("workload"));
		char *model;
		if (workload_model(o, w, &model, e) != 0) {
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", json_str(w, "id"));
			free(why);
			why = pc_xstrdup(e->msg);
		}
		free(model);
		jv_free(w);
	}
	char *list = sbuf_take(&names);
	int rc = *list ? pc_fail(e, "%s, and these workloads are model-backed: %s", why, list) : 0;
	free(list);
	free(why);
	return rc;
}

static char *output_dir(const struct options *o, struct pc_err *e)
{
	char real[PATH_MAX];

	/* absolute, so records stay valid wherever pc-normalize runs */
	if (o->output) {
		if (io_mkdirs(o->output, e) != 0)
			return NULL;
		if (!realpath(o->output, real))
			return pc_fail_errno(e, "%s", o->output), NULL;
		return pc_xstrdup(real);
	}
	char *dir = text_fmt("%s/pc-e2e-XXXXXX", io_tmpdir());
	if (!mkdtemp(dir)) {
		pc_fail_errno(e, "cannot create %s", dir);
		free(dir);
		return NULL;
	}
	fprintf(stderr, "pc-run-bub: writing Harbor job directories under %s\n", dir);
	return dir;
}

/* What every workload of the run shares, read-only once they run (a
 * worker process has its own copy). */
struct fleet {
	const struct options *o;
	const struct redactor *red;
	const struct pc_client *client;
	const struct pc_api *api; /* NULL: the Server could not say what it is */
	const char *api_error, *project, *outdir, *commit;
	const struct agent *agent;
	jv selections; /* borrowed */
	int n;
	int *unit_of; /* per workload: the first workload of its unit (jobs.h) */
	int progress;
};

static struct run run_of(const struct fleet *f, int i)
{
	jv sel = jv_array_get(jv_copy(f->selections), i);
	/* clang-format off */
	struct run r = { .opt = f->o, .red = f->red, .client = f->client, .project = f->project,
			 .api = f->api, .api_error = f->api_error,
			 .agent_cmd = f->agent->command, .bub_dir = f->agent->bub_dir,
			 .agent_adapter = f->agent->adapter,
			 .selection = sel, .workload = json_get(sel, "workload"), .progress = f->progress };
	/* clang-format on */
	return r;
}

static void run_free(struct run *r)
{
	jv_free(r->workload);
	jv_free(r->selection);
}

/* The workloads of one unit (-1: every one) in selection order, each record
 * written as soon as it is made.  Under fail-fast a batch stops at its first
 * failure; after a stop request no workload starts. */
static int run_selections(const struct fleet *f, int unit)
{
	jv stopped = jv_object(); /* batches a failure stopped, under fail-fast */
	int status = EXIT_OK, fail_fast = !strcmp(f->o->policy, "fail-fast");
	struct pc_err e;

	for (int i = 0; i < f->n && status == EXIT_OK && !proc_stop_signal(); i++) {
		if (unit >= 0 && f->unit_of[i] != unit)
			continue;
		struct run r = run_of(f, i);
		const char *batch = fail_fast ? batch_of(r.workload) : NULL;
		jv stop = batch ? jv_object_get(jv_copy(stopped), jv_string(batch)) : jv_invalid();
		r.gated = batch != NULL;
		if (r.progress)
			fprintf(stderr, "pc-run-bub: workload %d/%d: %s\n", i + 1, f->n, json_str(r.workload, "id"));
		jv record = jv_is_valid(stop) ? unrun_workload(&r, f->commit, NULL) : run_workload(&r, f->outdir, f->commit);
		if (batch && (r.gate_closed || !strcmp(json_str(record, "status"), "failed")))
			stopped = jv_object_set(stopped, jv_string(batch), jv_true());
		if (stage_emit(f->red, record, &e) != 0)
			status = stage_die("pc-run-bub", f->red, EXIT_INVALID, e.msg);
		jv_free(stop);
		run_free(&r);
	}
	jv_free(stopped);
	return status;
}

/* Per workload, the first workload of the unit one worker runs: its own
 * index, or under fail-fast the first of its batch, so that a batch stays
 * one workload after another. */
static int *units_of(const struct options *o, jv selections, int n)
{
	int *unit = pc_xmalloc((size_t)n * sizeof *unit), fail_fast = !strcmp(o->policy, "fail-fast");
	jv first = jv_object(); /* batch name: the index of its first workload */

	jv_array_foreach(selections, i, sel) {
		jv w = jv_object_get(sel, jv_string("workload"));
		const char *batch = fail_fast ? batch_of(w) : NULL;
		jv seen = batch ? jv_object_get(jv_copy(first), jv_string(batch)) : jv_invalid();
		unit[i] = jv_is_valid(seen) ? (int)jv_number_value(seen) : i;
		if (batch && !jv_is_valid(seen))
			first = jv_object_set(first, jv_string(batch), jv_number(i));
		jv_free(seen);
		jv_free(w);
	}
	jv_free(first);
	return unit;
}

static int run_unit(void *fleet, int unit)
{
	return run_selections(fleet, unit);
}

static char *unwritten_record(void *fleet, int i, const char *why)
{
	const struct fleet *f = fleet;
	struct run r = run_of(f, i);
	jv text = jv_dump_string(redact_jv(f->red, unrun_workload(&r, f->commit, why)), 0);
	char *line = text_fmt("%s\n", jv_string_value(text));

	jv_free(text);
	run_free(&r);
	return line;
}

/* Every workload: one after another in this process, or with --jobs N in
 * worker processes, N at once (*worker set in a worker, whose status this is). */
static int run_fleet(const struct fleet *f, int *worker)
{
	struct jobs j = { .n = f->n, .unit_of = f->unit_of, .max = f->o->jobs, .ctx = (void *)f, .run_unit = run_unit, .unwritten = unwritten_record };
	struct pc_err e;

	*worker = 0;
	if (f->o->jobs == 1)
		return run_selections(f, -1);
	int rc = jobs_run(&j, worker, &e);
	if (*worker || rc == 0)
		return rc;
	return stage_die("pc-run-bub", f->red, EXIT_INVALID, e.msg);
}

static int run_all(const struct options *o, const struct redactor *red)
{
	struct pc_client client;
	struct pc_err e;
	jv selections;
	char *project = NULL, *outdir = NULL, *commit = NULL;
	struct agent agent = { NULL, NULL, jv_null() };
	const struct runner *runner = runner_of(o);
	int status = read_selections(&selections, red), worker = 0;

	if (status == EXIT_OK && jv_array_length(jv_copy(selections)) == 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, "no selections on stdin");
	if (status == EXIT_OK && check_unpaired(selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && check_models(o, selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && pc_client_init(&client, environ, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status != EXIT_OK) {
		jv_free(selections);
		return status;
	}
	project = find_project();
	if (agent_resolve(o->agent, &agent, &e) != 0 ||
	    (runner->check && runner->check(o, &client, project, &agent, &e) != 0) || !(outdir = output_dir(o, &e)))
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	/* once per run: a Server that cannot say what it is fails every Memory workload */
	struct pc_api api = { NULL, 0 };
	char *api_error = NULL;
	if (status == EXIT_OK && pc_api_detect(&client, &api, &e) != 0)
		api_error = pc_xstrdup(e.msg);
	const struct pc_api *known = api.version ? &api : NULL;
	/* from here on a stop finishes the workload it interrupts: its record
	 * and evidence are written, then pc-run-bub exits with 128 + signal */
	proc_catch_stop();
	commit = commit_id(known);
	int n = jv_array_length(jv_copy(selections));
	/* clang-format off */
	struct fleet fleet = { .o = o, .red = red, .client = &client, .api = known, .api_error = api_error,
			       .project = project, .outdir = outdir, .commit = commit, .agent = &agent,
			       .selections = selections, .n = n, .unit_of = units_of(o, selections, n),
			       .progress = isatty(STDERR_FILENO) || getenv("PC_E2E_PROGRESS") };
	/* clang-format on */
	if (status == EXIT_OK)
		status = run_fleet(&fleet, &worker);
	if (status == EXIT_OK && proc_stop_signal()) {
		if (!worker)
			fprintf(stderr, "pc-run-bub: stopped by %s; the workloads after the %s it interrupted were not run\n",
				proc_stop_name(), o->jobs > 1 ? "ones" : "one");
		status = 128 + proc_stop_signal();
	}
	free(fleet.unit_of);
	jv_free(selections);
	pc_client_free(&client);
	pc_api_free(&api);
	free(api_error);
	free(project);
	agent_free(&agent);
	free(outdir);
	free(commit);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { .runner = "local", .policy = "collect-all", .jobs = 1 };
	struct redactor red;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		return stage_option_exit(rc);
	redactor_init(&red, environ);
	rc = run_all(&o, &red);
	redactor_free(&red);
	return rc;
}
