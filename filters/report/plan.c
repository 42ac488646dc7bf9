/* plan: a paired comparison's plan and detectable effect (plan.h). */
#include <stdlib.h>

#include "json.h"
#include "json_out.h"
#include "plan.h"
#include "plan_expected.h"
#include "sign_power.h"

struct plan_sample plan_sample_of(jv report)
{
	struct plan_sample s = { 0, 0, 0, (int)json_number_at(report, "trials", 1) };
	jv tasks = json_get(report, "tasks");

	jv_array_foreach(tasks, i, task) {
		double delta = json_number_at(task, "mean_delta", 0);
		if (json_number_at(task, "pairs", 0) > 0) {
			s.scored++;
			s.helped += delta > 0;
			s.hurt += delta < 0;
		}
		jv_free(task);
	}
	jv_free(tasks);
	return s;
}

/* The figures of a plan: every one a plan prints comes from here. */
struct plan_figures {
	double power, on_better, power_at_needed, detectable;
	int needed, needed_first;
};

static struct plan_figures figures_of(const struct plan_request *r)
{
	struct plan_figures f = { 0 };

	f.power = plan_places4(sign_power(r->workloads, r->help, r->hurt, &f.on_better));
	f.on_better = plan_places4(f.on_better);
	f.needed = sign_workloads_needed(r->help, r->hurt, SIGN_TARGET_POWER, &f.needed_first);
	if (f.needed)
		f.power_at_needed = plan_places4(sign_power(f.needed, r->help, r->hurt, NULL));
	f.detectable = sign_detectable(r->workloads, r->help + r->hurt, SIGN_TARGET_POWER);
	if (f.detectable >= 0)
		f.detectable = plan_places4(f.detectable);
	return f;
}

static void add_key_number(struct json_out *o, const char *key, double x, int *members)
{
	json_out_key(o, key, members);
	json_out_number(o, x);
}

/* x, or null when absent says there is none. */
static void add_key_or_null(struct json_out *o, const char *key, double x, int absent,
			    int *members)
{
	json_out_key(o, key, members);
	if (absent)
		json_out_bytes(o, "null", 4);
	else
		json_out_number(o, x);
}

static void add_json(struct sbuf *b, const struct plan_request *r, const struct plan_figures *f)
{
	struct json_out o = { 0 };
	int m = 0, sm = 0;

	json_out_bytes(&o, "{", 1);
	add_key_number(&o, "alpha", SIGN_ALPHA, &m);
	add_key_number(&o, "target_power", SIGN_TARGET_POWER, &m);
	json_out_key(&o, "test", &m);
	json_out_cstring(&o, "exact two-sided sign test over workloads");
	json_out_key(&o, "source", &m);
	json_out_bytes(&o, "{", 1);
	json_out_key(&o, "kind", &sm);
	json_out_cstring(&o, r->pilot ? "pilot" : "rates");
	if (r->pilot) {
		add_key_number(&o, "workloads", r->pilot->scored, &sm);
		add_key_number(&o, "helped", r->pilot->helped, &sm);
		add_key_number(&o, "hurt", r->pilot->hurt, &sm);
		add_key_number(&o, "tied", r->pilot->scored - r->pilot->helped - r->pilot->hurt,
			       &sm);
	}
	json_out_bytes(&o, "}", 1);
	add_key_number(&o, "help", r->help, &m);
	add_key_number(&o, "hurt", r->hurt, &m);
	add_key_number(&o, "discordance", r->help + r->hurt, &m);
	add_key_number(&o, "workloads", r->workloads, &m);
	add_key_number(&o, "trials", r->trials, &m);
	add_key_number(&o, "nodes", r->nodes, &m);
	add_key_number(&o, "units", (double)r->workloads * r->trials, &m);
	add_key_number(&o, "power", f->power, &m);
	add_key_number(&o, "power_on_better", f->on_better, &m);
	add_key_or_null(&o, "workloads_needed", f->needed, !f->needed, &m);
	add_key_or_null(&o, "workloads_needed_first", f->needed_first, !f->needed, &m);
	add_key_or_null(&o, "power_at_needed", f->power_at_needed, !f->needed, &m);
	add_key_or_null(&o, "detectable_net_gain", f->detectable, f->detectable < 0, &m);
	long long units = (long long)r->workloads * r->trials;
	jv now = plan_expected_json(r->pilot_unit, units, r->nodes);
	jv needed = plan_expected_json(f->needed ? r->pilot_unit : NULL,
				       (long long)f->needed * r->trials, r->nodes);
	json_out_key(&o, "expected", &m);
	json_out_value(&o, now, JSON_COMPACT);
	json_out_key(&o, "expected_at_needed", &m);
	json_out_value(&o, needed, JSON_COMPACT);
	jv_free(now), jv_free(needed);
	json_out_bytes(&o, "}\n", 2);
	sbuf_addn(b, o.text, o.len);
	json_out_free(&o);
}

