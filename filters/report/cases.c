/* The spooled cases of one report and the readers every format shares. */
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "json.h"
#include "report.h"

void report_spool(FILE *spool, jv experiment, jv kase, jv dir, enum verdict v, jv trend)
{
	jv entry = JV_OBJECT(jv_string("experiment"), experiment,
			     jv_string("case"), kase,
			     jv_string("dir"), dir,
			     jv_string("verdict"), jv_number(v));
	jv line;

	if (jv_get_kind(trend) == JV_KIND_NULL)
		jv_free(trend);
	else
		entry = jv_object_set(entry, jv_string("trend"), trend);
	line = jv_dump_string(entry, 0);
	fprintf(spool, "%s\n", jv_string_value(line));
	jv_free(line);
}

void report_each_case(struct cases *cs, void (*fn)(void *ctx, const struct report_case *c),
		      void *ctx)
{
	char *line = NULL;
	size_t cap = 0;

	rewind(cs->spool);
	while (getline(&line, &cap, cs->spool) > 0) {
		jv entry = jv_parse(line);
		struct report_case c = { jv_object_get(jv_copy(entry), jv_string("case")),
					 json_str(entry, "experiment"), json_str(entry, "dir"),
					 (enum verdict)json_number_at(entry, "verdict", 0),
					 jv_object_has(jv_copy(entry), jv_string("trend"))
						 ? jv_object_get(jv_copy(entry), jv_string("trend"))
						 : jv_null() };
		fn(ctx, &c);
		jv_free(c.trend);
		jv_free(c.kase);
		jv_free(entry);
	}
	cs->read_failed = cs->read_failed || ferror(cs->spool);
	free(line);
}

void report_flush(struct report_out *o)
{
	char *text = sbuf_take(&o->b);

	if (fputs(text, stdout) == EOF)
		o->failed = 1;
	free(text);
}

const char *report_case_name(const struct report_case *c)
{
	return json_str(c->kase, "name");
}

jv report_section(const struct report_case *c, const char *name)
{
	return jv_object_get(jv_copy(c->kase), jv_string(name));
}

const char *report_attribute(const struct report_case *c, const char *name)
{
	jv attrs = report_section(c, "attributes");
	const char *s = json_str(attrs, name);

	jv_free(attrs); /* the string stays owned by c->kase */
	return s ? s : "unknown";
}

const char *report_label(const struct report_case *c, const char *name)
{
	jv labels = report_section(c, "labels");
	jv l = jv_object_get(labels, jv_string(name));
	const char *s = json_str(l, "value");

	jv_free(l);
	return s ? s : "unscored";
}

jv report_false_assertions(const struct report_case *c)
{
	jv assertions = report_section(c, "assertions"), out = jv_array();

	jv_object_foreach(assertions, name, a) {
		if (!json_has_true(a, "value")) {
			jv false_one = JV_OBJECT(jv_string("name"), name,
						 jv_string("reason"), json_get(a, "reason"));
			out = jv_array_append(out, false_one);
		} else
			jv_free(name);
		jv_free(a);
	}
	jv_free(assertions);
	return out;
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
	jv stale = json_at(c->kase, "attributes." CASE_STALE);
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

void report_add_escaped(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sbuf_add(b, "&amp;"); break;
		case '<': sbuf_add(b, "&lt;"); break;
		case '>': sbuf_add(b, "&gt;"); break;
		case '"': sbuf_add(b, "&quot;"); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r')
				sbuf_add(b, "?");
			else
				sbuf_addn(b, s, 1);
		}
	}
}
