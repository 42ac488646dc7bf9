#include "docs.h"

#include "docs_paired.h"
#include "docs_parts.h"
#include "docs_rules.h"
#include "shape_strings.h"

/* The shapes are tables, one field a line: clang-format would re-flow them. */
/* clang-format off */

/* ---- leaf shapes ---- */

static const struct shape s_any = { .kind = SK_ANY };
static const struct shape s_str_nonempty = { .kind = SK_STRING, .flags = SHAPE_MIN, .min = 1 };
static const struct shape s_bool_null = { .kind = SK_BOOL, .flags = SHAPE_NULLABLE };
static const struct shape s_int_null = { .kind = SK_INT, .flags = SHAPE_NULLABLE };
static const struct shape s_ratio =
	{ .kind = SK_NUMBER, .flags = SHAPE_MIN | SHAPE_MAX, .min = 0, .max = 1 };
static const struct shape s_id = { .kind = SK_STRING, .check_text = shape_check_id };
static const struct shape s_hex = { .kind = SK_STRING, .check_text = shape_check_hex64 };
static const struct shape s_hex_null =
	{ .kind = SK_STRING, .flags = SHAPE_NULLABLE, .check_text = shape_check_hex64 };
static const struct shape s_strings_nonempty =
	{ .kind = SK_ARRAY, .items = &part_str, .flags = SHAPE_MIN, .min = 1 };
static const struct shape s_fragment = { .kind = SK_STRING, .check_text = rule_not_blank };
static const struct shape s_fragments = { .kind = SK_ARRAY, .items = &s_fragment };
static const struct shape s_categories = {
	.kind = SK_ARRAY, .items = &part_str, .flags = SHAPE_MIN, .min = 1,
	.check = rule_batch_categories,
};

/* ---- manifest ---- */

static const struct field provenance_fields[] = {
	{ "source", &part_str, 0, NULL },
	{ "revision", &s_hex, 0, NULL },
	{ "selection", &part_str, 0, NULL },
	{ "case_ids", &s_strings_nonempty, 0, NULL },
	END
};
static const struct shape s_provenance =
	{ .kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = provenance_fields };

static const struct field dataset_fields[] = {
	{ "path", &part_str_null, OPT, NULL },
	{ "name", &part_str_null, OPT, NULL },
	{ "version", &part_str_null, OPT, NULL },
	{ "task_id", &s_str_nonempty, 0, NULL },
	{ "checksum", &s_hex, 0, NULL },
	END
};
static const struct shape s_dataset =
	{ .kind = SK_OBJECT, .fields = dataset_fields, .check = rule_dataset };

static const struct shape s_adapter = { .kind = SK_STRING, .check_text = rule_bub };
static const struct shape s_max_steps =
	{ .kind = SK_INT, .flags = SHAPE_MIN | SHAPE_MAX, .min = 1, .max = 200 };
static const struct shape s_max_tokens = { .kind = SK_INT, .flags = SHAPE_MIN, .min = 256 };
static const struct field execution_fields[] = {
	{ "type", &s_adapter, OPT, "\"bub\"" },
	{ "model", &part_bool, OPT, "false" },
	{ "max_steps", &s_max_steps, OPT, "50" },
	{ "max_tokens", &s_max_tokens, OPT, "16384" },
	END
};
static const struct shape s_execution = { .kind = SK_OBJECT, .fields = execution_fields };

static const struct shape s_query =
	{ .kind = SK_STRING, .flags = SHAPE_MIN | SHAPE_MAX, .min = 1, .max = 8192 };
