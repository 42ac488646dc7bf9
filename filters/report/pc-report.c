/* pc-report: evaluations in, a verdict for people and for CI out.
 *
 * Each case's verdict and exit code come from verdict.h (accepted, failed,
 * inconclusive or skipped); the report only reads the assertion values and
 * the task outcome, it never re-evaluates replay evidence.  The formats
 * (text, markdown, json, junit, html) are the rows of formats.c, one file
 * each; this file holds the command line and the passes over the cases.
 *
 * Memory does not grow with the number of cases: a first pass validates,
 * counts and spools the cases (redacted) to an unnamed file, and each part
 * of the report is rendered from the spool and written one case at a time.
 * With --ledger the cases are then recorded in the ledger, and with --trend
 * a second pass spools them again, each with its trend.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "choice.h"
#include "docs.h"
#include "formats.h"
#include "io.h"
#include "json.h"
#include "ledger.h"
#include "outdir.h"
#include "paired_main.h"
#include "report.h"
#include "report_md.h"
#include "shape_strings.h"
#include "stage.h"
#include "text.h"
#include "verdict.h"

extern char **environ;

/* --help's text; what it says of the formats comes from their table. */
static char *usage_text(void)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "usage: pc-report [--format ");
	choice_add_names(&b, report_format_name_at, NULL, "|", "|");
	sbuf_add(&b,
		 "] [--output DIR] [-v|--verbose]\n"
		 "                 [--ledger URL [--trend] [--trend-runs N]]\n"
		 "       pc-report --paired [--format text|markdown|html] [--output DIR]\n"
		 "Reads powercontext.e2e-evaluation/v1 documents on stdin and reports verdicts;\n"
		 "with --paired, one powercontext.e2e-paired-report/v4 (pc-evaluate --paired),\n"
		 "then optionally the arm observations it summarizes.\n");
	report_formats_add_help(&b, "  --format F    ");
	sbuf_add(&b, "  --output DIR  also write DIR/<workload id>/report.md per workload\n"
		     "  -v, --verbose text: show every assertion with its actual values, and\n"
		     "                every score, label and metric; given twice, also the\n"
		     "                identities behind each result (run, task, agent,\n"
		     "                PowerContext, evidence)\n"
		     "  --ledger URL  also record every case in the ledger: sqlite:PATH or\n"
		     "                mysql://user[:password]@host[:port]/database (the password\n"
		     "                may come from $PC_E2E_LEDGER_PASSWORD instead)\n"
		     "  --trend       show each case's verdicts over its last comparable runs\n"
		     "  --trend-runs N  how many runs a trend shows (default 10, 1 to 1000)\n"
		     "  --paired      an OFF/ON comparison's report: markdown is PowerContext's\n"
		     "                report.md, text adds what the pairs show in words, html\n"
		     "                plots each arm's rate and names the observations'\n"
		     "                PowerContext and times; --output DIR writes DIR/report.md\n"
		     "Exit: 0 all accepted (or skipped as expected), 1 invalid input, 2 a case\n"
		     "failed, 3 inconclusive (or skipped before anything was collected); 1 when\n"
		     "the ledger cannot be written, after the report is printed.  With --paired:\n"
		     "2 when an arm errored, or an ON arm failed integration or reached another\n"
		     "Scope.\n");
	return sbuf_take(&b);
}

/* The usage error for a --format that names no row of the table. */
static int unknown_format(const char *usage)
{
	char *msg = choice_refusal("--format", report_format_name_at, NULL);

	stage_usage_error("pc-report", usage, msg);
	free(msg);
	return STAGE_USAGE;
}

struct options {
	const struct report_format *format;
	const char *output, *ledger;
	int verbose, trend, trend_runs, paired;
	struct ledger_url url; /* parsed from --ledger */
};

/* The formats --paired writes. */
static int paired_format(const struct report_format *f)
{
	return !strcmp(f->name, "text") || !strcmp(f->name, "markdown") || !strcmp(f->name, "html");
}

static int parse_args(int argc, char **argv, const char *usage, struct options *o)
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
	struct stage_cli cli = STAGE_CLI("pc-report", usage, "v", longs, argc, argv);
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
			if (stage_count(&cli, "--trend-runs", "runs", optarg, 1, 1000,
					&o->trend_runs) != 0)
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
	if (o->paired && (o->ledger || o->verbose || !paired_format(o->format)))
		return stage_usage_error("pc-report", usage,
					 "--paired takes --format text, markdown or html and "
					 "--output only"),
		       STAGE_USAGE;
	o->trend = o->trend || (o->ledger && o->format->needs_trends);
	if (o->trend && !o->ledger)
		return stage_usage_error("pc-report", usage,
					 "--trend and --trend-runs need --ledger"),
		       STAGE_USAGE;
	if (o->ledger) {
		struct pc_err e;
		if (ledger_url_parse(o->ledger, getenv(LEDGER_PASSWORD_ENV), &o->url, &e) != 0)
			return stage_usage_error("pc-report", usage, e.msg), STAGE_USAGE;
	}
	return 0;
}

