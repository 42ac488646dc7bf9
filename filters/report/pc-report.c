/* pc-report: evaluations in, a verdict for people and for CI out.
 *
 * Each case's verdict and exit code come from verdict.h (accepted, failed,
 * inconclusive or skipped); the report only reads the assertion values and
 * the task outcome, it never re-evaluates replay evidence.  Formats: text (for
 * a terminal), markdown (the reference report.md per workload), json, junit
 * and html (one self-contained page, filters/report/html.c).
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

#include "docs.h"
#include "html.h"
#include "io.h"
#include "json.h"
#include "ledger.h"
#include "report.h"
#include "stage.h"
#include "text.h"
#include "trend.h"
#include "verdict.h"

extern char **environ;

static const char usage[] =
	"usage: pc-report [--format text|markdown|json|junit|html] [--output DIR] [-v|--verbose]\n"
	"                 [--ledger URL [--trend] [--trend-runs N]]\n"
	"Reads powercontext.e2e-evaluation/v1 documents on stdin and reports verdicts.\n"
	"  --format F    text (default on a terminal), markdown (default otherwise),\n"
	"                json (counts and cases), junit (JUnit XML) or html (one page)\n"
	"  --output DIR  also write DIR/<workload id>/report.md per workload\n"
	"  -v, --verbose text: show every assertion, score, label and metric\n"
	"  --ledger URL  also record every case in the ledger: sqlite:PATH or\n"
	"                mysql://user[:password]@host[:port]/database (the password\n"
	"                may come from $PC_E2E_LEDGER_PASSWORD instead)\n"
	"  --trend       show each case's verdicts over its last comparable runs\n"
	"  --trend-runs N  how many runs a trend shows (default 10, 1 to 1000)\n"
	"Exit: 0 all accepted (or skipped as expected), 1 invalid input, 2 a case\n"
	"failed, 3 inconclusive (or skipped before anything was collected); 1 when\n"
	"the ledger cannot be written, after the report is printed.\n";

/* ---- text ---- */

struct style {
	const char *on[VERDICTS], *off, *dim;
};

static void text_line(struct sbuf *b, const char *mark, const char *name, jv entry)
{
	const char *reason = json_str(entry, "reason");

	sbuf_addf(b, "    %s %s", mark, name);
	if (reason && *reason)
		sbuf_addf(b, ": %s", reason);
	sbuf_add(b, "\n");
}

/* Scores and labels hold {value, reason}; metrics are bare numbers. */
static void text_values(struct sbuf *b, const char *title, jv values)
{
	jv_object_foreach(values, name, entry) {
		sbuf_addf(b, "    %s %s = ", title, jv_string_value(name));
		if (jv_get_kind(entry) == JV_KIND_OBJECT) {
			jv v = jv_object_get(jv_copy(entry), jv_string("value"));
			report_add_value(b, v);
			jv_free(v);
		} else {
			jv s = jv_dump_string(jv_copy(entry), 0);
			sbuf_add(b, jv_string_value(s));
			jv_free(s);
		}
		sbuf_add(b, "\n");
		jv_free(name);
		jv_free(entry);
	}
	jv_free(values);
}

struct text_pass {
	struct report_out *o;
	int verbose;
	const struct style *st;
};

static void text_case(void *ctx, const struct report_case *c)
{
	const struct text_pass *t = ctx;
	struct sbuf *b = &t->o->b;
	jv assertions = report_section(c, "assertions");

	sbuf_addf(b, "%s%-12s%s %s\n", t->st->on[c->verdict], verdict_name(c->verdict), t->st->off,
		  report_case_name(c));
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		sbuf_addf(b, "    %strend: ", t->st->dim);
		trend_add_letters(b, c->trend);
		sbuf_addf(b, " (%s)%s\n", trend_change(c->trend), t->st->off);
	}
	jv_object_foreach(assertions, name, a) {
		if (!json_has_true(a, "value"))
			text_line(b, "FAIL", jv_string_value(name), a);
		else if (t->verbose)
			text_line(b, "pass", jv_string_value(name), a);
		jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
	if (t->verbose) {
		text_values(b, "score", report_section(c, "scores"));
		text_values(b, "label", report_section(c, "labels"));
		text_values(b, "metric", report_section(c, "metrics"));
	}
	report_flush(t->o);
}