static const struct field probe_fields[] = {
	{ "id", &s_id, 0, NULL },
	{ "query", &s_query, 0, NULL },
	{ "expected_context", &s_fragments, OPT, "[]" },
	{ "forbidden_context", &s_fragments, OPT, "[]" },
	END
};
static const struct shape s_probe_spec = {
	.kind = SK_OBJECT, .fields = probe_fields, .check = rule_forbidden_outside_expected,
};
static const struct unique_items probe_ids = { "id", "probe ids" };
static const struct shape s_probe_specs = {
	.kind = SK_ARRAY, .items = &s_probe_spec, .flags = SHAPE_MIN, .min = 1,
	.unique = &probe_ids,
};

static const struct field threshold_fields[] = {
	{ "capture_coverage", &s_ratio, OPT, "0" },
	{ "groundedness", &s_ratio, OPT, "0" },
	{ "probe_coverage", &s_ratio, OPT, "1" },
	{ "minimum_in_run_contexts", &part_count, OPT, "0" },
	END
};
static const struct shape s_thresholds = { .kind = SK_OBJECT, .fields = threshold_fields };

static const struct shape s_checkpoint_every =
	{ .kind = SK_INT, .flags = SHAPE_MIN | SHAPE_MAX, .min = 1, .max = 100 };
static const struct shape s_event_bytes =
	{ .kind = SK_INT, .flags = SHAPE_MIN | SHAPE_MAX, .min = 512, .max = 32768 };
static const struct field evaluation_spec_fields[] = {
	{ "capture_events", &part_bool, OPT, "false" },
	{ "checkpoint_every_events", &s_checkpoint_every, OPT, "5" },
	{ "max_event_bytes", &s_event_bytes, OPT, "8192" },
	{ "require_checkpoint", &part_bool, OPT, "false" },
	{ "expected_memory", &part_strings, OPT, "[]" },
	{ "probes", &s_probe_specs, 0, NULL },
	{ "thresholds", &s_thresholds, OPT, "{}" },
	END
};
static const struct shape s_memory_evaluation =
	{ .kind = SK_OBJECT, .fields = evaluation_spec_fields };

static const struct shape s_expected_status = { .kind = SK_STRING, .check_text = rule_status };
static const struct field expected_execution_fields[] = {
	{ "collect-all", &s_expected_status, 0, NULL },
	{ "fail-fast", &s_expected_status, 0, NULL },
	END
};
static const struct shape s_expected_execution =
	{ .kind = SK_OBJECT, .fields = expected_execution_fields };
static const struct field outcome_fields[] = {
	{ "expected_execution", &s_expected_execution, 0, NULL },
	END
};
static const struct shape s_outcome_evaluation = { .kind = SK_OBJECT, .fields = outcome_fields };
static const struct field continuation_fields[] = {
	{ "recall_step", &s_str_nonempty, 0, NULL },
	END
};
static const struct shape s_continuation_evaluation =
	{ .kind = SK_OBJECT, .fields = continuation_fields };
static const struct shape s_comparison_kind =
	{ .kind = SK_STRING, .check_text = rule_task_outcome_comparison };
static const struct field comparison_fields[] = {
	{ "comparison", &s_comparison_kind, 0, NULL },
	END
};
static const struct shape s_comparison_evaluation =
	{ .kind = SK_OBJECT, .fields = comparison_fields };

/* The four evaluation kinds of PowerContext 1.4.1; Memory is the default. */
static const struct alternative evaluation_kinds[] = {
	{ "expected_execution", &s_outcome_evaluation },
	{ "recall_step", &s_continuation_evaluation },
	{ "comparison", &s_comparison_evaluation },
	{ NULL, &s_memory_evaluation },
	{ NULL, NULL },
};
static const struct shape s_evaluation_spec =
	{ .kind = SK_UNION, .alternatives = evaluation_kinds };

static const struct shape s_task_schema = { .kind = SK_STRING, .check_text = rule_task_schema };
static const struct field manifest_fields[] = {
	{ "schema", &s_task_schema, 0, NULL },
	{ "id", &s_id, 0, NULL },
	{ "categories", &s_categories, 0, NULL },
	{ "provenance", &s_provenance, OPT, NULL },
	{ "dataset", &s_dataset, 0, NULL },
	{ "execution", &s_execution, 0, NULL },
	{ "evaluation", &s_evaluation_spec, 0, NULL },
	END
};
const struct shape doc_manifest = { .kind = SK_OBJECT, .fields = manifest_fields };

