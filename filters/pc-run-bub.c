/* pc-run-bub: selections in, run records out (docs/DESIGN.md §5).
 *
 * Per workload: a fresh run id and scope, readiness, the Memory baseline, the
 * Harbor task's steps through an ACP agent (local runner: each step in a new
 * ACP session inside a bubblewrap sandbox, then its verifier), the final
 * Memory and every probe through prepare_context.  A failure anywhere still
 * emits the record with what was collected, status "failed".  Outcome
 * workloads are judged on how they ended, so they skip the Memory and the
 * probes.  Under fail-fast, a batch group stops at its first failure and the
 * rest of it is recorded as skipped.
 */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acp.h"
#include "docs.h"
#include "harbor.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "pcclient.h"
#include "proc.h"
#include "sandbox.h"
#include "stage.h"
#include "text.h"
#include "toml.h"

extern char **environ;

static const char usage[] =
	"usage: pc-run-bub [--runner local|harbor] [--failure-policy POLICY] [--output DIR]\n"
	"                  [--agent CMD] [--agent-timeout SEC]\n"
	"Reads powercontext.e2e-selection/v1 lines and runs each workload, writing one\n"
	"powercontext.e2e-run/v1 record per workload and the Harbor job directory\n"
	"under DIR/<workload id>/harbor-jobs/ (default DIR: a new temporary directory).\n"
	"  --runner local   run steps here, sandboxed with bubblewrap (default)\n"
	"  --runner harbor  run through the Harbor CLI (needs Docker or a cloud sandbox)\n"
	"  --agent CMD      ACP agent command (default: $PC_E2E_AGENT, else the Bub in\n"
	"                   $POWERCONTEXT_E2E_BUB from pipelines/pc-powercontext bub,\n"
	"                   else bub-acp-server on PATH)\n"
	"  --agent-timeout SEC  override the task's agent timeout\n"
	"  --failure-policy POLICY  collect-all (default): run every workload;\n"
	"                   fail-fast: stop a batch:<name> group at its first failure\n"
	"                   and record the rest of it as skipped\n";

struct options {
	const char *runner, *output, *agent, *policy;
	double agent_timeout; /* 0: the task's */
};

/* What one run needs and gathers. */
struct run {
	const struct options *opt;
	const struct redactor *red;
	const struct pc_client *client;
	const struct pc_api *api; /* NULL: the Server could not say what it is */
	const char *api_error;
	const char *project;
	const char *agent_cmd;
	jv agent_adapter; /* recorded identity of the agent, or null */
	jv selection, workload;
	char run_id[128];
	char *scope;
	char *job_dir, *trial_dir, *trial_name;
	jv errors;
	jv agent_info; /* from the first initialize, or null */
	jv rewards;    /* the trial's rewards, or null */
	double protocol;
	int progress;
	int gated;       /* a step below 1 stops the trial (fail-fast batch) */
	int gate_closed; /* and one did */
	long long started_ms;
};

