/* pc-report --format html: the counts, a matrix of workloads × assertions,
 * then a section per workload (its false assertions with their reasons,
 * its scores).  Rendered from the spool one case at a time; only the
 * assertion names (a few per workload kind) are held for the whole page. */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "json.h"

/* Shapes, borders and greys only: the page as NO_COLOR wants it. */
static const char style_base[] =
	"body{font-family:sans-serif;margin:1.5em;line-height:1.4}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid gray;padding:.2em .5em;text-align:left;vertical-align:bottom}\n"
	"thead th.a span{writing-mode:vertical-rl;transform:rotate(180deg)}\n"
	"td.fail,td.verdict{font-weight:bold}\n"
	"a{color:inherit}\n"
	"section{margin-top:1.5em}\n";

/* What colour adds: the verdicts and the cells. */
static const char style_color[] =
	".accepted{color:#1a7f37}\n.failed{color:#cf222e}\n"
	".inconclusive{color:#9a6700}\n.skipped{color:#0969da}\n"
	"td.pass{background:#dafbe1}\ntd.fail{background:#ffebe9}\n";

static const char *const verdict_symbol[VERDICTS] = { "✓", "✗", "?", "–" };

struct html_pass {
	struct report_out *o;
	jv names; /* the assertion names of every case, first seen first */
	int index;
};

/* s escaped, as one piece of text or one attribute value. */
static void add_text(struct sbuf *b, const char *s)
{
	report_add_escaped(b, s ? s : "");
}

static void html_head(struct sbuf *b, const struct cases *cs, int color)
{
	sbuf_add(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width\">\n"
		    "<link rel=\"icon\" href=\"data:,\">\n"
		    "<title>PowerContext end-to-end Memory evaluation</title>\n<style>\n");
	sbuf_add(b, style_base);
	if (color)
		sbuf_add(b, style_color);
	sbuf_add(b, "</style>\n</head>\n<body>\n<h1>PowerContext end-to-end Memory evaluation</h1>\n"
		    "<p class=\"counts\">");
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
	jv assertions = report_section(c, "assertions");

	jv_object_foreach(assertions, name, a) {
		if (name_column(h->names, jv_string_value(name)) < 0)
			h->names = jv_array_append(h->names, jv_copy(name));
		jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
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
		(void)i;
		sbuf_add(b, "<th class=\"a\" scope=\"col\"><span>");
		add_text(b, jv_string_value(n));
		sbuf_add(b, "</span></th>");
		jv_free(n);
	}
	sbuf_add(b, "</tr></thead>\n<tbody>\n");
}

/* A false assertion links to its reason in the workload's section. */
static void matrix_cell(struct sbuf *b, jv a /* borrowed */, int row, int col)
{
	if (!jv_is_valid(a)) {
		sbuf_add(b, "<td class=\"none\" title=\"not evaluated\">—</td>");
		return;
	}
	const char *reason = json_str(a, "reason");
	sbuf_addf(b, "<td class=\"%s\" title=\"", json_has_true(a, "value") ? "pass" : "fail");
	add_text(b, reason && *reason ? reason : "no reason given");
	if (json_has_true(a, "value"))
		sbuf_add(b, "\">✓ pass</td>");
	else
		sbuf_addf(b, "\"><a href=\"#c%d-a%d\">✗ FAIL</a></td>", row, col);
}

static void matrix_row(void *ctx, const struct report_case *c)
{
	struct html_pass *h = ctx;
	struct sbuf *b = &h->o->b;
	jv assertions = report_section(c, "assertions");

	sbuf_addf(b, "<tr><th scope=\"row\"><a href=\"#c%d\">", h->index);
	add_text(b, report_case_name(c));
	sbuf_add(b, "</a></th><td class=\"verdict\">");
	add_verdict(b, c->verdict);
	sbuf_add(b, "</td>");
	jv_array_foreach(h->names, i, n) {
		jv a = jv_object_get(jv_copy(assertions), n);
		matrix_cell(b, a, h->index, i);
		jv_free(a);
	}
	sbuf_add(b, "</tr>\n");
	jv_free(assertions);
	h->index++;
	report_flush(h->o);
}

/* The reasons the matrix links to, one per false assertion. */
static void section_reasons(struct sbuf *b, const struct report_case *c, const struct html_pass *h)
{
	jv failing = report_false_assertions(c);

	if (jv_array_length(jv_copy(failing)) > 0)
		sbuf_add(b, "<ul class=\"reasons\">\n");
	jv_array_foreach(failing, i, a) {
		const char *name = json_str(a, "name"), *reason = json_str(a, "reason");
		(void)i;
		sbuf_addf(b, "<li id=\"c%d-a%d\">✗ <code>", h->index, name_column(h->names, name));
		add_text(b, name);
		sbuf_add(b, "</code>: ");
		add_text(b, reason && *reason ? reason : "no reason given");
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
	sbuf_add(b, "</section>\n");
	h->index++;
	report_flush(h->o);
}

void render_html(struct report_out *o, struct cases *cs, int color)
{
	struct html_pass h = { o, jv_array(), 0 };

	report_each_case(cs, collect_names, &h);
	html_head(&o->b, cs, color);
	matrix_head(&o->b, h.names);
	report_flush(o);
	report_each_case(cs, matrix_row, &h);
	sbuf_add(&o->b, "</tbody>\n</table>\n");
	h.index = 0;
	report_each_case(cs, workload_section, &h);
	sbuf_add(&o->b, "</body>\n</html>\n");
	report_flush(o);
	jv_free(h.names);
}