static void render_text(struct report_out *o, struct cases *cs, int verbose, const struct style *st)
{
	struct text_pass t = { o, verbose, st };

	report_each_case(cs, text_case, &t);
	sbuf_add(&o->b, st->dim);
	report_add_counts(&o->b, cs);
	sbuf_addf(&o->b, "%s\n", st->off);
	report_flush(o);
}

/* ---- markdown ---- */

static char *rewards_text(const struct report_case *c)
{
	jv scores = report_section(c, "scores");
	struct sbuf b = { 0 };
	const char *prefix = DOCS_REWARD_SCORE_PREFIX;

	jv_object_foreach(scores, name, s) {
		const char *n = jv_string_value(name);
		if (!strncmp(n, prefix, strlen(prefix))) {
			jv v = jv_object_get(jv_copy(s), jv_string("value"));
			sbuf_addf(&b, "- `%s`: `", n + strlen(prefix));
			report_add_value(&b, v);
			sbuf_add(&b, "`\n");
			jv_free(v);
		}
		jv_free(name);
		jv_free(s);
	}
	jv_free(scores);
	if (!b.len)
		sbuf_add(&b, "- No native reward was recorded.\n");
	return sbuf_take(&b);
}

static void evaluation_lines(struct sbuf *b, const struct report_case *c)
{
	jv assertions = report_section(c, "assertions");

	sbuf_addf(b, "%s\n", report_case_name(c));
	jv_object_foreach(assertions, name, a) {
		const char *reason = json_str(a, "reason");
		sbuf_addf(b, "  [%s] %s", json_has_true(a, "value") ? "PASS" : "FAIL",
			  jv_string_value(name));
		if (reason && *reason)
			sbuf_addf(b, " — %s", reason);
		sbuf_add(b, "\n");
		jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
	const char *kinds[] = { "scores", "labels" }, *tags[] = { "SCORE", "LABEL" };
	for (int k = 0; k < 2; k++) {
		jv values = report_section(c, kinds[k]);
		jv_object_foreach(values, name, entry) {
			jv v = jv_object_get(jv_copy(entry), jv_string("value"));
			sbuf_addf(b, "  [%s] %s: ", tags[k], jv_string_value(name));
			report_add_value(b, v);
			sbuf_add(b, "\n");
			jv_free(v);
			jv_free(name);
			jv_free(entry);
		}
		jv_free(values);
	}
}

/* A skipped workload has no collection_completed: nothing was attempted,
 * so nothing failed. */
static const char *collection_status(const struct report_case *c)
{
	if (c->verdict == VERDICT_SKIPPED)
		return "skipped";
	jv collected = jv_object_get(report_section(c, "assertions"), jv_string("collection_completed"));
	int completed = json_has_true(collected, "value");

	jv_free(collected);
	return completed ? "completed" : "failed";
}

/* One workload in the layout of the reference harness's report.md;
 * depth 1 for a standalone file, 2 when nested under the summary. */
static void markdown_case(struct sbuf *b, const struct report_case *c, int depth)
{
	const char *h = depth == 1 ? "#" : "##";
	char *rewards = rewards_text(c);

	if (depth == 1)
		sbuf_add(b, "# PowerContext end-to-end Memory evaluation\n\n");
	else
		sbuf_addf(b, "## `%s`: %s\n\n", report_case_name(c), verdict_name(c->verdict));
	sbuf_addf(b, "- Workload: `%s`\n", report_case_name(c));
	sbuf_addf(b, "- Execution adapter: `%s`\n", report_attribute(c, "execution_adapter"));
	sbuf_addf(b, "- Harbor dataset: `%s`\n", report_attribute(c, "dataset"));
	sbuf_addf(b, "- Collection status: `%s`\n", collection_status(c));
	sbuf_addf(b, "- Native task outcome: `%s` (diagnostic only)\n\n", report_label(c, "task_outcome"));
	sbuf_addf(b, "%s# Harbor reward\n\n%s\n", h, rewards);
	sbuf_addf(b, "%s# Memory evaluation\n\n```text\n", h);
	evaluation_lines(b, c);
	sbuf_add(b, "```\n");
	free(rewards);
}

static void markdown_row(void *ctx, const struct report_case *c)
{
	struct report_out *o = ctx;

	sbuf_addf(&o->b, "| `%s` | %s | %s | %s | `%s` |", report_case_name(c),
		  verdict_name(c->verdict), report_label(c, "task_outcome"),
		  report_attribute(c, "database"), report_attribute(c, "run_id"));
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		sbuf_add(&o->b, " ");
		trend_add_letters(&o->b, c->trend);
		sbuf_addf(&o->b, " (%s) |", trend_change(c->trend));
	}
	sbuf_add(&o->b, "\n");
	report_flush(o);
}

