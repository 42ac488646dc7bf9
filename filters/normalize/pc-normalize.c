/* pc-normalize: run records in, replays out (docs/DESIGN.md §2.4).
 *
 * The replay is rebuilt from the record plus the files under its trial
 * directory, deterministically: capture logs, native ACP artifacts, resolved
 * instructions and the Harbor trial result, then redaction at the sink.
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
#include "observe.h"
#include "outdir.h"
#include "stage.h"
#include "text.h"

extern char **environ;

static const char usage[] =
	"usage: pc-normalize [--paired] [--output DIR]\n"
	"Reads powercontext.e2e-run/v1 records on stdin and writes one\n"
	"powercontext.e2e-evidence/v1 replay per record, rebuilt from the record and\n"
	"the files under its trial directory.\n"
	"  --paired      the records are paired arms (pc-run-bub --paired): write each\n"
	"                arm's powercontext.e2e-paired-arm/v3 observation instead, its\n"
	"                outcome classified as PowerContext 1.4.1 does\n"
	"  --output DIR  also write DIR/<workload id>/replay.json (a merged batch's\n"
	"                members: DIR/batch-<name>/tasks/<id>/replay.json; a paired\n"
	"                arm: DIR/<id>/trial-<n>/<off|on>/observation.json)\n";

/* The record's errors, each capped: a record from any producer may hold
 * one of any size, a replay does not. */
static jv capped_errors(jv errors)
{
	jv out = jv_array();

	jv_array_foreach(errors, i, msg) {
		char *capped = text_cap(jv_string_value(msg), TEXT_ERROR_CAP);
		out = jv_array_append(out, jv_string(capped));
		free(capped);
		jv_free(msg);
	}
	jv_free(errors);
	return out;
}

static void add_error(jv *errors, char *msg)
{
	*errors = jv_array_append(*errors, jv_string(msg));
	free(msg);
}

/* The files named names under the trial directory, relative to it, sorted:
 * every one, or when steps (borrowed) is an array, those under each of
 * these steps' directories, step by step (a merged batch's member owns its
 * own steps only). */
static jv evidence_files(const char *trial, jv steps, const char *const *names)
{
	if (jv_get_kind(steps) != JV_KIND_ARRAY)
		return io_find_files(trial, names);
	jv out = jv_array();
	jv_array_foreach(steps, i, step) {
		char *rel = text_fmt("steps/%s", jv_string_value(step));
		char *root = io_join(trial, rel);
		jv files = io_find_files(root, names);
		jv_array_foreach(files, j, f) {
			out = jv_array_append(out, jv_string_fmt("%s/%s", rel, jv_string_value(f)));
			jv_free(f);
		}
		jv_free(files);
		free(root);
		free(rel);
		jv_free(step);
	}
	return out;
}

