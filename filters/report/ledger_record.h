/* ledger_record: the ledger's write, shared by what pc-report records in it:
 * the verdicts' cases (ledger.c) and a paired run's arms (ledger_paired.c).
 *
 * A case is one row of pc_e2e_cases and its rows of pc_e2e_values; a case
 * recorded again (its run id and experiment) replaces the earlier one.
 * ledger_record runs one transaction over whatever its fill puts, written
 * again after a deadlock, all or nothing.  docs/ledger.md has the schema.
 */
#ifndef PC_REPORT_LEDGER_RECORD_H
#define PC_REPORT_LEDGER_RECORD_H

#include <jv.h>

#include "clock.h"
#include "err.h"
#include "ledger_url.h"

struct ledger;

/* The longest run id, experiment, workload id, PowerContext commit and
 * value name the ledger keeps (VARCHAR(255)), in bytes. */
#define LEDGER_KEY_MAX 255

/* Connect to the ledger at u, create its schema on first use and refuse a
 * newer one: NULL with e filled (naming the ledger) on error. */
struct ledger *ledger_open(const struct ledger_url *u, struct pc_err *e);
void ledger_close(struct ledger *l);

/* One transaction's state: a fill sets rc (0, -1 with e filled, or
 * LEDGER_RETRY from the backend) and, once it is not 0, puts nothing
 * more. */
struct ledger_pass {
	struct ledger *l;
	char now[CLOCK_UTC_LEN];
	struct pc_err *e;
	int rc;
};

/* One case as the ledger records it, every jv owned: run_id, experiment
 * and workload_id strings, finished_at and commit strings or null, fields
 * (an object) its comparability key, verdict what the verdict column says
 * (16 bytes at most), and named how an error names the five columns
 * before fields ("its attributes.run_id"). */
struct ledger_case {
	jv run_id, experiment, workload_id, finished_at, commit, fields;
	const char *verdict;
	const char *const *named;
};

/* Replace c's earlier record by its row (c consumed), after checking that
 * its strings fit their columns; a no-op once p->rc is not 0. */
void ledger_put_case(struct ledger_pass *p, struct ledger_case *c);

/* One value of the case run_id, experiment (borrowed): kind, its order seq
 * in the case, name, value and reason (a string or null), those three
 * consumed; a no-op once p->rc is not 0. */
void ledger_put_value(struct ledger_pass *p, jv run_id, jv experiment, const char *kind, int seq,
		      jv name, jv value, jv reason);

/* Record in l, in one transaction, what fill (given p and ctx) puts: 0, or
 * -1 with e saying that nothing of the run was recorded. */
int ledger_record(struct ledger *l, void (*fill)(struct ledger_pass *p, void *ctx), void *ctx,
		  struct pc_err *e);

#endif
