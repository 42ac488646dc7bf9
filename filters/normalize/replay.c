/* replay: a run record's replay (replay.h). */
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "evidence.h"
#include "harbor_trial.h"
#include "json.h"
#include "memory.h"
#include "replay.h"
#include "text.h"

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

/* The Server's answers to the record's probes, a probe without a
 * response left out. */
static jv probes(jv record)
{
	jv calls = json_at(record, "powercontext.probes"), out = jv_array();

	jv_array_foreach(calls, i, call) {
		jv response = json_at(call, "response");
		if (jv_get_kind(response) == JV_KIND_OBJECT) {
			const char *content = json_str(response, "content");
			jv prepared = JV_OBJECT(jv_string("status"), json_at(response, "status"),
						jv_string("content"),
						jv_string(content ? content : ""));
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

jv replay_of(jv record)
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
	jv captures = files ? evidence_capture_records(files, steps, &errors) : jv_array();
	jv artifacts = files ? evidence_native_artifacts(files, steps, &errors) : jv_array();
	jv instructions = files ? evidence_resolved_instructions(files, steps) : jv_array();
	jv result = harbor_trial_result(trial), harbor = harbor_trial_observation(record, result);

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
			       memory_snapshot(json_at(record, "powercontext.memory_before")));
	replay = jv_object_set(replay, jv_string("memory_after"),
			       memory_snapshot(json_at(record, "powercontext.memory_after")));
	replay = jv_object_set(replay, jv_string("probes"), probes(record));
	jv_free(trial_dir);
	return replay;
}
