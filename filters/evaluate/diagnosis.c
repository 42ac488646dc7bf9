/* diagnosis: EXPECTED and ACTUAL of each assertion of an outcome, a
 * skipped or a Memory run, and the evidence of one that does not hold
 * (diagnosis.h); recall.c has those of what the run recalled. */
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "excerpt.h"
#include "frame.h"
#include "memory.h"

/* ---- outcome and skipped cases ---- */

/* What Harbor recorded of the run: its rewards and its exception. */
static void harbor_evidence(struct json_out *o, const struct diagnosis_input *in, int *members)
{
	struct view harbor = in->f->harbor;

	view_write_member(o, "rewards", view_get(harbor, "rewards"), members);
	view_write_member(o, "exception_type", view_get(harbor, "exception_type"), members);
	json_out_key(o, "exception_message", members);
	excerpt_clipped(o, in->red, view_get(harbor, "exception_message"));
}

/* A skipped replay judged under a policy that runs it: only a fail-fast run
 * skips, so the rescore most likely left out --failure-policy fail-fast. */
static const char skipped_hint[] =
	"only a fail-fast run skips this workload: rescore it with --failure-policy fail-fast";

static int skipped_by_fail_fast(const struct facts *f)
{
	struct view expected = view_get(f->evaluation, "expected_execution");

	return view_str_is(f->status, "skipped") &&
	       !view_str_is(f->outcome.expected_status, "skipped") &&
	       view_str_is(view_get(expected, "fail-fast"), "skipped");
}

void diagnose_execution_outcome(struct json_out *o, const struct diagnosis_input *in)
{
	const struct outcome_facts *out = &in->f->outcome;
	int skip = view_str_is(out->expected_status, "skipped");
	int want = view_str_is(out->expected_status, "completed"), members = 0;

	frame_expected(o);
	json_out_bytes(o, "{", 1);
	view_write_member(o, "status", out->expected_status, &members);
	json_out_key(o, "reward", &members);
	if (skip)
		json_out_bytes(o, "null", 4);
	else
		json_out_number(o, want);
	json_out_bytes(o, "}", 1);
	frame_actual(o);
	members = 0;
	json_out_bytes(o, "{", 1);
	view_write_member(o, "status", in->f->status, &members);
	view_write_member(o, "reward", out->reward, &members);
	json_out_bytes(o, "}", 1);
	if (!frame_evidence(o, in->held))
		return;
	members = 0;
	harbor_evidence(o, in, &members);
	view_write_member(o, "policy", view_get(in->f->evaluation, "expected_execution"),
			  &members);
	if (skipped_by_fail_fast(in->f)) {
		json_out_key(o, "hint", &members);
		json_out_string(o, skipped_hint, sizeof skipped_hint - 1);
	}
	frame_close(o);
}

void diagnose_execution_completed(struct json_out *o, const struct diagnosis_input *in)
{
	frame_expected(o);
	json_out_bytes(o, "\"completed\"", 11);
	frame_actual(o);
	view_write(o, in->f->status, JSON_COMPACT);
	if (!frame_evidence(o, in->held))
		return;
	json_out_bytes(o, "\"why\":", 6);
	json_out_cstring(o,
			 "an earlier task of its batch stopped the shared Harbor trial (fail-fast)");
	frame_close(o);
}

/* ---- Memory cases ---- */

void diagnose_collection_completed(struct json_out *o, const struct diagnosis_input *in)
{
	struct view_items errors = view_items(in->f->errors);
	struct view err;
	int members = 0;

	frame_expected(o);
	json_out_bytes(o, "{\"status\":\"completed\"}", 22);
	frame_actual(o);
	frame_one_value(o, "status", in->f->status);
	if (!frame_evidence(o, in->held))
		return;
	harbor_evidence(o, in, &members);
	struct frame_list list = frame_list_open(o, "errors", &members);
	while (view_next(&errors, &err))
		if (frame_list_item(&list))
			excerpt_clipped(o, in->red, err);
	frame_list_close(&list);
	frame_close(o);
}

