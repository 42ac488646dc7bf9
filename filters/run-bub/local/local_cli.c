/* local_cli: the local runner's agent for one step when the arm's host is
 * a command-line program (local_cli.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/harbor.h"
#include "base/proc.h"
#include "base/sandbox.h"
#include "hosts/cli_host.h"
#include "io.h"
#include "json.h"
#include "local/local_cli.h"
#include "run/workload.h"
#include "text.h"

/* Where the sandbox leaves each command's output and exit code. */
#define STATUS_MOUNT "/run/pc-e2e"

/* Each command runs as Harbor runs an exec, the setup only after the
 * install, the run only after the setup, the finally always; its output and
 * status go to STATUS_MOUNT/<name>.{out,err,rc}. */
static const char WRAPPER[] = "phase() {\n"
			      "\t[ -n \"$2\" ] || return 0\n"
			      "\t(set -o pipefail; eval \"$2\") >\"" STATUS_MOUNT "/$1.out\" 2>\"" STATUS_MOUNT
			      "/$1.err\"\n"
			      "\ts=$?\n"
			      "\techo \"$s\" >\"" STATUS_MOUNT "/$1.rc\"\n"
			      "\treturn \"$s\"\n"
			      "}\n"
			      "phase install \"$1\" && phase setup \"$2\" && phase run \"$3\"\n"
			      "phase finally \"$4\"\n";

/* One step's invocation. */
struct cli_run {
	const struct cli_host *host;
	struct cli_dir d;
	struct cli_step s;
	struct cli_commands c;
	char *model;     /* the workload's model without Bub's provider prefix */
	char *status;    /* this machine's directory at STATUS_MOUNT */
	char *installed; /* the trial's CLI_INSTALLED_AGENT */
	/* the arm's binds, read-only */
	struct cli_mount binds[CLI_MOUNTS_MAX];
	int n_binds;
};

/* The sandbox's binds for the run: the status directory, the installed
 * agent and the arm's (cli_mounts). */
static int mounts_of(struct cli_run *c, struct sandbox_mount *m)
{
	int n = 0;

	m[n++] = (struct sandbox_mount){ c->status, STATUS_MOUNT, 1 };
	m[n++] = (struct sandbox_mount){ c->installed, CLI_INSTALLED_AGENT, 1 };
	c->n_binds = cli_mounts(c->host, &c->d, c->s.on, c->binds);
	for (int k = 0; k < c->n_binds; k++)
		m[n++] = (struct sandbox_mount){ c->binds[k].from, c->binds[k].to, 0 };
	m[n] = (struct sandbox_mount){ NULL, NULL, 0 };
	return n;
}

static void cli_env(const struct cli_run *c, const struct workload_run *r, struct envv *e)
{
	char *path = cli_path(c->host, &c->d);

	sandbox_base_env(e);
	env_set(e, "PATH", path);
	/* the OFF arm is a user without PowerContext: none of its settings */
	if (c->s.on)
		cli_plugin_env(c->host, r, e);
	c->host->env(&c->s, e);
	free(path);
}

/* The command's exit code in the status directory, or -1 when it never ran. */
static int phase_code(const struct cli_run *c, const char *phase)
{
	char *path = text_fmt("%s/%s.rc", c->status, phase), *text = NULL;
	size_t len;
	struct pc_err e;
	int code = io_read_text(path, &text, &len, &e) == 0 ? atoi(text) : -1;

	free(text);
	free(path);
	return code;
}

static char *phase_text(const struct cli_run *c, const char *phase, const char *kind)
{
	char *path = text_fmt("%s/%s.%s", c->status, phase, kind), *text = NULL;
	size_t len;
	struct pc_err e;

	if (io_read_text(path, &text, &len, &e) != 0)
		text = NULL;
	free(path);
	return text;
}

/* The first command that failed, as Harbor's exception; else null. */
static jv phase_exception(const struct cli_run *c, const char *log)
{
	const char *names[] = { "install", "setup", "run" };
	const char *commands[] = { c->c.install, c->c.setup, c->c.run };

	for (int i = 0; i < 3; i++) {
		if (!commands[i])
			continue;
		int code = phase_code(c, names[i]);
		if (code == 0)
			continue;
		if (code < 0)
			return harbor_exception("NonZeroAgentExitCodeError", log);
		char *out = phase_text(c, names[i], "out"), *err = phase_text(c, names[i], "err");
		jv exception = cli_exception(commands[i], code, out, err);
		free(out);
		free(err);
		return exception;
	}
	return jv_null();
}