static void progress(const struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->progress)
		return;
	fprintf(stderr, "pc-run-bub: [%s %.1fs] ", json_str(r->workload, "id"),
		(proc_now_ms() - r->started_ms) / 1000.0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void add_error(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_error(struct run *r, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	char *msg = sbuf_take(&b);
	r->errors = jv_array_append(r->errors, jv_string(msg));
	free(msg);
}

/* ---- agent environment (docs/DESIGN.md §5.3) ---- */

struct envv {
	char **v;
	int n;
};

static void env_set(struct envv *e, const char *name, const char *value)
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

static void env_free(struct envv *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
}

static void forward_prefix(struct envv *e, const char *prefix)
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

static void forward(struct envv *e, const char *name)
{
	const char *v = getenv(name);

	if (v && *v)
		env_set(e, name, v);
}

static void agent_env(const struct run *r, struct envv *e)
{
	jv spec = jv_object_get(jv_copy(r->workload), jv_string("evaluation"));
	jv exec = jv_object_get(jv_copy(r->workload), jv_string("execution"));
	char num[32];

	env_set(e, "PATH", "/usr/local/bin:/usr/bin:/bin");
	env_set(e, "HOME", "/tmp");
	env_set(e, "TMPDIR", "/tmp");
	forward(e, "LANG");
	forward(e, "LC_ALL");
	forward_prefix(e, "POWERCONTEXT_BUB_");
	forward_prefix(e, "POWERCONTEXT_CLIENT_");
	env_set(e, "POWERCONTEXT_CLIENT_SERVER_URL", r->client->base_url);
	if (!getenv("POWERCONTEXT_BUB_BASE_URL"))
		env_set(e, "POWERCONTEXT_BUB_BASE_URL", r->client->base_url);
	/* the plugin reads its own token setting from 1.3.0, the client's before */
	if (r->client->token && !getenv("POWERCONTEXT_BUB_API_TOKEN"))
		env_set(e, "POWERCONTEXT_BUB_API_TOKEN", r->client->token);
	if (json_has_true(exec, "model"))
		forward_prefix(e, "BUB_");
	else {
		env_set(e, "BUB_API_KEY", "null");
		env_set(e, "BUB_FALLBACK_MODELS", "null");
	}
	env_set(e, "BUB_HOME", "/tmp/bub-home");
	snprintf(num, sizeof num, "%.0f", json_number_at(exec, "max_steps", 50));
	env_set(e, "BUB_MAX_STEPS", num);
	snprintf(num, sizeof num, "%.0f", json_number_at(exec, "max_tokens", 16384));
	env_set(e, "BUB_MAX_TOKENS", num);
	/* only a Memory evaluation sets capture; other kinds run with its defaults */
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_EVENTS", json_has_true(spec, "capture_events") ? "true" : "false");
	snprintf(num, sizeof num, "%.0f", json_number_at(spec, "checkpoint_every_events", 5));
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_CHECKPOINT_EVERY", num);
	snprintf(num, sizeof num, "%.0f", json_number_at(spec, "max_event_bytes", 8192));
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_MAX_BYTES", num);
	env_set(e, "POWERCONTEXT_BUB_CAPTURE_LOG", "/logs/agent/powercontext-capture.jsonl");
	env_set(e, "POWERCONTEXT_BUB_SCOPE_ID", r->scope);
	const char *proxy = getenv("POWERCONTEXT_E2E_AGENT_PROXY_URL");
	if (proxy && *proxy) {
		static const char *const names[] = { "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy" };
		for (size_t i = 0; i < 4; i++)
			env_set(e, names[i], proxy);
		env_set(e, "NO_PROXY", "127.0.0.1,localhost,host-gateway,powercontext");
		env_set(e, "no_proxy", "127.0.0.1,localhost,host-gateway,powercontext");
	}
	jv_free(spec);
	jv_free(exec);
}

/* ---- files ---- */

static int write_json(const char *dir, const char *name, jv v, struct pc_err *e)
{
	char *text = json_pretty(v);
	int rc = io_write_artifact(dir, name, text, strlen(text), e);

	free(text);
	return rc;
}

static int is_canary(const char *line, size_t n)
{
	char *copy = pc_xmalloc(n + 1);
	int canary;

	memcpy(copy, line, n);
	copy[n] = '\0';
	canary = (strstr(copy, "canary") || strstr(copy, "CANARY")) &&
		 (!strncmp(copy, "<!--", 4) || copy[0] == '#');
	free(copy);
	return canary;
}

/* instruction.md without leading canary lines and surrounding blank lines. */
static char *read_instruction(const char *path, struct pc_err *e)
{
	FILE *f = fopen(path, "rb");
	struct sbuf b = { 0 };
	char chunk[4096];
	size_t n;

	if (!f)
		return pc_fail_errno(e, "%s: cannot open", path), NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		sbuf_addn(&b, chunk, n);
	fclose(f);
	char *text = sbuf_take(&b), *p = text;
	for (;;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!is_canary(p, len) || !nl)
			break;
		p = nl + 1;
	}
	while (*p == '\n' || *p == '\r')
		p++;
	char *out = pc_xstrdup(p);
	for (size_t k = strlen(out); k > 0 && strchr(" \t\r\n", out[k - 1]); k--)
		out[k - 1] = '\0';
	free(text);
	return out;
}

static jv exception_info(const char *type, const char *message)
{
	char now[40];

	harbor_now(now);
	return JV_OBJECT(jv_string("exception_type"), jv_string(type),
			 jv_string("exception_message"), jv_string(message),
			 jv_string("exception_traceback"), jv_null(),
			 jv_string("occurred_at"), jv_string(now));
}

static jv timing(const char *started)
{
	char now[40];

	harbor_now(now);
	return JV_OBJECT(jv_string("started_at"), jv_string(started),
			 jv_string("finished_at"), jv_string(now));
}

/* ---- one step: agent ---- */

struct step_paths {
	char *dir, *agent, *verifier, *workspace, *tests;
};

static char **agent_argv(const struct run *r, const struct step_paths *sp,
			 const char *acp_dir)
{
	char *script = text_fmt("exec %s </run/acp/in >/run/acp/out", r->agent_cmd);
	char *const cmd[] = { "sh", "-c", script, NULL };
	struct sandbox sb = { r->project, sp->agent, sp->verifier, NULL, sp->workspace,
			      getenv("PC_E2E_SANDBOX_BINDS"), acp_dir };
	char **argv = sandbox_argv(&sb, cmd);

	free(script);
	return argv;
}

static void remove_fifos(const char *dir)
{
	char *in = text_fmt("%s/in", dir), *out = text_fmt("%s/out", dir);

	unlink(in);
	unlink(out);
	rmdir(dir);
	free(in);
	free(out);
}

/* ---- one step: the agent's terminals ---- */

struct terminal_host {
	struct run *r;
	const struct step_paths *sp;
	int used;
};

/* env for a terminal command: the agent's, plus what the request names. */
static void terminal_env(struct run *r, jv params, struct envv *env)
{
	jv extra = json_get(params, "env");

	agent_env(r, env);
	if (jv_get_kind(extra) == JV_KIND_ARRAY)
		jv_array_foreach(extra, i, var) {
			(void)i;
			const char *name = json_str(var, "name"), *value = json_str(var, "value");
			if (name && value && *name && !strchr(name, '='))
				env_set(env, name, value);
			jv_free(var);
		}
	jv_free(extra);
}

/* An ACP terminal/create command, in a sandbox of its own with the agent's
 * paths (so what it writes to /workspace is there for the verifier), its
 * output merged into agent/terminal-<n>.txt, which stays as evidence. */
static int run_terminal(void *ctx, jv params, long long deadline_ms, struct acp_terminal_result *out,
			struct pc_err *e)
{
	struct terminal_host *t = ctx;
	jv args = json_get(params, "args");
	const char *cwd = json_str(params, "cwd");
	int n = jv_get_kind(args) == JV_KIND_ARRAY ? jv_array_length(jv_copy(args)) : 0, k = 0;
	char **cmd = pc_xmalloc((size_t)(n + 7) * sizeof *cmd);
	struct envv env = { NULL, 0 };
	struct proc p;

	cmd[k++] = "sh";
	cmd[k++] = "-c";
	cmd[k++] = "cd \"$1\" && shift && exec \"$@\"";
	cmd[k++] = "sh";
	cmd[k++] = (char *)(cwd ? cwd : "/workspace");
	cmd[k++] = (char *)json_str(params, "command");
	for (int i = 0; i < n; i++) {
		jv arg = jv_array_get(jv_copy(args), i);
		cmd[k++] = jv_get_kind(arg) == JV_KIND_STRING ? pc_xstrdup(jv_string_value(arg)) : pc_xstrdup("");
		jv_free(arg);
	}
	cmd[k] = NULL;
	struct sandbox sb = { t->r->project, t->sp->agent, t->sp->verifier, NULL, t->sp->workspace,
			      getenv("PC_E2E_SANDBOX_BINDS"), NULL };
	char **argv = sandbox_argv(&sb, cmd);
	char *log = text_fmt("%s/terminal-%d.txt", t->sp->agent, ++t->used);
	int rc = 0;
	terminal_env(t->r, params, &env);
	if (proc_spawn(&p, argv, env.v, NULL, log, 0, e) == 0) {
		long long left = deadline_ms - proc_now_ms();
		long timeout_ms = deadline_ms < 0 ? -1 : left > 0 ? (long)left
								  : 0;
		out->signalled = !proc_wait(&p, timeout_ms);
		proc_kill(&p, out->signalled ? 2000 : 0);
		out->code = WIFEXITED(p.status) ? WEXITSTATUS(p.status) : 128 + WTERMSIG(p.status);
		rc = io_read_text(log, &out->output, &out->len, e);
	} else
		rc = -1;
	for (int i = 6; i < k; i++)
		free(cmd[i]);
	free(cmd);
	free(log);
	env_free(&env);
	sandbox_argv_free(argv);
	jv_free(args);
	return rc;
}

/* Speak ACP for one prompt; the summary records what happened either way. */
static int converse(struct run *r, struct acp_client *c, const char *instruction,
		    jv *init, jv *session, jv *response, struct pc_err *e)
{
	/* clang-format off */
	jv params = JV_OBJECT(
		jv_string("protocolVersion"), jv_number(ACP_PROTOCOL_VERSION),
		jv_string("clientCapabilities"),
		JV_OBJECT(jv_string("fs"), JV_OBJECT(jv_string("readTextFile"), jv_false(),
						     jv_string("writeTextFile"), jv_false()),
			  jv_string("terminal"), jv_bool(ACP_SERVES_TERMINALS(c))),
		jv_string("clientInfo"), JV_OBJECT(jv_string("name"), jv_string("pc-run-bub"),
						   jv_string("version"), jv_string(PC_VERSION)));
	/* clang-format on */

	if (acp_request(c, "initialize", params, init, e) != 0)
		return -1;
	if (jv_get_kind(r->agent_info) == JV_KIND_NULL && jv_get_kind(*init) == JV_KIND_OBJECT) {
		jv info = jv_object_get(jv_copy(*init), jv_string("agentInfo"));
		jv version = jv_object_get(jv_copy(*init), jv_string("protocolVersion"));
		r->protocol = jv_get_kind(version) == JV_KIND_NUMBER ? jv_number_value(version) : 0;
		jv_free(version);
		jv_free(r->agent_info);
		r->agent_info = jv_get_kind(info) == JV_KIND_OBJECT ? info : (jv_free(info), jv_null());
	}
	/* clang-format off */
	if (acp_request(c, "session/new", JV_OBJECT(jv_string("cwd"), jv_string("/workspace"),
						    jv_string("mcpServers"), jv_array()),
			session, e) != 0)
		return -1;
	/* clang-format on */
	jv sid = jv_get_kind(*session) == JV_KIND_OBJECT
			 ? jv_object_get(jv_copy(*session), jv_string("sessionId"))
			 : jv_invalid();
	if (jv_get_kind(sid) != JV_KIND_STRING) {
		jv_free(sid);
		return pc_fail(e, "session/new returned no sessionId");
	}
	/* clang-format off */
	return acp_request(c, "session/prompt",
			   JV_OBJECT(jv_string("sessionId"), sid,
				     jv_string("prompt"), JV_ARRAY(JV_OBJECT(jv_string("type"), jv_string("text"),
									     jv_string("text"), jv_string(instruction)))),
			   response, e);
	/* clang-format on */
}

static jv run_agent(struct run *r, const struct step_paths *sp, const char *instruction,
		    double timeout_s, jv *exception)
{
	struct acp_client c;
	struct envv env = { NULL, 0 };
	struct pc_err e;
	const char *tmp = getenv("TMPDIR");
	char *acp_dir = text_fmt("%s/pc-acp-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	char **argv;
	char *events = io_join(sp->agent, "acp-events.jsonl");
	char *stderr_path = io_join(sp->agent, "acp.txt");
	jv init = jv_null(), session = jv_null(), response = jv_null();
	const char *etype = NULL;
	int rc;

	agent_env(r, &env);
	/* if mkdtemp fails, creating the FIFOs in it fails and says so */
	if (!mkdtemp(acp_dir))
		acp_dir[strlen(acp_dir) - 6] = '\0';
	argv = agent_argv(r, sp, acp_dir);
	rc = acp_start(&c, argv, env.v, stderr_path, events, acp_dir, &e);
	struct terminal_host terminals = { r, sp, 0 };
	struct acp_terminal_host host = { run_terminal, &terminals };
	c.terminal_host = &host;
	if (rc == 0) {
		c.deadline_ms = timeout_s > 0 ? proc_now_ms() + (long long)(timeout_s * 1000) : -1;
		rc = converse(r, &c, instruction, &init, &session, &response, &e);
		if (rc != 0)
			etype = strstr(e.msg, "timed out") ? "AgentTimeoutError" : "NonZeroAgentExitCodeError";
	} else
		etype = "NonZeroAgentExitCodeError";
	if (etype)
		*exception = exception_info(etype, e.msg);
	const char *sid = json_str(session, "sessionId");
	jv traj = harbor_trajectory(sid, jv_copy(r->agent_info), instruction, jv_copy(c.updates),
				    c.permissions_requested);
	int had_updates = jv_array_length(jv_copy(c.updates)) > 0;
	jv summary = harbor_acp_summary(instruction, init, session, response, etype,
					etype ? e.msg : NULL, c.permissions_requested);
	acp_stop(&c, 2000);
	struct pc_err we;
	if (had_updates && write_json(sp->agent, "trajectory.json", traj, &we) != 0)
		add_error(r, "%s", we.msg);
	else if (!had_updates)
		jv_free(traj);
	if (write_json(sp->agent, "acp-summary.json", jv_copy(summary), &we) != 0)
		add_error(r, "%s", we.msg);
	remove_fifos(acp_dir);
	env_free(&env);
	sandbox_argv_free(argv);
	free(acp_dir);
	free(events);
	free(stderr_path);
	return JV_OBJECT(jv_string("n_input_tokens"), jv_null(), jv_string("n_cache_tokens"), jv_null(),
			 jv_string("n_output_tokens"), jv_null(), jv_string("cost_usd"), jv_null(),
			 jv_string("rollout_details"), jv_null(),
			 jv_string("metadata"), JV_OBJECT(jv_string("acp"), summary));
}

/* ---- one step: verifier ---- */

static int run_cmd(char *const argv[], const char *log, long timeout_ms, int *status,
		   struct pc_err *e)
{
	struct proc p;

	if (proc_spawn(&p, argv, NULL, NULL, log, 0, e) != 0)
		return -1;
	if (!proc_wait(&p, timeout_ms)) {
		proc_kill(&p, 2000);
		return pc_fail(e, "%s timed out after %.0f seconds", argv[0], timeout_ms / 1000.0);
	}
	proc_kill(&p, 0);
	*status = p.status;
	return 0;
}

/* Harbor's /tests: the task's tests/, then the step's tests/ over it. */
static int stage_tests(const char *task_dir, const char *step, const char *into,
		       struct pc_err *e)
{
	char *task_tests = text_fmt("%s/tests/.", task_dir);
	char *step_tests = text_fmt("%s/steps/%s/tests/.", task_dir, step);
	const char *sources[] = { task_tests, step_tests };
	int rc = io_mkdirs(into, e), status;

	for (int i = 0; rc == 0 && i < 2; i++) {
		struct stat st;
		if (stat(sources[i], &st) != 0)
			continue;
		char *const cp[] = { "cp", "-RL", (char *)sources[i], (char *)into, NULL };
		rc = run_cmd(cp, "/dev/null", 60000, &status, e);
		if (rc == 0 && status != 0)
			rc = pc_fail(e, "cannot copy %s", sources[i]);
	}
	char *script = io_join(into, "test.sh");
	if (rc == 0 && chmod(script, 0755) != 0)
		rc = pc_fail_errno(e, "step %s has no tests/test.sh", step);
	free(script);
	free(task_tests);
	free(step_tests);
	return rc;
}

static jv run_verifier(struct run *r, const char *task_dir, const char *step,
		       struct step_paths *sp, double timeout_s, jv *exception)
{
	struct pc_err e;
	char *const cmd[] = { "sh", "-c", "(/tests/test.sh) > /logs/verifier/test-stdout.txt 2>&1", NULL };
	int status;
	jv rewards = jv_null();
	const char *type = NULL;

	if (stage_tests(task_dir, step, sp->tests, &e) != 0)
		type = "AddTestsDirError";
	else {
		struct sandbox sb = { r->project, sp->agent, sp->verifier, sp->tests,
				      sp->workspace, getenv("PC_E2E_SANDBOX_BINDS"), NULL };
		char **argv = sandbox_argv(&sb, cmd);
		/* the script's exit code is ignored, as Harbor ignores it */
		if (run_cmd(argv, "/dev/null", (long)(timeout_s * 1000), &status, &e) != 0)
			type = strstr(e.msg, "timed out") ? "TimeoutError" : "VerifierOutputParseError";
		else if (harbor_read_rewards(sp->verifier, &rewards, &type, &e) != 0)
			rewards = jv_null();
		sandbox_argv_free(argv);
	}
	if (type)
		*exception = exception_info(type, e.msg);
	return jv_get_kind(rewards) == JV_KIND_NULL ? jv_null()
						    : JV_OBJECT(jv_string("rewards"), rewards);
}

/* ---- the trial ---- */

static double agent_timeout(const struct run *r, jv task_toml, jv step)
{
	if (r->opt->agent_timeout > 0)
		return r->opt->agent_timeout;
	return json_number_at(step, "agent.timeout_sec", json_number_at(task_toml, "agent.timeout_sec", 0));
}

static void step_paths_init(struct step_paths *sp, const struct run *r, const char *step)
{
	sp->dir = text_fmt("%s/steps/%s", r->trial_dir, step);
	sp->agent = io_join(sp->dir, "agent");
	sp->verifier = io_join(sp->dir, "verifier");
	sp->workspace = io_join(r->trial_dir, "workspace");
	sp->tests = text_fmt("%s/.tests/%s", r->job_dir, step);
}

static void step_paths_free(struct step_paths *sp)
{
	free(sp->dir);
	free(sp->agent);
	free(sp->verifier);
	free(sp->workspace);
	free(sp->tests);
}

static jv run_step(struct run *r, const char *task_dir, jv task_toml, jv step, int *stop)
{
	const char *name = json_str(step, "name");
	struct step_paths sp;
	struct pc_err e;
	jv exception = jv_null(), agent_result = jv_null(), verifier_result = jv_null();
	char started[40], vstarted[40];

	step_paths_init(&sp, r, name);
	harbor_now(started);
	progress(r, "step %s", name);
	char *ipath = text_fmt("%s/steps/%s/instruction.md", task_dir, name);
	char *instruction = NULL;
	if (io_mkdirs(sp.agent, &e) != 0 || io_mkdirs(sp.verifier, &e) != 0 ||
	    io_mkdirs(sp.workspace, &e) != 0 || !(instruction = read_instruction(ipath, &e)))
		exception = exception_info("RuntimeError", e.msg);
	else
		agent_result = run_agent(r, &sp, instruction, agent_timeout(r, task_toml, step), &exception);
	jv agent_timing = timing(started);
	harbor_now(vstarted);
	if (instruction) {
		jv verr = jv_null();
		verifier_result = run_verifier(r, task_dir, name, &sp,
					       json_number_at(step, "verifier.timeout_sec",
							      json_number_at(task_toml, "verifier.timeout_sec", 600)),
					       &verr);
		if (jv_get_kind(exception) == JV_KIND_NULL)
			exception = verr;
		else
			jv_free(verr);
	}
	if (jv_get_kind(exception) != JV_KIND_NULL) {
		add_error(r, "step %s: %s: %s", name, json_str(exception, "exception_type"),
			  json_str(exception, "exception_message"));
		*stop = jv_get_kind(verifier_result) == JV_KIND_NULL;
	}
	free(instruction);
	free(ipath);
	step_paths_free(&sp);
	return JV_OBJECT(jv_string("step_name"), jv_string(name),
			 jv_string("agent_result"), agent_result,
			 jv_string("verifier_result"), verifier_result,
			 jv_string("exception_info"), exception,
			 jv_string("agent_execution"), agent_timing,
			 jv_string("verifier"), timing(vstarted));
}

static jv trial_config(const struct run *r, const char *task_dir)
{
	/* clang-format off */
	return JV_OBJECT(
		jv_string("task"), JV_OBJECT(jv_string("path"), jv_string(task_dir)),
		jv_string("trial_name"), jv_string(r->trial_name),
		jv_string("trials_dir"), jv_string(r->job_dir),
		jv_string("agent"), JV_OBJECT(jv_string("name"), jv_string("pc-e2e-local-acp"),
					      jv_string("command"), jv_string(r->agent_cmd)),
		jv_string("environment"), JV_OBJECT(jv_string("type"), jv_string("pc-e2e-local-bwrap")),
		jv_string("job_id"), jv_string(r->run_id));
	/* clang-format on */
}

/* Harbor's min_reward gate after a step (result and min borrowed): a number
 * gates the "reward" reward, an object each of its keys; a missing reward
 * is below any minimum. */
static int below_min_reward(jv result, jv min)
{
	jv rewards = json_at(result, "verifier_result.rewards"), gate;
	int below = 0;

	if (jv_get_kind(min) == JV_KIND_NUMBER)
		gate = JV_OBJECT(jv_string("reward"), jv_copy(min));
	else if (jv_get_kind(min) == JV_KIND_OBJECT)
		gate = jv_copy(min);
	else
		gate = jv_object();
	jv_object_foreach(gate, key, floor) {
		jv got = json_get(rewards, jv_string_value(key));
		if (jv_get_kind(floor) == JV_KIND_NUMBER &&
		    (jv_get_kind(got) != JV_KIND_NUMBER || jv_number_value(got) < jv_number_value(floor)))
			below = 1;
		jv_free(got);
		jv_free(key);
		jv_free(floor);
	}
	jv_free(gate);
	jv_free(rewards);
	return below;
}

/* Run every step and write the trial and job files; rc -1 only when the
 * task itself could not be read.  task_checksum is computed from the task
 * directory as it is run, never copied from the selection, so a task changed
 * after pc-select fails task_provenance_matches. */
static int run_trial(struct run *r, const char *task_dir)
{
	char checksum[SHA256_HEX_LEN + 1];
	struct pc_err e;
	char *toml_path = io_join(task_dir, "task.toml");
	jv task_toml, steps, results = jv_array();
	char started[40], job_id[37], trial_id[37];
	int stop = 0;

	harbor_now(started);
	harbor_uuid(job_id);
	harbor_uuid(trial_id);
	if (harbor_task_checksum(task_dir, checksum, &e) != 0 || toml_load(toml_path, &task_toml, &e) != 0) {
		free(toml_path);
		add_error(r, "%s", e.msg);
		return -1;
	}
	free(toml_path);
	if (write_json(r->trial_dir, "config.json", trial_config(r, task_dir), &e) != 0)
		add_error(r, "%s", e.msg);
	steps = jv_object_get(jv_copy(task_toml), jv_string("steps"));
	if (jv_get_kind(steps) != JV_KIND_ARRAY || jv_array_length(jv_copy(steps)) == 0) {
		add_error(r, "%s: task.toml declares no [[steps]]; the local runner runs multi-step tasks only", task_dir);
		jv_free(steps);
		steps = jv_array();
	}
	jv_array_foreach(steps, i, step) {
		(void)i;
		if (!stop && json_str(step, "name")) {
			jv result = run_step(r, task_dir, task_toml, step, &stop);
			jv min = r->gated ? jv_number(1) : json_get(step, "min_reward");
			if (!stop && below_min_reward(result, min))
				stop = r->gate_closed = 1;
			jv_free(min);
			results = jv_array_append(results, result);
		}
		jv_free(step);
	}
	jv_free(steps);
	const char *strategy = json_str(task_toml, "multi_step_reward_strategy");
	jv rewards = harbor_trial_rewards(jv_copy(results), strategy ? strategy : "mean");
	r->rewards = jv_copy(rewards);
	char *uri = harbor_file_uri(r->trial_dir);
	const char *slash = strrchr(task_dir, '/');
	jv dataset = jv_getpath(jv_copy(r->workload), JV_ARRAY(jv_string("dataset"), jv_string("path")));
	const char *dslash = strrchr(jv_string_value(dataset), '/');
	jv result = JV_OBJECT(
		jv_string("id"), jv_string(trial_id),
		jv_string("task_name"), jv_string(slash ? slash + 1 : task_dir),
		jv_string("trial_name"), jv_string(r->trial_name),
		jv_string("trial_uri"), jv_string(uri),
		jv_string("task_id"), JV_OBJECT(jv_string("path"), jv_string(task_dir)),
		jv_string("source"), jv_string(dslash ? dslash + 1 : jv_string_value(dataset)),
		jv_string("task_checksum"), jv_string(checksum),
		jv_string("config"), trial_config(r, task_dir));
	result = jv_object_set(result, jv_string("agent_info"),
			       JV_OBJECT(jv_string("name"), jv_string("pc-e2e-local-acp"),
					 jv_string("version"), jv_string(PC_VERSION),
					 jv_string("model_info"), jv_null()));
	result = jv_object_set(result, jv_string("agent_result"), jv_null());
	result = jv_object_set(result, jv_string("verifier_result"),
			       jv_get_kind(rewards) == JV_KIND_NULL ? jv_null()
								    : JV_OBJECT(jv_string("rewards"), rewards));
	result = jv_object_set(result, jv_string("exception_info"), jv_null());
	result = jv_object_set(result, jv_string("started_at"), jv_string(started));
	char finished[40];
	harbor_now(finished);
	result = jv_object_set(result, jv_string("finished_at"), jv_string(finished));
	result = jv_object_set(result, jv_string("environment_setup"), timing(started));
	result = jv_object_set(result, jv_string("agent_setup"), timing(started));
	result = jv_object_set(result, jv_string("agent_execution"), jv_null());
	result = jv_object_set(result, jv_string("verifier"), jv_null());
	result = jv_object_set(result, jv_string("step_results"), results);
	if (write_json(r->trial_dir, "result.json", result, &e) != 0)
		add_error(r, "%s", e.msg);
	jv job = JV_OBJECT(jv_string("id"), jv_string(job_id), jv_string("started_at"), jv_string(started),
			   jv_string("updated_at"), jv_string(finished), jv_string("finished_at"), jv_string(finished),
			   jv_string("n_total_trials"), jv_number(1));
	if (write_json(r->job_dir, "result.json", job, &e) != 0)
		add_error(r, "%s", e.msg);
	free(uri);
	jv_free(dataset);
	jv_free(task_toml);
	return 0;
}

/* ---- one workload ---- */

/* The PowerContext under test as replays name it: what the provisioning
 * said (a release's version, a checkout's commit), else the version the
 * Server reports. */
static char *commit_id(const struct pc_api *api)
{
	const char *set = getenv("POWERCONTEXT_E2E_COMMIT");

	if (set && *set)
		return pc_xstrdup(set);
	return pc_xstrdup(api ? api->version : "unknown");
}

/* What really ran: the recorded identity of the project's Bub when the
 * agent confirmed it is Bub, else what the agent said in initialize. */
static jv adapter_versions(const struct run *r)
{
	const char *name = json_str(r->agent_info, "name");
	const char *version = json_str(r->agent_info, "version");
	const char *recorded = json_str(r->agent_adapter, "adapter_version");
	const char *protocol = json_str(r->agent_adapter, "adapter_protocol_version");

	if (name && !strcmp(name, "bub") && recorded && protocol)
		return JV_ARRAY(jv_string(recorded), jv_string(protocol));
	char *adapter = name ? text_fmt("%s %s", name, version ? version : "unknown")
			     : text_fmt("unknown (no agent answered initialize)");
	char *acp = text_fmt("ACP %g", r->protocol);
	jv out = JV_ARRAY(jv_string(adapter), jv_string(acp));

	free(adapter);
	free(acp);
	return out;
}

/* Whether a prepared response (borrowed) is ready context holding one of
 * the spec's forbidden fragments, compared as the evaluator compares them. */
static int forbidden_context_in(jv response, jv spec)
{
	jv forbidden = json_at(spec, "forbidden_context");
	jv content = json_at(response, "content");
	int matched = 0;

	const char *status = json_str(response, "status");

	if (status && !strcmp(status, "ready") && jv_get_kind(content) == JV_KIND_STRING)
		matched = text_fragments_found(TEXT_FOLD_NFC, content, forbidden) > 0;
	jv_free(content);
	jv_free(forbidden);
	return matched;
}

/* Every probe through prepare_context.  Context that matched a forbidden
 * fragment is recorded as matched and blanked: the wrong answer is the
 * finding, and keeping its text would only spread it. */
static jv collect_probes(struct run *r)
{
	jv specs = jv_getpath(jv_copy(r->workload), JV_ARRAY(jv_string("evaluation"), jv_string("probes")));
	jv out = jv_array();
	struct pc_err e;

	jv_array_foreach(specs, i, spec) {
		(void)i;
		jv response = jv_null(), error = jv_null(), matched = jv_null();
		if (pc_prepare(r->client, r->scope, json_str(spec, "query"), &response, &e) != 0) {
			add_error(r, "probe %s: %s", json_str(spec, "id"), e.msg);
			error = jv_string(e.msg);
		} else if (jv_get_kind(response) == JV_KIND_OBJECT) {
			matched = jv_bool(forbidden_context_in(response, spec));
			if (jv_get_kind(matched) == JV_KIND_TRUE)
				response = jv_object_set(response, jv_string("content"), jv_string(""));
		}
		out = jv_array_append(out, JV_OBJECT(jv_string("id"), jv_object_get(jv_copy(spec), jv_string("id")),
						     jv_string("query"), jv_object_get(jv_copy(spec), jv_string("query")),
						     jv_string("response"), response, jv_string("error"), error,
						     jv_string("forbidden_context_matched"), matched));
		jv_free(spec);
	}
	jv_free(specs);
	return out;
}

/* Readiness, baseline, execution; what failed is in r->errors.  Outcome
 * workloads need no Memory, so they touch the Server only through the agent. */
static void execute(struct run *r, int memory, jv *readiness, jv *before)
{
	struct pc_err e;
	jv task = jv_object_get(jv_copy(r->selection), jv_string("task"));
	const char *dir = json_str(task, "dir");

	if (memory && pc_ready(r->client, readiness, &e) != 0)
		add_error(r, "readiness: %s", e.msg);
	else if (memory && pc_memory_snapshot(r->client, r->api, r->scope, before, &e) != 0)
		add_error(r, "memory baseline: %s", e.msg);
	else if (!dir)
		add_error(r, "workload %s pins a registry dataset: only the harbor runner can fetch it",
			  json_str(r->workload, "id"));
	else if (io_mkdirs(r->trial_dir, &e) != 0)
		add_error(r, "%s", e.msg);
	else
		run_trial(r, dir);
	jv_free(task);
}

/* Agents, verifiers and this runner all write under the job directory;
 * none of it may keep a secret. */
static void scrub(struct run *r)
{
	jv files = io_find_files(r->job_dir, NULL);
	struct pc_err e;

	jv_array_foreach(files, i, rel) {
		(void)i;
		char *path = io_join(r->job_dir, jv_string_value(rel));
		if (redact_file(r->red, path, &e) != 0)
			add_error(r, "%s", e.msg);
		free(path);
		jv_free(rel);
	}
	jv_free(files);
}

/* An outcome workload whose trial scored below 1 failed, errors or not. */
static int reward_failed(const struct run *r)
{
	jv reward = json_get(r->rewards, "reward");
	int failed = jv_get_kind(reward) == JV_KIND_NUMBER && jv_number_value(reward) < 1;

	jv_free(reward);
	return failed;
}

static void new_run_id(struct run *r)
{
	char hex[13];

	harbor_random_hex(hex, 12);
	snprintf(r->run_id, sizeof r->run_id, "%s-%s", json_str(r->workload, "id"), hex);
	r->scope = text_fmt("e2e:%s", r->run_id);
}

/* The workload's own empty scope.  Releases before 0.2.0 take any name;
 * later ones choose the id of a scope created first, named the way
 * PowerContext's own harness names its workloads' scopes.  A Server that
 * cannot say what it is fails a Memory workload here; an outcome workload
 * does not depend on the Server, so it runs under the name it would have
 * had before 0.2.0. */
static int open_scope(struct run *r, int memory)
{
	const char *id = json_str(r->workload, "id");
	struct pc_err e;
	char *scope = NULL;

	if (!r->api && memory) {
		add_error(r, "%s", r->api_error);
		return -1;
	}
	if (!r->api || !r->api->creates_scopes)
		return 0;
	char *title = text_fmt("E2E workload: %s", id);
	char *summary = text_fmt("Isolated Scope for the %s workload in E2E run %s.", id, r->run_id);
	char *key = text_fmt("e2e:%s:%s", r->run_id, id);
	int rc = pc_create_scope(r->client, title, summary, key, &scope, &e);
	if (rc == 0) {
		free(r->scope);
		r->scope = scope;
	} else
		add_error(r, "creating the workload's scope: %s", e.msg);
	free(title);
	free(summary);
	free(key);
	return rc;
}

/* The record of one workload; status, times and the Server's answers
 * (consumed) are what the run found, the rest comes from r. */
static jv run_record(const struct run *r, const char *commit, const char *status,
		     const char *started, jv powercontext)
{
	char finished[40];
	jv versions = adapter_versions(r);
	jv exec = jv_getpath(jv_copy(r->workload), JV_ARRAY(jv_string("execution"), jv_string("model")));
	const char *model = getenv("BUB_MODEL"), *database = getenv("POWERCONTEXT_E2E_DATABASE");

	harbor_now(finished);
	jv record = JV_OBJECT(
		jv_string("schema"), jv_string(SCHEMA_RUN),
		jv_string("run_id"), jv_string(r->run_id),
		jv_string("scope_id"), jv_string(r->scope),
		jv_string("runner"), jv_string("local"),
		jv_string("workload"), jv_copy(r->workload),
		jv_string("manifest"), json_get(r->selection, "manifest"),
		jv_string("task"), json_get(r->selection, "task"),
		jv_string("job_dir"), r->job_dir ? jv_string(r->job_dir) : jv_null(),
		jv_string("trial_dir"), r->trial_dir ? jv_string(r->trial_dir) : jv_null());
	/* clang-format off */
	record = jv_object_set(record, jv_string("environment"), JV_OBJECT(
		jv_string("commit"), jv_string(commit),
		jv_string("database"), jv_string(database ? database : "sqlite"),
		jv_string("adapter"), json_at(r->workload, "execution.type"),
		jv_string("adapter_version"), jv_array_get(jv_copy(versions), 0),
		jv_string("adapter_protocol_version"), jv_array_get(jv_copy(versions), 1),
		jv_string("agent_model"), jv_get_kind(exec) == JV_KIND_TRUE && model ? jv_string(model) : jv_null(),
		jv_string("agent_settings"), jv_object(),
		jv_string("started_at"), jv_string(started),
		jv_string("finished_at"), jv_string(finished)));
	record = jv_object_set(record, jv_string("agent"), JV_OBJECT(
		jv_string("command"), jv_string(r->agent_cmd), jv_string("info"), jv_copy(r->agent_info)));
	/* clang-format on */
	record = jv_object_set(record, jv_string("failure_policy"), jv_string(r->opt->policy));
	record = jv_object_set(record, jv_string("status"), jv_string(status));
	record = jv_object_set(record, jv_string("errors"), jv_copy(r->errors));
	record = jv_object_set(record, jv_string("powercontext"), powercontext);
	jv_free(versions);
	jv_free(exec);
	return record;
}

static jv server_answers(const struct run *r, jv readiness, jv before, jv after, jv probes)
{
	return JV_OBJECT(jv_string("server_url"), jv_string(r->client->base_url),
			 jv_string("server_version"), r->api ? jv_string(r->api->version) : jv_null(),
			 jv_string("readiness"), readiness,
			 jv_string("memory_before"), before,
			 jv_string("memory_after"), after,
			 jv_string("probes"), probes);
}

static jv run_workload(struct run *r, const char *outdir, const char *commit)
{
	const char *id = json_str(r->workload, "id");
	jv evaluation = json_get(r->workload, "evaluation");
	int memory = docs_evaluation_kind(evaluation) == EVALUATION_MEMORY;
	char started[40];
	jv readiness = jv_null(), before = jv_null(), after = jv_null(), probes = jv_array();
	struct pc_err e;

	jv_free(evaluation);
	new_run_id(r);
	r->job_dir = text_fmt("%s/%s/harbor-jobs/%s", outdir, id, r->run_id);
	r->trial_name = harbor_trial_name(id);
	r->trial_dir = io_join(r->job_dir, r->trial_name);
	r->errors = jv_array();
	r->agent_info = jv_null();
	r->rewards = jv_null();
	r->started_ms = proc_now_ms();
	harbor_now(started);
	progress(r, "run %s", r->run_id);
	if (open_scope(r, memory) == 0)
		execute(r, memory, &readiness, &before);
	scrub(r);
	if (jv_get_kind(readiness) != JV_KIND_NULL) {
		if (pc_memory_snapshot(r->client, r->api, r->scope, &after, &e) != 0)
			add_error(r, "final Memory: %s", e.msg), after = jv_null();
		else {
			jv_free(probes);
			probes = collect_probes(r);
		}
	}
	int failed = jv_array_length(jv_copy(r->errors)) > 0 || (!memory && reward_failed(r));
	const char *status = failed ? "failed" : "completed";
	jv record = run_record(r, commit, status, started, server_answers(r, readiness, before, after, probes));
	progress(r, "%s", status);
	jv_free(r->errors);
	jv_free(r->rewards);
	jv_free(r->agent_info);
	free(r->job_dir);
	free(r->trial_dir);
	free(r->trial_name);
	free(r->scope);
	return record;
}

/* A workload its fail-fast group stopped before: nothing ran, nothing was
 * asked of the Server, and the record says so. */
static jv skipped_workload(struct run *r, const char *commit)
{
	char started[40];

	new_run_id(r);
	r->started_ms = proc_now_ms();
	r->job_dir = r->trial_dir = NULL;
	r->errors = jv_array();
	r->agent_info = jv_null();
	harbor_now(started);
	progress(r, "skipped: an earlier workload of its batch failed under fail-fast");
	jv record = run_record(r, commit, "skipped", started,
			       server_answers(r, jv_null(), jv_null(), jv_null(), jv_array()));
	jv_free(r->errors);
	jv_free(r->agent_info);
	free(r->scope);
	return record;
}

/* The workload's batch:<name> group (borrowed from workload), or NULL. */
static const char *batch_of(jv workload)
{
	jv categories = json_get(workload, "categories");
	const char *batch = NULL;

	jv_array_foreach(categories, i, c) {
		(void)i;
		/* the string lives on in workload */
		if (!batch && !strncmp(jv_string_value(c), "batch:", 6))
			batch = jv_string_value(c) + 6;
		jv_free(c);
	}
	jv_free(categories);
	return batch;
}

/* ---- main ---- */

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "runner", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "agent", required_argument, NULL, 'a' },
		{ "agent-timeout", required_argument, NULL, 't' },
		{ "failure-policy", required_argument, NULL, 'f' },
		STAGE_STANDARD_OPTIONS,
	};
	const struct stage_cli cli = { "pc-run-bub", usage, "", longs, argc, argv };
	char *end;
	int c;

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'r': o->runner = optarg; break;
		case 'o': o->output = optarg; break;
		case 'a': o->agent = optarg; break;
		case 'f': o->policy = optarg; break;
		default:
			o->agent_timeout = strtod(optarg, &end);
			/* strtod also reads nan, inf and hex: none is a number of seconds */
			if (*end || end == optarg || !(o->agent_timeout > 0 && o->agent_timeout < 1e9) ||
			    strpbrk(optarg, "xXnNiI"))
				return stage_usage_error("pc-run-bub", usage, "--agent-timeout must be a positive number of seconds"), STAGE_USAGE;
		}
	}
	if (c != STAGE_END)
		return c;
	if (strcmp(o->runner, "local") && strcmp(o->runner, "harbor"))
		return stage_usage_error("pc-run-bub", usage, "--runner must be local or harbor"), STAGE_USAGE;
	return stage_check_policy("pc-run-bub", usage, o->policy);
}

