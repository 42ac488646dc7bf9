/* account: a paired arm's account.json (account.h). */
#include "account.h"

#include <math.h>
#include <string.h>

#include "docs_names.h"
#include "json.h"
#include "prices.h"
#include "stage.h"

void accounts_init(struct accounts *a, jv prices)
{
	a->arms = jv_array();
	a->prices = prices;
}

void accounts_free(struct accounts *a)
{
	jv_free(a->arms);
	jv_free(a->prices);
}

void accounts_add(struct accounts *a, const char *dir, jv record, jv observation)
{
	jv fault = json_get(record, "fault");

	if (jv_get_kind(fault) != JV_KIND_OBJECT) {
		jv_free(fault);
		fault = jv_null();
	}
	jv arm = JV_OBJECT(jv_string("dir"), jv_string(dir), jv_string("fault"), fault,
			   jv_string("models"), json_get(record, "extraction_models"),
			   jv_string("observation"), jv_copy(observation));
	a->arms = jv_array_append(a->arms, arm);
}

/* ---- the agent's tokens ---- */

static const char *const step_figures[] = { "input_tokens", "cache_tokens", "output_tokens" };
enum {
	FIGURES = 3
};

/* Element k of a (borrowed) array of numbers. */
static double nth(jv numbers, int k)
{
	jv at = jv_array_get(jv_copy(numbers), k);
	double v = jv_number_value(at);

	jv_free(at);
	return v;
}

/* A step's figure (borrowed), 0 when the host gave none. */
static double figure(jv step, int i)
{
	return json_number_at(step, step_figures[i], 0);
}

static int has_figures(jv step)
{
	jv in = json_get(step, "input_tokens");
	int has = jv_get_kind(in) == JV_KIND_NUMBER;

	jv_free(in);
	return has;
}

/* A step's (borrowed) figures added to its name's in sums and counted in
 * counts, when it has them. */
static void sum_step(jv *sums, jv *counts, jv step)
{
	const char *name = json_str(step, "name");

	if (!name || !has_figures(step))
		return;
	jv sum = jv_object_get(jv_copy(*sums), jv_string(name));
	if (!jv_is_valid(sum))
		sum = JV_ARRAY(jv_number(0), jv_number(0), jv_number(0));
	for (int k = 0; k < FIGURES; k++) {
		double was = nth(sum, k);
		sum = jv_array_set(sum, k, jv_number(was + figure(step, k)));
	}
	*sums = jv_object_set(*sums, jv_string(name), sum);
	double n = json_number_at(*counts, name, 0);
	*counts = jv_object_set(*counts, jv_string(name), jv_number(n + 1));
}

/* Per step name, the mean of each figure over the run's steps that have
 * them (arms borrowed): {name: [input, cached, output]}. */
static jv step_means(jv arms)
{
	jv sums = jv_object(), counts = jv_object();

	jv_array_foreach(arms, i, arm) {
		jv steps = json_at(arm, "observation.steps");
		jv_array_foreach(steps, j, step) {
			sum_step(&sums, &counts, step);
			jv_free(step);
		}
		jv_free(steps);
		jv_free(arm);
	}
	jv means = jv_object();
	jv_object_foreach(sums, name, sum) {
		double n = json_number_at(counts, jv_string_value(name), 1);
		jv mean = jv_array();
		for (int k = 0; k < FIGURES; k++)
			mean = jv_array_append(mean, jv_number(round(nth(sum, k) / n)));
		means = jv_object_set(means, name, mean);
		jv_free(sum);
	}
	jv_free(sums);
	jv_free(counts);
	return means;
}

/* USD for the tokens at model's price (a model the record does not name
 * is any model: the "*" row's), or null without a table or a price;
 * nothing spent costs 0 whatever the model. */
static jv usd(jv prices, jv model, double input, double cached, double output)
{
	struct price p;

	if (jv_get_kind(prices) != JV_KIND_OBJECT)
		return jv_null();
	if (input == 0 && output == 0)
		return jv_number(0);
	int named = jv_get_kind(model) == JV_KIND_STRING;
	if (prices_of(prices, named ? jv_string_value(model) : PRICES_ANY, &p))
		return jv_null();
	return jv_number(prices_cost(&p, input, cached, output));
}

/* The agent's spend over the observation's (borrowed) steps: an errored
 * arm's step without figures counts as the run's mean for its name. */
