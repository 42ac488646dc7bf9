/* local_acp: the local runner's agent for one step, over ACP in a
 * bubblewrap sandbox, and the terminals it asks for (local_acp.h).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/acp.h"
#include "base/harbor.h"
#include "base/proc.h"
#include "base/sandbox.h"
#include "harbor_layout.h"
#include "io.h"
#include "json.h"
#include "local/local_acp.h"
#include "run/agent.h"
#include "text.h"

static char **agent_argv(const struct workload_run *r, const struct step_paths *sp,
			 const char *acp_dir)
{
	char *script = text_fmt("exec %s </run/acp/in >/run/acp/out", r->agent->command);
	char *const cmd[] = { "sh", "-c", script, NULL };
	struct sandbox sb = { r->fleet->sandbox_binds, sp->agent, sp->verifier, NULL,
			      sp->workspace, acp_dir, NULL };
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
	const struct workload_run *r;
	const struct step_paths *sp;
	int used;
};

/* env for a terminal command: the agent's, plus what the request names. */
static void terminal_env(const struct workload_run *r, jv params, struct envv *env)
{
	jv extra = json_get(params, "env");

	agent_env(r, env);
	if (jv_get_kind(extra) == JV_KIND_ARRAY)
		jv_array_foreach(extra, i, var) {
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
static int run_terminal(void *ctx, jv params, long long deadline_ms,
			struct acp_terminal_result *out, struct pc_err *e)
{
	struct terminal_host *t = ctx;

	if (proc_stop_signal())
		return pc_fail(e, "not started: %s received %s", t->r->fleet->o->prog,
			       proc_stop_name());
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
		cmd[k++] = jv_get_kind(arg) == JV_KIND_STRING ? pc_xstrdup(jv_string_value(arg))
							      : pc_xstrdup("");
		jv_free(arg);
	}
	cmd[k] = NULL;
	struct sandbox sb = { t->r->fleet->sandbox_binds, t->sp->agent, t->sp->verifier, NULL,
			      t->sp->workspace, NULL, NULL };
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

/* Speak ACP for one prompt as client prog (pc-run-bub's name); the summary
 * records what happened either way. */
static int converse(const char *prog, struct runner_result *res, struct acp_client *c,
		    const char *instruction, jv *init, jv *session, jv *response,
		    struct pc_err *e)
{
	jv fs = JV_OBJECT(jv_string("readTextFile"), jv_false(),
			  jv_string("writeTextFile"), jv_false());
	jv capabilities = JV_OBJECT(jv_string("fs"), fs,
				    jv_string("terminal"), jv_bool(ACP_SERVES_TERMINALS(c)));
	jv client = JV_OBJECT(jv_string("name"), jv_string(prog),
			      jv_string("version"), jv_string(PC_VERSION));
	jv params = JV_OBJECT(jv_string("protocolVersion"), jv_number(ACP_PROTOCOL_VERSION),
			      jv_string("clientCapabilities"), capabilities,
			      jv_string("clientInfo"), client);

	if (acp_request(c, "initialize", params, init, e) != 0)
		return -1;
	if (jv_get_kind(res->agent_info) == JV_KIND_NULL && jv_get_kind(*init) == JV_KIND_OBJECT) {
		jv info = jv_object_get(jv_copy(*init), jv_string("agentInfo"));
		jv version = jv_object_get(jv_copy(*init), jv_string("protocolVersion"));
		res->protocol =
			jv_get_kind(version) == JV_KIND_NUMBER ? jv_number_value(version) : 0;
		jv_free(version);
		jv_free(res->agent_info);
		res->agent_info =
			jv_get_kind(info) == JV_KIND_OBJECT ? info : (jv_free(info), jv_null());
	}
	jv new_session = JV_OBJECT(jv_string("cwd"), jv_string("/workspace"),
				   jv_string("mcpServers"), jv_array());
	if (acp_request(c, "session/new", new_session, session, e) != 0)
		return -1;
	jv sid = jv_get_kind(*session) == JV_KIND_OBJECT
			 ? jv_object_get(jv_copy(*session), jv_string("sessionId"))
			 : jv_invalid();
	if (jv_get_kind(sid) != JV_KIND_STRING) {
		jv_free(sid);
		return pc_fail(e, "session/new returned no sessionId");
	}
	jv text = JV_OBJECT(jv_string("type"), jv_string("text"),
			    jv_string("text"), jv_string(instruction));
	jv prompt = JV_OBJECT(jv_string("sessionId"), sid,
			      jv_string("prompt"), JV_ARRAY(text));
	return acp_request(c, "session/prompt", prompt, response, e);
}

/* A number (consumed) cut to a whole one, as Harbor's int() does; else null. */
static jv whole_number(jv v)
{
	double n = jv_get_kind(v) == JV_KIND_NUMBER ? jv_number_value(v) : 0;
	int known = jv_get_kind(v) == JV_KIND_NUMBER && n > -1e15 && n < 1e15;

	jv_free(v);
	return known ? jv_number((double)(long long)n) : jv_null();
}

/* An ACP cost (consumed) in US dollars, else null. */
static jv usd_cost(jv cost)
{
	const char *currency = json_str(cost, "currency");
	jv amount = json_get(cost, "amount");
	int usd = currency && !strcasecmp(currency, "USD") && jv_get_kind(amount) == JV_KIND_NUMBER;

	jv_free(cost);
	if (usd)
		return amount;
	jv_free(amount);
	return jv_null();
}

jv local_agent(struct workload_run *r, struct runner_result *res, const struct step_paths *sp,
	       const char *instruction, double timeout_s, jv *exception)
{
	struct acp_client c;
	struct envv env = { NULL, 0 };
	struct pc_err e;
	char *acp_dir = text_fmt("%s/pc-acp-XXXXXX", io_tmpdir());
	char **argv;
	char *events = io_join(sp->agent, HARBOR_ACP_EVENTS_FILE);
	char *stderr_path = io_join(sp->agent, HARBOR_ACP_STDERR_FILE);
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
	c.answers.terminal_host = &host;
	c.prog = r->fleet->o->prog;
	if (rc == 0) {
		c.deadline_ms = timeout_s > 0 ? proc_now_ms() + (long long)(timeout_s * 1000) : -1;
		rc = converse(c.prog, res, &c, instruction, &init, &session, &response, &e);
		/* the step's deadline, not the words: a provider's "Request timed
		 * out." in the agent's error is the agent's failure, as under Harbor */
		if (rc != 0)
			etype = proc_stop_signal() ? "CancelledError"
				: c.deadline_ms >= 0 && proc_now_ms() >= c.deadline_ms
					? "AgentTimeoutError"
					: "NonZeroAgentExitCodeError";
	} else
		etype = "NonZeroAgentExitCodeError";
	if (etype)
		*exception = harbor_exception(etype, e.msg);
	const char *sid = json_str(session, "sessionId");
	jv traj = harbor_trajectory(c.prog, sid, jv_copy(res->agent_info), instruction,
				    jv_copy(c.updates), c.answers.permissions_requested);
	int had_updates = jv_array_length(jv_copy(c.updates)) > 0;
	jv summary = harbor_acp_summary(instruction, init, session, response, etype,
					etype ? e.msg : NULL, c.answers.permissions_requested);
	acp_stop(&c, 2000);
	/* Harbor's ACP runner is killed at the deadline (or on a stop) before it
	 * writes its summary or a trajectory: the events file is what is left. */
	int stopped =
		etype && (!strcmp(etype, "AgentTimeoutError") || !strcmp(etype, "CancelledError"));
	struct pc_err we;
	if (stopped || !had_updates)
		jv_free(traj);
	else if (harbor_write_json(sp->agent, HARBOR_TRAJECTORY_FILE, traj, &we) != 0)
		run_error(r, "%s", we.msg);
	if (!stopped &&
	    harbor_write_json(sp->agent, HARBOR_ACP_SUMMARY_FILE, jv_copy(summary), &we) != 0)
		run_error(r, "%s", we.msg);
	/* the agent's own usage figures, read from the summary as Harbor's ACP
	 * agent reads them: the prompt's tokens, the latest USD cost */
	jv written = stopped ? jv_object() : jv_copy(summary);
	jv tokens_in = whole_number(json_at(written, "prompt_response.usage.inputTokens"));
	jv tokens_out = whole_number(json_at(written, "prompt_response.usage.outputTokens"));
	jv cost = usd_cost(json_at(written, "latest_usage_update.cost"));
	jv_free(written);
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
	return JV_OBJECT(jv_string("n_input_tokens"), tokens_in,
			 jv_string("n_cache_tokens"), jv_null(),
			 jv_string("n_output_tokens"), tokens_out,
			 jv_string("cost_usd"), cost,
			 jv_string("rollout_details"), jv_null(),
			 jv_string("metadata"),
			 stopped ? summary : JV_OBJECT(jv_string("acp"), summary));
}
