/* pc-run-bub: selections in, run records out (docs/DESIGN.md §5).
 *
 * Main reads the options and the selections, checks what every workload
 * needs before any runs (preflight.c), and runs the fleet (fleet.c): each
 * workload from run_begin to run_end (run.c) through workload_run
 * (workload.c), by the runner --runner names (runners.c).  The workloads of
 * a batch:<name> group share one trial (batch_trial.c).  --settle settles
 * one session of a paired ON arm's Scope instead (arm.c).
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arm.h"
#include "choice.h"
#include "docs.h"
#include "fleet.h"
#include "hosts.h"
#include "io.h"
#include "jobs.h"
#include "outdir.h"
#include "pcclient.h"
#include "preflight.h"
#include "run.h"
#include "runners.h"
#include "stage.h"
#include "text.h"

extern char **environ;

/* The --help text, its runners from their rows (malloc'd): the synopsis,
 * which a usage error repeats, and what the filter does; the page
 * pc-run-bub(1) describes each option. */
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
		"under DIR/<workload id>/" OUTDIR_HARBOR_JOBS
		"/ (default DIR: a new temporary directory).\n"
		"Each option is described in man pc-run-bub.\n");
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

/* Every selection read and checked before any runs, then the fleet. */
static int run_all(const struct run_bub_options *o, const struct redactor *red)
{
	struct pc_err e;
	jv selections;
	int status = read_selections(&selections, red);

	if (status == EXIT_OK && jv_array_length(jv_copy(selections)) == 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, "no selections on stdin");
	if (status == EXIT_OK && preflight_check(o, selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK)
		status = fleet_run(o, red, selections);
	jv_free(selections);
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
