/* account: each paired arm's account.json beside its observation.json
 * (docs/paired.md): why it errored (the record's fault) and what it spent,
 * the agent's tokens and the Server's extraction, priced by --prices.
 *
 * The accounts are written once every arm of the run is in: a step that
 * errored without figures is estimated as the run's mean for the same
 * step name, and counted as estimated, so a budget is not fooled by it.
 * The observation itself stays 1.4.1's, untouched.
 */
#ifndef PC_NORMALIZE_ACCOUNT_H
#define PC_NORMALIZE_ACCOUNT_H

#include <jv.h>

#include "err.h"
#include "redact.h"

struct accounts {
	jv arms;   /* [{dir, fault, models, observation}], in run order */
	jv prices; /* the --prices table, or null */
};

/* prices: the table (consumed), or null for accounts without usd. */
void accounts_init(struct accounts *a, jv prices);
void accounts_free(struct accounts *a);

/* One arm: its directory under the output (borrowed), its run record and
 * its observation (both borrowed). */
void accounts_add(struct accounts *a, const char *dir, jv record, jv observation);

/* Every arm's account.json under outdir, redacted; -1 with e at the first
 * that cannot be written. */
int accounts_write(const struct accounts *a, const char *outdir, const struct redactor *red,
		   struct pc_err *e);

#endif
