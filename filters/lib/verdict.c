#include "verdict.h"

#include "docs_names.h"
#include "json.h"
#include "stage.h"

static int all_true(jv assertions)
{
	int ok = 1;

	if (jv_get_kind(assertions) != JV_KIND_OBJECT)
		return ok;
	jv_object_foreach(assertions, name, a) {
		ok = ok && json_has_true(a, "value");
		jv_free(name);
		jv_free(a);
	}
	return ok;
}

/* Present and false: an absent assertion says nothing about collection. */
static int is_false(jv assertions, const char *name)
{
	jv a = json_get(assertions, name);
	int f = jv_is_valid(a) && !json_has_true(a, "value");

	jv_free(a);
	return f;
}

static int was_skipped(jv kase)
{
	jv outcome = json_at(kase, "labels.task_outcome.value");

	return jv_equal(outcome, jv_string("skipped"));
}

/* pc-evaluate --catalog marked it: its manifest changed since it ran. */
static int is_stale(jv kase)
{
	jv stale = json_at(kase, "attributes." CASE_STALE);
	int marked = jv_get_kind(stale) == JV_KIND_OBJECT;

	jv_free(stale);
	return marked;
}

enum verdict verdict_of(const struct verdict_facts *v, int *exit_code)
{
	enum verdict run;

	/* The exit code follows the assertions alone: a skip the failure
	 * policy expected passes, one that left nothing collected is
	 * inconclusive, and a workload skipped against its expectation fails
	 * like any other false assertion. */
	*exit_code = v->accepted ? EXIT_OK : (v->uncollected ? EXIT_INCONCLUSIVE : EXIT_FAILED);
	if ((v->accepted || v->uncollected) && v->skipped)
		run = VERDICT_SKIPPED;
	else if (v->accepted)
		run = VERDICT_ACCEPTED;
	else
		run = v->uncollected ? VERDICT_INCONCLUSIVE : VERDICT_FAILED;
	if (run == VERDICT_FAILED || !v->stale)
		return run;
	*exit_code = EXIT_STALE;
	return VERDICT_STALE;
}

enum verdict verdict_judge(jv kase, int *exit_code)
{
	jv assertions = json_get(kase, "assertions");
	/* A Memory workload that never ran has execution_completed instead of
	 * collection_completed: either way nothing was collected to judge. */
	struct verdict_facts v = {
		.accepted = all_true(assertions),
		.uncollected = is_false(assertions, "collection_completed") ||
			       is_false(assertions, "execution_completed"),
		.skipped = was_skipped(kase),
		.stale = is_stale(kase),
	};

	jv_free(assertions);
	return verdict_of(&v, exit_code);
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_ACCEPTED: return "accepted";
	case VERDICT_FAILED: return "failed";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	case VERDICT_SKIPPED: return "skipped";
	case VERDICT_STALE: return "stale";
	}
	return "unknown";
}

int verdict_paired_exit(jv report)
{
	jv total = json_get(report, "total");
	int failed = json_number_at(total, "off.errors", 0) > 0 ||
		     json_number_at(total, "on.errors", 0) > 0 ||
		     json_number_at(total, "on.integration_failures", 0) > 0 ||
		     json_number_at(total, "on.cross_scope_accesses", 0) > 0;

	jv_free(total);
	return failed ? EXIT_FAILED : EXIT_OK;
}