static void markdown_section(void *ctx, const struct report_case *c)
{
	struct report_out *o = ctx;

	sbuf_add(&o->b, "\n");
	markdown_case(&o->b, c, 2);
	report_flush(o);
}

static void render_markdown(struct report_out *o, struct cases *cs, int trend)
{
	sbuf_add(&o->b, "# PowerContext end-to-end Memory evaluation\n\n");
	report_add_counts(&o->b, cs);
	sbuf_add(&o->b, ".\n\n");
	sbuf_addf(&o->b, "| Workload | Verdict | Native task outcome | Database | Run |%s\n", trend ? " Trend |" : "");
	sbuf_addf(&o->b, "|---|---|---|---|---|%s\n", trend ? "---|" : "");
	report_flush(o);
	report_each_case(cs, markdown_row, o);
	report_each_case(cs, markdown_section, o);
}

/* ---- json ---- */

struct json_pass {
	struct report_out *o;
	int written;
};

static void json_case(void *ctx, const struct report_case *c)
{
	struct json_pass *j = ctx;
	/* clang-format off */
	jv o = JV_OBJECT(
		jv_string("name"), jv_string(report_case_name(c)),
		jv_string("experiment"), jv_string(c->experiment),
		jv_string("verdict"), jv_string(verdict_name(c->verdict)),
		jv_string("task_outcome"), jv_string(report_label(c, "task_outcome")),
		jv_string("failed_assertions"), report_false_assertions(c));
	/* clang-format on */
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		o = jv_object_set(o, jv_string("trend"), jv_copy(c->trend));
		o = jv_object_set(o, jv_string("change"), jv_string(trend_change(c->trend)));
	}
	jv s = jv_dump_string(o, 0);
	sbuf_addf(&j->o->b, "%s%s", j->written++ ? "," : "", jv_string_value(s));
	jv_free(s);
	report_flush(j->o);
}

/* {"accepted":…,"failed":…,"inconclusive":…,"skipped":…,"cases":[…]} on one
 * line, the counts first, as one JSON text would be printed */
static void render_json(struct report_out *o, struct cases *cs)
{
	struct json_pass j = { o, 0 };

	sbuf_addf(&o->b, "{\"accepted\":%d,\"failed\":%d,\"inconclusive\":%d,\"skipped\":%d,\"cases\":[",
		  cs->count[VERDICT_ACCEPTED], cs->count[VERDICT_FAILED],
		  cs->count[VERDICT_INCONCLUSIVE], cs->count[VERDICT_SKIPPED]);
	report_flush(o);
	report_each_case(cs, json_case, &j);
	sbuf_add(&o->b, "]}\n");
	report_flush(o);
}

/* ---- junit ---- */

/* Why a workload was not run: the reason of its first false assertion
 * (execution_completed when nothing was collected), else its task outcome
 * (a skip the failure policy expected leaves every assertion true). */
static void junit_skipped(struct sbuf *b, const struct report_case *c)
{
	jv failing = report_false_assertions(c);
	jv first = jv_array_get(jv_copy(failing), 0); /* invalid when none */
	const char *reason = json_str(first, "reason");

	sbuf_add(b, "      <skipped message=\"");
	report_add_escaped(b, reason && *reason ? reason : report_label(c, "task_outcome"));
	sbuf_add(b, "\"/>\n");
	jv_free(first);
	jv_free(failing);
}

