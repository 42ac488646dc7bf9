/* acp_answer: the client's side of the agent's requests, and the event
 * log (acp_answer.h). */
#include "base/acp_answer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "text.h"

void acp_record(struct acp_answers *a, const char *type, jv payload)
{
	jv ev = JV_OBJECT(jv_string("event_type"), jv_string(type), jv_string("payload"), payload);
	struct pc_err ignored;

	json_write_line(a->events, ev, &ignored);
}

static jv method_not_found(jv id, const char *method)
{
	return JV_OBJECT(jv_string("jsonrpc"), jv_string("2.0"),
			 jv_string("id"), id,
			 jv_string("error"),
			 JV_OBJECT(jv_string("code"), jv_number(-32601),
				   jv_string("message"), jv_string("Method not found"),
				   jv_string("data"),
				   JV_OBJECT(jv_string("method"), jv_string(method))));
}

/* Harbor's allow policy: the first allow_once/allow_always option. */
static jv permission_outcome(jv params)
{
	jv options = jv_object_get(jv_copy(params), jv_string("options"));
	jv chosen = jv_null();

	if (jv_get_kind(options) == JV_KIND_ARRAY) {
		jv_array_foreach(options, i, opt) {
			const char *kind = json_str(opt, "kind");
			if (jv_get_kind(chosen) == JV_KIND_NULL && kind &&
			    (!strcmp(kind, "allow_once") || !strcmp(kind, "allow_always")))
				chosen = jv_object_get(jv_copy(opt), jv_string("optionId"));
			jv_free(opt);
		}
	}
	jv_free(options);
	if (jv_get_kind(chosen) == JV_KIND_NULL)
		return JV_OBJECT(jv_string("outcome"),
				 JV_OBJECT(jv_string("outcome"), jv_string("cancelled")));
	return JV_OBJECT(jv_string("outcome"),
			 JV_OBJECT(jv_string("outcome"), jv_string("selected"),
				   jv_string("optionId"), chosen));
}

static jv rpc_error_frame(jv id, int code, const char *message, const char *detail)
{
	return JV_OBJECT(jv_string("jsonrpc"), jv_string("2.0"),
			 jv_string("id"), id,
			 jv_string("error"),
			 JV_OBJECT(jv_string("code"), jv_number(code),
				   jv_string("message"), jv_string(message),
				   jv_string("data"),
				   JV_OBJECT(jv_string("details"), jv_string(detail))));
}

static jv rpc_result_frame(jv id, jv result)
{
	return JV_OBJECT(jv_string("jsonrpc"), jv_string("2.0"),
			 jv_string("id"), id,
			 jv_string("result"), result);
}

/* The last limit bytes of s, starting on a UTF-8 character boundary. */
static jv output_tail(const char *s, size_t len, jv limit, int *truncated)
{
	size_t from = 0;

	if (jv_get_kind(limit) == JV_KIND_NUMBER && jv_number_value(limit) >= 0 &&
	    (double)len > jv_number_value(limit)) {
		from = len - (size_t)jv_number_value(limit);
		while (from < len && ((unsigned char)s[from] & 0xC0) == 0x80)
			from++;
	}
	*truncated = from > 0;
	return jv_string_sized(s + from, (int)(len - from));
}

static jv create_terminal(struct acp_answers *a, jv id, jv params, long long deadline_ms)
{
	struct acp_terminal_result res = { NULL, 0, 0, 0 };
	struct pc_err e;
	char tid[32];
	int truncated;

	if (!json_str(params, "command"))
		return rpc_error_frame(id, -32602, "Invalid params",
				       "terminal/create needs a command");
	snprintf(tid, sizeof tid, "term_%04d", ++a->terminals_created);
	acp_record(a, "create_terminal",
		   JV_OBJECT(jv_string("session_id"), json_at(params, "sessionId"),
			     jv_string("terminal_id"), jv_string(tid),
			     jv_string("command"), json_at(params, "command"),
			     jv_string("args"), json_at(params, "args"),
			     jv_string("cwd"), json_at(params, "cwd"),
			     jv_string("env"), json_at(params, "env"),
			     jv_string("output_byte_limit"), json_at(params, "outputByteLimit")));
	const struct acp_terminal_host *host = a->terminal_host;
	if (host->run_command(host->ctx, params, deadline_ms, &res, &e) != 0) {
		acp_record(a, "terminal_output_error",
			   JV_OBJECT(jv_string("terminal_id"), jv_string(tid),
				     jv_string("error"),
				     JV_OBJECT(jv_string("type"), jv_string("RuntimeError"),
					       jv_string("message"), jv_string(e.msg))));
		free(res.output);
		return rpc_error_frame(id, -32603, "Internal error", e.msg);
	}
	jv limit = json_at(params, "outputByteLimit");
	jv output = output_tail(res.output ? res.output : "", res.len, limit, &truncated);
	jv status = res.signalled ? JV_OBJECT(jv_string("exitCode"), jv_null(),
					      jv_string("signal"), jv_string("SIGKILL"))
				  : JV_OBJECT(jv_string("exitCode"), jv_number(res.code),
					      jv_string("signal"), jv_null());
	a->terminals =
		jv_object_set(a->terminals, jv_string(tid),
			      JV_OBJECT(jv_string("output"), output,
					jv_string("truncated"), jv_bool(truncated),
					jv_string("exitStatus"), status));
	jv_free(limit);
	free(res.output);
	return rpc_result_frame(id, JV_OBJECT(jv_string("terminalId"), jv_string(tid)));
}

