/* acp_answer: the client's side of the agent's requests, and the event
 * log (acp-events.jsonl) both directions are recorded in.
 *
 * A permission request is answered by Harbor's allow policy, the terminal
 * methods through the caller's terminal host when it set one, and any other
 * method as not found (JSON-RPC -32601).  Private to acp.c, which reads the
 * requests and sends the answers.
 */
#ifndef PC_RUN_BUB_ACP_ANSWER_H
#define PC_RUN_BUB_ACP_ANSWER_H

#include <jv.h>

#include "acp.h"

/* Append one event (payload consumed) to the client's event log. */
void acp_record(struct acp_client *c, const char *type, jv payload);

/* The reply frame to request method with id (consumed) and params
 * (borrowed). */
jv acp_answer(struct acp_client *c, const char *method, jv id, jv params);

#endif