/* ---- selection ---- */

static const struct field manifest_ref_fields[] = {
	{ "path", &part_str, 0, NULL },
	{ "sha256", &s_hex, 0, NULL },
	END
};
static const struct shape s_manifest_ref = { .kind = SK_OBJECT, .fields = manifest_ref_fields };
static const struct shape s_task_kind = { .kind = SK_STRING, .check_text = rule_task_kind };
static const struct field task_ref_fields[] = {
	{ "kind", &s_task_kind, 0, NULL },
	{ "dir", &part_str_null, 0, NULL },
	{ "checksum", &s_hex_null, 0, NULL },
	END
};
static const struct shape s_task_ref = { .kind = SK_OBJECT, .fields = task_ref_fields };
static const struct shape s_selection_schema =
	{ .kind = SK_STRING, .check_text = rule_selection_schema };
static const struct field selection_fields[] = {
	{ "schema", &s_selection_schema, 0, NULL },
	{ "workload", &doc_manifest, 0, NULL },
	{ "manifest", &s_manifest_ref, 0, NULL },
	{ "task", &s_task_ref, 0, NULL },
	END
};
const struct shape doc_selection = { .kind = SK_OBJECT, .fields = selection_fields };

/* ---- replay ---- */

static const struct shape s_capture_schema =
	{ .kind = SK_STRING, .check_text = rule_capture_schema };
static const struct shape s_capture_event = { .kind = SK_STRING, .check_text = rule_capture_event };
static const struct field capture_fields[] = {
	{ "schema", &s_capture_schema, 0, NULL },
	{ "recorded_at", &part_time, 0, NULL },
	{ "event", &s_capture_event, 0, NULL },
	{ "status", &part_str, 0, NULL },
	{ "sequence", &s_int_null, OPT, NULL },
	{ "source_id", &part_str_null, OPT, NULL },
	{ "source_position", &s_int_null, OPT, NULL },
	{ "error", &part_str_null, OPT, NULL },
	{ "final", &s_bool_null, OPT, NULL },
	{ "target_position", &s_int_null, OPT, NULL },
	{ "previous_cursor", &s_int_null, OPT, NULL },
	{ "current_cursor", &s_int_null, OPT, NULL },
	{ "high_watermark", &s_int_null, OPT, NULL },
	{ "processed_source_count", &s_int_null, OPT, NULL },
	{ "memory_created", &s_bool_null, OPT, NULL },
	{ "cursor_advanced", &s_bool_null, OPT, NULL },
	{ "remaining_work", &s_bool_null, OPT, NULL },
	{ "content_bytes", &s_int_null, OPT, NULL },
	{ "captured_events", &s_int_null, OPT, NULL },
	{ "flushed_position", &s_int_null, OPT, NULL },
	END
};
static const struct shape s_capture = { .kind = SK_OBJECT, .fields = capture_fields };
static const struct shape s_captures = { .kind = SK_ARRAY, .items = &s_capture };

static const struct field artifact_fields[] = {
	{ "name", &part_str, 0, NULL },
	{ "sha256", &s_hex, 0, NULL },
	{ "bytes", &part_count, 0, NULL },
	END
};
static const struct shape s_artifact = { .kind = SK_OBJECT, .fields = artifact_fields };
static const struct shape s_artifacts = { .kind = SK_ARRAY, .items = &s_artifact };

static const struct field instruction_fields[] = {
	{ "step", &part_str_null, OPT, NULL },
	{ "artifact", &part_str, 0, NULL },
	{ "content", &s_str_nonempty, 0, NULL },
	{ "sha256", &s_hex, 0, NULL },
	END
};
static const struct shape s_instruction = { .kind = SK_OBJECT, .fields = instruction_fields };
static const struct shape s_instructions = { .kind = SK_ARRAY, .items = &s_instruction };

