/* paired: the OFF/ON comparison's report (paired.h). */
#include <stdlib.h>
#include <string.h>

#include "docs_names.h"
#include "json.h"
#include "paired.h"
#include "stats.h"
#include "text.h"

/* The score of an outcome that counts toward the success rate, or -1. */
static int outcome_score(const char *outcome)
{
	if (!strcmp(outcome, "passed"))
		return 1;
	return !strcmp(outcome, "failed") || !strcmp(outcome, "timeout") ? 0 : -1;
}

static int scored(jv observation)
{
	return outcome_score(json_str(observation, "outcome")) >= 0;
}

/* ---- numbers ---- */

/* The doubles of values (borrowed), nulls left out; *n their count. */
static double *known_numbers(jv values, size_t *n)
{
	double *out = pc_xmalloc(((size_t)jv_array_length(jv_copy(values)) + 1) * sizeof *out);

	*n = 0;
	jv_array_foreach(values, i, v) {
		if (jv_get_kind(v) == JV_KIND_NUMBER)
			out[(*n)++] = jv_number_value(v);
		jv_free(v);
	}
	return out;
}

static jv interval(struct stats_interval i)
{
	return JV_OBJECT(jv_string("low"), jv_number(i.low), jv_string("high"), jv_number(i.high));
}

/* {runs, mean, min, max} of the known values (consumed), or null. */
static jv metric(jv values)
{
	size_t n;
	double *v = known_numbers(values, &n), lo = 0, hi = 0;
	jv out = jv_null();

	for (size_t k = 0; k < n; k++) {
		lo = k == 0 || v[k] < lo ? v[k] : lo;
		hi = k == 0 || v[k] > hi ? v[k] : hi;
	}
	if (n > 0)
		out = JV_OBJECT(jv_string("runs"), jv_number((double)n),
				jv_string("mean"), jv_number(stats_fmean(v, n)),
				jv_string("min"), jv_number(lo), jv_string("max"), jv_number(hi));
	free(v);
	jv_free(values);
	return out;
}

static jv fmean_of(jv values)
{
	size_t n;
	double *v = known_numbers(values, &n);
	jv out = n ? jv_number(stats_fmean(v, n)) : jv_null();

	free(v);
	jv_free(values);
	return out;
}

/* ---- one arm ---- */

/* Each of the steps (borrowed) named name: their field key, in order. */
static jv step_values(jv steps, const char *name, const char *key)
{
	jv out = jv_array();

	jv_array_foreach(steps, i, step) {
		if (!strcmp(json_str(step, "name"), name))
			out = jv_array_append(out, json_get(step, key));
		jv_free(step);
	}
	return out;
}

/* Per step name, first seen first, over the scored runs' steps (borrowed). */
static jv step_summaries(jv steps)
{
	static const char *const metrics[] = { "seconds", "input_tokens", "cache_tokens",
					       "output_tokens", "cost_usd" };
	jv out = jv_object();

	jv_array_foreach(steps, i, step) {
		const char *name = json_str(step, "name");
		if (!jv_object_has(jv_copy(out), jv_string(name))) {
			jv names = step_values(steps, name, "name");
			jv summary = JV_OBJECT(jv_string("runs"),
					       jv_number(jv_array_length(names)));
			for (size_t m = 0; m < sizeof metrics / sizeof *metrics; m++)
				summary = jv_object_set(summary, jv_string(metrics[m]),
							metric(step_values(steps, name,
									   metrics[m])));
			out = jv_object_set(out, jv_string(name), summary);
		}
		jv_free(step);
	}
	return out;
}

/* Of each scored run (borrowed) with snapshots, the last session's. */
static jv final_snapshots(jv runs)
{
	jv out = jv_array();

	jv_array_foreach(runs, i, run) {
		jv sessions = json_get(run, "sessions"), last = jv_invalid();
		jv_array_foreach(sessions, j, s) {
			if (!jv_is_valid(last) ||
			    json_number_at(s, "session", 0) > json_number_at(last, "session", 0)) {
				jv_free(last);
				last = jv_copy(s);
			}
			jv_free(s);
		}
		if (jv_is_valid(last))
			out = jv_array_append(out, last);
		else
			jv_free(last);
		jv_free(sessions);
		jv_free(run);
	}
	return out;
}

