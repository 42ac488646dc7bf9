#include "scores.h"

#include <stdlib.h>

#include "docs.h"
#include "entry.h"
#include "text.h"

static jv score(double x)
{
	return entry(jv_number(x), NULL);
}

jv scores_of(const struct facts *f)
{
	if (f->kind != CASE_MEMORY)
		return jv_object();
	jv s = JV_OBJECT(jv_string("capture_coverage"), score(f->captures.coverage),
			 jv_string("groundedness"), score(f->memory.groundedness),
			 jv_string("probe_coverage"), score(f->probes.coverage));
	jv names = jv_keys(jv_copy(f->rewards)); /* sorted */

	jv_array_foreach(names, i, name) {
		jv reward = jv_object_get(jv_copy(f->rewards), jv_copy(name));
		jv key = jv_string_fmt(DOCS_REWARD_SCORE_PREFIX "%s", jv_string_value(name));
		s = jv_object_set(s, key, score(jv_number_value(reward)));
		jv_free(reward);
		jv_free(name);
	}
	jv_free(names);
	return s;
}

static int every_reward_passed(jv rewards)
{
	int passed = 1;

	jv_object_foreach(rewards, k, r) {
		passed = passed && jv_number_value(r) >= 1;
		jv_free(k);
		jv_free(r);
	}
	return passed;
}

/* Malloc'd: an outcome workload's status, "skipped" for a workload not
 * run, else the Memory run's outcome as the reference harness labels it. */
static char *task_outcome(const struct facts *f)
{
	if (f->kind == CASE_OUTCOME)
		return text_fmt("%s", jv_string_value(f->status));
	if (f->kind == CASE_SKIPPED)
		return text_fmt("skipped");
	if (jv_get_kind(f->exception_type) == JV_KIND_STRING)
		return text_fmt("error:%s", jv_string_value(f->exception_type));
	if (facts_status_is(f, "failed"))
		return text_fmt("not_passed");
	if (jv_object_length(jv_copy(f->rewards)) == 0)
		return text_fmt("unscored");
	return text_fmt("%s", every_reward_passed(f->rewards) ? "passed" : "not_passed");
}

jv labels_of(const struct facts *f)
{
	char *outcome = task_outcome(f);
	jv labels = JV_OBJECT(jv_string("task_outcome"), entry(jv_string(outcome), NULL));

	free(outcome);
	return labels;
}

jv metrics_of(const struct facts *f)
{
	if (f->kind != CASE_MEMORY)
		return jv_object();
	return JV_OBJECT(
		jv_string("capture_events"), jv_number(f->captures.eligible),
		jv_string("captured_sources"), jv_number(f->captures.captured),
		jv_string("completed_checkpoints"), jv_number(f->captures.completed_checkpoints),
		jv_string("in_run_contexts"), jv_number(f->captures.in_run_contexts),
		jv_string("resolved_instructions"), jv_number(f->native.instruction_entries),
		jv_string("memory_entries_after"), jv_number(f->memory.after),
		jv_string("memory_entries_created"), jv_number(f->memory.created),
		jv_string("recall_probes_supported"), jv_number(f->probes.supported));
}
