#include "run/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "json.h"
#include "text.h"

extern char **environ;

void env_set(struct envv *e, const char *name, const char *value)
{
	size_t k = strlen(name);

	for (int i = 0; i < e->n; i++)
		if (!strncmp(e->v[i], name, k) && e->v[i][k] == '=') {
			free(e->v[i]);
			e->v[i] = text_fmt("%s=%s", name, value);
			return;
		}
	e->v = pc_xrealloc(e->v, (size_t)(e->n + 2) * sizeof *e->v);
	e->v[e->n++] = text_fmt("%s=%s", name, value);
	e->v[e->n] = NULL;
}

void env_free(struct envv *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
}

void env_forward_prefix(struct envv *e, const char *prefix)
{
	size_t k = strlen(prefix);

	for (char **p = environ; *p; p++) {
		const char *eq = strchr(*p, '=');
		if (!strncmp(*p, prefix, k) && eq && eq[1]) {
			char *name = pc_xstrdup(*p);
			name[eq - *p] = '\0';
			env_set(e, name, eq + 1);
			free(name);
		}
	}
}

void env_forward(struct envv *e, const char *name)
{
	const char *v = getenv(name);

	if (v && *v)
		env_set(e, name, v);
}

void sandbox_base_env(struct envv *e)
{
	env_set(e, "PATH", SANDBOX_PATH);
	env_set(e, "HOME", "/tmp");
	env_set(e, "TMPDIR", "/tmp");
	env_forward(e, "LANG");
	env_forward(e, "LC_ALL");
}

/* PowerContext's plugin settings: the Server, the token and the Scope, and
 * what it captures.  Only a Memory evaluation sets capture, and a paired ON
 * arm turns it on, as 1.4.1 does; other kinds run with its defaults. */
static void plugin_env(const struct workload_run *r, struct envv *e)
{
	jv spec = jv_object_get(jv_copy(r->workload), jv_string("evaluation"));
	const struct pc_client *client = r->fleet->client;
	char num[32];

	env_forward_prefix(e, "POWERCONTEXT_BUB_");
	env_forward_prefix(e, "POWERCONTEXT_CLIENT_");
	env_set(e, "POWERCONTEXT_CLIENT_SERVER_URL", client->base_url);
	if (!getenv("POWERCONTEXT_BUB_BASE_URL"))
		env_set(e, "POWERCONTEXT_BUB_BASE_URL", client->base_url);
	/* the plugin reads its own token setting from 1.3.0, the client's before */
	if (client->token && !getenv("POWERCONTEXT_BUB_API_TOKEN"))
		env_set(e, "POWERCONTEXT_BUB_API_TOKEN", client->token);
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_EVENTS",
		r->arm.paired || json_has_true(spec, "capture_events") ? "true" : "false");
	snprintf(num, sizeof num, "%.0f", json_number_at(spec, "checkpoint_every_events", 5));
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_CHECKPOINT_EVERY", num);
	snprintf(num, sizeof num, "%.0f", json_number_at(spec, "max_event_bytes", 8192));
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_MAX_BYTES", num);
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_LOG", "/logs/agent/powercontext-capture.jsonl");
	env_set(e, "POWERCONTEXT_BUB_SCOPE_ID", r->scope);
	jv_free(spec);
}

void agent_env(const struct workload_run *r, struct envv *e)
{
	jv exec = jv_object_get(jv_copy(r->workload), jv_string("execution"));
	char num[32];

	sandbox_base_env(e);
	/* a paired OFF arm is a user without PowerContext: no setting of it at all */
	if (!r->arm.plugin_off)
		plugin_env(r, e);
	if (r->agent_model) {
		env_forward_prefix(e, "BUB_");
		env_set(e, "BUB_MODEL", r->agent_model);
	} else {
		env_set(e, "BUB_API_KEY", "null");
		env_set(e, "BUB_FALLBACK_MODELS", "null");
	}
	env_set(e, "BUB_HOME", "/tmp/bub-home");
	snprintf(num, sizeof num, "%.0f", json_number_at(exec, "max_steps", 50));
	env_set(e, "BUB_MAX_STEPS", num);
	snprintf(num, sizeof num, "%.0f", json_number_at(exec, "max_tokens", 16384));
	env_set(e, "BUB_MAX_TOKENS", num);
	const char *proxy = getenv("POWERCONTEXT_E2E_AGENT_PROXY_URL");
	if (proxy && *proxy) {
		static const char *const names[] = { "HTTP_PROXY", "HTTPS_PROXY", "http_proxy",
						     "https_proxy" };
		for (size_t i = 0; i < 4; i++)
			env_set(e, names[i], proxy);
		env_set(e, "NO_PROXY", "127.0.0.1,localhost,host-gateway,powercontext");
		env_set(e, "no_proxy", "127.0.0.1,localhost,host-gateway,powercontext");
	}
	jv_free(exec);
}