/* The repository holding this binary: its .tools/ holds the provisioned
 * Bub and Python, which the sandbox must see. */
static char *find_project(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n > 0) {
		exe[n] = '\0';
		for (char *slash; (slash = strrchr(exe, '/')) && slash != exe;) {
			*slash = '\0';
			char *probe = text_fmt("%s/pipelines/pc-powercontext", exe);
			int found = access(probe, R_OK) == 0;
			free(probe);
			if (found)
				return pc_xstrdup(exe);
		}
	}
	return getcwd(exe, sizeof exe) ? pc_xstrdup(exe) : pc_xstrdup(".");
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

/* The agent to run and, for a provisioned Bub, the adapter identity its
 * provisioning recorded (pipelines/pc-powercontext bub). */
struct agent {
	char *command;
	jv adapter; /* {adapter_version, adapter_protocol_version} or null */
};

/* The command pc-e2e-adapter.json names, its first word relative to dir
 * (bub-acp-server 0.0.x is a command of its own, later ones `bub acp`). */
static int provisioned_bub(const char *dir, struct agent *a, struct pc_err *e)
{
	char *identity = io_join(dir, "pc-e2e-adapter.json");
	struct sbuf cmd = { 0 };
	int rc = json_read_file(identity, &a->adapter, e) != 0 ? pc_wrap(e, "POWERCONTEXT_E2E_BUB=%s: ", dir) : 0;
	jv argv = rc == 0 ? json_get(a->adapter, "command") : jv_invalid();

	if (rc == 0 && (jv_get_kind(argv) != JV_KIND_ARRAY || jv_array_length(jv_copy(argv)) == 0))
		rc = pc_fail(e, "POWERCONTEXT_E2E_BUB=%s: %s names no command", dir, identity);
	if (rc == 0)
		jv_array_foreach(argv, i, word) {
			char *w = i == 0 ? io_join(dir, jv_string_value(word)) : pc_xstrdup(jv_string_value(word));
			if (i == 0 && access(w, X_OK) != 0 && rc == 0)
				rc = pc_fail_errno(e, "POWERCONTEXT_E2E_BUB=%s: no %s", dir, w);
			sbuf_addf(&cmd, "%s'%s'", i ? " " : "", w);
			free(w);
			jv_free(word);
		}
	char *command = sbuf_take(&cmd);
	if (rc == 0)
		a->command = command;
	else
		free(command);
	jv_free(argv);
	free(identity);
	return rc;
}

