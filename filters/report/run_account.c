/* run_account: a paired run's faults, retries and spend (run_account.h). */
#include "run_account.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "docs_names.h"
#include "io.h"
#include "json.h"

/* The one document of DIR/name into *doc, null when there is no such
 * file. */
static int load_doc(const char *dir, const char *name, jv *doc, struct pc_err *e)
{
	char *path = io_join(dir, name);
	struct stat st;
	int rc = 0;

	*doc = jv_null();
	if (stat(path, &st) == 0)
		rc = json_read_file(path, doc, e);
	if (rc == 0 && jv_get_kind(*doc) != JV_KIND_NULL && jv_get_kind(*doc) != JV_KIND_OBJECT)
		rc = pc_fail(e, "%s: not a JSON object", path);
	if (rc != 0) {
		jv_free(*doc);
		*doc = jv_null();
	}
	free(path);
	return rc;
}

/* DIR/units/units.jsonl's lines as an array into *units, null without
 * the file. */
static int load_units(const char *dir, jv *units, struct pc_err *e)
{
	char *path = io_join(dir, "units/units.jsonl");
	FILE *f = fopen(path, "rb");
	struct json_reader r;
	long line;
	jv unit;
	int got = 0;

	*units = jv_null();
	if (!f) {
		int missing = errno == ENOENT;
		if (!missing)
			pc_fail_errno(e, "%s: cannot open", path);
		free(path);
		return missing ? 0 : -1;
	}
	*units = jv_array();
	json_reader_init(&r, f, path);
	while ((got = json_reader_next(&r, &unit, &line, e)) == 1)
		*units = jv_array_append(*units, unit);
	json_reader_free(&r);
	fclose(f);
	free(path);
	if (got < 0) {
		jv_free(*units);
		*units = jv_null();
	}
	return got < 0 ? -1 : 0;
}

int run_account_load(const char *output, jv *account, struct pc_err *e)
{
	jv run = jv_null(), units = jv_null(), budget = jv_null();

	*account = jv_null();
	if (!output)
		return 0;
	int rc = load_doc(output, "paired-run.json", &run, e);
	if (rc == 0)
		rc = load_units(output, &units, e);
	if (rc == 0)
		rc = load_doc(output, "units/budget.json", &budget, e);
	if (rc != 0) {
		jv_free(run), jv_free(units), jv_free(budget);
		return -1;
	}
	const char *schema = json_str(run, "schema");
	if (jv_get_kind(run) == JV_KIND_OBJECT && (!schema || strcmp(schema, SCHEMA_PAIRED_RUN))) {
		jv_free(run), jv_free(units), jv_free(budget);
		return pc_fail(e, "%s/paired-run.json: schema is not %s", output,
			       SCHEMA_PAIRED_RUN);
	}
	*account = JV_OBJECT(jv_string("run"), run, jv_string("units"), units, jv_string("budget"),
			     budget);
	return 0;
}

/* Whether the value at a dotted path of account (borrowed) is of kind. */
static int is(jv account, const char *path, jv_kind kind)
{
	jv v = json_at(account, path);
	int yes = jv_get_kind(v) == kind;

	jv_free(v);
	return yes;
}

int run_account_has_faults(jv account)
{
	return json_number_at(account, "run.total.errors", 0) > 0 ||
	       is(account, "units", JV_KIND_ARRAY);
}

int run_account_has_spend(jv account)
{
	return is(account, "run.spend", JV_KIND_OBJECT) || is(account, "budget", JV_KIND_OBJECT);
}

int run_account_any(jv account)
{
	return run_account_has_faults(account) || run_account_has_spend(account);
}

/* ---- faults ---- */

void run_account_add_fault(struct sbuf *b, jv fault)
{
	const char *class = json_str(fault, "class"), *kind = json_str(fault, "kind"),
		   *step = json_str(fault, "step"), *words = json_str(fault, "words");
	double status = json_number_at(fault, "status", -1);

	if (!class) {
		sbuf_add(b, "error, unclassified (no fault recorded)");
		return;
	}
	sbuf_addf(b, "%s %s", class, kind ? kind : "?");
	if (status >= 0)
		sbuf_addf(b, " %.0f", status);
	if (step)
		sbuf_addf(b, " at %s", step);
	if (words && *words)
		sbuf_addf(b, ": \"%s\"", words);
}

void run_account_add_counts(struct sbuf *b, jv faults)
{
	jv classes = json_get(faults, "classes");
	int first = 1;

	sbuf_addf(b, "%.0f error(s)", json_number_at(faults, "errors", 0));
	jv_object_foreach(classes, class, counts) {
		jv kinds = json_get(counts, "kinds");
		if (jv_get_kind(kinds) != JV_KIND_OBJECT)
			jv_free(kinds), kinds = jv_object();
		int n = jv_object_length(jv_copy(kinds));
		sbuf_addf(b, "%s %.0f %s", first ? ":" : ",", json_number_at(counts, "errors", 0),
			  jv_string_value(class));
		first = 0;
		int k = 0;
		jv_object_foreach(kinds, kind, times) {
			sbuf_addf(b, "%s", k++ ? ", " : " (");
			if (n > 1)
				sbuf_addf(b, "%.0f ", jv_number_value(times));
			sbuf_add(b, jv_string_value(kind));
			jv_free(kind), jv_free(times);
		}
		if (k)
			sbuf_add(b, ")");
		jv_free(kinds), jv_free(class), jv_free(counts);
	}
	jv_free(classes);
}

