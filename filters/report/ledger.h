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

#include "err.h"
#include "report.h"

/* Where pc-report reads the password when the URL has none: argv is
 * visible to every local user, the environment is not. */
#define LEDGER_PASSWORD_ENV "PC_E2E_LEDGER_PASSWORD"

/* The schema version this pc-e2e writes; a ledger with a higher one is
 * refused. */
#define LEDGER_SCHEMA_VERSION 1

/* A parsed --ledger URL: sqlite:PATH or mysql://user[:password]@host[:port]/database. */
struct ledger_url {
	enum {
		LEDGER_SQLITE,
		LEDGER_MYSQL
	} kind;
	char *path;                   /* sqlite */
	char *user, *password, *host; /* mysql; password NULL when none */
	unsigned port;
	char *database;
	char *shown; /* the URL as messages print it: the password as "***" */
};

/* Parse url; a password from env_password (may be NULL) is used when the
 * URL has none.  -1 with a message naming --ledger when the URL is not one
 * of the two forms. */
int ledger_url_parse(const char *url, const char *env_password, struct ledger_url *u,
		     struct pc_err *e);
void ledger_url_free(struct ledger_url *u);

struct ledger;

/* Connect, create the schema on first use and refuse a newer one. */
struct ledger *ledger_open(const struct ledger_url *u, struct pc_err *e);
void ledger_close(struct ledger *l);

/* Record every spooled case of cs in one transaction: all or nothing.  A
 * run already recorded (same run id and experiment: a rescore) is
 * replaced. */
int ledger_record(struct ledger *l, struct cases *cs, struct pc_err *e);

/* The trend of c, once recorded: the last `runs` runs with its workload id
 * and comparability key up to its own run, oldest first (by finished_at,
 * then by when they were recorded), as trend.h describes; jv_invalid() with
 * e filled on error. */
jv ledger_trend(struct ledger *l, const struct report_case *c, int runs, struct pc_err *e);

#endif