/* --agent, $PC_E2E_AGENT, the Bub in $POWERCONTEXT_E2E_BUB, else
 * bub-acp-server on PATH. */
static int resolve_agent(const struct options *o, struct agent *a, struct pc_err *e)
{
	const char *env = getenv("PC_E2E_AGENT"), *bub = getenv("POWERCONTEXT_E2E_BUB");

	a->command = NULL;
	a->adapter = jv_null();
	if (o->agent || (env && *env)) {
		a->command = pc_xstrdup(o->agent ? o->agent : env);
		return 0;
	}
	if (bub && *bub)
		return provisioned_bub(bub, a, e);
	if (on_path("bub-acp-server")) {
		a->command = pc_xstrdup("bub-acp-server");
		return 0;
	}
	return pc_fail(e, "no agent: set POWERCONTEXT_E2E_BUB to the Bub that pipelines/pc-powercontext bub "
			  "provides, put bub-acp-server on PATH, or pass --agent");
}

static int read_selections(jv *out, const struct redactor *red)
{
	struct stage_input in;
	jv sel;

	*out = jv_array();
	stage_input_open(&in, "pc-run-bub", red, SCHEMA_SELECTION, &doc_selection);
	while (stage_input_next(&in, &sel))
		*out = jv_array_append(*out, sel);
	stage_input_close(&in);
	return in.status;
}

