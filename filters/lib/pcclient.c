#include "pcclient.h"

#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

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

int pc_client_init(struct pc_client *c, char *const *env, struct pc_err *e)
{
	const char *url = env_get(env, "POWERCONTEXT_CLIENT_SERVER_URL");
	const char *token = env_get(env, "POWERCONTEXT_CLIENT_API_TOKEN");
	const char *timeout = env_get(env, "POWERCONTEXT_CLIENT_TIMEOUT");
	char *end = NULL;

	c->base_url = pc_xstrdup(url && *url ? url : "http://127.0.0.1:8000");
	for (size_t n = strlen(c->base_url); n > 0 && c->base_url[n - 1] == '/'; n--)
		c->base_url[n - 1] = '\0';
	c->token = token && *token ? pc_xstrdup(token) : NULL;
	c->timeout_s = 10;
	if (timeout && *timeout) {
		double t = strtod(timeout, &end);
		if (*end || t <= 0) {
			pc_client_free(c);
			return pc_fail(e, "POWERCONTEXT_CLIENT_TIMEOUT must be a positive number of seconds, not \"%s\"", timeout);
		}
		c->timeout_s = (long)(t + 0.999);
	}
	if (strncmp(c->base_url, "http://", 7) && strncmp(c->base_url, "https://", 8)) {
		pc_fail(e, "POWERCONTEXT_CLIENT_SERVER_URL must be an http(s) URL, not \"%s\"", c->base_url);
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

static size_t collect(char *data, size_t size, size_t n, void *userdata)
{
	sbuf_addn(userdata, data, size * n);
	return size * n;
}

/* "code: message" from the server's error body, or the raw body's start. */
static char *error_text(const char *body)
{
	jv doc = jv_parse(body);
	jv err = jv_get_kind(doc) == JV_KIND_OBJECT
			 ? jv_object_get(jv_copy(doc), jv_string("error"))
			 : jv_invalid();
	char *text;

	if (jv_get_kind(err) == JV_KIND_OBJECT) {
		const char *code = json_str(err, "code"), *msg = json_str(err, "message");
		text = text_fmt("%s: %s", code ? code : "error", msg ? msg : "");
	} else
		text = text_fmt("%.200s", body);
	jv_free(err);
	jv_free(doc);
	return text;
}

static int call(const struct pc_client *c, const char *method, const char *path,
		jv body, long want, jv *out, struct pc_err *e)
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
	if (cc != CURLE_OK)
		rc = pc_fail(e, "%s %s: cannot reach PowerContext at %s: %s", method, path,
			     c->base_url, curl_easy_strerror(cc));
	else if (status != want) {
		char *why = error_text(text);
		rc = pc_fail(e, "%s %s: HTTP %ld %s", method, path, status, why);
		free(why);
	} else {
		*out = jv_parse(text);
		if (!jv_is_valid(*out)) {
			jv_free(*out);
			rc = pc_fail(e, "%s %s: the response is not JSON: %.200s", method, path, text);
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
	return call(c, "GET", "/health/ready", jv_invalid(), 200, out, e);
}

int pc_post(const struct pc_client *c, const char *path, jv body, jv *out,
	    struct pc_err *e)
{
	return call(c, "POST", path, body, 200, out, e);
}

int pc_list_entries(const struct pc_client *c, const char *scope, jv *out,
		    struct pc_err *e)
{
	return pc_post(c, "/v1/memory/entries/list",
		       JV_OBJECT(jv_string("scope_id"), jv_string(scope)), out, e);
}

int pc_prepare(const struct pc_client *c, const char *scope, const char *query,
	       jv *out, struct pc_err *e)
{
	return pc_post(c, "/v1/context/prepare",
		       JV_OBJECT(jv_string("scope_id"), jv_string(scope),
				 jv_string("query"), jv_string(query)),
		       out, e);
}
