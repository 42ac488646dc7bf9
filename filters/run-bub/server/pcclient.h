/* pcclient: the PowerContext Server's HTTP API (docs/DESIGN.md §5.1).
 *
 * JSON bodies with an explicit JSON content type (libcurl's form default makes
 * every POST a 422), the bearer token from POWERCONTEXT_CLIENT_API_TOKEN, base
 * URL from POWERCONTEXT_CLIENT_SERVER_URL, the whole-request timeout from
 * POWERCONTEXT_CLIENT_TIMEOUT (pc_client_timeout, read when pc-run-bub
 * starts).  A non-success status becomes an error naming
 * the operation, the HTTP status and the server's error code and message.
 */
#ifndef PC_PCCLIENT_H
#define PC_PCCLIENT_H

#include <jv.h>

#include "err.h"

struct pc_client {
	char *base_url;
	char *token; /* NULL when unset */
	long timeout_s;
};

/* The whole-request timeout in seconds (base/seconds.h) that env's
 * POWERCONTEXT_CLIENT_TIMEOUT gives, 10 when it is unset or empty; -1 with
 * e naming the setting and its value. */
int pc_client_timeout(char *const *env, double *seconds, struct pc_err *e);

/* Settings from an environment array (main's environ), and the timeout
 * pc_client_timeout read. */
int pc_client_init(struct pc_client *c, char *const *env, double timeout, struct pc_err *e);
void pc_client_free(struct pc_client *c);

/* Whether an http(s) URL's host is this machine (127.0.0.0/8, ::1,
 * localhost, 0.0.0.0), read from the host part alone. */
int pc_url_is_loopback(const char *url);

/* GET /health/ready: the body when 200 (ready or degraded). */
int pc_ready(const struct pc_client *c, jv *out, struct pc_err *e);

/* POST path with body (consumed); *out is the JSON response. */
int pc_post(const struct pc_client *c, const char *path, jv body, jv *out,
	    struct pc_err *e);

/* How the Server answered a call: its HTTP status (0 when no answer came)
 * and, for an error, the code its error body names ("" for none). */
struct pc_answer {
	long status;
	char code[64];
};

/* METHOD path with body (consumed; jv_invalid() for none), and how the
 * Server answered into *a, success or not. */
int pc_call(const struct pc_client *c, const char *method, const char *path, jv body, jv *out,
	    struct pc_answer *a, struct pc_err *e);

/* What the Server is (docs/DESIGN.md §5.9), read from GET /openapi.json:
 * its info.version, and whether it offers POST /v1/scopes (0.2.0+), where a
 * scope must be created before any scoped call. */
struct pc_api {
	char *version;
	int creates_scopes;
};

int pc_api_detect(const struct pc_client *c, struct pc_api *api, struct pc_err *e);
void pc_api_free(struct pc_api *api);

/* POST /v1/scopes; *scope_id (caller frees) is the id the Server chose. */
int pc_create_scope(const struct pc_client *c, const char *title, const char *summary,
		    const char *key, char **scope_id, struct pc_err *e);

/* Every Memory entry of scope: {entries, pages}.  Pages are followed while
 * the Server offers a next_cursor (1.3.0+); each atomic Memory record gets
 * its revision (GET .../artifacts/FAMILY/ID/revisions/N) under "revision",
 * the lineage the listing lacks.  An answer in a shape pc-e2e does not know
 * is an error naming the release and the field, never an empty list. */
int pc_memory_snapshot(const struct pc_client *c, const struct pc_api *api, const char *scope,
		       jv *out, struct pc_err *e);

/* POST /v1/context/prepare. */
int pc_prepare(const struct pc_client *c, const char *scope, const char *query,
	       jv *out, struct pc_err *e);

#endif
