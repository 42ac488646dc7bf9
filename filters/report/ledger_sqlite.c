/* The ledger in an SQLite file, through the sqlite3 C API. */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "ledger_db.h"

/* How long a writer waits for another one's transaction to end. */
#define BUSY_TIMEOUT_MS 60000

/* Statements are prepared once per SQL text (the ledger's are string
 * literals, so the pointer names them): a run of 1,000 cases executes the
 * same few tens of thousands of times. */
#define CACHED 16

struct ledger_db {
	sqlite3 *db;
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[CACHED];
};

static int fail(struct ledger_db *d, struct pc_err *e, const char *what)
{
	int code = sqlite3_extended_errcode(d->db) & 0xff;

	pc_fail(e, "%s: %s", what, sqlite3_errmsg(d->db));
	return code == SQLITE_BUSY || code == SQLITE_LOCKED ? LEDGER_RETRY : -1;
}

static struct ledger_db *sq_open(const struct ledger_url *u, struct pc_err *e)
{
	struct ledger_db *d = calloc(1, sizeof *d);

	if (!d) {
		pc_fail(e, "out of memory");
		return NULL;
	}
	/* no URI filenames: the path is a path */
	if (sqlite3_open_v2(u->path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		if (d->db)
			fail(d, e, "cannot open it");
		else
			pc_fail(e, "cannot open it: out of memory");
		sqlite3_close(d->db);
		free(d);
		return NULL;
	}
	sqlite3_busy_timeout(d->db, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(d->db, 1);
	return d;
}

static sqlite3_stmt *prepare(struct ledger_db *d, const char *sql, jv params, struct pc_err *e)
{
	sqlite3_stmt *s = NULL;
	int slot = -1;

	for (int i = 0; i < CACHED && slot < 0; i++)
		if (d->cache[i].sql == sql || !d->cache[i].sql)
			slot = i;
	if (slot >= 0 && d->cache[slot].sql == sql) {
		s = d->cache[slot].stmt;
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
	} else if (sqlite3_prepare_v2(d->db, sql, -1, &s, NULL) != SQLITE_OK) {
		fail(d, e, "cannot prepare a statement");
		jv_free(params);
		return NULL;
	} else if (slot >= 0) {
		d->cache[slot].sql = sql;
		d->cache[slot].stmt = s;
	}
	jv_array_foreach(params, i, p) {
		int rc;
		switch (jv_get_kind(p)) {
		case JV_KIND_STRING:
			rc = sqlite3_bind_text(s, i + 1, jv_string_value(p), -1, SQLITE_TRANSIENT);
			break;
		case JV_KIND_NUMBER: rc = sqlite3_bind_double(s, i + 1, jv_number_value(p)); break;
		default: rc = sqlite3_bind_null(s, i + 1);
		}
		jv_free(p);
		if (rc != SQLITE_OK) {
			fail(d, e, "cannot bind a parameter");
			jv_free(params);
			if (slot < 0)
				sqlite3_finalize(s);
			return NULL;
		}
	}
	jv_free(params);
	return s;
}

/* A statement prepared outside the cache is finalized after its run. */
static void done(struct ledger_db *d, sqlite3_stmt *s)
{
	for (int i = 0; i < CACHED; i++)
		if (d->cache[i].stmt == s) {
			sqlite3_reset(s);
			return;
		}
	sqlite3_finalize(s);
}

static jv column(sqlite3_stmt *s, int i)
{
	switch (sqlite3_column_type(s, i)) {
	case SQLITE_INTEGER:
	case SQLITE_FLOAT: return jv_number(sqlite3_column_double(s, i));
	case SQLITE_NULL: return jv_null();
	default: return jv_string((const char *)sqlite3_column_text(s, i));
	}
}

static jv sq_query(struct ledger_db *d, const char *sql, jv params, struct pc_err *e)
{
	sqlite3_stmt *s = prepare(d, sql, params, e);
	jv rows = jv_array();
	int rc;

	if (!s)
		return jv_free(rows), jv_invalid();
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		jv row = jv_array();
		for (int i = 0; i < sqlite3_column_count(s); i++)
			row = jv_array_append(row, column(s, i));
		rows = jv_array_append(rows, row);
	}
	if (rc != SQLITE_DONE) {
		fail(d, e, "a query failed");
		jv_free(rows);
		rows = jv_invalid();
	}
	done(d, s);
	return rows;
}

static int sq_exec(struct ledger_db *d, const char *sql, jv params, struct pc_err *e)
{
	sqlite3_stmt *s = prepare(d, sql, params, e);
	int rc;

	if (!s)
		return -1;
	rc = sqlite3_step(s) == SQLITE_DONE ? 0 : fail(d, e, "a statement failed");
	done(d, s);
	return rc;
}

static int simple(struct ledger_db *d, const char *sql, struct pc_err *e)
{
	return sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(d, e, sql);
}

/* IMMEDIATE takes the write lock now: two writers that both began by
 * reading could otherwise each wait for the other (SQLITE_BUSY at once,
 * which no busy timeout resolves). */
static int sq_begin(struct ledger_db *d, struct pc_err *e)
{
	return simple(d, "BEGIN IMMEDIATE", e);
}

static int sq_commit(struct ledger_db *d, struct pc_err *e)
{
	return simple(d, "COMMIT", e);
}

static void sq_rollback(struct ledger_db *d)
{
	if (!sqlite3_get_autocommit(d->db))
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
}

static void sq_close(struct ledger_db *d)
{
	for (int i = 0; i < CACHED; i++)
		sqlite3_finalize(d->cache[i].stmt);
	sqlite3_close(d->db);
	free(d);
}

const struct ledger_backend ledger_sqlite = {
	.id_column = "id INTEGER PRIMARY KEY AUTOINCREMENT",
	.table_options = "",
	.long_text = "TEXT",
	.keep_existing = " ON CONFLICT (%s) DO NOTHING",
	.open = sq_open,
	.exec = sq_exec,
	.query = sq_query,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.close = sq_close,
};