static void junit_failure(struct sbuf *b, const struct report_case *c)
{
	jv failing = report_false_assertions(c);
	const char *tag = c->verdict == VERDICT_INCONCLUSIVE ? "error" : "failure";

	sbuf_addf(b, "      <%s type=\"%s\" message=\"%d assertion%s false\">", tag,
		  verdict_name(c->verdict), jv_array_length(jv_copy(failing)),
		  jv_array_length(jv_copy(failing)) == 1 ? "" : "s");
	jv_array_foreach(failing, i, a) {
		const char *reason = json_str(a, "reason");
		(void)i;
		report_add_escaped(b, json_str(a, "name"));
		if (reason) {
			sbuf_add(b, ": ");
			report_add_escaped(b, reason);
		}
		sbuf_add(b, "\n");
		jv_free(a);
	}
	jv_free(failing);
	sbuf_addf(b, "</%s>\n", tag);
}

static void junit_testcase(struct sbuf *b, const struct report_case *c)
{
	sbuf_add(b, "    <testcase classname=\"");
	report_add_escaped(b, c->experiment);
	sbuf_add(b, "\" name=\"");
	report_add_escaped(b, report_case_name(c));
	sbuf_add(b, "\"");
	if (c->verdict == VERDICT_ACCEPTED && jv_get_kind(c->trend) != JV_KIND_ARRAY) {
		sbuf_add(b, "/>\n");
		return;
	}
	sbuf_add(b, ">\n");
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		sbuf_add(b, "      <properties>\n        <property name=\"trend\" value=\"");
		trend_add_letters(b, c->trend);
		sbuf_addf(b, "\"/>\n        <property name=\"trend_change\" value=\"%s\"/>\n      </properties>\n",
			  trend_change(c->trend));
	}
	if (c->verdict == VERDICT_SKIPPED)
		junit_skipped(b, c);
	else if (c->verdict != VERDICT_ACCEPTED)
		junit_failure(b, c);
	sbuf_add(b, "    </testcase>\n");
}

static void junit_case(void *ctx, const struct report_case *c)
{
	struct report_out *o = ctx;

	junit_testcase(&o->b, c);
	report_flush(o);
}

static void render_junit(struct report_out *o, struct cases *cs)
{
	struct sbuf *b = &o->b;

	sbuf_add(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sbuf_addf(b, "<testsuites name=\"pc-e2e\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n",
		  cs->n, cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE]);
	sbuf_addf(b, "  <testsuite name=\"pc-e2e\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		  cs->n, cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE],
		  cs->count[VERDICT_SKIPPED]);
	report_flush(o);
	report_each_case(cs, junit_case, o);
	sbuf_add(b, "  </testsuite>\n</testsuites>\n");
	report_flush(o);
}

/* ---- main ---- */

struct options {
	const char *format, *output, *ledger;
	int verbose, trend, trend_runs;
	struct ledger_url url; /* parsed from --ledger */
};

/* --trend-runs: a whole number from 1 to 1000. */
static int parse_runs(const char *s, int *runs)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (!*s || *end || n < 1 || n > 1000)
		return -1;
	*runs = (int)n;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "ledger", required_argument, NULL, 'l' },
		{ "trend", no_argument, NULL, 't' },
		{ "trend-runs", required_argument, NULL, 'n' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-report", usage, "v", longs, argc, argv };
	static const char *const formats[] = { "text", "markdown", "json", "junit", "html", NULL };
	int c, known = 0;

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'f': o->format = optarg; break;
		case 'o': o->output = optarg; break;
		case 'l': o->ledger = optarg; break;
		case 't': o->trend = 1; break;
		case 'n':
			if (parse_runs(optarg, &o->trend_runs) != 0)
				return stage_usage_error("pc-report", usage,
							 "--trend-runs must be a whole number from 1 to 1000"),
				       STAGE_USAGE;
			o->trend = 1;
			break;
		default: o->verbose = 1;
		}
	}
	if (c != STAGE_END)
		return c;
	if (!o->format)
		o->format = isatty(STDOUT_FILENO) ? "text" : "markdown";
	for (const char *const *f = formats; *f; f++)
		known = known || !strcmp(*f, o->format);
	if (!known)
		return stage_usage_error("pc-report", usage,
					 "--format must be text, markdown, json, junit or html"),
		       STAGE_USAGE;
	/* the HTML page plots each score over the comparable runs */
	o->trend = o->trend || (o->ledger && !strcmp(o->format, "html"));
	if (o->trend && !o->ledger)
		return stage_usage_error("pc-report", usage, "--trend and --trend-runs need --ledger"), STAGE_USAGE;
	if (o->ledger) {
		struct pc_err e;
		if (ledger_url_parse(o->ledger, getenv(LEDGER_PASSWORD_ENV), &o->url, &e) != 0)
			return stage_usage_error("pc-report", usage, e.msg), STAGE_USAGE;
	}
	return 0;
}

