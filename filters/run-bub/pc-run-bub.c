/* pc-run-bub: selections in, run records out (docs/DESIGN.md §5).
 *
 * Main reads the options and the selections, checks what every workload
 * needs before any runs, and runs the fleet: each workload from run_begin
 * to run_end (run.c) through workload_run (workload.c), by the runner
 * --runner names (runners.c).  The workloads of a batch:<name> group share
 * one trial (batch.c).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "arm.h"
#include "batch.h"
#include "batch_trial.h"
#include "choice.h"
#include "docs.h"
#include "hosts.h"
#include "io.h"
#include "jobs.h"
#include "json.h"
#include "paired.h"
#include "pcclient.h"
#include "proc.h"
#include "run.h"
#include "runners.h"
#include "stage.h"
#include "text.h"
#include "workload.h"

extern char **environ;

/* The --help text, its runners from their rows (malloc'd). */
static char *usage_text(void)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "usage: pc-run-bub [--runner ");
	choice_add_names(&b, runner_name_at, NULL, "|", "|");
	sbuf_add(
		&b,
		"] [--failure-policy POLICY] [--output DIR]\n"
		"                  [--agent CMD] [--agent-timeout SEC] [--harbor-env TYPE]\n"
		"                  [--model-scripts DIR] [--registry FILE] [--jobs N]\n"
		"                  [--paired [--trials N] [--host HOST]]\n"
		"       pc-run-bub --settle SCOPE --session N [--flush]\n"
		"Reads powercontext.e2e-selection/v1 lines and runs each workload, writing one\n"
		"powercontext.e2e-run/v1 record per workload and the Harbor job directory\n"
		"under DIR/<workload id>/harbor-jobs/ (default DIR: a new temporary directory).\n");
	/* descriptions start in column 20, as the other options' do */
	for (const struct runner *r = runners; r->name; r++) {
		sbuf_addf(&b, "  --runner %-6s  ", r->name);
		for (const char *line = r->usage, *nl; (nl = strchr(line, '\n')); line = nl + 1)
			sbuf_addf(&b, "%s%.*s\n", line == r->usage ? "" : "                   ",
				  (int)(nl - line), line);
	}
	sbuf_add(
		&b,
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
		"  --registry FILE  a local Harbor registry (a JSON list of datasets whose tasks\n"
		"                   are directories, paths relative to FILE): workloads pinning a\n"
		"                   registry dataset find their task through it, on either runner\n"
		"  --failure-policy POLICY  collect-all (default): run every workload;\n"
		"                   fail-fast: a batch:<name> group's shared trial stops at its\n"
		"                   first step scoring below 1, and the members after it are\n"
		"                   recorded as skipped\n"
		"  --jobs N         run up to N workloads at once (1 to " JOBS_MAX_TEXT
		", default 1), each in a\n"
		"                   worker process of its own; records stay in selection order,\n"
		"                   and a batch:<name> group is one trial in one worker\n"
		"  --paired         run PowerContext's paired OFF/ON comparison: each selected\n"
		"                   paired workload's trials, each as two arms, OFF (the agent\n"
		"                   without PowerContext: $POWERCONTEXT_E2E_BUB_OFF from\n"
		"                   pipelines/pc-powercontext bub-off) and ON (with its plugin\n"
		"                   and a Scope of its own), OFF first on odd trials; one record\n"
		"                   per arm, its files under DIR/<id>/trial-<n>/<off|on>/\n"
		"  --trials N       with --paired: trials per workload (default 2)\n"
		"  --host HOST      with --paired: the agent compared, one of ");
	choice_add_names(&b, host_name_at, NULL, ", ", " or ");
	sbuf_add(&b, "\n"
		     "                   (default bub; only bub runs on this machine)\n"
		     "  --settle SCOPE   settle a paired ON arm's Scope after agent session N\n"
		     "                   (--session N, from 0), flushing it first with --flush,\n"
		     "                   and print {session, snapshot} or {session, error} as one\n"
		     "                   line (the Harbor runner's job plugin calls it); exit 0\n");
	return sbuf_take(&b);
}

/* The usage error for a --runner no row names: "--runner must be a, b or c". */
static int unknown_runner(const char *usage)
{
	char *msg = choice_refusal("--runner", runner_name_at, NULL);
	int rc = stage_usage_error("pc-run-bub", usage, msg);
	free(msg);
	return rc;
}

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

