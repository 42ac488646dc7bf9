#include "assertions.h"

#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "entry.h"
#include "json.h"
#include "text.h"

struct assertion {
	const char *name;
	int (*applies)(const struct facts *f); /* whether the case has it */
	jv (*judge)(const struct facts *f);    /* {value, reason}, owned by the caller */
	diagnosis_fn diagnose;                 /* pc-e2e's EXPECTED and ACTUAL of it */
};

static int outcome_case(const struct facts *f)
{
	return f->kind == CASE_OUTCOME;
}

static int skipped_case(const struct facts *f)
{
	return f->kind == CASE_SKIPPED;
}

static int memory_case(const struct facts *f)
{
	return f->kind == CASE_MEMORY;
}

static int expects_memory(const struct facts *f)
{
	return memory_case(f) && jv_array_length(jv_copy(f->memory.expected)) > 0;
}

static int forbids_context(const struct facts *f)
{
	return memory_case(f) && f->probes.forbids;
}

/* Malloc'd "<label>: [<the strings of list (borrowed)>]." */
static char *listing(const char *label, jv list)
{
	char *items = repr_list(jv_copy(list));
	char *reason = text_fmt("%s: %s.", label, items);

	free(items);
	return reason;
}

/* A ratio's assertion: whether it reaches its threshold. */
static jv ratio_reaches(double observed, double required)
{
	return entry(jv_bool(observed >= required),
		     text_fmt("Observed %.3f; required %.3f.", observed, required));
}

/* Python's repr() of the Harbor reward (borrowed), None when there is
 * none.  The replay keeps an int reward an int (1, not 1.0), so its literal
 * (borrowed; null if unknown) decides how it prints. */
static void reward_repr(struct sbuf *b, jv reward, jv literal)
{
	size_t lit_len = 0;
	const char *lit =
		jv_get_kind(literal) == JV_KIND_STRING ? string_bytes(literal, &lit_len) : NULL;
	int integral = lit && lit_len > 0;

	for (size_t i = 0; integral && i < lit_len; i++)
		integral = lit[i] == '-' || (lit[i] >= '0' && lit[i] <= '9');

	if (jv_get_kind(reward) != JV_KIND_NUMBER)
		sbuf_add(b, "None");
	else if (integral && !(lit_len == 2 && !strncmp(lit, "-0", 2)))
		sbuf_addn(b, lit, lit_len);
	else if (integral)
		sbuf_add(b, "0");
	else
		text_py_float(b, jv_number_value(reward));
}

/* The workload ended as its manifest expects under the policy: its status,
 * and for a run that ran, Harbor's reward 1 (completed) or 0. */
static jv execution_outcome(const struct facts *f)
{
	const struct outcome_facts *o = &f->outcome;
	int skip = !strcmp(jv_string_value(o->expected_status), "skipped");
	int want = !strcmp(jv_string_value(o->expected_status), "completed");
	int ok = jv_equal(jv_copy(o->expected_status), jv_copy(f->status)) &&
		 (skip ||
		  (jv_get_kind(o->reward) == JV_KIND_NUMBER && jv_number_value(o->reward) == want));
	struct sbuf b = { 0 };

	sbuf_add(&b, "Expected ");
	repr_string(&b, o->expected_status);
	if (!skip)
		sbuf_addf(&b, " with Harbor reward %d", want);
	sbuf_add(&b, "; observed ");
	repr_string(&b, f->status);
	if (!skip) {
		sbuf_add(&b, " with Harbor reward ");
		reward_repr(&b, o->reward, o->reward_literal);
	}
	sbuf_add(&b, ".");
	return entry(jv_bool(ok), sbuf_take(&b));
}

/* A workload a fail-fast group never ran has nothing else to judge. */
static jv execution_completed(const struct facts *f)
{
	(void)f;
	return entry(jv_false(),
		     text_fmt("Skipped after an earlier task stopped the shared Harbor trial."));
}

static char *joined_errors(jv errors)
{
	struct sbuf b = { 0 };

	jv_array_foreach(errors, i, err) {
		size_t n;
		const char *t = string_bytes(err, &n);
		if (i)
			sbuf_add(&b, "; ");
		sbuf_addn(&b, t, n);
		jv_free(err);
	}
	return sbuf_take(&b);
}

static jv collection_completed(const struct facts *f)
{
	int completed = facts_status_is(f, "completed");

	return entry(jv_bool(completed), completed ? NULL : joined_errors(f->errors));
}

static jv task_provenance_matches(const struct facts *f)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "Expected ");
	repr_string(&b, f->dataset_checksum);
	sbuf_add(&b, "; observed ");
	repr_string(&b, f->observed_checksum);
	sbuf_add(&b, ".");
	return entry(jv_bool(jv_equal(jv_copy(f->observed_checksum), jv_copy(f->dataset_checksum))),
		     sbuf_take(&b));
}