static jv snapshot_values(jv finals, const char *key)
{
	jv out = jv_array();

	jv_array_foreach(finals, i, s) {
		out = jv_array_append(out, json_get(s, key));
		jv_free(s);
	}
	return out;
}

static jv server_usage(jv runs)
{
	jv finals = final_snapshots(runs);
	int n = jv_array_length(jv_copy(finals));
	jv out = jv_null();

	if (n > 0)
		out = JV_OBJECT(
			jv_string("runs"), jv_number(n),
			jv_string("generation_requests"),
			fmean_of(snapshot_values(finals, "generation_requests")),
			jv_string("generation_input_tokens"),
			metric(snapshot_values(finals, "generation_input_tokens")),
			jv_string("generation_output_tokens"),
			metric(snapshot_values(finals, "generation_output_tokens")),
			jv_string("embedding_requests"),
			fmean_of(snapshot_values(finals, "embedding_requests")),
			jv_string("embedding_input_tokens"),
			metric(snapshot_values(finals, "embedding_input_tokens")),
			jv_string("recalled_tokens"),
			fmean_of(snapshot_values(finals, "recalled_tokens")));
	jv_free(finals);
	return out;
}

static int count_outcome(jv observations, const char *outcome)
{
	int n = 0;

	jv_array_foreach(observations, i, o) {
		n += !strcmp(json_str(o, "outcome"), outcome);
		jv_free(o);
	}
	return n;
}

/* The arm's observations (consumed); the figures cover its scored runs. */
static jv arm_summary(jv observations)
{
	jv runs = jv_array(), steps = jv_array();
	int passed = count_outcome(observations, "passed");

	jv_array_foreach(observations, i, o) {
		if (scored(o)) {
			jv own = json_get(o, "steps");
			jv_array_foreach(own, j, step) {
				steps = jv_array_append(steps, step);
			}
			jv_free(own);
			runs = jv_array_append(runs, o);
		} else
			jv_free(o);
	}
	int n = jv_array_length(jv_copy(runs));
	jv out = JV_OBJECT(
		jv_string("scored"), jv_number(n),
		jv_string("passed"), jv_number(passed),
		jv_string("timeouts"), jv_number(count_outcome(observations, "timeout")),
		jv_string("errors"), jv_number(count_outcome(observations, "error")),
		jv_string("integration_failures"),
		jv_number(count_outcome(observations, "integration_failed")),
		jv_string("cross_scope_accesses"),
		jv_number(count_outcome(observations, "cross_scope_access")),
		jv_string("success_rate"), n ? jv_number((double)passed / n) : jv_null(),
		jv_string("success_rate_interval"),
		n ? interval(stats_wilson(passed, n)) : jv_null());
	out = jv_object_set(out, jv_string("steps"), step_summaries(steps));
	out = jv_object_set(out, jv_string("server"), server_usage(runs));
	jv_free(steps);
	jv_free(runs);
	jv_free(observations);
	return out;
}

/* ---- a summary ---- */

/* The observations (consumed) whose string field key is value. */
static jv with_field(jv observations, const char *key, const char *value)
{
	jv out = jv_array();

	jv_array_foreach(observations, i, o) {
		if (!strcmp(json_str(o, key), value))
			out = jv_array_append(out, o);
		else
			jv_free(o);
	}
	jv_free(observations);
	return out;
}

/* The score of (task, trial, arm) among the observations, the last one
 * recorded winning, or -1 when none was scored. */
static int score_of(jv observations, const char *task, double trial, const char *arm)
{
	int score = -1;

	jv_array_foreach(observations, i, o) {
		int s = outcome_score(json_str(o, "outcome"));
		if (s >= 0 && !strcmp(json_str(o, "task_id"), task) &&
		    json_number_at(o, "trial", 0) == trial && !strcmp(json_str(o, "arm"), arm))
			score = s;
		jv_free(o);
	}
	return score;
}

