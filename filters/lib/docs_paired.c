#include "docs_paired.h"

#include "docs_parts.h"
#include "docs_rules.h"

/* The shapes are tables, one field a line: clang-format would re-flow them. */
/* clang-format off */

/* ---- paired arm observation (1.4.1's PairedArmObservation) ---- */

static const struct shape s_seconds =
	{ .kind = SK_NUMBER, .flags = SHAPE_NULLABLE | SHAPE_MIN, .min = 0 };
static const struct shape s_count_null =
	{ .kind = SK_INT, .flags = SHAPE_NULLABLE | SHAPE_MIN, .min = 0 };
static const struct field step_observation_fields[] = {
	{ "name", &part_str, 0, NULL },
	{ "seconds", &s_seconds, OPT, NULL },
	{ "input_tokens", &s_count_null, OPT, NULL },
	{ "cache_tokens", &s_count_null, OPT, NULL },
	{ "output_tokens", &s_count_null, OPT, NULL },
	{ "cost_usd", &s_seconds, OPT, NULL },
	END
};
static const struct shape s_step_observation =
	{ .kind = SK_OBJECT, .fields = step_observation_fields };
static const struct shape s_step_observations =
	{ .kind = SK_ARRAY, .items = &s_step_observation };
static const struct field session_snapshot_fields[] = {
	{ "session", &part_count, 0, NULL },
	{ "flush_rounds", &part_count, 0, NULL },
	{ "sources", &part_count, 0, NULL },
	{ "memory_pending", &part_count, 0, NULL },
	{ "memory_entries", &part_count, 0, NULL },
	{ "preparations", &part_count, 0, NULL },
	{ "ready_preparations", &part_count, 0, NULL },
	{ "generation_requests", &part_count, OPT, "0" },
	{ "generation_input_tokens", &s_count_null, OPT, NULL },
	{ "generation_output_tokens", &s_count_null, OPT, NULL },
	{ "embedding_requests", &part_count, OPT, "0" },
	{ "embedding_input_tokens", &s_count_null, OPT, NULL },
	{ "recalled_tokens", &part_count, OPT, "0" },
	END
};
static const struct shape s_session_snapshot =
	{ .kind = SK_OBJECT, .fields = session_snapshot_fields };
static const struct shape s_session_snapshots =
	{ .kind = SK_ARRAY, .items = &s_session_snapshot };
static const struct field outside_scope_fields[] = {
	{ "occurred_at", &part_time, 0, NULL },
	{ "request_id", &part_str_null, OPT, NULL },
	{ "transport", &part_str, 0, NULL },
	{ "operation", &part_str, 0, NULL },
	{ "action", &part_str, 0, NULL },
	{ "scope_id", &part_str_null, 0, NULL },
	{ "allowed", &part_bool, 0, NULL },
	{ "request_rejected", &part_bool, 0, NULL },
	END
};
static const struct shape s_outside_scope = { .kind = SK_OBJECT, .fields = outside_scope_fields };
static const struct shape s_outside_scopes = { .kind = SK_ARRAY, .items = &s_outside_scope };
static const struct shape s_paired_arm_schema =
	{ .kind = SK_STRING, .check_text = rule_paired_arm_schema };
static const struct shape s_trial = { .kind = SK_INT, .flags = SHAPE_MIN, .min = 1 };
static const struct shape s_arm = { .kind = SK_STRING, .check_text = rule_arm };
static const struct shape s_position =
	{ .kind = SK_INT, .flags = SHAPE_MIN | SHAPE_MAX, .min = 1, .max = 2 };
static const struct shape s_arm_outcome = { .kind = SK_STRING, .check_text = rule_arm_outcome };
static const struct field paired_arm_fields[] = {
	{ "schema", &s_paired_arm_schema, 0, NULL },
	{ "run_id", &part_str, 0, NULL },
	{ "task_id", &part_str, 0, NULL },
	{ "trial", &s_trial, 0, NULL },
	{ "arm", &s_arm, 0, NULL },
	{ "position", &s_position, 0, NULL },
	{ "environment", &part_environment, 0, NULL },
	{ "scope_id", &part_str_null, OPT, NULL },
	{ "harbor", &part_harbor, 0, NULL },
	{ "step_rewards", &part_rewards, OPT, "{}" },
	{ "steps", &s_step_observations, OPT, "[]" },
	{ "outcome", &s_arm_outcome, 0, NULL },
	{ "errors", &part_strings, OPT, "[]" },
	{ "sessions", &s_session_snapshots, OPT, "[]" },
	{ "treatment_failures", &part_strings, OPT, "[]" },
	{ "outside_scope", &s_outside_scopes, OPT, "[]" },
	END
};
const struct shape doc_paired_arm = { .kind = SK_OBJECT, .fields = paired_arm_fields };

