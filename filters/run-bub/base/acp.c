#include "base/acp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "text.h"

/* Our ends of the FIFOs: reading "out" without blocking (no writer yet is
 * not end of file: poll reports a hang-up only after a writer came and
 * went), writing "in" opened read-write so the open never blocks. */
static int open_fifos(struct acp_client *c, const char *dir, struct pc_err *e)
{
	char *in = text_fmt("%s/in", dir), *out = text_fmt("%s/out", dir);
	int rc = 0;

	if (mkfifo(in, 0600) != 0 || mkfifo(out, 0600) != 0)
		rc = pc_fail_errno(e, "cannot create the agent's FIFOs in %s", dir);
	else if ((c->proc.out_fd = open(out, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
		 (c->proc.in_fd = open(in, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0)
		rc = pc_fail_errno(e, "cannot open the agent's FIFOs in %s", dir);
	free(in);
	free(out);
	return rc;
}

int acp_start(struct acp_client *c, char *const argv[], char *const env[],
	      const char *stderr_path, const char *events_path,
	      const char *fifo_dir, struct pc_err *e)
{
	memset(c, 0, sizeof *c);
	c->updates = jv_array();
	c->answers.terminals = jv_object();
	c->deadline_ms = -1;
	c->proc.in_fd = c->proc.out_fd = -1;
	c->answers.events = fopen(events_path, "ae");
	if (!c->answers.events)
		return pc_fail_errno(e, "%s: cannot create", events_path);
	c->stderr_log =
		fopen(stderr_path, "ae"); /* never the agent's: it writes through the pipe */
	if (!c->stderr_log)
		return pc_fail_errno(e, "%s: cannot create", stderr_path);
	setvbuf(c->stderr_log, NULL, _IONBF, 0); /* on disk as it comes, for whoever follows it */
	signal(SIGPIPE, SIG_IGN);                /* a dead agent is an error value, not our death */
	if (fifo_dir) {
		int in_fd, out_fd;
		if (open_fifos(c, fifo_dir, e) != 0)
			return -1;
		in_fd = c->proc.in_fd;
		out_fd = c->proc.out_fd;
		if (proc_spawn(&c->proc, argv, env, NULL, NULL, PROC_STDERR_PIPE, e) != 0) {
			close(in_fd);
			close(out_fd);
			return -1;
		}
		c->proc.in_fd = in_fd;
		c->proc.out_fd = out_fd;
	} else if (proc_spawn(&c->proc, argv, env, NULL, NULL, PROC_PIPES | PROC_STDERR_PIPE, e) !=
		   0)
		return -1;
	c->started = 1;
	return 0;
}

/* Move what the agent wrote to stderr into its file, within the cap: read
 * without blocking until nothing is left, closing the pipe at its end.
 * 1 when it stopped with more perhaps still there. */
static int drain_stderr(struct acp_client *c)
{
	char buf[65536];

	/* a bounded turn, so an endless writer cannot keep the caller from its
	 * deadline: what is left waits for the next poll */
	for (int turn = 0; turn < 16 && c->proc.err_fd >= 0; turn++) {
		ssize_t got = read(c->proc.err_fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return 0;
		if (got <= 0) {
			close(c->proc.err_fd);
			c->proc.err_fd = -1;
			return 0;
		}
		long long room = ACP_STDERR_CAP - c->stderr_kept, keep = got < room ? got : room;
		if (keep > 0 && c->stderr_log)
			fwrite(buf, 1, (size_t)keep, c->stderr_log);
		c->stderr_kept += keep;
		c->stderr_dropped += got - keep;
	}
	return c->proc.err_fd >= 0;
}

/* Wait up to ms for the agent to exit, draining its stderr meanwhile so a
 * full pipe never holds it up. */
static int wait_draining(struct acp_client *c, long ms)
{
	long long until = proc_now_ms() + ms;

	while (!proc_wait(&c->proc, 0)) {
		if (proc_now_ms() >= until || proc_stop_signal())
			return 0;
		struct pollfd pfd = { c->proc.err_fd, POLLIN, 0 };
		if (poll(&pfd, 1, 10) > 0)
			drain_stderr(c);
	}
	return 1;
}

static int send_frame(struct acp_client *c, jv frame, struct pc_err *e)
{
	jv s = jv_dump_string(frame, 0);
	const char *p = jv_string_value(s);
	size_t n = strlen(p);
	int rc = 0;

	while (n > 0 && rc == 0) {
		ssize_t w = write(c->proc.in_fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			rc = pc_fail(e, "the agent is not reading its input");
		else if (w < 0)
			rc = pc_fail_errno(e, "cannot write to the agent");
		else {
			p += w;
			n -= (size_t)w;
		}
	}
	if (rc == 0 && write(c->proc.in_fd, "\n", 1) != 1)
		rc = pc_fail(e, "cannot write to the agent");
	jv_free(s);
	return rc;
}

static void describe_exit(struct acp_client *c, char *buf, size_t len)
{
	if (proc_wait(&c->proc, 200))
		proc_describe(c->proc.status, buf, len);
	else
		snprintf(buf, len, "still running");
}

/* Next complete line from the agent's stdout, waiting until the deadline. */
static int read_line(struct acp_client *c, char **line, const char *waiting_for,
		     struct pc_err *e)
{
	for (;;) {
		char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			*line = pc_xmalloc(n + 1);
			memcpy(*line, c->buf, n);
			(*line)[n] = '\0';
			memmove(c->buf, nl + 1, c->len - n - 1);
			c->len -= n + 1;
			return 0;
		}
		long long left = c->deadline_ms < 0 ? -1 : c->deadline_ms - proc_now_ms();
		if (proc_stop_signal())
			return pc_fail(e, "stopped waiting for %s: %s received %s", waiting_for,
				       c->prog, proc_stop_name());
		if (c->deadline_ms >= 0 && left <= 0)
			return pc_fail(e, "agent timed out waiting for %s", waiting_for);
		struct pollfd pfd[2] = { { c->proc.out_fd, POLLIN, 0 },
					 { c->proc.err_fd, POLLIN, 0 } };
		/* short waits: an agent that dies before opening its output
		 * shows up only as an exited process */
		int r = poll(pfd, 2, left < 0 || left > 200 ? 200 : (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0 && pfd[1].revents)
			drain_stderr(c);
		if (!(r > 0 && pfd[0].revents)) {
			if (proc_wait(&c->proc, 0)) {
				char how[128];
				proc_describe(c->proc.status, how, sizeof how);
				return pc_fail(e, "agent exited (%s) while waiting for %s", how,
					       waiting_for);
			}
			continue;
		}
		if (c->cap - c->len < 65536) {
			c->cap = c->cap * 2 + 65536;
			c->buf = pc_xrealloc(c->buf, c->cap);
		}
		ssize_t got = read(c->proc.out_fd, c->buf + c->len, c->cap - c->len);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			char how[128];
			describe_exit(c, how, sizeof how);
			return pc_fail(e, "agent closed its output while waiting for %s (%s)",
				       waiting_for, how);
		}
		c->len += (size_t)got;
	}
}

static int serve_request(struct acp_client *c, jv msg, struct pc_err *e)
{
	const char *method = json_str(msg, "method");
	jv id = jv_object_get(jv_copy(msg), jv_string("id"));
	jv params = jv_object_get(jv_copy(msg), jv_string("params"));
	jv reply = acp_answer(&c->answers, method, id, params, c->deadline_ms);
	jv_free(params);
	return send_frame(c, reply, e);
}

static void take_notification(struct acp_client *c, jv msg)
{
	const char *method = json_str(msg, "method");
	jv params = jv_object_get(jv_copy(msg), jv_string("params"));

	if (!strcmp(method, "session/update") && jv_get_kind(params) == JV_KIND_OBJECT) {
		jv update = jv_object_get(jv_copy(params), jv_string("update"));
		c->updates = jv_array_append(c->updates, jv_copy(update));
		acp_record(&c->answers, "session_update",
			   JV_OBJECT(jv_string("session_id"), json_get(params, "sessionId"),
				     jv_string("update"), update));
	}
	jv_free(params);
}

static int rpc_error(jv error, const char *method, struct pc_err *e)
{
	jv data = jv_object_get(jv_copy(error), jv_string("data"));
	jv code = jv_object_get(jv_copy(error), jv_string("code"));
	const char *message = json_str(error, "message");
	jv data_text = jv_is_valid(data) && jv_get_kind(data) != JV_KIND_NULL
			       ? jv_dump_string(jv_copy(data), 0)
			       : jv_string("");

	pc_fail(e, "%s failed: %g %s%s%s", method,
		jv_get_kind(code) == JV_KIND_NUMBER ? jv_number_value(code) : 0.0,
		message ? message : "error", jv_string_length_bytes(jv_copy(data_text)) ? ": " : "",
		jv_string_value(data_text));
	jv_free(data_text);
	jv_free(data);
	jv_free(code);
	return -1;
}

int acp_request(struct acp_client *c, const char *method, jv params,
		jv *result, struct pc_err *e)
{
	long id = c->next_id++;
	jv frame = JV_OBJECT(jv_string("jsonrpc"), jv_string("2.0"),
			     jv_string("id"), jv_number((double)id),
			     jv_string("method"), jv_string(method),
			     jv_string("params"), params);

	if (send_frame(c, frame, e) != 0)
		return -1;
	for (;;) {
		char *line = NULL;
		if (read_line(c, &line, method, e) != 0)
			return -1;
		if (text_is_blank(line, strlen(line))) {
			free(line);
			continue;
		}
		jv msg = jv_parse(line);
		if (!jv_is_valid(msg) || jv_get_kind(msg) != JV_KIND_OBJECT) {
			pc_fail(e, "agent wrote a non-JSON-RPC line while waiting for %s: %.200s",
				method, line);
			free(line);
			jv_free(msg);
			return -1;
		}
		free(line);
		int has_method = json_str(msg, "method") != NULL;
		jv mid = jv_object_get(jv_copy(msg), jv_string("id"));
		int has_id = jv_is_valid(mid);
		int ours = has_id && !has_method && jv_get_kind(mid) == JV_KIND_NUMBER &&
			   jv_number_value(mid) == (double)id;
		jv_free(mid);
		if (has_method && has_id) {
			int rc = serve_request(c, msg, e);
			jv_free(msg);
			if (rc != 0)
				return -1;
		} else if (has_method)
			take_notification(c, msg), jv_free(msg);
		else if (ours) {
			jv err = jv_object_get(jv_copy(msg), jv_string("error"));
			int failed = jv_is_valid(err) && jv_get_kind(err) != JV_KIND_NULL;
			int rc = failed ? rpc_error(err, method, e) : 0;
			if (!failed)
				*result = jv_object_get(jv_copy(msg), jv_string("result"));
			jv_free(err);
			jv_free(msg);
			return rc;
		} else
			jv_free(msg);
	}
}

void acp_stop(struct acp_client *c, long grace_ms)
{
	if (c->started) {
		if (c->proc.in_fd >= 0) {
			close(c->proc.in_fd);
			c->proc.in_fd = -1;
		}
		if (!wait_draining(c, grace_ms))
			proc_kill(&c->proc, 2000);
		else
			proc_kill(&c->proc, 0);
		/* what is left: every writer is gone, so the end comes soon */
		for (int turn = 0; turn < 64 && drain_stderr(c); turn++)
			;
		proc_close(&c->proc);
		c->started = 0;
	}
	if (c->stderr_log && c->stderr_dropped)
		fprintf(c->stderr_log,
			"\n[pc-e2e: the agent's stderr was cut at %lld bytes; %lld more were discarded]\n",
			c->stderr_kept, c->stderr_dropped);
	if (c->stderr_log)
		fclose(c->stderr_log);
	c->stderr_log = NULL;
	if (c->answers.events)
		fclose(c->answers.events);
	c->answers.events = NULL;
	free(c->buf);
	c->buf = NULL;
	jv_free(c->updates);
	c->updates = jv_null();
	jv_free(c->answers.terminals);
	c->answers.terminals = jv_null();
}