static const struct field source_ref_fields[] = {
	{ "name", &part_str, 0, NULL },
	{ "source_id", &part_str, 0, NULL },
	END
};
static const struct shape s_source_ref = { .kind = SK_OBJECT, .fields = source_ref_fields };
static const struct shape s_source_refs = { .kind = SK_ARRAY, .items = &s_source_ref };
static const struct shape s_int = { .kind = SK_INT };
static const struct field entry_fields[] = {
	{ "entry_id", &part_str, 0, NULL },
	{ "entry_version_id", &part_str, 0, NULL },
	{ "version", &s_int, 0, NULL },
	{ "kind", &part_str, 0, NULL },
	{ "text", &part_str, 0, NULL },
	{ "state", &part_str, 0, NULL },
	{ "source_refs", &s_source_refs, OPT, "[]" },
	END
};
static const struct shape s_legacy_entry = { .kind = SK_OBJECT, .fields = entry_fields };

static const struct shape s_artifact_token =
	{ .kind = SK_STRING, .check_text = rule_artifact_token };
static const struct shape s_revision = { .kind = SK_INT, .flags = SHAPE_MIN, .min = 1 };
static const struct field artifact_ref_fields[] = {
	{ "family", &s_artifact_token, 0, NULL },
	{ "artifact_id", &s_artifact_token, 0, NULL },
	{ "revision", &s_revision, 0, NULL },
	END
};
static const struct shape s_artifact_ref = { .kind = SK_OBJECT, .fields = artifact_ref_fields };
static const struct shape s_artifact_refs = { .kind = SK_ARRAY, .items = &s_artifact_ref };
static const struct field atomic_entry_fields[] = {
	{ "artifact", &s_artifact_ref, 0, NULL },
	{ "kind", &part_str, 0, NULL },
	{ "text", &part_str, 0, NULL },
	{ "state", &part_str, 0, NULL },
	{ "state_version", &s_int, 0, NULL },
	{ "merged_into_id", &part_str_null, 0, NULL },
	{ "sources", &s_source_refs, OPT, "[]" },
	{ "artifacts", &s_artifact_refs, OPT, "[]" },
	END
};
static const struct shape s_atomic_entry = { .kind = SK_OBJECT, .fields = atomic_entry_fields };

/* PowerContext 1.3.0+ lists atomic Memory; earlier releases, entries. */
static const struct alternative entry_kinds[] = {
	{ "artifact", &s_atomic_entry },
	{ NULL, &s_legacy_entry },
	{ NULL, NULL },
};
static const struct shape s_entry = { .kind = SK_UNION, .alternatives = entry_kinds };
static const struct shape s_entries = { .kind = SK_ARRAY, .items = &s_entry };
static const struct field snapshot_fields[] = {
	{ "entries", &s_entries, OPT, "[]" },
	END
};
static const struct shape s_snapshot = { .kind = SK_OBJECT, .fields = snapshot_fields };

static const struct field prepared_fields[] = {
	{ "status", &part_str, 0, NULL },
	{ "content", &part_str, OPT, "\"\"" },
	END
};
static const struct shape s_prepared = { .kind = SK_OBJECT, .fields = prepared_fields };
static const struct field probe_observation_fields[] = {
	{ "id", &part_str, 0, NULL },
	{ "query", &part_str, 0, NULL },
	{ "prepared_context", &s_prepared, 0, NULL },
	{ "forbidden_context_matched", &s_bool_null, OPT, NULL },
	END
};
static const struct shape s_probe_observation =
	{ .kind = SK_OBJECT, .fields = probe_observation_fields };
static const struct shape s_probe_observations =
	{ .kind = SK_ARRAY, .items = &s_probe_observation };

