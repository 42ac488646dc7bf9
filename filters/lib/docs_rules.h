/* docs_rules: the checks behind docs.c's shapes that a shape's kind and
 * bounds cannot say (one-of lists, constant schemas, batch categories, the
 * dataset rule, unique probe ids, forbidden fragments outside expected ones).
 *
 * Private to docs.c, which names them in its tables; each has a shape
 * check's signature: 0, or -1 with the reason in why.
 */
#ifndef PC_DOCS_RULES_H
#define PC_DOCS_RULES_H

#include <jv.h>
#include <stddef.h>

int rule_arm(jv v, char *why, size_t whylen);
int rule_arm_outcome(jv v, char *why, size_t whylen);
int rule_artifact_token(jv v, char *why, size_t whylen);
int rule_batch_categories(jv v, char *why, size_t whylen);
int rule_bub(jv v, char *why, size_t whylen);
int rule_capture_event(jv v, char *why, size_t whylen);
int rule_capture_schema(jv v, char *why, size_t whylen);
int rule_dataset(jv v, char *why, size_t whylen);
int rule_evaluation_schema(jv v, char *why, size_t whylen);
int rule_evidence_schema(jv v, char *why, size_t whylen);
int rule_forbidden_outside_expected(jv v, char *why, size_t whylen);
int rule_not_blank(jv v, char *why, size_t whylen);
int rule_paired_arm_schema(jv v, char *why, size_t whylen);
int rule_paired_report_schema(jv v, char *why, size_t whylen);
int rule_policy(jv v, char *why, size_t whylen);
int rule_run_schema(jv v, char *why, size_t whylen);
int rule_runner(jv v, char *why, size_t whylen);
int rule_selection_schema(jv v, char *why, size_t whylen);
int rule_status(jv v, char *why, size_t whylen);
int rule_task_kind(jv v, char *why, size_t whylen);
int rule_task_outcome_comparison(jv v, char *why, size_t whylen);
int rule_task_schema(jv v, char *why, size_t whylen);
int rule_unique_probe_ids(jv v, char *why, size_t whylen);

#endif
