/* pc-report --format html: one self-contained HTML5 page.  The counts, a
 * matrix of workloads × assertions, then a section per workload (its false
 * assertions with their reasons, its scores and, with a trend from the
 * ledger, an SVG plot of each score over the trend's runs).  Rendered from
 * the spool one case at a time; only the assertion names (a few per
 * workload kind) are held for the whole page.
 *
 * The page fetches nothing (inline style, inline SVG, no script, a data:
 * icon so a browser does not ask for /favicon.ico) and reads the same with
 * colour or without: every mark is a word or a symbol, colour only adds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "formats.h"
#include "html.h"
#include "json.h"
#include "trend.h"

/* Shapes, borders and greys only: the page as NO_COLOR wants it. */
static const char style_base[] =
	"body{font-family:sans-serif;margin:1.5em;line-height:1.4}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid gray;padding:.2em .5em;"
	"text-align:left;vertical-align:bottom;white-space:nowrap}\n"
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
	"pre.why{white-space:pre-wrap;border-left:3px solid gray;padding-left:.5em;"
	"margin:.3em 0 .8em}\n";

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
};

/* s escaped, as one piece of text or one attribute value. */
static void add_text(struct sbuf *b, const char *s)
{
	report_add_escaped(b, s ? s : "");
}

void html_open(struct sbuf *b, const char *title, const char *style, int color)
{
	sbuf_add(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width\">\n"
		    "<link rel=\"icon\" href=\"data:,\">\n<title>");
	add_text(b, title);
	sbuf_add(b, "</title>\n<style>\n");
	sbuf_add(b, style_base);
	if (color)
		sbuf_add(b, style_color);
	sbuf_add(b, style ? style : "");
	sbuf_add(b, "</style>\n</head>\n<body>\n<h1>");
	add_text(b, title);
	sbuf_add(b, "</h1>\n");
}

static void html_head(struct sbuf *b, const struct cases *cs, int color)
{
	html_open(b, "PowerContext end-to-end Memory evaluation", NULL, color);
	sbuf_add(b, "<p class=\"counts\">");
	report_add_counts(b, cs);
	sbuf_add(b, ".</p>\n");
}

/* The column of an assertion name in the matrix, or -1. */
static int name_column(jv names /* borrowed */, const char *name)
{
	jv_array_foreach(names, i, n) {
		int same = !strcmp(jv_string_value(n), name);
		jv_free(n);
		if (same)
			return i;
	}
	return -1;
}

static void collect_names(void *ctx, const struct report_case *c)
{
	struct html_pass *h = ctx;

	for (struct spool_each a = spool_each(spool_get(c->kase, "assertions")); spool_next(&a);)
		if (name_column(h->names, spool_str(a.key)) < 0)
			h->names = jv_array_append(h->names, spool_jv(a.key));
	h->trends = h->trends || jv_get_kind(c->trend) == JV_KIND_ARRAY;
}

static void add_verdict(struct sbuf *b, enum verdict v)
{
	sbuf_addf(b, "<span class=\"%s\">%s %s</span>", verdict_name(v), verdict_symbol[v],
		  verdict_name(v));
}

static void matrix_head(struct sbuf *b, jv names /* borrowed */)
{
	sbuf_add(b, "<table class=\"matrix\">\n<thead><tr><th>Workload</th><th>Verdict</th>");
	jv_array_foreach(names, i, n) {
		sbuf_add(b, "<th class=\"a\" scope=\"col\"><span>");
		add_text(b, jv_string_value(n));
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
	add_text(b, reason && *reason ? reason : "no reason given");
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
	add_text(b, report_case_name(c));
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
		add_text(b, text);
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
		sbuf_addf(b, "<li id=\"c%d-a%d\">✗ <code>", h->index, name_column(h->names, name));
		add_text(b, name);
		sbuf_add(b, "</code>: ");
		add_text(b, reason && *reason ? reason : "no reason given");
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
		add_text(b, jv_string_value(name));
		sbuf_add(b, "</td><td>");
		add_text(b, text);
		sbuf_add(b, "</td></tr>\n");
		free(text);
		jv_free(v);
		jv_free(name);
		jv_free(s);
	}
	sbuf_add(b, "</table>\n");
	jv_free(scores);
}

/* ---- plots ---- */

/* One plot's frame: the size of the SVG, its margins and the y range. */
enum {
	PLOT_W = 360,
	PLOT_H = 170,
	PLOT_LEFT = 44,
	PLOT_RIGHT = 16,
	PLOT_TOP = 24,
	PLOT_BOTTOM = 36
};

struct plot {
	int runs;
	double lo, hi; /* the y range */
};

/* A run's value of a score, or NAN when it has none. */
static double run_score(jv run /* borrowed */, const char *score)
{
	jv v = jv_object_get(json_get(run, "scores"), jv_string(score));
	double x = jv_get_kind(v) == JV_KIND_NUMBER ? jv_number_value(v) : NAN;

	jv_free(v);
	return x;
}