/* The sandbox run to its end or the deadline; the exception it leaves. */
static jv invoke(struct cli_run *c, const struct workload_run *r, const struct step_paths *sp,
		 double timeout_s)
{
	struct sandbox_mount mounts[12];
	struct sandbox sb = { r->fleet->sandbox_binds, sp->agent, sp->verifier, NULL,
			      sp->workspace, NULL, mounts };
	char *const cmd[] = { "bash",
			      "-c",
			      (char *)WRAPPER,
			      "pc-e2e-cli-step",
			      c->c.install ? c->c.install : "",
			      c->c.setup,
			      c->c.run,
			      c->c.finally ? c->c.finally : "",
			      NULL };
	char *log = io_join(c->status, "sandbox.log");
	struct envv env = { NULL, 0 };
	struct pc_err e;
	struct proc p;
	jv exception = jv_null();

	mounts_of(c, mounts);
	cli_env(c, r, &env);
	char **argv = sandbox_argv(&sb, cmd);
	if (proc_spawn(&p, argv, env.v, NULL, log, 0, &e) != 0)
		exception = harbor_exception("NonZeroAgentExitCodeError", e.msg);
	else if (!proc_wait(&p, timeout_s > 0 ? (long)(timeout_s * 1000) : -1)) {
		proc_kill(&p, 2000);
		char *why;
		if (proc_stop_signal())
			why = text_fmt("stopped: pc-run-bub received %s", proc_stop_name());
		else
			why = text_fmt("Agent execution timed out after %g seconds", timeout_s);
		exception = harbor_exception(proc_stop_signal() ? "CancelledError"
								: "AgentTimeoutError",
					     why);
		free(why);
	} else {
		proc_kill(&p, 0);
		char *said = NULL;
		size_t len;
		if (io_read_text(log, &said, &len, &e) != 0)
			said = pc_xstrdup("");
		exception = phase_exception(c, said);
		free(said);
	}
	sandbox_argv_free(argv);
	env_free(&env);
	free(log);
	return exception;
}

/* The trial's /installed-agent, made by its first step: 1 when this step
 * made it (the trial's first, which installs), 0 after, -1 with e. */
static int installed_agent(struct cli_run *c, const struct runner_result *res, struct pc_err *e)
{
	c->installed = text_fmt("%s/sandbox/installed-agent", res->trial_dir);
	struct stat st;
	if (stat(c->installed, &st) == 0)
		return 0;
	return io_mkdirs(c->installed, e) == 0 ? 1 : -1;
}

static int prepare(struct cli_run *c, struct workload_run *r, struct runner_result *res,
		   const char *instruction, struct pc_err *e)
{
	c->host = r->arm.cli;
	if (!r->agent_model)
		return pc_fail(e, "--host %s runs model-backed workloads only", c->host->name);
	if (cli_dir_load(c->host, &c->d, e) != 0)
		return -1;
	int first = installed_agent(c, res, e);
	char *status = text_fmt("%s/pc-cli-XXXXXX", io_tmpdir());
	if (first >= 0 && !mkdtemp(status))
		first = pc_fail_errno(e, "cannot create a directory in %s", io_tmpdir());
	if (first < 0) {
		free(status);
		return -1;
	}
	c->status = status;
	c->model = workload_host_model(r->agent_model);
	c->s = (struct cli_step){ &c->d, !r->arm.plugin_off,
				  cli_server_url(c->host, r->fleet->client), c->model,
				  instruction };
	c->host->commands(&c->s, first, &c->c);
	if (jv_get_kind(res->agent_info) == JV_KIND_NULL) {
		jv_free(res->agent_info);
		res->agent_info = JV_OBJECT(jv_string("name"), jv_string(c->host->name),
					    jv_string("version"), jv_string(c->d.version));
	}
	return 0;
}

static void remove_status(const char *dir)
{
	static const char *const names[] = { "install", "setup", "run", "finally" };
	static const char *const kinds[] = { "out", "err", "rc" };

	for (size_t i = 0; i < 4; i++)
		for (size_t k = 0; k < 3; k++) {
			char *path = text_fmt("%s/%s.%s", dir, names[i], kinds[k]);
			unlink(path);
			free(path);
		}
	char *log = io_join(dir, "sandbox.log");
	unlink(log);
	free(log);
	rmdir(dir);
}

static void cli_run_free(struct cli_run *c)
{
	if (c->status)
		remove_status(c->status);
	cli_mounts_free(c->binds, c->n_binds);
	free(c->c.install);
	free(c->c.setup);
	free(c->c.run);
	free(c->c.finally);
	free(c->status);
	free(c->installed);
	free(c->model);
	cli_dir_free(&c->d);
}

jv local_cli(struct workload_run *r, struct runner_result *res, const struct step_paths *sp,
	     const char *instruction, double timeout_s, jv *exception)
{
	struct cli_run c;
	struct pc_err e;

	memset(&c, 0, sizeof c);
	if (prepare(&c, r, res, instruction, &e) != 0) {
		*exception = harbor_exception("NonZeroAgentExitCodeError", e.msg);
		cli_run_free(&c);
		return jv_null();
	}
	*exception = invoke(&c, r, sp, timeout_s);
	/* Harbor reads the figures after the agent phase, even when it raised */
	jv figures = c.host->usage(sp->agent);
	cli_run_free(&c);
	figures = jv_object_set(figures, jv_string("rollout_details"), jv_null());
	return jv_object_set(figures, jv_string("metadata"), jv_null());
}
