/* report_md: 1.4.1's report.md, rendered (report_md.h). */
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "report_md.h"

#define TITLE "# PowerContext end-to-end evaluation\n"

/* A CommonMark line ending (\r\n, \r or \n) at s: its length, or 0. */
static size_t line_ending(const char *s)
{
	if (s[0] == '\r')
		return s[1] == '\n' ? 2 : 1;
	return s[0] == '\n';
}

/* `text` as Marko reads the span back: its line endings become spaces, then
 * one space each side goes when both are there and it is not all spaces.
 * A text holding a backtick is written as it is. */
static void add_code_span(struct sbuf *b, const char *text)
{
	struct sbuf span = { 0 };
	size_t k;

	for (const char *p = text; *p; p += k ? k : 1)
		sbuf_addn(&span, (k = line_ending(p)) ? " " : p, 1);
	int ticks = strchr(text, '`') != NULL;
	char *s = ticks ? pc_xstrdup(text) : sbuf_take(&span);
	size_t n = strlen(s);
	int strip = !ticks && n >= 2 && s[0] == ' ' && s[n - 1] == ' ' && strspn(s, " ") < n;

	sbuf_add(b, "`");
	sbuf_addn(b, s + strip, n - 2 * (size_t)strip);
	sbuf_add(b, "`");
	free(span.s);
	free(s);
}

/* One list line: "- label: `value`" and what follows it. */
static void add_item(struct sbuf *b, const char *label, const char *value, const char *after)
{
	sbuf_addf(b, "- %s: ", label);
	add_code_span(b, value);
	sbuf_addf(b, "%s\n", after);
}

/* The replay's status.  An evaluation without pc-e2e's attribute (the
 * release's own, or an older pc-e2e's) still tells it, by 1.4.1's rules:
 * an outcome case labels it, only a skipped run has execution_completed,
 * and collection_completed holds exactly when the run completed. */
static const char *status_of(const struct report_case *c)
{
	const char *attributes = spool_get(c->kase, "attributes");
	const char *status = spool_str(spool_get(attributes, CASE_REPLAY_STATUS));
	const char *assertions = spool_get(c->kase, "assertions");

	if (status)
		return status;
	if (spool_get(assertions, "execution_outcome"))
		return report_label(c, "task_outcome");
	if (spool_get(assertions, "execution_completed"))
		return "skipped";
	return report_holds(spool_get(assertions, "collection_completed")) ? "completed" : "failed";
}

void report_md_add_summary(struct sbuf *b, const struct report_case *c)
{
	add_item(b, "Workload", report_case_name(c), "");
	add_item(b, "Execution adapter", report_attribute(c, "execution_adapter"), "");
	add_item(b, "Harbor dataset", report_attribute(c, "dataset"), "");
	add_item(b, "Collection status", status_of(c), "");
	add_item(b, "Native task outcome", report_label(c, "task_outcome"), " (diagnostic only)");
}

/* "- `name`: `shown`" */
static void add_reward(struct sbuf *b, const char *name, const char *shown)
{
	sbuf_add(b, "- ");
	add_code_span(b, name);
	sbuf_add(b, ": ");
	add_code_span(b, shown);
	sbuf_add(b, "\n");
}

/* Without pc-e2e's attribute, the rewards a Memory case scored: the
 * release's evaluator made each a float, so an int reward reads 1.0. */
static void add_scored_rewards(struct sbuf *b, const struct report_case *c)
{
	const char *prefix = DOCS_REWARD_SCORE_PREFIX;
	struct sbuf shown = { 0 };

	for (struct spool_each s = spool_each(spool_get(c->kase, "scores")); spool_next(&s);) {
		const char *name = spool_str(s.key);
		if (!strncmp(name, prefix, strlen(prefix))) {
			jv v = spool_jv(spool_get(s.value, "value"));
			shown.len = 0;
			report_add_value(&shown, v);
			add_reward(b, name + strlen(prefix), shown.s);
			jv_free(v);
		}
	}
	free(shown.s);
}

void report_md_add_rewards(struct sbuf *b, const struct report_case *c)
{
	const char *rewards = spool_get(spool_get(c->kase, "attributes"), CASE_HARBOR_REWARDS);
	size_t before = b->len;

	if (!rewards)
		add_scored_rewards(b, c);
	for (struct spool_each r = spool_each(rewards); spool_next(&r);) {
		const char *shown = spool_str(r.value);
		add_reward(b, spool_str(r.key), shown ? shown : "None");
	}
	if (b->len == before)
		sbuf_add(b, "- No native reward was recorded.\n");
}

/* The case's scores or labels, tagged. */
static void add_values(struct sbuf *lines, const struct report_case *c, const char *kind,
		       const char *tag)
{
	for (struct spool_each e = spool_each(spool_get(c->kase, kind)); spool_next(&e);) {
		jv v = spool_jv(spool_get(e.value, "value"));
		sbuf_addf(lines, "  [%s] %s: ", tag, spool_str(e.key));
		report_add_value(lines, v);
		sbuf_add(lines, "\n");
		jv_free(v);
	}
}

void report_md_add_case_lines(struct sbuf *lines, const struct report_case *c)
{
	sbuf_addf(lines, "%s\n", report_case_name(c));
	for (struct spool_each a = spool_each(spool_get(c->kase, "assertions")); spool_next(&a);) {
		const char *reason = spool_str(spool_get(a.value, "reason"));
		sbuf_addf(lines, "  [%s] %s", report_holds(a.value) ? "PASS" : "FAIL",
			  spool_str(a.key));
		if (reason && *reason)
			sbuf_addf(lines, " — %s", reason);
		sbuf_add(lines, "\n");
	}
	add_values(lines, c, "scores", "SCORE");
	add_values(lines, c, "labels", "LABEL");
}

/* The length of a line break of Python's str.splitlines() at s, or 0:
 * \r\n, \r, \n, \v, \f, \x1c to \x1e, U+0085, U+2028 and U+2029. */
static size_t py_line_break(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] == '\r' || u[0] == '\n')
		return line_ending(s);
	if (u[0] == '\v' || u[0] == '\f' || (u[0] >= 0x1c && u[0] <= 0x1e))
		return 1;
	if (u[0] == 0xc2 && u[1] == 0x85)
		return 2;
	return u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9) ? 3 : 0;
}

void report_md_add_block(struct sbuf *b, const char *lines)
{
	sbuf_add(b, "```text\n");
	for (const char *p = lines; *p;) {
		size_t k = py_line_break(p);
		if (k)
			sbuf_add(b, "\n"), p += k;
		else
			sbuf_addn(b, p++, 1);
	}
	sbuf_add(b, "```\n");
}

char *report_md_workload(const struct report_case *c)
{
	struct sbuf b = { 0 }, lines = { 0 };

	sbuf_add(&b, TITLE "\n");
	report_md_add_summary(&b, c);
	sbuf_add(&b, "\n## Harbor reward\n\n");
	report_md_add_rewards(&b, c);
	sbuf_add(&b, "\n## Evaluation\n\n");
	report_md_add_case_lines(&lines, c);
	report_md_add_block(&b, lines.s ? lines.s : "");
	free(lines.s);
	return sbuf_take(&b);
}

char *report_md_batch(const char *lines)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, TITLE "\n");
	report_md_add_block(&b, lines);
	return sbuf_take(&b);
}
