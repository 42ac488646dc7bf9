/* observe: a paired arm's observation (observe.h). */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "docs.h"
#include "json.h"
#include "observe.h"

/* ---- steps ---- */

/* Each step's own reward ("reward" of its verifier's rewards), by name:
 * the trial's reward can average in the earlier sessions' unrelated jobs. */
static jv step_rewards(jv steps)
{
	jv out = jv_object();

	jv_array_foreach(steps, i, step) {
		jv name = json_get(step, "step_name");
		jv reward = json_at(step, "verifier_result.rewards.reward");
		if (jv_get_kind(name) == JV_KIND_STRING && jv_get_kind(reward) == JV_KIND_NUMBER)
			out = jv_object_set(out, name, reward);
		else
			jv_free(name), jv_free(reward);
		jv_free(step);
	}
	return out;
}

/* The agent's time in a step: its execution's end minus its start, never
 * below 0; null when either is missing. */
static jv agent_seconds(jv timing)
{
	jv started = json_get(timing, "started_at"), finished = json_get(timing, "finished_at");
	long long a, b;
	jv out = jv_null();

	if (jv_get_kind(started) == JV_KIND_STRING && jv_get_kind(finished) == JV_KIND_STRING &&
	    clock_parse_us(jv_string_value(started), &a) == 0 &&
	    clock_parse_us(jv_string_value(finished), &b) == 0)
		out = jv_number(b > a ? (double)(b - a) / 1e6 : 0.0);
	jv_free(started);
	jv_free(finished);
	return out;
}

/* A figure of the agent's own (borrowed), null when the host gave none. */
static jv usage_figure(jv agent_result, const char *key)
{
	jv v = json_get(agent_result, key);

	if (jv_get_kind(v) == JV_KIND_NUMBER)
		return v;
	jv_free(v);
	return jv_null();
}

static jv step_observation(const char *name, jv agent_result, jv timing)
{
	jv in = usage_figure(agent_result, "n_input_tokens");
	jv cached = usage_figure(agent_result, "n_cache_tokens");
	jv out_tokens = usage_figure(agent_result, "n_output_tokens");
	jv out = JV_OBJECT(jv_string("name"), jv_string(name),
			   jv_string("seconds"), agent_seconds(timing),
			   jv_string("input_tokens"), in,
			   jv_string("cache_tokens"), cached,
			   jv_string("output_tokens"), out_tokens,
			   jv_string("cost_usd"), usage_figure(agent_result, "cost_usd"));

	jv_free(agent_result);
	jv_free(timing);
	return out;
}

/* Every step's agent figures; a trial without steps reports its one
 * session as the step "task", when it had one. */
static jv step_observations(jv steps, jv result)
{
	jv out = jv_array();

	jv_array_foreach(steps, i, step) {
		jv name = json_get(step, "step_name");
		jv agent = json_get(step, "agent_result");
		jv timing = json_get(step, "agent_execution");
		if (jv_get_kind(name) == JV_KIND_STRING)
			out = jv_array_append(
				out, step_observation(jv_string_value(name), agent, timing));
		else
			jv_free(agent), jv_free(timing);
		jv_free(name);
		jv_free(step);
	}
	if (jv_array_length(jv_copy(out)) > 0)
		return out;
	jv agent = json_get(result, "agent_result"), timing = json_get(result, "agent_execution");
	if (jv_get_kind(agent) == JV_KIND_OBJECT || jv_get_kind(timing) == JV_KIND_OBJECT)
		return jv_array_append(out, step_observation("task", agent, timing));
	jv_free(agent);
	jv_free(timing);
	return out;
}

/* ---- the treatment and the audit ---- */

/* 1.4.1's words, which its reports and readers match */
#define NO_SOURCES        "No Sources were captured before the recall session"
#define NO_SOURCES_SINGLE "No Sources were captured during the session"
#define NOT_ASKED         "PowerContext was not asked for context during the recall session"
#define NOT_ASKED_SINGLE  "PowerContext was not asked for context during the session"

static int snapshot_of(jv sessions, int session, jv *out)
{
	jv_array_foreach(sessions, i, s) {
		if (json_number_at(s, "session", -1) == session) {
			*out = s;
			return 1;
		}
		jv_free(s);
	}
	return 0;
}

/* Why an ON arm did not get PowerContext's treatment: Sources captured
 * before the scored session (in it, for a single session), and context
 * asked for during it.  Whether Memory came of them is PowerContext's own
 * behaviour, not the treatment. */
static jv treatment_failures(jv sessions, int scored)
{
	jv recall = jv_null(), before = jv_null(), out = jv_array();
	int has_recall = snapshot_of(sessions, scored, &recall);
	int has_before = scored > 0 && snapshot_of(sessions, scored - 1, &before);

	if (!has_recall || (scored > 0 && !has_before))
		out = jv_array_append(out,
				      jv_string("The Server was not observed after every session"));
	else {
		int single = scored == 0;
		double captured = json_number_at(single ? recall : before, "sources", 0);
		double asked = json_number_at(recall, "preparations", 0) -
			       (single ? 0 : json_number_at(before, "preparations", 0));
		if (captured == 0)
			out = jv_array_append(out,
					      jv_string(single ? NO_SOURCES_SINGLE : NO_SOURCES));
		if (asked <= 0)
			out = jv_array_append(out,
					      jv_string(single ? NOT_ASKED_SINGLE : NOT_ASKED));
	}
	jv_free(recall);
	jv_free(before);
	return out;
}

