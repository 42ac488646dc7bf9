/* acp: a client of the Agent Client Protocol v1 over an agent's stdio.
 *
 * It sends requests and waits for their responses while serving what the
 * agent sends meanwhile: session/update notifications are recorded,
 * session/request_permission is answered by the allow policy, the terminal
 * methods are served through the caller's terminal host when it set one
 * (Harbor serves them too), any other request is refused with -32601.  Every callback is appended
 * to the acp-events.jsonl file in Harbor's format.  A deadline bounds every wait; a crash, hang,
 * non-JSON output or closed pipe becomes an error value.
 */
#ifndef PC_ACP_H
#define PC_ACP_H

#include <jv.h>
#include <stdio.h>

#include "base/acp_answer.h"
#include "base/proc.h"
#include "err.h"

#define ACP_PROTOCOL_VERSION 1

struct acp_client {
	struct proc proc;
	char *buf;
	size_t len, cap;
	long next_id;
	long long deadline_ms; /* absolute, proc_now_ms() clock */
	jv updates;            /* every session/update "update" object */
	int started;
	/* the agent's requests answered, and the event log (its terminal host
	 * the caller sets after acp_start) */
	struct acp_answers answers;
	const char *prog; /* the caller's name, which a stop's error names (set after acp_start) */
	FILE *stderr_log; /* acp.txt: the agent's stderr, up to ACP_STDERR_CAP bytes */
	long long stderr_kept, stderr_dropped;
};

/* The most of an agent's stderr kept per run; the rest is counted, and
 * the count noted at the end of its file. */
#define ACP_STDERR_CAP (16LL * 1024 * 1024)

/* Spawn the agent; events_path receives the event log.
 *
 * With fifo_dir NULL the agent's stdin and stdout are pipes.  A launcher that
 * stays alive beside the agent (bubblewrap's monitor) keeps its own copy of
 * such a pipe, so an agent closing its stdout would never be seen; with
 * fifo_dir set, the conversation runs over the FIFOs fifo_dir/in and
 * fifo_dir/out instead, which argv must open as the agent's stdin and stdout
 * (the launcher itself gets /dev/null and the stderr file). */
int acp_start(struct acp_client *c, char *const argv[], char *const env[],
	      const char *stderr_path, const char *events_path,
	      const char *fifo_dir, struct pc_err *e);

/* Whether the client serves the terminal methods (what initialize should advertise). */
#define ACP_SERVES_TERMINALS(c) ((c)->answers.terminal_host != NULL)

/* Send a request and wait (until c->deadline_ms) for its result. */
int acp_request(struct acp_client *c, const char *method, jv params,
		jv *result, struct pc_err *e);

/* Close stdin, give the agent grace_ms to exit, then kill its group. */
void acp_stop(struct acp_client *c, long grace_ms);

#endif
