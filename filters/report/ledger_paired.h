/* ledger_paired: a paired run's arms in the ledger (pc-report --paired
 * --ledger URL).
 *
 * Each arm observation is a case: its run id, the paired report's
 * experiment, its task as the workload id, its outcome as the verdict, a
 * comparability key of its own kind (paired, the experiment, the arm), and
 * from its account its spend and its fault as values of kinds "spend" and
 * "fault".  docs/ledger.md says which columns hold what, and why.
 */
#ifndef PC_REPORT_LEDGER_PAIRED_H
#define PC_REPORT_LEDGER_PAIRED_H

#include <jv.h>

#include "err.h"
#include "ledger_url.h"

/* Record in the ledger at u, in one transaction, every arm of observations
 * (an array of powercontext.e2e-paired-arm/v3) with its account from
 * accounts (an array of pc-e2e.paired-arm-account/v1, matched by run id;
 * an arm without one has no values), under report's experiment; a run
 * recorded again replaces its earlier record.  All borrowed.  -1 with e
 * filled (nothing recorded) on error, and when there is no arm. */
int ledger_write_paired(const struct ledger_url *u, jv report, jv observations, jv accounts,
			struct pc_err *e);

#endif