/* path made absolute against the working directory, without asking
 * whether it exists: a registry that cannot be read fails the workloads
 * that need it, naming it */
static char *absolute_path(const char *path)
{
	char cwd[PATH_MAX];

	if (*path == '/' || !getcwd(cwd, sizeof cwd))
		return pc_xstrdup(path);
	return io_join(cwd, path);
}

/* --paired and what only it takes: --trials N and --host HOST. */
static int paired_args(int paired, const char *trials, const char *host,
		       const struct stage_cli *cli, struct run_bub_options *o)
{
	const char *usage = cli->usage;

	if (!paired && (trials || host))
		return stage_usage_error("pc-run-bub", usage,
					 trials ? "--trials needs --paired"
						: "--host needs --paired");
	if (!paired)
		return 0;
	o->trials = 2;
	if (trials && stage_count(cli, "--trials", "trials", trials, 1, STAGE_TRIALS_MAX,
				  &o->trials) != 0)
		return -1;
	if (host && !(o->host = host_named(host))) {
		char *msg = choice_refusal("--host", host_name_at, NULL);
		stage_usage_error("pc-run-bub", usage, msg);
		free(msg);
		return -1;
	}
	if (!host)
		o->host = &hosts[0];
	if (o->jobs > 1)
		return stage_usage_error(
			"pc-run-bub", usage,
			"--paired runs one arm at a time (--jobs 1): the Access audit of an ON arm's window must hold its own requests only");
	return 0;
}

/* --settle SCOPE and what only it takes: --session N, --flush. */
static int settle_args(const char *session, const char *usage, struct run_bub_options *o)
{
	if (!o->settle_scope && (session || o->settle_flush))
		return stage_usage_error("pc-run-bub", usage,
					 session ? "--session needs --settle"
						 : "--flush needs --settle");
	if (!o->settle_scope)
		return 0;
	o->settle_session = session && strspn(session, "0123456789") == strlen(session) &&
					    *session && strlen(session) <= 4
				    ? atoi(session)
				    : -1;
	if (o->settle_session < 0)
		return stage_usage_error("pc-run-bub", usage,
					 "--settle needs --session N, a session number from 0");
	return 0;
}

static int parse_args(int argc, char **argv, const char *usage, struct run_bub_options *o)
{
	static const struct option longs[] = {
		{ "runner", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "agent", required_argument, NULL, 'a' },
		{ "agent-timeout", required_argument, NULL, 't' },
		{ "failure-policy", required_argument, NULL, 'f' },
		{ "harbor-env", required_argument, NULL, 'e' },
		{ "model-scripts", required_argument, NULL, 'm' },
		{ "registry", required_argument, NULL, 'g' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "paired", no_argument, NULL, 'p' },
		{ "trials", required_argument, NULL, 'n' },
		{ "host", required_argument, NULL, 'H' },
		{ "settle", required_argument, NULL, 'S' },
		{ "session", required_argument, NULL, 'N' },
		{ "flush", no_argument, NULL, 'F' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI("pc-run-bub", usage, "", longs, argc, argv);
	const char *runner = runners[0].name, *host = NULL, *trials = NULL, *session = NULL;
	char *end;
	int c, paired = 0;

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'r': runner = optarg; break;
		case 'o': o->output = optarg; break;
		case 'a': o->agent = optarg; break;
		case 'f': o->policy = optarg; break;
		case 'e': o->harbor_env = optarg; break;
		case 'm': o->model_scripts = optarg; break;
		case 'p': paired = 1; break;
		case 'n': trials = optarg; break;
		case 'H': host = optarg; break;
		case 'S': o->settle_scope = optarg; break;
		case 'N': session = optarg; break;
		case 'F': o->settle_flush = 1; break;
		case 'g':
			free(o->registry);
			o->registry = absolute_path(optarg);
			break;
		case 'j':
			if (stage_count(&cli, "--jobs", "workloads", optarg, 1, JOBS_MAX,
					&o->jobs) != 0)
				return STAGE_USAGE;
			break;
		default:
			o->agent_timeout = strtod(optarg, &end);
			/* strtod also reads nan, inf and hex: none is a number of seconds */
			if (*end || end == optarg ||
			    !(o->agent_timeout > 0 && o->agent_timeout < 1e9) ||
			    strpbrk(optarg, "xXnNiI"))
				return stage_usage_error(
					       "pc-run-bub", usage,
					       "--agent-timeout must be a positive number of seconds"),
				       STAGE_USAGE;
		}
	}
	if (c != STAGE_END)
		return c;
	if (paired_args(paired, trials, host, &cli, o) != 0 ||
	    settle_args(session, usage, o) != 0)
		return STAGE_USAGE;
	if (!(o->runner = runner_named(runner)))
		return unknown_runner(usage), STAGE_USAGE;
	/* Harbor's environment types are the harbor runner's alone */
	if (o->harbor_env && strcmp(o->runner->name, "harbor"))
		return stage_usage_error("pc-run-bub", usage, "--harbor-env needs --runner harbor"),
		       STAGE_USAGE;
	if (o->harbor_env && !*o->harbor_env)
		return stage_usage_error("pc-run-bub", usage,
					 "--harbor-env needs an environment type"),
		       STAGE_USAGE;
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
		jv evaluation = json_at(sel, "workload.evaluation"),
		   id = json_at(sel, "workload.id");
		if (docs_evaluation_kind(evaluation) == EVALUATION_PAIRED)
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", jv_string_value(id));
		jv_free(evaluation);
		jv_free(id);
		jv_free(sel);
	}
	char *list = sbuf_take(&names);
	int rc = 0;
	if (*list)
		rc = pc_fail(e,
			     "these workloads are OFF/ON paired comparisons, which run as two arms each (one without PowerContext, one with it) under --paired: %s",
			     list);
	free(list);
	return rc;
}