static jv native_acp_evidence_recorded(const struct facts *f)
{
	int complete = jv_array_length(jv_copy(f->native.missing)) == 0;

	return entry(jv_bool(complete),
		     complete ? text_fmt("All required native ACP artifacts were recorded.")
			      : listing("Missing native ACP artifacts", f->native.missing));
}

static jv resolved_instructions_recorded(const struct facts *f)
{
	return entry(jv_bool(f->native.instructions_recorded),
		     text_fmt("Resolved %d instructions from %d ACP summaries.",
			      f->native.instructions, f->native.summaries));
}

static jv capture_coverage_accepted(const struct facts *f)
{
	return ratio_reaches(f->captures.coverage, f->thresholds.capture_coverage);
}

static jv memory_created_during_run(const struct facts *f)
{
	int checkpointed =
		!f->thresholds.require_checkpoint || f->captures.completed_checkpoints > 0;

	return entry(jv_bool(f->memory.created > 0 && checkpointed),
		     text_fmt("Created %d Memory entries and completed %d checkpoints.",
			      f->memory.created, f->captures.completed_checkpoints));
}

static jv memory_grounded(const struct facts *f)
{
	return ratio_reaches(f->memory.groundedness, f->thresholds.groundedness);
}

static jv recall_probes_supported(const struct facts *f)
{
	return ratio_reaches(f->probes.coverage, f->thresholds.probe_coverage);
}

static jv memory_recalled_during_run(const struct facts *f)
{
	double required = f->thresholds.in_run_contexts;

	return entry(
		jv_bool(f->captures.in_run_contexts >= required),
		text_fmt("Observed %d; required %.0f.", f->captures.in_run_contexts, required));
}

static jv scope_started_empty(const struct facts *f)
{
	return entry(jv_bool(f->memory.before == 0),
		     text_fmt("Scope started with %d Memory entries.", f->memory.before));
}

static jv expected_memory_recorded(const struct facts *f)
{
	return entry(jv_bool(f->memory.expected_found),
		     listing("Expected Memory fragments", f->memory.expected));
}

static jv forbidden_context_absent(const struct facts *f)
{
	int absent = jv_array_length(jv_copy(f->probes.forbidden_matched)) == 0;

	return entry(jv_bool(absent), absent ? text_fmt("No forbidden context matched.")
					     : listing("Forbidden context matched for probes",
						       f->probes.forbidden_matched));
}

/* The order rows are judged in is the order of the keys written, which
 * must be the reference evaluator's (docs/DESIGN.md §3): a new row goes
 * where 1.4.1 writes its assertion.  The three kinds of case never share
 * an assertion. */
static const struct assertion assertions[] = {
	{ "execution_outcome", outcome_case, execution_outcome,
	  diagnose_execution_outcome },
	{ "execution_completed", skipped_case, execution_completed,
	  diagnose_execution_completed },
	{ "collection_completed", memory_case, collection_completed,
	  diagnose_collection_completed },
	{ "task_provenance_matches", memory_case, task_provenance_matches,
	  diagnose_task_provenance },
	{ "native_acp_evidence_recorded", memory_case, native_acp_evidence_recorded,
	  diagnose_native_acp },
	{ "resolved_instructions_recorded", memory_case, resolved_instructions_recorded,
	  diagnose_instructions },
	{ "capture_coverage_accepted", memory_case, capture_coverage_accepted,
	  diagnose_capture_coverage },
	{ "memory_created_during_run", memory_case, memory_created_during_run,
	  diagnose_memory_created },
	{ "memory_grounded", memory_case, memory_grounded,
	  diagnose_memory_grounded },
	{ "recall_probes_supported", memory_case, recall_probes_supported,
	  diagnose_probes_supported },
	{ "memory_recalled_during_run", memory_case, memory_recalled_during_run,
	  diagnose_recalled_during_run },
	{ "scope_started_empty", memory_case, scope_started_empty,
	  diagnose_scope_empty },
	{ "expected_memory_recorded", expects_memory, expected_memory_recorded,
	  diagnose_expected_memory },
	{ "forbidden_context_absent", forbids_context, forbidden_context_absent,
	  diagnose_forbidden_context },
};

jv assertions_diagnose(const struct facts *f, jv replay, jv judged, const struct redactor *red)
{
	jv out = jv_object();

	for (size_t i = 0; i < sizeof assertions / sizeof *assertions; i++)
		if (assertions[i].applies(f)) {
			jv value = json_at(judged, assertions[i].name);
			struct diagnosis_input in = { replay, f, red,
						      json_has_true(value, "value") };
			out = jv_object_set(out, jv_string(assertions[i].name),
					    assertions[i].diagnose(&in));
			jv_free(value);
		}
	return out;
}

jv assertions_judge(const struct facts *f)
{
	jv judged = jv_object();

	for (size_t i = 0; i < sizeof assertions / sizeof *assertions; i++)
		if (assertions[i].applies(f))
			judged = jv_object_set(judged, jv_string(assertions[i].name),
					       assertions[i].judge(f));
	return judged;
}
