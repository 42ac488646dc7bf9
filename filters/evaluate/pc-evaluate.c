/* pc-evaluate: replays in, evaluations out (docs/DESIGN.md §3).
 *
 * The evaluator reads nothing but replay evidence.  A Memory workload is
 * judged on the Memory it left behind; an outcome workload on whether it
 * ended as its manifest expects under the failure policy the run used, which
 * the replay does not hold, so it comes from --failure-policy.  Values,
 * reasons and their quoting follow PowerContext 1.4.1's evaluator.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "harbor_layout.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "probe.h"
#include "stage.h"
#include "text.h"
#include "verdict.h"

extern char **environ;

static const char usage[] =
	"usage: pc-evaluate [--experiment-prefix NAME] [--failure-policy POLICY] [--output DIR]\n"
	"Reads powercontext.e2e-evidence/v1 replays on stdin and writes one\n"
	"powercontext.e2e-evaluation/v1 line per replay.\n"
	"  --experiment-prefix NAME  experiment is NAME:<workload id> (default e2e)\n"
	"  --failure-policy POLICY   collect-all (default) or fail-fast: the policy the\n"
	"                            replays ran under, which outcome workloads expect\n"
	"  --output DIR              also write DIR/<workload id>/eval-report.json\n"
	"Exit: 0 all accepted, 1 invalid input, 2 a case failed, 3 inconclusive.\n";

/* Counts and sets the rules of docs/DESIGN.md §3 are computed from. */
struct facts {
	int eligible, captured, new_memory, grounded;
	int probes_positive, probes_supported;
	int in_run_contexts, completed_checkpoints;
	int summaries, instructions;
	int instructions_recorded;
	jv missing_native;    /* sorted list of missing base names */
	jv forbidden_matched; /* ids of probes whose context was forbidden */
	double capture_coverage, groundedness, probe_coverage;
};

static int str_is(jv obj, const char *key, const char *want)
{
	const char *s = json_str(obj, key);

	return s && !strcmp(s, want);
}

static int is_eligible(jv rec)
{
	return str_is(rec, "event", "user_prompt") || str_is(rec, "event", "llm_result") ||
	       str_is(rec, "event", "tool_result");
}

static int nonnull_num(jv rec, const char *key, double *x)
{
	jv v = jv_object_get(jv_copy(rec), jv_string(key));
	int ok = jv_get_kind(v) == JV_KIND_NUMBER;

	if (ok)
		*x = jv_number_value(v);
	jv_free(v);
	return ok;
}

static void count_captures(jv replay, struct facts *f, jv *captured_ids)
{
	jv records = json_at(replay, "capture_records");

	*captured_ids = jv_object();
	jv_array_foreach(records, i, rec) {
		double cur, target, bytes;
		(void)i;
		if (is_eligible(rec)) {
			f->eligible++;
			if (str_is(rec, "status", "captured")) {
				f->captured++;
				const char *sid = json_str(rec, "source_id");
				if (sid)
					*captured_ids = jv_object_set(*captured_ids, jv_string(sid), jv_true());
			}
		}
		if (str_is(rec, "event", "context") && str_is(rec, "status", "ready") &&
		    nonnull_num(rec, "content_bytes", &bytes) && bytes > 0)
			f->in_run_contexts++;
		if (str_is(rec, "event", "checkpoint") && !str_is(rec, "status", "failed") &&
		    nonnull_num(rec, "current_cursor", &cur) &&
		    nonnull_num(rec, "target_position", &target) && cur >= target)
			f->completed_checkpoints++;
		jv_free(rec);
	}
	jv_free(records);
	f->capture_coverage = f->eligible ? (double)f->captured / f->eligible : 0.0;
}

static int is_atomic(jv entry)
{
	jv artifact = json_at(entry, "artifact");
	int atomic = jv_get_kind(artifact) == JV_KIND_OBJECT;

	jv_free(artifact);
	return atomic;
}

/* (family, artifact id) of an atomic entry, ("memory", entry id) of a
 * legacy one: revisions and states of one entry are the same Memory.  A
 * family is printable ASCII, so the newline cannot be ambiguous. */
