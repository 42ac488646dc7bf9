/* harbor_jobconfig: the JobConfig of a Harbor job (harbor_jobconfig.h). */
#include <stdlib.h>
#include <string.h>

#include "harbor/harbor_jobconfig.h"
#include "io.h"
#include "json.h"
#include "run/agent.h"
#include "text.h"

#define ENVIRONMENT_CLASS       "pc_e2e_harbor.environment:BwrapEnvironment"
#define PROVISIONED_AGENT_CLASS "pc_e2e_harbor.agent:CommandAgent"
#define INSTALLING_AGENT_CLASS  "pc_e2e_harbor.agent:InstalledBubAgent"

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

/* Here: the command pc-run-bub resolved, launched inside the sandbox.
 * Remote: Bub installed inside the sandbox from what its provisioning
 * recorded. */
static jv agent_config(const struct workload_run *r)
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
	jv agent = JV_OBJECT(jv_string("import_path"), jv_string(class),
			     jv_string("kwargs"), kwargs);
	if (o->agent_timeout > 0)
		agent = jv_object_set(agent, jv_string("override_timeout_sec"),
				      jv_number(o->agent_timeout));
	return agent;
}

jv harbor_job_config(const struct workload_run *r, const char *task_dir, const char *job_dir)
{
	const char *type = r->fleet->o->harbor_env;
	jv environment = type ? JV_OBJECT(jv_string("type"), jv_string(type))
			      : JV_OBJECT(jv_string("import_path"), jv_string(ENVIRONMENT_CLASS));

	environment = jv_object_set(environment, jv_string("delete"), jv_true());
	return JV_OBJECT(jv_string("job_name"), jv_string(r->run_id),
			 jv_string("jobs_dir"), jv_string(r->jobs_dir),
			 jv_string("n_attempts"), jv_number(1),
			 jv_string("n_concurrent_trials"), jv_number(1),
			 jv_string("quiet"), jv_true(),
			 jv_string("environment"), environment,
			 jv_string("agents"), JV_ARRAY(agent_config(r)),
			 jv_string("datasets"), JV_ARRAY(dataset_config(r, task_dir, job_dir)));
}
