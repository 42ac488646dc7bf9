/* paired: the OFF/ON comparison's report for people (paired.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "paired.h"
#include "paired_verdict.h"
#include "plan.h"
#include "run_account.h"

static const char preliminary[] =
	"Intervals are 95%: a Wilson score interval for each arm's success rate and a seeded percentile bootstrap over scored pairs for ON minus OFF. Errors, ON runs that did not receive PowerContext's treatment, and ON runs that reached another Scope are counted but left out of success rates, paired differences, and step metrics; timed-out runs stay in all three. Step metrics are the host's own usage figures as Harbor reports them. Each figure is a mean over the runs that reported it: n/a when none did, and followed by its count, as in `1,000 (1 of 2 runs)`, when only some did.";

static const char step_table_head[] =
	"\n"
	"| Step | Arm | Runs | Seconds | Input tokens | Cached input tokens | Output tokens | Cost USD |\n"
	"| --- | --- | --- | --- | --- | --- | --- | --- |\n";

/* ---- numbers as Python's format specifications write them ---- */

enum number_format {
	FIXED1,  /* .1f */
	FIXED4,  /* .4f */
	GROUPED, /* ,.0f */
	PERCENT, /* .0% */
	SIGNED2, /* +.2f */
};

/* glibc's printf rounds the exact binary value half to even, as Python
 * does; Python's thousands separator is added by hand. */
static void add_number(struct sbuf *b, double v, enum number_format f)
{
	char text[64];

	switch (f) {
	case FIXED1: snprintf(text, sizeof text, "%.1f", v); break;
	case FIXED4: snprintf(text, sizeof text, "%.4f", v); break;
	case PERCENT: snprintf(text, sizeof text, "%.0f%%", v * 100); break;
	case SIGNED2: snprintf(text, sizeof text, "%+.2f", v); break;
	case GROUPED: snprintf(text, sizeof text, "%.0f", v); break;
	}
	if (f != GROUPED) {
		sbuf_add(b, text);
		return;
	}
	const char *digits = text + (*text == '-');
	size_t n = strlen(digits);
	sbuf_addn(b, text, (size_t)(digits - text));
	for (size_t i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			sbuf_add(b, ",");
		sbuf_addn(b, digits + i, 1);
	}
}

static void add_interval(struct sbuf *b, jv interval, enum number_format f)
{
	if (jv_get_kind(interval) != JV_KIND_OBJECT)
		return;
	sbuf_add(b, " [");
	add_number(b, json_number_at(interval, "low", 0), f);
	sbuf_add(b, ", ");
	add_number(b, json_number_at(interval, "high", 0), f);
	sbuf_add(b, "]");
}

/* A metric's mean, its range when spread, and how many runs it covers when
 * fewer than runs did; n/a for none. */
static void add_figure(struct sbuf *b, jv metric, double runs, enum number_format f, int spread)
{
	if (jv_get_kind(metric) != JV_KIND_OBJECT) {
		sbuf_add(b, "n/a");
		return;
	}
	double covered = json_number_at(metric, "runs", 0);
	add_number(b, json_number_at(metric, "mean", 0), f);
	if (!spread && covered >= runs)
		return;
	sbuf_add(b, " (");
	if (spread) {
		add_number(b, json_number_at(metric, "min", 0), f);
		sbuf_add(b, "-");
		add_number(b, json_number_at(metric, "max", 0), f);
	}
	if (covered < runs)
		sbuf_addf(b, "%s%.0f of %.0f runs", spread ? "; " : "", covered, runs);
	sbuf_add(b, ")");
}

/* ---- the markdown report ---- */

