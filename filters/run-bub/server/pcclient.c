#include "server/pcclient.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "base/seconds.h"
#include "json.h"
#include "text.h"

static const char *env_get(char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

int pc_client_timeout(char *const *env, double *seconds, struct pc_err *e)
{
	const char *timeout = env_get(env, "POWERCONTEXT_CLIENT_TIMEOUT");

	*seconds = 10;
	if (!timeout || !*timeout)
		return 0;
	return seconds_parse("POWERCONTEXT_CLIENT_TIMEOUT", timeout, seconds, e);
}

int pc_client_init(struct pc_client *c, char *const *env, double timeout, struct pc_err *e)
{
	const char *url = env_get(env, "POWERCONTEXT_CLIENT_SERVER_URL");
	const char *token = env_get(env, "POWERCONTEXT_CLIENT_API_TOKEN");

	c->base_url = pc_xstrdup(url && *url ? url : "http://127.0.0.1:8000");
	for (size_t n = strlen(c->base_url); n > 0 && c->base_url[n - 1] == '/'; n--)
		c->base_url[n - 1] = '\0';
	c->token = token && *token ? pc_xstrdup(token) : NULL;
	/* whole seconds, rounded up; seconds_parse bounds it well inside a long */
	c->timeout_s = (long)ceil(timeout);
	if (strncmp(c->base_url, "http://", 7) && strncmp(c->base_url, "https://", 8)) {
		pc_fail(e, "POWERCONTEXT_CLIENT_SERVER_URL must be an http(s) URL, not \"%s\"",
			c->base_url);
		pc_client_free(c);
		return -1;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

void pc_client_free(struct pc_client *c)
{
	free(c->base_url);
	free(c->token);
	c->base_url = c->token = NULL;
}

int pc_url_is_loopback(const char *url)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL;
	int loopback = 0;

	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    (!strcmp(scheme, "http") || !strcmp(scheme, "https")))
		loopback = (!strncmp(host, "127.", 4) && !host[strspn(host, "0123456789.")]) ||
			   !strcmp(host, "[::1]") || !strcasecmp(host, "localhost") ||
			   !strcmp(host, "0.0.0.0");
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return loopback;
}

static size_t collect(char *data, size_t size, size_t n, void *userdata)
{
	sbuf_addn(userdata, data, size * n);
	return size * n;
}

/* "code: message" from the server's error body, or the raw body's start;
 * the code alone into a (when given). */
static char *error_text(const char *body, struct pc_answer *a)
{
	jv doc = jv_parse(body);
	jv err = jv_get_kind(doc) == JV_KIND_OBJECT
			 ? jv_object_get(jv_copy(doc), jv_string("error"))
			 : jv_invalid();
	char *text;

	if (jv_get_kind(err) == JV_KIND_OBJECT) {
		const char *code = json_str(err, "code"), *msg = json_str(err, "message");
		text = text_fmt("%s: %s", code ? code : "error", msg ? msg : "");
		if (a && code)
			snprintf(a->code, sizeof a->code, "%s", code);
	} else
		text = text_fmt("%.200s", body);
	jv_free(err);
	jv_free(doc);
	return text;
}

/* Any 2xx is success: the Server answers 201 to a created scope. */
static int call(const struct pc_client *c, const char *method, const char *path,
		jv body, jv *out, struct pc_answer *a, struct pc_err *e)
{
	CURL *h = curl_easy_init();
	struct curl_slist *headers = NULL;
	struct sbuf resp = { 0 };
	char *url = text_fmt("%s%s", c->base_url, path), *auth = NULL;
	jv payload = jv_get_kind(body) == JV_KIND_INVALID ? jv_invalid() : jv_dump_string(body, 0);
	long status = 0;
	int rc = 0;

	headers = curl_slist_append(headers, "Accept: application/json");
	if (c->token) {
		auth = text_fmt("Authorization: Bearer %s", c->token);
		headers = curl_slist_append(headers, auth);
	}
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, c->timeout_s);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &resp);
	if (!strcmp(method, "POST")) {
		headers = curl_slist_append(headers, "Content-Type: application/json");
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, jv_string_value(payload));
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	CURLcode cc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	char *text = sbuf_take(&resp);
	if (a)
		*a = (struct pc_answer){ .status = cc == CURLE_OK ? status : 0 };
	if (cc != CURLE_OK)
		rc = pc_fail(e, "%s %s: cannot reach PowerContext at %s: %s", method, path,
			     c->base_url, curl_easy_strerror(cc));
	else if (status < 200 || status > 299) {
		char *why = error_text(text, a);
		rc = pc_fail(e, "%s %s: HTTP %ld %s", method, path, status, why);
		free(why);
	} else {
		*out = jv_parse(text);
		if (!jv_is_valid(*out)) {
			jv_free(*out);
			*out = jv_null();
			rc = pc_fail(e, "%s %s: the response is not JSON: %.200s", method, path,
				     text);
		}
	}
	free(text);
	free(url);
	free(auth);
	jv_free(payload);
	curl_slist_free_all(headers);
	curl_easy_cleanup(h);
	return rc;
}