static struct plot plot_frame(jv trend /* borrowed */, const char *score)
{
	struct plot p = { jv_array_length(jv_copy(trend)), INFINITY, -INFINITY };

	jv_array_foreach(trend, i, run) {
		double x = run_score(run, score);
		if (!isnan(x)) {
			p.lo = fmin(p.lo, x);
			p.hi = fmax(p.hi, x);
		}
		jv_free(run);
	}
	if (p.lo >= 0 && p.hi <= 1) /* a fraction: 0 to 1, so plots compare */
		p.lo = 0, p.hi = 1;
	else if (p.lo == p.hi)
		p.lo -= 1, p.hi += 1; /* one value: a range around it */
	return p;
}

/* Runs spread evenly, oldest at the left, clear of the y axis; a single
 * run in the middle. */
static double plot_x(const struct plot *p, int i)
{
	double w = PLOT_W - PLOT_LEFT - PLOT_RIGHT - 16;

	return PLOT_LEFT + 8 + (p->runs == 1 ? w / 2 : w * i / (p->runs - 1));
}

static double plot_y(const struct plot *p, double v)
{
	double h = PLOT_H - PLOT_TOP - PLOT_BOTTOM;

	return PLOT_TOP + h * (p->hi - v) / (p->hi - p->lo);
}

/* A labelled dashed line across the plot at value v. */
static void svg_gridline(struct sbuf *b, const struct plot *p, double v)
{
	double y = plot_y(p, v);

	sbuf_addf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>",
		  PLOT_LEFT, y, PLOT_W - PLOT_RIGHT, y);
	sbuf_addf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", PLOT_LEFT - 8,
		  y + 4, v);
}

/* The axes, the y range's ends (0 and 1 for a score in [0, 1]) and the
 * runs numbered 1 (oldest) to n, as in the list of runs under the plots;
 * a long trend numbers only its first and last run. */
static void svg_axes(struct sbuf *b, const struct plot *p)
{
	int bottom = PLOT_H - PLOT_BOTTOM + 6;

	sbuf_addf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		  PLOT_LEFT - 4, bottom, PLOT_W - PLOT_RIGHT, bottom);
	sbuf_addf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		  PLOT_LEFT - 4, PLOT_TOP - 6, PLOT_LEFT - 4, bottom);
	svg_gridline(b, p, p->lo);
	svg_gridline(b, p, p->hi);
	for (int i = 0; i < p->runs; i++)
		if (p->runs <= 12 || i == 0 || i == p->runs - 1)
			sbuf_addf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
				  plot_x(p, i), bottom + 14, i + 1);
	sbuf_addf(b,
		  "\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">run, oldest → newest</text>\n",
		  (PLOT_W + PLOT_LEFT - PLOT_RIGHT) / 2, PLOT_H - 2);
}

/* A point's shape says its run's verdict without colour: a dot accepted, a
 * cross failed, a triangle inconclusive, a square skipped. */
static void svg_shape(struct sbuf *b, const char *verdict, double x, double y)
{
	if (!strcmp(verdict, "accepted"))
		sbuf_addf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>", x, y);
	else if (!strcmp(verdict, "failed"))
		sbuf_addf(b, "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\"/>", x - 4, y - 4);
	else if (!strcmp(verdict, "inconclusive"))
		sbuf_addf(b, "<path d=\"M%.1f %.1fl5 9h-10z\"/>", x, y - 5);
	else
		sbuf_addf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\"/>", x - 4,
			  y - 4);
}

/* The line through the runs that have the score, then a point for each,
 * named (its title) by run id, verdict and value. */
static void svg_points(struct sbuf *b, const struct plot *p, jv trend /* borrowed */,
		       const char *score)
{
	sbuf_add(b, "<polyline class=\"line\" points=\"");
	jv_array_foreach(trend, i, run) {
		double v = run_score(run, score);
		if (!isnan(v))
			sbuf_addf(b, "%.1f,%.1f ", plot_x(p, i), plot_y(p, v));
		jv_free(run);
	}
	sbuf_add(b, "\"/>\n");
	jv_array_foreach(trend, i, run) {
		double v = run_score(run, score);
		const char *verdict = json_str(run, "verdict");
		verdict = verdict ? verdict : "skipped";
		if (!isnan(v)) {
			sbuf_addf(b, "<g class=\"pt %s\"><title>%d. ", verdict, i + 1);
			add_text(b, json_str(run, "run_id"));
			sbuf_addf(b, ": %s, %g</title>", verdict, v);
			svg_shape(b, verdict, plot_x(p, i), plot_y(p, v));
			sbuf_add(b, "</g>\n");
		}
		jv_free(run);
	}
}

