/* pc-report: evaluations in, a verdict for people and for CI out.
 *
 * Each case's verdict and exit code come from verdict.h (accepted, failed,
 * inconclusive or skipped); the report only reads the assertion values and
 * the task outcome, it never re-evaluates replay evidence.  The formats
 * (text, markdown, json, junit, html) are the rows of formats.c, one file
 * each; this file holds the command line and the order of the passes.
 *
 * Memory does not grow with the number of cases: a first pass validates,
 * counts and spools the cases (redacted) to an unnamed file (cases.h), and
 * each part of the report is rendered from the spool and written one case
 * at a time.  With --output each case's report.md is written (files.h);
 * with --ledger the cases are then recorded in the ledger, and with
 * --trend a second pass spools them again, each with its trend (ledger.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "choice.h"
#include "docs.h"
#include "files.h"
#include "formats.h"
#include "ledger.h"
#include "paired_main.h"
#include "plan_main.h"
#include "stage.h"
#include "text.h"

extern char **environ;

/* The filter's name, spelled here only: every message of its own, --help
 * and --version. */
#define PROG "pc-report"

/* --help's text: the usage, whose formats come from their table, and
 * where the rest is (man pc-report). */
static char *usage_text(void)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "usage: " PROG " [--format ");
	choice_add_names(&b, report_format_name_at, NULL, "|", "|");
	sbuf_add(&b,
		 "] [--output DIR] [-v|--verbose]\n"
		 "                 [--ledger URL [--trend] [--trend-runs N]]\n"
		 "       " PROG " --paired [--format ");
	choice_add_names(&b, report_paired_format_name_at, NULL, "|", "|");
	sbuf_add(&b,
		 "] [--output DIR] [--ledger URL]\n"
		 "       " PROG " --plan [--help-rate H --hurt-rate U] [--workloads N]\n"
		 "                 [--trials N] [--nodes N] [--pilot DIR] [--format text|json]\n"
		 "Reads powercontext.e2e-evaluation/v1 documents on stdin and reports verdicts;\n"
		 "with --paired, one powercontext.e2e-paired-report/v4 (pc-evaluate --paired),\n"
		 "then optionally the arm observations it summarizes and their accounts; with\n"
		 "--plan (first), the workloads a paired run needs, from rates or a pilot's\n"
		 "paired report on stdin.\n"
		 "In text, -v or --verbose shows every value, and given twice the identities\n"
		 "behind each result.\n"
		 "Every option, format and exit status is described in man " PROG ".\n");
	return sbuf_take(&b);
}

/* The usage error for a --format that names no row of the table. */
static int unknown_format(const char *usage)
{
	char *msg = choice_refusal("--format", report_format_name_at, NULL);

	stage_usage_error(PROG, usage, msg);
	free(msg);
	return STAGE_USAGE;
}

/* The usage error for --paired beside what it does not take: "--paired
 * takes --format a, b or c, --output and --ledger only", its formats from
 * the table. */
static int paired_refusal(const char *usage)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "--paired takes --format ");
	choice_add_names(&b, report_paired_format_name_at, NULL, ", ", " or ");
	sbuf_add(&b, ", --output and --ledger only");
	char *msg = sbuf_take(&b);
	stage_usage_error(PROG, usage, msg);
	free(msg);
	return STAGE_USAGE;
}

/* The command line; every string is argv's. */
struct report_options {
	const struct report_format *format;
	const char *output, *ledger;
	int verbose, trend, trend_runs, paired;
	struct ledger_url url; /* owned: parsed from --ledger */
};

static int parse_args(int argc, char **argv, const char *usage, struct report_options *o)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "ledger", required_argument, NULL, 'l' },
		{ "trend", no_argument, NULL, 't' },
		{ "trend-runs", required_argument, NULL, 'n' },
		{ "paired", no_argument, NULL, 'p' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI(PROG, usage, "v", longs, argc, argv);
	const char *format = NULL;
	int c;

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'o': o->output = optarg; break;
		case 'l': o->ledger = optarg; break;
		case 't': o->trend = 1; break;
		case 'p': o->paired = 1; break;
		case 'n':
			if (stage_count(&cli, "--trend-runs", "a whole number of runs", optarg, 1,
					1000, &o->trend_runs) != 0)
				return STAGE_USAGE;
			o->trend = 1;
			break;
		default: o->verbose++;
		}
	}
	if (c != STAGE_END)
		return c;
	if (!format)
		format = isatty(STDOUT_FILENO) ? "text" : "markdown";
	if (!(o->format = report_format_named(format)))
		return unknown_format(usage);
	/* a paired run's arms are recorded, but have no trend (yet) */
	if (o->paired && (o->trend || o->verbose || !o->format->paired))
		return paired_refusal(usage);
	o->trend = o->trend || (!o->paired && o->ledger && o->format->needs_trends);
	if (o->trend && !o->ledger)
		return stage_usage_error(PROG, usage,
					 "--trend and --trend-runs need --ledger"),
		       STAGE_USAGE;
	if (o->ledger) {
		struct pc_err e;
		if (ledger_url_parse(o->ledger, getenv(LEDGER_PASSWORD_ENV), &o->url, &e) != 0)
			return stage_usage_error(PROG, usage, e.msg), STAGE_USAGE;
	}
	return 0;
}