static int in_set(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

/* Whether the Server let the arm read another Scope: an allowed request,
 * not rejected, on another Scope that returns its content, or a Server-wide
 * one that returns Scopes' content. */
static int reached_another_scope(jv outside)
{
	static const char *const server_wide_content[] = { "get_handoff_report", NULL };
	static const char *const contentless[] = {
		"get_scope", "get_stats", "resolve_scope_selection", "flush_memory",
		/* the Access API: decisions, roles, bindings, audit records */
		"get_access_principal", "check_access", "list_access_resources",
		"list_access_roles", "list_access_bindings", "create_access_binding",
		"revoke_access_binding", "replace_access_binding", "list_access_audit", NULL
	};
	int reached = 0;

	jv_array_foreach(outside, i, ev) {
		jv scope = json_get(ev, "scope_id");
		const char *op = json_str(ev, "operation");
		if (json_has_true(ev, "allowed") && !json_has_true(ev, "request_rejected"))
			reached = reached || (jv_get_kind(scope) == JV_KIND_STRING
						      ? !in_set(op, contentless)
						      : in_set(op, server_wide_content));
		jv_free(scope);
		jv_free(ev);
	}
	return reached;
}

/* ---- the outcome ---- */

static int has_exception(jv steps, jv harbor, const char *type)
{
	int found = 0, any = 0;

	jv_array_foreach(steps, i, step) {
		jv x = json_at(step, "exception_info.exception_type");
		if (jv_get_kind(x) == JV_KIND_STRING) {
			any = 1;
			found = found || (type && !strcmp(jv_string_value(x), type));
		}
		jv_free(x);
		jv_free(step);
	}
	const char *trial = json_str(harbor, "exception_type");
	if (trial) {
		any = 1;
		found = found || (type && !strcmp(trial, type));
	}
	return type ? found : any;
}

/* The arm's reward: its scored step's own, else (a task-outcome workload)
 * the trial's; null when there is none. */
static jv scored_reward(jv arm, jv rewards, jv harbor)
{
	jv step = json_get(arm, "scored_step");
	jv out = jv_get_kind(step) == JV_KIND_STRING ? json_get(rewards, jv_string_value(step))
						     : json_at(harbor, "rewards.reward");

	jv_free(step);
	return out;
}

/* 1.4.1's rules, the first that matches: the harness's errors, another
 * Scope reached, an agent timeout, any other exception, a treatment that
 * did not happen, then the reward. */
static const char *outcome(jv errors, int reached, jv steps, jv harbor, jv treatment, jv reward)
{
	if (jv_array_length(jv_copy(errors)) > 0)
		return "error";
	if (reached)
		return "cross_scope_access";
	if (has_exception(steps, harbor, "AgentTimeoutError"))
		return "timeout";
	if (has_exception(steps, harbor, NULL))
		return "error";
	if (jv_array_length(jv_copy(treatment)) > 0)
		return "integration_failed";
	return jv_get_kind(reward) == JV_KIND_NUMBER && jv_number_value(reward) >= 1 ? "passed"
										     : "failed";
}

jv observe_arm(jv record, jv harbor, jv result)
{
	jv arm = json_get(record, "arm"), steps = json_get(result, "step_results");
	jv errors = json_get(record, "errors"), sessions = json_get(arm, "sessions");
	jv outside = json_get(arm, "outside_scope");
	int on = !strcmp(json_str(arm, "arm"), "on");

	if (jv_get_kind(steps) != JV_KIND_ARRAY)
		jv_free(steps), steps = jv_array();
	jv rewards = step_rewards(steps);
	int scored = (int)json_number_at(arm, "scored_session", 0);
	jv treatment = on ? jv_array_concat(json_get(arm, "settle_failures"),
					    treatment_failures(sessions, scored))
			  : jv_array();
	jv reward = scored_reward(arm, rewards, harbor);
	const char *verdict = outcome(errors, reached_another_scope(outside), steps,
				      harbor, treatment, reward);
	jv environment = json_get(record, "environment");
	jv out = JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_PAIRED_ARM),
			   jv_string("run_id"), json_get(record, "run_id"),
			   jv_string("task_id"), json_at(record, "workload.id"),
			   jv_string("trial"), json_get(arm, "trial"),
			   jv_string("arm"), json_get(arm, "arm"),
			   jv_string("position"), json_get(arm, "position"),
			   jv_string("environment"), environment,
			   jv_string("scope_id"), json_get(record, "scope_id"));
	out = jv_object_set(out, jv_string("harbor"), harbor);
	out = jv_object_set(out, jv_string("step_rewards"), rewards);
	out = jv_object_set(out, jv_string("steps"), step_observations(steps, result));
	out = jv_object_set(out, jv_string("outcome"), jv_string(verdict));
	out = jv_object_set(out, jv_string("errors"), errors);
	out = jv_object_set(out, jv_string("sessions"), sessions);
	out = jv_object_set(out, jv_string("treatment_failures"), treatment);
	out = jv_object_set(out, jv_string("outside_scope"), outside);
	jv_free(reward);
	jv_free(steps);
	jv_free(arm);
	return out;
}