static void svg_plot(struct sbuf *b, jv trend /* borrowed */, const char *score)
{
	struct plot p = plot_frame(trend, score);

	sbuf_add(b, "<figure><figcaption><code>");
	add_text(b, score);
	sbuf_addf(
		b,
		"</code></figcaption>\n<svg class=\"plot\" width=\"%d\" height=\"%d\" role=\"img\" "
		"aria-label=\"",
		PLOT_W, PLOT_H);
	add_text(b, score);
	sbuf_addf(b, " over %d runs\">\n", p.runs);
	sbuf_addf(b, "<text class=\"mark\" x=\"%d\" y=\"12\" text-anchor=\"end\">%s</text>\n",
		  PLOT_W - PLOT_RIGHT, trend_change(trend));
	svg_axes(b, &p);
	svg_points(b, &p, trend, score);
	sbuf_add(b, "</svg></figure>\n");
}

/* The names of the scores the trend's runs have a number for, first seen
 * first. */
static jv trend_scores(jv trend /* borrowed */)
{
	jv names = jv_array();

	jv_array_foreach(trend, i, run) {
		jv scores = json_get(run, "scores");
		jv_object_foreach(scores, name, v) {
			if (jv_get_kind(v) == JV_KIND_NUMBER &&
			    name_column(names, jv_string_value(name)) < 0)
				names = jv_array_append(names, jv_copy(name));
			jv_free(name);
			jv_free(v);
		}
		jv_free(scores);
		jv_free(run);
	}
	return names;
}

/* The runs the plots number, oldest first. */
static void trend_runs(struct sbuf *b, jv trend /* borrowed */)
{
	sbuf_add(b, "<ol class=\"runs\">\n");
	jv_array_foreach(trend, i, run) {
		const char *at = json_str(run, "finished_at"), *verdict = json_str(run, "verdict");
		sbuf_add(b, "<li><code>");
		add_text(b, json_str(run, "run_id"));
		sbuf_add(b, "</code>: ");
		add_text(b, verdict ? verdict : "unknown");
		if (at) {
			sbuf_add(b, ", ");
			add_text(b, at);
		}
		sbuf_add(b, "</li>\n");
		jv_free(run);
	}
	sbuf_add(b, "</ol>\n");
}

/* Without a ledger there is one run, and one point plots nothing: the
 * scores table already has its values. */
static void section_plots(struct sbuf *b, const struct report_case *c)
{
	if (jv_get_kind(c->trend) != JV_KIND_ARRAY) {
		sbuf_add(b,
			 "<p class=\"noplot\">Plots of the scores over the comparable runs need a "
			 "ledger: <code>pc-report --ledger URL --format html</code>.</p>\n");
		return;
	}
	jv names = trend_scores(c->trend);

	sbuf_addf(b, "<p class=\"trend\">Trend over %d run%s: <strong>%s</strong>.</p>\n",
		  jv_array_length(jv_copy(c->trend)),
		  jv_array_length(jv_copy(c->trend)) == 1 ? "" : "s", trend_change(c->trend));
	jv_array_foreach(names, i, name) {
		svg_plot(b, c->trend, jv_string_value(name));
		jv_free(name);
	}
	jv_free(names);
	trend_runs(b, c->trend);
}

static void workload_section(void *ctx, const struct report_case *c)
{
	struct html_pass *h = ctx;
	struct sbuf *b = &h->o->b;

	sbuf_addf(b, "<section id=\"c%d\">\n<h2>", h->index);
	add_verdict(b, c->verdict);
	sbuf_add(b, " <code>");
	add_text(b, report_case_name(c));
	sbuf_add(b, "</code></h2>\n<p>Experiment <code>");
	add_text(b, c->experiment);
	sbuf_add(b, "</code>, run <code>");
	add_text(b, report_attribute(c, "run_id"));
	sbuf_add(b, "</code>, database <code>");
	add_text(b, report_attribute(c, "database"));
	sbuf_add(b, "</code>.</p>\n");
	section_reasons(b, c, h);
	section_scores(b, c);
	section_plots(b, c);
	sbuf_add(b, "</section>\n");
	h->index++;
	report_flush(h->o);
}

/* NO_COLOR leaves every colour out of the page. */
static void render_html(struct report_out *o, struct cases *cs, const struct report_settings *s)
{
	struct html_pass h = { o, jv_array(), 0, 0 };

	report_each_case(cs, collect_names, &h);
	html_head(&o->b, cs, s->color);
	matrix_head(&o->b, h.names);
	report_flush(o);
	report_each_case(cs, matrix_row, &h);
	sbuf_add(&o->b, "</tbody>\n</table>\n");
	if (h.trends)
		sbuf_add(&o->b,
			 "<p class=\"legend\">In the plots, a run accepted is ●, failed ✗, "
			 "inconclusive △, skipped □; runs are numbered oldest first, as listed "
			 "under the plots.</p>\n");
	h.index = 0;
	report_each_case(cs, workload_section, &h);
	sbuf_add(&o->b, "</body>\n</html>\n");
	report_flush(o);
	jv_free(h.names);
}

const struct report_format format_html = {
	.name = "html",
	.gist = "one page",
	.needs_trends = 1,
	.render = render_html,
};
