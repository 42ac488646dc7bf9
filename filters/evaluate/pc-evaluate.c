/* pc-evaluate: replays in, evaluations out (docs/DESIGN.md §3).
 *
 * The evaluator reads nothing but replay evidence.  A Memory workload is
 * judged on the Memory it left behind; an outcome workload on whether it
 * ended as its manifest expects under the failure policy the run used, which
 * the replay does not hold, so it comes from --failure-policy.  Values,
 * reasons and their quoting follow PowerContext 1.4.1's evaluator.
 *
 * This file is the command line and the loop.  replays.c reads each replay
 * once into a view (view.c; yyjson, checked by accept.c), facts.c reads its
 * facts (memory.c counts what a Memory run left), assertions.c and scores.c
 * judge them, and case.c writes the evaluation line straight from the
 * facts and the view (entry.c its {value, reason} entries, diagnosis.c the
 * diagnosis): no jv is built for a replay on the way from stdin to stdout.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "case.h"
#include "docs_paired.h"
#include "facts.h"
#include "freshness.h"
#include "hash.h"
#include "json.h"
#include "json_out.h"
#include "outdir.h"
#include "paired_run.h"
#include "replays.h"
#include "stage.h"
#include "verdict.h"

extern char **environ;

/* The filter's name, spelled here only: every message of its own, --help
 * and --version. */
#define PROG "pc-evaluate"

static const char usage[] =
	"usage: " PROG " [--experiment-prefix NAME] [--failure-policy POLICY] [--output DIR]\n"
	"                   [--catalog PATH [--root DIR]]\n"
	"       " PROG " --paired [--trials N] [--experiment-prefix NAME] [--output DIR]\n"
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

struct evaluate_options {
	const char *prefix;
	const char *policy;
	const char *output;
	const char *catalog, *root; /* --catalog, --root: NULL without */
	int paired;
	int trials; /* --trials, 0 when not given */
};

/* What the pass over stdin works with; main owns it. */
struct evaluation_pass {
	const struct evaluate_options *o;
	const struct redactor *red;  /* borrowed from main */
	jv current;                  /* owned: --catalog's manifests by id, or null */
	struct aggregate batches;    /* with --output */
	struct json_out line;        /* owned: the evaluation being written */
	struct sha256_hasher hasher; /* owned: the manifest digests' */
};

static int parse_args(int argc, char **argv, struct evaluate_options *o)
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
	struct stage_cli cli = STAGE_CLI(PROG, usage, "", longs, argc, argv);
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
		else if (c == 'T' &&
			 stage_count(&cli, "--trials", "a whole number of trials", optarg, 1,
				     STAGE_TRIALS_MAX, &o->trials) != 0)
			return STAGE_USAGE;
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
		return stage_usage_error(PROG, usage, "--root needs --catalog"),
		       STAGE_USAGE;
	if (o->catalog && o->paired)
		return stage_usage_error(PROG, usage,
					 "--catalog does not go with --paired"),
		       STAGE_USAGE;
	if (o->trials && !o->paired)
		return stage_usage_error(PROG, usage, "--trials needs --paired"),
		       STAGE_USAGE;
	if (!*o->prefix)
		return stage_usage_error(PROG, usage,
					 "--experiment-prefix must not be empty"),
		       STAGE_USAGE;
	return stage_check_policy(PROG, usage, o->policy);
}

/* The line written (pass->line) to stdout as it is, unless redaction
 * would change it: then as stage_emit writes any document. */
static int emit(struct evaluation_pass *pass, struct pc_err *e)
{
	struct json_out *line = &pass->line;

	if (redact_text_may_change(pass->red, line->text, line->len))
		return stage_emit(pass->red, jv_parse_sized(line->text, (int)line->len), e);
	json_out_bytes(line, "\n", 1);
	if (fwrite(line->text, 1, line->len, stdout) != line->len || fflush(stdout) != 0)
		return pc_fail_errno(e, "write error");
	return 0;
}

/* With --output, the evaluation also goes to its workload's directory and
 * to its merged batch's, as documents every filter delivers. */
