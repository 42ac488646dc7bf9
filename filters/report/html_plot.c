/* html_plot: the verdicts' page's plots of a workload's scores over the
 * comparable runs of its trend (the ledger's), an inline SVG per score.
 */
#include <math.h>
#include <string.h>

#include "html.h"
#include "html_plot.h"
#include "json.h"
#include "trend.h"

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
			html_add_text(b, json_str(run, "run_id"));
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
	html_add_text(b, score);
	sbuf_addf(
		b,
		"</code></figcaption>\n<svg class=\"plot\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		PLOT_W, PLOT_H);
	html_add_text(b, score);
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
			    report_name_index(names, jv_string_value(name)) < 0)
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
		html_add_text(b, json_str(run, "run_id"));
		sbuf_add(b, "</code>: ");
		html_add_text(b, verdict ? verdict : "unknown");
		if (at) {
			sbuf_add(b, ", ");
			html_add_text(b, at);
		}
		sbuf_add(b, "</li>\n");
		jv_free(run);
	}
	sbuf_add(b, "</ol>\n");
}

/* Without a ledger there is one run, and one point plots nothing: the
 * scores table already has its values. */
void html_add_plots(struct sbuf *b, const struct report_case *c)
{
	if (jv_get_kind(c->trend) != JV_KIND_ARRAY) {
		sbuf_add(b,
			 "<p class=\"noplot\">Plots of the scores over the comparable runs need a ledger: <code>pc-report --ledger URL --format html</code>.</p>\n");
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