/* ON minus OFF per (task, trial), first seen first, where both were scored. */
static double *deltas_of(jv observations, size_t *n)
{
	jv seen = jv_object();
	double *deltas = pc_xmalloc(((size_t)jv_array_length(jv_copy(observations)) + 1) *
				    sizeof *deltas);

	*n = 0;
	jv_array_foreach(observations, i, o) {
		const char *task = json_str(o, "task_id");
		double trial = json_number_at(o, "trial", 0);
		char *key = text_fmt("%s\n%.0f", task, trial);
		if (!jv_object_has(jv_copy(seen), jv_string(key))) {
			seen = jv_object_set(seen, jv_string(key), jv_true());
			int on = score_of(observations, task, trial, "on");
			int off = score_of(observations, task, trial, "off");
			if (on >= 0 && off >= 0)
				deltas[(*n)++] = on - off;
		}
		free(key);
		jv_free(o);
	}
	jv_free(seen);
	return deltas;
}

static jv summary(jv observations)
{
	size_t n, better[3] = { 0 };
	double *deltas = deltas_of(observations, &n);

	for (size_t k = 0; k < n; k++)
		better[deltas[k] > 0 ? 0 : deltas[k] < 0 ? 1
							 : 2]++;
	jv out = JV_OBJECT(
		jv_string("off"), arm_summary(with_field(jv_copy(observations), "arm", "off")),
		jv_string("on"), arm_summary(with_field(jv_copy(observations), "arm", "on")),
		jv_string("pairs"), jv_number((double)n),
		jv_string("mean_delta"), n ? jv_number(stats_fmean(deltas, n)) : jv_null(),
		jv_string("delta_interval"),
		n ? interval(stats_bootstrap_mean(deltas, n)) : jv_null(),
		jv_string("on_better"), jv_number((double)better[0]),
		jv_string("off_better"), jv_number((double)better[1]),
		jv_string("tied"), jv_number((double)better[2]));
	free(deltas);
	jv_free(observations);
	return out;
}

/* ---- the report ---- */

/* The workload ids of the observations (consumed), first seen first. */
static jv task_ids(jv observations)
{
	jv ids = jv_array(), seen = jv_object();

	jv_array_foreach(observations, i, o) {
		jv id = json_get(o, "task_id");
		if (!jv_object_has(jv_copy(seen), jv_copy(id))) {
			seen = jv_object_set(seen, jv_copy(id), jv_true());
			ids = jv_array_append(ids, jv_copy(id));
		}
		jv_free(id);
		jv_free(o);
	}
	jv_free(seen);
	jv_free(observations);
	return ids;
}

static jv agent_of(jv observations)
{
	jv first = jv_array_get(jv_copy(observations), 0);
	jv env = json_get(first, "environment");
	jv out = JV_OBJECT(jv_string("host"), json_get(env, "adapter"),
			   jv_string("version"), json_get(env, "adapter_version"),
			   jv_string("model"), json_get(env, "agent_model"),
			   jv_string("settings"), json_get(env, "agent_settings"));

	jv_free(env);
	jv_free(first);
	return out;
}

jv paired_summarize(jv observations, int trials, const char *prefix)
{
	jv ids = task_ids(jv_copy(observations)), tasks = jv_array();
	jv agent = agent_of(observations);
	struct sbuf experiment = { 0 };

	sbuf_addf(&experiment, "%s:paired:%s:", prefix, json_str(agent, "host"));
	jv_array_foreach(ids, i, id) {
		const char *task_id = jv_string_value(id);
		sbuf_addf(&experiment, "%s%s", i ? "," : "", task_id);
		jv task = summary(with_field(jv_copy(observations), "task_id", task_id));
		tasks = jv_array_append(tasks, jv_object_set(task, jv_string("task_id"), id));
	}
	char *name = sbuf_take(&experiment);
	jv report = JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_PAIRED_REPORT),
			      jv_string("experiment"), jv_string(name),
			      jv_string("agent"), agent,
			      jv_string("trials"), jv_number(trials),
			      jv_string("tasks"), tasks,
			      jv_string("total"), summary(observations));
	free(name);
	jv_free(ids);
	return report;
}