static int deliver(struct evaluation_pass *pass, const struct facts *f, struct pc_err *e)
{
	const struct evaluate_options *o = pass->o;

	if (!o->output)
		return emit(pass, e);
	jv doc = jv_parse_sized(pass->line.text, (int)pass->line.len);
	char *dir = outdir_workload(view_cstr(view_get(f->task, "id")), f->batch);
	int rc = aggregate_add(&pass->batches, jv_copy(doc), e);
	if (rc == 0)
		rc = stage_deliver(o->output, dir, "eval-report.json", pass->red, doc, e);
	else
		jv_free(doc);
	free(dir);
	return rc;
}

/* One replay's evaluation written: its case's exit code, or -1 with e
 * filled for a replay no single-run evaluation can judge. */
static int evaluate_one(struct evaluation_pass *pass, const struct replays *replays,
			struct view replay, int *code, struct pc_err *e)
{
	const struct evaluate_options *o = pass->o;
	struct view_text text = replays_text(replays);
	struct facts f;

	if (facts_read(replay, &text, o->policy, &f, e) < 0)
		return -1;
	jv stale = jv_null();
	if (jv_get_kind(pass->current) == JV_KIND_OBJECT) {
		jv task = view_to_jv(view_get(replay, "task"));
		stale = freshness_of(task, pass->current);
		jv_free(task);
	}
	const struct case_input in = { &f, o->policy, o->prefix, pass->red, stale, &pass->hasher };
	pass->line.len = 0;
	case_write(&pass->line, &in, code);
	jv_free(stale);
	int rc = deliver(pass, &f, e);
	facts_free(&f);
	return rc < 0 ? -2 : 0;
}

/* Every replay on stdin: the exit code folds every case's with the
 * input's (stage_worst), as stage_run_pass folds them. */
static int evaluate_all(struct evaluation_pass *pass)
{
	struct replays in;
	struct view replay;
	struct pc_err e;
	int status = EXIT_OK, code = EXIT_OK;

	replays_open(&in, stdin, "stdin", PROG, pass->red);
	while (replays_next(&in, &replay)) {
		int rc = evaluate_one(pass, &in, replay, &code, &e);
		if (rc == -1)
			status = stage_die(PROG, pass->red, EXIT_INVALID, e.msg);
		else if (rc == -2) {
			/* a sink that cannot be written ends the stream */
			status = stage_die(PROG, pass->red, EXIT_INVALID, e.msg);
			break;
		} else
			status = stage_worst(status, code);
	}
	if (pass->o->output && aggregate_add(&pass->batches, jv_invalid(), &e) != 0)
		status = stage_die(PROG, pass->red, EXIT_INVALID, e.msg);
	status = stage_worst(status, in.status);
	if (in.count == 0 && status == EXIT_OK)
		status = stage_die(PROG, pass->red, EXIT_INVALID, "no replays on stdin");
	replays_close(&in);
	return status;
}

int main(int argc, char **argv)
{
	struct evaluate_options o;
	struct redactor red;
	struct evaluation_pass pass = { .o = &o, .current = jv_null() };
	struct pc_err e;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		return stage_option_exit(rc);
	if ((rc = stage_open_streams(PROG, 1)) != 0)
		return rc;
	redactor_init(&red, environ);
	if (o.paired) {
		rc = paired_pass(PROG, o.trials, o.prefix, o.output, &red);
		redactor_free(&red);
		return rc;
	}
	pass.red = &red;
	if (o.catalog && freshness_load(o.catalog, o.root ? o.root : ".", &pass.current, &e) != 0) {
		rc = stage_die(PROG, &red, EXIT_INVALID, e.msg);
		jv_free(pass.current);
		redactor_free(&red);
		return rc;
	}
	aggregate_init(&pass.batches, o.prefix, o.output, &red);
	sha256_hasher_init(&pass.hasher);
	rc = evaluate_all(&pass);
	sha256_hasher_free(&pass.hasher);
	aggregate_free(&pass.batches);
	json_out_free(&pass.line);
	jv_free(pass.current);
	redactor_free(&red);
	return rc;
}
