/* local: the runner without Harbor (docs/DESIGN.md §5.5).  It reads the
 * Harbor task itself and runs each step here: the agent in a new ACP session
 * inside a bubblewrap sandbox (its terminals in sandboxes of their own),
 * then the step's verifier; it writes the Harbor-shaped job directory that
 * pc-normalize reads.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acp.h"
#include "agent.h"
#include "clock.h"
#include "harbor.h"
#include "harbor_layout.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "proc.h"
#include "run.h"
#include "sandbox.h"
#include "text.h"
#include "toml.h"

/* A line (n bytes, no newline) the way Harbor's strip_canary sees it:
 * stripped of whitespace, then either <!--…canary…--> or #…canary…, any
 * case. */
static int is_canary(const char *line, size_t n)
{
	n = text_strip(&line, n);
	char *copy = pc_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		copy[i] = (char)tolower((unsigned char)line[i]);
	copy[n] = '\0';
	int html = n >= 7 && !strncmp(copy, "<!--", 4) && !strcmp(copy + n - 3, "-->");
	if (html)
		copy[n - 3] = '\0';
	int canary = (html || copy[0] == '#') && strstr(copy + (html ? 4 : 1), "canary") != NULL;
	free(copy);
	return canary;
}

static char *next_line(char *p)
{
	char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* The instruction as Harbor gives it to the agent: instruction.md read with
 * universal newlines, without its leading canary lines and the blank lines
 * after them, and otherwise byte for byte (its trailing newline too). */
static char *read_instruction(const char *path, struct pc_err *e)
{
	char *text, *p;
	size_t len;

	if (io_read_text(path, &text, &len, e) != 0)
		return NULL;
	char *w = text;
	for (size_t i = 0; i < len; i++)
		if (text[i] != '\r')
			*w++ = text[i];
		else if (i + 1 == len || text[i + 1] != '\n')
			*w++ = '\n';
	*w = '\0';
	for (p = text; *p && is_canary(p, strcspn(p, "\n")); p = next_line(p))
		;
	for (; *p && text_is_blank(p, strcspn(p, "\n")); p = next_line(p))
		;
	char *out = pc_xstrdup(p);
	free(text);
	return out;
}

static jv exception_info(const char *type, const char *message)
{
	char now[CLOCK_UTC_LEN];

	clock_utc_now(now);
	return JV_OBJECT(jv_string("exception_type"), jv_string(type),
			 jv_string("exception_message"), jv_string(message),
			 jv_string("exception_traceback"), jv_null(),
			 jv_string("occurred_at"), jv_string(now));
}

static jv timing(const char *started)
{
	char now[CLOCK_UTC_LEN];

	clock_utc_now(now);
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

	if (proc_stop_signal())
		return pc_fail(e, "not started: pc-run-bub received %s", proc_stop_name());
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
		out->code = proc_exit_code(p.status);
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
	char *acp_dir = text_fmt("%s/pc-acp-XXXXXX", io_tmpdir());
	char **argv;
	char *events = io_join(sp->agent, HARBOR_ACP_EVENTS_FILE);
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
			etype = proc_stop_signal()           ? "CancelledError"
				: strstr(e.msg, "timed out") ? "AgentTimeoutError"
							     : "NonZeroAgentExitCodeError";
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
	/* Harbor's ACP runner is killed at the deadline (or on a stop) before it
	 * writes its summary or a trajectory: the events file is what is left. */
	int stopped = etype && (!strcmp(etype, "AgentTimeoutError") || !strcmp(etype, "CancelledError"));
	struct pc_err we;
	if (stopped || !had_updates)
		jv_free(traj);
	else if (harbor_write_json(sp->agent, HARBOR_TRAJECTORY_FILE, traj, &we) != 0)
		run_error(r, "%s", we.msg);
	if (!stopped && harbor_write_json(sp->agent, HARBOR_ACP_SUMMARY_FILE, jv_copy(summary), &we) != 0)
		run_error(r, "%s", we.msg);
	if (stopped) {
		jv_free(summary);
		summary = jv_null();
	}
	remove_fifos(acp_dir);
	env_free(&env);
	sandbox_argv_free(argv);
	free(acp_dir);
	free(events);
	free(stderr_path);
	return JV_OBJECT(jv_string("n_input_tokens"), jv_null(), jv_string("n_cache_tokens"), jv_null(),
			 jv_string("n_output_tokens"), jv_null(), jv_string("cost_usd"), jv_null(),
			 jv_string("rollout_details"), jv_null(),
			 jv_string("metadata"), stopped ? summary : JV_OBJECT(jv_string("acp"), summary));
}

/* ---- one step: verifier ---- */

static int run_cmd(char *const argv[], char *const env[], const char *log, long timeout_ms, int *status,
		   struct pc_err *e)
{
	struct proc p;

	if (proc_spawn(&p, argv, env, NULL, log, 0, e) != 0)
		return -1;
	if (!proc_wait(&p, timeout_ms)) {
		proc_kill(&p, 2000);
		if (proc_stop_signal())
			return pc_fail(e, "%s stopped: pc-run-bub received %s", argv[0],
				       proc_stop_name());
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
		rc = run_cmd(cp, NULL, "/dev/null", 60000, &status, e);
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
		/* none of pc-run-bub's environment, secrets included, as under Harbor */
		struct envv env = { NULL, 0 };
		sandbox_base_env(&env);
		/* the script's exit code is ignored, as Harbor ignores it */
		if (run_cmd(argv, env.v, "/dev/null", (long)(timeout_s * 1000), &status, &e) != 0)
			type = strstr(e.msg, "timed out") ? "TimeoutError" : "VerifierOutputParseError";
		else if (harbor_read_rewards(sp->verifier, &rewards, &type, &e) != 0)
			rewards = jv_null();
		env_free(&env);
		sandbox_argv_free(argv);
	}
	if (type)
		*exception = exception_info(proc_stop_signal() ? "CancelledError" : type, e.msg);
	return jv_get_kind(rewards) == JV_KIND_NULL ? jv_null()
						    : JV_OBJECT(jv_string("rewards"), rewards);
}

/* ---- the trial ---- */

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
	char started[CLOCK_UTC_LEN], vstarted[CLOCK_UTC_LEN];

	step_paths_init(&sp, r, name);
	clock_utc_now(started);
	run_progress(r, "step %s", name);
	char *ipath = text_fmt("%s/steps/%s/instruction.md", task_dir, name);
	char *instruction = NULL;
	if (io_mkdirs(sp.agent, &e) != 0 || io_mkdirs(sp.verifier, &e) != 0 ||
	    io_mkdirs(sp.workspace, &e) != 0 || !(instruction = read_instruction(ipath, &e)))
		exception = exception_info("RuntimeError", e.msg);
	else
		agent_result = run_agent(r, &sp, instruction, run_agent_timeout(r, task_toml, step), &exception);
	jv agent_timing = timing(started);
	clock_utc_now(vstarted);
	/* stopped: what ran is recorded, nothing more is started, and a step
	 * whose verifier never ran did not complete */
	if (instruction && proc_stop_signal() && jv_get_kind(exception) == JV_KIND_NULL) {
		char *why = text_fmt("stopped before the verifier: pc-run-bub received %s",
				     proc_stop_name());
		exception = exception_info("CancelledError", why);
		free(why);
	} else if (instruction && !proc_stop_signal()) {
		jv verr = jv_null();
		verifier_result = run_verifier(r, task_dir, name, &sp,
					       run_verifier_timeout(task_toml, step),
					       &verr);
		if (jv_get_kind(exception) == JV_KIND_NULL)
			exception = verr;
		else
			jv_free(verr);
	}
	if (jv_get_kind(exception) != JV_KIND_NULL) {
		run_step_exception(r, name, exception);
		*stop = jv_get_kind(verifier_result) == JV_KIND_NULL;
	}
	*stop = *stop || proc_stop_signal();
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
	jv rewards = json_at(result, HARBOR_REWARDS_PATH), gate;
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

/* Run every step and write the trial and job files.  task_checksum is computed from the task
 * directory as it is run, never copied from the selection, so a task changed
 * after pc-select fails task_provenance_matches. */
static void run_trial(struct run *r, const char *task_dir)
{
	char checksum[SHA256_HEX_LEN + 1];
	struct pc_err e;
	char *toml_path = io_join(task_dir, "task.toml");
	jv task_toml, steps, results;
	char started[CLOCK_UTC_LEN], job_id[37], trial_id[37];
	int stop = 0;

	clock_utc_now(started);
	harbor_uuid(job_id);
	harbor_uuid(trial_id);
	if (harbor_task_checksum(task_dir, checksum, &e) != 0 || toml_load(toml_path, &task_toml, &e) != 0) {
		free(toml_path);
		run_error(r, "%s", e.msg);
		return;
	}
	free(toml_path);
	results = jv_array();
	if (harbor_write_json(r->trial_dir, HARBOR_CONFIG_FILE, trial_config(r, task_dir), &e) != 0)
		run_error(r, "%s", e.msg);
	steps = jv_object_get(jv_copy(task_toml), jv_string("steps"));
	if (jv_get_kind(steps) != JV_KIND_ARRAY || jv_array_length(jv_copy(steps)) == 0) {
		run_error(r, "%s: task.toml declares no [[steps]]; the local runner runs multi-step tasks only", task_dir);
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
	char finished[CLOCK_UTC_LEN];
	clock_utc_now(finished);
	result = jv_object_set(result, jv_string("finished_at"), jv_string(finished));
	result = jv_object_set(result, jv_string("environment_setup"), timing(started));
	result = jv_object_set(result, jv_string("agent_setup"), timing(started));
	result = jv_object_set(result, jv_string("agent_execution"), jv_null());
	result = jv_object_set(result, jv_string("verifier"), jv_null());
	result = jv_object_set(result, jv_string("step_results"), results);
	if (harbor_write_json(r->trial_dir, HARBOR_RESULT_FILE, result, &e) != 0)
		run_error(r, "%s", e.msg);
	jv job = JV_OBJECT(jv_string("id"), jv_string(job_id), jv_string("started_at"), jv_string(started),
			   jv_string("updated_at"), jv_string(finished), jv_string("finished_at"), jv_string(finished),
			   jv_string("n_total_trials"), jv_number(1));
	if (harbor_write_json(r->job_dir, HARBOR_RESULT_FILE, job, &e) != 0)
		run_error(r, "%s", e.msg);
	free(uri);
	jv_free(dataset);
	jv_free(task_toml);
}

/* The job directory is written whatever happens; the trial is named as
 * Harbor names it, from the task directory. */
static void run_local(struct run *r, const char *task_dir)
{
	struct pc_err e;
	const char *slash = task_dir ? strrchr(task_dir, '/') : NULL;

	r->job_dir = io_join(r->jobs_dir, r->run_id);
	r->trial_name = harbor_trial_name(slash ? slash + 1 : task_dir ? task_dir
								       : json_str(r->workload, "id"));
	r->trial_dir = io_join(r->job_dir, r->trial_name);
	if (!task_dir)
		run_error(r, "workload %s pins a registry dataset: only the harbor runner can fetch it",
			  json_str(r->workload, "id"));
	else if (io_mkdirs(r->trial_dir, &e) != 0)
		run_error(r, "%s", e.msg);
	else
		run_trial(r, task_dir);
}

const struct runner local_runner = { NULL, run_local };
