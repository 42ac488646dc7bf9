/* ledger_db: what the ledger needs of a database, one backend per engine.
 *
 * The ledger's schema logic and its SQL text are shared (ledger.c); a
 * backend (ledger_sqlite.c, ledger_mariadb.c) runs statements with bound
 * parameters only, never SQL built from input, and says where the two
 * dialects differ.  Parameters and rows are jv arrays of strings, numbers
 * and nulls.
 */
#ifndef PC_REPORT_LEDGER_DB_H
#define PC_REPORT_LEDGER_DB_H

#include <jv.h>

#include "err.h"
#include "ledger_url.h"

/* exec's and begin's result when the engine gave up on a lock (a deadlock,
 * a busy timeout): the transaction was rolled back and may be retried. */
#define LEDGER_RETRY (-2)

struct ledger_db;

struct ledger_backend {
	const char *id_column;     /* an auto-incremented integer primary key */
	const char *table_options; /* after CREATE TABLE's closing parenthesis */
	const char *long_text;     /* a column for JSON of any length */
	/* After an INSERT, what keeps the row already there: a format given
	 * the primary key's column twice. */
	const char *keep_existing;
	struct ledger_db *(*open)(const struct ledger_url *u, struct pc_err *e);
	int (*exec)(struct ledger_db *db, const char *sql, jv params, struct pc_err *e);
	/* The rows, each an array of the selected columns; invalid on error. */
	jv (*query)(struct ledger_db *db, const char *sql, jv params, struct pc_err *e);
	int (*begin)(struct ledger_db *db, struct pc_err *e);
	int (*commit)(struct ledger_db *db, struct pc_err *e);
	void (*rollback)(struct ledger_db *db);
	void (*close)(struct ledger_db *db);
};

extern const struct ledger_backend ledger_sqlite, ledger_mariadb;

#endif
