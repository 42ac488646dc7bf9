/* fault: why a run that ended in error did (fault.h). */
#define _GNU_SOURCE /* strcasestr */
#include <stdlib.h>
#include <string.h>

#include "harbor_layout.h"
#include "io.h"
#include "json.h"
#include "run/fault.h"
#include "text.h"

/* ---- the rules (docs/DESIGN.md §2.3), first match wins ---- */

struct rule {
	const char *class, *kind;
	int transient;
	int harness;          /* 1: it reads the harness's own errors only */
	int statuses[6];      /* 0-ended: an HTTP status that makes it */
	const char *words[6]; /* NULL-ended: words that make it, case ignored */
};

/* clang-format off */
static const struct rule rules[] = {
	/* the Server, as pc-e2e's own errors name its calls */
	{ "infrastructure", "server", 1, 1, { 0 }, { "creating the arm's Scope",
	  "creating the workload's scope", "Reading the Access audit", "readiness:",
	  "memory baseline:", "final Memory:" } },
	{ "infrastructure", "sandbox", 1, 0, { 0 }, { "EnvironmentStartTimeoutError",
	  "AgentSetupTimeoutError", "RuntimeError:", NULL } },
	/* before the statuses: the scripted model answers its mismatches 4xx */
	{ "harness", "script", 0, 0, { 0 }, { "scripted_model_mismatch", "unknown model",
	  "no session of the script", NULL } },
	{ "harness", "workload", 0, 0, { 0 }, { "Harbor ran task checksum",
	  "the workload's model:", NULL } },
	{ "provider", "rate-limit", 1, 0, { 429, 0 }, { "rate limit", "rate_limit",
	  "too many requests", "ApiRateLimitError", NULL } },
	{ "provider", "server-error", 1, 0, { 500, 502, 503, 504, 529, 0 }, { "overloaded",
	  "high demand", NULL } },
	{ "provider", "stream-cut", 1, 0, { 0 }, { "peer closed connection",
	  "incomplete chunked read", "stream disconnected", NULL } },
	{ "provider", "timeout", 1, 0, { 0 }, { "Request timed out", "API_TIMEOUT",
	  "idle timeout", NULL } },
	{ "provider", "unreachable", 1, 0, { 0 }, { "Connection error.", "connection refused",
	  NULL } },
	{ "provider", "authentication", 0, 0, { 401, 403, 0 }, { "authentication",
	  "invalid_api_key", "Incorrect API key", NULL } },
	{ "provider", "request", 0, 0, { 400, 404, 422, 0 }, { NULL } },
	{ "infrastructure", "stopped", 0, 0, { 0 }, { "CancelledError", "stopped: ", NULL } },
};
/* looked for in all the evidence before the rules: every other label of a
 * quota's 429 says rate limit (Harbor's ApiRateLimitError, Claude Code's
 * retry line), and only the host's last words say quota */
static const struct rule quota = { "provider", "quota", 0, 0, { 0 }, { "insufficient_quota",
	"quota", "specified API usage limits", "ApiUsageLimitError", NULL } };
/* any other: the agent exited */
static const struct rule agent_exit = { "infrastructure", "agent-exit", 0, 0, { 0 }, { NULL } };
/* what a unit no attempt finished records (pipelines/units) */
static const struct rule unit_lost = { "infrastructure", "unit-lost", 1, 0, { 0 }, { NULL } };
/* clang-format on */

/* Where the words hold an HTTP status: the openai client's, Claude Code's
 * result and retry lines, Codex's last retry. */
static const char *const status_marks[] = { "Error code: ", "\"api_error_status\":",
					    "last status: ", "\"error_status\":", NULL };
/* The lines of an agent log that say what failed: a Python exception's
 * (Bub's acp.txt), Claude Code's retries and error result, Codex's errors. */
static const char *const log_marks[] = { "Error: ", "\"api_retry\"", "\"is_error\":true",
					 "\"type\":\"error\"", "\"type\":\"turn.failed\"", NULL };

/* ---- the evidence ---- */

struct item {
	char *text;  /* owned */
	char *step;  /* owned, or NULL: the run's or the trial's */
	int harness; /* one of the harness's own errors */
};

struct evidence {
	struct item *v;
	int n;
	char *failing_step; /* owned: the first step with an exception, or NULL */
	int exceptions, timed_out;
};

static void add(struct evidence *ev, char *text, const char *step, int harness)
{
	ev->v = pc_xrealloc(ev->v, (size_t)(ev->n + 1) * sizeof *ev->v);
	ev->v[ev->n++] = (struct item){ text, step ? pc_xstrdup(step) : NULL, harness };
}

static void add_exception(struct evidence *ev, jv info, const char *step)
{
	const char *type = json_str(info, "exception_type");

	if (!type)
		return;
	ev->exceptions++;
	ev->timed_out = ev->timed_out || !strcmp(type, "AgentTimeoutError");
	if (step && !ev->failing_step)
		ev->failing_step = pc_xstrdup(step);
	const char *msg = json_str(info, "exception_message"), *exit = NULL, *out = NULL;
	/* a command-line host's failed command (cli_exception): its output, not
	 * the command, whose prompt may say anything */
	if (msg && !strncmp(msg, "Command failed (", 16))
		exit = strstr(msg, "): "), out = strstr(msg, "\nstdout: ");
	if (exit && out && exit < out)
		add(ev, text_fmt("%s: %.*s%s", type, (int)(exit + 1 - msg), msg, out), step, 0);
	else
		add(ev, text_fmt("%s: %s", type, msg ? msg : ""), step, 0);
}