static const struct shape s_evidence_schema =
	{ .kind = SK_STRING, .check_text = rule_evidence_schema };
static const struct shape s_status = { .kind = SK_STRING, .check_text = rule_status };
static const struct field replay_fields[] = {
	{ "schema", &s_evidence_schema, 0, NULL },
	{ "run_id", &part_str, 0, NULL },
	{ "environment", &part_environment, 0, NULL },
	{ "task", &doc_manifest, 0, NULL },
	{ "status", &s_status, 0, NULL },
	{ "errors", &part_strings, OPT, "[]" },
	{ "harbor", &part_harbor, 0, NULL },
	{ "capture_records", &s_captures, OPT, "[]" },
	{ "native_artifacts", &s_artifacts, OPT, "[]" },
	{ "resolved_instructions", &s_instructions, OPT, "[]" },
	{ "memory_before", &s_snapshot, 0, NULL },
	{ "memory_after", &s_snapshot, 0, NULL },
	{ "probes", &s_probe_observations, OPT, "[]" },
	END
};
const struct shape doc_replay = { .kind = SK_OBJECT, .fields = replay_fields };

/* ---- evaluation ---- */

static const struct field assertion_fields[] = {
	{ "value", &part_bool, 0, NULL },
	{ "reason", &part_str_null, OPT, NULL },
	END
};
static const struct shape s_assertion = { .kind = SK_OBJECT, .fields = assertion_fields };
static const struct field score_fields[] = {
	{ "value", &part_num, 0, NULL },
	{ "reason", &part_str_null, OPT, NULL },
	END
};
static const struct shape s_score = { .kind = SK_OBJECT, .fields = score_fields };
static const struct field label_fields[] = {
	{ "value", &part_str, 0, NULL },
	{ "reason", &part_str_null, OPT, NULL },
	END
};
static const struct shape s_label = { .kind = SK_OBJECT, .fields = label_fields };
static const struct shape s_assertions = { .kind = SK_MAP, .items = &s_assertion };
static const struct shape s_scores = { .kind = SK_MAP, .items = &s_score };
static const struct shape s_labels = { .kind = SK_MAP, .items = &s_label };
static const struct shape s_metrics = { .kind = SK_MAP, .items = &part_num };
static const struct shape s_attributes = { .kind = SK_MAP, .items = &s_any };
static const struct field case_fields[] = {
	{ "name", &part_str, 0, NULL },
	{ "assertions", &s_assertions, OPT, "{}" },
	{ "scores", &s_scores, OPT, "{}" },
	{ "labels", &s_labels, OPT, "{}" },
	{ "metrics", &s_metrics, OPT, "{}" },
	{ "attributes", &s_attributes, OPT, "{}" },
	END
};
static const struct shape s_case = { .kind = SK_OBJECT, .fields = case_fields };
static const struct shape s_cases =
	{ .kind = SK_ARRAY, .items = &s_case, .flags = SHAPE_MIN, .min = 1 };
static const struct shape s_evaluation_schema =
	{ .kind = SK_STRING, .check_text = rule_evaluation_schema };
static const struct field evaluation_fields[] = {
	{ "schema", &s_evaluation_schema, 0, NULL },
	{ "experiment", &part_str, 0, NULL },
	{ "cases", &s_cases, 0, NULL },
	END
};
const struct shape doc_evaluation = { .kind = SK_OBJECT, .fields = evaluation_fields };

/* ---- run record ---- */

