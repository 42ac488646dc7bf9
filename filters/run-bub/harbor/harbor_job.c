/* harbor_job: the runner that hands a workload to the real Harbor CLI
 * (docs/DESIGN.md §5.11).
 *
 * One Harbor job per workload: pc-run-bub writes its JobConfig
 * (harbor_jobconfig.c), runs `harbor run -c`, and reads back the trial
 * Harbor wrote.  Harbor sees
 * no more of this process's environment than the agent would, plus its own
 * settings; Bub's environment travels in PC_E2E_HARBOR_AGENT_ENV, not in
 * the JobConfig, because Harbor writes that to disk, and so does a
 * command-line host's credential, which the JobConfig names by reference.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/harbor.h"
#include "base/proc.h"
#include "base/registry.h"
#include "base/sandbox.h"
#include "base/toml.h"
#include "harbor/harbor_job.h"
#include "harbor/harbor_jobconfig.h"
#include "harbor_layout.h"
#include "hosts/cli_host.h"
#include "io.h"
#include "json.h"
#include "run/agent.h"
#include "run/run.h"
#include "text.h"

/* beyond the task's own timeouts: environment and agent set-up, Harbor's start */
#define HARBOR_SLACK_S 600

const char *harbor_venv(void)
{
	const char *dir = getenv("POWERCONTEXT_E2E_HARBOR");

	return dir && *dir ? dir : NULL;
}

/* ---- Harbor's process ---- */

/* The agent's environment as one JSON object. */
static char *agent_env_json(const struct workload_run *r)
{
	struct envv env = { NULL, 0 };
	jv obj = jv_object();

	agent_env(r, &env);
	for (int i = 0; i < env.n; i++) {
		char *eq = strchr(env.v[i], '=');
		*eq = '\0';
		obj = jv_object_set(obj, jv_string(env.v[i]), jv_string(eq + 1));
		*eq = '=';
	}
	env_free(&env);
	jv text = jv_dump_string(obj, 0);
	char *out = pc_xstrdup(jv_string_value(text));
	jv_free(text);
	return out;
}

/* A merged batch's agent invocations, each as what it sets over the
 * agent's environment: its member's scope and model. */
static char *invocations_json(const struct workload_run *r)
{
	jv list = jv_array();

	jv_array_foreach(r->invocations, i, inv) {
		const char *model = json_str(inv, "model");
		jv env = JV_OBJECT(jv_string("POWERCONTEXT_BUB_SCOPE_ID"), json_get(inv, "scope"));
		if (model)
			env = jv_object_set(env, jv_string("BUB_MODEL"), jv_string(model));
		list = jv_array_append(list, env);
		jv_free(inv);
	}
	jv text = jv_dump_string(list, 0);
	char *out = pc_xstrdup(jv_string_value(text));
	jv_free(text);
	return out;
}

/* Harbor's environment: what it needs to run and to find pc-e2e's classes,
 * never the rest of this process's (secrets included).  A remote type's
 * credentials are its <TYPE>_* variables (DAYTONA_API_KEY, E2B_API_KEY, …). */
