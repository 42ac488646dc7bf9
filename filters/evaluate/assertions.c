#include "assertions.h"

#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "entry.h"
#include "err.h"
#include "literal.h"
#include "recall.h"
#include "text.h"

struct assertion {
	const char *name;
	int (*applies)(const struct facts *f); /* whether the case has it */
	/* whether it holds, and its reason (malloc'd, or NULL for null) */
	int (*judge)(const struct facts *f, char **reason);
	diagnosis_fn diagnose; /* pc-e2e's EXPECTED and ACTUAL of it */
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
	return memory_case(f) && view_items(f->memory.expected).n > 0;
}

static int forbids_context(const struct facts *f)
{
	return memory_case(f) && f->probes.forbids;
}

/* Malloc'd "<label>: [<the strings of items>]." */
static char *listing(const char *label, const struct view *items, size_t n)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, label);
	sbuf_add(&b, ": ");
	repr_list(&b, items, n);
	sbuf_add(&b, ".");
	return sbuf_take(&b);
}

/* A ratio's assertion: whether it reaches its threshold. */
static int ratio_reaches(double observed, double required, char **reason)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "Observed ");
	sbuf_add_fixed(&b, observed, 3);
	sbuf_add(&b, "; required ");
	sbuf_add_fixed(&b, required, 3);
	sbuf_add(&b, ".");
	*reason = sbuf_take(&b);
	return observed >= required;
}

/* Python's repr() of the Harbor reward, None when there is none.  The
 * replay keeps an int reward an int (1, not 1.0), so its literal (NULL if
 * unknown) decides how it prints. */
static void reward_repr(struct sbuf *b, struct view reward, const char *lit, size_t lit_len)
{
	double x;

	if (!view_num(reward, &x))
		sbuf_add(b, "None");
	else
		literal_add_repr(b, x, lit, lit_len);
}

/* Whether two views are equal strings (jv_equal of two strings; a null
 * equals a null). */
static int same_string(struct view a, struct view b)
{
	size_t na, nb;
	const char *sa = view_str(a, &na), *sb = view_str(b, &nb);

	if (!sa || !sb)
		return !sa && !sb && view_is_null(a) && view_is_null(b);
	return na == nb && !memcmp(sa, sb, na);
}

/* The workload ended as its manifest expects under the policy: its status,
 * and for a run that ran, Harbor's reward 1 (completed) or 0. */
static int execution_outcome(const struct facts *f, char **reason)
{
	const struct outcome_facts *o = &f->outcome;
	int skip = view_str_is(o->expected_status, "skipped");
	int want = view_str_is(o->expected_status, "completed");
	double reward;
	int ok = same_string(o->expected_status, f->status) &&
		 (skip || (view_num(o->reward, &reward) && reward == want));
	struct sbuf b = { 0 };

	sbuf_add(&b, "Expected ");
	repr_string(&b, o->expected_status);
	if (!skip)
		sbuf_addf(&b, " with Harbor reward %d", want);
	sbuf_add(&b, "; observed ");
	repr_string(&b, f->status);
	if (!skip) {
		sbuf_add(&b, " with Harbor reward ");
		reward_repr(&b, o->reward, o->reward_literal, o->reward_literal_len);
	}
	sbuf_add(&b, ".");
	*reason = sbuf_take(&b);
	return ok;
}

/* A workload a fail-fast group never ran has nothing else to judge. */
static int execution_completed(const struct facts *f, char **reason)
{
	(void)f;
	*reason = pc_xstrdup("Skipped after an earlier task stopped the shared Harbor trial.");
	return 0;
}

static char *joined_errors(struct view errors)
{
	struct view_items items = view_items(errors);
	struct view err;
	struct sbuf b = { 0 };
	size_t n;
	int first = 1;

	while (view_next(&items, &err)) {
		const char *t = view_str(err, &n);
		if (!first)
			sbuf_add(&b, "; ");
		first = 0;
		sbuf_addn(&b, t, n);
	}
	return sbuf_take(&b);
}

static int collection_completed(const struct facts *f, char **reason)
{
	int completed = facts_status_is(f, "completed");

	*reason = completed ? NULL : joined_errors(f->errors);
	return completed;
}

static int task_provenance_matches(const struct facts *f, char **reason)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "Expected ");
	repr_string(&b, f->dataset_checksum);
	sbuf_add(&b, "; observed ");
	repr_string(&b, f->observed_checksum);
	sbuf_add(&b, ".");
	*reason = sbuf_take(&b);
	return same_string(f->observed_checksum, f->dataset_checksum);
}