int pc_ready(const struct pc_client *c, jv *out, struct pc_err *e)
{
	return call(c, "GET", "/health/ready", jv_invalid(), out, NULL, e);
}

int pc_post(const struct pc_client *c, const char *path, jv body, jv *out,
	    struct pc_err *e)
{
	return call(c, "POST", path, body, out, NULL, e);
}

int pc_call(const struct pc_client *c, const char *method, const char *path, jv body, jv *out,
	    struct pc_answer *a, struct pc_err *e)
{
	return call(c, method, path, body, out, a, e);
}

int pc_prepare(const struct pc_client *c, const char *scope, const char *query,
	       jv *out, struct pc_err *e)
{
	return pc_post(c, "/v1/context/prepare",
		       JV_OBJECT(jv_string("scope_id"), jv_string(scope),
				 jv_string("query"), jv_string(query)),
		       out, e);
}

int pc_api_detect(const struct pc_client *c, struct pc_api *api, struct pc_err *e)
{
	jv doc, post;

	api->version = NULL;
	api->creates_scopes = 0;
	if (call(c, "GET", "/openapi.json", jv_invalid(), &doc, NULL, e) != 0)
		return pc_wrap(e, "cannot tell which PowerContext the Server is: ");
	jv info = json_get(doc, "info");
	const char *version = json_str(info, "version");
	if (!version) {
		jv_free(info);
		jv_free(doc);
		return pc_fail(
			e, "GET /openapi.json: the Server's API description has no info.version");
	}
	api->version = pc_xstrdup(version);
	post = jv_getpath(jv_copy(doc),
			  JV_ARRAY(jv_string("paths"), jv_string("/v1/scopes"), jv_string("post")));
	api->creates_scopes = jv_get_kind(post) == JV_KIND_OBJECT;
	jv_free(post);
	jv_free(info);
	jv_free(doc);
	return 0;
}

void pc_api_free(struct pc_api *api)
{
	free(api->version);
	api->version = NULL;
}

int pc_create_scope(const struct pc_client *c, const char *title, const char *summary,
		    const char *key, char **scope_id, struct pc_err *e)
{
	jv out;
	jv body = JV_OBJECT(jv_string("title"), jv_string(title),
			    jv_string("summary"), jv_string(summary),
			    jv_string("idempotency_key"), jv_string(key));

	if (call(c, "POST", "/v1/scopes", body, &out, NULL, e) != 0)
		return -1;
	const char *id = json_str(out, "scope_id");
	int rc = id && *id ? 0 : pc_fail(e, "POST /v1/scopes: the answer has no scope_id");
	if (rc == 0)
		*scope_id = pc_xstrdup(id);
	jv_free(out);
	return rc;
}

/* s escaped for one URL path segment. */
static char *path_segment(const char *s)
{
	CURL *h = curl_easy_init();
	char *escaped = curl_easy_escape(h, s, 0), *out = pc_xstrdup(escaped ? escaped : "");

	curl_free(escaped);
	curl_easy_cleanup(h);
	return out;
}

#define LIST_PATH "/v1/memory/entries/list"

