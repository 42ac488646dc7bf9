/* pc-evaluate: replays in, evaluations out (docs/DESIGN.md §3).
 *
 * The evaluator reads nothing but replay evidence.  A Memory workload is
 * judged on the Memory it left behind; an outcome workload on whether it
 * ended as its manifest expects under the failure policy the run used, which
 * the replay does not hold, so it comes from --failure-policy.  Values,
 * reasons and their quoting follow PowerContext 1.4.1's evaluator.
 *
 * This file is the command line and the loop.  facts.c reads a replay once
 * (memory.c counts what a Memory run left), assertions.c and scores.c judge
 * those facts, case.c writes the document and entry.c its {value, reason}
 * entries.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "case.h"
#include "docs.h"
#include "facts.h"
#include "freshness.h"
#include "json.h"
#include "outdir.h"
#include "paired.h"
#include "stage.h"
#include "verdict.h"

extern char **environ;

static const char usage[] =
	"usage: pc-evaluate [--experiment-prefix NAME] [--failure-policy POLICY] [--output DIR]\n"
	"                   [--catalog PATH [--root DIR]]\n"
	"       pc-evaluate --paired [--trials N] [--experiment-prefix NAME] [--output DIR]\n"
	"Reads powercontext.e2e-evidence/v1 replays on stdin and writes one\n"
	"powercontext.e2e-evaluation/v1 line per replay.  With --paired, reads the\n"
	"powercontext.e2e-paired-arm/v3 observations of an OFF/ON comparison, in the\n"
	"order they ran, and writes their powercontext.e2e-paired-report/v4 report.\n"
	"  --experiment-prefix NAME  experiment is NAME:<workload id> (default e2e)\n"
	"  --failure-policy POLICY   collect-all (default) or fail-fast: the policy the\n"
	"                            replays ran under, which outcome workloads expect\n"
	"  --output DIR              also write DIR/<workload id>/eval-report.json (a\n"
	"                            merged batch's members: DIR/batch-<name>/tasks/<id>/,\n"
	"                            and the batch's DIR/batch-<name>/eval-report.json);\n"
	"                            with --paired, DIR/paired-report.json\n"
	"  --catalog PATH            compare each replay's manifest with the current one of\n"
	"                            the catalog at PATH (as pc-select reads it): a\n"
	"                            workload whose manifest changed since it ran, or\n"
	"                            that the catalog no longer has, is stale\n"
	"  --root DIR                with --catalog: where its datasets resolve, as for\n"
	"                            pc-select (default .)\n"
	"  --paired                  summarize paired arm observations\n"
	"  --trials N                with --paired: the trials per arm the run asked for\n"
	"                            (default: the highest trial observed)\n"
	"Exit: 0 all accepted, 1 invalid input, 2 a case failed, 4 nothing failed but a\n"
	"result is stale, 3 inconclusive (the first that holds, in that order); with\n"
	"--paired, 2 when an arm errored or an ON arm failed integration or reached\n"
	"another Scope.\n";

struct options {
	const char *prefix;
	const char *policy;
	const char *output;
	const char *catalog, *root; /* --catalog, --root: NULL without */
	int paired;
	int trials; /* --trials, 0 when not given */
};

/* What the pass over stdin works with; main owns it. */
struct evaluation_pass {
	const struct options *o;
	const struct redactor *red; /* borrowed from main: the diagnosis's texts */
	jv current;                 /* owned: --catalog's manifests by id, or null */
	struct aggregate batches;
};

/* A positive whole number of trials, or 0. */
static int parse_trials(const char *text)
{
	size_t digits = strspn(text, "0123456789");
	long n = digits && digits == strlen(text) && digits <= 5 ? strtol(text, NULL, 10) : 0;

	return n >= 1 && n <= 10000 ? (int)n : 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "experiment-prefix", required_argument, NULL, 'p' },
		{ "failure-policy", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "paired", no_argument, NULL, 'P' },
		{ "trials", required_argument, NULL, 'T' },
		{ "catalog", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'r' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-evaluate", usage, "", longs, argc, argv };
	int c;

	o->prefix = "e2e";
	o->policy = "collect-all";
	o->output = o->catalog = o->root = NULL;
	o->paired = o->trials = 0;
	while ((c = stage_option(&cli)) >= 0) {
		if (c == 'p')
			o->prefix = optarg;
		else if (c == 'f')
			o->policy = optarg;
		else if (c == 'P')
			o->paired = 1;
		else if (c == 'T' && (o->trials = parse_trials(optarg)) == 0)
			return stage_usage_error("pc-evaluate", usage,
						 "--trials must be a whole number from 1 to 10000"),
			       STAGE_USAGE;
		else if (c == 'o')
			o->output = optarg;
		else if (c == 'c')
			o->catalog = optarg;
		else if (c == 'r')
			o->root = optarg;
	}
	if (c != STAGE_END)
		return c;
	if (o->root && !o->catalog)
		return stage_usage_error("pc-evaluate", usage, "--root needs --catalog"),
		       STAGE_USAGE;
	if (o->catalog && o->paired)
		return stage_usage_error("pc-evaluate", usage,
					 "--catalog does not go with --paired"),
		       STAGE_USAGE;
	if (o->trials && !o->paired)
		return stage_usage_error("pc-evaluate", usage, "--trials needs --paired"),
		       STAGE_USAGE;
	if (!*o->prefix)
		return stage_usage_error("pc-evaluate", usage,
					 "--experiment-prefix must not be empty"),
		       STAGE_USAGE;
	return stage_check_policy("pc-evaluate", usage, o->policy);
}

