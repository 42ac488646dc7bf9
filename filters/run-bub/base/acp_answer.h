/* acp_answer: the client's side of the agent's requests, and the event
 * log (acp-events.jsonl) both directions are recorded in.
 *
 * A permission request is answered by Harbor's allow policy, the terminal
 * methods through the caller's terminal host when it set one, and any other
 * method as not found (JSON-RPC -32601).  Private to acp.c, which reads the
 * requests and sends the answers, and to its callers, which set the
 * terminal host.
 */
#ifndef PC_RUN_BUB_ACP_ANSWER_H
#define PC_RUN_BUB_ACP_ANSWER_H

#include <jv.h>
#include <stdio.h>

#include "err.h"

/* What a terminal/create command did. */
struct acp_terminal_result {
	char *output; /* stdout and stderr merged (run_command allocates, acp frees) */
	size_t len;
	int signalled; /* 0: exited with code; 1: killed (the deadline passed) */
	int code;
};

/* Runs the command of a terminal/create request (params borrowed) to the
 * end, or until deadline_ms (-1: none), inside whatever the agent lives in.
 * The command has ended when terminal/create is answered, so output and
 * wait_for_exit always find it finished: an agent that waits sees what
 * Harbor's background terminals give, one that does not still waits. */
struct acp_terminal_host {
	int (*run_command)(void *ctx, jv params, long long deadline_ms,
			   struct acp_terminal_result *out, struct pc_err *e);
	void *ctx;
};

/* The answering side of one client (struct acp_client holds it; acp.c
 * opens and closes what it owns). */
struct acp_answers {
	FILE *events; /* owned: acp-events.jsonl */
	int permissions_requested;
	/* borrowed from the caller; NULL: the terminal methods are refused */
	const struct acp_terminal_host *terminal_host;
	jv terminals; /* owned: terminalId -> {output, truncated, exitStatus} */
	int terminals_created;
};

/* Append one event (payload consumed) to the event log. */
void acp_record(struct acp_answers *a, const char *type, jv payload);

/* The reply frame to request method with id (consumed) and params
 * (borrowed); a terminal command runs until deadline_ms at most (the
 * client's, -1: none). */
jv acp_answer(struct acp_answers *a, const char *method, jv id, jv params,
	      long long deadline_ms);

#endif