/* A format that writes each case as it is read (formats.h); format and
 * settings borrowed. */
struct live {
	const struct report_format *format;
	const struct report_settings *settings;
	struct report_out out;
};

/* A live report that cannot be written ends the reading: what follows
 * would fail the same way, and the writer upstream may run for hours. */
static int write_live(void *ctx, const struct report_case *c)
{
	struct live *live = ctx;

	live->format->live(&live->out, c, live->settings);
	/* out now, not when stdio's buffer fills */
	report_out_sync(&live->out);
	return live->out.failed != 0;
}

/* The first pass over stdin (cases.h); with live, each case is also
 * written as it is read (the live format reads it as every pass will:
 * spooled).  The input's exit status. */
static int read_cases(struct cases *cs, const struct redactor *red, int check_names,
		      struct live *live)
{
	struct stage_input in;
	struct pc_err e;
	int stop = 0;
	jv doc;

	if (spool_open(&cs->spool, &e) != 0)
		return stage_die(PROG, red, EXIT_INVALID, e.msg);
	stage_input_open(&in, PROG, red, SCHEMA_EVALUATION, &doc_evaluation);
	while (!stop && stage_input_next(&in, &doc)) {
		stop = report_spool_document(cs, doc, red, check_names, live ? write_live : NULL,
					     live);
		jv_free(doc);
	}
	stage_input_close(&in);
	if (fflush(cs->spool.f) != 0 || ferror(cs->spool.f))
		return stage_die(PROG, red, EXIT_INVALID,
				 "cannot write the spool file (is TMPDIR full?)");
	if (in.status == EXIT_OK && cs->n == 0)
		return stage_die(PROG, red, EXIT_INVALID, "no evaluations on stdin");
	return in.status;
}

/* The verdicts' report: the cases read, their files, the ledger, then the
 * report; the exit status. */
static int report_verdicts(const struct report_options *o, const struct redactor *red)
{
	struct cases cs = { 0 };
	const char *no_color = getenv("NO_COLOR"); /* no-color.org: only a non-empty value counts */
	struct report_settings settings = {
		.verbose = o->verbose,
		.color = !(no_color && *no_color),
		.terminal = isatty(STDOUT_FILENO),
	};
	/* a case's trend needs the ledger, which needs every case first */
	struct live live = { o->format, &settings, { { 0 }, 0 } };
	settings.live = o->format->live && !o->trend && !o->format->needs_trends;
	int status = read_cases(&cs, red, o->output != NULL, settings.live ? &live : NULL);
	struct pc_err e;

	if (live.out.failed)
		status = stage_write_error(PROG, live.out.failed);
	if (status == EXIT_OK && o->output && files_write_all(&cs, o->output, &e) != 0)
		status = stage_die(PROG, red, EXIT_INVALID, e.msg);
	/* a ledger that cannot be written still leaves the report, and exit 1 */
	int ledger_failed = 0;
	if (status == EXIT_OK && o->ledger &&
	    ledger_write(&o->url, &cs, o->trend ? o->trend_runs : 0, &e) != 0)
		ledger_failed = stage_die(PROG, red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK) {
		settings.trends = o->trend && !ledger_failed;
		status = report_format_write(o->format, &cs, &settings, &e) != 0
				 ? stage_die(PROG, red, EXIT_INVALID, e.msg)
				 : cs.status;
		status = stage_worst(status, ledger_failed);
	}
	spool_close(&cs.spool);
	free(cs.bad_name);
	return status;
}

/* The ledger's password is a secret wherever it came from: a URL's is
 * added as if it were in the environment. */
static void init_redactor(struct redactor *red, const struct report_options *o)
{
	size_t n = 0;

	while (environ[n])
		n++;
	char **env = pc_xmalloc((n + 2) * sizeof *env);
	memcpy(env, environ, n * sizeof *env);
	env[n] = o->url.password ? text_fmt("%s=%s", LEDGER_PASSWORD_ENV, o->url.password) : NULL;
	env[n + 1] = NULL;
	redactor_init(red, env);
	free(env[n]);
	free(env);
}

int main(int argc, char **argv)
{
	struct report_options o = { .trend_runs = 10 };
	struct redactor red;
	char *usage = usage_text();
	int plan = argc > 1 && !strcmp(argv[1], "--plan");
	int rc = plan ? 0 : parse_args(argc, argv, usage, &o);

	if (plan) {
		init_redactor(&red, &o);
		rc = plan_main(PROG, usage, argc, argv, &red);
		redactor_free(&red);
	}
	free(usage);
	if (plan)
		return rc;
	if (rc != 0)
		return stage_option_exit(rc);
	if ((rc = stage_open_streams(PROG, 1)) != 0) {
		ledger_url_free(&o.url);
		return rc;
	}
	init_redactor(&red, &o);
	rc = o.paired ? paired_main(PROG, o.format, o.output, o.ledger ? &o.url : NULL, &red)
		      : report_verdicts(&o, &red);
	redactor_free(&red);
	ledger_url_free(&o.url);
	return rc;
}