static jv memory_identity(jv entry)
{
	if (is_atomic(entry)) {
		jv artifact = json_at(entry, "artifact");
		jv id = jv_string_fmt("%s\n%s", json_str(artifact, "family"), json_str(artifact, "artifact_id"));
		jv_free(artifact);
		return id;
	}
	return jv_string_fmt("memory\n%s", json_str(entry, "entry_id"));
}

/* Grounded: cites a Source, and every Source it cites was captured. */
static int entry_grounded(jv entry, jv captured_ids)
{
	jv refs = jv_object_get(jv_copy(entry), jv_string(is_atomic(entry) ? "sources" : "source_refs"));
	int n = jv_array_length(jv_copy(refs)), ok = n > 0;

	jv_array_foreach(refs, i, ref) {
		(void)i;
		jv has = jv_object_get(jv_copy(captured_ids), jv_string(json_str(ref, "source_id")));
		ok = ok && jv_is_valid(has);
		jv_free(has);
		jv_free(ref);
	}
	jv_free(refs);
	return ok;
}

static void count_memory(jv replay, jv captured_ids, struct facts *f)
{
	jv before = json_at(replay, "memory_before.entries");
	jv after = json_at(replay, "memory_after.entries");
	jv before_ids = jv_object();

	jv_array_foreach(before, i, entry) {
		(void)i;
		before_ids = jv_object_set(before_ids, memory_identity(entry), jv_true());
		jv_free(entry);
	}
	jv_array_foreach(after, i, entry) {
		(void)i;
		jv seen = jv_object_get(jv_copy(before_ids), memory_identity(entry));
		if (!jv_is_valid(seen)) {
			f->new_memory++;
			f->grounded += entry_grounded(entry, captured_ids);
		}
		jv_free(seen);
		jv_free(entry);
	}
	jv_free(before_ids);
	jv_free(before);
	jv_free(after);
	f->groundedness = f->new_memory ? (double)f->grounded / f->new_memory : 0.0;
}

/* The bytes of a jv string (borrowed): JSON strings may hold NUL. */
static const char *bytes(jv s, size_t *n)
{
	*n = (size_t)jv_string_length_bytes(jv_copy(s));
	return jv_string_value(s);
}

/* Whether the string content (borrowed) holds every fragment (consumed). */
static int all_fragments(enum text_fold how, jv content, jv fragments)
{
	int all = text_fragments_found(how, content, fragments) == jv_array_length(jv_copy(fragments));

	jv_free(fragments);
	return all;
}

/* The observed probe with this id (observed is borrowed); the last one
 * wins, like a dict. */
static jv find_probe(jv observed, jv id)
{
	jv found = jv_invalid();

	jv_array_foreach(observed, i, probe) {
		(void)i;
		if (jv_equal(jv_object_get(jv_copy(probe), jv_string("id")), jv_copy(id))) {
			jv_free(found);
			found = probe;
		} else
			jv_free(probe);
	}
	return found;
}

/* A ready probe (borrowed) matched a forbidden fragment of its spec: as the
 * run recorded it, or, in replays that did not record it, by its content. */
static int probe_forbidden(jv spec, jv probe)
{
	jv forbidden = json_at(spec, "forbidden_context");
	jv recorded = json_at(probe, "forbidden_context_matched");
	jv content = json_at(probe, "prepared_context.content");
	int matched = 0;

	if (jv_get_kind(forbidden) != JV_KIND_ARRAY || jv_array_length(jv_copy(forbidden)) == 0)
		matched = 0;
	else if (jv_get_kind(recorded) != JV_KIND_NULL)
		matched = jv_get_kind(recorded) == JV_KIND_TRUE;
	else
		matched = probe_context_forbidden(spec, content);
	jv_free(content);
	jv_free(recorded);
	jv_free(forbidden);
	return matched;
}

static int probe_supported(jv spec, jv probe, int forbidden)
{
	jv content = json_at(probe, "prepared_context.content");
	jv expected = json_at(spec, "expected_context");
	size_t n;
	const char *c = jv_get_kind(content) == JV_KIND_STRING ? bytes(content, &n) : (n = 0, "");
	int ok = !forbidden && n > 0 && !text_is_blank(c, n) &&
		 all_fragments(TEXT_FOLD_NFC, content, jv_copy(expected));

	jv_free(content);
	jv_free(expected);
	return ok;
}