/* The error lines of the failing step's agent log. */
static void add_log(struct evidence *ev, const struct workload_run *r)
{
	const char *name = r->arm.agent_log ? r->arm.agent_log : HARBOR_ACP_STDERR_FILE;
	char *path = text_fmt("%s/steps/%s/agent/%s", r->result.trial_dir, ev->failing_step, name);
	char *log = NULL;
	size_t len;
	struct pc_err e;

	if (io_read_text(path, &log, &len, &e) == 0)
		for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
			for (int i = 0; log_marks[i]; i++)
				if (strstr(line, log_marks[i])) {
					add(ev, pc_xstrdup(line), ev->failing_step, 0);
					break;
				}
	free(log);
	free(path);
}

static void gather(struct evidence *ev, const struct workload_run *r)
{
	*ev = (struct evidence){ 0 };
	jv_array_foreach(r->errors, i, err) {
		const char *s = jv_string_value(err), *colon = strstr(s, ": ");
		char *step = NULL;
		/* run_step_exception's copy of a step's exception: "step <s>: …" */
		if (!strncmp(s, "step ", 5) && colon)
			step = text_fmt("%.*s", (int)(colon - s - 5), s + 5);
		add(ev, pc_xstrdup(s), step, !step);
		free(step);
		jv_free(err);
	}
	char *path = r->result.trial_dir ? io_join(r->result.trial_dir, HARBOR_RESULT_FILE) : NULL;
	jv result = jv_null();
	struct pc_err e;
	if (path && json_read_file(path, &result, &e) == 0) {
		jv trial = json_get(result, "exception_info");
		jv steps = json_get(result, "step_results");
		add_exception(ev, trial, NULL);
		if (jv_get_kind(steps) == JV_KIND_ARRAY)
			jv_array_foreach(steps, i, step) {
				jv info = json_get(step, "exception_info");
				add_exception(ev, info, json_str(step, "step_name"));
				jv_free(info);
				jv_free(step);
			}
		jv_free(steps);
		jv_free(trial);
	}
	jv_free(result);
	free(path);
	if (ev->failing_step)
		add_log(ev, r);
}

static void evidence_free(struct evidence *ev)
{
	for (int i = 0; i < ev->n; i++) {
		free(ev->v[i].text);
		free(ev->v[i].step);
	}
	free(ev->v);
	free(ev->failing_step);
}

/* ---- reading the words ---- */

/* The first HTTP status the text names (its position in *at), or 0. */
static int status_in(const char *text, const char **at)
{
	for (int i = 0; status_marks[i]; i++) {
		const char *p = strstr(text, status_marks[i]);
		if (!p)
			continue;
		char *end;
		long status = strtol(p + strlen(status_marks[i]), &end, 10);
		if (status >= 100 && status <= 599) {
			*at = p;
			return (int)status;
		}
	}
	return 0;
}

/* Where rule u matches item it, or NULL. */
static const char *matches(const struct rule *u, const struct item *it)
{
	const char *at = NULL;

	if (u->harness && !it->harness)
		return NULL;
	for (int i = 0; i < 6 && u->words[i]; i++)
		if ((at = strcasestr(it->text, u->words[i])))
			return at;
	int status = status_in(it->text, &at);
	for (int i = 0; status && i < 6 && u->statuses[i]; i++)
		if (status == u->statuses[i])
			return at;
	return NULL;
}

/* The words of the line holding at in text: a JSON object's message when
 * the line ends in one (the ACP error's details, a host's JSON line), else
 * the line (malloc'd). */
static char *words_at(const char *text, const char *at)
{
	static const char *const fields[] = { "details", "result", "message", "error.message",
					      "error", NULL };
	const char *start = at, *end = strchr(at, '\n');

	while (start > text && start[-1] != '\n')
		start--;
	char *line = text_fmt("%.*s", end ? (int)(end - start) : (int)strlen(start), start);
	char *brace = strchr(line, '{');
	jv obj = brace ? jv_parse(brace) : jv_invalid();
	for (int i = 0; jv_get_kind(obj) == JV_KIND_OBJECT && fields[i]; i++) {
		jv v = json_at(obj, fields[i]);
		if (jv_get_kind(v) == JV_KIND_STRING && *jv_string_value(v)) {
			free(line);
			line = pc_xstrdup(jv_string_value(v));
			jv_free(v);
			break;
		}
		jv_free(v);
	}
	jv_free(obj);
	return line;
}

/* The wait the words ask for, in seconds: Claude Code's first retry delay
 * (its Retry-After), else a "try again in N(s|ms)"; null for none. */
