#include "case.h"

#include "assertions.h"
#include "diagnosis.h"
#include "docs.h"
#include "hash.h"
#include "json.h"
#include "json_out.h"
#include "outdir.h"
#include "scores.h"

/* What makes two runs comparable (pc-report's ledger keys its trends by
 * it, docs/ledger.md): only fields that hold no secret.  The manifest digest
 * stands for the whole workload as it ran (its steps, probes, budget and
 * expectations); the fields beside it say which of them changed.  The
 * PowerContext under test is left out: a trend is there to show what a new
 * release changed. */
static jv comparability(jv replay, const struct facts *f, const char *policy)
{
	jv task = json_get(replay, "task");
	struct json_out canonical = { 0 };
	char digest[SHA256_HEX_LEN + 1];

	json_out_value(&canonical, task, JSON_CANONICAL);
	jv_free(task);
	sha256_hex(canonical.text, canonical.len, digest);
	json_out_free(&canonical);
	jv environment = json_get(replay, "environment");
	jv protocol = json_at(environment, "adapter_protocol_version");
	jv key = JV_OBJECT(
		jv_string("manifest_digest"), jv_string(digest),
		jv_string("dataset_checksum"), jv_copy(f->dataset_checksum),
		jv_string("database"), json_at(environment, "database"),
		jv_string("adapter_version"), json_at(environment, "adapter_version"),
		jv_string("adapter_protocol_version"), protocol,
		jv_string("agent_model"), json_at(environment, "agent_model"),
		jv_string("max_steps"), json_at(replay, "task.execution.max_steps"),
		jv_string("max_tokens"), json_at(replay, "task.execution.max_tokens"),
		jv_string("failure_policy"), jv_string(policy));

	jv_free(environment);
	return key;
}

/* The reference writes `name or str(path)`: an empty name falls back too,
 * and a missing path prints as "None". */
static jv dataset_name(jv replay)
{
	jv dataset = json_at(replay, "task.dataset.name");

	if (jv_get_kind(dataset) == JV_KIND_STRING && jv_string_length_bytes(jv_copy(dataset)) > 0)
		return dataset;
	jv_free(dataset);
	dataset = json_at(replay, "task.dataset.path");
	if (jv_get_kind(dataset) == JV_KIND_STRING)
		return dataset;
	jv_free(dataset);
	return jv_string("None");
}

/* The reference harness's attributes, then pc-e2e's own: comparability,
 * the run's time (the replay's, so a rescore records the same one), the
 * diagnosis (consumed) and, for
 * a member of a batch merged into one trial, the batch's name, which says
 * where its files go (outdir.h). */
static jv attributes(jv replay, const struct facts *f, const char *policy, jv diagnosis)
{
	const char *batch = outdir_replay_batch(replay);
	jv out = JV_OBJECT(
		jv_string("commit"), json_at(replay, "environment.commit"),
		jv_string("database"), json_at(replay, "environment.database"),
		jv_string("dataset"), dataset_name(replay),
		jv_string("execution_adapter"), json_at(replay, "task.execution.type"),
		jv_string("harbor_task_id"), json_at(replay, "task.dataset.task_id"),
		jv_string("run_id"), json_at(replay, "run_id"),
		jv_string("workload_id"), json_at(replay, "task.id"),
		jv_string("comparability"), comparability(replay, f, policy),
		jv_string("finished_at"), json_at(replay, "environment.finished_at"));

	out = jv_object_set(out, jv_string(CASE_DIAGNOSIS), diagnosis);
	return batch ? jv_object_set(out, jv_string(OUTDIR_CASE_BATCH), jv_string(batch)) : out;
}

jv case_build(jv replay, const struct facts *f, const char *policy, const struct redactor *red)
{
	jv judged = assertions_judge(f);
	jv diagnosis = JV_OBJECT(jv_string("assertions"),
				 assertions_diagnose(f, replay, judged, red),
				 jv_string("identity"), diagnosis_identity(replay));

	return JV_OBJECT(jv_string("name"), json_at(replay, "task.id"),
			 jv_string("assertions"), judged,
			 jv_string("scores"), scores_of(f),
			 jv_string("labels"), labels_of(f),
			 jv_string("metrics"), metrics_of(f),
			 jv_string("attributes"), attributes(replay, f, policy, diagnosis));
}

jv case_document(jv kase, const char *prefix)
{
	jv experiment = jv_string_fmt("%s:%s", prefix, json_str(kase, "name"));

	return JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_EVALUATION),
			 jv_string("experiment"), experiment,
			 jv_string("cases"), JV_ARRAY(kase));
}