void harbor_env(const char *project, const char *binds, const char *type, struct envv *env)
{
	static const char *const passed[] = { "PATH", "HOME", "TMPDIR", "LANG", "LC_ALL" };
	char *pythonpath = io_join(project, "python");

	for (size_t i = 0; i < sizeof passed / sizeof *passed; i++)
		env_forward(env, passed[i]);
	/* Harbor's own settings (its registry's HARBOR_SUPABASE_URL, …), but
	 * never its telemetry */
	env_forward_prefix(env, "HARBOR_");
	env_set(env, "HARBOR_TELEMETRY", "0");
	env_set(env, "LITELLM_LOCAL_MODEL_COST_MAP", "True");
	env_set(env, "PYTHONDONTWRITEBYTECODE", "1");
	env_set(env, "PYTHONPATH", pythonpath);
	env_set(env, "PC_E2E_PROJECT", project);
	env_set(env, "PC_E2E_HARBOR_VENV", harbor_venv());
	/* Harbor's runner venv is bound at /opt/harbor-acp-venv; the
	 * interpreter it links to must be there too */
	const char *runner_venv[] = { harbor_venv() };
	char *all = sandbox_binds(runner_venv, 1, binds);
	char *base = sandbox_base_json(all);
	free(all);
	env_set(env, "PC_E2E_SANDBOX_BASE", base);
	free(base);
	if (type) {
		struct sbuf prefix = { 0 };
		for (const char *p = type; *p; p++)
			sbuf_addf(&prefix, "%c",
				  isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
		sbuf_add(&prefix, "_");
		char *want = sbuf_take(&prefix);
		env_forward_prefix(env, want);
		free(want);
	}
	free(pythonpath);
}

static void trim_end(char *text, size_t *len)
{
	for (; *len && isspace((unsigned char)text[*len - 1]); (*len)--)
		text[*len - 1] = '\0';
}

/* Run argv for up to timeout_ms with its output (stdout and stderr) in
 * *output; rc: -1 it could not run or timed out, else its exit status. */
int harbor_run_quietly(char *const argv[], char *const env[], long timeout_ms, char **output,
		       struct pc_err *e)
{
	char *log = text_fmt("%s/pc-harbor-XXXXXX", io_tmpdir());
	int fd = mkstemp(log), rc = -1;
	struct proc p;
	size_t len;

	*output = NULL;
	if (fd < 0) {
		pc_fail_errno(e, "cannot create %s", log);
		free(log);
		return -1;
	}
	close(fd);
	if (proc_spawn(&p, argv, env, NULL, log, 0, e) == 0) {
		if (proc_wait(&p, timeout_ms))
			rc = proc_exit_code(p.status);
		else
			pc_fail(e, "%s did not answer within %ld s", argv[0], timeout_ms / 1000);
		proc_kill(&p, 0);
		if (rc >= 0 && io_read_text(log, output, &len, e) == 0)
			trim_end(*output, &len);
	}
	unlink(log);
	free(log);
	return rc;
}

/* The last lines of a log, for an error message. */
static char *log_tail(const char *path, int lines)
{
	char *text;
	size_t len;
	struct pc_err e;

	if (io_read_text(path, &text, &len, &e) != 0)
		return pc_xstrdup("(no output)");
	trim_end(text, &len);
	char *p = text + len;
	while (p > text && lines > 0)
		if (*--p == '\n')
			lines--;
	char *out = pc_xstrdup(p + (*p == '\n'));
	free(text);
	return out;
}

/* How long Harbor may take, in ms (-1: no limit): each step's agent and
 * verifier deadlines as Harbor reads them, plus set-up.  A step without an
 * agent deadline, a registry task or one that cannot be read here has none. */
static long long harbor_deadline_ms(const struct workload_run *r, const char *task_dir)
{
	char *path = task_dir ? io_join(task_dir, "task.toml") : NULL;
	struct pc_err e;
	jv task;
	double total = HARBOR_SLACK_S;

	if (!path || toml_load(path, &task, &e) != 0) {
		free(path);
		return -1;
	}
	jv steps = json_get(task, "steps");
	/* a single-step task is its own one step */
	if (jv_get_kind(steps) != JV_KIND_ARRAY || jv_array_length(jv_copy(steps)) == 0) {
		jv_free(steps);
		steps = JV_ARRAY(jv_object());
	}
	jv_array_foreach(steps, i, step) {
		double agent = run_agent_timeout(r, task, step);
		total = agent > 0 && total >= 0 ? total + agent + run_verifier_timeout(task, step)
						: -1;
		jv_free(step);
	}
	jv_free(steps);
	jv_free(task);
	free(path);
	return total < 0 ? -1 : (long long)(total * 1000);
}

/* A paired ON arm's job settles its Scope after each agent session, where
 * Harbor's agent-end hook runs (python/pc_e2e_harbor/settle.py): the
 * plugin and its settings after Harbor's own arguments in argv (from n;
 * the SETTLE_KWARGS strings in owned[], which the caller frees), and the
 * Server's client settings in env. */
#define SETTLE_KWARGS 4
static void settle_plugin(const struct workload_run *r, const char *job_dir, char **argv, int n,
			  struct envv *env, char *owned[SETTLE_KWARGS])
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (!r->arm.settles || !r->scope || len <= 0)
		return;
	exe[len] = '\0';
	char *log = io_join(job_dir, HARBOR_SETTLED_SESSIONS_FILE);
	char scored[32];
	snprintf(scored, sizeof scored, "%d", r->arm.scored_session);
	const char *kwargs[SETTLE_KWARGS][2] = { { "command", exe },
						 { "scope", r->scope },
						 { "scored_session", scored },
						 { "log", log } };
	argv[n++] = "--plugin";
	argv[n++] = SETTLE_PLUGIN_CLASS;
	for (int i = 0; i < SETTLE_KWARGS; i++) {
		owned[i] = text_fmt("%s=%s", kwargs[i][0], kwargs[i][1]);
		argv[n++] = "--plugin-kwarg";
		argv[n++] = owned[i];
	}
	argv[n] = NULL;
	/* the settling calls the Server as the harness does, token included */
	env_forward_prefix(env, "POWERCONTEXT_CLIENT_");
	free(log);
}

