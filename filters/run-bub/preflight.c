/* preflight: what pc-run-bub refuses before any workload runs (preflight.h). */
#include <stdlib.h>

#include "batch.h"
#include "docs.h"
#include "hosts.h"
#include "json.h"
#include "paired.h"
#include "pcclient.h"
#include "preflight.h"
#include "text.h"
#include "workload.h"

/* Paired workloads compare a run without PowerContext with one with it: a
 * single run of each cannot stand for that, so refuse before anything runs. */
static int check_unpaired(jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };

	jv_array_foreach(selections, i, sel) {
		jv evaluation = json_at(sel, "workload.evaluation"),
		   id = json_at(sel, "workload.id");
		if (docs_evaluation_kind(evaluation) == EVALUATION_PAIRED)
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", jv_string_value(id));
		jv_free(evaluation);
		jv_free(id);
		jv_free(sel);
	}
	char *list = sbuf_take(&names);
	int rc = 0;
	if (*list)
		rc = pc_fail(e,
			     "these workloads are OFF/ON paired comparisons, which run as two arms each (one without PowerContext, one with it) under --paired: %s",
			     list);
	free(list);
	return rc;
}

/* Paired workloads run under --paired only, and --paired runs nothing
 * else, on a host that can run here. */
static int check_pairing(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	if (!o->trials)
		return check_unpaired(selections, e);
	if (o->host->needs)
		return pc_fail(e,
			       "--host %s cannot run on this machine: it needs %s, from npm, which this machine cannot reach; only bub runs here",
			       o->host->name, o->host->needs);
	return paired_check_workloads(selections, e);
}

/* Model-backed workloads need a model, and the scripted one a script and a
 * loopback endpoint: refuse before anything runs. */
static int check_models(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };
	const char *base = getenv("BUB_API_BASE");
	char *why = NULL;

	if (o->model_scripts && o->harbor_env)
		return pc_fail(
			e,
			"--model-scripts: the scripted model is on this machine's loopback, which a %s sandbox cannot reach",
			o->harbor_env);
	/* a plan's units each start their own scripted model, and each unit's
	 * run makes this check; nothing unrun asks a model */
	if (o->model_scripts && !o->plan && !o->unrun && !(base && pc_url_is_loopback(base)))
		return pc_fail(
			e,
			"--model-scripts: BUB_API_BASE must be the scripted model's loopback URL (http://127.0.0.1:PORT/v1), got %s",
			base && *base ? base : "nothing");
	jv_array_foreach(selections, i, sel) {
		jv w = jv_object_get(sel, jv_string("workload"));
		char *model;
		if (workload_model(o, w, &model, e) != 0) {
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", json_str(w, "id"));
			free(why);
			why = pc_xstrdup(e->msg);
		}
		free(model);
		jv_free(w);
	}
	char *list = sbuf_take(&names);
	int rc = *list ? pc_fail(e, "%s, and these workloads are model-backed: %s", why, list) : 0;
	free(list);
	free(why);
	return rc;
}

int preflight_check(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	if (check_pairing(o, selections, e) != 0 || check_models(o, selections, e) != 0)
		return -1;
	return batch_check(selections, e);
}
