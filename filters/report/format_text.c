/* pc-report --format text: a line per case (its verdict and name, its trend,
 * its false assertions, each with its EXPECTED → ACTUAL and evidence), then
 * the counts; -v adds every assertion with its actual values, -vv the
 * identities behind each result and each failing probe's whole context.
 * For a terminal, so in colour on one unless NO_COLOR says otherwise. */
#include <stdlib.h>

#include "diagnosis.h"
#include "formats.h"
#include "json.h"
#include "paired.h"
#include "trend.h"

/* The escapes around a verdict and around the quieter lines. */
struct style {
	const char *on[VERDICTS], *off, *dim;
};

/* An assertion's line; a failing one opens its diagnosis (EXPECTED →
 * ACTUAL and its evidence, with whole each probe's whole context) below
 * it, a passing one under -v adds its actual values. */
static void text_line(struct sbuf *b, const char *mark, const char *name, jv entry /* borrowed */,
		      jv diagnosis /* borrowed, or null */, int whole)
{
	const char *reason = json_str(entry, "reason");
	int failing = !json_has_true(entry, "value");

	sbuf_addf(b, "    %s %s", mark, name);
	if (reason && *reason)
		sbuf_addf(b, ": %s", reason);
	if (!failing && jv_get_kind(diagnosis) == JV_KIND_OBJECT) {
		sbuf_add(b, " · ");
		diagnosis_add_actual(b, diagnosis);
	}
	sbuf_add(b, "\n");
	if (failing && jv_get_kind(diagnosis) == JV_KIND_OBJECT)
		diagnosis_add_lines(b, diagnosis, "        ", whole);
}

/* Scores and labels hold {value, reason}; metrics are bare numbers. */
static void text_values(struct sbuf *b, const char *title, jv values /* consumed */)
{
	jv_object_foreach(values, name, entry) {
		sbuf_addf(b, "    %s %s = ", title, jv_string_value(name));
		if (jv_get_kind(entry) == JV_KIND_OBJECT) {
			jv v = jv_object_get(jv_copy(entry), jv_string("value"));
			report_add_value(b, v);
			jv_free(v);
		} else {
			jv s = jv_dump_string(jv_copy(entry), 0);
			sbuf_add(b, jv_string_value(s));
			jv_free(s);
		}
		sbuf_add(b, "\n");
		jv_free(name);
		jv_free(entry);
	}
	jv_free(values);
}

struct text_pass {
	struct report_out *o;
	int verbose;
	const struct style *st;
};

static void text_case(void *ctx, const struct report_case *c)
{
	const struct text_pass *t = ctx;
	struct sbuf *b = &t->o->b;
	jv assertions = report_section(c, "assertions");

	sbuf_addf(b, "%s%-12s%s %s\n", t->st->on[c->verdict], verdict_name(c->verdict), t->st->off,
		  report_case_name(c));
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		sbuf_addf(b, "    %strend: ", t->st->dim);
		trend_add_letters(b, c->trend);
		sbuf_addf(b, " (%s)%s\n", trend_change(c->trend), t->st->off);
	}
	stale_add_line(b, c, "    ");
	if (t->verbose > 1)
		diagnosis_add_identity(b, c, "    ");
	jv_object_foreach(assertions, name, a) {
		int holds = json_has_true(a, "value");
		/* a passing one's is read only when -v shows it */
		jv d = !holds || t->verbose ? diagnosis_of(c, jv_string_value(name)) : jv_null();
		if (!holds)
			text_line(b, "FAIL", jv_string_value(name), a, d, t->verbose > 1);
		else if (t->verbose)
			text_line(b, "pass", jv_string_value(name), a, d, 0);
		jv_free(d);
		jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
	if (t->verbose) {
		text_values(b, "score", report_section(c, "scores"));
		text_values(b, "label", report_section(c, "labels"));
		text_values(b, "metric", report_section(c, "metrics"));
	}
	report_flush(t->o);
}

/* Escapes only on a terminal: a file or a pipe gets plain text. */
static const struct style *text_style(const struct report_settings *s)
{
	static const struct style color = { { "\033[32m", "\033[31m", "\033[33m", "\033[36m",
					      "\033[35m" },
					    "\033[0m",
					    "\033[2m" };
	static const struct style plain = { { "", "", "", "", "" }, "", "" };

	return s->color && s->terminal ? &color : &plain;
}

/* A case's lines as soon as pc-report has read it: a run's results come
 * out as its workloads end. */
static void live_text(struct report_out *o, const struct report_case *c,
		      const struct report_settings *s)
{
	struct text_pass t = { o, s->verbose, text_style(s) };

	text_case(&t, c);
}

/* The summary's bars: a character per assertion of each workload, '#'
 * holding and '.' not, which read the same without colour.  A run of many
 * workloads gets the totals alone: its bars would be a second list. */
#define BARS_MAX 40

static void bar_case(void *ctx, const struct report_case *c)
{
	struct report_out *o = ctx;
	jv assertions = report_section(c, "assertions");
	int pass = 0, n = 0;

	sbuf_addf(&o->b, "  %-30s ", report_case_name(c));
	jv_object_foreach(assertions, name, a) {
		int holds = json_has_true(a, "value");
		sbuf_add(&o->b, holds ? "#" : ".");
		pass += holds;
		n++;
		jv_free(name);
		jv_free(a);
	}
	/* the most assertions a case has (a Memory workload's 14): counts align */
	sbuf_addf(&o->b, "%*s  %d of %d\n", n < 14 ? 14 - n : 0, "", pass, n);
	jv_free(assertions);
	report_flush(o);
}

static void add_bars(struct report_out *o, struct cases *cs, const struct style *st)
{
	sbuf_addf(&o->b, "%sassertions: %d of %d passing\n", st->dim, cs->passing, cs->evaluated);
	if (cs->n <= BARS_MAX)
		report_each_case(cs, bar_case, o);
	sbuf_add(&o->b, st->off);
}

static void render_text(struct report_out *o, struct cases *cs, const struct report_settings *s)
{
	const struct style *st = text_style(s);
	struct text_pass t = { o, s->verbose, st };

	if (!s->live)
		report_each_case(cs, text_case, &t);
	add_bars(o, cs, st);
	sbuf_add(&o->b, st->dim);
	report_add_counts(&o->b, cs);
	sbuf_addf(&o->b, "%s\n", st->off);
	report_flush(o);
}

/* --paired's text names neither the run's facts nor colours */
static void paired_text(struct sbuf *b, jv report, jv account, const struct page_facts *facts,
			int color)
{
	(void)facts, (void)color;
	paired_add_text(b, report, account);
}

const struct report_format format_text = {
	.name = "text",
	.render = render_text,
	.live = live_text,
	.paired = paired_text,
};
