/* docs_names: the names pc-e2e's documents spell: each document type's
 * schema, pc-e2e's own case attributes, the score a Harbor reward becomes
 * and the category that puts a workload in a batch.
 *
 * Below the shapes (docs.h), so that the rules behind them (docs_rules.h)
 * and a filter that only writes a name read them from one place.
 */
#ifndef PC_DOCS_NAMES_H
#define PC_DOCS_NAMES_H

#include <stddef.h>
#include <string.h>

#define SCHEMA_TASK          "powercontext.e2e-task/v1"
#define SCHEMA_SELECTION     "powercontext.e2e-selection/v1"
#define SCHEMA_RUN           "powercontext.e2e-run/v1"
#define SCHEMA_EVIDENCE      "powercontext.e2e-evidence/v1"
#define SCHEMA_EVALUATION    "powercontext.e2e-evaluation/v1"
#define SCHEMA_CAPTURE       "powercontext.bub-capture-event/v1"
#define SCHEMA_PAIRED_ARM    "powercontext.e2e-paired-arm/v3"
#define SCHEMA_PAIRED_REPORT "powercontext.e2e-paired-report/v4"
/* pc-e2e's own beside 1.4.1's: an arm's fault and spend, and a run's */
#define SCHEMA_PAIRED_ACCOUNT "pc-e2e.paired-arm-account/v1"
#define SCHEMA_PAIRED_RUN     "pc-e2e.paired-run/v1"

/* pc-e2e's own case attribute: each assertion's EXPECTED and ACTUAL and the
 * evidence of one that does not hold (filters/evaluate/diagnosis.h), which
 * pc-report shows and never recomputes. */
#define CASE_DIAGNOSIS "diagnosis"
/* pc-e2e's own case attribute when rescoring against a catalog whose
 * manifest of the workload changed or is gone (filters/evaluate/freshness.h):
 * {"changed": [fields]} or {"removed": true}. */
#define CASE_STALE "stale"
/* pc-e2e's own case attributes for the report.md PowerContext 1.4.1 renders
 * from the replay beside the evaluation (pc-report's report_md.c): the
 * replay's status, and its Harbor rewards, name to the reward as Python's
 * str() prints it (an int 1 stays 1, a float 1.0), names sorted. */
#define CASE_REPLAY_STATUS  "replay_status"
#define CASE_HARBOR_REWARDS "harbor_rewards"

/* An evaluation's score for Harbor's reward NAME is "harbor_reward_NAME". */
#define DOCS_REWARD_SCORE_PREFIX "harbor_reward_"

/* The group name of a "batch:<name>" category (a pointer into category), or
 * NULL for any other category. */
static inline const char *docs_batch_name(const char *category)
{
	static const char prefix[] = "batch:";

	return strncmp(category, prefix, sizeof prefix - 1) ? NULL : category + sizeof prefix - 1;
}

#endif