/* Why no workload count reaches the power, in words. */
static void add_no_plan(struct sbuf *b, const struct plan_request *r)
{
	if (r->help == r->hurt)
		sbuf_add(b, "none: help and hurt are equal, so there is no difference to detect\n");
	else
		sbuf_addf(b, "none up to %d workloads: the effect is too small to plan for\n",
			  SIGN_WORKLOADS_CAP);
}

static void add_text(struct sbuf *b, const struct plan_request *r, const struct plan_figures *f)
{
	sbuf_addf(b, "Plan: exact two-sided sign test over workloads at %g, %g %% power\n",
		  SIGN_ALPHA, SIGN_TARGET_POWER * 100);
	sbuf_addf(b, "Rates per workload at %d trial(s) per arm: help %.4g, hurt %.4g", r->trials,
		  r->help, r->hurt);
	if (r->pilot)
		sbuf_addf(b, " (a pilot's %d scored workloads: %d helped, %d hurt)",
			  r->pilot->scored, r->pilot->helped, r->pilot->hurt);
	sbuf_add(b, "\n");
	if (r->pilot && r->pilot->scored < 10)
		sbuf_add(b, "Warning: under 10 pilot workloads, the rates are rough\n");
	sbuf_addf(b, "Power with %d workloads: %.4f (ON better %.4f)\n", r->workloads, f->power,
		  f->on_better);
	sbuf_add(b, "Workloads for 80 % power: ");
	if (!f->needed)
		add_no_plan(b, r);
	else
		sbuf_addf(b, "%d (power %.4f; first reached at %d)\n", f->needed,
			  f->power_at_needed, f->needed_first);
	sbuf_addf(b, "Units: %d workloads x %d trial(s) = %lld\n", r->workloads, r->trials,
		  (long long)r->workloads * r->trials);
	sbuf_add(b, "Another trial count changes the rates: plan it from a pilot at that count\n");
	if (f->detectable >= 0)
		sbuf_addf(b, "Detectable with %d workloads: a net gain of %.4f or more\n",
			  r->workloads, f->detectable);
	char *label = text_fmt("Expected with %d workloads", r->workloads);
	plan_expected_text(b, label, r->pilot_unit, (long long)r->workloads * r->trials, r->nodes);
	free(label);
	if (f->needed && r->pilot_unit && r->pilot_unit->units) {
		label = text_fmt("Expected with the %d needed", f->needed);
		plan_expected_text(b, label, r->pilot_unit, (long long)f->needed * r->trials,
				   r->nodes);
		free(label);
	}
}

void plan_add(struct sbuf *b, const struct plan_request *r, int json)
{
	struct plan_figures f = figures_of(r);

	if (json)
		add_json(b, r, &f);
	else
		add_text(b, r, &f);
}

void plan_add_detectable(struct sbuf *b, const struct plan_sample *s)
{
	double d = s->scored ? (double)(s->helped + s->hurt) / s->scored : 0;

	sbuf_addf(b, "Detectable: %d workload%s, %.0f %% discordant: ", s->scored,
		  s->scored == 1 ? "" : "s", d * 100);
	if (d == 0) {
		sbuf_add(b, "none: no discordant workload");
	} else {
		double delta = sign_detectable(s->scored, d, SIGN_TARGET_POWER);
		const char *none = "none: even with every discordant workload one way, power is";
		if (delta < 0)
			sbuf_addf(b, "%s %.2f", none, sign_power(s->scored, d, 0, NULL));
		else
			sbuf_addf(b, "80 %% power only for a net gain of %.2f or more", delta);
	}
	sbuf_addf(b, " (exact sign test over workloads, %g).\n", SIGN_ALPHA);
}