/* ---- a run record's arm (docs.c's doc_run holds it) ---- */

/* a paired arm's run: which arm, the session and step that score it, and
 * what the Server saw (pc-normalize makes the arm's observation of it) */
static const struct field arm_run_fields[] = {
	{ "trial", &s_trial, 0, NULL },
	{ "arm", &s_arm, 0, NULL },
	{ "position", &s_position, 0, NULL },
	{ "scored_session", &part_count, 0, NULL },
	{ "scored_step", &part_str_null, 0, NULL },
	{ "sessions", &s_session_snapshots, 0, NULL },
	{ "settle_failures", &part_strings, 0, NULL },
	{ "outside_scope", &s_outside_scopes, 0, NULL },
	END
};
const struct shape paired_arm_run = {
	.kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = arm_run_fields
};

/* ---- an arm's account (pc-e2e's, beside the observation) ---- */

static const struct shape s_num_null = { .kind = SK_NUMBER, .flags = SHAPE_NULLABLE };

static const struct shape s_usd =
	{ .kind = SK_NUMBER, .flags = SHAPE_NULLABLE | SHAPE_MIN, .min = 0 };
static const struct field agent_spend_fields[] = {
	{ "model", &part_str_null, 0, NULL },
	{ "input_tokens", &part_count, 0, NULL },
	{ "cached_tokens", &part_count, 0, NULL },
	{ "output_tokens", &part_count, 0, NULL },
	{ "estimated_steps", &part_count, 0, NULL },
	{ "usd", &s_usd, 0, NULL },
	END
};
static const struct shape s_agent_spend = { .kind = SK_OBJECT, .fields = agent_spend_fields };
static const struct field extraction_spend_fields[] = {
	{ "model", &part_str_null, 0, NULL },
	{ "embedding_model", &part_str_null, 0, NULL },
	{ "requests", &part_count, 0, NULL },
	{ "input_tokens", &part_count, 0, NULL },
	{ "output_tokens", &part_count, 0, NULL },
	{ "embedding_tokens", &part_count, 0, NULL },
	{ "usd", &s_usd, 0, NULL },
	END
};
static const struct shape s_extraction_spend =
	{ .kind = SK_OBJECT, .fields = extraction_spend_fields };
static const struct field spend_fields[] = {
	{ "agent", &s_agent_spend, 0, NULL },
	{ "extraction", &s_extraction_spend, 0, NULL },
	{ "usd", &s_usd, 0, NULL },
	END
};
static const struct shape s_spend = { .kind = SK_OBJECT, .fields = spend_fields };
static const struct shape s_paired_account_schema =
	{ .kind = SK_STRING, .check_text = rule_paired_account_schema };
static const struct field paired_account_fields[] = {
	{ "schema", &s_paired_account_schema, 0, NULL },
	{ "run_id", &part_str, 0, NULL },
	{ "task_id", &part_str, 0, NULL },
	{ "trial", &s_trial, 0, NULL },
	{ "arm", &s_arm, 0, NULL },
	{ "fault", &part_fault, 0, NULL },
	{ "spend", &s_spend, 0, NULL },
	END
};
const struct shape doc_paired_account = { .kind = SK_OBJECT, .fields = paired_account_fields };

/* ---- paired report (1.4.1's PairedReport) ---- */

static const struct field interval_fields[] = {
	{ "low", &part_num, 0, NULL },
	{ "high", &part_num, 0, NULL },
	END
};
static const struct shape s_interval =
	{ .kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = interval_fields };
static const struct shape s_runs = { .kind = SK_INT, .flags = SHAPE_MIN, .min = 1 };
static const struct field metric_fields[] = {
	{ "runs", &s_runs, 0, NULL },
	{ "mean", &part_num, 0, NULL },
	{ "min", &part_num, 0, NULL },
	{ "max", &part_num, 0, NULL },
	END
};
static const struct shape s_metric =
	{ .kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = metric_fields };
