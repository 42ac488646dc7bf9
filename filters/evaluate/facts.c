#include "facts.h"

#include <string.h>

#include "docs.h"
#include "harbor_layout.h"
#include "json.h"
#include "literal.h"
#include "memory.h"

int facts_status_is(const struct facts *f, const char *status)
{
	return !strcmp(jv_string_value(f->status), status);
}

/* pathlib's PurePosixPath(path).name: the last part that is not "" or ".". */
static jv base_name(const char *path)
{
	const char *end = path + strlen(path);

	for (;;) {
		while (end > path && end[-1] == '/')
			end--;
		const char *start = end;
		while (start > path && start[-1] != '/')
			start--;
		if (end - start == 1 && *start == '.') {
			end = start;
			continue;
		}
		return jv_string_sized(start, (int)(end - start));
	}
}

static int base_name_is(const char *path, const char *name)
{
	jv b = base_name(path);
	int same = !strcmp(jv_string_value(b), name);

	jv_free(b);
	return same;
}

static void count_native(jv replay, struct native_facts *n)
{
	static const char *const required[] = {
		HARBOR_ACP_EVENTS_FILE,
		HARBOR_ACP_SUMMARY_FILE,
		HARBOR_TRAJECTORY_FILE,
	};
	jv artifacts = json_at(replay, "native_artifacts");
	jv instructions = json_at(replay, "resolved_instructions");
	jv names = jv_object(), summaries = jv_object(), resolved = jv_object();

	jv_array_foreach(artifacts, i, art) {
		const char *name = json_str(art, "name");
		names = jv_object_set(names, base_name(name), jv_true());
		if (base_name_is(name, HARBOR_ACP_SUMMARY_FILE))
			summaries = jv_object_set(summaries, jv_string(name), jv_true());
		jv_free(art);
	}
	jv_array_foreach(instructions, i, ins) {
		resolved = jv_object_set(resolved, jv_string(json_str(ins, "artifact")), jv_true());
		jv_free(ins);
	}
	n->missing = jv_array();
	for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
		jv has = jv_object_get(jv_copy(names), jv_string(required[i]));
		if (!jv_is_valid(has))
			n->missing = jv_array_append(n->missing, jv_string(required[i]));
		jv_free(has);
	}
	n->summaries = jv_object_length(jv_copy(summaries));
	n->instructions = jv_object_length(jv_copy(resolved));
	n->instructions_recorded =
		n->summaries > 0 && jv_equal(jv_copy(summaries), jv_copy(resolved));
	n->instruction_entries = jv_array_length(jv_copy(instructions));
	jv_free(names);
	jv_free(summaries);
	jv_free(resolved);
	jv_free(artifacts);
	jv_free(instructions);
}

/* The checksum of the task that ran: a batch's own task when the run merged
 * several into one trial, else the trial's; an empty one does not count. */
static jv observed_checksum(jv replay)
{
	jv source = json_at(replay, "harbor.source_task_checksum");

	if (jv_get_kind(source) == JV_KIND_STRING && jv_string_length_bytes(jv_copy(source)) > 0)
		return source;
	jv_free(source);
	return json_at(replay, "harbor.task_checksum");
}

static struct thresholds read_thresholds(jv spec)
{
	return (struct thresholds){
		.capture_coverage = json_number_at(spec, "thresholds.capture_coverage", 0),
		.groundedness = json_number_at(spec, "thresholds.groundedness", 0),
		.probe_coverage = json_number_at(spec, "thresholds.probe_coverage", 0),
		.in_run_contexts = json_number_at(spec, "thresholds.minimum_in_run_contexts", 0),
		.require_checkpoint = json_has_true(spec, "require_checkpoint"),
	};
}

static void read_memory_case(jv replay, struct facts *f)
{
	jv spec = json_at(replay, "task.evaluation");

	f->errors = json_at(replay, "errors");
	f->observed_checksum = observed_checksum(replay);
	f->rewards = json_at(replay, "harbor.rewards");
	f->exception_type = json_at(replay, "harbor.exception_type");
	memory_count(replay, &f->captures, &f->memory, &f->probes);
	count_native(replay, &f->native);
	f->thresholds = read_thresholds(spec);
	jv_free(spec);
}

static void read_outcome_case(jv replay, const char *text, size_t text_len, const char *policy,
			      struct outcome_facts *o)
{
	jv expectations = json_at(replay, "task.evaluation.expected_execution");
	const char *lit;
	size_t lit_len;

	o->expected_status = json_get(expectations, policy);
	o->reward = json_at(replay, "harbor.rewards.reward");
	if (text && literal_at(text, text_len, "harbor.rewards.reward", &lit, &lit_len))
		o->reward_literal = jv_string_sized(lit, (int)lit_len);
	jv_free(expectations);
}

static int refuse_paired(jv replay, struct pc_err *e)
{
	jv id = json_at(replay, "task.id");

	pc_fail(e,
		"workload %s (run %s): an OFF/ON paired workload is judged on a pair of runs, "
		"not on one replay",
		jv_string_value(id), json_str(replay, "run_id"));
	jv_free(id);
	return -1;
}

/* Every jv field starts null, so facts_free can free any of them. */
static void facts_init(struct facts *f)
{
	*f = (struct facts){ 0 };
	f->status = f->dataset_checksum = jv_null();
	f->outcome.expected_status = f->outcome.reward = f->outcome.reward_literal = jv_null();
	f->errors = f->observed_checksum = f->rewards = f->exception_type = jv_null();
	f->memory.expected = f->probes.forbidden_matched = f->native.missing = jv_null();
}

int facts_read(jv replay, const char *text, size_t text_len, const char *policy,
	       struct facts *f, struct pc_err *e)
{
	jv evaluation = json_at(replay, "task.evaluation");
	enum evaluation_kind kind = docs_evaluation_kind(evaluation);

	jv_free(evaluation);
	facts_init(f);
	f->status = json_get(replay, "status");
	if (kind == EVALUATION_OUTCOME)
		f->kind = CASE_OUTCOME;
	else if (facts_status_is(f, "skipped"))
		f->kind = CASE_SKIPPED;
	else if (kind == EVALUATION_MEMORY)
		f->kind = CASE_MEMORY;
	else {
		facts_free(f);
		return refuse_paired(replay, e);
	}
	f->dataset_checksum = json_at(replay, "task.dataset.checksum");
	if (f->kind == CASE_OUTCOME)
		read_outcome_case(replay, text, text_len, policy, &f->outcome);
	else if (f->kind == CASE_MEMORY)
		read_memory_case(replay, f);
	return 0;
}

void facts_free(struct facts *f)
{
	jv_free(f->status);
	jv_free(f->dataset_checksum);
	jv_free(f->outcome.expected_status);
	jv_free(f->outcome.reward);
	jv_free(f->outcome.reward_literal);
	jv_free(f->errors);
	jv_free(f->observed_checksum);
	jv_free(f->rewards);
	jv_free(f->exception_type);
	jv_free(f->memory.expected);
	jv_free(f->probes.forbidden_matched);
	jv_free(f->native.missing);
}
