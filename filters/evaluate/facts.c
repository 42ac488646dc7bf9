#include "facts.h"

#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "harbor_layout.h"
#include "literal.h"
#include "memory.h"

int facts_status_is(const struct facts *f, const char *status)
{
	return view_str_is(f->status, status);
}

/* pathlib's PurePosixPath(path).name: the last part that is not "" or ".". */
static const char *base_name(const char *path, size_t *n)
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
		*n = (size_t)(end - start);
		return start;
	}
}

static int is_named(const char *base, size_t n, const char *name)
{
	return n == strlen(name) && !memcmp(base, name, n);
}

/* A set of C strings, as the keys of a jv object hold them. */
struct names {
	const char **items;
	size_t n;
};

static int names_has(const struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->items[i], name))
			return 1;
	return 0;
}

static void names_add(struct names *s, const char *name)
{
	if (!names_has(s, name))
		s->items[s->n++] = name;
}

/* Whether every name of a is in b and every one of b in a. */
static int names_equal(const struct names *a, const struct names *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (!names_has(b, a->items[i]))
			return 0;
	return 1;
}

static void count_native(struct view replay, struct native_facts *n)
{
	static const char *const required[NATIVE_REQUIRED] = {
		HARBOR_ACP_EVENTS_FILE,
		HARBOR_ACP_SUMMARY_FILE,
		HARBOR_TRAJECTORY_FILE,
	};
	struct view artifacts = view_get(replay, "native_artifacts");
	struct view instructions = view_get(replay, "resolved_instructions");
	struct view_items items = view_items(artifacts);
	size_t n_artifacts = items.n, n_instructions = view_items(instructions).n;
	struct names summaries = { calloc(n_artifacts + 1, sizeof(char *)), 0 };
	struct names resolved = { calloc(n_instructions + 1, sizeof(char *)), 0 };
	int recorded[NATIVE_REQUIRED] = { 0 };
	struct view item;

	while (view_next(&items, &item)) {
		const char *name = view_cstr(view_get(item, "name"));
		size_t n;
		const char *base = base_name(name, &n);
		for (size_t i = 0; i < NATIVE_REQUIRED; i++)
			recorded[i] |= is_named(base, n, required[i]);
		if (is_named(base, n, HARBOR_ACP_SUMMARY_FILE))
			names_add(&summaries, name);
	}
	for (items = view_items(instructions); view_next(&items, &item);)
		names_add(&resolved, view_cstr(view_get(item, "artifact")));
	n->n_missing = 0;
	for (size_t i = 0; i < NATIVE_REQUIRED; i++)
		if (!recorded[i])
			n->missing[n->n_missing++] = required[i];
	n->summaries = (int)summaries.n;
	n->instructions = (int)resolved.n;
	n->instructions_recorded = summaries.n > 0 && names_equal(&summaries, &resolved);
	n->instruction_entries = (int)n_instructions;
	free(summaries.items);
	free(resolved.items);
}

/* The checksum of the task that ran: a batch's own task when the run merged
 * several into one trial, else the trial's; an empty one does not count. */
static struct view observed_checksum(struct view harbor)
{
	struct view source = view_get(harbor, "source_task_checksum");
	size_t n;

	if (view_str(source, &n) && n > 0)
		return source;
	return view_get(harbor, "task_checksum");
}

static struct thresholds read_thresholds(struct view spec)
{
	return (struct thresholds){
		.capture_coverage = view_num_or(view_at(spec, "thresholds.capture_coverage"), 0),
		.groundedness = view_num_or(view_at(spec, "thresholds.groundedness"), 0),
		.probe_coverage = view_num_or(view_at(spec, "thresholds.probe_coverage"), 0),
		.in_run_contexts =
			view_num_or(view_at(spec, "thresholds.minimum_in_run_contexts"), 0),
		.require_checkpoint = view_is_true(view_get(spec, "require_checkpoint")),
	};
}

static void read_memory_case(struct view replay, struct facts *f)
{
	f->errors = view_get(replay, "errors");
	f->observed_checksum = observed_checksum(f->harbor);
	f->exception_type = view_get(f->harbor, "exception_type");
	memory_count(f, &f->captures, &f->memory, &f->probes);
	count_native(replay, &f->native);
	f->thresholds = read_thresholds(f->evaluation);
}

/* The reward's literal: from the view when it reads the text itself and
 * knows it, else found in the text. */
static void read_outcome_case(struct facts *f, const struct view_text *text, const char *policy)
{
	struct outcome_facts *o = &f->outcome;

	o->expected_status = view_get(view_get(f->evaluation, "expected_execution"), policy);
	o->reward = view_at(f->harbor, "rewards.reward");
	if (text->as_written && view_num_literal(o->reward, o->reward_digits, &o->reward_literal,
						 &o->reward_literal_len))
		return;
	if (!literal_at(text->text, text->len, "harbor.rewards.reward", &o->reward_literal,
			&o->reward_literal_len))
		o->reward_literal = NULL;
}

/* docs_evaluation_kind's rule, on a view: an outcome workload's evaluation
 * sets expected_execution, a Memory workload's probes. */
static enum evaluation_kind evaluation_kind(struct view evaluation)
{
	if (!view_is_null(view_get(evaluation, "expected_execution")))
		return EVALUATION_OUTCOME;
	if (!view_is_null(view_get(evaluation, "probes")))
		return EVALUATION_MEMORY;
	return EVALUATION_PAIRED;
}

/* The merged batch the replay's workload ran in (outdir_batch_of's first
 * batch category), or NULL: a replay names its source task's own checksum
 * (harbor.source_task_checksum) only when that task ran merged. */
static const char *batch_of(const struct facts *f)
{
	struct view_items categories = view_items(view_get(f->task, "categories"));
	struct view c;
	const char *batch = NULL;

	if (!view_cstr(view_get(f->harbor, "source_task_checksum")))
		return NULL;
	while (!batch && view_next(&categories, &c))
		batch = view_cstr(c) ? docs_batch_name(view_cstr(c)) : NULL;
	return batch;
}

int facts_read(struct view replay, const struct view_text *text, const char *policy,
	       struct facts *f, struct pc_err *e)
{
	struct view task = view_get(replay, "task");

	*f = (struct facts){
		.replay = replay,
		.text = *text,
		.task = task,
		.dataset = view_get(task, "dataset"),
		.execution = view_get(task, "execution"),
		.evaluation = view_get(task, "evaluation"),
		.environment = view_get(replay, "environment"),
		.harbor = view_get(replay, "harbor"),
	};
	enum evaluation_kind kind = evaluation_kind(f->evaluation);
	f->status = view_get(replay, "status");
	if (kind == EVALUATION_OUTCOME)
		f->kind = CASE_OUTCOME;
	else if (facts_status_is(f, "skipped"))
		f->kind = CASE_SKIPPED;
	else if (kind == EVALUATION_MEMORY)
		f->kind = CASE_MEMORY;
	else
		return pc_fail(e,
			       "workload %s (run %s): an OFF/ON paired workload is judged on a pair of runs, not on one replay",
			       view_cstr(view_get(task, "id")),
			       view_cstr(view_get(replay, "run_id")));
	f->dataset_checksum = view_get(f->dataset, "checksum");
	f->rewards = view_get(f->harbor, "rewards");
	f->batch = batch_of(f);
	if (f->kind == CASE_OUTCOME)
		read_outcome_case(f, text, policy);
	else if (f->kind == CASE_MEMORY)
		read_memory_case(replay, f);
	return 0;
}

void facts_free(struct facts *f)
{
	free(f->probes.forbidden_matched);
	f->probes.forbidden_matched = NULL;
}