static const struct shape s_any_null = { .kind = SK_ANY, .flags = SHAPE_NULLABLE };
static const struct field agent_fields[] = {
	{ "command", &part_str_null, 0, NULL },
	{ "info", &s_any_null, 0, NULL },
	END
};
static const struct shape s_agent = { .kind = SK_OBJECT, .fields = agent_fields };
static const struct field probe_call_fields[] = {
	{ "id", &part_str, 0, NULL },
	{ "query", &part_str, 0, NULL },
	{ "response", &s_any_null, 0, NULL },
	{ "error", &part_str_null, 0, NULL },
	/* the response's content is blanked when it matched */
	{ "forbidden_context_matched", &s_bool_null, OPT, NULL },
	END
};
static const struct shape s_probe_call = { .kind = SK_OBJECT, .fields = probe_call_fields };
static const struct shape s_probe_calls = { .kind = SK_ARRAY, .items = &s_probe_call };
static const struct field server_fields[] = {
	{ "server_url", &part_str, 0, NULL },
	/* the Server's own word for its release (GET /openapi.json info.version) */
	{ "server_version", &part_str_null, OPT, "null" },
	/* what its data lives in, as pipelines/pc-server started it */
	{ "database", &part_str_null, OPT, "null" },
	{ "readiness", &s_any_null, 0, NULL },
	{ "memory_before", &s_any_null, 0, NULL },
	{ "memory_after", &s_any_null, 0, NULL },
	{ "probes", &s_probe_calls, 0, NULL },
	END
};
static const struct shape s_server = { .kind = SK_OBJECT, .fields = server_fields };
/* a member of a batch merged into one shared trial: the batch, the steps of
 * the merged task it owns, and its own task's checksum */
static const struct field batch_member_fields[] = {
	{ "name", &s_id, 0, NULL },
	{ "steps", &part_strings, 0, NULL },
	{ "source_task_checksum", &part_str, 0, NULL },
	END
};
static const struct shape s_batch_member = {
	.kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = batch_member_fields
};
static const struct field extraction_models_fields[] = {
	{ "generation", &part_str_null, 0, NULL },
	{ "embedding", &part_str_null, 0, NULL },
	END
};
static const struct shape s_extraction_models =
	{ .kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = extraction_models_fields };
static const struct shape s_policy = { .kind = SK_STRING, .check_text = rule_policy };
static const struct shape s_run_schema = { .kind = SK_STRING, .check_text = rule_run_schema };
static const struct shape s_runner = { .kind = SK_STRING, .check_text = rule_runner };
static const struct field run_fields[] = {
	{ "schema", &s_run_schema, 0, NULL },
	{ "run_id", &part_str, 0, NULL },
	/* null: a paired OFF arm, which has no Scope */
	{ "scope_id", &part_str_null, 0, NULL },
	{ "runner", &s_runner, 0, NULL },
	{ "workload", &doc_manifest, 0, NULL },
	{ "manifest", &s_manifest_ref, 0, NULL },
	{ "task", &s_task_ref, 0, NULL },
	{ "job_dir", &part_str_null, 0, NULL },
	{ "trial_dir", &part_str_null, 0, NULL },
	{ "batch", &s_batch_member, OPT, NULL },
	{ "arm", &paired_arm_run, OPT, NULL },
	{ "environment", &part_environment, 0, NULL },
	{ "agent", &s_agent, 0, NULL },
	{ "failure_policy", &s_policy, OPT, "\"collect-all\"" },
	{ "status", &s_status, 0, NULL },
	{ "errors", &part_strings, 0, NULL },
	{ "fault", &part_fault, OPT, NULL },
	{ "extraction_models", &s_extraction_models, OPT, NULL },
	{ "powercontext", &s_server, 0, NULL },
	END
};
const struct shape doc_run = { .kind = SK_OBJECT, .fields = run_fields };
/* clang-format on */

const struct shape *const doc_capture = &s_capture;

enum evaluation_kind docs_evaluation_kind(jv evaluation)
{
	if (shape_jv_reader.is_set(&evaluation, "expected_execution"))
		return EVALUATION_OUTCOME;
	if (shape_jv_reader.is_set(&evaluation, "probes"))
		return EVALUATION_MEMORY;
	return EVALUATION_PAIRED;
}