/* Probes with expected context are positive; one that only forbids context
 * (an abstention probe) counts toward forbidden_context_absent alone. */
static void count_probes(jv replay, struct facts *f)
{
	jv specs = json_at(replay, "task.evaluation.probes");
	jv observed = json_at(replay, "probes");

	f->forbidden_matched = jv_array();
	jv_array_foreach(specs, i, spec) {
		(void)i;
		jv id = json_get(spec, "id");
		jv probe = find_probe(observed, id);
		jv prepared = json_at(probe, "prepared_context");
		int positive = jv_array_length(json_at(spec, "expected_context")) > 0;
		int ready = str_is(prepared, "status", "ready");
		int forbidden = ready && probe_forbidden(spec, probe);

		if (forbidden)
			f->forbidden_matched = jv_array_append(f->forbidden_matched, jv_copy(id));
		f->probes_positive += positive;
		f->probes_supported += positive && ready && probe_supported(spec, probe, forbidden);
		jv_free(prepared);
		jv_free(probe);
		jv_free(id);
		jv_free(spec);
	}
	jv_free(specs);
	jv_free(observed);
	f->probe_coverage = f->probes_positive
				    ? (double)f->probes_supported / f->probes_positive
				    : 1.0;
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

static void count_native(jv replay, struct facts *f)
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
		(void)i;
		const char *name = json_str(art, "name");
		names = jv_object_set(names, base_name(name), jv_true());
		if (base_name_is(name, HARBOR_ACP_SUMMARY_FILE))
			summaries = jv_object_set(summaries, jv_string(name), jv_true());
		jv_free(art);
	}
	jv_array_foreach(instructions, i, ins) {
		(void)i;
		resolved = jv_object_set(resolved, jv_string(json_str(ins, "artifact")), jv_true());
		jv_free(ins);
	}
	f->missing_native = jv_array();
	for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
		jv has = jv_object_get(jv_copy(names), jv_string(required[i]));
		if (!jv_is_valid(has))
			f->missing_native = jv_array_append(f->missing_native, jv_string(required[i]));
		jv_free(has);
	}
	f->summaries = jv_object_length(jv_copy(summaries));
	f->instructions = jv_object_length(jv_copy(resolved));
	f->instructions_recorded = f->summaries > 0 && jv_equal(jv_copy(summaries), jv_copy(resolved));
	jv_free(names);
	jv_free(summaries);
	jv_free(resolved);
	jv_free(artifacts);
	jv_free(instructions);
}

static jv value(jv v, char *reason)
{
	jv out = JV_OBJECT(jv_string("value"), v, jv_string("reason"),
			   reason ? jv_string(reason) : jv_null());

	free(reason);
	return out;
}

static char *observed_required(double observed, double required)
{
	return text_fmt("Observed %.3f; required %.3f.", observed, required);
}

static char *joined_errors(jv replay)
{
	jv errors = json_at(replay, "errors");
	struct sbuf b = { 0 };

	jv_array_foreach(errors, i, err) {
		size_t n;
		const char *t = bytes(err, &n);
		if (i)
			sbuf_add(&b, "; ");
		sbuf_addn(&b, t, n);
		jv_free(err);
	}
	jv_free(errors);
	return sbuf_take(&b);
}

/* Python repr() of a jv string, or None for anything else. */
static void repr(struct sbuf *b, jv v)
{
	size_t n;

	if (jv_get_kind(v) == JV_KIND_STRING) {
		const char *t = bytes(v, &n);
		text_py_repr(b, t, n);
	} else
		text_py_repr(b, NULL, 0);
}

static char *repr_list(jv list)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "[");
	jv_array_foreach(list, i, item) {
		if (i)
			sbuf_add(&b, ", ");
		repr(&b, item);
		jv_free(item);
	}
	jv_free(list);
	sbuf_add(&b, "]");
	return sbuf_take(&b);
}

static int expected_memory_found(jv replay)
{
	jv fragments = json_at(replay, "task.evaluation.expected_memory");
	jv entries = json_at(replay, "memory_after.entries");
	int ok = 1;

	jv_array_foreach(fragments, i, frag) {
		int found = 0;
		(void)i;
		jv_array_foreach(entries, j, entry) {
			(void)j;
			jv text = jv_object_get(entry, jv_string("text"));
			found = found || all_fragments(TEXT_FOLD, text, JV_ARRAY(jv_copy(frag)));
			jv_free(text);
		}
		ok = ok && found;
		jv_free(frag);
	}
	jv_free(fragments);
	jv_free(entries);
	return ok;
}

