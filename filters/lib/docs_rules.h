/* docs_rules: the checks behind the document shapes that a shape's kind and
 * bounds cannot say (one-of lists, constant schemas, batch categories, the
 * dataset rule, unique probe ids, forbidden fragments outside expected ones).
 *
 * Private to docs.c and docs_paired.c, which name them in their tables;
 * each has a shape check's signature: 0, or -1 with the reason in why.
 */
#ifndef PC_DOCS_RULES_H
#define PC_DOCS_RULES_H

#include <stddef.h>

#include "shape.h"

int rule_arm(const char *s, size_t n, char *why, size_t whylen);
int rule_arm_outcome(const char *s, size_t n, char *why, size_t whylen);
int rule_artifact_token(const char *s, size_t n, char *why, size_t whylen);
int rule_batch_categories(struct rule_value v, char *why, size_t whylen);
int rule_bub(const char *s, size_t n, char *why, size_t whylen);
int rule_capture_event(const char *s, size_t n, char *why, size_t whylen);
int rule_capture_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_dataset(struct rule_value v, char *why, size_t whylen);
int rule_evaluation_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_evidence_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_fault_class(const char *s, size_t n, char *why, size_t whylen);
int rule_forbidden_outside_expected(struct rule_value v, char *why, size_t whylen);
int rule_not_blank(const char *s, size_t n, char *why, size_t whylen);
int rule_paired_account_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_paired_arm_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_paired_report_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_policy(const char *s, size_t n, char *why, size_t whylen);
int rule_run_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_runner(const char *s, size_t n, char *why, size_t whylen);
int rule_selection_schema(const char *s, size_t n, char *why, size_t whylen);
int rule_status(const char *s, size_t n, char *why, size_t whylen);
int rule_task_kind(const char *s, size_t n, char *why, size_t whylen);
int rule_task_outcome_comparison(const char *s, size_t n, char *why, size_t whylen);
int rule_task_schema(const char *s, size_t n, char *why, size_t whylen);

#endif