/* What the agent needs of Harbor's environment: Bub's whole environment in
 * PC_E2E_HARBOR_AGENT_ENV; for a command-line host (d), 1.4.1's agent
 * modules, what Harbor's agent reads for the model and the ON arm's held
 * credential.  Then the sandbox's PATH. */
static void agent_harbor_env(const struct workload_run *r, const struct cli_dir *d,
			     struct envv *env)
{
	if (!d) {
		char *agent = agent_env_json(r);
		env_set(env, "PC_E2E_HARBOR_AGENT_ENV", agent);
		env_set(env, "PC_E2E_SANDBOX_PATH", SANDBOX_PATH);
		free(agent);
		return;
	}
	char *pythonpath = text_fmt("%s/python:%s/e2e/bub/src", r->fleet->project, d->source);
	char *path = cli_path(r->arm.cli, d);
	env_set(env, "PYTHONPATH", pythonpath);
	env_set(env, "PC_E2E_SANDBOX_PATH", path);
	for (const char *const *name = r->arm.cli->model_env; *name; name++)
		env_forward(env, *name);
	harbor_agent_secrets(r, env);
	free(pythonpath);
	free(path);
}

static int run_harbor(const struct workload_run *r, const struct cli_dir *d, const char *task_dir,
		      const char *job_dir, const char *config, struct pc_err *e)
{
	char *harbor = io_join(harbor_venv(), "bin/harbor");
	char *log = io_join(job_dir, "harbor.txt");
	char *argv[6 + 2 * SETTLE_KWARGS + 1] = { harbor, "run", "-c", (char *)config, NULL };
	char *kwargs[SETTLE_KWARGS] = { NULL };
	struct envv env = { NULL, 0 };
	struct proc p;
	int rc = 0;

	harbor_env(r->fleet->project, r->fleet->sandbox_binds, r->fleet->o->harbor_env, &env);
	settle_plugin(r, job_dir, argv, 4, &env, kwargs);
	agent_harbor_env(r, d, &env);
	if (jv_get_kind(r->invocations) == JV_KIND_ARRAY) {
		char *invocations = invocations_json(r);
		env_set(&env, "PC_E2E_HARBOR_INVOCATIONS", invocations);
		free(invocations);
	}
	long long deadline = harbor_deadline_ms(r, task_dir ? task_dir : r->registry_task);
	if (proc_spawn(&p, argv, env.v, job_dir, log, 0, e) != 0)
		rc = -1;
	else if (!proc_wait(&p, (long)deadline)) {
		/* a stop reaches Harbor as SIGINT, its own cancellation */
		if (proc_stop_signal()) {
			proc_signal(&p, SIGINT, 10000);
			rc = pc_fail(e, "Harbor stopped: %s received %s", r->fleet->o->prog,
				     proc_stop_name());
		} else {
			proc_kill(&p, 5000);
			rc = pc_fail(e, "Harbor did not finish within %lld s and was stopped",
				     deadline / 1000);
		}
	} else {
		proc_kill(&p, 0);
		if (proc_exit_code(p.status) != 0) {
			char status[64], *tail = log_tail(log, 8);
			proc_describe(p.status, status, sizeof status);
			rc = pc_fail(e, "harbor run ended with %s; last lines of %s:\n%s", status,
				     log, tail);
			free(tail);
		}
	}
	env_free(&env);
	for (int i = 0; i < SETTLE_KWARGS; i++)
		free(kwargs[i]);
	free(log);
	free(harbor);
	return rc;
}

/* ---- the trial Harbor wrote ---- */

/* The one directory of the job holding a result.json: Harbor's trial. */
static char *find_trial(const char *job_dir)
{
	DIR *d = opendir(job_dir);
	struct dirent *ent;
	char *found = NULL;

	while (d && (ent = readdir(d))) {
		if (ent->d_name[0] == '.')
			continue;
		char *result = text_fmt("%s/%s/" HARBOR_RESULT_FILE, job_dir, ent->d_name);
		struct stat st;
		if (stat(result, &st) == 0 && S_ISREG(st.st_mode) && !found)
			found = pc_xstrdup(ent->d_name);
		free(result);
	}
	if (d)
		closedir(d);
	return found;
}

/* From the trial's result (borrowed): Harbor's own agent, when it is a
 * command-line host's ({name, version}: its --host name and pin). */
