/* audit: the Server's Access audit, read for the paired ON arm
 * (docs/DESIGN.md §11.5).  Every ON agent holds a token that could read any
 * Scope, earlier trials' included; an enforced Server records each access
 * decision, so the audit over the arm's window shows what it reached
 * outside its own Scope.
 */
#ifndef PC_RUN_BUB_AUDIT_H
#define PC_RUN_BUB_AUDIT_H

#include <jv.h>

#include "err.h"
#include "server/pcclient.h"

/* The Server's access deployment: POWERCONTEXT_E2E_ACCESS_DEPLOYMENT_ID,
 * else "powercontext" (the Server's own default). */
const char *audit_deployment(void);

/* Whether the client can read the deployment's audit at all (one record). */
int audit_check(const struct pc_client *c, struct pc_err *e);

/* The API and MCP decisions from start to end (RFC 3339 UTC) about
 * anything but scope, in the audit's order, as 1.4.1's
 * OutsideScopeAccess: {occurred_at, request_id, transport, operation,
 * action, scope_id, allowed, request_rejected}. */
int audit_outside_scope(const struct pc_client *c, const char *scope, const char *start,
			const char *end, jv *accesses, struct pc_err *e);

#endif
