/* pc-report --format html: one self-contained HTML5 page.  The counts, a
 * matrix of workloads × assertions, then a section per workload (its false
 * assertions with their reasons, its scores and, with a trend from the
 * ledger, an SVG plot of each score over the trend's runs: html_plot.c).
 * Under the title, the PowerContext under test and when the runs finished,
 * as the cases' attributes say (page_facts.h).  Rendered from the spool
 * one case at a time; only the assertion names (a few per workload kind)
 * are held for the whole page.
 *
 * The page fetches nothing (inline style, inline SVG, no script, a data:
 * icon so a browser does not ask for /favicon.ico) and reads the same with
 * colour or without: every mark is a word or a symbol, colour only adds.
 */
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "formats.h"
#include "html.h"
#include "html_plot.h"
#include "json.h"
#include "markup.h"
#include "page_facts.h"
#include "paired_html.h"
#include "trend.h"

/* Shapes, borders and greys only: the page as NO_COLOR wants it. */
static const char style_base[] =
	"body{font-family:sans-serif;margin:1.5em;line-height:1.4}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid gray;padding:.2em .5em;text-align:left;vertical-align:bottom;white-space:nowrap}\n"
	"thead th.a span{writing-mode:vertical-rl;transform:rotate(180deg)}\n"
	"td.fail,td.verdict{font-weight:bold}\n"
	"a{color:inherit}\n"
	"section{margin-top:1.5em}\n"
	"figure{display:inline-block;margin:0 1em 1em 0}\n"
	"svg text{font-size:11px;font-family:sans-serif}\n"
	"svg .axis{stroke:black}\nsvg .grid{stroke:gray;stroke-dasharray:3 3}\n"
	"svg .line{fill:none;stroke:gray}\n"
	".pt{stroke:currentColor;fill:currentColor;stroke-width:2}\n"
	".pt.inconclusive,.pt.skipped,.pt.stale{fill:white}\n"
	"pre.why{white-space:pre-wrap;overflow-wrap:anywhere;border-left:3px solid gray;padding-left:.5em;margin:.3em 0 .8em}\n"
	/* a wide matrix wraps its cells ("✓" over "pass") before it is wider
	 * than the page, and past that scrolls in its own box: never cut */
	"div.wide{max-width:100%;overflow-x:auto}\n"
	"table.matrix td,table.matrix th[scope=row]{white-space:normal}\n"
	"table.matrix td.verdict{white-space:nowrap}\n";

/* What colour adds: the verdicts and the cells. */
static const char style_color[] =
	".accepted{color:#1a7f37}\n.failed{color:#cf222e}\n"
	".inconclusive{color:#9a6700}\n.skipped{color:#0969da}\n.stale{color:#8250df}\n"
	"td.pass{background:#dafbe1}\ntd.fail{background:#ffebe9}\n";

static const char *const verdict_symbol[VERDICTS] = { "✓", "✗", "?", "–", "↻" };

struct html_pass {
	struct report_out *o;
	jv names; /* owned: the assertion names of every case, first seen first */
	int index;
	int trends; /* some case has a trend: the page has plots */
	struct page_facts facts;
};

void html_open(struct sbuf *b, const char *title, const char *style, int color)
{
	sbuf_add(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width\">\n"
		    "<link rel=\"icon\" href=\"data:,\">\n<title>");
	markup_add_text(b, title);
	sbuf_add(b, "</title>\n<style>\n");
	sbuf_add(b, style_base);
	if (color)
		sbuf_add(b, style_color);
	sbuf_add(b, style ? style : "");
	sbuf_add(b, "</style>\n</head>\n<body>\n<h1>");
	markup_add_text(b, title);
	sbuf_add(b, "</h1>\n");
}

static void html_head(struct sbuf *b, const struct cases *cs, const struct html_pass *h,
		      int color)
{
	html_open(b, "PowerContext end-to-end Memory evaluation", NULL, color);
	page_facts_html(b, &h->facts, "Finished");
	sbuf_add(b, "<p class=\"counts\">");
	report_add_counts(b, cs);
	sbuf_add(b, ".</p>\n");
}

