/* pc-report --format markdown: the counts, a table of the workloads, then a
 * section per workload: its report.md's lines (report_md.h), with pc-e2e's
 * freshness and diagnosis. */
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "docs.h"
#include "formats.h"
#include "json.h"
#include "paired.h"
#include "report_md.h"
#include "run_account.h"
#include "trend.h"

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

/* One workload's section: report.md's lines (report_md.h) under its
 * verdict, with pc-e2e's freshness and diagnosis. */
static void markdown_case(struct sbuf *b, const struct report_case *c)
{
	struct sbuf lines = { 0 };

	sbuf_addf(b, "## `%s`: %s\n\n", report_case_name(c), verdict_name(c->verdict));
	report_md_add_summary(b, c);
	stale_add_line(b, c, "- Freshness: ");
	sbuf_add(b, "\n### Harbor reward\n\n");
	report_md_add_rewards(b, c);
	sbuf_add(b, "\n### Memory evaluation\n\n");
	report_md_add_case_lines(&lines, c);
	report_md_add_block(b, lines.s ? lines.s : "");
	free(lines.s);
	add_why(b, c, "##");
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
	markdown_case(&o->b, c);
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

/* --paired's markdown is 1.4.1's report.md, which names neither the
 * run's facts nor colours, then after a rule pc-e2e's run.md, when it has
 * an account of the run */
static void paired_markdown(struct sbuf *b, jv report, jv account, const struct page_facts *facts,
			    int color)
{
	(void)facts, (void)color;
	paired_add_markdown(b, report);
	if (run_account_any(account)) {
		sbuf_add(b, "\n---\n");
		run_account_add_text(b, account);
	}
}

const struct report_format format_markdown = {
	.name = "markdown",
	.render = render_markdown,
	.paired = paired_markdown,
};
