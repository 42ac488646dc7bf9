#include "base/harbor.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "harbor_layout.h"
#include "io.h"
#include "json.h"
#include "text.h"

static void random_bytes(unsigned char *buf, size_t n)
{
	int fd = open("/dev/urandom", O_RDONLY);
	size_t got = 0;

	while (fd >= 0 && got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	if (got < n) { /* no urandom: fall back to time and pid, still unique enough */
		srand((unsigned)time(NULL) ^ (unsigned)getpid());
		for (; got < n; got++)
			buf[got] = (unsigned char)rand();
	}
}

void harbor_random_hex(char *out, int n)
{
	unsigned char buf[64];

	random_bytes(buf, (size_t)(n + 1) / 2);
	for (int i = 0; i < n; i++)
		out[i] = "0123456789abcdef"[(buf[i / 2] >> (i % 2 ? 0 : 4)) & 15];
	out[n] = '\0';
}

void harbor_uuid(char out[37])
{
	char hex[33];

	harbor_random_hex(hex, 32);
	hex[12] = '4';
	hex[16] = "89ab"[hex[16] % 4];
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

char *harbor_trial_name(const char *task_name)
{
	static const char alphabet[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
	const char *slash = strrchr(task_name, '/');
	char shortname[33], suffix[8];
	unsigned char rnd[7];

	snprintf(shortname, sizeof shortname, "%s", slash ? slash + 1 : task_name);
	for (size_t n = strlen(shortname); n > 0 && strchr("_-", shortname[n - 1]); n--)
		shortname[n - 1] = '\0';
	random_bytes(rnd, sizeof rnd);
	for (int i = 0; i < 7; i++)
		suffix[i] = alphabet[rnd[i] % (sizeof alphabet - 1)];
	suffix[7] = '\0';
	return text_fmt("%s__%s", shortname, suffix);
}

jv harbor_exception(const char *type, const char *message)
{
	char now[CLOCK_UTC_LEN];

	clock_utc_now(now);
	return JV_OBJECT(jv_string("exception_type"), jv_string(type),
			 jv_string("exception_message"), jv_string(message),
			 jv_string("exception_traceback"), jv_null(),
			 jv_string("occurred_at"), jv_string(now));
}

jv harbor_timing(const char *started)
{
	char now[CLOCK_UTC_LEN];

	clock_utc_now(now);
	return JV_OBJECT(jv_string("started_at"), jv_string(started),
			 jv_string("finished_at"), jv_string(now));
}

static int flat_number_map(jv v)
{
	int ok = jv_get_kind(v) == JV_KIND_OBJECT && jv_object_length(jv_copy(v)) > 0;

	if (ok)
		jv_object_foreach(v, k, x) {
			ok = ok && jv_get_kind(x) == JV_KIND_NUMBER;
			jv_free(k);
			jv_free(x);
		}
	return ok;
}

int harbor_read_rewards(const char *verifier_dir, jv *rewards,
			const char **type, struct pc_err *e)
{
	char *json_path = io_join(verifier_dir, HARBOR_REWARD_JSON_FILE);
	char *txt_path = io_join(verifier_dir, HARBOR_REWARD_TXT_FILE);
	int rc = 0;

	if (access(json_path, F_OK) == 0) {
		jv doc;
		if (json_read_file(json_path, &doc, e) != 0)
			*type = "VerifierOutputParseError", rc = -1;
		else if (!flat_number_map(doc)) {
			jv_free(doc);
			*type = "VerifierOutputParseError";
			rc = pc_fail(e, "%s: must be a non-empty object of numbers", json_path);
		} else
			*rewards = doc;
	} else if (access(txt_path, F_OK) == 0) {
		FILE *f = fopen(txt_path, "r");
		char buf[256] = "", *end;
		size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = '\0';
		double x = strtod(buf, &end);
		while (*end && isspace((unsigned char)*end))
			end++;
		if (text_is_blank(buf, strlen(buf)))
			*type = "RewardFileEmptyError", rc = pc_fail(e, "%s is empty", txt_path);
		else if (*end || end == buf)
			*type = "VerifierOutputParseError",
			rc = pc_fail(e, "%s: not a number: %.40s", txt_path, buf);
		else
			*rewards = JV_OBJECT(jv_string("reward"), jv_number(x));
	} else {
		*type = "RewardFileNotFoundError";
		rc = pc_fail(e, "no reward file: neither %s nor %s", json_path, txt_path);
	}
	free(json_path);
	free(txt_path);
	return rc;
}

jv harbor_trial_rewards(jv step_results, const char *strategy)
{
	jv sums = jv_object(), last = jv_null();
	int counted = 0;

	jv_array_foreach(step_results, i, step) {
		jv rewards = json_at(step, HARBOR_REWARDS_PATH);
		if (jv_get_kind(rewards) == JV_KIND_OBJECT) {
			counted++;
			jv_object_foreach(rewards, k, x) {
				jv old = jv_object_get(jv_copy(sums), jv_copy(k));
				double base = jv_get_kind(old) == JV_KIND_NUMBER
						      ? jv_number_value(old)
						      : 0;
				jv_free(old);
				sums = jv_object_set(sums, k, jv_number(base + jv_number_value(x)));
				jv_free(x);
			}
		}
		jv_free(last);
		last = rewards;
		jv_free(step);
	}
	jv_free(step_results);
	if (!strcmp(strategy, "final")) {
		jv_free(sums);
		return last;
	}
	jv_free(last);
	if (!counted) {
		jv_free(sums);
		return jv_null();
	}
	jv mean = jv_object();
	jv_object_foreach(sums, k, x) { /* a key missing in a step counts 0 */
		mean = jv_object_set(mean, k, jv_number(jv_number_value(x) / counted));
		jv_free(x);
	}
	jv_free(sums);
	return mean;
}

jv harbor_acp_summary(const char *instruction, jv initialize, jv session,
		      jv prompt_response, const char *error_type,
		      const char *error_message, int permissions_requested)
{
	jv s = JV_OBJECT(jv_string("registry_entry_id"), jv_string("pc-e2e-local"),
			 jv_string("registry_entry_version"), jv_string(PC_VERSION),
			 jv_string("workspace"), jv_string("/workspace"),
			 jv_string("auth_policy"), jv_string("disabled"),
			 jv_string("requested_model"), jv_null(),
			 jv_string("instruction"), jv_string(instruction),
			 jv_string("initialize"), initialize);
	jv agent_info = jv_get_kind(initialize) == JV_KIND_OBJECT
				? jv_object_get(jv_copy(initialize), jv_string("agentInfo"))
				: jv_null();

	s = jv_object_set(s, jv_string("agent_info"),
			  jv_is_valid(agent_info) ? agent_info : jv_null());
	s = jv_object_set(s, jv_string("auth_methods"), jv_array());
	s = jv_object_set(s, jv_string("selected_authenticate_method_id"), jv_null());
	s = jv_object_set(s, jv_string("session"), session);
	s = jv_object_set(s, jv_string("prompt_response"), prompt_response);
	if (error_type)
		s = jv_object_set(s, jv_string("error"),
				  JV_OBJECT(jv_string("type"), jv_string(error_type),
					    jv_string("message"), jv_string(error_message)));
	s = jv_object_set(s, jv_string("latest_usage_update"), jv_null());
	s = jv_object_set(s, jv_string("latest_session_info_update"), jv_null());
	s = jv_object_set(s, jv_string("permissions_requested"), jv_number(permissions_requested));
	s = jv_object_set(s, jv_string("events_file"), jv_string(HARBOR_ACP_EVENTS_FILE));
	return s;
}

static const char *update_kind(jv u)
{
	const char *k = json_str(u, "sessionUpdate");

	return k ? k : "unknown";
}

static void add_text_chunk(struct sbuf *b, jv u)
{
	jv content = jv_object_get(jv_copy(u), jv_string("content"));
	const char *t = json_str(content, "text");

	if (t)
		sbuf_add(b, t);
	jv_free(content);
}

#define UNKNOWN_SESSION "pc-e2e-local-unknown-session"

jv harbor_trajectory(const char *prog, const char *session_id, jv agent_info,
		     const char *instruction, jv updates, int permissions_requested)
{
	struct sbuf message = { 0 };
	jv counts = jv_object(), calls = jv_array();

	jv_array_foreach(updates, i, u) {
		const char *kind = update_kind(u);
		jv old = jv_object_get(jv_copy(counts), jv_string(kind));
		counts = jv_object_set(
			counts, jv_string(kind),
			jv_number((jv_get_kind(old) == JV_KIND_NUMBER ? jv_number_value(old) : 0) +
				  1));
		jv_free(old);
		if (!strcmp(kind, "agent_message_chunk"))
			add_text_chunk(&message, u);
		else if (!strcmp(kind, "tool_call")) {
			jv input = jv_object_get(jv_copy(u), jv_string("rawInput"));
			if (jv_get_kind(input) != JV_KIND_OBJECT) {
				input = jv_get_kind(input) == JV_KIND_INVALID
						? jv_object()
						: JV_OBJECT(jv_string("value"), input);
			}
			const char *title = json_str(u, "title");
			jv call = JV_OBJECT(
				jv_string("tool_call_id"), json_get(u, "toolCallId"),
				jv_string("function_name"), jv_string(title ? title : "tool"),
				jv_string("arguments"), input);
			calls = jv_array_append(calls, call);
		}
		jv_free(u);
	}
	jv_free(updates);
	char *text = sbuf_take(&message);
	jv agent_step = JV_OBJECT(jv_string("step_id"), jv_number(2),
				  jv_string("source"), jv_string("agent"),
				  jv_string("message"), jv_string(text));
	free(text);
	if (jv_array_length(jv_copy(calls)) > 0)
		agent_step = jv_object_set(agent_step, jv_string("tool_calls"), calls);
	else
		jv_free(calls);
	jv extra = JV_OBJECT(jv_string("session_update_counts"), counts,
			     jv_string("permissions_requested"), jv_number(permissions_requested));
	agent_step = jv_object_set(agent_step, jv_string("extra"), extra);
	const char *name = json_str(agent_info, "name"), *version = json_str(agent_info, "version");
	jv agent = JV_OBJECT(jv_string("name"), jv_string(name ? name : "unknown"),
			     jv_string("version"), jv_string(version ? version : "unknown"));
	jv user_step = JV_OBJECT(jv_string("step_id"), jv_number(1),
				 jv_string("source"), jv_string("user"),
				 jv_string("message"), jv_string(instruction));
	jv doc = JV_OBJECT(
		jv_string("schema_version"), jv_string("ATIF-v1.6"),
		jv_string("session_id"), jv_string(session_id ? session_id : UNKNOWN_SESSION),
		jv_string("agent"), agent,
		jv_string("steps"), JV_ARRAY(user_step, agent_step),
		jv_string("notes"),
		jv_string_fmt(
			"Converted from ACP session updates by %s's local runner; one agent step per prompt.",
			prog),
		jv_string("final_metrics"), JV_OBJECT(jv_string("total_steps"), jv_number(2)));
	jv_free(agent_info);
	return doc;
}

char *harbor_file_uri(const char *path)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/-._~", *p))
			sbuf_addn(&b, (const char *)p, 1);
		else
			sbuf_addf(&b, "%%%02X", *p);
	}
	return sbuf_take(&b);
}

int harbor_write_json(const char *dir, const char *name, jv v, struct pc_err *e)
{
	char *text = json_pretty(v);
	int rc = io_write_artifact(dir, name, text, strlen(text), e);

	free(text);
	return rc;
}