/* A spooled case is about the size of stdio's default buffer, which would
 * cost a system call a case on every pass. */
#define SPOOL_BUFFER (1 << 16)

/* An unnamed file in TMPDIR, gone when closed (close_spool), read and
 * written through *buffer. */
static FILE *open_spool(char **buffer, struct pc_err *e)
{
	char *path = text_fmt("%s/pc-report-XXXXXX", io_tmpdir());
	int fd = mkstemp(path);
	FILE *f = NULL;

	*buffer = NULL;
	if (fd < 0)
		pc_fail_errno(e, "cannot create a spool file in %s", io_tmpdir());
	else {
		unlink(path);
		if (!(f = fdopen(fd, "w+")))
			pc_fail_errno(e, "cannot open the spool file"), close(fd);
		else
			setvbuf(f, *buffer = pc_xmalloc(SPOOL_BUFFER), _IOFBF, SPOOL_BUFFER);
	}
	free(path);
	return f;
}

static void close_spool(FILE *f, char *buffer)
{
	if (f)
		fclose(f);
	free(buffer);
}

/* What the text summary's totals count, taken as each case is read. */
static void count_assertions(struct cases *cs, jv kase)
{
	jv assertions = json_get(kase, "assertions");

	jv_object_foreach(assertions, name, a) {
		cs->passing += json_has_true(a, "value");
		cs->evaluated++;
		jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
}

/* A format that writes each case as it is read (formats.h). */
struct live {
	const struct report_format *format;
	const struct report_settings *settings;
	struct report_out out;
};

/* The first pass: validate, judge and count every case, and spool it; with
 * live, also write it. */
static void spool_cases(struct cases *cs, jv doc, const struct redactor *red, int check_names,
			struct live *live)
{
	jv list = jv_object_get(jv_copy(doc), jv_string("cases"));
	const char *experiment = json_str(doc, "experiment");
	struct sbuf spooled = { 0 };

	jv_array_foreach(list, i, kase) {
		int code;
		char why[128];
		enum verdict v = verdict_judge(kase, &code);
		cs->n++;
		cs->count[v]++;
		count_assertions(cs, kase);
		cs->status = stage_worst(cs->status, code);
		jv name = jv_object_get(jv_copy(kase), jv_string("name"));
		jv batch = json_at(kase, "attributes." OUTDIR_CASE_BATCH);
		if (check_names && !cs->bad_name &&
		    shape_check_id(jv_string_value(name), 0, why, sizeof why) != 0)
			cs->bad_name = text_fmt("case \"%s\" is not a workload id (%s)",
						jv_string_value(name), why);
		if (check_names && !cs->bad_name && jv_get_kind(batch) != JV_KIND_NULL &&
		    shape_check_id(jv_string_value(batch), 0, why, sizeof why) != 0)
			cs->bad_name = text_fmt("case \"%s\": its batch is not a workload id (%s)",
						jv_string_value(name), why);
		/* the verdict judged here, and the directory of its files, travel with it */
		const char *in =
			jv_get_kind(batch) == JV_KIND_STRING ? jv_string_value(batch) : NULL;
		char *dir = jv_get_kind(name) == JV_KIND_STRING
				    ? outdir_workload(jv_string_value(name), in)
				    : NULL;
		/* the live format reads the case as every pass will: spooled */
		jv exp = redact_jv(red, jv_string(experiment));
		spooled.len = 0;
		spool_add(&spooled, redact_jv(red, kase));
		struct report_case c = { spooled.s, jv_string_value(exp), dir, v, jv_null() };
		if (live) {
			live->format->live(&live->out, &c, live->settings);
			/* out now, not when stdio's buffer fills */
			report_out_sync(&live->out);
		}
		report_spool(cs->spool, &c);
		jv_free(exp);
		free(dir);
		jv_free(batch);
		jv_free(name);
	}
	free(spooled.s);
	jv_free(list);
}

static int read_cases(struct cases *cs, const struct redactor *red, int check_names,
		      struct live *live)
{
	struct stage_input in;
	struct pc_err e;
	jv doc;

	if (!(cs->spool = open_spool(&cs->spool_buffer, &e)))
		return stage_die("pc-report", red, EXIT_INVALID, e.msg);
	stage_input_open(&in, "pc-report", red, SCHEMA_EVALUATION, &doc_evaluation);
	/* a live report that cannot be written ends the reading: what
	 * follows would fail the same way, and the writer upstream may run for
	 * hours */
	while ((!live || !live->out.failed) && stage_input_next(&in, &doc)) {
		spool_cases(cs, doc, red, check_names, live);
		jv_free(doc);
	}
	stage_input_close(&in);
	if (fflush(cs->spool) != 0 || ferror(cs->spool))
		return stage_die("pc-report", red, EXIT_INVALID,
				 "cannot write the spool file (is TMPDIR full?)");
	if (in.status == EXIT_OK && cs->n == 0)
		return stage_die("pc-report", red, EXIT_INVALID, "no evaluations on stdin");
	return in.status;
}

struct trend_pass {
	struct ledger *l;
	int runs;
	FILE *spool;
	char *buffer; /* the spool's */
	struct pc_err *e;
	int failed;
};

static void trend_case(void *ctx, const struct report_case *c)
{
	struct trend_pass *t = ctx;
	jv trend;

	if (t->failed)
		return;
	trend = ledger_trend(t->l, c, t->runs, t->e);
	if (!jv_is_valid(trend)) {
		t->failed = 1;
		jv_free(trend);
		return;
	}
	struct report_case with_trend = *c;
	with_trend.trend = trend;
	report_spool(t->spool, &with_trend);
	jv_free(trend);
}

/* Record the cases; with --trend, spool them again with their trends (the
 * spool is replaced only when every trend was read). */
static int ledger_pass(const struct options *o, struct cases *cs, struct pc_err *e)
{
	struct ledger *l = ledger_open(&o->url, e);
	struct trend_pass t = { l, o->trend_runs, NULL, NULL, e, 0 };

	if (!l || ledger_record(l, cs, e) != 0)
		t.failed = 1;
	else if (o->trend && (t.spool = open_spool(&t.buffer, e))) {
		report_each_case(cs, trend_case, &t);
		if (!t.failed && (cs->read_failed || fflush(t.spool) != 0 || ferror(t.spool)))
			t.failed = pc_fail(
				e, "cannot write the trends to the spool file (is TMPDIR full?)");
		if (!t.failed) {
			close_spool(cs->spool, cs->spool_buffer);
			cs->spool = t.spool;
			cs->spool_buffer = t.buffer;
		} else
			close_spool(t.spool, t.buffer);
	} else if (o->trend)
		t.failed = 1;
	ledger_close(l);
	return t.failed ? -1 : 0;
}

/* The report in format f on stdout; -1 with e filled when it is not there
 * whole. */
static int write_report(const struct report_format *f, struct cases *cs,
			const struct report_settings *s, struct pc_err *e)
{
	struct report_out out = { { 0 }, 0 };

	f->render(&out, cs, s);
	if (report_out_sync(&out) != 0)
		return pc_fail(e, "write error: %s", strerror(out.failed));
	if (cs->read_failed)
		return pc_fail(e, "cannot read back the spool file");
	return 0;
}

static int run(const struct options *o, const struct redactor *red)
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

	if (live.out.failed)
		status = stage_write_error("pc-report", live.out.failed);

	/* every case name becomes a directory: a bad one (never a path like
	 * "../x") is found before anything is written */
	if (status == EXIT_OK && cs.bad_name) {
		char *msg = text_fmt("%s; cannot write %s/<id>/report.md", cs.bad_name, o->output);
		status = stage_die("pc-report", red, EXIT_INVALID, msg);
		free(msg);
	}
	if (status == EXIT_OK && o->output) {
		struct pc_err e;
		if (report_md_write_all(&cs, o->output, &e) != 0)
			status = stage_die("pc-report", red, EXIT_INVALID, e.msg);
	}
	/* a ledger that cannot be written still leaves the report, and exit 1 */
	int ledger_failed = 0;
	if (status == EXIT_OK && o->ledger) {
		struct pc_err e;
		if (ledger_pass(o, &cs, &e) != 0)
			ledger_failed = stage_die("pc-report", red, EXIT_INVALID, e.msg);
	}
	if (status == EXIT_OK) {
		struct pc_err e;
		settings.trends = o->trend && !ledger_failed;
		status = write_report(o->format, &cs, &settings, &e) != 0
				 ? stage_die("pc-report", red, EXIT_INVALID, e.msg)
				 : cs.status;
		status = stage_worst(status, ledger_failed);
	}
	close_spool(cs.spool, cs.spool_buffer);
	free(cs.bad_name);
	return status;
}

/* The ledger's password is a secret wherever it came from: a URL's is
 * added as if it were in the environment. */
static void init_redactor(struct redactor *red, const struct options *o)
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
	struct options o = { .trend_runs = 10 };
	struct redactor red;
	char *usage = usage_text();
	int rc = parse_args(argc, argv, usage, &o);

	free(usage);
	if (rc != 0)
		return stage_option_exit(rc);
	if ((rc = stage_open_streams("pc-report", 1)) != 0) {
		ledger_url_free(&o.url);
		return rc;
	}
	init_redactor(&red, &o);
	rc = o.paired ? paired_main(o.format->name, o.output, &red) : run(&o, &red);
	redactor_free(&red);
	ledger_url_free(&o.url);
	return rc;
}
