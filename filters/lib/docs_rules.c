#include "docs_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choice.h"
#include "docs_names.h"
#include "shape_strings.h"
#include "text.h"

static int const_is(const char *s, const char *want, char *why, size_t whylen)
{
	if (!strcmp(s, want))
		return 0;
	snprintf(why, whylen, "must be \"%s\"", want);
	return -1;
}

static int one_of(const char *s, const char *const *allowed, char *why, size_t whylen)
{
	struct sbuf b = { 0 };

	for (const char *const *a = allowed; *a; a++)
		if (!strcmp(s, *a))
			return 0;
	sbuf_add(&b, "must be one of ");
	choice_add_names(&b, choice_string_at, allowed, ", ", ", ");
	char *msg = sbuf_take(&b);
	snprintf(why, whylen, "%s", msg);
	free(msg);
	return -1;
}

#define CONST_CHECK(fn, value)                                    \
	int fn(const char *s, size_t n, char *why, size_t whylen) \
	{                                                         \
		(void)n;                                          \
		return const_is(s, value, why, whylen);           \
	}

CONST_CHECK(rule_task_schema, SCHEMA_TASK)
CONST_CHECK(rule_selection_schema, SCHEMA_SELECTION)
CONST_CHECK(rule_evidence_schema, SCHEMA_EVIDENCE)
CONST_CHECK(rule_evaluation_schema, SCHEMA_EVALUATION)
CONST_CHECK(rule_capture_schema, SCHEMA_CAPTURE)
CONST_CHECK(rule_bub, "bub")

int rule_status(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "completed", "failed", "skipped", NULL };
	return one_of(s, ok, why, whylen);
}

int rule_policy(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "collect-all", "fail-fast", NULL };
	return one_of(s, ok, why, whylen);
}

CONST_CHECK(rule_task_outcome_comparison, "task-outcome")

int rule_not_blank(const char *s, size_t n, char *why, size_t whylen)
{
	if (!text_is_blank(s, n))
		return 0;
	snprintf(why, whylen, "must not be blank");
	return -1;
}

/* ArtifactReference's family and artifact_id: 1..128 printable ASCII
 * characters without spaces. */
int rule_artifact_token(const char *s, size_t n, char *why, size_t whylen)
{
	size_t i = 0;

	while (i < n && s[i] >= 0x21 && s[i] <= 0x7e)
		i++;
	if (n >= 1 && n <= 128 && i == n)
		return 0;
	snprintf(why, whylen, "must be 1 to 128 printable ASCII characters without spaces");
	return -1;
}

/* At most one "batch:<name>" category, its name an id: the workloads that
 * share it form one group for the failure policy. */
int rule_batch_categories(struct rule_value v, char *why, size_t whylen)
{
	const char *first = NULL, *s;
	size_t n;

	for (size_t i = 0; (s = v.read->item(v.v, NULL, i, &n)); i++) {
		const char *batch = docs_batch_name(s);
		char ignored[8];
		if (!batch)
			continue;
		if (shape_check_id(batch, strlen(batch), ignored, sizeof ignored) != 0) {
			snprintf(why, whylen,
				 "\"%s\": a batch name must match ^[a-z0-9][a-z0-9_-]*$", s);
			return -1;
		}
		if (first) {
			snprintf(why, whylen,
				 "at most one batch:<name> category, not \"%s\" and \"%s\"", first,
				 s);
			return -1;
		}
		first = s;
	}
	return 0;
}

int rule_task_kind(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "local", "registry", NULL };
	return one_of(s, ok, why, whylen);
}

int rule_capture_event(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "user_prompt", "llm_result",
					  "tool_result", "checkpoint", "context", NULL };
	return one_of(s, ok, why, whylen);
}

/* A local dataset (path) or a registry one (name [+ version]), not both. */
int rule_dataset(struct rule_value v, char *why, size_t whylen)
{
	int has_path = v.read->is_set(v.v, "path"), has_name = v.read->is_set(v.v, "name");
	size_t n;

	if (has_path == has_name) {
		snprintf(why, whylen, "must give exactly one of path or name");
		return -1;
	}
	/* a name in the dataset, never a way out of it */
	const char *id = v.read->text(v.v, "task_id", &n);
	if (!id)
		id = "";
	if (strchr(id, '/') || !strcmp(id, ".") || !strcmp(id, "..")) {
		snprintf(why, whylen,
			 "task_id must name a task of the dataset, not a path (no \"/\", not \".\" or \"..\")");
		return -1;
	}
	if (has_path && v.read->is_set(v.v, "version")) {
		snprintf(why, whylen, "a local dataset (path) cannot declare a version");
		return -1;
	}
	return 0;
}

/* A forbidden fragment inside an expected one could never be satisfied:
 * both are compared as NFC(casefold) forms, as the evaluator matches them. */
int rule_forbidden_outside_expected(struct rule_value probe, char *why, size_t whylen)
{
	const char *f, *x;
	size_t fn, xn;

	for (size_t i = 0; (f = probe.read->item(probe.v, "forbidden_context", i, &fn)); i++)
		for (size_t j = 0; (x = probe.read->item(probe.v, "expected_context", j, &xn)); j++)
			if (text_contains_folded(TEXT_FOLD_NFC, x, xn, f, fn)) {
				snprintf(why, whylen,
					 "forbidden_context[%d] \"%s\" is contained in expected_context[%d] \"%s\"",
					 (int)i, f, (int)j, x);
				return -1;
			}
	return 0;
}

int rule_runner(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "local", "harbor", NULL };
	return one_of(s, ok, why, whylen);
}

CONST_CHECK(rule_run_schema, SCHEMA_RUN)
CONST_CHECK(rule_paired_arm_schema, SCHEMA_PAIRED_ARM)
CONST_CHECK(rule_paired_report_schema, SCHEMA_PAIRED_REPORT)
CONST_CHECK(rule_paired_account_schema, SCHEMA_PAIRED_ACCOUNT)

int rule_fault_class(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "provider", "infrastructure", "harness", NULL };
	return one_of(s, ok, why, whylen);
}

int rule_arm(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "off", "on", NULL };
	return one_of(s, ok, why, whylen);
}

int rule_fault_class(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "provider", "infrastructure", "harness", NULL };
	return one_of(s, ok, why, whylen);
}

int rule_arm_outcome(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "passed", "failed", "timeout", "error",
					  "integration_failed", "cross_scope_access", NULL };
	return one_of(s, ok, why, whylen);
}