void run_account_add_retries(struct sbuf *b, jv units)
{
	int retried = 0, lost = 0;

	jv_array_foreach(units, i, unit) {
		retried += json_number_at(unit, "retried", 0) > 0;
		lost += json_has_true(unit, "lost");
		jv_free(unit);
	}
	sbuf_addf(b, "pairs retried %d, lost %d", retried, lost);
}

void run_account_add_usd(struct sbuf *b, jv usd)
{
	if (jv_get_kind(usd) == JV_KIND_NUMBER)
		sbuf_addf(b, "$%.4f", jv_number_value(usd));
	else
		sbuf_add(b, "unpriced");
}

void run_account_add_budget(struct sbuf *b, jv budget)
{
	jv spent = json_get(budget, "spent_usd"), cap = json_get(budget, "budget_usd");

	if (json_has_true(budget, "stopped")) {
		sbuf_add(b, "stopped at its budget: ");
		run_account_add_usd(b, spent);
		sbuf_add(b, " spent of ");
		run_account_add_usd(b, cap);
		double not_run = json_number_at(budget, "units_not_run", 0);
		sbuf_addf(b, "; %.0f of %.0f units not run (RESUME=1 BUDGET_USD=… runs them)",
			  not_run, json_number_at(budget, "units", 0));
	} else {
		run_account_add_usd(b, spent);
		sbuf_add(b, " spent of its budget ");
		run_account_add_usd(b, cap);
	}
	jv_free(spent);
	jv_free(cap);
}

static void add_faults(struct sbuf *b, jv run, jv units)
{
	jv errored = json_get(run, "errored"), total = json_get(run, "total");

	sbuf_add(b, "\n## Faults (pc-e2e)\n\n");
	jv_array_foreach(errored, i, arm) {
		jv fault = json_get(arm, "fault");
		sbuf_addf(b, "- %s trial %.0f %s: ", json_str(arm, "task_id"),
			  json_number_at(arm, "trial", 0), json_str(arm, "arm"));
		run_account_add_fault(b, fault);
		sbuf_add(b, "\n");
		jv_free(fault);
		jv_free(arm);
	}
	if (jv_get_kind(total) == JV_KIND_OBJECT) {
		run_account_add_counts(b, total);
		sbuf_add(b, "\n");
	}
	if (jv_get_kind(units) == JV_KIND_ARRAY) {
		run_account_add_retries(b, units);
		sbuf_add(b, "\n");
	}
	jv_free(errored);
	jv_free(total);
}

/* ---- spend ---- */

/* Each role's line: its words, with the arm and four figures. */
/* The table is one role a row: clang-format would re-flow it. */
/* clang-format off */
static const struct role_line {
	const char *role, *format;
	const char *figures[4];
} role_lines[] = {
	{ "agent",
	  "- %s agent: %.0f input tokens (%.0f cached), %.0f output, %.0f estimated step(s), ",
	  { "input_tokens", "cached_tokens", "output_tokens", "estimated_steps" } },
	{ "extraction",
	  "- %s extraction: %.0f request(s), %.0f input tokens, %.0f output, %.0f embedding, ",
	  { "requests", "input_tokens", "output_tokens", "embedding_tokens" } },
};
/* clang-format on */

static void add_role(struct sbuf *b, const char *arm, jv spend)
{
	for (size_t i = 0; i < sizeof role_lines / sizeof *role_lines; i++) {
		const struct role_line *r = &role_lines[i];
		jv role = json_get(spend, r->role), usd = json_get(role, "usd");
		sbuf_addf(b, r->format, arm, json_number_at(role, r->figures[0], 0),
			  json_number_at(role, r->figures[1], 0),
			  json_number_at(role, r->figures[2], 0),
			  json_number_at(role, r->figures[3], 0));
		run_account_add_usd(b, usd);
		sbuf_add(b, "\n");
		jv_free(usd), jv_free(role);
	}
}

static void add_spend(struct sbuf *b, jv run, jv budget)
{
	jv spend = json_get(run, "spend"), usd = json_at(run, "total.usd");

	sbuf_add(b, "\n## Spend (pc-e2e)\n\n");
	if (jv_get_kind(spend) == JV_KIND_OBJECT) {
		jv off = json_get(spend, "off"), on = json_get(spend, "on");
		add_role(b, "OFF", off);
		add_role(b, "ON", on);
		sbuf_add(b, "\nTotal: ");
		run_account_add_usd(b, usd);
		sbuf_add(b, "\n");
		jv_free(off), jv_free(on);
	}
	if (jv_get_kind(budget) == JV_KIND_OBJECT) {
		run_account_add_budget(b, budget);
		sbuf_add(b, "\n");
	}
	jv_free(spend);
	jv_free(usd);
}

void run_account_render(struct sbuf *b, jv account, const struct run_account_view *view)
{
	jv run = json_get(account, "run"), units = json_get(account, "units"),
	   budget = json_get(account, "budget");

	if (run_account_has_faults(account))
		view->faults(b, run, units);
	if (run_account_has_spend(account))
		view->spend(b, run, budget);
	jv_free(run), jv_free(units), jv_free(budget);
}

void run_account_add_text(struct sbuf *b, jv account)
{
	static const struct run_account_view text = { .faults = add_faults, .spend = add_spend };

	run_account_render(b, account, &text);
}
