/* pc-report: evaluations in, a verdict for people and for CI out.
 *
 * Each case's verdict and exit code come from verdict.h (accepted, failed,
 * inconclusive or skipped); the report only reads the assertion values and
 * the task outcome, it never re-evaluates replay evidence.  Formats: text (for
 * a terminal), markdown (the reference report.md per workload), json and junit.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "docs.h"
#include "io.h"
#include "json.h"
#include "stage.h"
#include "text.h"
#include "verdict.h"

extern char **environ;

static const char usage[] =
	"usage: pc-report [--format text|markdown|json|junit] [--output DIR] [-v|--verbose]\n"
	"Reads powercontext.e2e-evaluation/v1 documents on stdin and reports verdicts.\n"
	"  --format F    text (default on a terminal), markdown (default otherwise),\n"
	"                json (counts and cases) or junit (JUnit XML)\n"
	"  --output DIR  also write DIR/<workload id>/report.md per workload\n"
	"  -v, --verbose text: show every assertion, score, label and metric\n"
	"Exit: 0 all accepted (or skipped as expected), 1 invalid input, 2 a case\n"
	"failed, 3 inconclusive (or skipped before anything was collected).\n";

struct report_case {
	jv kase; /* one case of an evaluation document */
	char *experiment;
	enum verdict verdict;
};

struct cases {
	struct report_case *v;
	int n;
	int count[VERDICTS];
	int status; /* the cases' exit codes folded with stage_worst */
};

static void add_cases(struct cases *cs, jv doc)
{
	jv list = jv_object_get(jv_copy(doc), jv_string("cases"));
	const char *experiment = json_str(doc, "experiment");

	jv_array_foreach(list, i, kase) {
		int code;
		(void)i;
		cs->v = pc_xrealloc(cs->v, (size_t)(cs->n + 1) * sizeof *cs->v);
		struct report_case *c = &cs->v[cs->n++];
		c->kase = kase;
		c->experiment = pc_xstrdup(experiment);
		c->verdict = verdict_judge(kase, &code);
		cs->count[c->verdict]++;
		cs->status = stage_worst(cs->status, code);
	}
	jv_free(list);
}

static void free_cases(struct cases *cs)
{
	for (int i = 0; i < cs->n; i++) {
		jv_free(cs->v[i].kase);
		free(cs->v[i].experiment);
	}
	free(cs->v);
}

static const char *case_name(const struct report_case *c)
{
	return json_str(c->kase, "name");
}

/* Python's str() of an evaluation value. */
static void add_value(struct sbuf *b, jv v)
{
	switch (jv_get_kind(v)) {
	case JV_KIND_TRUE: sbuf_add(b, "True"); break;
	case JV_KIND_FALSE: sbuf_add(b, "False"); break;
	case JV_KIND_NUMBER: text_py_float(b, jv_number_value(v)); break;
	case JV_KIND_STRING: sbuf_add(b, jv_string_value(v)); break;
	default: sbuf_add(b, "None");
	}
}

static jv section(const struct report_case *c, const char *name)
{
	return jv_object_get(jv_copy(c->kase), jv_string(name));
}

/* "3 workloads: 1 accepted, 1 failed, 0 inconclusive, 1 skipped".  Only the
 * fail-fast policy skips workloads, so skips are named only when there are
 * some: every other run's summary reads as it always has. */
static void add_counts(struct sbuf *b, const struct cases *cs)
{
	sbuf_addf(b, "%d workload%s: %d accepted, %d failed, %d inconclusive",
		  cs->n, cs->n == 1 ? "" : "s", cs->count[VERDICT_ACCEPTED],
		  cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE]);
	if (cs->count[VERDICT_SKIPPED])
		sbuf_addf(b, ", %d skipped", cs->count[VERDICT_SKIPPED]);
}

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
			add_value(b, v);
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

static void render_text(struct sbuf *b, const struct cases *cs, int verbose,
			const struct style *st)
{
	for (int i = 0; i < cs->n; i++) {
		const struct report_case *c = &cs->v[i];
		jv assertions = section(c, "assertions");

		sbuf_addf(b, "%s%-12s%s %s\n", st->on[c->verdict],
			  verdict_name(c->verdict), st->off, case_name(c));
		jv_object_foreach(assertions, name, a) {
			int ok = json_has_true(a, "value");
			if (!ok)
				text_line(b, "FAIL", jv_string_value(name), a);
			else if (verbose)
				text_line(b, "pass", jv_string_value(name), a);
			jv_free(name);
			jv_free(a);
		}
		jv_free(assertions);
		if (verbose) {
			text_values(b, "score", section(c, "scores"));
			text_values(b, "label", section(c, "labels"));
			text_values(b, "metric", section(c, "metrics"));
		}
	}
	sbuf_add(b, st->dim);
	add_counts(b, cs);
	sbuf_addf(b, "%s\n", st->off);
}