/* Paired workloads run under --paired only, and --paired runs nothing
 * else, on a host that can run here. */
static int check_pairing(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	if (!o->trials)
		return check_unpaired(selections, e);
	if (o->host->needs)
		return pc_fail(e,
			       "--host %s cannot run on this machine: it needs %s, from npm, which this machine cannot reach; only bub runs here",
			       o->host->name, o->host->needs);
	return paired_check_workloads(selections, e);
}

/* Model-backed workloads need a model, and the scripted one a script and a
 * loopback endpoint: refuse before anything runs. */
static int check_models(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };
	const char *base = getenv("BUB_API_BASE");
	char *why = NULL;

	if (o->model_scripts && o->harbor_env)
		return pc_fail(
			e,
			"--model-scripts: the scripted model is on this machine's loopback, which a %s sandbox cannot reach",
			o->harbor_env);
	if (o->model_scripts && !(base && pc_url_is_loopback(base)))
		return pc_fail(
			e,
			"--model-scripts: BUB_API_BASE must be the scripted model's loopback URL (http://127.0.0.1:PORT/v1), got %s",
			base && *base ? base : "nothing");
	jv_array_foreach(selections, i, sel) {
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

static char *output_dir(const struct run_bub_options *o, struct pc_err *e)
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

/* The workloads of one unit (-1: every one) in selection order, each record
 * written as soon as it is made; a merged batch's, once its shared trial
 * ended.  After a stop request no workload starts. */
/* One record out (consumed); a record that cannot be written ends the run. */
static int emit_record(const struct fleet *f, jv record)
{
	struct pc_err e;

	if (stage_emit(f->red, record, &e) != 0)
		return stage_die("pc-run-bub", f->red, EXIT_INVALID, e.msg);
	return EXIT_OK;
}

static int run_selections(const struct fleet *f, int unit)
{
	int status = EXIT_OK;

	for (int i = 0; i < f->n && status == EXIT_OK && !proc_stop_signal(); i++) {
		/* a batch's later members run with its first */
		if ((unit >= 0 && f->unit_of[i] != unit) || f->unit_of[i] != i)
			continue;
		jv records, w = jv_getpath(jv_copy(f->selections),
					   JV_ARRAY(jv_number(i), jv_string("workload")));
		if (f->progress)
			fprintf(stderr, "pc-run-bub: workload %d/%d: %s\n", i + 1, f->n,
				json_str(w, "id"));
		jv_free(w);
		if (f->o->trials) {
			status = paired_run(f, i, emit_record);
			continue;
		}
		if (batch_size(f, i) > 1)
			records = batch_run(f, i);
		else {
			struct workload_run r;
			run_begin(&r, f, i);
			records = JV_ARRAY(workload_run(&r));
			run_end(&r);
		}
		jv_array_foreach(records, k, record) {
			if (status == EXIT_OK)
				status = emit_record(f, record);
			else
				jv_free(record);
		}
		jv_free(records);
	}
	return status;
}

static int run_unit(void *fleet, int unit)
{
	return run_selections(fleet, unit);
}

static char *unwritten_record(void *fleet, int i, const char *why)
{
	const struct fleet *f = fleet;
	struct workload_run r;

	run_begin(&r, f, i);
	jv text = jv_dump_string(redact_jv(f->red, workload_unrun(&r, why)), 0);
	char *line = text_fmt("%s\n", jv_string_value(text));

	jv_free(text);
	run_end(&r);
	return line;
}

/* Every workload: one after another in this process, or with --jobs N in
 * worker processes, N at once (*worker set in a worker, whose status this is). */
static int run_fleet(const struct fleet *f, int *worker)
{
	struct jobs j = { .n = f->n,
			  .unit_of = f->unit_of,
			  .max = f->o->jobs,
			  .ctx = (void *)f,
			  .run_unit = run_unit,
			  .unwritten = unwritten_record };
	struct pc_err e;

	*worker = 0;
	if (f->o->jobs == 1)
		return run_selections(f, -1);
	int rc = jobs_run(&j, worker, &e);
	if (*worker || rc == 0)
		return rc;
	return stage_die("pc-run-bub", f->red, EXIT_INVALID, e.msg);
}

static int run_all(const struct run_bub_options *o, const struct redactor *red)
{
	struct pc_client client;
	struct pc_err e;
	jv selections;
	char *project = NULL, *outdir = NULL, *commit = NULL;
	struct agent agent = { NULL, NULL, jv_null() }, agent_off = { NULL, NULL, jv_null() };
	const struct runner *runner = o->runner;
	int status = read_selections(&selections, red), worker = 0;

	if (status == EXIT_OK && jv_array_length(jv_copy(selections)) == 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, "no selections on stdin");
	if (status == EXIT_OK && check_pairing(o, selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && check_models(o, selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && batch_check(selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && pc_client_init(&client, environ, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status != EXIT_OK) {
		jv_free(selections);
		return status;
	}
	project = find_project();
	if ((o->trials && (paired_check_server(&client, &e) != 0 ||
			   agent_resolve_off(o->agent, &agent_off, &e) != 0)) ||
	    agent_resolve(o->agent, &agent, &e) != 0 ||
	    (runner->check && runner->check(o, &client, project, &agent, &e) != 0) ||
	    !(outdir = output_dir(o, &e)))
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
	struct fleet fleet = {
		.o = o,
		.red = red,
		.client = &client,
		.api = known,
		.api_error = api_error,
		.project = project,
		.outdir = outdir,
		.commit = commit,
		.agent = &agent,
		.agent_off = o->trials ? &agent_off : NULL,
		.selections = selections,
		.n = n,
		.unit_of = batch_units(selections, n),
		.progress = isatty(STDERR_FILENO) || getenv("PC_E2E_PROGRESS"),
	};
	if (status == EXIT_OK)
		status = run_fleet(&fleet, &worker);
	if (status == EXIT_OK && proc_stop_signal()) {
		if (!worker)
			fprintf(stderr,
				"pc-run-bub: stopped by %s; the workloads after the %s it interrupted were not run\n",
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
	agent_free(&agent_off);
	free(outdir);
	free(commit);
	return status;
}

/* --settle: one session of a Harbor job's ON arm, settled as the local
 * runner settles it, as one line on stdout; a failure is a line too. */
static int settle_one(const struct run_bub_options *o, const struct redactor *red)
{
	struct pc_client client;
	struct pc_err e;

	if (pc_client_init(&client, environ, &e) != 0)
		return stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	jv settled = arm_settle(&client, o->settle_scope, o->settle_session, o->settle_flush);
	int rc = stage_emit(red, settled, &e) == 0
			 ? EXIT_OK
			 : stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	pc_client_free(&client);
	return rc;
}

int main(int argc, char **argv)
{
	struct run_bub_options o = { .policy = "collect-all", .jobs = 1 };
	struct redactor red;
	char *usage = usage_text();
	int rc = parse_args(argc, argv, usage, &o);

	free(usage);
	if (rc != 0) {
		free(o.registry);
		return stage_option_exit(rc);
	}
	if ((rc = stage_open_streams("pc-run-bub", !o.settle_scope)) != 0) {
		free(o.registry);
		return rc;
	}
	redactor_init(&red, environ);
	rc = o.settle_scope ? settle_one(&o, &red) : run_all(&o, &red);
	redactor_free(&red);
	free(o.registry);
	return rc;
}