/* An unnamed file in TMPDIR, gone when closed. */
static FILE *open_spool(struct pc_err *e)
{
	char *path = text_fmt("%s/pc-report-XXXXXX", io_tmpdir());
	int fd = mkstemp(path);
	FILE *f = NULL;

	if (fd < 0)
		pc_fail_errno(e, "cannot create a spool file in %s", io_tmpdir());
	else {
		unlink(path);
		if (!(f = fdopen(fd, "w+")))
			pc_fail_errno(e, "cannot open the spool file"), close(fd);
	}
	free(path);
	return f;
}

/* The first pass: validate, judge and count every case, and spool it. */
static void spool_cases(struct cases *cs, jv doc, const struct redactor *red, int check_names)
{
	jv list = jv_object_get(jv_copy(doc), jv_string("cases"));
	const char *experiment = json_str(doc, "experiment");

	jv_array_foreach(list, i, kase) {
		int code;
		char why[128];
		(void)i;
		enum verdict v = verdict_judge(kase, &code);
		cs->n++;
		cs->count[v]++;
		cs->status = stage_worst(cs->status, code);
		jv name = jv_object_get(jv_copy(kase), jv_string("name"));
		if (check_names && !cs->bad_name && shape_check_id(name, why, sizeof why) != 0)
			cs->bad_name = text_fmt("case \"%s\" is not a workload id (%s)", jv_string_value(name), why);
		/* the verdict judged here, and the name as given, travel with it */
		report_spool(cs->spool, redact_jv(red, jv_string(experiment)), redact_jv(red, kase), name, v,
			     jv_null());
	}
	jv_free(list);
}

static int read_cases(struct cases *cs, const struct redactor *red, int check_names)
{
	struct stage_input in;
	struct pc_err e;
	jv doc;

	if (!(cs->spool = open_spool(&e)))
		return stage_die("pc-report", red, EXIT_INVALID, e.msg);
	stage_input_open(&in, "pc-report", red, SCHEMA_EVALUATION, &doc_evaluation);
	while (stage_input_next(&in, &doc)) {
		spool_cases(cs, doc, red, check_names);
		jv_free(doc);
	}
	stage_input_close(&in);
	if (fflush(cs->spool) != 0 || ferror(cs->spool))
		return stage_die("pc-report", red, EXIT_INVALID, "cannot write the spool file (is TMPDIR full?)");
	if (in.status == EXIT_OK && cs->n == 0)
		return stage_die("pc-report", red, EXIT_INVALID, "no evaluations on stdin");
	return in.status;
}

struct files_pass {
	const char *outdir;
	struct pc_err e;
	int failed;
};

static void write_case_file(void *ctx, const struct report_case *c)
{
	struct files_pass *f = ctx;
	struct sbuf b = { 0 };

	if (f->failed)
		return;
	markdown_case(&b, c, 1);
	char *text = sbuf_take(&b), *dir = io_join(f->outdir, c->dir);
	f->failed = io_write_artifact(dir, "report.md", text, strlen(text), &f->e) != 0;
	free(dir);
	free(text);
}

