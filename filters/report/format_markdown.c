/* pc-report --format markdown: the counts, a table of the workloads, then a
 * section per workload in the layout of the reference harness's report.md. */
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "docs.h"
#include "format_markdown.h"
#include "formats.h"
#include "json.h"
#include "trend.h"

/* A new string, the caller's to free. */
static char *rewards_text(const struct report_case *c)
{
	struct sbuf b = { 0 };
	const char *prefix = DOCS_REWARD_SCORE_PREFIX;

	for (struct spool_each s = spool_each(spool_get(c->kase, "scores")); spool_next(&s);) {
		const char *n = spool_str(s.key);
		if (!strncmp(n, prefix, strlen(prefix))) {
			jv v = spool_jv(spool_get(s.value, "value"));
			sbuf_addf(&b, "- `%s`: `", n + strlen(prefix));
			report_add_value(&b, v);
			sbuf_add(&b, "`\n");
			jv_free(v);
		}
	}
	if (!b.len)
		sbuf_add(&b, "- No native reward was recorded.\n");
	return sbuf_take(&b);
}

static void evaluation_lines(struct sbuf *b, const struct report_case *c)
{
	sbuf_addf(b, "%s\n", report_case_name(c));
	for (struct spool_each a = spool_each(spool_get(c->kase, "assertions")); spool_next(&a);) {
		const char *reason = spool_str(spool_get(a.value, "reason"));
		sbuf_addf(b, "  [%s] %s", report_holds(a.value) ? "PASS" : "FAIL",
			  spool_str(a.key));
		if (reason && *reason)
			sbuf_addf(b, " — %s", reason);
		sbuf_add(b, "\n");
	}
	const char *kinds[] = { "scores", "labels" }, *tags[] = { "SCORE", "LABEL" };
	for (int k = 0; k < 2; k++) {
		struct spool_each e = spool_each(spool_get(c->kase, kinds[k]));
		while (spool_next(&e)) {
			jv v = spool_jv(spool_get(e.value, "value"));
			sbuf_addf(b, "  [%s] %s: ", tags[k], spool_str(e.key));
			report_add_value(b, v);
			sbuf_add(b, "\n");
			jv_free(v);
		}
	}
}

/* A skipped workload has no collection_completed: nothing was attempted,
 * so nothing failed. */
static const char *collection_status(const struct report_case *c)
{
	if (c->verdict == VERDICT_SKIPPED)
		return "skipped";
	return report_holds(spool_get(spool_get(c->kase, "assertions"), "collection_completed"))
		       ? "completed"
		       : "failed";
}

/* Each false assertion's EXPECTED → ACTUAL and evidence, when the case
 * has its diagnosis. */
static void add_why(struct sbuf *b, const struct report_case *c, const char *h)
{
	jv failing = report_false_assertions(c);
	struct sbuf lines = { 0 };

	jv_array_foreach(failing, i, a) {
		jv d = diagnosis_of(c, json_str(a, "name"));
		if (jv_get_kind(d) == JV_KIND_OBJECT) {
			sbuf_addf(&lines, "%s\n", json_str(a, "name"));
			diagnosis_add_lines(&lines, d, "  ", 0);
		}
		jv_free(d);
		jv_free(a);
	}
	jv_free(failing);
	char *text = sbuf_take(&lines);
	if (*text)
		sbuf_addf(b, "\n%s# Why\n\n```text\n%s```\n", h, text);
	free(text);
}

/* One workload; depth 1 for a standalone file, 2 when nested under the
 * summary. */
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
	sbuf_addf(b, "- Native task outcome: `%s` (diagnostic only)\n",
		  report_label(c, "task_outcome"));
	stale_add_line(b, c, "- Freshness: ");
	sbuf_add(b, "\n");
	sbuf_addf(b, "%s# Harbor reward\n\n%s\n", h, rewards);
	sbuf_addf(b, "%s# Memory evaluation\n\n```text\n", h);
	evaluation_lines(b, c);
	sbuf_add(b, "```\n");
	add_why(b, c, h);
	free(rewards);
}

void markdown_add_workload_file(struct sbuf *b, const struct report_case *c)
{
	markdown_case(b, c, 1);
}

void markdown_add_batch_member(struct sbuf *b, const struct report_case *c, const char *batch)
{
	if (!b->len)
		sbuf_addf(b, "# PowerContext end-to-end Memory evaluation: batch `%s`\n\n"
			     "Its workloads ran in one shared trial, run `%s`.\n",
			  batch, report_attribute(c, "run_id"));
	sbuf_add(b, "\n");
	markdown_case(b, c, 2);
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

/* The table is headed before its rows are read: whether it has a Trend
 * column comes from the settings, not from the cases. */
static void render_markdown(struct report_out *o, struct cases *cs, const struct report_settings *s)
{
	sbuf_add(&o->b, "# PowerContext end-to-end Memory evaluation\n\n");
	report_add_counts(&o->b, cs);
	sbuf_add(&o->b, ".\n\n");
	sbuf_addf(&o->b, "| Workload | Verdict | Native task outcome | Database | Run |%s\n",
		  s->trends ? " Trend |" : "");
	sbuf_addf(&o->b, "|---|---|---|---|---|%s\n", s->trends ? "---|" : "");
	report_flush(o);
	report_each_case(cs, markdown_row, o);
	report_each_case(cs, markdown_section, o);
}

const struct report_format format_markdown = {
	.name = "markdown",
	.gist = "default otherwise",
	.render = render_markdown,
};
