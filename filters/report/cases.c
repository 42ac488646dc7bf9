/* The first pass, the spooled cases of one report and the readers every
 * format shares (cases.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "docs.h"
#include "json.h"
#include "outdir.h"
#include "shape.h"
#include "shape_strings.h"
#include "stage.h"

/* What the text summary's totals count, taken as each case is read. */
static void count_assertions(struct cases *cs, jv kase)
{
	jv assertions = json_get(kase, "assertions");

	jv_object_foreach(assertions, name, a) {
		cs->passing += json_has_true(a, "value");
		cs->evaluated++;
		jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
}

/* Every case name becomes a directory under --output: the first that
 * cannot (never a path like "../x"), or whose batch cannot, is noted so
 * that it is refused before anything is written. */
static void check_name(struct cases *cs, jv name, jv batch)
{
	char why[128];

	if (!cs->bad_name && shape_check_id(jv_string_value(name), 0, why, sizeof why) != 0)
		cs->bad_name = text_fmt("case \"%s\" is not a workload id (%s)",
					jv_string_value(name), why);
	if (!cs->bad_name && jv_get_kind(batch) != JV_KIND_NULL &&
	    shape_check_id(jv_string_value(batch), 0, why, sizeof why) != 0)
		cs->bad_name = text_fmt("case \"%s\": its batch is not a workload id (%s)",
					jv_string_value(name), why);
}

/* The case (borrowed) judged, counted and spooled, and handed to seen as
 * every pass will read it: spooled. */
static int spool_case(struct cases *cs, jv kase, const char *experiment, struct sbuf *spooled,
		      const struct redactor *red, int check_names, report_seen_fn *seen,
		      void *ctx)
{
	int code, stop = 0;
	enum verdict v = verdict_judge(kase, &code);

	cs->n++;
	cs->count[v]++;
	count_assertions(cs, kase);
	cs->status = stage_worst(cs->status, code);
	jv name = jv_object_get(jv_copy(kase), jv_string("name"));
	jv batch = json_at(kase, "attributes." OUTDIR_CASE_BATCH);
	if (check_names)
		check_name(cs, name, batch);
	/* the verdict judged here, and the directory of its files, travel with it */
	const char *in = jv_get_kind(batch) == JV_KIND_STRING ? jv_string_value(batch) : NULL;
	char *dir = jv_get_kind(name) == JV_KIND_STRING ? outdir_workload(jv_string_value(name), in)
							: NULL;
	jv exp = redact_jv(red, jv_string(experiment));
	spooled->len = 0;
	spool_add(spooled, redact_jv(red, jv_copy(kase)));
	struct report_case c = { spooled->s, jv_string_value(exp), dir, v, jv_null() };
	if (seen)
		stop = seen(ctx, &c);
	report_spool(cs->spool.f, &c);
	jv_free(exp);
	free(dir);
	jv_free(batch);
	jv_free(name);
	return stop;
}

int report_spool_document(struct cases *cs, jv doc, const struct redactor *red, int check_names,
			  report_seen_fn *seen, void *ctx)
{
	jv list = jv_object_get(jv_copy(doc), jv_string("cases"));
	const char *experiment = json_str(doc, "experiment");
	struct sbuf spooled = { 0 };
	int stop = 0;

	jv_array_foreach(list, i, kase) {
		stop |= spool_case(cs, kase, experiment, &spooled, red, check_names, seen, ctx);
		jv_free(kase);
	}
	free(spooled.s);
	jv_free(list);
	return stop;
}

/* A record is its length (a uint64_t), the verdict (a byte), then the
 * experiment, the directory (a string or null), the trend (an array or
 * null) and the case, each a value in spool.h's encoding. */
void report_spool(FILE *spool, const struct report_case *c)
{
	struct sbuf head = { 0 };
	size_t kase = spool_size(c->kase);
	uint64_t n = 0;
	char verdict = (char)c->verdict;

	sbuf_addn(&head, (const char *)&n, sizeof n);
	sbuf_addn(&head, &verdict, 1);
	spool_add(&head, jv_string(c->experiment));
	spool_add(&head, json_string_or_null(c->dir));
	spool_add(&head, jv_copy(c->trend));
	n = head.len - sizeof n + kase;
	memcpy(head.s, &n, sizeof n);
	fwrite(head.s, 1, head.len, spool);
	fwrite(c->kase, 1, kase, spool);
	free(head.s);
}

void report_each_case(struct cases *cs, void (*fn)(void *ctx, const struct report_case *c),
		      void *ctx)
{
	char *record = NULL;
	size_t cap = 0;
	uint64_t n;

	rewind(cs->spool.f);
	while (fread(&n, sizeof n, 1, cs->spool.f) == 1) {
		if (n > cap)
			record = pc_xrealloc(record, cap = n);
		if (fread(record, 1, n, cs->spool.f) != n) {
			cs->read_failed = 1;
			break;
		}
		const char *experiment = record + 1, *dir = experiment + spool_size(experiment);
		const char *trend = dir + spool_size(dir);
		struct report_case c = { trend + spool_size(trend), spool_str(experiment),
					 spool_str(dir), (enum verdict)record[0], spool_jv(trend) };
		fn(ctx, &c);
		jv_free(c.trend);
	}
	cs->read_failed = cs->read_failed || ferror(cs->spool.f);
	free(record);
}

void report_flush(struct report_out *o)
{
	char *text = sbuf_take(&o->b);

	if (fputs(text, stdout) == EOF && !o->failed)
		o->failed = errno;
	free(text);
}

int report_out_sync(struct report_out *o)
{
	if (fflush(stdout) != 0 && !o->failed)
		o->failed = errno;
	return o->failed ? -1 : 0;
}

const char *report_case_name(const struct report_case *c)
{
	return spool_str(spool_get(c->kase, "name"));
}

int report_name_index(jv names, const char *name)
{
	jv_array_foreach(names, i, n) {
		int same = !strcmp(jv_string_value(n), name);
		jv_free(n);
		if (same)
			return i;
	}
	return -1;
}

jv report_section(const struct report_case *c, const char *name)
{
	return spool_jv(spool_get(c->kase, name));
}

const char *report_attribute(const struct report_case *c, const char *name)
{
	const char *s = spool_str(spool_get(spool_get(c->kase, "attributes"), name));

	return s ? s : "unknown";
}

const char *report_label(const struct report_case *c, const char *name)
{
	const char *s =
		spool_str(spool_get(spool_get(spool_get(c->kase, "labels"), name), "value"));

	return s ? s : "unscored";
}

/* Read where it lies: only a false assertion's name and reason become jv. */
jv report_false_assertions(const struct report_case *c)
{
	jv out = jv_array();

	for (struct spool_each a = spool_each(spool_get(c->kase, "assertions")); spool_next(&a);)
		if (!report_holds(a.value)) {
			jv false_one = JV_OBJECT(jv_string("name"), spool_jv(a.key),
						 jv_string("reason"),
						 spool_jv(spool_get(a.value, "reason")));
			out = jv_array_append(out, false_one);
		}
	return out;
}

int report_holds(const char *assertion)
{
	return spool_kind(spool_get(assertion, "value")) == JV_KIND_TRUE;
}

void report_add_value(struct sbuf *b, jv v)
{
	switch (jv_get_kind(v)) {
	case JV_KIND_TRUE: sbuf_add(b, "True"); break;
	case JV_KIND_FALSE: sbuf_add(b, "False"); break;
	case JV_KIND_NUMBER: text_py_float(b, jv_number_value(v)); break;
	case JV_KIND_STRING: sbuf_add(b, jv_string_value(v)); break;
	default: sbuf_add(b, "None");
	}
}

void stale_add_reason(struct sbuf *b, const struct report_case *c)
{
	const char *spooled = spool_get(spool_get(c->kase, "attributes"), CASE_STALE);
	jv stale = spooled ? spool_jv(spooled) : jv_null();
	jv changed = json_get(stale, "changed");

	if (json_has_true(stale, "removed"))
		sbuf_add(b, "stale: the catalog no longer has it");
	else if (jv_get_kind(changed) == JV_KIND_ARRAY) {
		sbuf_add(b, "stale: the catalog changed ");
		jv_array_foreach(changed, i, field) {
			sbuf_addf(b, "%s%s", i ? ", " : "", jv_string_value(field));
			jv_free(field);
		}
		sbuf_add(b, " since it ran");
	}
	jv_free(changed);
	jv_free(stale);
}

void stale_add_line(struct sbuf *b, const struct report_case *c, const char *prefix)
{
	struct sbuf why = { 0 };

	stale_add_reason(&why, c);
	char *text = sbuf_take(&why);
	if (*text)
		sbuf_addf(b, "%s%s\n", prefix, text);
	free(text);
}

/* Only the fail-fast policy skips workloads and only a rescore against a
 * catalog finds stale ones, so both are named only when there are some:
 * every other run's summary reads as it always has. */
void report_add_counts(struct sbuf *b, const struct cases *cs)
{
	sbuf_addf(b, "%d workload%s: %d accepted, %d failed, %d inconclusive",
		  cs->n, cs->n == 1 ? "" : "s", cs->count[VERDICT_ACCEPTED],
		  cs->count[VERDICT_FAILED], cs->count[VERDICT_INCONCLUSIVE]);
	if (cs->count[VERDICT_SKIPPED])
		sbuf_addf(b, ", %d skipped", cs->count[VERDICT_SKIPPED]);
	if (cs->count[VERDICT_STALE])
		sbuf_addf(b, ", %d stale", cs->count[VERDICT_STALE]);
}
