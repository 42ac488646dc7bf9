/* pc-normalize: run records in, replays out (DESIGN §2.4).
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
#include "hash.h"
#include "io.h"
#include "json.h"
#include "stage.h"
#include "text.h"

extern char **environ;

static const char usage[] =
	"usage: pc-normalize [--output DIR]\n"
	"Reads powercontext.e2e-run/v1 records on stdin and writes one\n"
	"powercontext.e2e-evidence/v1 replay per record, rebuilt from the record and\n"
	"the files under its trial directory.\n"
	"  --output DIR  also write DIR/<workload id>/replay.json\n";

static jv path_get(jv v, const char *a, const char *b)
{
	return jv_getpath(jv_copy(v), b ? JV_ARRAY(jv_string(a), jv_string(b)) : JV_ARRAY(jv_string(a)));
}

static void add_error(jv *errors, char *msg)
{
	*errors = jv_array_append(*errors, jv_string(msg));
	free(msg);
}

/* Capture logs, paths sorted, lines in order; a bad line is an error. */
static jv capture_records(const char *trial, jv *errors)
{
	static const char *const names[] = { "powercontext-capture.jsonl", NULL };
	jv files = io_find_files(trial, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		(void)i;
		char *full = io_join(trial, jv_string_value(rel));
		FILE *f = fopen(full, "rb");
		struct json_reader in;
		struct pc_err e;
		struct shape_error se = {{0}, {0}};
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
				add_error(errors, text_fmt("capture log %s:%ld: %s: %s", full, line,
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

static jv native_artifacts(const char *trial, jv *errors)
{
	static const char *const names[] = { "acp-summary.json", "acp-events.jsonl", "trajectory.json", NULL };
	jv files = io_find_files(trial, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		(void)i;
		char *full = io_join(trial, jv_string_value(rel)), hex[SHA256_HEX_LEN + 1];
		long long size;
		struct pc_err e;
		if (sha256_file_hex(full, hex, &size, &e) != 0)
			add_error(errors, text_fmt("%s", e.msg));
		else
			out = jv_array_append(out, JV_OBJECT(jv_string("name"), jv_copy(rel),
							     jv_string("sha256"), jv_string(hex),
							     jv_string("bytes"), jv_number((double)size)));
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}

/* One per acp-summary.json with a non-blank instruction. */
static jv resolved_instructions(const char *trial)
{
	static const char *const names[] = { "acp-summary.json", NULL };
	jv files = io_find_files(trial, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		(void)i;
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
				out = jv_array_append(out, JV_OBJECT(jv_string("step"), step,
								     jv_string("artifact"), jv_copy(rel),
								     jv_string("content"), jv_string(instruction),
								     jv_string("sha256"), jv_string(hex)));
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

static jv harbor_observation(jv record, const char *trial)
{
	char *result_path = io_join(trial, "result.json");
	jv job_dir = path_get(record, "job_dir", NULL);
	jv result = jv_null(), job = jv_null();
	struct pc_err e;

	if (json_read_file(result_path, &result, &e) != 0)
		result = jv_object();
	if (jv_get_kind(job_dir) == JV_KIND_STRING) {
		char *jp = io_join(jv_string_value(job_dir), "result.json");
		if (json_read_file(jp, &job, &e) != 0)
			job = jv_object();
		free(jp);
	} else
		job = jv_object();
	free(result_path);
	jv rewards = path_get(result, "verifier_result", "rewards");
	jv exception = path_get(result, "exception_info", NULL);
	jv h = JV_OBJECT(jv_string("job_id"), str_or_null(path_get(job, "id", NULL)),
			 jv_string("trial_name"), str_or_null(path_get(result, "trial_name", NULL)),
			 jv_string("trial_uri"), str_or_null(path_get(result, "trial_uri", NULL)),
			 jv_string("task_checksum"), str_or_null(path_get(result, "task_checksum", NULL)),
			 jv_string("rewards"), jv_get_kind(rewards) == JV_KIND_OBJECT ? rewards : (jv_free(rewards), jv_object()),
			 jv_string("exception_type"), str_or_null(path_get(exception, "exception_type", NULL)),
			 jv_string("exception_message"), str_or_null(path_get(exception, "exception_message", NULL)),
			 jv_string("started_at"), str_or_null(path_get(result, "started_at", NULL)),
			 jv_string("finished_at"), str_or_null(path_get(result, "finished_at", NULL)));
	jv_free(exception);
	jv_free(result);
	jv_free(job);
	jv_free(job_dir);
	return h;
}

/* A Memory snapshot from a raw entries/list response (null: none). */
static jv snapshot(jv response)
{
	jv entries = path_get(response, "entries", NULL), out = jv_array();

	if (jv_get_kind(entries) == JV_KIND_ARRAY)
		jv_array_foreach(entries, i, entry) {
			(void)i;
			jv refs = path_get(entry, "source_refs", NULL), slim = jv_array();
			if (jv_get_kind(refs) == JV_KIND_ARRAY)
				jv_array_foreach(refs, j, ref) {
					(void)j;
					slim = jv_array_append(slim, JV_OBJECT(jv_string("name"), path_get(ref, "name", NULL),
									       jv_string("source_id"), path_get(ref, "source_id", NULL)));
					jv_free(ref);
				}
			out = jv_array_append(out, JV_OBJECT(
				jv_string("entry_id"), jv_getpath(jv_copy(entry), JV_ARRAY(jv_string("citation"), jv_string("entry_id"))),
				jv_string("entry_version_id"), jv_getpath(jv_copy(entry), JV_ARRAY(jv_string("citation"), jv_string("entry_version_id"))),
				jv_string("version"), path_get(entry, "version", NULL),
				jv_string("kind"), path_get(entry, "kind", NULL),
				jv_string("text"), path_get(entry, "text", NULL),
				jv_string("state"), path_get(entry, "state", NULL),
				jv_string("source_refs"), slim));
			jv_free(refs);
			jv_free(entry);
		}
	jv_free(entries);
	jv_free(response);
	return JV_OBJECT(jv_string("entries"), out);
}

static jv probes(jv record)
{
	jv calls = path_get(record, "powercontext", "probes"), out = jv_array();

	jv_array_foreach(calls, i, call) {
		(void)i;
		jv response = path_get(call, "response", NULL);
		if (jv_get_kind(response) == JV_KIND_OBJECT) {
			jv content = str_or_null(path_get(response, "content", NULL));
			out = jv_array_append(out, JV_OBJECT(
				jv_string("id"), path_get(call, "id", NULL),
				jv_string("query"), path_get(call, "query", NULL),
				jv_string("prepared_context"),
				JV_OBJECT(jv_string("status"), path_get(response, "status", NULL),
					  jv_string("content"), jv_get_kind(content) == JV_KIND_NULL
						  ? (jv_free(content), jv_string("")) : content)));
		}
		jv_free(response);
		jv_free(call);
	}
	jv_free(calls);
	return out;
}

static jv normalize(jv record)
{
	jv trial_dir = path_get(record, "trial_dir", NULL);
	const char *trial = jv_get_kind(trial_dir) == JV_KIND_STRING ? jv_string_value(trial_dir) : NULL;
	jv errors = path_get(record, "errors", NULL);
	jv captures = trial ? capture_records(trial, &errors) : jv_array();
	jv artifacts = trial ? native_artifacts(trial, &errors) : jv_array();
	jv instructions = trial ? resolved_instructions(trial) : jv_array();
	jv harbor = trial ? harbor_observation(record, trial) : harbor_observation(record, "/nonexistent");
	int failed = jv_array_length(jv_copy(errors)) > 0;
	jv replay = JV_OBJECT(
		jv_string("schema"), jv_string(SCHEMA_EVIDENCE),
		jv_string("run_id"), path_get(record, "run_id", NULL),
		jv_string("environment"), path_get(record, "environment", NULL),
		jv_string("task"), path_get(record, "workload", NULL),
		jv_string("status"), jv_string(failed ? "failed" : "completed"),
		jv_string("errors"), errors,
		jv_string("harbor"), harbor,
		jv_string("capture_records"), captures,
		jv_string("native_artifacts"), artifacts);
	replay = jv_object_set(replay, jv_string("resolved_instructions"), instructions);
	replay = jv_object_set(replay, jv_string("memory_before"), snapshot(path_get(record, "powercontext", "memory_before")));
	replay = jv_object_set(replay, jv_string("memory_after"), snapshot(path_get(record, "powercontext", "memory_after")));
	replay = jv_object_set(replay, jv_string("probes"), probes(record));
	jv_free(trial_dir);
	return replay;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-normalize", usage, "", longs, argc, argv };
	const char *output = NULL;
	struct redactor red;
	struct stage_input in;
	struct pc_err e;
	int c, status = EXIT_OK;
	jv record;

	while ((c = stage_option(&cli)) >= 0)
		output = optarg;
	if (c != STAGE_END)
		return stage_option_exit(c);
	redactor_init(&red, environ);
	stage_input_open(&in, "pc-normalize", &red, SCHEMA_RUN, &doc_run);
	while (stage_input_next(&in, &record)) {
		jv replay = normalize(record);
		jv id = jv_getpath(record, JV_ARRAY(jv_string("workload"), jv_string("id")));
		int rc = stage_deliver(output, jv_string_value(id), "replay.json", &red, replay, &e);
		jv_free(id);
		if (rc != 0) {
			status = stage_die("pc-normalize", &red, EXIT_INVALID, e.msg);
			break;
		}
	}
	status = stage_worst(status, in.status);
	if (in.count == 0 && status == EXIT_OK)
		status = stage_die("pc-normalize", &red, EXIT_INVALID, "no run records on stdin");
	stage_input_close(&in);
	redactor_free(&red);
	return status;
}
