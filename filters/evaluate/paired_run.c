/* paired_run: a paired run's faults and spend (paired_run.h). */
#include "paired_run.h"

#include <string.h>

#include "docs_paired.h"
#include "json.h"
#include "paired.h"
#include "stage.h"
#include "verdict.h"

/* The key of an arm: "task\ntrial\narm" (owned). */
static jv arm_key(jv doc)
{
	jv trial = json_get(doc, "trial");
	jv key = jv_string_fmt("%s\n%d\n%s", json_str(doc, "task_id"),
			       (int)jv_number_value(trial), json_str(doc, "arm"));
	jv_free(trial);
	return key;
}

/* The accounts (consumed) by arm key. */
static jv accounts_by_arm(jv accounts)
{
	jv by = jv_object();

	jv_array_foreach(accounts, i, account) {
		by = jv_object_set(by, arm_key(account), account);
	}
	jv_free(accounts);
	return by;
}

/* counts (consumed) with one more under its path of keys. */
static jv count(jv counts, jv path)
{
	jv was = jv_getpath(jv_copy(counts), jv_copy(path));
	double n = jv_get_kind(was) == JV_KIND_NUMBER ? jv_number_value(was) : 0;

	jv_free(was);
	return jv_setpath(counts, path, jv_number(n + 1));
}

/* One errored arm's fault (borrowed; null: unclassified) counted into
 * faults (consumed) under "errors", its class and its kind. */
static jv count_fault(jv faults, jv fault)
{
	const char *class = json_str(fault, "class"), *kind = json_str(fault, "kind");

	faults = count(faults, JV_ARRAY(jv_string("errors")));
	jv named = jv_string(class ? class : "unclassified");
	faults = count(faults, JV_ARRAY(jv_string("classes"), named, jv_string("errors")));
	if (class && kind)
		faults = count(faults, JV_ARRAY(jv_string("classes"), jv_string(class),
						jv_string("kinds"), jv_string(kind)));
	return faults;
}

/* ---- spend ---- */

static const char *const agent_sums[] = { "input_tokens", "cached_tokens", "output_tokens",
					  "estimated_steps", "usd", NULL };
static const char *const extraction_sums[] = { "requests", "input_tokens", "output_tokens",
					       "embedding_tokens", "usd", NULL };

/* to (consumed) plus from (borrowed), figure by figure; a usd is null as
 * soon as one added is. */
static jv add_figures(jv to, jv from, const char *const *names)
{
	for (size_t i = 0; names[i]; i++) {
		jv a = json_get(to, names[i]), b = json_get(from, names[i]);
		jv sum = jv_get_kind(a) == JV_KIND_NUMBER && jv_get_kind(b) == JV_KIND_NUMBER
				 ? jv_number(jv_number_value(a) + jv_number_value(b))
				 : jv_null();
		jv_free(a);
		jv_free(b);
		to = jv_object_set(to, jv_string(names[i]), sum);
	}
	return to;
}

static jv zero_figures(const char *const *names)
{
	jv out = jv_object();

	for (size_t i = 0; names[i]; i++)
		out = jv_object_set(out, jv_string(names[i]), jv_number(0));
	return out;
}

static jv zero_spend(void)
{
	return JV_OBJECT(jv_string("arms"), jv_number(0), jv_string("agent"),
			 zero_figures(agent_sums), jv_string("extraction"),
			 zero_figures(extraction_sums), jv_string("usd"), jv_number(0));
}

/* spend (consumed) with an account's (borrowed) spend added; without its
 * account (null) the arm's spend is unknown. */
static jv add_spend(jv spend, jv account)
{
	jv from = json_get(account, "spend");
	jv agent = json_get(from, "agent"), extraction = json_get(from, "extraction");
	jv to_agent = json_get(spend, "agent"), to_extraction = json_get(spend, "extraction");
	jv wrap = JV_OBJECT(jv_string("usd"), json_get(spend, "usd")),
	   usd = JV_OBJECT(jv_string("usd"), json_get(from, "usd"));
	static const char *const usd_only[] = { "usd", NULL };

	if (jv_get_kind(from) != JV_KIND_OBJECT) {
		/* an arm without its account: every figure of it unknown */
		jv_free(agent), jv_free(extraction);
		agent = jv_object(), extraction = jv_object();
	}
	wrap = add_figures(wrap, usd, usd_only);
	spend = jv_object_set(spend, jv_string("agent"), add_figures(to_agent, agent, agent_sums));
	spend = jv_object_set(spend, jv_string("extraction"),
			      add_figures(to_extraction, extraction, extraction_sums));
	spend = jv_object_set(spend, jv_string("usd"), json_get(wrap, "usd"));
	spend = count(spend, JV_ARRAY(jv_string("arms")));
	jv_free(wrap), jv_free(usd), jv_free(agent), jv_free(extraction), jv_free(from);
	return spend;
}

