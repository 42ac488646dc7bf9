/* aggregate: a merged batch's own evaluation (aggregate.h). */
#include <stdlib.h>

#include "aggregate.h"
#include "docs_names.h"
#include "json.h"
#include "outdir.h"
#include "stage.h"

void aggregate_init(struct aggregate *a, const char *prefix, const char *outdir,
		    const struct redactor *red)
{
	*a = (struct aggregate){ .prefix = prefix, .outdir = outdir, .red = red };
	a->batch = a->run_id = jv_null();
	a->cases = jv_array();
}

static int flush(struct aggregate *a, struct pc_err *e)
{
	int rc = 0;

	if (jv_get_kind(a->batch) == JV_KIND_STRING && a->outdir) {
		const char *batch = jv_string_value(a->batch);
		char *dir = outdir_batch(batch);
		jv experiment = jv_string_fmt("%s:batch:%s", a->prefix, batch);
		jv doc = JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_EVALUATION),
				   jv_string("experiment"), experiment,
				   jv_string("cases"), a->cases);
		rc = stage_write_artifact(a->outdir, dir, "eval-report.json", a->red, doc, e);
		free(dir);
	} else
		jv_free(a->cases);
	a->cases = jv_array();
	jv_free(a->batch);
	jv_free(a->run_id);
	a->batch = a->run_id = jv_null();
	return rc;
}

int aggregate_add(struct aggregate *a, jv evaluation, struct pc_err *e)
{
	if (!jv_is_valid(evaluation)) {
		jv_free(evaluation);
		return flush(a, e);
	}
	jv kase = jv_array_get(json_get(evaluation, "cases"), 0);
	jv batch = json_at(kase, "attributes." OUTDIR_CASE_BATCH);
	jv run_id = json_at(kase, "attributes.run_id");
	int rc = 0;

	jv_free(evaluation);
	if (!jv_equal(jv_copy(batch), jv_copy(a->batch)) ||
	    !jv_equal(jv_copy(run_id), jv_copy(a->run_id)))
		rc = flush(a, e);
	if (rc == 0 && jv_get_kind(batch) == JV_KIND_STRING) {
		jv_free(a->batch);
		jv_free(a->run_id);
		a->batch = jv_copy(batch);
		a->run_id = jv_copy(run_id);
		a->cases = jv_array_append(a->cases, jv_copy(kase));
	}
	jv_free(batch);
	jv_free(run_id);
	jv_free(kase);
	return rc;
}

void aggregate_free(struct aggregate *a)
{
	jv_free(a->batch);
	jv_free(a->run_id);
	jv_free(a->cases);
}