/* The evaluation document of one replay (borrowed) into *doc (owned) and
 * its exit code into *code; -1 with e filled for a replay no single-run
 * evaluation can judge. */
static int evaluate_one(void *ctx, jv replay, const struct json_reader *raw, jv *doc,
			int *code, struct pc_err *e)
{
	const struct evaluation_pass *pass = ctx;
	const struct options *o = pass->o;
	struct facts f;

	if (facts_read(replay, raw->text, raw->text_len, o->policy, &f, e) < 0)
		return -1;
	jv kase = case_build(replay, &f, o->policy, pass->red);
	facts_free(&f);
	if (jv_get_kind(pass->current) == JV_KIND_OBJECT) {
		jv task = json_get(replay, "task"), stale = freshness_of(task, pass->current);
		jv at = JV_ARRAY(jv_string("attributes"), jv_string(CASE_STALE));
		if (jv_get_kind(stale) == JV_KIND_OBJECT)
			kase = jv_setpath(kase, at, stale);
		else
			jv_free(at), jv_free(stale);
		jv_free(task);
	}
	verdict_judge(kase, code);
	*doc = case_document(kase, o->prefix);
	return 0;
}

static char *replay_dir(jv replay)
{
	jv task = json_get(replay, "task");
	char *dir = outdir_workload(json_str(task, "id"), outdir_replay_batch(replay));

	jv_free(task);
	return dir;
}

static int add_to_batch(void *ctx, jv evaluation, const char *outdir, struct pc_err *e)
{
	(void)outdir;
	return aggregate_add(&((struct evaluation_pass *)ctx)->batches, evaluation, e);
}

/* --paired: every observation on stdin, then their one report. */
static int summarize_paired(const struct options *o, const struct redactor *red)
{
	struct stage_input in;
	struct pc_err e;
	jv doc, observations = jv_array();
	int trials = o->trials;

	stage_input_open(&in, "pc-evaluate", red, SCHEMA_PAIRED_ARM, &doc_paired_arm);
	while (stage_input_next(&in, &doc)) {
		int trial = (int)json_number_at(doc, "trial", 1);
		trials = !o->trials && trial > trials ? trial : trials;
		observations = jv_array_append(observations, doc);
	}
	stage_input_close(&in);
	if (in.status != EXIT_OK || in.count == 0) {
		jv_free(observations);
		return in.status != EXIT_OK ? in.status
					    : stage_die("pc-evaluate", red, EXIT_INVALID,
							"no paired arm observations on stdin");
	}
	jv report = paired_summarize(observations, trials, o->prefix);
	int code = verdict_paired_exit(report);
	if (stage_deliver(o->output, ".", "paired-report.json", red, report, &e) != 0)
		return stage_die("pc-evaluate", red, EXIT_INVALID, e.msg);
	return code;
}

int main(int argc, char **argv)
{
	struct options o;
	struct redactor red;
	struct evaluation_pass ctx = { .o = &o, .current = jv_null() };
	struct pc_err e;
	int rc = parse_args(argc, argv, &o);
	const struct stage_pass pass = {
		.prog = "pc-evaluate",
		.schema = SCHEMA_EVIDENCE,
		.shape = &doc_replay,
		.dir_of = replay_dir,
		.artifact = "eval-report.json",
		.none = "no replays on stdin",
		.make = evaluate_one,
		.delivered = add_to_batch,
		.ctx = &ctx,
	};

	if (rc != 0)
		return stage_option_exit(rc);
	redactor_init(&red, environ);
	if (o.paired) {
		rc = summarize_paired(&o, &red);
		redactor_free(&red);
		return rc;
	}
	ctx.red = &red;
	if (o.catalog && freshness_load(o.catalog, o.root ? o.root : ".", &ctx.current, &e) != 0) {
		rc = stage_die("pc-evaluate", &red, EXIT_INVALID, e.msg);
		jv_free(ctx.current);
		redactor_free(&red);
		return rc;
	}
	aggregate_init(&ctx.batches, o.prefix, o.output, &red);
	rc = stage_run_pass(&pass, o.output, &red);
	aggregate_free(&ctx.batches);
	jv_free(ctx.current);
	redactor_free(&red);
	return rc;
}