/* Paired workloads compare a run without PowerContext with one with it: a
 * single run of each cannot stand for that, so refuse before anything runs. */
static int check_unpaired(jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };

	jv_array_foreach(selections, i, sel) {
		(void)i;
		jv evaluation = json_at(sel, "workload.evaluation"), id = json_at(sel, "workload.id");
		if (docs_evaluation_kind(evaluation) == EVALUATION_PAIRED)
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", jv_string_value(id));
		jv_free(evaluation);
		jv_free(id);
		jv_free(sel);
	}
	char *list = sbuf_take(&names);
	/* clang-format off */
	int rc = *list ? pc_fail(e, "these workloads are OFF/ON paired comparisons and need a paired run "
				 "(one arm without PowerContext, one with it), which pc-run-bub does not do: %s", list) : 0;
	/* clang-format on */
	free(list);
	return rc;
}

/* Model-backed workloads need BUB_MODEL: refuse before anything runs. */
static int check_models(jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };
	const char *model = getenv("BUB_MODEL");

	jv_array_foreach(selections, i, sel) {
		(void)i;
		jv w = jv_object_get(sel, jv_string("workload"));
		jv m = jv_getpath(jv_copy(w), JV_ARRAY(jv_string("execution"), jv_string("model")));
		if (jv_get_kind(m) == JV_KIND_TRUE && !(model && *model))
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", json_str(w, "id"));
		jv_free(m);
		jv_free(w);
	}
	char *list = sbuf_take(&names);
	int rc = *list ? pc_fail(e, "BUB_MODEL is not set, and these workloads are model-backed: %s", list) : 0;
	free(list);
	return rc;
}

