/* pc-run-bub: selections in, run records out (docs/DESIGN.md §5).
 *
 * Main reads the options and the selections, checks what every workload
 * needs before any runs (preflight.c), and runs the fleet (fleet.c): each
 * workload from run_begin to run_end (run/run.c) through workload_run
 * (run/workload.c), by the runner --runner names (runners.c).  The workloads of
 * a batch:<name> group share one trial (batch/batch_trial.c).  --settle settles
 * one session of a paired ON arm's Scope instead (paired/arm.c).
 */
#include <stdlib.h>

#include "budget.h"
#include "choice.h"
#include "docs.h"
#include "fleet.h"
#include "options.h"
#include "outdir.h"
#include "paired/arm.h"
#include "plan.h"
#include "preflight.h"
#include "run/run.h"
#include "runners.h"
#include "server/pcclient.h"
#include "stage.h"
#include "text.h"

extern char **environ;

/* The filter's name, spelled here only: every message of its own, --help
 * and --version. */
#define PROG "pc-run-bub"

/* The --help text, its runners from their rows (malloc'd): the synopsis,
 * which a usage error repeats, and what the filter does; the page
 * pc-run-bub(1) describes each option. */
static char *usage_text(void)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "usage: " PROG " [--runner ");
	choice_add_names(&b, runner_name_at, NULL, "|", "|");
	sbuf_add(
		&b,
		"] [--failure-policy POLICY] [--output DIR]\n"
		"                  [--agent CMD] [--agent-timeout SEC] [--harbor-env TYPE]\n"
		"                  [--model-scripts DIR] [--registry FILE] [--jobs N]\n"
		"                  [--paired [--trials N] [--trial N] [--host HOST]]\n"
		"                  [--prices FILE [--budget USD]] [--plan | --unrun WHY]\n"
		"       " PROG " --settle SCOPE --session N [--flush]\n"
		"Reads powercontext.e2e-selection/v1 lines and runs each workload, writing one\n"
		"powercontext.e2e-run/v1 record per workload and the Harbor job directory\n"
		"under DIR/<workload id>/" OUTDIR_HARBOR_JOBS
		"/ (default DIR: a new temporary directory).\n"
		"Each option is described in man " PROG ".\n");
	return sbuf_take(&b);
}

static int read_selections(jv *out, const struct redactor *red)
{
	struct stage_input in;
	jv sel;

	*out = jv_array();
	stage_input_open(&in, PROG, red, SCHEMA_SELECTION, &doc_selection);
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
		status = stage_die(PROG, red, EXIT_INVALID, "no selections on stdin");
	if (status == EXIT_OK && budget_check(o, selections, &e) != 0)
		status = stage_die(PROG, red, EXIT_USAGE, e.msg);
	if (status == EXIT_OK && preflight_check(o, selections, &e) != 0)
		status = stage_die(PROG, red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK)
		status = o->plan ? plan_print(o, selections, red) : fleet_run(o, red, selections);
	jv_free(selections);
	return status;
}

/* --settle: one session of a Harbor job's ON arm, settled as the local
 * runner settles it, as one line on stdout; a failure is a line too. */
static int settle_one(const struct run_bub_options *o, const struct redactor *red)
{
	struct pc_client client;
	struct pc_err e;

	if (pc_client_init(&client, environ, o->client_timeout, &e) != 0)
		return stage_die(PROG, red, EXIT_INVALID, e.msg);
	jv settled = arm_settle(&client, o->settle_scope, o->settle_session, o->settle_flush);
	int rc = stage_emit(red, settled, &e) == 0
			 ? EXIT_OK
			 : stage_die(PROG, red, EXIT_INVALID, e.msg);
	pc_client_free(&client);
	return rc;
}

int main(int argc, char **argv)
{
	struct run_bub_options o = { .prog = PROG, .policy = "collect-all", .jobs = 1 };
	struct redactor red;
	char *usage = usage_text();
	int rc = run_bub_options_parse(argc, argv, usage, &o);

	free(usage);
	if (rc != 0) {
		free(o.registry);
		return stage_option_exit(rc);
	}
	if ((rc = stage_open_streams(PROG, !o.settle_scope)) != 0) {
		free(o.registry);
		return rc;
	}
	redactor_init(&red, environ);
	rc = o.settle_scope ? settle_one(&o, &red) : run_all(&o, &red);
	redactor_free(&red);
	free(o.registry);
	return rc;
}
