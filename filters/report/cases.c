/* The spooled cases of one report and the readers every format shares. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "json.h"
#include "report.h"

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

	rewind(cs->spool);
	while (fread(&n, sizeof n, 1, cs->spool) == 1) {
		if (n > cap)
			record = pc_xrealloc(record, cap = n);
		if (fread(record, 1, n, cs->spool) != n) {
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
	cs->read_failed = cs->read_failed || ferror(cs->spool);
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