static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy = pc_xstrdup(path ? path : ""), *save = NULL;
	int found = 0;

	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *full = io_join(d, name);
		found = access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	return found;
}

/* Whether a non-empty array (borrowed) holds only strings. */
static int is_command(jv argv)
{
	int ok = jv_get_kind(argv) == JV_KIND_ARRAY && jv_array_length(jv_copy(argv)) > 0;

	if (ok)
		jv_array_foreach(argv, i, word) {
			ok = ok && jv_get_kind(word) == JV_KIND_STRING;
			jv_free(word);
		}
	return ok;
}

/* The command pc-e2e-adapter.json names, its first word relative to dir
 * (bub-acp-server 0.0.x is a command of its own, later ones `bub acp`). */
static int provisioned_bub(const char *var, const char *dir, struct agent *a, struct pc_err *e)
{
	char *identity = io_join(dir, "pc-e2e-adapter.json");
	struct sbuf cmd = { 0 };
	int rc = json_read_file(identity, &a->adapter, e) != 0
			 ? pc_wrap(e, "%s=%s: ", var, dir)
			 : 0;
	jv argv = rc == 0 ? json_get(a->adapter, "command") : jv_invalid();

	if (rc == 0 && !is_command(argv))
		rc = pc_fail(e, "%s=%s: %s names no command", var, dir, identity);
	if (rc == 0)
		jv_array_foreach(argv, i, word) {
			char *w = i == 0 ? io_join(dir, jv_string_value(word))
					 : pc_xstrdup(jv_string_value(word));
			if (i == 0 && access(w, X_OK) != 0 && rc == 0)
				rc = pc_fail_errno(e, "%s=%s: no %s", var, dir, w);
			sbuf_addf(&cmd, "%s'%s'", i ? " " : "", w);
			free(w);
			jv_free(word);
		}
	char *command = sbuf_take(&cmd);
	if (rc == 0) {
		a->command = command;
		a->bub_dir = pc_xstrdup(dir);
	} else
		free(command);
	jv_free(argv);
	free(identity);
	return rc;
}

/* The caller's agent (--agent, else $PC_E2E_AGENT), else the provisioned
 * Bub that $var names: 1 when either resolved a (*rc its status), 0 when
 * neither is given. */
static int given_agent(const char *option, const char *var, struct agent *a, int *rc,
		       struct pc_err *e)
{
	const char *env = getenv("PC_E2E_AGENT"), *bub = getenv(var);

	a->command = a->bub_dir = NULL;
	a->adapter = jv_null();
	*rc = 0;
	if (option || (env && *env))
		a->command = pc_xstrdup(option ? option : env);
	else if (bub && *bub)
		*rc = provisioned_bub(var, bub, a, e);
	else
		return 0;
	return 1;
}

int agent_resolve(const char *option, struct agent *a, struct pc_err *e)
{
	int rc;

	if (given_agent(option, "POWERCONTEXT_E2E_BUB", a, &rc, e))
		return rc;
	if (on_path("bub-acp-server")) {
		a->command = pc_xstrdup("bub-acp-server");
		return 0;
	}
	return pc_fail(
		e,
		"no agent: set POWERCONTEXT_E2E_BUB to the Bub that pipelines/pc-powercontext bub provides, put bub-acp-server on PATH, or pass --agent");
}

int agent_resolve_off(const char *option, struct agent *a, struct pc_err *e)
{
	int rc;

	if (given_agent(option, "POWERCONTEXT_E2E_BUB_OFF", a, &rc, e))
		return rc;
	return pc_fail(e,
		       "no agent for the OFF arm: set POWERCONTEXT_E2E_BUB_OFF to the Bub without PowerContext's plugin that pipelines/pc-powercontext bub-off provides, or pass --agent");
}

void agent_free(struct agent *a)
{
	free(a->command);
	free(a->bub_dir);
	jv_free(a->adapter);
}