/* ---- markdown ---- */

static char *rewards_text(const struct report_case *c)
{
	jv scores = section(c, "scores");
	struct sbuf b = { 0 };
	const char *prefix = "harbor_reward_";

	jv_object_foreach(scores, name, s) {
		const char *n = jv_string_value(name);
		if (!strncmp(n, prefix, strlen(prefix))) {
			jv v = jv_object_get(jv_copy(s), jv_string("value"));
			sbuf_addf(&b, "- `%s`: `", n + strlen(prefix));
			add_value(&b, v);
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
	jv assertions = section(c, "assertions");

	sbuf_addf(b, "%s\n", case_name(c));
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
		jv values = section(c, kinds[k]);
		jv_object_foreach(values, name, entry) {
			jv v = jv_object_get(jv_copy(entry), jv_string("value"));
			sbuf_addf(b, "  [%s] %s: ", tags[k], jv_string_value(name));
			add_value(b, v);
			sbuf_add(b, "\n");
			jv_free(v);
			jv_free(name);
			jv_free(entry);
		}
		jv_free(values);
	}
}

static const char *attribute(const struct report_case *c, const char *name)
{
	jv attrs = section(c, "attributes");
	const char *s = json_str(attrs, name);

	jv_free(attrs); /* the string stays owned by c->kase */
	return s ? s : "unknown";
}

static const char *label(const struct report_case *c, const char *name)
{
	jv labels = section(c, "labels");
	jv l = jv_object_get(labels, jv_string(name));
	const char *s = json_str(l, "value");

	jv_free(l);
	return s ? s : "unscored";
}

/* A skipped workload has no collection_completed: nothing was attempted,
 * so nothing failed. */
static const char *collection_status(const struct report_case *c)
{
	if (c->verdict == VERDICT_SKIPPED)
		return "skipped";
	jv collected = jv_object_get(section(c, "assertions"), jv_string("collection_completed"));
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
		sbuf_addf(b, "## `%s`: %s\n\n", case_name(c), verdict_name(c->verdict));
	sbuf_addf(b, "- Workload: `%s`\n", case_name(c));
	sbuf_addf(b, "- Execution adapter: `%s`\n", attribute(c, "execution_adapter"));
	sbuf_addf(b, "- Harbor dataset: `%s`\n", attribute(c, "dataset"));
	sbuf_addf(b, "- Collection status: `%s`\n", collection_status(c));
	sbuf_addf(b, "- Native task outcome: `%s` (diagnostic only)\n\n", label(c, "task_outcome"));
	sbuf_addf(b, "%s# Harbor reward\n\n%s\n", h, rewards);
	sbuf_addf(b, "%s# Memory evaluation\n\n```text\n", h);
	evaluation_lines(b, c);
	sbuf_add(b, "```\n");
	free(rewards);
}

static void render_markdown(struct sbuf *b, const struct cases *cs)
{
	sbuf_add(b, "# PowerContext end-to-end Memory evaluation\n\n");
	add_counts(b, cs);
	sbuf_add(b, ".\n\n");
	sbuf_add(b, "| Workload | Verdict | Native task outcome | Database | Run |\n");
	sbuf_add(b, "|---|---|---|---|---|\n");
	for (int i = 0; i < cs->n; i++) {
		const struct report_case *c = &cs->v[i];
		sbuf_addf(b, "| `%s` | %s | %s | %s | `%s` |\n", case_name(c),
			  verdict_name(c->verdict), label(c, "task_outcome"),
			  attribute(c, "database"), attribute(c, "run_id"));
	}
	for (int i = 0; i < cs->n; i++) {
		sbuf_add(b, "\n");
		markdown_case(b, &cs->v[i], 2);
	}
}

/* ---- json ---- */

static jv false_assertions(const struct report_case *c)
{
	jv assertions = section(c, "assertions"), out = jv_array();

	jv_object_foreach(assertions, name, a) {
		/* clang-format off */
		if (!json_has_true(a, "value"))
			out = jv_array_append(out, JV_OBJECT(jv_string("name"), name,
				jv_string("reason"), jv_object_get(jv_copy(a), jv_string("reason"))));
		else
			jv_free(name);
		/* clang-format on */
		jv_free(a);
	}
	jv_free(assertions);
	return out;
}

static void render_json(struct sbuf *b, const struct cases *cs)
{
	jv list = jv_array();

	for (int i = 0; i < cs->n; i++) {
		const struct report_case *c = &cs->v[i];
		/* clang-format off */
		list = jv_array_append(list, JV_OBJECT(
			jv_string("name"), jv_string(case_name(c)),
			jv_string("experiment"), jv_string(c->experiment),
			jv_string("verdict"), jv_string(verdict_name(c->verdict)),
			jv_string("task_outcome"), jv_string(label(c, "task_outcome")),
			jv_string("failed_assertions"), false_assertions(c)));
		/* clang-format on */
	}
	jv doc = JV_OBJECT(jv_string("accepted"), jv_number(cs->count[VERDICT_ACCEPTED]),
			   jv_string("failed"), jv_number(cs->count[VERDICT_FAILED]),
			   jv_string("inconclusive"), jv_number(cs->count[VERDICT_INCONCLUSIVE]),
			   jv_string("skipped"), jv_number(cs->count[VERDICT_SKIPPED]),
			   jv_string("cases"), list);
	jv s = jv_dump_string(doc, 0);
	sbuf_addf(b, "%s\n", jv_string_value(s));
	jv_free(s);
}

/* ---- junit ---- */

static void xml_escaped(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sbuf_add(b, "&amp;"); break;
		case '<': sbuf_add(b, "&lt;"); break;
		case '>': sbuf_add(b, "&gt;"); break;
		case '"': sbuf_add(b, "&quot;"); break;
		default:
			/* XML 1.0 forbids most control characters */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r')
				sbuf_add(b, "?");
			else
				sbuf_addn(b, s, 1);
		}
	}
}