static int native_acp_evidence_recorded(const struct facts *f, char **reason)
{
	const struct native_facts *n = &f->native;
	struct sbuf b = { 0 };

	if (n->n_missing == 0) {
		*reason = pc_xstrdup("All required native ACP artifacts were recorded.");
		return 1;
	}
	sbuf_add(&b, "Missing native ACP artifacts: [");
	for (int i = 0; i < n->n_missing; i++) {
		if (i)
			sbuf_add(&b, ", ");
		text_py_repr(&b, n->missing[i], strlen(n->missing[i]));
	}
	sbuf_add(&b, "].");
	*reason = sbuf_take(&b);
	return 0;
}

static int resolved_instructions_recorded(const struct facts *f, char **reason)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "Resolved ");
	sbuf_add_int(&b, f->native.instructions);
	sbuf_add(&b, " instructions from ");
	sbuf_add_int(&b, f->native.summaries);
	sbuf_add(&b, " ACP summaries.");
	*reason = sbuf_take(&b);
	return f->native.instructions_recorded;
}

static int capture_coverage_accepted(const struct facts *f, char **reason)
{
	return ratio_reaches(f->captures.coverage, f->thresholds.capture_coverage, reason);
}

static int memory_created_during_run(const struct facts *f, char **reason)
{
	int checkpointed =
		!f->thresholds.require_checkpoint || f->captures.completed_checkpoints > 0;

	struct sbuf b = { 0 };

	sbuf_add(&b, "Created ");
	sbuf_add_int(&b, f->memory.created);
	sbuf_add(&b, " Memory entries and completed ");
	sbuf_add_int(&b, f->captures.completed_checkpoints);
	sbuf_add(&b, " checkpoints.");
	*reason = sbuf_take(&b);
	return f->memory.created > 0 && checkpointed;
}

static int memory_grounded(const struct facts *f, char **reason)
{
	return ratio_reaches(f->memory.groundedness, f->thresholds.groundedness, reason);
}

static int recall_probes_supported(const struct facts *f, char **reason)
{
	return ratio_reaches(f->probes.coverage, f->thresholds.probe_coverage, reason);
}

static int memory_recalled_during_run(const struct facts *f, char **reason)
{
	double required = f->thresholds.in_run_contexts;

	struct sbuf b = { 0 };

	sbuf_add(&b, "Observed ");
	sbuf_add_int(&b, f->captures.in_run_contexts);
	sbuf_add(&b, "; required ");
	sbuf_add_fixed(&b, required, 0);
	sbuf_add(&b, ".");
	*reason = sbuf_take(&b);
	return f->captures.in_run_contexts >= required;
}

static int scope_started_empty(const struct facts *f, char **reason)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "Scope started with ");
	sbuf_add_int(&b, f->memory.before);
	sbuf_add(&b, " Memory entries.");
	*reason = sbuf_take(&b);
	return f->memory.before == 0;
}

static int expected_memory_recorded(const struct facts *f, char **reason)
{
	size_t n;
	struct view *fragments = entry_items(f->memory.expected, &n);

	*reason = listing("Expected Memory fragments", fragments, n);
	free(fragments);
	return f->memory.expected_found;
}

static int forbidden_context_absent(const struct facts *f, char **reason)
{
	const struct probe_facts *p = &f->probes;
	int absent = p->n_forbidden_matched == 0;

	*reason = absent ? pc_xstrdup("No forbidden context matched.")
			 : listing("Forbidden context matched for probes", p->forbidden_matched,
				   p->n_forbidden_matched);
	return absent;
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

size_t assertions_write(struct json_out *o, const struct facts *f,
			struct judgement judged[ASSERTIONS_MAX])
{
	size_t n = 0;
	int members = 0;

	json_out_bytes(o, "{", 1);
	for (size_t i = 0; i < sizeof assertions / sizeof *assertions; i++)
		if (assertions[i].applies(f)) {
			char *reason = NULL;
			int held = assertions[i].judge(f, &reason);
			json_out_key(o, assertions[i].name, &members);
			entry_bool(o, held, reason);
			judged[n++] = (struct judgement){ assertions[i].name, held };
		}
	json_out_bytes(o, "}", 1);
	return n;
}

void assertions_diagnose(struct json_out *o, const struct facts *f,
			 const struct judgement *judged, size_t n, const struct redactor *red)
{
	int members = 0;

	json_out_bytes(o, "{", 1);
	for (size_t j = 0; j < n; j++)
		for (size_t i = 0; i < sizeof assertions / sizeof *assertions; i++)
			if (assertions[i].name == judged[j].name) {
				struct diagnosis_input in = { f->replay, f, red, judged[j].held };
				json_out_key(o, judged[j].name, &members);
				assertions[i].diagnose(o, &in);
			}
	json_out_bytes(o, "}", 1);
}
