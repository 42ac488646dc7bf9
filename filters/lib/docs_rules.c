#include "docs_rules.h"

#include <stdio.h>
#include <string.h>

#include "docs.h"
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
	size_t used;

	for (const char *const *a = allowed; *a; a++)
		if (!strcmp(s, *a))
			return 0;
	used = (size_t)snprintf(why, whylen, "must be one of");
	for (const char *const *a = allowed; *a && used < whylen; a++)
		used += (size_t)snprintf(why + used, whylen - used, "%s %s",
					 a == allowed ? "" : ",", *a);
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

const char *docs_batch_name(const char *category)
{
	static const char prefix[] = "batch:";

	return strncmp(category, prefix, sizeof prefix - 1) ? NULL : category + sizeof prefix - 1;
}

/* At most one "batch:<name>" category, its name an id: the workloads that
 * share it form one group for the failure policy. */
int rule_batch_categories(jv categories, char *why, size_t whylen)
{
	jv first = jv_null();
	int rc = 0;

	jv_array_foreach(categories, i, c) {
		const char *s = jv_string_value(c);
		char ignored[8];
		const char *batch = docs_batch_name(s);
		if (rc == 0 && batch) {
			if (shape_check_id(batch, strlen(batch), ignored, sizeof ignored) != 0) {
				snprintf(why, whylen,
					 "\"%s\": a batch name must match ^[a-z0-9][a-z0-9_-]*$",
					 s);
				rc = -1;
			} else if (jv_get_kind(first) == JV_KIND_STRING) {
				snprintf(why, whylen,
					 "at most one batch:<name> category, not \"%s\" and \"%s\"",
					 jv_string_value(first), s);
				rc = -1;
			} else {
				jv_free(first);
				first = jv_copy(c);
			}
		}
		jv_free(c);
	}
	jv_free(first);
	return rc;
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

/* Present and not null. */
static int rule_is_set(jv obj, const char *key)
{
	jv v = jv_object_get(jv_copy(obj), jv_string(key));
	int set = jv_is_valid(v) && jv_get_kind(v) != JV_KIND_NULL;

	jv_free(v);
	return set;
}

/* A local dataset (path) or a registry one (name [+ version]), not both. */
int rule_dataset(jv v, char *why, size_t whylen)
{
	int has_path = rule_is_set(v, "path"), has_name = rule_is_set(v, "name");

	if (has_path == has_name) {
		snprintf(why, whylen, "must give exactly one of path or name");
		return -1;
	}
	/* a name in the dataset, never a way out of it */
	jv task = jv_object_get(jv_copy(v), jv_string("task_id"));
	const char *id = jv_get_kind(task) == JV_KIND_STRING ? jv_string_value(task) : "";
	int pathlike = strchr(id, '/') || !strcmp(id, ".") || !strcmp(id, "..");
	jv_free(task);
	if (pathlike) {
		snprintf(
			why, whylen,
			"task_id must name a task of the dataset, not a path (no \"/\", not \".\" "
			"or \"..\")");
		return -1;
	}
	if (has_path && rule_is_set(v, "version")) {
		snprintf(why, whylen, "a local dataset (path) cannot declare a version");
		return -1;
	}
	return 0;
}

/* One pass over the ids, remembered in an object (a hash table): pairwise
 * comparison made 20,000 probes take minutes. */
/* A forbidden fragment inside an expected one could never be satisfied:
 * both are compared as NFC(casefold) forms, as the evaluator matches them. */
int rule_forbidden_outside_expected(jv probe, char *why, size_t whylen)
{
	jv expected = jv_object_get(jv_copy(probe), jv_string("expected_context"));
	jv forbidden = jv_object_get(jv_copy(probe), jv_string("forbidden_context"));
	int rc = 0;

	jv_array_foreach(forbidden, i, f) {
		jv_array_foreach(expected, j, x) {
			if (rc == 0 &&
			    text_contains_folded(TEXT_FOLD_NFC, jv_string_value(x),
						 (size_t)jv_string_length_bytes(jv_copy(x)),
						 jv_string_value(f),
						 (size_t)jv_string_length_bytes(jv_copy(f)))) {
				snprintf(
					why, whylen,
					"forbidden_context[%d] \"%s\" is contained in "
					"expected_context[%d] \"%s\"",
					i, jv_string_value(f), j, jv_string_value(x));
				rc = -1;
			}
			jv_free(x);
		}
		jv_free(f);
	}
	jv_free(expected);
	jv_free(forbidden);
	return rc;
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

int rule_arm(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "off", "on", NULL };
	return one_of(s, ok, why, whylen);
}

int rule_arm_outcome(const char *s, size_t n, char *why, size_t whylen)
{
	(void)n;
	static const char *const ok[] = { "passed", "failed", "timeout", "error",
					  "integration_failed", "cross_scope_access", NULL };
	return one_of(s, ok, why, whylen);
}

enum evaluation_kind docs_evaluation_kind(jv evaluation)
{
	if (rule_is_set(evaluation, "expected_execution"))
		return EVALUATION_OUTCOME;
	if (rule_is_set(evaluation, "probes"))
		return EVALUATION_MEMORY;
	return EVALUATION_PAIRED;
}