void diagnose_task_provenance(struct json_out *o, const struct diagnosis_input *in)
{
	frame_expected(o);
	frame_one_value(o, "checksum", in->f->dataset_checksum);
	frame_actual(o);
	frame_one_value(o, "checksum", in->f->observed_checksum);
	if (!frame_evidence(o, in->held))
		return;
	json_out_bytes(o, "\"task\":", 7);
	view_write(o, in->f->dataset, JSON_COMPACT);
	frame_close(o);
}

void diagnose_native_acp(struct json_out *o, const struct diagnosis_input *in)
{
	const struct native_facts *n = &in->f->native;
	struct view_items artifacts = view_items(view_get(in->replay, "native_artifacts"));
	struct view a;
	int members = 0;

	frame_expected(o);
	json_out_bytes(o, "{\"missing\":[]}", 14);
	frame_actual(o);
	json_out_bytes(o, "{\"missing\":[", 12);
	for (int i = 0; i < n->n_missing; i++) {
		if (i)
			json_out_bytes(o, ",", 1);
		json_out_cstring(o, n->missing[i]);
	}
	json_out_bytes(o, "]}", 2);
	if (!frame_evidence(o, in->held))
		return;
	struct frame_list list = frame_list_open(o, "recorded", &members);
	while (view_next(&artifacts, &a))
		if (frame_list_item(&list))
			view_write(o, view_get(a, "name"), JSON_COMPACT);
	frame_list_close(&list);
	frame_close(o);
}

void diagnose_instructions(struct json_out *o, const struct diagnosis_input *in)
{
	const struct native_facts *n = &in->f->native;
	int members = 0;

	frame_expected(o);
	frame_one_number(o, "instructions", n->summaries);
	frame_actual(o);
	json_out_bytes(o, "{", 1);
	frame_number(o, "instructions", n->instructions, &members);
	frame_number(o, "entries", n->instruction_entries, &members);
	json_out_bytes(o, "}}", 2);
}

void diagnose_capture_coverage(struct json_out *o, const struct diagnosis_input *in)
{
	const struct capture_facts *c = &in->f->captures;
	struct view_items records = view_items(view_get(in->replay, "capture_records"));
	struct view rec;
	int members = 0;

	frame_ratio(o, &(struct frame_ratio){ "coverage", in->f->thresholds.capture_coverage,
					      c->coverage, "captured", c->captured, "eligible",
					      c->eligible });
	if (!frame_evidence(o, in->held))
		return;
	struct frame_list list = frame_list_open(o, "not_captured", &members);
	while (view_next(&records, &rec))
		if (memory_record_eligible(rec) &&
		    !view_str_is(view_get(rec, "status"), "captured") &&
		    frame_list_item(&list)) {
			int fields = 0;
			json_out_bytes(o, "{", 1);
			view_write_member(o, "event", view_get(rec, "event"), &fields);
			view_write_member(o, "sequence", view_get(rec, "sequence"), &fields);
			view_write_member(o, "status", view_get(rec, "status"), &fields);
			json_out_bytes(o, "}", 1);
		}
	frame_list_close(&list);
	frame_close(o);
}

void diagnose_memory_created(struct json_out *o, const struct diagnosis_input *in)
{
	const struct facts *f = in->f;
	int members = 0;

	frame_expected(o);
	json_out_bytes(o, "{", 1);
	frame_number(o, "created_at_least", 1, &members);
	frame_number(o, "checkpoints_at_least", f->thresholds.require_checkpoint ? 1 : 0, &members);
	json_out_bytes(o, "}", 1);
	frame_actual(o);
	members = 0;
	json_out_bytes(o, "{", 1);
	frame_number(o, "created", f->memory.created, &members);
	frame_number(o, "checkpoints", f->captures.completed_checkpoints, &members);
	frame_number(o, "entries_before", f->memory.before, &members);
	frame_number(o, "entries_after", f->memory.after, &members);
	json_out_bytes(o, "}}", 2);
}

