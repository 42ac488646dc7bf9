/* isolation: whether the Server keeps a paired comparison's arms apart
 * (isolation.h). */
#include "server/isolation.h"
#include "json.h"
#include "server/audit.h"

/* Both arms' agents can reach the Server: only its authentication keeps the
 * OFF arm out of the ON arm's Memory. */
static int check_authenticated(const struct pc_client *c, struct pc_err *e)
{
	struct pc_client anonymous = *c;
	struct pc_answer a;
	jv out = jv_null();

	anonymous.token = NULL;
	if (pc_call(&anonymous, "GET", "/v1/scopes", jv_invalid(), &out, &a, e) == 0) {
		jv_free(out);
		return pc_fail(e,
			       "the Server at %s lists its Scopes to a client without a token; a paired comparison needs one that enforces authentication (pipelines/pc-server with POWERCONTEXT_CLIENT_API_TOKEN and POWERCONTEXT_E2E_ACCESS_MODE=enforced)",
			       c->base_url);
	}
	if (a.status == 401)
		return 0;
	return pc_wrap(e, "asking the Server whether it enforces authentication: ");
}

static int check_extraction(const struct pc_client *c, struct pc_err *e)
{
	jv caps;
	struct pc_answer a;

	if (pc_call(c, "GET", "/v1/capabilities", jv_invalid(), &caps, &a, e) != 0)
		return -1;
	int extracts = json_has_true(caps, "memory_extraction");
	jv_free(caps);
	if (extracts)
		return 0;
	return pc_fail(e,
		       "the Server at %s does not extract Memory (GET /v1/capabilities: memory_extraction is not true), so an ON arm could recall nothing; configure its generation model (POWERCONTEXT_SERVER_INFERENCE_*)",
		       c->base_url);
}

int isolation_check(const struct pc_client *c, struct pc_err *e)
{
	jv ready;

	if (pc_ready(c, &ready, e) != 0)
		return pc_wrap(e, "readiness: ");
	jv_free(ready);
	if (check_authenticated(c, e) != 0 || check_extraction(c, e) != 0 || audit_check(c, e) != 0)
		return -1;
	return 0;
}
