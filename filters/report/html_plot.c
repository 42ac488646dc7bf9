/* html_plot: the verdicts' page's plots of a workload's scores over the
 * comparable runs of its trend (the ledger's), an inline SVG per score.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_plot.h"
#include "json.h"
#include "markup.h"
#include "svg.h"
#include "trend.h"

/* Every plot's frame: the size of the SVG and the margins of its plot
 * area, which holds the y range. */
static const struct svg_frame frame = {
	.width = 360, .height = 170, .left = 44, .right = 16, .top = 24, .bottom = 36
};

/* One score's plot: its runs and the y range. */
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
	double w = svg_right(&frame) - frame.left - 16;

	return frame.left + 8 + (p->runs == 1 ? w / 2 : w * i / (p->runs - 1));
}

static double plot_y(const struct plot *p, double v)
{
	double h = svg_bottom(&frame) - frame.top;

	return frame.top + h * (p->hi - v) / (p->hi - p->lo);
}

/* A labelled dashed line across the plot at value v. */
static void svg_gridline(struct sbuf *b, const struct plot *p, double v)
{
	double y = plot_y(p, v);
	char *label = text_fmt("%g", v);

	svg_line(b, "grid", frame.left, y, svg_right(&frame), y);
	svg_text(b, NULL, frame.left - 8, y + 4, "end", label);
	sbuf_add(b, "\n");
	free(label);
}

/* The axes, the y range's ends (0 and 1 for a score in [0, 1]) and the
 * runs numbered 1 (oldest) to n, as in the list of runs under the plots;
 * a long trend numbers only its first and last run. */
static void svg_axes(struct sbuf *b, const struct plot *p)
{
	int bottom = svg_bottom(&frame) + 6, y_axis = frame.left - 4;
	char number[16];

	svg_line(b, "axis", y_axis, bottom, svg_right(&frame), bottom);
	svg_line(b, "axis", y_axis, frame.top - 6, y_axis, bottom);
	sbuf_add(b, "\n");
	svg_gridline(b, p, p->lo);
	svg_gridline(b, p, p->hi);
	for (int i = 0; i < p->runs; i++)
		if (p->runs <= 12 || i == 0 || i == p->runs - 1) {
			snprintf(number, sizeof number, "%d", i + 1);
			svg_text(b, NULL, plot_x(p, i), bottom + 14, "middle", number);
		}
	sbuf_add(b, "\n");
	svg_text(b, NULL, (frame.left + svg_right(&frame)) / 2, frame.height - 2, "middle",
		 "run, oldest → newest");
	sbuf_add(b, "\n");
}

/* A point's shape says its run's verdict without colour: a dot accepted, a
 * cross failed, a triangle inconclusive, a square skipped. */
static void svg_shape(struct sbuf *b, const char *verdict, double x, double y)
{
	if (!strcmp(verdict, "accepted"))
		svg_circle(b, NULL, x, y, 4);
	else if (!strcmp(verdict, "failed"))
		svg_path(b, x - 4, y - 4, "l8 8m0 -8l-8 8");
	else if (!strcmp(verdict, "inconclusive"))
		svg_path(b, x, y - 5, "l5 9h-10z");
	else
		svg_rect(b, x - 4, y - 4, 8, 8);
}

/* The line through the runs that have the score, then a point for each,
 * named (its title) by run id, verdict and value. */
static void svg_points(struct sbuf *b, const struct plot *p, jv trend /* borrowed */,
		       const char *score)
{
	struct sbuf points = { 0 };

	jv_array_foreach(trend, i, run) {
		double v = run_score(run, score);
		if (!isnan(v))
			svg_point(&points, plot_x(p, i), plot_y(p, v));
		jv_free(run);
	}
	char *line = sbuf_take(&points);
	svg_polyline(b, "line", line);
	sbuf_add(b, "\n");
	free(line);
	jv_array_foreach(trend, i, run) {
		double v = run_score(run, score);
		const char *verdict = json_str(run, "verdict");
		verdict = verdict ? verdict : "skipped";
		if (!isnan(v)) {
			sbuf_addf(b, "<g class=\"pt %s\"><title>%d. ", verdict, i + 1);
			markup_add_text(b, json_str(run, "run_id"));
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
	markup_add_text(b, score);
	sbuf_addf(
		b,
		"</code></figcaption>\n<svg class=\"plot\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		frame.width, frame.height);
	markup_add_text(b, score);
	sbuf_addf(b, " over %d runs\">\n", p.runs);
	svg_text(b, "mark", svg_right(&frame), 12, "end", trend_change(trend));
	sbuf_add(b, "\n");
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
		markup_add_text(b, json_str(run, "run_id"));
		sbuf_add(b, "</code>: ");
		markup_add_text(b, verdict ? verdict : "unknown");
		if (at) {
			sbuf_add(b, ", ");
			markup_add_text(b, at);
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
