/* harbor_jobconfig: the JobConfig of a Harbor job (harbor_jobconfig.h). */
#include <stdlib.h>
#include <string.h>

#include "harbor/harbor_jobconfig.h"
#include "hosts/cli_host.h"
#include "io.h"
#include "json.h"
#include "run/agent.h"
#include "run/workload.h"
#include "text.h"

#define ENVIRONMENT_CLASS       "pc_e2e_harbor.environment:BwrapEnvironment"
#define PROVISIONED_AGENT_CLASS "pc_e2e_harbor.agent:CommandAgent"
#define INSTALLING_AGENT_CLASS  "pc_e2e_harbor.agent:InstalledBubAgent"
/* PowerContext 1.4.1 holds a value it derives for an agent under this
 * prefix and the variable's name without POWERCONTEXT_, and writes a
 * reference to it into the agent's environment: Harbor resolves it from its
 * own environment and writes the reference, never the value, to its files. */
#define AGENT_SECRET_PREFIX "POWERCONTEXT_E2E_AGENT_SECRET_"

/* Harbor matches task_names as fnmatch patterns: a name is itself only with
 * its pattern characters bracketed. */
static jv literal_pattern(const char *name)
{
	struct sbuf b = { 0 };

	for (const char *p = name; *p; p++)
		sbuf_addf(&b, strchr("*?[", *p) ? "[%c]" : "%c", *p);
	char *text = sbuf_take(&b);
	jv out = jv_string(text);
	free(text);
	return out;
}

static jv dataset_config(const struct workload_run *r, const char *task_dir, const char *job_dir)
{
	if (task_dir) {
		char *parent = pc_xstrdup(task_dir), *slash = strrchr(parent, '/');
		jv name = literal_pattern(slash ? slash + 1 : task_dir);
		if (slash)
			*slash = '\0';
		jv out = JV_OBJECT(jv_string("path"), jv_string(parent),
				   jv_string("task_names"), JV_ARRAY(name));
		free(parent);
		return out;
	}
	jv task = json_at(r->workload, "dataset.task_id");
	jv out = JV_OBJECT(jv_string("name"), json_at(r->workload, "dataset.name"),
			   jv_string("version"), json_at(r->workload, "dataset.version"),
			   jv_string("task_names"), JV_ARRAY(task));

	if (r->fleet->o->registry) {
		char *copy = io_join(job_dir, HARBOR_RESOLVED_REGISTRY_FILE);
		out = jv_object_set(out, jv_string("registry_path"), jv_string(copy));
		free(copy);
	}
	return out;
}

/* The plugin's credential setting (PREFIXAUTHORIZATION) and the name
 * 1.4.1 holds its value under (both malloc'd). */
static void credential_names(const struct cli_host *host, char **setting, char **held)
{
	*setting = text_fmt("%sAUTHORIZATION", host->plugin_prefix);
	*held = text_fmt("%s%s", AGENT_SECRET_PREFIX, *setting + strlen("POWERCONTEXT_"));
}

void harbor_agent_secrets(const struct workload_run *r, struct envv *env)
{
	struct envv on = { NULL, 0 };
	char *setting, *held;

	if (!r->arm.cli || r->arm.plugin_off)
		return;
	credential_names(r->arm.cli, &setting, &held);
	cli_plugin_env(r->arm.cli, r, &on);
	size_t k = strlen(setting);
	for (int i = 0; i < on.n; i++)
		if (!strncmp(on.v[i], setting, k) && on.v[i][k] == '=')
			env_set(env, held, on.v[i] + k + 1);
	env_free(&on);
	free(setting);
	free(held);
}

/* 1.4.1's agent environment for a command-line host: ON, the plugin's
 * settings with its credential as a reference; OFF, nothing. */
static jv cli_agent_env(const struct workload_run *r)
{
	struct envv on = { NULL, 0 };
	char *setting, *held;
	jv env = jv_object();

	if (r->arm.plugin_off)
		return env;
	credential_names(r->arm.cli, &setting, &held);
	cli_plugin_env(r->arm.cli, r, &on);
	for (int i = 0; i < on.n; i++) {
		char *eq = strchr(on.v[i], '=');
		*eq = '\0';
		char *ref = text_fmt("${%s}", held);
		env = jv_object_set(env, jv_string(on.v[i]),
				    jv_string(strcmp(on.v[i], setting) ? eq + 1 : ref));
		free(ref);
		*eq = '=';
	}
	env_free(&on);
	free(setting);
	free(held);
	return env;
}