static const struct field step_summary_fields[] = {
	{ "runs", &s_runs, 0, NULL },
	{ "seconds", &s_metric, OPT, NULL },
	{ "input_tokens", &s_metric, OPT, NULL },
	{ "cache_tokens", &s_metric, OPT, NULL },
	{ "output_tokens", &s_metric, OPT, NULL },
	{ "cost_usd", &s_metric, OPT, NULL },
	END
};
static const struct shape s_step_summary = { .kind = SK_OBJECT, .fields = step_summary_fields };
static const struct shape s_step_summaries = { .kind = SK_MAP, .items = &s_step_summary };
static const struct field server_usage_fields[] = {
	{ "runs", &s_runs, 0, NULL },
	{ "generation_requests", &part_num, 0, NULL },
	{ "generation_input_tokens", &s_metric, OPT, NULL },
	{ "generation_output_tokens", &s_metric, OPT, NULL },
	{ "embedding_requests", &part_num, 0, NULL },
	{ "embedding_input_tokens", &s_metric, OPT, NULL },
	{ "recalled_tokens", &part_num, 0, NULL },
	END
};
static const struct shape s_server_usage =
	{ .kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = server_usage_fields };
static const struct field arm_summary_fields[] = {
	{ "scored", &part_count, 0, NULL },
	{ "passed", &part_count, 0, NULL },
	{ "timeouts", &part_count, 0, NULL },
	{ "errors", &part_count, 0, NULL },
	{ "integration_failures", &part_count, 0, NULL },
	{ "cross_scope_accesses", &part_count, OPT, "0" },
	{ "success_rate", &s_num_null, OPT, NULL },
	{ "success_rate_interval", &s_interval, OPT, NULL },
	{ "steps", &s_step_summaries, OPT, "{}" },
	{ "server", &s_server_usage, OPT, NULL },
	END
};
static const struct shape s_arm_summary = { .kind = SK_OBJECT, .fields = arm_summary_fields };
#define PAIRED_SUMMARY_FIELDS \
	{ "off", &s_arm_summary, 0, NULL }, \
	{ "on", &s_arm_summary, 0, NULL }, \
	{ "pairs", &part_count, 0, NULL }, \
	{ "mean_delta", &s_num_null, OPT, NULL }, \
	{ "delta_interval", &s_interval, OPT, NULL }, \
	{ "on_better", &part_count, OPT, "0" }, \
	{ "off_better", &part_count, OPT, "0" }, \
	{ "tied", &part_count, OPT, "0" }
static const struct field paired_summary_fields[] = { PAIRED_SUMMARY_FIELDS, END };
static const struct shape s_paired_summary =
	{ .kind = SK_OBJECT, .fields = paired_summary_fields };
static const struct field paired_task_fields[] = {
	PAIRED_SUMMARY_FIELDS,
	{ "task_id", &part_str, 0, NULL },
	END
};
static const struct shape s_paired_task = { .kind = SK_OBJECT, .fields = paired_task_fields };
static const struct shape s_paired_tasks =
	{ .kind = SK_ARRAY, .items = &s_paired_task, .flags = SHAPE_MIN, .min = 1 };
static const struct field paired_agent_fields[] = {
	{ "host", &part_str, 0, NULL },
	{ "version", &part_str, 0, NULL },
	{ "model", &part_str_null, OPT, NULL },
	{ "settings", &part_settings, OPT, "{}" },
	END
};
static const struct shape s_paired_agent = { .kind = SK_OBJECT, .fields = paired_agent_fields };
static const struct shape s_paired_report_schema =
	{ .kind = SK_STRING, .check_text = rule_paired_report_schema };
static const struct field paired_report_fields[] = {
	{ "schema", &s_paired_report_schema, 0, NULL },
	{ "experiment", &part_str, 0, NULL },
	{ "agent", &s_paired_agent, 0, NULL },
	{ "trials", &s_trial, 0, NULL },
	{ "tasks", &s_paired_tasks, 0, NULL },
	{ "total", &s_paired_summary, 0, NULL },
	END
};
const struct shape doc_paired_report = { .kind = SK_OBJECT, .fields = paired_report_fields };
/* clang-format on */