/* Why a workload was not run: the reason of its first false assertion
 * (execution_completed when nothing was collected), else its task outcome
 * (a skip the failure policy expected leaves every assertion true). */
static void junit_skipped(struct sbuf *b, const struct report_case *c)
{
	jv failing = false_assertions(c);
	jv first = jv_array_get(jv_copy(failing), 0); /* invalid when none */
	const char *reason = json_str(first, "reason");

	sbuf_add(b, "      <skipped message=\"");
	xml_escaped(b, reason && *reason ? reason : label(c, "task_outcome"));
	sbuf_add(b, "\"/>\n");
	jv_free(first);
	jv_free(failing);
}

static void junit_failure(struct sbuf *b, const struct report_case *c)
{
	jv failing = false_assertions(c);
	const char *tag = c->verdict == VERDICT_INCONCLUSIVE ? "error" : "failure";

	sbuf_addf(b, "      <%s type=\"%s\" message=\"%d assertion%s false\">", tag,
		  verdict_name(c->verdict), jv_array_length(jv_copy(failing)),
		  jv_array_length(jv_copy(failing)) == 1 ? "" : "s");
	jv_array_foreach(failing, i, a) {
		const char *reason = json_str(a, "reason");
		(void)i;
		xml_escaped(b, json_str(a, "name"));
		if (reason) {
			sbuf_add(b, ": ");
			xml_escaped(b, reason);
		}
		sbuf_add(b, "\n");
		jv_free(a);
	}
	jv_free(failing);
	sbuf_addf(b, "</%s>\n", tag);
}

static void junit_case(struct sbuf *b, const struct report_case *c)
{
	sbuf_add(b, "    <testcase classname=\"");
	xml_escaped(b, c->experiment);
	sbuf_add(b, "\" name=\"");
	xml_escaped(b, case_name(c));
	sbuf_add(b, "\"");
	if (c->verdict == VERDICT_ACCEPTED) {
		sbuf_add(b, "/>\n");
		return;
	}
	sbuf_add(b, ">\n");
	if (c->verdict == VERDICT_SKIPPED)
		junit_skipped(b, c);
	else
		junit_failure(b, c);
	sbuf_add(b, "    </testcase>\n");
}

