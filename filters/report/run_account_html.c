/* run_account_html: the run's faults, retries and spend on the page
 * (run_account_html.h). */
#include "run_account_html.h"

#include <stdlib.h>

#include "json.h"
#include "markup.h"
#include "run_account.h"

/* What add (with its borrowed argument) writes, escaped, in a <p>. */
static void add_line(struct sbuf *b, const char *class, void (*add)(struct sbuf *, jv), jv v)
{
	struct sbuf text = { 0 };

	add(&text, v);
	char *line = sbuf_take(&text);
	sbuf_addf(b, "<p class=\"%s\">", class);
	markup_add_text(b, line);
	sbuf_add(b, "</p>\n");
	free(line);
}

static void fault_row(struct sbuf *b, jv arm)
{
	jv fault = json_get(arm, "fault");
	struct sbuf text = { 0 };

	sbuf_add(b, "<tr><td>");
	markup_add_text(b, json_str(arm, "task_id"));
	sbuf_addf(b, "</td><td class=\"num\">%.0f</td><td>%s</td><td>",
		  json_number_at(arm, "trial", 0), json_str(arm, "arm"));
	run_account_add_fault(&text, fault);
	char *words = sbuf_take(&text);
	markup_add_text(b, words);
	sbuf_add(b, "</td></tr>\n");
	free(words);
	jv_free(fault);
}

static void add_faults(struct sbuf *b, jv run, jv units)
{
	jv errored = json_get(run, "errored"), total = json_get(run, "total");

	sbuf_add(b, "<section class=\"faults\">\n<h2>Faults</h2>\n");
	if (jv_get_kind(errored) == JV_KIND_ARRAY && jv_array_length(jv_copy(errored)) > 0) {
		sbuf_add(b, "<table>\n");
		sbuf_add(b,
			 "<thead><tr><th>Workload</th><th>Trial</th><th>Arm</th><th>Fault</th></tr></thead>\n");
		sbuf_add(b, "<tbody>\n");
		jv_array_foreach(errored, i, arm) {
			fault_row(b, arm);
			jv_free(arm);
		}
		sbuf_add(b, "</tbody>\n</table>\n");
	}
	if (jv_get_kind(total) == JV_KIND_OBJECT)
		add_line(b, "fault-counts", run_account_add_counts, total);
	if (jv_get_kind(units) == JV_KIND_ARRAY)
		add_line(b, "retries", run_account_add_retries, units);
	sbuf_add(b, "</section>\n");
	jv_free(errored);
	jv_free(total);
}

static void spend_cells(struct sbuf *b, jv role, const char *const *figures)
{
	jv usd = json_get(role, "usd");

	for (size_t i = 0; figures[i]; i++)
		sbuf_addf(b, "<td class=\"num\">%.0f</td>", json_number_at(role, figures[i], 0));
	sbuf_add(b, "<td class=\"num\">");
	run_account_add_usd(b, usd);
	sbuf_add(b, "</td></tr>\n");
	jv_free(usd);
}

static void spend_rows(struct sbuf *b, jv spend, const char *arm, const char *name)
{
	static const char *const agent[] = { "input_tokens", "cached_tokens", "output_tokens",
					     "estimated_steps", NULL };
	static const char *const extraction[] = { "input_tokens", "embedding_tokens",
						  "output_tokens", "requests", NULL };
	jv a = json_get(spend, arm);
	jv agent_spend = json_get(a, "agent"), extraction_spend = json_get(a, "extraction");

	sbuf_addf(b, "<tr class=\"%s\"><th>%s</th><td>agent</td>", arm, name);
	spend_cells(b, agent_spend, agent);
	sbuf_addf(b, "<tr class=\"%s\"><th>%s</th><td>extraction</td>", arm, name);
	spend_cells(b, extraction_spend, extraction);
	jv_free(agent_spend), jv_free(extraction_spend), jv_free(a);
}

static void add_spend(struct sbuf *b, jv run, jv budget)
{
	jv spend = json_get(run, "spend"), usd = json_at(run, "total.usd");

	sbuf_add(b, "<section class=\"spend\">\n<h2>Spend</h2>\n");
	if (jv_get_kind(spend) == JV_KIND_OBJECT) {
		sbuf_add(b, "<table>\n");
		sbuf_add(b,
			 "<thead><tr><th>Arm</th><th>Role</th><th>Input tokens</th><th>Cached or embedding</th><th>Output tokens</th><th>Estimated steps or requests</th><th>USD</th></tr></thead>\n");
		sbuf_add(b, "<tbody>\n");
		spend_rows(b, spend, "off", "OFF");
		spend_rows(b, spend, "on", "ON");
		sbuf_add(b, "</tbody>\n</table>\n");
		add_line(b, "spend-total", run_account_add_usd, usd);
	}
	if (jv_get_kind(budget) == JV_KIND_OBJECT)
		add_line(b, "budget", run_account_add_budget, budget);
	sbuf_add(b, "</section>\n");
	jv_free(spend);
	jv_free(usd);
}

void run_account_add_html(struct sbuf *b, jv account)
{
	static const struct run_account_view html = { .faults = add_faults, .spend = add_spend };

	run_account_render(b, account, &html);
}