/* METHOD PATH's answer, from the release api names, is not what pc-e2e knows. */
static int unknown_shape(struct pc_err *e, const char *method, const char *path,
			 const struct pc_api *api, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int unknown_shape(struct pc_err *e, const char *method, const char *path,
			 const struct pc_api *api, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return pc_fail(e, "%s %s: PowerContext %s answered in a shape pc-e2e does not know: %s",
		       method, path, api->version, what);
}

/* An atomic Memory record's lineage: its revision, whose sources are the
 * entry's grounding since 1.3.0 (the listing carries none). */
static int read_revision(const struct pc_client *c, const struct pc_api *api, const char *scope,
			 jv *entry, int n, struct pc_err *e)
{
	jv artifact = json_get(*entry, "artifact"), revision = json_get(artifact, "revision"),
	   doc = jv_null();
	const char *family = json_str(artifact, "family"), *id = json_str(artifact, "artifact_id");
	int rc = 0;

	if (!family || !id || jv_get_kind(revision) != JV_KIND_NUMBER)
		rc = unknown_shape(e, "POST", LIST_PATH, api,
				   "entries[%d].artifact needs family, artifact_id and revision",
				   n);
	else {
		char *s = path_segment(scope), *f = path_segment(family), *a = path_segment(id);
		char *path = text_fmt("/v1/scopes/%s/artifacts/%s/%s/revisions/%.0f", s, f, a,
				      jv_number_value(revision));
		rc = call(c, "GET", path, jv_invalid(), &doc, NULL, e);
		jv sources = rc == 0 ? json_get(doc, "sources") : jv_invalid();
		if (rc == 0 && jv_get_kind(sources) != JV_KIND_ARRAY)
			rc = unknown_shape(e, "GET", path, api, "no sources array (entries[%d])",
					   n);
		jv_free(sources);
		free(path);
		free(s);
		free(f);
		free(a);
	}
	if (rc == 0)
		*entry = jv_object_set(*entry, jv_string("revision"), doc);
	else
		jv_free(doc);
	jv_free(revision);
	jv_free(artifact);
	return rc;
}

/* One listed entry, checked (and for atomic Memory, given its revision). */
static int take_entry(const struct pc_client *c, const struct pc_api *api, const char *scope,
		      jv entry, int n, jv *entries, struct pc_err *e)
{
	int rc = 0;

	if (jv_get_kind(entry) != JV_KIND_OBJECT)
		rc = unknown_shape(e, "POST", LIST_PATH, api, "entries[%d] is not an object", n);
	else if (!json_str(entry, "text") || !json_str(entry, "kind") || !json_str(entry, "state"))
		rc = unknown_shape(e, "POST", LIST_PATH, api,
				   "entries[%d] needs text, kind and state strings", n);
	else if (jv_object_has(jv_copy(entry), jv_string("artifact")))
		rc = read_revision(c, api, scope, &entry, n, e);
	else if (!jv_object_has(jv_copy(entry), jv_string("citation")))
		rc = unknown_shape(
			e, "POST", LIST_PATH, api,
			"entries[%d] has neither artifact (atomic Memory) nor citation (a Memory entry)",
			n);
	if (rc == 0)
		*entries = jv_array_append(*entries, entry);
	else
		jv_free(entry);
	return rc;
}

int pc_memory_snapshot(const struct pc_client *c, const struct pc_api *api, const char *scope,
		       jv *out, struct pc_err *e)
{
	jv entries = jv_array(), cursor = jv_null();
	int pages = 0, rc = 0;

	while (rc == 0) {
		jv body = JV_OBJECT(jv_string("scope_id"), jv_string(scope)), page;
		/* a release before 1.3.0 refuses the field: send it only when offered */
		if (jv_get_kind(cursor) == JV_KIND_STRING)
			body = jv_object_set(body, jv_string("cursor"), jv_copy(cursor));
		if ((rc = call(c, "POST", LIST_PATH, body, &page, NULL, e)) != 0)
			break;
		pages++;
		jv listed = json_get(page, "entries"), next = json_get(page, "next_cursor");
		if (jv_get_kind(listed) != JV_KIND_ARRAY)
			rc = unknown_shape(e, "POST", LIST_PATH, api, "no entries array (page %d)",
					   pages);
		else
			jv_array_foreach(listed, i, entry) {
				if (rc == 0)
					rc = take_entry(c, api, scope, entry,
							jv_array_length(jv_copy(entries)), &entries,
							e);
				else
					jv_free(entry);
			}
		if (rc == 0 && jv_get_kind(next) == JV_KIND_STRING &&
		    jv_equal(jv_copy(next), jv_copy(cursor)))
			rc = pc_fail(
				e,
				"POST " LIST_PATH
				": PowerContext %s returned the cursor it was given: the listing does not advance",
				api->version);
		else if (rc == 0 && jv_get_kind(next) != JV_KIND_STRING &&
			 jv_get_kind(next) != JV_KIND_NULL && jv_get_kind(next) != JV_KIND_INVALID)
			rc = unknown_shape(e, "POST", LIST_PATH, api,
					   "next_cursor is neither a string nor null");
		jv_free(cursor);
		cursor = jv_get_kind(next) == JV_KIND_STRING ? jv_copy(next) : jv_null();
		jv_free(next);
		jv_free(listed);
		jv_free(page);
		if (jv_get_kind(cursor) == JV_KIND_NULL)
			break;
	}
	jv_free(cursor);
	if (rc != 0) {
		jv_free(entries);
		return -1;
	}
	*out = JV_OBJECT(jv_string("entries"), entries, jv_string("pages"), jv_number(pages));
	return 0;
}
