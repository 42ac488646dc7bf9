/* trend: a case's verdicts over its comparable runs, and what changed.
 *
 * A trend (struct report_case.trend) is an array, oldest first and the
 * current run last, of {run_id, finished_at, verdict, scores}; the ledger
 * builds it (ledger.h) and every format renders it from here.  A verdict is
 * one of verdict_name()'s or "unknown" (a ledger row that holds none of
 * them), so it is safe to print anywhere.
 */
#ifndef PC_REPORT_TREND_H
#define PC_REPORT_TREND_H

#include <jv.h>

#include "text.h"

/* "new" (one run), "stable", "regression", "recovered" or "flaky"; NULL
 * when trend (borrowed) is null.  Verdict changes are counted over the
 * window with skipped runs left out: none is stable; one is a regression
 * when it went from accepted to anything else, else recovered; two or more
 * is flaky. */
const char *trend_change(jv trend);

/* The trend's (borrowed) verdicts as letters, oldest first: "A A F"
 * (accepted, failed, inconclusive, skipped, unknown: A F I S U). */
void trend_add_letters(struct sbuf *b, jv trend);

#endif
