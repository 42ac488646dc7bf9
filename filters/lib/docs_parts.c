#include "docs_parts.h"

#include "docs_rules.h"
#include "shape_strings.h"

/* The shapes are tables, one field a line: clang-format would re-flow them. */
/* clang-format off */

/* ---- leaf shapes ---- */

const struct shape part_str = { .kind = SK_STRING };
const struct shape part_str_null = { .kind = SK_STRING, .flags = SHAPE_NULLABLE };
const struct shape part_bool = { .kind = SK_BOOL };
const struct shape part_count = { .kind = SK_INT, .flags = SHAPE_MIN, .min = 0 };
const struct shape part_num = { .kind = SK_NUMBER };
const struct shape part_time = { .kind = SK_STRING, .check_text = shape_check_datetime };
static const struct shape s_time_null =
	{ .kind = SK_STRING, .flags = SHAPE_NULLABLE, .check_text = shape_check_datetime };
const struct shape part_strings = { .kind = SK_ARRAY, .items = &part_str };

/* ---- a replay's parts, which the run record and the arm observation hold too ---- */

const struct shape part_settings = { .kind = SK_MAP, .items = &part_str };
static const struct field environment_fields[] = {
	{ "commit", &part_str, 0, NULL },
	{ "database", &part_str, 0, NULL },
	/* replays written before agents were selectable ran Bub */
	{ "adapter", &part_str, OPT, "\"bub\"" },
	{ "adapter_version", &part_str, 0, NULL },
	{ "adapter_protocol_version", &part_str, 0, NULL },
	{ "agent_model", &part_str_null, OPT, NULL },
	{ "agent_settings", &part_settings, OPT, "{}" },
	{ "started_at", &part_time, 0, NULL },
	{ "finished_at", &part_time, 0, NULL },
	END
};
const struct shape part_environment = { .kind = SK_OBJECT, .fields = environment_fields };

const struct shape part_rewards = { .kind = SK_MAP, .items = &part_num };
static const struct field harbor_fields[] = {
	{ "job_id", &part_str_null, OPT, NULL },
	{ "trial_name", &part_str_null, OPT, NULL },
	{ "trial_uri", &part_str_null, OPT, NULL },
	{ "task_checksum", &part_str_null, OPT, NULL },
	{ "source_task_checksum", &part_str_null, OPT, NULL },
	{ "rewards", &part_rewards, OPT, "{}" },
	{ "exception_type", &part_str_null, OPT, NULL },
	{ "exception_message", &part_str_null, OPT, NULL },
	{ "started_at", &s_time_null, OPT, NULL },
	{ "finished_at", &s_time_null, OPT, NULL },
	END
};
const struct shape part_harbor = { .kind = SK_OBJECT, .fields = harbor_fields };
/* clang-format on */

static const struct shape s_fault_class = { .kind = SK_STRING, .check_text = rule_fault_class };
static const struct shape s_status = { .kind = SK_INT, .flags = SHAPE_NULLABLE };
static const struct shape s_seconds_null = {
	.kind = SK_NUMBER, .flags = SHAPE_NULLABLE | SHAPE_MIN, .min = 0
};
static const struct field fault_fields[] = {
	{ "class", &s_fault_class, 0, NULL },
	{ "kind", &part_str, 0, NULL },
	{ "transient", &part_bool, 0, NULL },
	{ "step", &part_str_null, 0, NULL },
	{ "status", &s_status, 0, NULL },
	{ "retry_after", &s_seconds_null, 0, NULL },
	{ "words", &part_str, 0, NULL },
	END
};
const struct shape part_fault = {
	.kind = SK_OBJECT, .flags = SHAPE_NULLABLE, .fields = fault_fields
};
