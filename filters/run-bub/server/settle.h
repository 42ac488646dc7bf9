/* settle: the ON arm's Scope between agent sessions (docs/DESIGN.md §11.5):
 * the flush that stands in for the time between real sessions, and the
 * Server's statistics snapshot after each session, as PowerContext 1.4.1's
 * paired command takes them.
 */
#ifndef PC_RUN_BUB_SETTLE_H
#define PC_RUN_BUB_SETTLE_H

#include <jv.h>

#include "err.h"
#include "server/pcclient.h"

/* The retries of a call the Server answers 503 artifact_owner_pending
 * (another request has not yet recorded the owner of Memory it made): the
 * pauses in seconds before each further try. */
#define SETTLE_OWNER_PENDING_PAUSES \
	{                           \
		1, 2, 4, 8          \
	}
/* At most this many flush rounds after a session. */
#define SETTLE_FLUSH_ROUNDS_MAX 20

/* After agent session `session` (0-based) of scope: when flush, the flush
 * rounds, then the statistics; *snapshot is 1.4.1's SessionSnapshot
 * ({session, flush_rounds, sources, …}). */
int settle_session(const struct pc_client *c, const char *scope, int session, int flush,
		   jv *snapshot, struct pc_err *e);

#endif
