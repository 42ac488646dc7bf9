#include "scores.h"

#include <stdlib.h>
#include <string.h>

#include "docs_names.h"
#include "entry.h"
#include "err.h"
#include "rewards.h"
#include "text.h"

static void write_rewards(struct json_out *o, const struct facts *f, int *members)
{
	size_t n;
	struct reward *sorted = rewards_sorted(f->rewards, &n);
	struct sbuf key = { 0 };

	for (size_t i = 0; i < n; i++) {
		/* the score's name is made of the reward's as a C string */
		key.len = 0;
		sbuf_add(&key, DOCS_REWARD_SCORE_PREFIX);
		sbuf_add(&key, sorted[i].name);
		json_out_member(o, key.s, key.len, members);
		entry_number(o, rewards_float(&sorted[i], &f->text));
	}
	free(key.s);
	free(sorted);
}

void scores_write(struct json_out *o, const struct facts *f)
{
	int members = 0;

	json_out_bytes(o, "{", 1);
	if (f->kind == CASE_MEMORY) {
		json_out_key(o, "capture_coverage", &members);
		entry_number(o, f->captures.coverage);
		json_out_key(o, "groundedness", &members);
		entry_number(o, f->memory.groundedness);
		json_out_key(o, "probe_coverage", &members);
		entry_number(o, f->probes.coverage);
		write_rewards(o, f, &members);
	}
	json_out_bytes(o, "}", 1);
}

static int every_reward_passed(struct view rewards)
{
	struct view_members m = view_members(rewards);
	struct view value;
	const char *name;
	size_t n;
	int passed = 1;

	while (view_next_member(&m, &name, &n, &value))
		passed = passed && view_num_or(value, 0) >= 1;
	return passed;
}

/* An outcome workload's status (a string, by its shape), "skipped" for a
 * workload not run, else the Memory run's outcome as the reference
 * harness labels it. */
static void task_outcome(const struct facts *f, struct sbuf *label)
{
	const char *error = view_cstr(f->exception_type);

	if (f->kind == CASE_OUTCOME)
		sbuf_add(label, view_cstr(f->status));
	else if (f->kind == CASE_SKIPPED)
		sbuf_add(label, "skipped");
	else if (error) {
		sbuf_add(label, "error:");
		sbuf_add(label, error);
	} else if (facts_status_is(f, "failed"))
		sbuf_add(label, "not_passed");
	else if (view_members(f->rewards).n == 0)
		sbuf_add(label, "unscored");
	else
		sbuf_add(label, every_reward_passed(f->rewards) ? "passed" : "not_passed");
}

void labels_write(struct json_out *o, const struct facts *f)
{
	struct sbuf outcome = { 0 };

	task_outcome(f, &outcome);
	json_out_bytes(o, "{\"task_outcome\":", 16);
	entry_label(o, outcome.s);
	json_out_bytes(o, "}", 1);
	free(outcome.s);
}

void metrics_write(struct json_out *o, const struct facts *f)
{
	const struct {
		const char *name;
		int value;
	} metrics[] = {
		{ "capture_events", f->captures.eligible },
		{ "captured_sources", f->captures.captured },
		{ "completed_checkpoints", f->captures.completed_checkpoints },
		{ "in_run_contexts", f->captures.in_run_contexts },
		{ "resolved_instructions", f->native.instruction_entries },
		{ "memory_entries_after", f->memory.after },
		{ "memory_entries_created", f->memory.created },
		{ "recall_probes_supported", f->probes.supported },
	};
	int members = 0;

	json_out_bytes(o, "{", 1);
	for (size_t i = 0; f->kind == CASE_MEMORY && i < sizeof metrics / sizeof *metrics; i++) {
		json_out_key(o, metrics[i].name, &members);
		json_out_number(o, metrics[i].value);
	}
	json_out_bytes(o, "}", 1);
}