static void render_junit(struct sbuf *b, const struct cases *cs)
{
	sbuf_add(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sbuf_addf(b, "<testsuites name=\"pc-e2e\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n",
		  cs->n, cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE]);
	sbuf_addf(b, "  <testsuite name=\"pc-e2e\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		  cs->n, cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE],
		  cs->count[VERDICT_SKIPPED]);
	for (int i = 0; i < cs->n; i++)
		junit_case(b, &cs->v[i]);
	sbuf_add(b, "  </testsuite>\n</testsuites>\n");
}

/* ---- main ---- */

struct options {
	const char *format, *output;
	int verbose;
};

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-report", usage, "v", longs, argc, argv };
	static const char *const formats[] = { "text", "markdown", "json", "junit", NULL };
	int c, known = 0;

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'f': o->format = optarg; break;
		case 'o': o->output = optarg; break;
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
					 "--format must be text, markdown, json or junit"),
		       STAGE_USAGE;
	return 0;
}

static int read_cases(struct cases *cs, const struct redactor *red)
{
	struct stage_input in;
	jv doc;

	stage_input_open(&in, "pc-report", red, SCHEMA_EVALUATION, &doc_evaluation);
	while (stage_input_next(&in, &doc)) {
		add_cases(cs, doc);
		jv_free(doc);
	}
	stage_input_close(&in);
	if (in.status == EXIT_OK && cs->n == 0)
		return stage_die("pc-report", red, EXIT_INVALID, "no evaluations on stdin");
	return in.status;
}

/* Every case name becomes a directory: check them all before writing any,
 * so a bad name (never a path like "../x") leaves nothing behind. */
static int check_names(const struct cases *cs, const char *outdir, struct pc_err *e)
{
	for (int i = 0; i < cs->n; i++) {
		char why[128];
		jv name = jv_string(case_name(&cs->v[i]));
		int bad = shape_check_id(name, why, sizeof why) != 0;
		jv_free(name);
		if (bad)
			return pc_fail(e, "case \"%s\" is not a workload id (%s); cannot write %s/<id>/report.md",
				       case_name(&cs->v[i]), why, outdir);
	}
	return 0;
}

static int write_files(const struct cases *cs, const char *outdir,
		       const struct redactor *red, struct pc_err *e)
{
	if (check_names(cs, outdir, e) != 0)
		return -1;
	for (int i = 0; i < cs->n; i++) {
		struct sbuf b = { 0 };
		markdown_case(&b, &cs->v[i], 1);
		char *text = sbuf_take(&b), *safe = redact_string(red, text);
		char *dir = io_join(outdir, case_name(&cs->v[i]));
		int rc = io_write_artifact(dir, "report.md", safe, strlen(safe), e);
		free(dir);
		free(safe);
		free(text);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int run(const struct options *o, const struct redactor *red)
{
	struct cases cs = { 0 };
	struct sbuf b = { 0 };
	struct pc_err e;
	int status = read_cases(&cs, red);
	const char *no_color = getenv("NO_COLOR"); /* no-color.org: only a non-empty value counts */
	int color = !strcmp(o->format, "text") && isatty(STDOUT_FILENO) && !(no_color && *no_color);
	/* clang-format off */
	struct style st = color
		? (struct style){ { "\033[32m", "\033[31m", "\033[33m", "\033[36m" }, "\033[0m", "\033[2m" }
		: (struct style){ { "", "", "", "" }, "", "" };
	/* clang-format on */

	if (status != EXIT_OK) {
		free_cases(&cs);
		return status;
	}
	if (!strcmp(o->format, "text"))
		render_text(&b, &cs, o->verbose, &st);
	else if (!strcmp(o->format, "markdown"))
		render_markdown(&b, &cs);
	else if (!strcmp(o->format, "json"))
		render_json(&b, &cs);
	else
		render_junit(&b, &cs);
	char *text = sbuf_take(&b), *safe = redact_string(red, text);
	if (o->output && write_files(&cs, o->output, red, &e) != 0)
		status = stage_die("pc-report", red, EXIT_INVALID, e.msg);
	else if (fputs(safe, stdout) == EOF || fflush(stdout) != 0)
		status = stage_die("pc-report", red, EXIT_INVALID, "cannot write the report to stdout");
	else
		status = cs.status;
	free(safe);
	free(text);
	free_cases(&cs);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { NULL, NULL, 0 };
	struct redactor red;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		return stage_option_exit(rc);
	redactor_init(&red, environ);
	rc = run(&o, &red);
	redactor_free(&red);
	return rc;
}
