/* probes: a Memory workload's probes (probes.h). */
#include <string.h>

#include "json.h"
#include "probe.h"
#include "run/probes.h"

/* Whether a prepared response (borrowed) is ready context that the spec
 * forbids. */
static int forbidden_context_in(jv response, jv spec)
{
	const char *status = json_str(response, "status");
	jv content = json_at(response, "content");
	int matched = status && !strcmp(status, "ready") && probe_context_forbidden(spec, content);

	jv_free(content);
	return matched;
}

/* Context that matched a forbidden fragment is recorded as matched and
 * blanked: the wrong answer is the finding, and keeping its text would only
 * spread it. */
jv probes_collect(struct workload_run *r)
{
	jv specs = jv_getpath(jv_copy(r->workload),
			      JV_ARRAY(jv_string("evaluation"), jv_string("probes")));
	jv out = jv_array();
	struct pc_err e;

	jv_array_foreach(specs, i, spec) {
		jv response = jv_null(), error = jv_null(), matched = jv_null();
		if (pc_prepare(r->fleet->client, r->scope, json_str(spec, "query"), &response,
			       &e) != 0) {
			run_error(r, "probe %s: %s", json_str(spec, "id"), e.msg);
			error = jv_string(e.msg);
		} else if (jv_get_kind(response) == JV_KIND_OBJECT) {
			matched = jv_bool(forbidden_context_in(response, spec));
			if (jv_get_kind(matched) == JV_KIND_TRUE)
				response = jv_object_set(response, jv_string("content"),
							 jv_string(""));
		}
		jv call = JV_OBJECT(jv_string("id"), json_get(spec, "id"),
				    jv_string("query"), json_get(spec, "query"),
				    jv_string("response"), response,
				    jv_string("error"), error,
				    jv_string("forbidden_context_matched"), matched);
		out = jv_array_append(out, call);
		jv_free(spec);
	}
	jv_free(specs);
	return out;
}