static char *provenance_reason(jv pinned, jv seen)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "Expected ");
	repr(&b, pinned);
	sbuf_add(&b, "; observed ");
	repr(&b, seen);
	sbuf_add(&b, ".");
	return sbuf_take(&b);
}

static jv native_assertion(const struct facts *f)
{
	if (jv_array_length(jv_copy(f->missing_native)) == 0)
		return value(jv_true(), text_fmt("All required native ACP artifacts were recorded."));
	char *list = repr_list(jv_copy(f->missing_native));
	jv v = value(jv_false(), text_fmt("Missing native ACP artifacts: %s.", list));
	free(list);
	return v;
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

static int declares_forbidden(jv spec)
{
	jv probes = json_at(spec, "probes");
	int any = 0;

	jv_array_foreach(probes, i, probe) {
		(void)i;
		any = any || jv_array_length(json_at(probe, "forbidden_context")) > 0;
		jv_free(probe);
	}
	jv_free(probes);
	return any;
}

static jv forbidden_assertion(const struct facts *f)
{
	if (jv_array_length(jv_copy(f->forbidden_matched)) == 0)
		return value(jv_true(), text_fmt("No forbidden context matched."));
	char *list = repr_list(jv_copy(f->forbidden_matched));
	jv v = value(jv_false(), text_fmt("Forbidden context matched for probes: %s.", list));
	free(list);
	return v;
}

static jv assertions(jv replay, const struct facts *f)
{
	jv a = jv_object(), spec = json_at(replay, "task.evaluation");
	jv pinned = json_at(replay, "task.dataset.checksum");
	jv observed = observed_checksum(replay);
	jv fragments = json_at(spec, "expected_memory");
	int completed = str_is(replay, "status", "completed");
	int before = jv_array_length(json_at(replay, "memory_before.entries"));
	double t_capture = json_number_at(spec, "thresholds.capture_coverage", 0);
	double t_grounded = json_number_at(spec, "thresholds.groundedness", 0);
	double t_probes = json_number_at(spec, "thresholds.probe_coverage", 0);
	double t_contexts = json_number_at(spec, "thresholds.minimum_in_run_contexts", 0);

#define SET(name, v) a = jv_object_set(a, jv_string(name), v)
	SET("collection_completed",
	    value(jv_bool(completed), completed ? NULL : joined_errors(replay)));
	SET("task_provenance_matches",
	    value(jv_bool(jv_equal(jv_copy(observed), jv_copy(pinned))),
		  provenance_reason(pinned, observed)));
	SET("native_acp_evidence_recorded", native_assertion(f));
	SET("resolved_instructions_recorded",
	    value(jv_bool(f->instructions_recorded),
		  text_fmt("Resolved %d instructions from %d ACP summaries.",
			   f->instructions, f->summaries)));
	SET("capture_coverage_accepted",
	    value(jv_bool(f->capture_coverage >= t_capture),
		  observed_required(f->capture_coverage, t_capture)));
	SET("memory_created_during_run",
	    value(jv_bool(f->new_memory > 0 &&
			  (!json_has_true(spec, "require_checkpoint") || f->completed_checkpoints > 0)),
		  text_fmt("Created %d Memory entries and completed %d checkpoints.",
			   f->new_memory, f->completed_checkpoints)));
	SET("memory_grounded",
	    value(jv_bool(f->groundedness >= t_grounded),
		  observed_required(f->groundedness, t_grounded)));
	SET("recall_probes_supported",
	    value(jv_bool(f->probe_coverage >= t_probes),
		  observed_required(f->probe_coverage, t_probes)));
	SET("memory_recalled_during_run",
	    value(jv_bool(f->in_run_contexts >= t_contexts),
		  text_fmt("Observed %d; required %.0f.", f->in_run_contexts, t_contexts)));
	SET("scope_started_empty",
	    value(jv_bool(before == 0), text_fmt("Scope started with %d Memory entries.", before)));
	if (jv_array_length(jv_copy(fragments)) > 0) {
		char *list = repr_list(jv_copy(fragments));
		SET("expected_memory_recorded",
		    value(jv_bool(expected_memory_found(replay)),
			  text_fmt("Expected Memory fragments: %s.", list)));
		free(list);
	}
	if (declares_forbidden(spec))
		SET("forbidden_context_absent", forbidden_assertion(f));
#undef SET
	jv_free(fragments);
	jv_free(observed);
	jv_free(pinned);
	jv_free(spec);
	return a;
}

static jv score(double x)
{
	return JV_OBJECT(jv_string("value"), jv_number(x), jv_string("reason"), jv_null());
}

static jv scores(jv replay, const struct facts *f)
{
	jv s = JV_OBJECT(jv_string("capture_coverage"), score(f->capture_coverage),
			 jv_string("groundedness"), score(f->groundedness),
			 jv_string("probe_coverage"), score(f->probe_coverage));
	jv rewards = json_at(replay, "harbor.rewards");
	jv names = jv_keys(jv_copy(rewards)); /* sorted */

	jv_array_foreach(names, i, name) {
		(void)i;
		jv reward = jv_object_get(jv_copy(rewards), jv_copy(name));
		jv key = jv_string_fmt(DOCS_REWARD_SCORE_PREFIX "%s", jv_string_value(name));
		s = jv_object_set(s, key, score(jv_number_value(reward)));
		jv_free(reward);
		jv_free(name);
	}
	jv_free(names);
	jv_free(rewards);
	return s;
}

static char *task_outcome(jv replay)
{
	jv harbor = json_at(replay, "harbor");
	jv rewards = json_at(harbor, "rewards");
	const char *exception = json_str(harbor, "exception_type");
	char *outcome;

	if (exception)
		outcome = text_fmt("error:%s", exception);
	else if (str_is(replay, "status", "failed"))
		outcome = text_fmt("not_passed");
	else if (jv_object_length(jv_copy(rewards)) == 0)
		outcome = text_fmt("unscored");
	else {
		int passed = 1;
		jv_object_foreach(rewards, k, r) {
			passed = passed && jv_number_value(r) >= 1;
			jv_free(k);
			jv_free(r);
		}
		outcome = text_fmt("%s", passed ? "passed" : "not_passed");
	}
	jv_free(rewards);
	jv_free(harbor);
	return outcome;
}

static jv metrics(const struct facts *f, jv replay)
{
	return JV_OBJECT(
		jv_string("capture_events"), jv_number(f->eligible),
		jv_string("captured_sources"), jv_number(f->captured),
		jv_string("completed_checkpoints"), jv_number(f->completed_checkpoints),
		jv_string("in_run_contexts"), jv_number(f->in_run_contexts),
		jv_string("resolved_instructions"),
		jv_number(jv_array_length(json_at(replay, "resolved_instructions"))),
		jv_string("memory_entries_after"),
		jv_number(jv_array_length(json_at(replay, "memory_after.entries"))),
		jv_string("memory_entries_created"), jv_number(f->new_memory),
		jv_string("recall_probes_supported"), jv_number(f->probes_supported));
}

/* What makes two runs comparable (pc-report's ledger keys its trends by
 * it, docs/ledger.md): only fields that hold no secret.  The manifest digest
 * stands for the whole workload as it ran (its steps, probes, budget and
 * expectations); the fields beside it say which of them changed.  The
 * PowerContext under test is left out: a trend is there to show what a new
 * release changed. */
static jv comparability(jv replay, const char *policy)
{
	jv task = json_get(replay, "task");
	jv canonical = jv_dump_string(task, JV_PRINT_SORTED);
	char digest[SHA256_HEX_LEN + 1];

	sha256_hex(jv_string_value(canonical), (size_t)jv_string_length_bytes(jv_copy(canonical)), digest);
	jv_free(canonical);
	return JV_OBJECT(
		jv_string("manifest_digest"), jv_string(digest),
		jv_string("dataset_checksum"), json_at(replay, "task.dataset.checksum"),
		jv_string("database"), json_at(replay, "environment.database"),
		jv_string("adapter_version"), json_at(replay, "environment.adapter_version"),
		jv_string("adapter_protocol_version"), json_at(replay, "environment.adapter_protocol_version"),
		jv_string("agent_model"), json_at(replay, "environment.agent_model"),
		jv_string("max_steps"), json_at(replay, "task.execution.max_steps"),
		jv_string("max_tokens"), json_at(replay, "task.execution.max_tokens"),
		jv_string("failure_policy"), jv_string(policy));
}

/* The reference harness's attributes, then pc-e2e's own two: comparability
 * and the run's time (the replay's, so a rescore records the same one). */
static jv attributes(jv replay, const char *policy)
{
	jv dataset = json_at(replay, "task.dataset.name");

	/* the reference writes `name or str(path)`: an empty name falls back
	 * too, and a missing path prints as "None" */
	if (jv_get_kind(dataset) != JV_KIND_STRING || jv_string_length_bytes(jv_copy(dataset)) == 0) {
		jv_free(dataset);
		dataset = json_at(replay, "task.dataset.path");
		if (jv_get_kind(dataset) != JV_KIND_STRING) {
			jv_free(dataset);
			dataset = jv_string("None");
		}
	}
	return JV_OBJECT(
		jv_string("commit"), json_at(replay, "environment.commit"),
		jv_string("database"), json_at(replay, "environment.database"),
		jv_string("dataset"), dataset,
		jv_string("execution_adapter"), json_at(replay, "task.execution.type"),
		jv_string("harbor_task_id"), json_at(replay, "task.dataset.task_id"),
		jv_string("run_id"), json_at(replay, "run_id"),
		jv_string("workload_id"), json_at(replay, "task.id"),
		jv_string("comparability"), comparability(replay, policy),
		jv_string("finished_at"), json_at(replay, "environment.finished_at"));
}

/* One case; assertions, scores and metrics are consumed, outcome freed. */
static jv make_case(jv replay, const char *policy, jv assertions, jv scores, char *outcome, jv metrics)
{
	jv kase = JV_OBJECT(jv_string("name"), json_at(replay, "task.id"),
			    jv_string("assertions"), assertions,
			    jv_string("scores"), scores,
			    jv_string("labels"),
			    JV_OBJECT(jv_string("task_outcome"), value(jv_string(outcome), NULL)),
			    jv_string("metrics"), metrics,
			    jv_string("attributes"), attributes(replay, policy));

	free(outcome);
	return kase;
}

static jv memory_case(jv replay, const char *policy)
{
	struct facts f = { 0 };
	jv captured_ids;

	count_captures(replay, &f, &captured_ids);
	count_memory(replay, captured_ids, &f);
	count_probes(replay, &f);
	count_native(replay, &f);
	jv_free(captured_ids);
	jv kase = make_case(replay, policy, assertions(replay, &f), scores(replay, &f),
			    task_outcome(replay), metrics(&f, replay));
	jv_free(f.missing_native);
	jv_free(f.forbidden_matched);
	return kase;
}

/* A workload a fail-fast group never ran has nothing to judge. */
static jv skipped_case(jv replay, const char *policy)
{
	jv a = JV_OBJECT(jv_string("execution_completed"),
			 value(jv_false(), text_fmt("Skipped after an earlier task stopped the shared Harbor trial.")));

	return make_case(replay, policy, a, jv_object(), text_fmt("skipped"), jv_object());
}

/* Python's repr() of the Harbor reward, None when there is none.  The
 * replay keeps an int reward an int (1, not 1.0), so its literal (NULL if
 * unknown) decides how it prints. */
static void reward_repr(struct sbuf *b, jv reward, const char *lit, size_t lit_len)
{
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

/* An outcome workload ends as its manifest expects under the policy: its
 * status, and for a run that ran, Harbor's reward 1 (completed) or 0. */
static jv outcome_case(jv replay, const char *policy, const char *text, size_t text_len)
{
	jv expectations = json_at(replay, "task.evaluation.expected_execution");
	jv expected = json_get(expectations, policy), actual = json_get(replay, "status");
	jv reward = json_at(replay, "harbor.rewards.reward");
	int skip = !strcmp(jv_string_value(expected), "skipped");
	int want = !strcmp(jv_string_value(expected), "completed");
	int ok = jv_equal(jv_copy(expected), jv_copy(actual)) &&
		 (skip || (jv_get_kind(reward) == JV_KIND_NUMBER && jv_number_value(reward) == want));
	struct sbuf b = { 0 };
	const char *lit = NULL;
	size_t lit_len = 0;

	if (text && !json_literal_at(text, text_len, "harbor.rewards.reward", &lit, &lit_len))
		lit = NULL;
	sbuf_add(&b, "Expected ");
	repr(&b, expected);
	if (!skip)
		sbuf_addf(&b, " with Harbor reward %d", want);
	sbuf_add(&b, "; observed ");
	repr(&b, actual);
	if (!skip) {
		sbuf_add(&b, " with Harbor reward ");
		reward_repr(&b, reward, lit, lit_len);
	}
	sbuf_add(&b, ".");
	jv a = JV_OBJECT(jv_string("execution_outcome"), value(jv_bool(ok), sbuf_take(&b)));
	jv kase = make_case(replay, policy, a, jv_object(), text_fmt("%s", jv_string_value(actual)), jv_object());
	jv_free(reward);
	jv_free(actual);
	jv_free(expected);
	jv_free(expectations);
	return kase;
}

/* The evaluation document of one replay into *doc, and its exit code;
 * -1 for a replay no single-run evaluation can judge.  text is the replay
 * as it was written. */
static int evaluate(jv replay, const char *text, size_t text_len, const char *prefix,
		    const char *policy, jv *doc, int *code, struct pc_err *e)
{
	jv evaluation = json_at(replay, "task.evaluation");
	enum evaluation_kind kind = docs_evaluation_kind(evaluation);
	int skipped = str_is(replay, "status", "skipped");
	jv kase, experiment;

	jv_free(evaluation);
	if (kind == EVALUATION_OUTCOME)
		kase = outcome_case(replay, policy, text, text_len);
	else if (skipped)
		kase = skipped_case(replay, policy);
	else if (kind == EVALUATION_MEMORY)
		kase = memory_case(replay, policy);
	else {
		jv id = json_at(replay, "task.id");
		pc_fail(e, "workload %s (run %s): an OFF/ON paired workload is judged on a pair of runs, not on one replay",
			jv_string_value(id), json_str(replay, "run_id"));
		jv_free(id);
		return -1;
	}
	verdict_judge(kase, code);
	experiment = jv_string_fmt("%s:%s", prefix, json_str(kase, "name"));
	*doc = JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_EVALUATION),
			 jv_string("experiment"), experiment,
			 jv_string("cases"), JV_ARRAY(kase));
	return 0;
}