static jv retry_after(const struct evidence *ev)
{
	for (int i = 0; i < ev->n; i++) {
		const char *p = strstr(ev->v[i].text, "\"retry_delay_ms\":");
		if (p)
			return jv_number(strtod(p + strlen("\"retry_delay_ms\":"), NULL) / 1000);
	}
	static const char again[] = "try again in ";
	for (int i = 0; i < ev->n; i++) {
		const char *p = strcasestr(ev->v[i].text, again);
		const char *num = p ? p + strlen(again) : NULL;
		char *end = NULL;
		double n = num ? strtod(num, &end) : 0;
		int ms = end && !strncmp(end, "ms", 2);
		if (num && end != num && (ms || *end == 's'))
			return jv_number(ms ? n / 1000 : n);
	}
	return jv_null();
}

static jv fault_object(const struct workload_run *r, const struct rule *u, const char *step,
		       int status, jv retry, const char *words)
{
	char *redacted = redact_string(r->fleet->red, words);
	char *capped = text_cap(redacted, TEXT_ERROR_CAP);
	jv fault = JV_OBJECT(jv_string("class"), jv_string(u->class),
			     jv_string("kind"), jv_string(u->kind),
			     jv_string("transient"), jv_bool(u->transient),
			     jv_string("step"), json_string_or_null(step),
			     jv_string("status"), status ? jv_number(status) : jv_null(),
			     jv_string("retry_after"), retry,
			     jv_string("words"), jv_string(capped));

	free(capped);
	free(redacted);
	return fault;
}

/* ---- the fault ---- */

/* The rule the evidence (borrowed) matches first, *it the item and *at
 * where in its text; the agent's exit when none does.  A quota is looked
 * for in all of it first: its 429 says rate limit too, and only its words
 * say quota. */
static const struct rule *first_rule(const struct evidence *ev, const struct item **it,
				     const char **at)
{
	for (int i = 0; i < ev->n; i++) {
		const char *q = matches(&quota, &ev->v[i]);
		char *w = q ? words_at(ev->v[i].text, q) : NULL;
		/* its line's words, not only the line (Claude Code's synthetic
		 * message holds the quota's text, its "error" rate_limit) */
		int said = w && matches(&quota, &(struct item){ .text = w });
		free(w);
		if (said) {
			*it = &ev->v[i], *at = q;
			return &quota;
		}
	}
	for (int i = 0; i < ev->n; i++)
		for (size_t k = 0; k < sizeof rules / sizeof *rules; k++)
			if ((*at = matches(&rules[k], &ev->v[i]))) {
				*it = &ev->v[i];
				return &rules[k];
			}
	return &agent_exit;
}

jv fault_of(const struct workload_run *r)
{
	struct evidence ev;

	gather(&ev, r);
	int harness_errors = jv_array_length(jv_copy(r->errors)) > 0;
	/* 1.4.1's order: the harness's errors, then an agent timeout (scored),
	 * then any other exception; a paired arm's errors hold no exception */
	if (!harness_errors && (!r->arm.paired || !ev.exceptions || ev.timed_out)) {
		evidence_free(&ev);
		return jv_null();
	}
	const struct item *it = NULL;
	const char *at = NULL;
	const struct rule *u = first_rule(&ev, &it, &at);
	/* the words: where the rule matches more than an exception's type (a
	 * host's output cut short before its error line, which its log holds) */
	for (int i = 0; it && at == it->text && i < ev.n; i++) {
		const char *more = matches(u, &ev.v[i]);
		if (more && more != ev.v[i].text)
			it = &ev.v[i], at = more;
	}
	if (!it && ev.n)
		it = &ev.v[0], at = it->text;
	const char *status_at;
	int status = it ? status_in(it->text, &status_at) : 0;
	for (int i = 0; i < ev.n && !status; i++)
		status = status_in(ev.v[i].text, &status_at);
	char *words = it ? words_at(it->text, at) : pc_xstrdup("");
	/* only a rate limit asks for a wait: Claude Code's delay after a 500 or
	 * a quota's 429 is its own back-off */
	jv retry = u->transient && !strcmp(u->kind, "rate-limit") ? retry_after(&ev) : jv_null();
	jv fault = fault_object(r, u, it ? it->step : NULL, status, retry, words);
	free(words);
	evidence_free(&ev);
	return fault;
}

jv fault_unrun(const struct workload_run *r, const char *why)
{
	return fault_object(r, &unit_lost, NULL, 0, jv_null(), why);
}

char *fault_line(jv fault)
{
	struct sbuf b = { 0 };
	jv status = json_get(fault, "status");
	const char *step = json_str(fault, "step"), *words = json_str(fault, "words");

	sbuf_addf(&b, "%s %s", json_str(fault, "class"), json_str(fault, "kind"));
	if (jv_get_kind(status) == JV_KIND_NUMBER)
		sbuf_addf(&b, " %d", (int)jv_number_value(status));
	if (step)
		sbuf_addf(&b, " at step %s", step);
	sbuf_addf(&b, ": %s", words ? words : "");
	jv_free(status);
	char *line = sbuf_take(&b);
	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	char *capped = text_cap(line, FAULT_LINE_CAP);
	free(line);
	return capped;
}