static void add_arm(struct sbuf *b, jv arm)
{
	jv rate = json_get(arm, "success_rate"), interval = json_get(arm, "success_rate_interval");

	sbuf_addf(b, "%.0f/%.0f passed", json_number_at(arm, "passed", 0),
		  json_number_at(arm, "scored", 0));
	if (jv_get_kind(rate) == JV_KIND_NUMBER) {
		sbuf_add(b, ", ");
		add_number(b, jv_number_value(rate), PERCENT);
		add_interval(b, interval, PERCENT);
	}
	sbuf_addf(b,
		  " (%.0f timed out); %.0f error(s), %.0f integration failure(s), %.0f run(s) that reached another Scope not scored",
		  json_number_at(arm, "timeouts", 0), json_number_at(arm, "errors", 0),
		  json_number_at(arm, "integration_failures", 0),
		  json_number_at(arm, "cross_scope_accesses", 0));
	jv_free(rate);
	jv_free(interval);
}

static void add_summary(struct sbuf *b, jv summary)
{
	jv off = json_get(summary, "off"), on = json_get(summary, "on");

	sbuf_add(b, "- OFF: ");
	add_arm(b, off);
	sbuf_add(b, "\n- ON: ");
	add_arm(b, on);
	sbuf_add(b, "\n- ");
	paired_add_pairs(b, summary);
	sbuf_add(b, "\n");
	jv_free(off);
	jv_free(on);
}

void paired_add_pairs(struct sbuf *b, jv summary)
{
	jv mean = json_get(summary, "mean_delta"), interval = json_get(summary, "delta_interval");

	sbuf_addf(b, "Scored pairs: %.0f; ON minus OFF: ", json_number_at(summary, "pairs", 0));
	if (jv_get_kind(mean) == JV_KIND_NUMBER) {
		add_number(b, jv_number_value(mean), SIGNED2);
		add_interval(b, interval, SIGNED2);
	} else
		sbuf_add(b, "n/a");
	sbuf_addf(b, "; ON better in %.0f, OFF better in %.0f, tied in %.0f",
		  json_number_at(summary, "on_better", 0), json_number_at(summary, "off_better", 0),
		  json_number_at(summary, "tied", 0));
	jv_free(mean);
	jv_free(interval);
}

static void add_step_row(struct sbuf *b, const char *name, const char *arm, jv step)
{
	double runs = json_number_at(step, "runs", 0);
	static const struct {
		const char *key;
		enum number_format f;
	} cells[] = { { "seconds", FIXED1 },
		      { "input_tokens", GROUPED },
		      { "cache_tokens", GROUPED },
		      { "output_tokens", GROUPED },
		      { "cost_usd", FIXED4 } };

	sbuf_addf(b, "| %s | %s | %.0f |", name, arm, runs);
	for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
		jv metric = json_get(step, cells[i].key);
		sbuf_add(b, " ");
		add_figure(b, metric, runs, cells[i].f, i == 0);
		sbuf_add(b, " |");
		jv_free(metric);
	}
	sbuf_add(b, "\n");
}

/* Every step either arm ran, OFF's first seen first, each arm's row. */
static void add_step_table(struct sbuf *b, jv summary)
{
	static const char *const arms[] = { "off", "on" };
	jv names = jv_object();

	for (int a = 0; a < 2; a++) {
		jv steps = json_at(summary, arms[a] == arms[0] ? "off.steps" : "on.steps");
		jv_object_foreach(steps, name, step) {
			names = jv_object_set(names, name, jv_true());
			jv_free(step);
		}
		jv_free(steps);
	}
	if (jv_object_length(jv_copy(names)) > 0)
		sbuf_add(b, step_table_head);
	jv_object_foreach(names, name, seen) {
		for (int a = 0; a < 2; a++) {
			jv arm = json_get(summary, arms[a]), steps = json_get(arm, "steps");
			jv step = json_get(steps, jv_string_value(name));
			if (jv_get_kind(step) == JV_KIND_OBJECT)
				add_step_row(b, jv_string_value(name), a ? "ON" : "OFF", step);
			jv_free(step);
			jv_free(steps);
			jv_free(arm);
		}
		jv_free(name);
		jv_free(seen);
	}
	jv_free(names);
}

