/* pc-evaluate: replays in, Memory evaluations out (DESIGN §3).
 *
 * The evaluator reads nothing but replay evidence and decides per case:
 * accepted (every assertion true), inconclusive (collection failed) or failed.
 * Reasons are worded and quoted like the reference harness's evaluator.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "io.h"
#include "json.h"
#include "stage.h"
#include "text.h"

extern char **environ;

static const char usage[] =
	"usage: pc-evaluate [--experiment-prefix NAME] [--output DIR]\n"
	"Reads powercontext.e2e-evidence/v1 replays on stdin and writes one\n"
	"powercontext.e2e-evaluation/v1 line per replay.\n"
	"  --experiment-prefix NAME  experiment is NAME:<workload id> (default e2e)\n"
	"  --output DIR              also write DIR/<workload id>/eval-report.json\n"
	"Exit: 0 all accepted, 1 invalid input, 2 a case failed, 3 inconclusive.\n";

/* Counts and sets the rules of DESIGN §3 are computed from. */
struct facts {
	int eligible, captured, new_memory, grounded;
	int probes_declared, probes_supported;
	int in_run_contexts, completed_checkpoints;
	int summaries, instructions;
	int instructions_recorded;
	jv missing_native;          /* sorted list of missing base names */
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

static int entry_grounded(jv entry, jv captured_ids)
{
	jv refs = jv_object_get(jv_copy(entry), jv_string("source_refs"));
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
		before_ids = jv_object_set(before_ids, jv_string(json_str(entry, "entry_id")), jv_true());
		jv_free(entry);
	}
	jv_array_foreach(after, i, entry) {
		(void)i;
		jv seen = jv_object_get(jv_copy(before_ids), jv_string(json_str(entry, "entry_id")));
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

/* Whether the string content holds every fragment (consumed), case-folded. */
static int all_fragments(jv content, jv fragments)
{
	size_t cn, fn;
	const char *c = bytes(content, &cn);
	int ok = 1;

	jv_array_foreach(fragments, i, frag) {
		(void)i;
		const char *f = bytes(frag, &fn);
		ok = ok && text_contains_folded(c, cn, f, fn);
		jv_free(frag);
	}
	jv_free(fragments);
	return ok;
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

static int probe_supported(jv spec, jv observed)
{
	jv id = jv_object_get(jv_copy(spec), jv_string("id"));
	jv probe = find_probe(observed, id);
	int ok = 0;

	if (jv_is_valid(probe)) {
		jv prepared = jv_object_get(jv_copy(probe), jv_string("prepared_context"));
		jv content = jv_object_get(jv_copy(prepared), jv_string("content"));
		jv expected = jv_object_get(jv_copy(spec), jv_string("expected_context"));
		size_t n;
		const char *c = bytes(content, &n);
		ok = str_is(prepared, "status", "ready") && !text_is_blank(c, n) &&
		     all_fragments(content, jv_copy(expected));
		jv_free(content);
		jv_free(expected);
		jv_free(prepared);
	}
	jv_free(probe);
	jv_free(id);
	return ok;
}

static void count_probes(jv replay, struct facts *f)
{
	jv specs = json_at(replay, "task.evaluation.probes");
	jv observed = json_at(replay, "probes");

	jv_array_foreach(specs, i, spec) {
		(void)i;
		f->probes_declared++;
		f->probes_supported += probe_supported(spec, observed);
		jv_free(spec);
	}
	jv_free(specs);
	jv_free(observed);
	f->probe_coverage = f->probes_declared
		? (double)f->probes_supported / f->probes_declared : 0.0;
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
		"acp-events.jsonl", "acp-summary.json", "trajectory.json",
	};
	jv artifacts = json_at(replay, "native_artifacts");
	jv instructions = json_at(replay, "resolved_instructions");
	jv names = jv_object(), summaries = jv_object(), resolved = jv_object();

	jv_array_foreach(artifacts, i, art) {
		(void)i;
		const char *name = json_str(art, "name");
		names = jv_object_set(names, base_name(name), jv_true());
		if (base_name_is(name, "acp-summary.json"))
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
	struct sbuf b = {0};

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
	struct sbuf b = {0};

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
			found = found || all_fragments(text, JV_ARRAY(jv_copy(frag)));
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
	struct sbuf b = {0};

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

static jv assertions(jv replay, const struct facts *f)
{
	jv a = jv_object(), spec = json_at(replay, "task.evaluation");
	jv pinned = json_at(replay, "task.dataset.checksum");
	jv observed = json_at(replay, "harbor.task_checksum");
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
	jv names = jv_keys(jv_copy(rewards));  /* sorted */

	jv_array_foreach(names, i, name) {
		(void)i;
		jv reward = jv_object_get(jv_copy(rewards), jv_copy(name));
		jv key = jv_string_fmt("harbor_reward_%s", jv_string_value(name));
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

static jv attributes(jv replay)
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
		jv_string("workload_id"), json_at(replay, "task.id"));
}

/* The evaluation document of one replay, and its case's exit code. */
static jv evaluate(jv replay, const char *prefix, int *verdict)
{
	struct facts f = {0};
	jv captured_ids, a, task_id = json_at(replay, "task.id");
	const char *id = jv_string_value(task_id);

	count_captures(replay, &f, &captured_ids);
	count_memory(replay, captured_ids, &f);
	count_probes(replay, &f);
	count_native(replay, &f);
	jv_free(captured_ids);
	a = assertions(replay, &f);
	*verdict = EXIT_OK;
	jv_object_foreach(a, k, v) {
		if (!json_has_true(v, "value"))
			*verdict = EXIT_FAILED;
		jv_free(k);
		jv_free(v);
	}
	if (!str_is(replay, "status", "completed"))
		*verdict = EXIT_INCONCLUSIVE;
	jv kase = JV_OBJECT(jv_string("name"), jv_string(id),
			    jv_string("assertions"), a,
			    jv_string("scores"), scores(replay, &f),
			    jv_string("labels"),
			    JV_OBJECT(jv_string("task_outcome"), value(jv_string(""), NULL)),
			    jv_string("metrics"), metrics(&f, replay),
			    jv_string("attributes"), attributes(replay));
	char *outcome = task_outcome(replay);
	kase = jv_setpath(kase, JV_ARRAY(jv_string("labels"), jv_string("task_outcome"),
					 jv_string("value")), jv_string(outcome));
	free(outcome);
	jv_free(f.missing_native);
	jv doc = JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_EVALUATION),
			   jv_string("experiment"), jv_string_fmt("%s:%s", prefix, id),
			   jv_string("cases"), JV_ARRAY(kase));
	jv_free(task_id);
	return doc;
}

struct options {
	const char *prefix;
	const char *output;
};

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "experiment-prefix", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-evaluate", usage, "", longs, argc, argv };
	int c;

	o->prefix = "e2e";
	o->output = NULL;
	while ((c = stage_option(&cli)) >= 0) {
		if (c == 'p')
			o->prefix = optarg;
		else
			o->output = optarg;
	}
	if (c != STAGE_END)
		return c;
	if (!*o->prefix)
		return stage_usage_error("pc-evaluate", usage, "--experiment-prefix must not be empty"), STAGE_USAGE;
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct redactor red;
	struct stage_input in;
	struct pc_err e;
	int rc = parse_args(argc, argv, &o), status = EXIT_OK;
	jv replay;

	if (rc != 0)
		return stage_option_exit(rc);
	redactor_init(&red, environ);
	stage_input_open(&in, "pc-evaluate", &red, SCHEMA_EVIDENCE, &doc_replay);
	while (stage_input_next(&in, &replay)) {
		int verdict;
		jv doc = evaluate(replay, o.prefix, &verdict);
		jv id = jv_getpath(replay, JV_ARRAY(jv_string("task"), jv_string("id")));
		rc = stage_deliver(o.output, jv_string_value(id), "eval-report.json", &red, doc, &e);
		jv_free(id);
		if (rc != 0) {
			status = stage_die("pc-evaluate", &red, EXIT_INVALID, e.msg);
			break;
		}
		status = stage_worst(status, verdict);
	}
	status = stage_worst(status, in.status);
	if (in.count == 0 && status == EXIT_OK)
		status = stage_die("pc-evaluate", &red, EXIT_INVALID, "no replays on stdin");
	stage_input_close(&in);
	redactor_free(&red);
	return status;
}
