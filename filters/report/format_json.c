/* pc-report --format json: the counts and the cases as one JSON text, for
 * programs. */
#include "formats.h"
#include "trend.h"

struct json_pass {
	struct report_out *o;
	int written; /* cases written so far: each after the first is preceded by a comma */
};

static void json_case(void *ctx, const struct report_case *c)
{
	struct json_pass *j = ctx;
	jv o = JV_OBJECT(jv_string("name"), jv_string(report_case_name(c)),
			 jv_string("experiment"), jv_string(c->experiment),
			 jv_string("verdict"), jv_string(verdict_name(c->verdict)),
			 jv_string("task_outcome"), jv_string(report_label(c, "task_outcome")),
			 jv_string("failed_assertions"), report_false_assertions(c));
	if (jv_get_kind(c->trend) == JV_KIND_ARRAY) {
		o = jv_object_set(o, jv_string("trend"), jv_copy(c->trend));
		o = jv_object_set(o, jv_string("change"), jv_string(trend_change(c->trend)));
	}
	jv s = jv_dump_string(o, 0);
	sbuf_addf(&j->o->b, "%s%s", j->written++ ? "," : "", jv_string_value(s));
	jv_free(s);
	report_flush(j->o);
}

/* {"accepted":…,"failed":…,"inconclusive":…,"skipped":…,"cases":[…]} on one
 * line, the counts first, as one JSON text would be printed */
static void render_json(struct report_out *o, struct cases *cs, const struct report_settings *s)
{
	struct json_pass j = { o, 0 };

	(void)s;
	sbuf_addf(&o->b,
		  "{\"accepted\":%d,\"failed\":%d,\"inconclusive\":%d,\"skipped\":%d,\"stale\":%d,\"cases\":[",
		  cs->count[VERDICT_ACCEPTED], cs->count[VERDICT_FAILED],
		  cs->count[VERDICT_INCONCLUSIVE], cs->count[VERDICT_SKIPPED],
		  cs->count[VERDICT_STALE]);
	report_flush(o);
	report_each_case(cs, json_case, &j);
	sbuf_add(&o->b, "]}\n");
	report_flush(o);
}

const struct report_format format_json = {
	.name = "json",
	.render = render_json,
};