/* Whether captured holds the id, the whole string (a jv key lookup). */
static int captured_whole(const struct source_ids *captured, struct view id)
{
	size_t n;
	const char *s = view_str(id, &n);

	return s && strlen(s) == n && memory_captured(captured, s);
}

/* An entry's cited Sources, those of them no captured record has, and its
 * text. */
static void write_citations(struct json_out *o, const struct diagnosis_input *in,
			    struct view entry, const struct source_ids *captured)
{
	struct view sources = memory_entry_sources(entry), ref;
	struct view_items refs = view_items(sources);
	int first = 1;

	json_out_bytes(o, "{\"cites\":[", 10);
	while (view_next(&refs, &ref)) {
		if (!first)
			json_out_bytes(o, ",", 1);
		first = 0;
		view_write(o, view_get(ref, "source_id"), JSON_COMPACT);
	}
	json_out_bytes(o, "],\"not_captured\":[", 18);
	first = 1;
	for (refs = view_items(sources); view_next(&refs, &ref);) {
		struct view id = view_get(ref, "source_id");
		if (!view_cstr(id) || captured_whole(captured, id))
			continue;
		if (!first)
			json_out_bytes(o, ",", 1);
		first = 0;
		view_write(o, id, JSON_COMPACT);
	}
	json_out_bytes(o, "],\"text\":", 9);
	excerpt_clipped(o, in->red, view_get(entry, "text"));
	json_out_bytes(o, "}", 1);
}

void diagnose_memory_grounded(struct json_out *o, const struct diagnosis_input *in)
{
	const struct memory_facts *m = &in->f->memory;
	int members = 0;

	frame_ratio(o, &(struct frame_ratio){ "groundedness", in->f->thresholds.groundedness,
					      m->groundedness, "grounded", m->grounded, "created",
					      m->created });
	if (!frame_evidence(o, in->held))
		return;
	/* the entries the groundedness counted: created ones, by its rule */
	struct capture_facts counted = { 0 };
	struct source_ids captured;
	size_t n;
	struct view *created = memory_created_entries(in->replay, &n);
	memory_count_captures(in->replay, &counted, &captured);
	struct frame_list list = frame_list_open(o, "ungrounded", &members);
	for (size_t i = 0; i < n; i++)
		if (!memory_entry_grounded(created[i], &captured) && frame_list_item(&list))
			write_citations(o, in, created[i], &captured);
	frame_list_close(&list);
	frame_close(o);
	source_ids_free(&captured);
	free(created);
}

void diagnose_scope_empty(struct json_out *o, const struct diagnosis_input *in)
{
	frame_expected(o);
	frame_one_number(o, "entries_before", 0);
	frame_actual(o);
	frame_one_number(o, "entries_before", in->f->memory.before);
	json_out_bytes(o, "}", 1);
}

/* ---- identity ---- */

void diagnosis_identity(struct json_out *o, const struct facts *f)
{
	struct view replay = f->replay, env = f->environment, harbor = f->harbor;
	int members = 0;

	json_out_bytes(o, "{", 1);
	view_write_member(o, "run_id", view_get(replay, "run_id"), &members);
	view_write_member(o, "workload", view_get(f->task, "id"), &members);
	view_write_member(o, "task_checksum", view_get(harbor, "task_checksum"), &members);
	view_write_member(o, "adapter_version", view_get(env, "adapter_version"), &members);
	view_write_member(o, "adapter_protocol_version", view_get(env, "adapter_protocol_version"),
			  &members);
	view_write_member(o, "powercontext", view_get(env, "commit"), &members);
	view_write_member(o, "database", view_get(env, "database"), &members);
	view_write_member(o, "job_id", view_get(harbor, "job_id"), &members);
	view_write_member(o, "trial_uri", view_get(harbor, "trial_uri"), &members);
	json_out_bytes(o, "}", 1);
}