static void collect_names(void *ctx, const struct report_case *c)
{
	struct html_pass *h = ctx;

	for (struct spool_each a = spool_each(spool_get(c->kase, "assertions")); spool_next(&a);)
		if (report_name_index(h->names, spool_str(a.key)) < 0)
			h->names = jv_array_append(h->names, spool_jv(a.key));
	h->trends = h->trends || jv_get_kind(c->trend) == JV_KIND_ARRAY;
	const char *attributes = spool_get(c->kase, "attributes");
	page_facts_add(&h->facts, spool_str(spool_get(attributes, "commit")), NULL,
		       spool_str(spool_get(attributes, "finished_at")));
}

static void add_verdict(struct sbuf *b, enum verdict v)
{
	sbuf_addf(b, "<span class=\"%s\">%s %s</span>", verdict_name(v), verdict_symbol[v],
		  verdict_name(v));
}

static void matrix_head(struct sbuf *b, jv names /* borrowed */)
{
	sbuf_add(b, "<div class=\"wide\"><table class=\"matrix\">\n"
		    "<thead><tr><th>Workload</th><th>Verdict</th>");
	jv_array_foreach(names, i, n) {
		sbuf_add(b, "<th class=\"a\" scope=\"col\"><span>");
		markup_add_text(b, jv_string_value(n));
		sbuf_add(b, "</span></th>");
		jv_free(n);
	}
	sbuf_add(b, "</tr></thead>\n<tbody>\n");
}

/* A false assertion links to its reason in the workload's section. */
static void matrix_cell(struct sbuf *b, const char *a /* spooled, or NULL */, int row, int col)
{
	if (!a) {
		sbuf_add(b, "<td class=\"none\" title=\"not evaluated\">—</td>");
		return;
	}
	const char *reason = spool_str(spool_get(a, "reason"));
	int holds = report_holds(a);
	sbuf_addf(b, "<td class=\"%s\" title=\"", holds ? "pass" : "fail");
	markup_add_text(b, reason && *reason ? reason : "no reason given");
	if (holds)
		sbuf_add(b, "\">✓ pass</td>");
	else
		sbuf_addf(b, "\"><a href=\"#c%d-a%d\">✗ FAIL</a></td>", row, col);
}

static void matrix_row(void *ctx, const struct report_case *c)
{
	struct html_pass *h = ctx;
	struct sbuf *b = &h->o->b;
	const char *assertions = spool_get(c->kase, "assertions");

	sbuf_addf(b, "<tr><th scope=\"row\"><a href=\"#c%d\">", h->index);
	markup_add_text(b, report_case_name(c));
	sbuf_add(b, "</a></th><td class=\"verdict\">");
	add_verdict(b, c->verdict);
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY)
		sbuf_addf(b, " <small>(%s)</small>", trend_change(c->trend));
	sbuf_add(b, "</td>");
	jv_array_foreach(h->names, i, n) {
		matrix_cell(b,
			    spool_member(assertions, jv_string_value(n),
					 (size_t)jv_string_length_bytes(jv_copy(n))),
			    h->index, i);
		jv_free(n);
	}
	sbuf_add(b, "</tr>\n");
	h->index++;
	report_flush(h->o);
}

/* A false assertion's EXPECTED → ACTUAL and evidence, as the text report
 * writes them, when the case has its diagnosis. */
static void section_why(struct sbuf *b, const struct report_case *c, const char *name)
{
	jv d = diagnosis_of(c, name);

	if (jv_get_kind(d) == JV_KIND_OBJECT) {
		struct sbuf lines = { 0 };
		diagnosis_add_lines(&lines, d, "", 0);
		char *text = sbuf_take(&lines);
		sbuf_add(b, "<pre class=\"why\">");
		markup_add_text(b, text);
		sbuf_add(b, "</pre>");
		free(text);
	}
	jv_free(d);
}

