/* budget: --prices and --budget checked before anything runs (budget.h). */
#include "budget.h"

#include <stdlib.h>

#include "json.h"
#include "prices.h"
#include "run/workload.h"
#include "text.h"

/* The Server's inference models, which its environment names. */
static const char *const server_models[] = {
	"POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL",
	"POWERCONTEXT_SERVER_INFERENCE_EMBEDDING_MODEL",
};

static int refuse(const struct run_bub_options *o, const char *model, const char *whose,
		  struct pc_err *e)
{
	return pc_fail(
		e,
		"--budget %g: %s calls model %s, which --prices %s prices neither by name nor by a \"*\" row",
		o->budget_usd, whose, model, o->prices);
}

int budget_check(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	jv table;
	int rc = 0;

	if (!o->prices)
		return 0;
	if (prices_load(o->prices, &table, e) != 0)
		return pc_wrap(e, "--prices: ");
	struct price p;
	for (size_t i = 0; o->budget_usd >= 0 && !rc && i < 2; i++) {
		const char *model = getenv(server_models[i]);
		if (model && *model && prices_of(table, model, &p) != 0) {
			char *whose = text_fmt("the Server (%s)", server_models[i]);
			rc = refuse(o, model, whose, e);
			free(whose);
		}
	}
	jv_array_foreach(selections, i, sel) {
		jv w = jv_object_get(sel, jv_string("workload"));
		char *model = NULL;
		struct pc_err ignored; /* a workload without its model is preflight's */
		if (o->budget_usd >= 0 && !rc && workload_model(o, w, &model, &ignored) == 0 &&
		    model && prices_of(table, model, &p) != 0) {
			char *whose = text_fmt("workload %s", json_str(w, "id"));
			rc = refuse(o, model, whose, e);
			free(whose);
		}
		free(model);
		jv_free(w);
	}
	jv_free(table);
	return rc;
}