static void note_cli_agent(struct runner_result *res, jv result)
{
	jv name = json_at(result, "agent_info.name");
	jv version = json_at(result, "agent_info.version");

	if (jv_get_kind(name) == JV_KIND_STRING && jv_get_kind(version) == JV_KIND_STRING) {
		jv_free(res->agent_info);
		res->agent_info = JV_OBJECT(jv_string("name"), name, jv_string("version"), version);
		return;
	}
	jv_free(name);
	jv_free(version);
}

/* From a step result (borrowed): the agent that answered initialize. */
static void note_agent(struct runner_result *res, jv step)
{
	jv init = json_at(step, "agent_result.metadata.acp.initialize");
	jv info = json_get(init, "agentInfo");

	if (jv_get_kind(res->agent_info) == JV_KIND_NULL && jv_get_kind(info) == JV_KIND_OBJECT) {
		jv_free(res->agent_info);
		res->agent_info = jv_copy(info);
		res->protocol = json_number_at(init, "protocolVersion", 0);
	}
	jv_free(info);
	jv_free(init);
}

/* One step's result (borrowed), or a single-step trial's, which Harbor
 * keeps at the top level: its exception as an error, and its agent. */
static void read_step(struct workload_run *r, struct runner_result *res, jv step, const char *name)
{
	jv exception = json_get(step, "exception_info");

	if (jv_get_kind(exception) == JV_KIND_OBJECT)
		run_step_exception(r, name, exception);
	note_agent(res, step);
	jv_free(exception);
}

/* What the trial says: its rewards, its agent, and every exception as an
 * error, the way the local runner reports them. */
static void read_trial(struct workload_run *r, struct runner_result *res)
{
	struct pc_err e;
	char *path = io_join(res->trial_dir, HARBOR_RESULT_FILE);
	jv result;
	int rc = json_read_file(path, &result, &e);

	free(path);
	if (rc != 0) {
		run_error(r, "%s", e.msg);
		return;
	}
	jv steps = json_get(result, "step_results");
	if (jv_get_kind(steps) == JV_KIND_ARRAY) {
		jv trial_exception = json_get(result, "exception_info");
		if (jv_get_kind(trial_exception) == JV_KIND_OBJECT)
			run_step_exception(r, RUN_TRIAL_STEP, trial_exception);
		jv_free(trial_exception);
		jv_array_foreach(steps, i, step) {
			read_step(r, res, step, json_str(step, "step_name"));
			jv_free(step);
		}
	} else
		read_step(r, res, result, RUN_TRIAL_STEP);
	if (r->arm.cli)
		note_cli_agent(res, result);
	jv_free(steps);
	jv rewards = json_at(result, HARBOR_REWARDS_PATH);
	jv_free(res->rewards);
	res->rewards =
		jv_get_kind(rewards) == JV_KIND_OBJECT ? rewards : (jv_free(rewards), jv_null());
	jv_free(result);
}

/* One Harbor job: its JobConfig, `harbor run`, and the trial it wrote. */
struct runner_result harbor_runner_run(struct workload_run *r, const char *task_dir)
{
	struct runner_result res = runner_result_none();
	struct pc_err e;
	struct cli_dir host, *d = r->arm.cli ? &host : NULL;
	char *private = text_fmt("%s/pc-harbor-XXXXXX", io_tmpdir());
	char *config = NULL;
	int rc = 0;

	memset(&host, 0, sizeof host);
	res.job_dir = io_join(r->jobs_dir, r->run_id);
	if (io_mkdirs(res.job_dir, &e) != 0 || (d && cli_dir_load(r->arm.cli, d, &e) != 0))
		rc = -1;
	else if (!mkdtemp(private))
		rc = pc_fail_errno(&e, "cannot create %s for the JobConfig", private);
	else {
		/* outside the job directory: Harbor's own config.json is the evidence */
		config = io_join(private, "job.json");
		jv job = harbor_job_config(r, task_dir, res.job_dir, d);
		rc = harbor_write_json(private, "job.json", job, &e);
		if (rc == 0 && !task_dir && r->fleet->o->registry)
			rc = registry_write_resolved(r->fleet->o->registry, res.job_dir,
						     HARBOR_RESOLVED_REGISTRY_FILE, &e);
		if (rc == 0)
			rc = run_harbor(r, d, task_dir, res.job_dir, config, &e);
		unlink(config);
		rmdir(private);
	}
	if (rc != 0)
		run_error(r, "%s", e.msg);
	res.trial_name = find_trial(res.job_dir);
	if (res.trial_name) {
		res.trial_dir = io_join(res.job_dir, res.trial_name);
		read_trial(r, &res);
	} else if (rc == 0)
		run_error(r, "Harbor wrote no trial under %s", res.job_dir);
	cli_dir_free(&host);
	free(config);
	free(private);
	return res;
}
