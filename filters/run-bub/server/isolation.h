/* isolation: whether the Server keeps a paired comparison's arms apart
 * (docs/DESIGN.md §11.5).  Both arms' agents reach the same Server; only
 * its authentication keeps the OFF arm out of the ON arm's Memory, only its
 * Memory extraction gives the ON arm something to recall, and only its
 * Access audit shows what an ON arm reached outside its own Scope.
 */
#ifndef PC_RUN_BUB_ISOLATION_H
#define PC_RUN_BUB_ISOLATION_H

#include "err.h"
#include "server/pcclient.h"

/* 0 when the Server is ready, answers 401 to a client without a token,
 * reports Memory extraction and lets the client read its Access audit. */
int isolation_check(const struct pc_client *c, struct pc_err *e);

#endif