/* A command-line host: 1.4.1's agent class for it, as 1.4.1's harness
 * configures it, with the provisioned host in place of its download. */
static jv cli_agent_config(const struct workload_run *r)
{
	const struct cli_host *host = r->arm.cli;
	int on = !r->arm.plugin_off;
	char *model = workload_host_model(r->agent_model ? r->agent_model : "");
	jv kwargs = JV_OBJECT(jv_string("powercontext"), jv_bool(on),
			      jv_string("server_url"),
			      jv_string(cli_server_url(host, r->fleet->client)),
			      jv_string("reasoning_effort"),
			      jv_string(cli_reasoning_effort(host)));

	if (on && host->plugin_uv)
		kwargs = jv_object_set(kwargs, jv_string("uv_cache"), jv_string(CLI_UV_CACHE));
	jv agent = JV_OBJECT(jv_string("import_path"), jv_string(host->harbor_agent),
			     jv_string("model_name"), jv_string(model),
			     jv_string("kwargs"), kwargs,
			     jv_string("env"), cli_agent_env(r));
	free(model);
	return agent;
}

/* The sandbox's binds of the arm (cli_mounts), as Harbor's mounts. */
static jv cli_environment_mounts(const struct workload_run *r, const struct cli_dir *d)
{
	struct cli_mount m[CLI_MOUNTS_MAX];
	int n = cli_mounts(r->arm.cli, d, !r->arm.plugin_off, m);
	jv mounts = jv_array();

	for (int i = 0; i < n; i++) {
		jv bind = JV_OBJECT(jv_string("type"), jv_string("bind"), jv_string("source"),
				    jv_string(m[i].from), jv_string("target"), jv_string(m[i].to),
				    jv_string("read_only"), jv_true());
		mounts = jv_array_append(mounts, bind);
	}
	cli_mounts_free(m, n);
	return mounts;
}

/* Here: the command pc-run-bub resolved, launched inside the sandbox.
 * Remote: Bub installed inside the sandbox from what its provisioning
 * recorded. */
static jv bub_agent_config(const struct workload_run *r)
{
	const struct run_bub_options *o = r->fleet->o;
	const struct agent *resolved = r->agent;
	const char *version = json_str(resolved->adapter, "adapter_version");
	jv kwargs;

	if (o->harbor_env)
		kwargs = JV_OBJECT(
			jv_string("bub"), jv_string(resolved->bub_dir ? resolved->bub_dir : ""));
	else
		kwargs = JV_OBJECT(jv_string("command"), jv_string(resolved->command),
				   jv_string("version"), jv_string(version ? version : "unknown"));
	const char *class = o->harbor_env ? INSTALLING_AGENT_CLASS : PROVISIONED_AGENT_CLASS;
	return JV_OBJECT(jv_string("import_path"), jv_string(class), jv_string("kwargs"), kwargs);
}

static jv agent_config(const struct workload_run *r)
{
	jv agent = r->arm.cli ? cli_agent_config(r) : bub_agent_config(r);

	if (r->fleet->o->agent_timeout > 0)
		agent = jv_object_set(agent, jv_string("override_timeout_sec"),
				      jv_number(r->fleet->o->agent_timeout));
	return agent;
}

jv harbor_job_config(const struct workload_run *r, const char *task_dir, const char *job_dir,
		     const struct cli_dir *d)
{
	const char *type = r->fleet->o->harbor_env;
	jv environment = type ? JV_OBJECT(jv_string("type"), jv_string(type))
			      : JV_OBJECT(jv_string("import_path"), jv_string(ENVIRONMENT_CLASS));

	environment = jv_object_set(environment, jv_string("delete"), jv_true());
	if (d)
		environment = jv_object_set(environment, jv_string("mounts"),
					    cli_environment_mounts(r, d));
	return JV_OBJECT(jv_string("job_name"), jv_string(r->run_id),
			 jv_string("jobs_dir"), jv_string(r->jobs_dir),
			 jv_string("n_attempts"), jv_number(1),
			 jv_string("n_concurrent_trials"), jv_number(1),
			 jv_string("quiet"), jv_true(),
			 jv_string("environment"), environment,
			 jv_string("agents"), JV_ARRAY(agent_config(r)),
			 jv_string("datasets"), JV_ARRAY(dataset_config(r, task_dir, job_dir)));
}
