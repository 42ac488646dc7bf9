/* pc-normalize: run records in, replays out (docs/DESIGN.md §2.4).
 *
 * The replay is rebuilt from the record plus the files under its trial
 * directory, deterministically: capture logs, native ACP artifacts, resolved
 * instructions and the Harbor trial result, then redaction at the sink
 * (replay.h).  With --paired each record is a paired arm's, and the arm's
 * observation is written instead (observe.h).  This file holds the command
 * line and the pass each record goes through.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "docs.h"
#include "harbor_trial.h"
#include "json.h"
#include "observe.h"
#include "outdir.h"
#include "prices.h"
#include "replay.h"
#include "stage.h"

extern char **environ;

/* The filter's name, spelled here only: every message of its own, --help
 * and --version. */
#define PROG "pc-normalize"

static const char usage[] =
	"usage: " PROG " [--paired [--prices FILE]] [--output DIR]\n"
	"Reads powercontext.e2e-run/v1 records on stdin and writes one\n"
	"powercontext.e2e-evidence/v1 replay per record, rebuilt from the record and\n"
	"the files under its trial directory; with --paired, each paired arm's\n"
	"powercontext.e2e-paired-arm/v3 observation instead, and under DIR its\n"
	"pc-e2e.paired-arm-account/v1 account beside it.  More: man " PROG ".\n";

static int normalize_one(void *ctx, jv record, const struct json_reader *raw, jv *replay,
			 int *code, struct pc_err *e)
{
	(void)ctx, (void)raw, (void)code, (void)e;
	*replay = replay_of(record);
	return 0;
}

static char *arm_dir(jv record);

static int observe_one(void *ctx, jv record, const struct json_reader *raw, jv *observation,
		       int *code, struct pc_err *e)
{
	jv trial_dir = json_at(record, "trial_dir");
	const char *trial =
		jv_get_kind(trial_dir) == JV_KIND_STRING ? jv_string_value(trial_dir) : NULL;

	(void)raw, (void)code;
	jv arm = json_get(record, "arm");
	int is_arm = jv_get_kind(arm) == JV_KIND_OBJECT;
	jv_free(arm);
	if (!is_arm) {
		jv_free(trial_dir);
		return pc_fail(e,
			       "--paired: the record is not a paired arm's (it has no \"arm\"; pc-run-bub --paired writes them)");
	}
	/* a trial that wrote no result is judged on nothing of Harbor's */
	jv result = harbor_trial_result(trial);
	*observation = observe_arm(record, harbor_trial_observation(record, result), result);
	if (ctx) {
		char *dir = arm_dir(record);
		accounts_add(ctx, dir, record, *observation);
		free(dir);
	}
	jv_free(result);
	jv_free(trial_dir);
	return 0;
}

static char *arm_dir(jv record)
{
	jv id = json_at(record, "workload.id"), arm = json_get(record, "arm");
	char *dir = outdir_arm(jv_string_value(id), (int)json_number_at(arm, "trial", 0),
			       json_str(arm, "arm"));

	jv_free(id);
	jv_free(arm);
	return dir;
}

static char *record_dir(jv record)
{
	jv workload = json_get(record, "workload"), batch = json_at(record, "batch.name");
	char *dir = outdir_workload(json_str(workload, "id"), jv_get_kind(batch) == JV_KIND_STRING
								      ? jv_string_value(batch)
								      : NULL);

	jv_free(workload);
	jv_free(batch);
	return dir;
}

/* --paired: every arm's observation, then with an output each arm's
 * account beside it, priced by the table at prices (NULL: none). */
static int normalize_arms(struct stage_pass *arms, const char *output, const char *prices,
			  const struct redactor *red)
{
	struct accounts accounts;
	struct pc_err e;
	jv table = jv_null();

	if (prices && prices_load(prices, &table, &e) != 0) {
		pc_wrap(&e, "--prices: ");
		return stage_die(PROG, red, EXIT_USAGE, e.msg);
	}
	accounts_init(&accounts, table);
	arms->ctx = output ? &accounts : NULL;
	int status = stage_run_pass(arms, output, red);
	if (output && status != EXIT_INVALID && accounts_write(&accounts, output, red, &e) != 0)
		status = stage_die(PROG, red, EXIT_INVALID, e.msg);
	accounts_free(&accounts);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "paired", no_argument, NULL, 'p' },
		{ "prices", required_argument, NULL, 'c' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI(PROG, usage, "", longs, argc, argv);
	const struct stage_pass pass = {
		.prog = PROG,
		.schema = SCHEMA_RUN,
		.shape = &doc_run,
		.dir_of = record_dir,
		.artifact = "replay.json",
		.none = "no run records on stdin",
		.make = normalize_one,
	};
	struct stage_pass arms = {
		.prog = PROG,
		.schema = SCHEMA_RUN,
		.shape = &doc_run,
		.dir_of = arm_dir,
		.artifact = "observation.json",
		.none = "no run records on stdin",
		.make = observe_one,
	};
	const char *output = NULL, *prices = NULL;
	struct redactor red;
	int c, status, paired = 0;

	while ((c = stage_option(&cli)) >= 0)
		if (c == 'p')
			paired = 1;
		else if (c == 'c')
			prices = optarg;
		else
			output = optarg;
	if (c != STAGE_END)
		return stage_option_exit(c);
	if (prices && !paired)
		return stage_usage_error(PROG, usage, "--prices needs --paired");
	if ((status = stage_open_streams(PROG, 1)) != 0)
		return status;
	redactor_init(&red, environ);
	status = paired ? normalize_arms(&arms, output, prices, &red)
			: stage_run_pass(&pass, output, &red);
	redactor_free(&red);
	return status;
}