struct trend_pass {
	struct ledger *l;
	int runs;
	FILE *spool;
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
	report_spool(t->spool, jv_string(c->experiment), jv_copy(c->kase), c->dir ? jv_string(c->dir) : jv_null(),
		     c->verdict, trend);
}

/* Record the cases; with --trend, spool them again with their trends (the
 * spool is replaced only when every trend was read). */
static int ledger_pass(const struct options *o, struct cases *cs, struct pc_err *e)
{
	struct ledger *l = ledger_open(&o->url, e);
	struct trend_pass t = { l, o->trend_runs, NULL, e, 0 };

	if (!l || ledger_record(l, cs, e) != 0)
		t.failed = 1;
	else if (o->trend && (t.spool = open_spool(e))) {
		report_each_case(cs, trend_case, &t);
		if (!t.failed && (cs->read_failed || fflush(t.spool) != 0 || ferror(t.spool)))
			t.failed = pc_fail(e, "cannot write the trends to the spool file (is TMPDIR full?)");
		if (!t.failed) {
			fclose(cs->spool);
			cs->spool = t.spool;
		} else
			fclose(t.spool);
	} else if (o->trend)
		t.failed = 1;
	ledger_close(l);
	return t.failed ? -1 : 0;
}

static int run(const struct options *o, const struct redactor *red)
{
	struct cases cs = { 0 };
	struct report_out out = { { 0 }, 0 };
	const char *no_color = getenv("NO_COLOR"); /* no-color.org: only a non-empty value counts */
	int color = !strcmp(o->format, "text") && isatty(STDOUT_FILENO) && !(no_color && *no_color);
	/* clang-format off */
	struct style st = color
		? (struct style){ { "\033[32m", "\033[31m", "\033[33m", "\033[36m" }, "\033[0m", "\033[2m" }
		: (struct style){ { "", "", "", "" }, "", "" };
	/* clang-format on */
	int status = read_cases(&cs, red, o->output != NULL);

	/* every case name becomes a directory: a bad one (never a path like
	 * "../x") is found before anything is written */
	if (status == EXIT_OK && cs.bad_name) {
		char *msg = text_fmt("%s; cannot write %s/<id>/report.md", cs.bad_name, o->output);
		status = stage_die("pc-report", red, EXIT_INVALID, msg);
		free(msg);
	}
	if (status == EXIT_OK && o->output) {
		struct files_pass f = { o->output, { { 0 } }, 0 };
		report_each_case(&cs, write_case_file, &f);
		if (f.failed || cs.read_failed)
			status = stage_die("pc-report", red, EXIT_INVALID,
					   f.failed ? f.e.msg : "cannot read back the spool file");
	}
	/* a ledger that cannot be written still leaves the report, and exit 1 */
	int ledger_failed = 0;
	if (status == EXIT_OK && o->ledger) {
		struct pc_err e;
		if (ledger_pass(o, &cs, &e) != 0)
			ledger_failed = stage_die("pc-report", red, EXIT_INVALID, e.msg);
	}
	if (status == EXIT_OK) {
		if (!strcmp(o->format, "text"))
			render_text(&out, &cs, o->verbose, &st);
		else if (!strcmp(o->format, "markdown"))
			render_markdown(&out, &cs, o->trend && !ledger_failed);
		else if (!strcmp(o->format, "json"))
			render_json(&out, &cs);
		else if (!strcmp(o->format, "html"))
			render_html(&out, &cs, !(no_color && *no_color));
		else
			render_junit(&out, &cs);
		status = out.failed || fflush(stdout) != 0
				 ? stage_die("pc-report", red, EXIT_INVALID, "cannot write the report to stdout")
			 : cs.read_failed ? stage_die("pc-report", red, EXIT_INVALID, "cannot read back the spool file")
					  : cs.status;
		status = stage_worst(status, ledger_failed);
	}
	if (cs.spool)
		fclose(cs.spool);
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
	struct options o = { NULL, NULL, NULL, 0, 0, 10, { 0 } };
	struct redactor red;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		return stage_option_exit(rc);
	init_redactor(&red, &o);
	rc = run(&o, &red);
	redactor_free(&red);
	ledger_url_free(&o.url);
	return rc;
}
