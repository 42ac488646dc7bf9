/* options: pc-run-bub's command line (options.h). */
#include "options.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/seconds.h"
#include "choice.h"
#include "io.h"
#include "paired/hosts.h"
#include "runners.h"
#include "server/pcclient.h"
#include "stage.h"
#include "text.h"
#include "workers.h"

extern char **environ;

/* The usage error for a --runner no row names: "--runner must be a, b or c". */
static int unknown_runner(const char *prog, const char *usage)
{
	char *msg = choice_refusal("--runner", runner_name_at, NULL);
	int rc = stage_usage_error(prog, usage, msg);
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

/* --paired and what only it takes: --trials N, --trial N and --host HOST. */
static int paired_args(int paired, const char *trials, const char *trial, const char *host,
		       const struct stage_cli *cli, struct run_bub_options *o)
{
	const char *usage = cli->usage;

	if (!paired && (trials || trial || host))
		return stage_usage_error(o->prog, usage,
					 trials  ? "--trials needs --paired"
					 : trial ? "--trial needs --paired"
						 : "--host needs --paired");
	if (!paired)
		return 0;
	o->trials = 2;
	if (trials && stage_count(cli, "--trials", "a whole number of trials", trials, 1,
				  STAGE_TRIALS_MAX, &o->trials) != 0)
		return -1;
	if (trial &&
	    stage_count(cli, "--trial", "a trial number", trial, 1, o->trials, &o->trial) != 0)
		return -1;
	if (host && !(o->host = host_named(host))) {
		char *msg = choice_refusal("--host", host_name_at, NULL);
		stage_usage_error(o->prog, usage, msg);
		free(msg);
		return -1;
	}
	if (!host)
		o->host = &hosts[0];
	if (o->jobs > 1)
		return stage_usage_error(
			o->prog, usage,
			"--paired runs one arm at a time (--jobs 1): the Access audit of an ON arm's window must hold its own requests only");
	return 0;
}

/* --settle SCOPE and what only it takes: --session N, --flush. */
static int settle_args(const char *session, const char *usage, struct run_bub_options *o)
{
	if (!o->settle_scope && (session || o->settle_flush))
		return stage_usage_error(o->prog, usage,
					 session ? "--session needs --settle"
						 : "--flush needs --settle");
	if (!o->settle_scope)
		return 0;
	o->settle_session = session && strspn(session, "0123456789") == strlen(session) &&
					    *session && strlen(session) <= 4
				    ? atoi(session)
				    : -1;
	if (o->settle_session < 0)
		return stage_usage_error(o->prog, usage,
					 "--settle needs --session N, a session number from 0");
	return 0;
}

/* --budget X: a number of USD from 0, which needs --prices to be held to. */
static int budget_args(const char *budget, const char *usage, struct run_bub_options *o)
{
	char *end = NULL;

	o->budget_usd = -1;
	if (!budget)
		return 0;
	o->budget_usd = strtod(budget, &end);
	if (!*budget || *end || !(o->budget_usd >= 0) || o->budget_usd > 1e12)
		return stage_usage_error(o->prog, usage, "--budget must be a number of USD from 0");
	if (!o->prices)
		return stage_usage_error(o->prog, usage,
					 "--budget needs --prices FILE: a model without a price cannot be held to it");
	return 0;
}

int run_bub_options_parse(int argc, char **argv, const char *usage, struct run_bub_options *o)
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
		{ "trial", required_argument, NULL, 'T' },
		{ "plan", no_argument, NULL, 'P' },
		{ "unrun", required_argument, NULL, 'U' },
		{ "host", required_argument, NULL, 'H' },
		{ "settle", required_argument, NULL, 'S' },
		{ "session", required_argument, NULL, 'N' },
		{ "flush", no_argument, NULL, 'F' },
		{ "prices", required_argument, NULL, 'C' },
		{ "budget", required_argument, NULL, 'B' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI(o->prog, usage, "", longs, argc, argv);
	const char *runner = runners[0].name, *host = NULL, *trials = NULL, *trial = NULL;
	const char *session = NULL, *budget = NULL;
	struct pc_err e;
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
		case 'T': trial = optarg; break;
		case 'P': o->plan = 1; break;
		case 'U': o->unrun = optarg; break;
		case 'H': host = optarg; break;
		case 'S': o->settle_scope = optarg; break;
		case 'N': session = optarg; break;
		case 'F': o->settle_flush = 1; break;
		case 'C': o->prices = optarg; break;
		case 'B': budget = optarg; break;
		case 'g':
			free(o->registry);
			o->registry = absolute_path(optarg);
			break;
		case 'j':
			if (stage_count(&cli, "--jobs", "a whole number of workloads", optarg, 1,
					JOBS_MAX, &o->jobs) != 0)
				return STAGE_USAGE;
			break;
		default:
			if (seconds_parse("--agent-timeout", optarg, &o->agent_timeout, &e) != 0)
				return stage_usage_error(o->prog, usage, e.msg), STAGE_USAGE;
		}
	}
	if (c != STAGE_END)
		return c;
	/* the Server client's setting, refused before anything runs, --plan included */
	if (pc_client_timeout(environ, &o->client_timeout, &e) != 0)
		return stage_usage_error(o->prog, usage, e.msg), STAGE_USAGE;
	if (paired_args(paired, trials, trial, host, &cli, o) != 0 ||
	    settle_args(session, usage, o) != 0)
		return STAGE_USAGE;
	const char *unrun_error = !o->unrun    ? NULL
				  : o->plan    ? "--plan and --unrun cannot be used together"
				  : !*o->unrun ? "--unrun needs a reason (why nothing ran)"
					       : NULL;
	if (unrun_error)
		return stage_usage_error(o->prog, usage, unrun_error), STAGE_USAGE;
	if (budget_args(budget, usage, o) != 0)
		return STAGE_USAGE;
	if (!(o->runner = runner_named(runner)))
		return unknown_runner(o->prog, usage), STAGE_USAGE;
	/* Harbor's environment types are the harbor runner's alone */
	if (o->harbor_env && strcmp(o->runner->name, "harbor"))
		return stage_usage_error(o->prog, usage, "--harbor-env needs --runner harbor"),
		       STAGE_USAGE;
	if (o->harbor_env && !*o->harbor_env)
		return stage_usage_error(o->prog, usage,
					 "--harbor-env needs an environment type"),
		       STAGE_USAGE;
	return stage_check_policy(o->prog, usage, o->policy);
}