/* The reasons the matrix links to, one per false assertion, each with its
 * diagnosis. */
static void section_reasons(struct sbuf *b, const struct report_case *c, const struct html_pass *h)
{
	jv failing = report_false_assertions(c);

	if (jv_array_length(jv_copy(failing)) > 0)
		sbuf_add(b, "<ul class=\"reasons\">\n");
	jv_array_foreach(failing, i, a) {
		const char *name = json_str(a, "name"), *reason = json_str(a, "reason");
		sbuf_addf(b, "<li id=\"c%d-a%d\">✗ <code>", h->index,
			  report_name_index(h->names, name));
		markup_add_text(b, name);
		sbuf_add(b, "</code>: ");
		markup_add_text(b, reason && *reason ? reason : "no reason given");
		section_why(b, c, name);
		sbuf_add(b, "</li>\n");
		jv_free(a);
	}
	if (jv_array_length(jv_copy(failing)) > 0)
		sbuf_add(b, "</ul>\n");
	jv_free(failing);
}

static void section_scores(struct sbuf *b, const struct report_case *c)
{
	jv scores = report_section(c, "scores");
	struct sbuf value = { 0 };

	sbuf_add(b, "<table class=\"scores\">\n<tr><th>Score</th><th>Value</th></tr>\n");
	jv_object_foreach(scores, name, s) {
		jv v = jv_object_get(jv_copy(s), jv_string("value"));
		report_add_value(&value, v);
		char *text = sbuf_take(&value);
		sbuf_add(b, "<tr><td>");
		markup_add_text(b, jv_string_value(name));
		sbuf_add(b, "</td><td>");
		markup_add_text(b, text);
		sbuf_add(b, "</td></tr>\n");
		free(text);
		jv_free(v);
		jv_free(name);
		jv_free(s);
	}
	sbuf_add(b, "</table>\n");
	jv_free(scores);
}

static void workload_section(void *ctx, const struct report_case *c)
{
	struct html_pass *h = ctx;
	struct sbuf *b = &h->o->b;

	sbuf_addf(b, "<section id=\"c%d\">\n<h2>", h->index);
	add_verdict(b, c->verdict);
	sbuf_add(b, " <code>");
	markup_add_text(b, report_case_name(c));
	sbuf_add(b, "</code></h2>\n<p>Experiment <code>");
	markup_add_text(b, c->experiment);
	sbuf_add(b, "</code>, run <code>");
	markup_add_text(b, report_attribute(c, "run_id"));
	sbuf_add(b, "</code>, database <code>");
	markup_add_text(b, report_attribute(c, "database"));
	sbuf_add(b, "</code>.</p>\n");
	section_reasons(b, c, h);
	section_scores(b, c);
	html_add_plots(b, c);
	sbuf_add(b, "</section>\n");
	h->index++;
	report_flush(h->o);
}

/* NO_COLOR leaves every colour out of the page. */
static void render_html(struct report_out *o, struct cases *cs, const struct report_settings *s)
{
	struct html_pass h = { .o = o, .names = jv_array() };

	page_facts_init(&h.facts);
	report_each_case(cs, collect_names, &h);
	html_head(&o->b, cs, &h, s->color);
	matrix_head(&o->b, h.names);
	report_flush(o);
	report_each_case(cs, matrix_row, &h);
	sbuf_add(&o->b, "</tbody>\n</table></div>\n");
	if (h.trends)
		sbuf_add(&o->b,
			 "<p class=\"legend\">In the plots, a run accepted is ●, failed ✗, inconclusive △, skipped □; runs are numbered oldest first, as listed under the plots.</p>\n");
	h.index = 0;
	report_each_case(cs, workload_section, &h);
	sbuf_add(&o->b, "</body>\n</html>\n");
	report_flush(o);
	jv_free(h.names);
	page_facts_free(&h.facts);
}

const struct report_format format_html = {
	.name = "html",
	.needs_trends = 1,
	.render = render_html,
	.paired = paired_add_html,
};
