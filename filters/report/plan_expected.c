/* plan_expected: a planned run's spend and time from a pilot's
 * (plan_expected.h). */
#include "plan_expected.h"

#include <math.h>
#include <stdlib.h>

#include "json.h"
#include "run_account.h"

double plan_places4(double x)
{
	return round(x * 1e4) / 1e4;
}

/* A figure of the pilot's spend summed over its two arms, per unit; -1
 * when either arm's is unknown. */
static double per_unit(jv spend, const char *role_figure, int units)
{
	double sum = 0;

	for (int i = 0; i < 2; i++) {
		char *path = text_fmt("%s.%s", i ? "on" : "off", role_figure);
		jv v = json_at(spend, path);
		double x = jv_get_kind(v) == JV_KIND_NUMBER ? jv_number_value(v) : -1;
		jv_free(v);
		free(path);
		if (x < 0)
			return -1;
		sum += x;
	}
	return sum / units;
}

/* A number at a dotted path of doc (borrowed), -1 when it is not one. */
static double number_or_unknown(jv doc, const char *path)
{
	jv v = json_at(doc, path);
	double x = jv_get_kind(v) == JV_KIND_NUMBER ? jv_number_value(v) : -1;

	jv_free(v);
	return x;
}

int plan_pilot_load(const char *dir, struct plan_pilot_unit *u, struct pc_err *e)
{
	jv account;

	*u = (struct plan_pilot_unit){ 0 };
	if (run_account_load(dir, &account, e) != 0)
		return -1;
	jv run = json_get(account, "run"), spend = json_get(run, "spend");
	int units = (int)json_number_at(run, "units.count", 0);
	if (units > 0) {
		u->units = units;
		u->agent_input = per_unit(spend, "agent.input_tokens", units);
		u->agent_cached = per_unit(spend, "agent.cached_tokens", units);
		u->agent_output = per_unit(spend, "agent.output_tokens", units);
		u->extraction_input = per_unit(spend, "extraction.input_tokens", units);
		u->extraction_output = per_unit(spend, "extraction.output_tokens", units);
		u->usd = number_or_unknown(run, "total.usd");
		u->usd = u->usd < 0 ? -1 : u->usd / units;
		u->seconds = number_or_unknown(run, "units.seconds");
		u->seconds = u->seconds < 0 ? -1 : u->seconds / units;
		u->longest_seconds = number_or_unknown(run, "units.longest_seconds");
	}
	jv_free(spend), jv_free(run), jv_free(account);
	return 0;
}

/* x times units, or null when x is unknown. */
static jv scaled(double x, long long units)
{
	return x < 0 ? jv_null() : jv_number(plan_places4(x * (double)units));
}

static double wall_seconds(const struct plan_pilot_unit *u, long long units, int nodes)
{
	double wall = u->seconds * (double)units / nodes;

	return wall > u->longest_seconds ? wall : u->longest_seconds;
}

jv plan_expected_json(const struct plan_pilot_unit *u, long long units, int nodes)
{
	if (!u || !u->units)
		return jv_null();
	jv agent = JV_OBJECT(jv_string("input"), scaled(u->agent_input, units),
			     jv_string("cached"), scaled(u->agent_cached, units),
			     jv_string("output"), scaled(u->agent_output, units));
	jv extraction = JV_OBJECT(jv_string("input"), scaled(u->extraction_input, units),
				  jv_string("output"), scaled(u->extraction_output, units));
	jv e = JV_OBJECT(jv_string("units"), jv_number((double)units), jv_string("tokens"),
			 JV_OBJECT(jv_string("agent"), agent, jv_string("extraction"), extraction));
	e = jv_object_set(e, jv_string("usd"), scaled(u->usd, units));
	e = jv_object_set(e, jv_string("unit_seconds"), scaled(u->seconds, 1));
	e = jv_object_set(e, jv_string("wall_seconds"),
			  u->seconds < 0 ? jv_null()
					 : jv_number(plan_places4(wall_seconds(u, units, nodes))));
	return e;
}

/* Seconds in the unit a reader plans with. */
static void add_duration(struct sbuf *b, double seconds)
{
	if (seconds < 120)
		sbuf_addf(b, "%.0f s", seconds);
	else if (seconds < 7200)
		sbuf_addf(b, "%.0f min", seconds / 60);
	else
		sbuf_addf(b, "%.1f h", seconds / 3600);
}

/* A token count in words, or "?" when unknown. */
static void add_tokens(struct sbuf *b, double per_unit, long long units, const char *what)
{
	if (per_unit < 0)
		sbuf_addf(b, "? %s", what);
	else
		sbuf_addf(b, "%.0f %s", per_unit * (double)units, what);
}

void plan_expected_text(struct sbuf *b, const char *label, const struct plan_pilot_unit *u,
			long long units, int nodes)
{
	sbuf_addf(b, "%s (%lld units): ", label, units);
	if (!u || !u->units) {
		sbuf_add(b, "unknown: a pilot run's paired-run.json (REPLAY=DIR) gives them\n");
		return;
	}
	sbuf_add(b, "agent ");
	add_tokens(b, u->agent_input, units, "input tokens (");
	add_tokens(b, u->agent_cached, units, "cached), ");
	add_tokens(b, u->agent_output, units, "output; extraction ");
	add_tokens(b, u->extraction_input, units, "input, ");
	add_tokens(b, u->extraction_output, units, "output; ");
	if (u->usd < 0)
		sbuf_add(b, "cost unknown (the pilot ran without PRICES); ");
	else
		sbuf_addf(b, "$%.4f; ", u->usd * (double)units);
	if (u->seconds < 0) {
		sbuf_add(b, "wall time unknown\n");
		return;
	}
	sbuf_add(b, "wall ");
	add_duration(b, wall_seconds(u, units, nodes));
	sbuf_addf(b, " on %d node(s), ", nodes);
	add_duration(b, u->seconds);
	sbuf_add(b, " a unit (the arms' own time)\n");
}
