/* ledger: pc-report's run history, in SQLite or on a MySQL-protocol server.
 *
 * The ledger is a sink: pc-report records each case it read (its verdict,
 * every assertion, score, label and metric, the run's time and a
 * comparability key) in one transaction per invocation, and reads back, per
 * case, the comparable runs that make its trend.  docs/ledger.md has the
 * schema, the key's fields and why.  Every message names the ledger by its
 * URL with the password masked.
 */
#ifndef PC_REPORT_LEDGER_H
#define PC_REPORT_LEDGER_H

#include "cases.h"
#include "err.h"
#include "ledger_url.h"

/* The schema version this pc-e2e writes; a ledger with a higher one is
 * refused. */
#define LEDGER_SCHEMA_VERSION 1

/* Connect to the ledger at u (creating its schema on first use, refusing
 * a newer one) and record every spooled case of cs in one transaction: all
 * or nothing.  A run already recorded (same run id and experiment: a
 * rescore) is replaced.  With trend_runs above 0 (--trend), spool the cases
 * again, each with its trend: the last trend_runs runs with its workload id
 * and comparability key up to its own run, oldest first (by finished_at,
 * then by when they were recorded), as trend.h describes; cs's spool is
 * replaced only when every trend was read.  -1 with e filled on error. */
int ledger_write(const struct ledger_url *u, struct cases *cs, int trend_runs, struct pc_err *e);

#endif