/* terminal/output, wait_for_exit, kill and release of a finished terminal. */
static jv serve_terminal(struct acp_answers *a, const char *method, jv id, jv params)
{
	const char *tid = json_str(params, "terminalId");
	jv term = tid ? jv_object_get(jv_copy(a->terminals), jv_string(tid)) : jv_invalid();
	jv sid = json_at(params, "sessionId"), reply;

	if (!jv_is_valid(term)) {
		jv error = JV_OBJECT(jv_string("type"), jv_string("KeyError"),
				     jv_string("message"), jv_string("unknown terminal"));
		acp_record(a, "terminal_output_error",
			   JV_OBJECT(jv_string("terminal_id"), json_string_or_null(tid),
				     jv_string("error"), error));
		jv_free(sid);
		jv_free(term);
		return rpc_error_frame(id, -32602, "Invalid params", "unknown terminalId");
	}
	jv status = json_get(term, "exitStatus");
	if (!strcmp(method, "terminal/output")) {
		jv output = json_get(term, "output");
		int length = jv_string_length_bytes(output);
		acp_record(a, "terminal_output",
			   JV_OBJECT(jv_string("session_id"), sid,
				     jv_string("terminal_id"), jv_string(tid),
				     jv_string("truncated"), json_at(term, "truncated"),
				     jv_string("has_exit_status"), jv_true(),
				     jv_string("output_length"), jv_number(length)));
		reply = rpc_result_frame(id, jv_copy(term));
	} else if (!strcmp(method, "terminal/wait_for_exit")) {
		acp_record(a, "wait_for_terminal_exit",
			   JV_OBJECT(jv_string("session_id"), sid,
				     jv_string("terminal_id"), jv_string(tid),
				     jv_string("exit_code"), json_at(status, "exitCode"),
				     jv_string("signal"), json_at(status, "signal")));
		reply = rpc_result_frame(id, jv_copy(status));
	} else {
		int release = !strcmp(method, "terminal/release");
		acp_record(a, release ? "release_terminal" : "kill_terminal",
			   JV_OBJECT(jv_string("session_id"), sid,
				     jv_string("terminal_id"), jv_string(tid),
				     jv_string("exit_status"), jv_copy(status)));
		if (release)
			a->terminals = jv_object_delete(a->terminals, jv_string(tid));
		reply = rpc_result_frame(id, jv_object());
	}
	jv_free(status);
	jv_free(term);
	return reply;
}

static int is_terminal_method(const char *method)
{
	static const char *const names[] = { "terminal/create", "terminal/output",
					     "terminal/wait_for_exit", "terminal/kill",
					     "terminal/release" };

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(method, names[i]))
			return 1;
	return 0;
}

jv acp_answer(struct acp_answers *a, const char *method, jv id, jv params, long long deadline_ms)
{
	if (!strcmp(method, "session/request_permission")) {
		a->permissions_requested++;
		acp_record(a, "request_permission",
			   JV_OBJECT(jv_string("session_id"), json_get(params, "sessionId"),
				     jv_string("tool_call"), json_get(params, "toolCall"),
				     jv_string("options"), json_get(params, "options")));
		return rpc_result_frame(id, permission_outcome(params));
	}
	if (!a->terminal_host || !is_terminal_method(method))
		return method_not_found(id, method);
	if (!strcmp(method, "terminal/create"))
		return create_terminal(a, id, params, deadline_ms);
	return serve_terminal(a, method, id, params);
}