static jv agent_spend(jv observation, jv means, jv prices)
{
	jv steps = json_get(observation, "steps");
	const char *outcome = json_str(observation, "outcome");
	int errored = outcome && !strcmp(outcome, "error"), estimated = 0;
	double sum[FIGURES] = { 0 };

	jv_array_foreach(steps, i, step) {
		if (has_figures(step))
			for (int k = 0; k < FIGURES; k++)
				sum[k] += figure(step, k);
		else if (errored) {
			const char *name = json_str(step, "name");
			jv mean = jv_invalid();
			if (name)
				mean = jv_object_get(jv_copy(means), jv_string(name));
			for (int k = 0; k < FIGURES && jv_is_valid(mean); k++)
				sum[k] += nth(mean, k);
			jv_free(mean);
			estimated++;
		}
		jv_free(step);
	}
	jv_free(steps);
	jv model = json_at(observation, "environment.agent_model");
	jv cost = usd(prices, model, sum[0], sum[1], sum[2]);
	jv out = JV_OBJECT(jv_string("model"), model, jv_string("input_tokens"), jv_number(sum[0]),
			   jv_string("cached_tokens"), jv_number(sum[1]),
			   jv_string("output_tokens"), jv_number(sum[2]));
	out = jv_object_set(out, jv_string("estimated_steps"), jv_number(estimated));
	return jv_object_set(out, jv_string("usd"), cost);
}

/* ---- the Server's extraction ---- */

/* What the Server's extraction spent for the arm: its Scope's usage
 * totals, which its last session snapshot holds (none for an OFF arm). */
static jv extraction_spend(jv arm, jv prices)
{
	jv sessions = json_at(arm, "observation.sessions");
	int n = jv_get_kind(sessions) == JV_KIND_ARRAY ? jv_array_length(jv_copy(sessions)) : 0;
	jv last = n ? jv_array_get(jv_copy(sessions), n - 1) : jv_object();
	jv models = json_get(arm, "models");
	jv model = json_get(models, "generation"), embedding = json_get(models, "embedding");
	double requests = json_number_at(last, "generation_requests", 0),
	       in = json_number_at(last, "generation_input_tokens", 0),
	       out = json_number_at(last, "generation_output_tokens", 0),
	       embedded = json_number_at(last, "embedding_input_tokens", 0);
	jv cost = usd(prices, model, in, 0, out);
	jv embedding_cost = usd(prices, embedding, embedded, 0, 0);

	if (jv_get_kind(cost) == JV_KIND_NUMBER && jv_get_kind(embedding_cost) == JV_KIND_NUMBER)
		cost = jv_number(jv_number_value(cost) + jv_number_value(embedding_cost));
	else
		jv_free(cost), cost = jv_null();
	jv_free(embedding_cost);
	jv_free(last);
	jv_free(sessions);
	jv_free(models);
	if (jv_get_kind(model) != JV_KIND_STRING)
		jv_free(model), model = jv_null();
	if (jv_get_kind(embedding) != JV_KIND_STRING)
		jv_free(embedding), embedding = jv_null();
	jv spend = JV_OBJECT(jv_string("model"), model, jv_string("embedding_model"), embedding,
			     jv_string("requests"), jv_number(requests), jv_string("input_tokens"),
			     jv_number(in), jv_string("output_tokens"), jv_number(out));
	spend = jv_object_set(spend, jv_string("embedding_tokens"), jv_number(embedded));
	return jv_object_set(spend, jv_string("usd"), cost);
}

static jv account_of(jv arm, jv means, jv prices)
{
	jv o = json_get(arm, "observation");
	jv agent = agent_spend(o, means, prices), extraction = extraction_spend(arm, prices);
	jv a = json_get(agent, "usd"), x = json_get(extraction, "usd");
	jv total = jv_get_kind(a) == JV_KIND_NUMBER && jv_get_kind(x) == JV_KIND_NUMBER
			   ? jv_number(jv_number_value(a) + jv_number_value(x))
			   : jv_null();
	jv account = JV_OBJECT(
		jv_string("schema"), jv_string(SCHEMA_PAIRED_ACCOUNT), jv_string("run_id"),
		json_get(o, "run_id"), jv_string("task_id"), json_get(o, "task_id"),
		jv_string("trial"), json_get(o, "trial"), jv_string("arm"), json_get(o, "arm"),
		jv_string("fault"), json_get(arm, "fault"), jv_string("spend"),
		JV_OBJECT(jv_string("agent"), agent, jv_string("extraction"), extraction,
			  jv_string("usd"), total));
	jv_free(a);
	jv_free(x);
	jv_free(o);
	return account;
}

int accounts_write(const struct accounts *a, const char *outdir, const struct redactor *red,
		   struct pc_err *e)
{
	jv means = step_means(a->arms);
	int rc = 0;

	jv_array_foreach(a->arms, i, arm) {
		if (!rc)
			rc = stage_write_artifact(outdir, json_str(arm, "dir"), "account.json", red,
						  account_of(arm, means, a->prices), e);
		jv_free(arm);
	}
	jv_free(means);
	return rc;
}