/* Capture logs, paths sorted, lines in order; a bad line is an error. */
static jv capture_records(const char *trial, jv steps, jv *errors)
{
	static const char *const names[] = { "powercontext-capture.jsonl", NULL };
	jv files = evidence_files(trial, steps, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		char *full = io_join(trial, jv_string_value(rel));
		FILE *f = fopen(full, "rb");
		struct json_reader in;
		struct pc_err e;
		struct shape_error se = { { 0 }, { 0 } };
		long line;
		jv rec, norm;
		int got;

		json_reader_init(&in, f, full);
		while (f && (got = json_reader_next(&in, &rec, &line, &e)) != 0) {
			if (got < 0) {
				add_error(errors, text_fmt("capture log %s", e.msg));
				break;
			}
			if (shape_normalize(doc_capture, rec, &norm, &se) != 0)
				add_error(errors,
					  text_fmt("capture log %s:%ld: %s: %s", full, line,
						   se.path[0] ? se.path : "record", se.why));
			else
				out = jv_array_append(out, norm);
			jv_free(rec);
			se.path[0] = '\0';
		}
		if (!f)
			add_error(errors, text_fmt("capture log %s: cannot open", full));
		else
			fclose(f);
		json_reader_free(&in);
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}

static jv native_artifacts(const char *trial, jv steps, jv *errors)
{
	static const char *const names[] = { HARBOR_ACP_SUMMARY_FILE, HARBOR_ACP_EVENTS_FILE,
					     HARBOR_TRAJECTORY_FILE, NULL };
	jv files = evidence_files(trial, steps, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		char *full = io_join(trial, jv_string_value(rel)), hex[SHA256_HEX_LEN + 1];
		long long size;
		struct pc_err e;
		if (sha256_file_hex(full, hex, &size, &e) != 0)
			add_error(errors, text_fmt("%s", e.msg));
		else {
			jv artifact = JV_OBJECT(jv_string("name"), jv_copy(rel),
						jv_string("sha256"), jv_string(hex),
						jv_string("bytes"), jv_number((double)size));
			out = jv_array_append(out, artifact);
		}
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}

/* One per acp-summary.json with a non-blank instruction. */
static jv resolved_instructions(const char *trial, jv steps)
{
	static const char *const names[] = { HARBOR_ACP_SUMMARY_FILE, NULL };
	jv files = evidence_files(trial, steps, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		char *full = io_join(trial, jv_string_value(rel)), hex[SHA256_HEX_LEN + 1];
		struct pc_err e;
		jv summary;
		const char *r = jv_string_value(rel);
		if (json_read_file(full, &summary, &e) == 0) {
			const char *instruction = json_str(summary, "instruction");
			if (instruction && !text_is_blank(instruction, strlen(instruction))) {
				jv step = jv_null();
				const char *slash = strchr(r, '/');
				if (!strncmp(r, "steps/", 6) && strchr(r + 6, '/')) {
					slash = strchr(r + 6, '/');
					step = jv_string_sized(r + 6, (int)(slash - r - 6));
				}
				sha256_hex(instruction, strlen(instruction), hex);
				jv resolved = JV_OBJECT(
					jv_string("step"), step,
					jv_string("artifact"), jv_copy(rel),
					jv_string("content"), jv_string(instruction),
					jv_string("sha256"), jv_string(hex));
				out = jv_array_append(out, resolved);
			}
			jv_free(summary);
		}
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}

static jv str_or_null(jv v)
{
	if (jv_get_kind(v) == JV_KIND_STRING)
		return v;
	jv_free(v);
	return jv_null();
}

/* Whether a step result (borrowed) is one of steps (borrowed). */
static int owned_step(jv step, jv steps)
{
	jv name = json_get(step, "step_name");
	int owned = 0;

	jv_array_foreach(steps, i, s) {
		/* jv_equal frees both: called for every step, matched or not */
		int same = jv_equal(jv_copy(name), s);
		owned = owned || same;
	}
	jv_free(name);
	return owned;
}

/* For a member of a merged batch (batch borrowed), what its own steps say
 * in place of the trial's: the last one's rewards, the first exception
 * among them, else a failed member's trial exception. */
static void member_outcome(jv batch, jv result, const char *status, jv *rewards, jv *exception)
{
	jv steps = json_get(batch, "steps"), results = json_get(result, "step_results");
	jv own_rewards = jv_object(), own_exception = jv_null();

	if (jv_get_kind(results) == JV_KIND_ARRAY)
		jv_array_foreach(results, i, step) {
			if (owned_step(step, steps)) {
				jv r = json_at(step, HARBOR_REWARDS_PATH);
				jv x = json_get(step, "exception_info");
				jv_free(own_rewards);
				if (jv_get_kind(r) != JV_KIND_OBJECT)
					jv_free(r), r = jv_object();
				own_rewards = r;
				if (jv_get_kind(own_exception) == JV_KIND_NULL)
					jv_free(own_exception), own_exception = x;
				else
					jv_free(x);
			}
			jv_free(step);
		}
	if (jv_get_kind(own_exception) != JV_KIND_OBJECT && !strcmp(status, "failed"))
		jv_free(own_exception);
	else {
		jv_free(*exception);
		*exception = own_exception;
	}
	jv_free(*rewards);
	*rewards = own_rewards;
	jv_free(steps);
	jv_free(results);
}

/* The trial's Harbor result (owned): an empty object when there is no
 * trial directory, or it holds no result an object. */
static jv trial_result(const char *trial)
{
	jv result = jv_null();
	struct pc_err e;

	if (trial) {
		char *path = io_join(trial, HARBOR_RESULT_FILE);
		if (json_read_file(path, &result, &e) != 0)
			result = jv_null();
		free(path);
	}
	if (jv_get_kind(result) != JV_KIND_OBJECT) {
		jv_free(result);
		result = jv_object();
	}
	return result;
}

/* The record's Harbor observation, from the trial's result (borrowed) and
 * its job's. */
static jv harbor_observation(jv record, jv result)
{
	jv job_dir = json_at(record, "job_dir"), batch = json_get(record, "batch");
	jv job = jv_null();
	struct pc_err e;

	if (jv_get_kind(job_dir) == JV_KIND_STRING) {
		char *jp = io_join(jv_string_value(job_dir), HARBOR_RESULT_FILE);
		if (json_read_file(jp, &job, &e) != 0)
			job = jv_object();
		free(jp);
	} else
		job = jv_object();
	jv rewards = json_at(result, HARBOR_REWARDS_PATH);
	jv exception = json_at(result, "exception_info");
	if (jv_get_kind(batch) == JV_KIND_OBJECT) {
		jv status = json_get(record, "status");
		member_outcome(batch, result, jv_string_value(status), &rewards, &exception);
		jv_free(status);
	}
	jv h = JV_OBJECT(jv_string("job_id"), str_or_null(json_at(job, "id")),
			 jv_string("trial_name"), str_or_null(json_at(result, "trial_name")),
			 jv_string("trial_uri"), str_or_null(json_at(result, "trial_uri")),
			 jv_string("task_checksum"), str_or_null(json_at(result, "task_checksum")),
			 jv_string("source_task_checksum"),
			 str_or_null(json_get(batch, "source_task_checksum")));
	if (jv_get_kind(rewards) != JV_KIND_OBJECT) {
		jv_free(rewards);
		rewards = jv_object();
	}
	jv message = str_or_null(json_at(exception, "exception_message"));
	jv ended = JV_OBJECT(
		jv_string("rewards"), rewards,
		jv_string("exception_type"), str_or_null(json_at(exception, "exception_type")),
		jv_string("exception_message"), message,
		jv_string("started_at"), str_or_null(json_at(result, "started_at")),
		jv_string("finished_at"), str_or_null(json_at(result, "finished_at")));
	h = jv_object_merge(h, ended);
	jv_free(exception);
	jv_free(job);
	jv_free(job_dir);
	jv_free(batch);
	return h;
}

/* {name, source_id} of each reference (borrowed), under the key that holds
 * the source's name: "name" in a Memory entry, "source_type" in a revision. */
static jv source_refs(jv refs, const char *name_key)
{
	jv out = jv_array();

	if (jv_get_kind(refs) == JV_KIND_ARRAY)
		jv_array_foreach(refs, i, ref) {
			jv named = JV_OBJECT(jv_string("name"), json_get(ref, name_key),
					     jv_string("source_id"), json_get(ref, "source_id"));
			out = jv_array_append(out, named);
			jv_free(ref);
		}
	return out;
}

/* A Memory entry (legacy, before 1.3.0) as the replay keeps it. */
static jv legacy_entry(jv entry)
{
	jv refs = json_get(entry, "source_refs");
	jv out = JV_OBJECT(
		jv_string("entry_id"), json_at(entry, "citation.entry_id"),
		jv_string("entry_version_id"), json_at(entry, "citation.entry_version_id"),
		jv_string("version"), json_get(entry, "version"),
		jv_string("kind"), json_get(entry, "kind"),
		jv_string("text"), json_get(entry, "text"),
		jv_string("state"), json_get(entry, "state"),
		jv_string("source_refs"), source_refs(refs, "name"));
	jv_free(refs);
	jv_free(entry);
	return out;
}

/* An atomic Memory record (1.3.0+) with its lineage from the revision
 * pc-run-bub read for it. */
static jv atomic_entry(jv entry)
{
	jv revision = json_get(entry, "revision");
	jv sources = json_get(revision, "sources"), artifacts = json_get(revision, "artifacts");
	jv refs = jv_array();

	if (jv_get_kind(artifacts) == JV_KIND_ARRAY)
		jv_array_foreach(artifacts, i, a) {
			jv ref = JV_OBJECT(jv_string("family"), json_get(a, "family"),
					   jv_string("artifact_id"), json_get(a, "artifact_id"),
					   jv_string("revision"), json_get(a, "revision"));
			refs = jv_array_append(refs, ref);
			jv_free(a);
		}
	jv out = JV_OBJECT(
		jv_string("artifact"), json_get(entry, "artifact"),
		jv_string("kind"), json_get(entry, "kind"),
		jv_string("text"), json_get(entry, "text"),
		jv_string("state"), json_get(entry, "state"),
		jv_string("state_version"), json_get(entry, "state_version"),
		jv_string("merged_into_id"), json_get(entry, "merged_into_id"),
		jv_string("sources"), source_refs(sources, "source_type"),
		jv_string("artifacts"), refs);
	jv_free(sources);
	jv_free(artifacts);
	jv_free(revision);
	jv_free(entry);
	return out;
}

/* A Memory snapshot from pc-run-bub's listing (null: none). */
static jv snapshot(jv listing)
{
	jv entries = json_at(listing, "entries"), out = jv_array();

	if (jv_get_kind(entries) == JV_KIND_ARRAY)
		jv_array_foreach(entries, i, entry) {
			int atomic = jv_get_kind(entry) == JV_KIND_OBJECT &&
				     jv_object_has(jv_copy(entry), jv_string("artifact"));
			out = jv_array_append(out,
					      atomic ? atomic_entry(entry) : legacy_entry(entry));
		}
	jv_free(entries);
	jv_free(listing);
	return JV_OBJECT(jv_string("entries"), out);
}

static jv probes(jv record)
{
	jv calls = json_at(record, "powercontext.probes"), out = jv_array();

	jv_array_foreach(calls, i, call) {
		jv response = json_at(call, "response");
		if (jv_get_kind(response) == JV_KIND_OBJECT) {
			jv content = str_or_null(json_at(response, "content"));
			if (jv_get_kind(content) == JV_KIND_NULL) {
				jv_free(content);
				content = jv_string("");
			}
			jv prepared = JV_OBJECT(jv_string("status"), json_at(response, "status"),
						jv_string("content"), content);
			jv matched = json_at(call, "forbidden_context_matched");
			jv probe = JV_OBJECT(
				jv_string("id"), json_at(call, "id"),
				jv_string("query"), json_at(call, "query"),
				jv_string("prepared_context"), prepared,
				jv_string("forbidden_context_matched"), matched);
			out = jv_array_append(out, probe);
		}
		jv_free(response);
		jv_free(call);
	}
	jv_free(calls);
	return out;
}

static jv normalize(jv record)
{
	jv trial_dir = json_at(record, "trial_dir");
	const char *trial =
		jv_get_kind(trial_dir) == JV_KIND_STRING ? jv_string_value(trial_dir) : NULL;
	jv errors = capped_errors(json_at(record, "errors"));
	/* a merged batch's member owns its own steps, none when it was skipped */
	jv steps = json_at(record, "batch.steps"), status = json_at(record, "status");
	const char *files = trial;
	if (!strcmp(jv_string_value(status), "skipped") && jv_get_kind(steps) == JV_KIND_ARRAY)
		files = NULL;
	jv captures = files ? capture_records(files, steps, &errors) : jv_array();
	jv artifacts = files ? native_artifacts(files, steps, &errors) : jv_array();
	jv instructions = files ? resolved_instructions(files, steps) : jv_array();
	jv result = trial_result(trial), harbor = harbor_observation(record, result);

	jv_free(result);
	/* evidence that cannot be read fails a run that completed; a failed
	 * outcome run may have no error, and a skipped one has nothing */
	jv_free(steps);
	if (jv_array_length(jv_copy(errors)) > 0 && !strcmp(jv_string_value(status), "completed")) {
		jv_free(status);
		status = jv_string("failed");
	}
	jv replay = JV_OBJECT(
		jv_string("schema"), jv_string(SCHEMA_EVIDENCE),
		jv_string("run_id"), json_at(record, "run_id"),
		jv_string("environment"), json_at(record, "environment"),
		jv_string("task"), json_at(record, "workload"),
		jv_string("status"), status,
		jv_string("errors"), errors,
		jv_string("harbor"), harbor,
		jv_string("capture_records"), captures,
		jv_string("native_artifacts"), artifacts);
	replay = jv_object_set(replay, jv_string("resolved_instructions"), instructions);
	replay = jv_object_set(replay, jv_string("memory_before"),
			       snapshot(json_at(record, "powercontext.memory_before")));
	replay = jv_object_set(replay, jv_string("memory_after"),
			       snapshot(json_at(record, "powercontext.memory_after")));
	replay = jv_object_set(replay, jv_string("probes"), probes(record));
	jv_free(trial_dir);
	return replay;
}

static int normalize_one(void *ctx, jv record, const struct json_reader *raw, jv *replay,
			 int *code, struct pc_err *e)
{
	(void)ctx, (void)raw, (void)code, (void)e;
	*replay = normalize(record);
	return 0;
}

static int observe_one(void *ctx, jv record, const struct json_reader *raw, jv *observation,
		       int *code, struct pc_err *e)
{
	jv trial_dir = json_at(record, "trial_dir");
	const char *trial =
		jv_get_kind(trial_dir) == JV_KIND_STRING ? jv_string_value(trial_dir) : NULL;

	(void)ctx, (void)raw, (void)code;
	jv arm = json_get(record, "arm");
	int is_arm = jv_get_kind(arm) == JV_KIND_OBJECT;
	jv_free(arm);
	if (!is_arm) {
		jv_free(trial_dir);
		return pc_fail(e,
			       "--paired: the record is not a paired arm's (it has no \"arm\"; pc-run-bub --paired writes them)");
	}
	/* a trial that wrote no result is judged on nothing of Harbor's */
	jv result = trial_result(trial);
	*observation = observe_arm(record, harbor_observation(record, result), result);
	jv_free(result);
	jv_free(trial_dir);
	return 0;
}

static char *arm_dir(jv record)
{
	jv id = json_at(record, "workload.id"), arm = json_get(record, "arm");
	char *dir = outdir_arm(jv_string_value(id), (int)json_number_at(arm, "trial", 0),
			       json_str(arm, "arm"));

	jv_free(id);
	jv_free(arm);
	return dir;
}

static char *record_dir(jv record)
{
	jv workload = json_get(record, "workload"), batch = json_at(record, "batch.name");
	char *dir = outdir_workload(json_str(workload, "id"), jv_get_kind(batch) == JV_KIND_STRING
								      ? jv_string_value(batch)
								      : NULL);

	jv_free(workload);
	jv_free(batch);
	return dir;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "paired", no_argument, NULL, 'p' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI("pc-normalize", usage, "", longs, argc, argv);
	const struct stage_pass pass = {
		.prog = "pc-normalize",
		.schema = SCHEMA_RUN,
		.shape = &doc_run,
		.dir_of = record_dir,
		.artifact = "replay.json",
		.none = "no run records on stdin",
		.make = normalize_one,
	};
	const struct stage_pass arms = {
		.prog = "pc-normalize",
		.schema = SCHEMA_RUN,
		.shape = &doc_run,
		.dir_of = arm_dir,
		.artifact = "observation.json",
		.none = "no run records on stdin",
		.make = observe_one,
	};
	const char *output = NULL;
	struct redactor red;
	int c, status, paired = 0;

	while ((c = stage_option(&cli)) >= 0)
		if (c == 'p')
			paired = 1;
		else
			output = optarg;
	if (c != STAGE_END)
		return stage_option_exit(c);
	if ((status = stage_open_streams("pc-normalize", 1)) != 0)
		return status;
	redactor_init(&red, environ);
	status = stage_run_pass(paired ? &arms : &pass, output, &red);
	redactor_free(&red);
	return status;
}
