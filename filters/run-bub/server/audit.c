/* audit: the Server's Access audit (audit.h). */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "server/audit.h"

#define AUDIT_PAGE_LIMIT 500

const char *audit_deployment(void)
{
	const char *d = getenv("POWERCONTEXT_E2E_ACCESS_DEPLOYMENT_ID");

	return d && *d ? d : "powercontext";
}

static jv list_request(jv time_range, jv cursor, int limit)
{
	jv resource = JV_OBJECT(jv_string("type"), jv_string("server"),
				jv_string("deployment_id"), jv_string(audit_deployment()));

	return JV_OBJECT(jv_string("resource"), resource, jv_string("time_range"), time_range,
			 jv_string("cursor"), cursor, jv_string("limit"), jv_number(limit));
}

int audit_check(const struct pc_client *c, struct pc_err *e)
{
	jv out;

	jv request = list_request(jv_null(), jv_null(), 1);

	if (pc_post(c, "/v1/access/audit/list", request, &out, e) != 0)
		return pc_wrap(e,
			       "cannot read the Server's Access audit for deployment %s, which tells an ON arm that reached another Scope (set POWERCONTEXT_E2E_ACCESS_DEPLOYMENT_ID to the Server's POWERCONTEXT_SERVER_ACCESS_DEPLOYMENT_ID): ",
			       audit_deployment());
	jv_free(out);
	return 0;
}

/* Probes report a decision to the caller without enforcing it: denying one
 * rejects no request. */
static int is_probe(const char *operation)
{
	return operation &&
	       (!strcmp(operation, "candidate_permissions") || !strcmp(operation, "check_access"));
}

/* The request ids any enforced check denied (events borrowed). */
static jv rejected_requests(jv events)
{
	jv ids = jv_object();

	jv_array_foreach(events, i, ev) {
		const char *id = json_str(ev, "request_id");
		jv allowed = json_get(ev, "allowed");
		const char *operation = json_str(ev, "operation");
		if (id && jv_get_kind(allowed) == JV_KIND_FALSE && !is_probe(operation))
			ids = jv_object_set(ids, jv_string(id), jv_true());
		jv_free(allowed);
		jv_free(ev);
	}
	return ids;
}

static jv outside(jv events, const char *scope)
{
	jv rejected = rejected_requests(events), kept = jv_array();

	jv_array_foreach(events, i, ev) {
		const char *transport = json_str(ev, "transport"), *id = json_str(ev, "request_id");
		jv target = json_at(ev, "resource.scope_id");
		int allowed = json_has_true(ev, "allowed");
		int own = jv_get_kind(target) == JV_KIND_STRING &&
			  !strcmp(jv_string_value(target), scope);
		int request =
			transport && (!strcmp(transport, "http") || !strcmp(transport, "mcp"));
		if (request && !own) {
			jv was_rejected = id ? json_get(rejected, id) : jv_bool(!allowed);
			int rejected_request = jv_get_kind(was_rejected) == JV_KIND_TRUE;
			jv_free(was_rejected);
			jv scope_id = jv_get_kind(target) == JV_KIND_STRING ? jv_copy(target)
									    : jv_null();
			jv access = JV_OBJECT(jv_string("occurred_at"), json_get(ev, "occurred_at"),
					      jv_string("request_id"), json_string_or_null(id),
					      jv_string("transport"), jv_string(transport),
					      jv_string("operation"), json_get(ev, "operation"),
					      jv_string("action"), json_get(ev, "action"),
					      jv_string("scope_id"), scope_id,
					      jv_string("allowed"), jv_bool(allowed));
			access = jv_object_set(access, jv_string("request_rejected"),
					       jv_bool(rejected_request));
			kept = jv_array_append(kept, access);
		}
		jv_free(target);
		jv_free(ev);
	}
	jv_free(rejected);
	jv_free(events);
	return kept;
}

int audit_outside_scope(const struct pc_client *c, const char *scope, const char *start,
			const char *end, jv *accesses, struct pc_err *e)
{
	jv events = jv_array(), cursor = jv_null();

	for (;;) {
		jv window = JV_OBJECT(jv_string("start"), jv_string(start), jv_string("end"),
				      jv_string(end)),
		   page;
		if (pc_post(c, "/v1/access/audit/list",
			    list_request(window, cursor, AUDIT_PAGE_LIMIT), &page, e) != 0) {
			jv_free(events);
			return -1;
		}
		jv items = json_get(page, "items");
		if (jv_get_kind(items) == JV_KIND_ARRAY)
			events = jv_array_concat(events, items);
		else
			jv_free(items);
		cursor = json_get(page, "next_cursor");
		jv_free(page);
		if (jv_get_kind(cursor) != JV_KIND_STRING)
			break;
	}
	jv_free(cursor);
	*accesses = outside(events, scope);
	return 0;
}
