/* pc-report --format junit: JUnit XML for CI, a testcase per workload; a
 * failed workload is a <failure>, an inconclusive one an <error>, a skipped
 * one <skipped/>. */
#include <stdlib.h>

#include "diagnosis.h"
#include "formats.h"
#include "json.h"
#include "markup.h"
#include "trend.h"

/* Why a workload was not run: the reason of its first false assertion
 * (execution_completed when nothing was collected), else its task outcome
 * (a skip the failure policy expected leaves every assertion true). */
static void junit_skipped(struct sbuf *b, const struct report_case *c)
{
	jv failing = report_false_assertions(c);
	jv first = jv_array_get(jv_copy(failing), 0); /* invalid when none */
	const char *reason = json_str(first, "reason");

	sbuf_add(b, "      <skipped message=\"");
	markup_add_text(b, reason && *reason ? reason : report_label(c, "task_outcome"));
	sbuf_add(b, "\"/>\n");
	jv_free(first);
	jv_free(failing);
}

/* The message's gist of the first false assertion, when the case has its
 * diagnosis: "name: EXPECTED … → ACTUAL …". */
static void junit_gist(struct sbuf *b, const struct report_case *c, jv failing)
{
	jv first = jv_array_get(jv_copy(failing), 0);
	const char *name = json_str(first, "name");
	jv d = name ? diagnosis_of(c, name) : jv_null();

	if (jv_get_kind(d) == JV_KIND_OBJECT) {
		struct sbuf gist = { 0 };
		sbuf_addf(&gist, ": %s: ", name);
		diagnosis_add_summary(&gist, d);
		char *text = sbuf_take(&gist);
		markup_add_text(b, text);
		free(text);
	}
	jv_free(d);
	jv_free(first);
}

/* Each false assertion's line, its diagnosis below it when the case has
 * one. */
static void junit_failure(struct sbuf *b, const struct report_case *c)
{
	jv failing = report_false_assertions(c);
	const char *tag = c->verdict == VERDICT_INCONCLUSIVE ? "error" : "failure";

	sbuf_addf(b, "      <%s type=\"%s\" message=\"%d assertion%s false", tag,
		  verdict_name(c->verdict), jv_array_length(jv_copy(failing)),
		  jv_array_length(jv_copy(failing)) == 1 ? "" : "s");
	junit_gist(b, c, failing);
	sbuf_add(b, "\">");
	jv_array_foreach(failing, i, a) {
		const char *reason = json_str(a, "reason");
		markup_add_text(b, json_str(a, "name"));
		if (reason) {
			sbuf_add(b, ": ");
			markup_add_text(b, reason);
		}
		sbuf_add(b, "\n");
		jv d = diagnosis_of(c, json_str(a, "name"));
		if (jv_get_kind(d) == JV_KIND_OBJECT) {
			struct sbuf lines = { 0 };
			diagnosis_add_lines(&lines, d, "  ", 0);
			char *text = sbuf_take(&lines);
			markup_add_text(b, text);
			free(text);
		}
		jv_free(d);
		jv_free(a);
	}
	jv_free(failing);
	sbuf_addf(b, "</%s>\n", tag);
}

/* A stale result is neither a pass nor a failure: skipped, saying what of
 * its manifest changed since it ran. */
static void junit_stale(struct sbuf *b, const struct report_case *c)
{
	struct sbuf why = { 0 };

	stale_add_reason(&why, c);
	char *text = sbuf_take(&why);
	sbuf_add(b, "      <skipped message=\"");
	markup_add_text(b, text);
	sbuf_add(b, "\"/>\n");
	free(text);
}

static void junit_testcase(struct sbuf *b, const struct report_case *c)
{
	sbuf_add(b, "    <testcase classname=\"");
	markup_add_text(b, c->experiment);
	sbuf_add(b, "\" name=\"");
	markup_add_text(b, report_case_name(c));
	sbuf_add(b, "\"");
	if (c->verdict == VERDICT_ACCEPTED && jv_get_kind(c->trend) != JV_KIND_ARRAY) {
		sbuf_add(b, "/>\n");
		return;
	}
	sbuf_add(b, ">\n");
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		sbuf_add(b, "      <properties>\n        <property name=\"trend\" value=\"");
		trend_add_letters(b, c->trend);
		sbuf_addf(
			b,
			"\"/>\n"
			"        <property name=\"trend_change\" value=\"%s\"/>\n"
			"      </properties>\n",
			trend_change(c->trend));
	}
	if (c->verdict == VERDICT_SKIPPED)
		junit_skipped(b, c);
	else if (c->verdict == VERDICT_STALE)
		junit_stale(b, c);
	else if (c->verdict != VERDICT_ACCEPTED)
		junit_failure(b, c);
	sbuf_add(b, "    </testcase>\n");
}

static void junit_case(void *ctx, const struct report_case *c)
{
	struct report_out *o = ctx;

	junit_testcase(&o->b, c);
	report_flush(o);
}

static void render_junit(struct report_out *o, struct cases *cs, const struct report_settings *s)
{
	struct sbuf *b = &o->b;

	(void)s;
	sbuf_add(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sbuf_addf(b, "<testsuites name=\"pc-e2e\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n",
		  cs->n, cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE]);
	sbuf_addf(
		b,
		"  <testsuite name=\"pc-e2e\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		cs->n, cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE],
		cs->count[VERDICT_SKIPPED]);
	report_flush(o);
	report_each_case(cs, junit_case, o);
	sbuf_add(b, "  </testsuite>\n</testsuites>\n");
	report_flush(o);
}

const struct report_format format_junit = {
	.name = "junit",
	.render = render_junit,
};