static void add_server(struct sbuf *b, jv summary)
{
	jv server = json_at(summary, "on.server");

	if (jv_get_kind(server) != JV_KIND_OBJECT) {
		sbuf_add(b, "\nServer usage: no scored ON run has a Scope snapshot.\n");
		jv_free(server);
		return;
	}
	double runs = json_number_at(server, "runs", 0);
	jv gi = json_get(server, "generation_input_tokens");
	jv go = json_get(server, "generation_output_tokens");
	jv ei = json_get(server, "embedding_input_tokens");
	sbuf_addf(b, "\nServer usage, mean over %.0f scored ON run(s): generation ", runs);
	add_number(b, json_number_at(server, "generation_requests", 0), FIXED1);
	sbuf_add(b, " request(s), input tokens ");
	add_figure(b, gi, runs, GROUPED, 0);
	sbuf_add(b, ", output tokens ");
	add_figure(b, go, runs, GROUPED, 0);
	sbuf_add(b, "; embedding ");
	add_number(b, json_number_at(server, "embedding_requests", 0), FIXED1);
	sbuf_add(b, " request(s), input tokens ");
	add_figure(b, ei, runs, GROUPED, 0);
	sbuf_add(b, "; ");
	add_number(b, json_number_at(server, "recalled_tokens", 0), GROUPED);
	sbuf_add(b, " estimated tokens of context returned.\n");
	jv_free(gi);
	jv_free(go);
	jv_free(ei);
	jv_free(server);
}

static void add_section(struct sbuf *b, const char *title, int code, jv summary)
{
	sbuf_addf(b, code ? "\n## `%s`\n\n" : "\n## %s\n\n", title);
	add_summary(b, summary);
	add_step_table(b, summary);
	add_server(b, summary);
}

void paired_add_agent(struct sbuf *b, jv agent)
{
	const char *model = json_str(agent, "model");
	jv settings = json_get(agent, "settings");
	jv keys = jv_keys(jv_copy(settings)); /* sorted, as 1.4.1 sorts them */

	sbuf_addf(b, "Host `%s` %s, model `%s`", json_str(agent, "host"),
		  json_str(agent, "version"),
		  model ? model : "not set");
	jv_array_foreach(keys, i, key) {
		const char *name = jv_string_value(key);
		sbuf_addf(b, ", %s `%s`", name, json_str(settings, name));
		jv_free(key);
	}
	sbuf_add(b, ".");
	jv_free(keys);
	jv_free(settings);
}

void paired_add_markdown(struct sbuf *b, jv report)
{
	jv agent = json_get(report, "agent"), tasks = json_get(report, "tasks");
	jv total = json_get(report, "total");

	sbuf_addf(b,
		  "# PowerContext OFF/ON comparison\n\nPreliminary: %.0f trial(s) per arm. %s\n\n",
		  json_number_at(report, "trials", 0), preliminary);
	paired_add_agent(b, agent);
	sbuf_add(b, "\n");
	jv_array_foreach(tasks, i, task) {
		add_section(b, json_str(task, "task_id"), 1, task);
		jv_free(task);
	}
	add_section(b, "All workloads", 0, total);
	jv_free(agent);
	jv_free(tasks);
	jv_free(total);
}

/* ---- pc-e2e's reading of the pairs ---- */

static void add_reading(struct sbuf *b, const char *title, jv summary,
			const struct plan_sample *workloads)
{
	sbuf_addf(b, "%s: ", title);
	paired_add_verdict(b, summary, workloads);
	sbuf_add(b, "\n");
}

void paired_add_text(struct sbuf *b, jv report, jv account)
{
	jv tasks = json_get(report, "tasks"), total = json_get(report, "total");

	paired_add_markdown(b, report);
	run_account_add_text(b, account);
	sbuf_add(b, "\n## What the pairs show (pc-e2e)\n\n");
	jv_array_foreach(tasks, i, task) {
		add_reading(b, json_str(task, "task_id"), task, NULL);
		jv_free(task);
	}
	struct plan_sample sample = plan_sample_of(report);
	add_reading(b, "All workloads", total, &sample);
	plan_add_detectable(b, &sample);
	jv_free(tasks);
	jv_free(total);
}