struct options {
	const char *prefix;
	const char *policy;
	const char *output;
};

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "experiment-prefix", required_argument, NULL, 'p' },
		{ "failure-policy", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-evaluate", usage, "", longs, argc, argv };
	int c;

	o->prefix = "e2e";
	o->policy = "collect-all";
	o->output = NULL;
	while ((c = stage_option(&cli)) >= 0) {
		if (c == 'p')
			o->prefix = optarg;
		else if (c == 'f')
			o->policy = optarg;
		else
			o->output = optarg;
	}
	if (c != STAGE_END)
		return c;
	if (!*o->prefix)
		return stage_usage_error("pc-evaluate", usage, "--experiment-prefix must not be empty"), STAGE_USAGE;
	return stage_check_policy("pc-evaluate", usage, o->policy);
}

static int evaluate_one(void *ctx, jv replay, const struct json_reader *raw, jv *doc,
			int *code, struct pc_err *e)
{
	const struct options *o = ctx;

	return evaluate(replay, raw->text, raw->text_len, o->prefix, o->policy, doc, code, e);
}

int main(int argc, char **argv)
{
	struct options o;
	struct redactor red;
	int rc = parse_args(argc, argv, &o);
	const struct stage_pass pass = {
		"pc-evaluate",
		SCHEMA_EVIDENCE,
		&doc_replay,
		"task.id",
		"eval-report.json",
		"no replays on stdin",
		evaluate_one,
		&o,
	};

	if (rc != 0)
		return stage_option_exit(rc);
	redactor_init(&red, environ);
	rc = stage_run_pass(&pass, o.output, &red);
	redactor_free(&red);
	return rc;
}
