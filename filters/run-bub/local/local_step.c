/* local_step: one step of the local runner's trial: its instruction as
 * Harbor gives it, the step-failure marker, its agent (local_acp.c), then its
 * verifier (below).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/harbor.h"
#include "base/proc.h"
#include "base/sandbox.h"
#include "clock.h"
#include "harbor_layout.h"
#include "io.h"
#include "json.h"
#include "local/local_acp.h"
#include "local/local_cli.h"
#include "local/local_step.h"
#include "run/agent.h"
#include "text.h"

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

/* ---- the verifier ---- */

/* argv to its end within timeout_ms, *status its exit status; a stop's
 * error names prog (pc-run-bub's name) as what received it. */
static int run_cmd(const char *prog, char *const argv[], char *const env[], const char *log,
		   long timeout_ms, int *status, struct pc_err *e)
{
	struct proc p;

	if (proc_spawn(&p, argv, env, NULL, log, 0, e) != 0)
		return -1;
	if (!proc_wait(&p, timeout_ms)) {
		proc_kill(&p, 2000);
		if (proc_stop_signal())
			return pc_fail(e, "%s stopped: %s received %s", argv[0], prog,
				       proc_stop_name());
		return pc_fail(e, "%s timed out after %.0f seconds", argv[0], timeout_ms / 1000.0);
	}
	proc_kill(&p, 0);
	*status = p.status;
	return 0;
}

/* Harbor's /tests: the task's tests/, then the step's tests/ over it. */
static int stage_tests(const char *prog, const char *task_dir, const char *step,
		       const char *into, struct pc_err *e)
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
		rc = run_cmd(prog, cp, NULL, "/dev/null", 60000, &status, e);
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

static jv run_verifier(const struct workload_run *r, const char *task_dir, const char *step,
		       struct step_paths *sp, double timeout_s, jv *exception)
{
	struct pc_err e;
	char *const cmd[] = { "sh", "-c", "(/tests/test.sh) > /logs/verifier/test-stdout.txt 2>&1",
			      NULL };
	int status;
	jv rewards = jv_null();
	const char *type = NULL;

	if (stage_tests(r->fleet->o->prog, task_dir, step, sp->tests, &e) != 0)
		type = "AddTestsDirError";
	else {
		struct sandbox sb = { r->fleet->sandbox_binds, sp->agent, sp->verifier, sp->tests,
				      sp->workspace, NULL, NULL };
		char **argv = sandbox_argv(&sb, cmd);
		/* none of pc-run-bub's environment, secrets included, as under Harbor */
		struct envv env = { NULL, 0 };
		sandbox_base_env(&env);
		/* the script's exit code is ignored, as Harbor ignores it */
		if (run_cmd(r->fleet->o->prog, argv, env.v, "/dev/null", (long)(timeout_s * 1000),
			    &status, &e) != 0)
			type = strstr(e.msg, "timed out") ? "TimeoutError"
							  : "VerifierOutputParseError";
		else if (harbor_read_rewards(sp->verifier, &rewards, &type, &e) != 0)
			rewards = jv_null();
		env_free(&env);
		sandbox_argv_free(argv);
	}
	if (type)
		*exception = harbor_exception(proc_stop_signal() ? "CancelledError" : type, e.msg);
	return jv_get_kind(rewards) == JV_KIND_NULL ? jv_null()
						    : JV_OBJECT(jv_string("rewards"), rewards);
}

/* ---- the step ---- */

static void step_paths_init(struct step_paths *sp, const struct runner_result *res,
			    const char *step)
{
	sp->dir = text_fmt("%s/steps/%s", res->trial_dir, step);
	sp->agent = io_join(sp->dir, "agent");
	sp->verifier = io_join(sp->dir, "verifier");
	sp->workspace = io_join(res->trial_dir, "workspace");
	sp->tests = text_fmt("%s/.tests/%s", res->job_dir, step);
}

static void step_paths_free(struct step_paths *sp)
{
	free(sp->dir);
	free(sp->agent);
	free(sp->verifier);
	free(sp->workspace);
	free(sp->tests);
}

/* The marker goes first, before anything of the step can fail, and only a
 * session that succeeded removes it (as 1.4.1's harness does). */
static int mark_step_failed(const struct step_paths *sp, struct pc_err *e)
{
	return io_write_artifact(sp->agent, STEP_FAILURE_MARKER_FILE, "", 0, e);
}

static int unmark_step_failed(const struct step_paths *sp, struct pc_err *e)
{
	char *marker = io_join(sp->agent, STEP_FAILURE_MARKER_FILE);
	/* an agent may have removed it itself: gone is what a success asks */
	int gone = unlink(marker) == 0 || errno == ENOENT;
	int rc = gone ? 0 : pc_fail_errno(e, "%s: cannot remove", marker);

	free(marker);
	return rc;
}

jv local_step(struct workload_run *r, struct runner_result *res, const char *task_dir,
	      jv task_toml, jv step, int *stop)
{
	const char *name = json_str(step, "name");
	struct step_paths sp;
	struct pc_err e;
	jv exception = jv_null(), agent_result = jv_null(), verifier_result = jv_null();
	char started[CLOCK_UTC_LEN], vstarted[CLOCK_UTC_LEN];

	step_paths_init(&sp, res, name);
	clock_utc_now(started);
	run_progress(r, "step %s", name);
	char *ipath = text_fmt("%s/steps/%s/instruction.md", task_dir, name);
	char *instruction = NULL;
	/* 1.4.1 marks a step failed for Bub only */
	int marks = !r->arm.cli;
	if (io_mkdirs(sp.agent, &e) != 0 || io_mkdirs(sp.verifier, &e) != 0 ||
	    io_mkdirs(sp.workspace, &e) != 0 || (marks && mark_step_failed(&sp, &e) != 0) ||
	    !(instruction = read_instruction(ipath, &e)))
		exception = harbor_exception("RuntimeError", e.msg);
	else {
		double timeout = run_agent_timeout(r, task_toml, step);
		agent_result = r->arm.cli
				       ? local_cli(r, res, &sp, instruction, timeout, &exception)
				       : local_agent(r, res, &sp, instruction, timeout, &exception);
		if (marks && jv_get_kind(exception) == JV_KIND_NULL &&
		    unmark_step_failed(&sp, &e) != 0)
			exception = harbor_exception("RuntimeError", e.msg);
	}
	jv agent_timing = harbor_timing(started);
	/* after the agent's timed phase, as Harbor's agent-end hook runs */
	run_session_ended(r);
	clock_utc_now(vstarted);
	/* stopped: what ran is recorded, nothing more is started, and a step
	 * whose verifier never ran did not complete */
	if (instruction && proc_stop_signal() && jv_get_kind(exception) == JV_KIND_NULL) {
		char *why = text_fmt("stopped before the verifier: %s received %s",
				     r->fleet->o->prog, proc_stop_name());
		exception = harbor_exception("CancelledError", why);
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
			 jv_string("verifier"), harbor_timing(vstarted));
}
