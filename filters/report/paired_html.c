/* paired_html: the OFF/ON comparison as one page (paired_html.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "json.h"
#include "markup.h"
#include "paired.h"
#include "paired_html.h"
#include "paired_verdict.h"
#include "run_account_html.h"
#include "svg.h"

/* The plot: a 0-100% axis under the plot area, and one row per arm, its
 * y a row's. */
static const struct svg_frame frame = {
	.width = 480, .height = 96, .left = 60, .right = 40, .top = 10, .bottom = 18
};
enum {
	ROW_OFF = 28,
	ROW_ON = 58
};

static const char style_paired[] =
	"svg .whisker{stroke:currentColor;stroke-width:2}\n"
	"td.num{text-align:right}\n";
/* what colour adds: the ON arm in the accepted green */
static const char style_paired_color[] = "svg .on{color:#1a7f37}\n";

/* text escaped, each `span` of it as code, as markdown would show it */
static void add_code_spans(struct sbuf *b, const char *text)
{
	int open = 0;

	for (const char *p = text, *tick; *p; p = tick + 1) {
		tick = strchr(p, '`');
		char *piece = pc_xstrdup(p);
		piece[tick ? (size_t)(tick - p) : strlen(p)] = '\0';
		markup_add_text(b, piece);
		free(piece);
		if (!tick)
			break;
		sbuf_add(b, open ? "</code>" : "<code>");
		open = !open;
	}
	if (open)
		sbuf_add(b, "</code>");
}

static double plot_x(double rate)
{
	return frame.left + rate * (svg_right(&frame) - frame.left);
}

static void svg_axis(struct sbuf *b)
{
	char label[16];

	svg_line(b, "axis", frame.left, svg_bottom(&frame), svg_right(&frame), svg_bottom(&frame));
	sbuf_add(b, "\n");
	for (int pct = 0; pct <= 100; pct += 25) {
		double x = plot_x(pct / 100.0);
		snprintf(label, sizeof label, "%d%%", pct);
		svg_line(b, "grid", x, frame.top, x, svg_bottom(&frame));
		svg_text(b, NULL, x, frame.height - 4, "middle", label);
		sbuf_add(b, "\n");
	}
}

/* One arm's row: its rate as a point, its interval as a whisker, or "not
 * scored" when no run was. */
static void svg_arm(struct sbuf *b, jv arm, const char *name, int y)
{
	jv rate = json_get(arm, "success_rate"), interval = json_get(arm, "success_rate_interval");

	sbuf_addf(b, "<g class=\"%s\">", name);
	svg_text(b, NULL, 4, y + 4, NULL, name[1] == 'n' ? "ON" : "OFF");
	sbuf_add(b, "\n");
	if (jv_get_kind(rate) == JV_KIND_NUMBER && jv_get_kind(interval) == JV_KIND_OBJECT) {
		svg_line(b, "whisker", plot_x(json_number_at(interval, "low", 0)), y,
			 plot_x(json_number_at(interval, "high", 0)), y);
		sbuf_add(b, "\n");
		svg_circle(b, "pt", plot_x(jv_number_value(rate)), y, 4);
	} else
		svg_text(b, NULL, frame.left + 4, y + 4, NULL, "not scored");
	sbuf_add(b, "\n</g>\n");
	jv_free(rate);
	jv_free(interval);
}

static void svg_plot(struct sbuf *b, jv summary)
{
	jv off = json_get(summary, "off"), on = json_get(summary, "on");

	sbuf_addf(b,
		  "<figure><svg role=\"img\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"><title>Success rate per arm, with its 95%% Wilson interval</title>\n",
		  frame.width, frame.height, frame.width, frame.height);
	svg_axis(b);
	svg_arm(b, off, "off", ROW_OFF);
	svg_arm(b, on, "on", ROW_ON);
	sbuf_add(b, "</svg><figcaption>Success rate, 95% Wilson interval</figcaption></figure>\n");
	jv_free(off);
	jv_free(on);
}

static void arm_row(struct sbuf *b, jv summary, const char *arm)
{
	jv a = json_get(summary, arm);

	sbuf_addf(b, "<tr class=\"%s\"><th>%s</th>", arm, arm[1] == 'n' ? "ON" : "OFF");
	static const char *const counts[] = { "passed", "scored", "timeouts", "errors",
					      "integration_failures", "cross_scope_accesses" };
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
		sbuf_addf(b, "<td class=\"num\">%.0f</td>", json_number_at(a, counts[i], 0));
	sbuf_add(b, "</tr>\n");
	jv_free(a);
}

static void section(struct sbuf *b, const char *title, jv summary,
		    const struct plan_sample *workloads)
{
	struct sbuf text = { 0 };

	sbuf_add(b, "<section>\n<h2>");
	markup_add_text(b, title);
	sbuf_add(b, "</h2>\n");
	svg_plot(b, summary);
	sbuf_add(b,
		 "<table>\n"
		 "<thead><tr><th>Arm</th><th>Passed</th><th>Scored</th><th>Timed out</th><th>Errors</th><th>Integration failures</th><th>Reached another Scope</th></tr></thead>\n"
		 "<tbody>\n");
	arm_row(b, summary, "off");
	arm_row(b, summary, "on");
	sbuf_add(b, "</tbody>\n</table>\n<p class=\"delta\">");
	/* the same words as report.md's line and the text report's reading */
	paired_add_pairs(&text, summary);
	char *line = sbuf_take(&text);
	add_code_spans(b, line);
	free(line);
	sbuf_add(b, "</p>\n<p class=\"sign\">What the pairs show: ");
	paired_add_verdict(&text, summary, workloads);
	line = sbuf_take(&text);
	markup_add_text(b, line);
	free(line);
	sbuf_add(b, ".</p>\n</section>\n");
}

/* 1.4.1's paired report names neither, so without the observations the
 * page says where they come from instead of leaving them out unsaid. */
static void add_facts(struct sbuf *b, const struct page_facts *facts)
{
	if (facts->dated || facts->undated)
		page_facts_html(b, facts, "Arms ran");
	else
		sbuf_add(b,
			 "<p class=\"under-test\">The paired report names neither the PowerContext under test nor when the arms ran: give pc-report the arm observations after it.</p>\n");
}

void paired_add_html(struct sbuf *b, jv report, jv account, const struct page_facts *facts,
		     int color)
{
	jv tasks = json_get(report, "tasks"), total = json_get(report, "total");
	jv agent = json_get(report, "agent");
	struct sbuf text = { 0 };

	char *style = text_fmt("%s%s", style_paired, color ? style_paired_color : "");
	html_open(b, "PowerContext OFF/ON comparison", style, color);
	free(style);
	add_facts(b, facts);
	sbuf_addf(b, "<p class=\"trials\">%.0f trial(s) per arm. ",
		  json_number_at(report, "trials", 0));
	paired_add_agent(&text, agent);
	char *line = sbuf_take(&text);
	add_code_spans(b, line);
	free(line);
	sbuf_add(b, "</p>\n");
	jv_array_foreach(tasks, i, task) {
		section(b, json_str(task, "task_id"), task, NULL);
		jv_free(task);
	}
	struct plan_sample sample = plan_sample_of(report);
	section(b, "All workloads", total, &sample);
	run_account_add_html(b, account);
	sbuf_add(b, "</body>\n</html>\n");
	jv_free(tasks);
	jv_free(total);
	jv_free(agent);
}
