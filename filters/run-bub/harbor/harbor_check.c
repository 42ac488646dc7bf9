/* harbor_check: the harbor runner's checks before any workload runs
 * (harbor_check.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harbor/harbor_check.h"
#include "harbor/harbor_job.h"
#include "io.h"
#include "json.h"
#include "run/run.h"
#include "text.h"

/* Harbor's checks read the environment, files and its registry */
#define CHECK_TIMEOUT_MS 60000

/* Run `python -m MODULE ARGS...` of pc_e2e_harbor in the Harbor venv, with
 * Harbor's environment; 0 when it exits 0, else -1 with e: "what: its
 * output". */
static int harbor_python(const char *project, const char *type, char *const args[],
			 const char *what, struct pc_err *e)
{
	char *python = io_join(harbor_venv(), "bin/python");
	int n = 0;
	while (args[n])
		n++;
	char **argv = pc_xmalloc(((size_t)n + 3) * sizeof *argv);
	argv[0] = python;
	argv[1] = "-m";
	memcpy(argv + 2, args, (size_t)n * sizeof *argv);
	argv[n + 2] = NULL;
	char *output = NULL;
	struct envv env = { NULL, 0 };
	/* what Harbor itself will see, but for the agents' binds, which no
	 * check's sandbox uses */
	harbor_env(project, NULL, type, &env);
	int rc = harbor_run_quietly(argv, env.v, CHECK_TIMEOUT_MS, &output, e);
	env_free(&env);
	if (rc > 0)
		rc = pc_fail(e, "%s: %s", what,
			     output && *output ? output : "Harbor's check failed and said nothing");
	else if (rc < 0)
		pc_wrap(e, "%s: ", what);
	free(output);
	free(argv);
	free(python);
	return rc;
}

/* Every name@version of a registry dataset the selections pin, once each,
 * as a NULL-terminated argument list after "pc_e2e_harbor.registry"; NULL
 * when there is none. */
static char **registry_datasets(jv selections)
{
	char **args = pc_xmalloc(((size_t)jv_array_length(jv_copy(selections)) + 2) * sizeof *args);
	int n = 0;

	args[n++] = pc_xstrdup("pc_e2e_harbor.registry");
	jv_array_foreach(selections, i, sel) {
		jv name = json_at(sel, "workload.dataset.name"),
		   version = json_at(sel, "workload.dataset.version");
		if (jv_get_kind(name) == JV_KIND_STRING) {
			/* without a version, Harbor's client picks the newest */
			int pinned = jv_get_kind(version) == JV_KIND_STRING;
			char *id = text_fmt("%s%s%s", jv_string_value(name), pinned ? "@" : "",
					    pinned ? jv_string_value(version) : "");
			int seen = 0;
			for (int k = 1; k < n && !seen; k++)
				seen = !strcmp(args[k], id);
			if (seen)
				free(id);
			else
				args[n++] = id;
		}
		jv_free(name);
		jv_free(version);
		jv_free(sel);
	}
	args[n] = NULL;
	if (n > 1)
		return args;
	free(args[0]);
	free(args);
	return NULL;
}

/* Without --registry, Harbor fetches registry datasets from its own
 * registry: one it cannot reach would fail every arm. */
static int check_registry(const struct run_bub_options *o, const char *project, jv selections,
			  struct pc_err *e)
{
	char **args = o->registry ? NULL : registry_datasets(selections);

	if (!args)
		return 0;
	struct sbuf what = { 0 };
	sbuf_add(&what, "Harbor's registry cannot serve");
	for (char **a = args + 1; *a; a++)
		sbuf_addf(&what, " %s", *a);
	sbuf_add(&what, " here (give --registry FILE listing it to run it from this machine)");
	char *label = sbuf_take(&what);
	int rc = harbor_python(project, NULL, args, label, e);
	free(label);
	for (char **a = args; *a; a++)
		free(*a);
	free(args);
	return rc;
}

int harbor_runner_check(const struct run_bub_options *o, const struct pc_client *c,
			const char *project, const struct agent *agent, jv selections,
			struct pc_err *e)
{
	const char *venv = harbor_venv();

	if (!venv)
		return pc_fail(
			e,
			"the harbor runner needs POWERCONTEXT_E2E_HARBOR: the Harbor venv that pipelines/pc-powercontext harbor provides");
	/* Harbor runs in the job directory, and its sandboxes bind the venv */
	if (venv[0] != '/')
		return pc_fail(e, "POWERCONTEXT_E2E_HARBOR=%s must be an absolute path", venv);
	char *harbor = io_join(venv, "bin/harbor");
	int rc = access(harbor, X_OK) == 0
			 ? 0
			 : pc_fail_errno(e, "POWERCONTEXT_E2E_HARBOR=%s: no %s", venv, harbor);
	free(harbor);
	if (rc != 0 || check_registry(o, project, selections, e) != 0)
		return -1;
	if (!o->harbor_env)
		return 0;
	if (!agent->bub_dir)
		return pc_fail(
			e,
			"--harbor-env %s installs the provisioned Bub inside the sandbox: set POWERCONTEXT_E2E_BUB (pipelines/pc-powercontext bub); an agent command cannot be installed there",
			o->harbor_env);
	if (pc_url_is_loopback(c->base_url))
		return pc_fail(
			e,
			"--harbor-env %s: the Server at %s is on this machine's loopback, which a %s sandbox cannot reach; set POWERCONTEXT_CLIENT_SERVER_URL to an address it can",
			o->harbor_env, c->base_url, o->harbor_env);
	char *what = text_fmt("--harbor-env %s", o->harbor_env);
	char *const args[] = { "pc_e2e_harbor.preflight", (char *)o->harbor_env, NULL };
	rc = harbor_python(project, o->harbor_env, args, what, e);
	free(what);
	return rc;
}