static char *output_dir(const struct options *o, struct pc_err *e)
{
	char real[PATH_MAX];

	/* absolute, so records stay valid wherever pc-normalize runs */
	if (o->output) {
		if (io_mkdirs(o->output, e) != 0)
			return NULL;
		if (!realpath(o->output, real))
			return pc_fail_errno(e, "%s", o->output), NULL;
		return pc_xstrdup(real);
	}
	const char *tmp = getenv("TMPDIR");
	char *dir = text_fmt("%s/pc-e2e-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		pc_fail_errno(e, "cannot create %s", dir);
		free(dir);
		return NULL;
	}
	fprintf(stderr, "pc-run-bub: writing Harbor job directories under %s\n", dir);
	return dir;
}

static int run_all(const struct options *o, const struct redactor *red)
{
	struct pc_client client;
	struct pc_err e;
	jv selections;
	char *project = NULL, *outdir = NULL, *commit = NULL;
	struct agent agent = { NULL, jv_null() };
	int status = read_selections(&selections, red);

	if (status == EXIT_OK && jv_array_length(jv_copy(selections)) == 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, "no selections on stdin");
	if (status == EXIT_OK && check_unpaired(selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && check_models(selections, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status == EXIT_OK && !strcmp(o->runner, "harbor"))
		status = stage_die("pc-run-bub", red, EXIT_INVALID,
				   "the harbor runner is not available in this build: it needs the Harbor CLI "
				   "(Python >= 3.12) and Docker or a cloud sandbox; use --runner local");
	if (status == EXIT_OK && pc_client_init(&client, environ, &e) != 0)
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	if (status != EXIT_OK) {
		jv_free(selections);
		return status;
	}
	project = find_project();
	if (resolve_agent(o, &agent, &e) != 0 || !(outdir = output_dir(o, &e)))
		status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
	/* once per run: a Server that cannot say what it is fails every Memory workload */
	struct pc_api api = { NULL, 0 };
	char *api_error = NULL;
	if (status == EXIT_OK && pc_api_detect(&client, &api, &e) != 0)
		api_error = pc_xstrdup(e.msg);
	const struct pc_api *known = api.version ? &api : NULL;
	commit = commit_id(known);
	int n = jv_array_length(jv_copy(selections)), fail_fast = !strcmp(o->policy, "fail-fast");
	jv stopped = jv_object(); /* batches a failure stopped, under fail-fast */
	jv_array_foreach(selections, i, sel) {
		/* clang-format off */
		struct run r = { .opt = o, .red = red, .client = &client, .project = project,
				 .api = known, .api_error = api_error,
				 .agent_cmd = agent.command, .agent_adapter = agent.adapter,
				 .selection = sel, .workload = json_get(sel, "workload"),
				 .progress = isatty(STDERR_FILENO) || getenv("PC_E2E_PROGRESS") };
		/* clang-format on */
		const char *batch = fail_fast ? batch_of(r.workload) : NULL;
		jv stop = batch ? jv_object_get(jv_copy(stopped), jv_string(batch)) : jv_invalid();
		r.gated = batch != NULL;
		if (status == EXIT_OK) {
			if (r.progress)
				fprintf(stderr, "pc-run-bub: workload %d/%d: %s\n", i + 1, n, json_str(r.workload, "id"));
			jv record = jv_is_valid(stop) ? skipped_workload(&r, commit) : run_workload(&r, outdir, commit);
			if (batch && (r.gate_closed || !strcmp(json_str(record, "status"), "failed")))
				stopped = jv_object_set(stopped, jv_string(batch), jv_true());
			if (stage_emit(red, record, &e) != 0)
				status = stage_die("pc-run-bub", red, EXIT_INVALID, e.msg);
		}
		jv_free(stop);
		jv_free(r.workload);
		jv_free(sel);
	}
	jv_free(stopped);
	jv_free(selections);
	pc_client_free(&client);
	pc_api_free(&api);
	free(api_error);
	free(project);
	free(agent.command);
	jv_free(agent.adapter);
	free(outdir);
	free(commit);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { "local", NULL, NULL, "collect-all", 0 };
	struct redactor red;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		return stage_option_exit(rc);
	redactor_init(&red, environ);
	rc = run_all(&o, &red);
	redactor_free(&red);
	return rc;
}