/* The document (owned) of observations (borrowed, run order) and the
 * accounts (consumed; those of no observation are left out, and an arm
 * without its account leaves its spend unknown). */
static jv paired_run(jv observations, jv accounts)
{
	jv by_arm = accounts_by_arm(accounts);
	jv empty = JV_OBJECT(jv_string("errors"), jv_number(0), jv_string("classes"), jv_object());
	jv faults = JV_OBJECT(jv_string("off"), jv_copy(empty), jv_string("on"), jv_copy(empty));
	jv spend = JV_OBJECT(jv_string("off"), zero_spend(), jv_string("on"), zero_spend());
	jv total = jv_copy(empty), errored = jv_array();
	int priced = jv_object_length(jv_copy(by_arm)) > 0;

	jv_array_foreach(observations, i, o) {
		jv key = arm_key(o), arm = json_get(o, "arm");
		jv account = jv_object_get(jv_copy(by_arm), key);
		jv fault = jv_get_kind(account) == JV_KIND_OBJECT ? json_get(account, "fault")
								  : jv_null();
		const char *outcome = json_str(o, "outcome");
		if (!jv_is_valid(account))
			account = jv_null();
		if (outcome && !strcmp(outcome, "error")) {
			jv was = jv_object_get(jv_copy(faults), jv_copy(arm));
			faults = jv_object_set(faults, jv_copy(arm), count_fault(was, fault));
			total = count_fault(total, fault);
			jv one = JV_OBJECT(jv_string("task_id"), json_get(o, "task_id"),
					   jv_string("trial"), json_get(o, "trial"));
			one = jv_object_set(one, jv_string("arm"), jv_copy(arm));
			one = jv_object_set(one, jv_string("fault"), jv_copy(fault));
			errored = jv_array_append(errored, one);
		}
		jv was = jv_object_get(jv_copy(spend), jv_copy(arm));
		spend = jv_object_set(spend, jv_copy(arm), add_spend(was, account));
		jv_free(fault), jv_free(account), jv_free(arm), jv_free(o);
	}
	jv usd = jv_null();
	if (priced) {
		jv off = json_at(spend, "off.usd"), on = json_at(spend, "on.usd");
		if (jv_get_kind(off) == JV_KIND_NUMBER && jv_get_kind(on) == JV_KIND_NUMBER)
			usd = jv_number(jv_number_value(off) + jv_number_value(on));
		jv_free(off), jv_free(on);
	}
	total = jv_object_set(total, jv_string("usd"), usd);
	jv_free(empty);
	jv_free(by_arm);
	return JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_PAIRED_RUN), jv_string("errored"),
			 errored, jv_string("faults"), faults, jv_string("spend"),
			 priced ? spend : (jv_free(spend), jv_null()), jv_string("total"), total);
}

/* --paired: every observation on stdin, and after them their accounts;
 * with an output the run's own summary, then the one report. */
int paired_pass(const char *prog, int trials_asked, const char *prefix, const char *output,
		const struct redactor *red)
{
	struct stage_input in;
	struct pc_err e;
	jv doc, observations = jv_array(), accounts = jv_array();
	int trials = trials_asked;

	stage_input_open(&in, prog, red, SCHEMA_PAIRED_ARM, &doc_paired_arm);
	in.then_schema = SCHEMA_PAIRED_ACCOUNT;
	in.then_shape = &doc_paired_account;
	while (stage_input_next(&in, &doc)) {
		if (!in.then_schema) { /* the input switched to accounts */
			accounts = jv_array_append(accounts, doc);
			continue;
		}
		int trial = (int)json_number_at(doc, "trial", 1);
		trials = !trials_asked && trial > trials ? trial : trials;
		observations = jv_array_append(observations, doc);
	}
	stage_input_close(&in);
	if (in.status != EXIT_OK || jv_array_length(jv_copy(observations)) == 0) {
		jv_free(observations);
		jv_free(accounts);
		return in.status != EXIT_OK ? in.status
					    : stage_die(prog, red, EXIT_INVALID,
							"no paired arm observations on stdin");
	}
	/* written before the report, which a reader of both waits for */
	jv run = paired_run(observations, accounts);
	if (output && stage_write_artifact(output, ".", "paired-run.json", red, run, &e) != 0) {
		jv_free(observations);
		return stage_die(prog, red, EXIT_INVALID, e.msg);
	}
	if (!output)
		jv_free(run);
	jv report = paired_summarize(observations, trials, prefix);
	int code = verdict_paired_exit(report);
	if (stage_deliver(output, ".", "paired-report.json", red, report, &e) != 0)
		return stage_die(prog, red, EXIT_INVALID, e.msg);
	return code;
}
