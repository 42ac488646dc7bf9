/* The ledger on a MySQL-protocol server (MariaDB, MySQL, OceanBase,
 * seekdb), through mariadb-connector-c's prepared statements. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "ledger_db.h"

/* How long to wait for the server to answer at all, and for one
 * statement (a writer waiting on another's locks included). */
#define CONNECT_TIMEOUT_S 10
#define IO_TIMEOUT_S      120

#define ER_LOCK_WAIT_TIMEOUT 1205
#define ER_LOCK_DEADLOCK     1213

/* Prepared once per SQL text, as ledger_sqlite.c does: a prepare is a
 * round trip to the server. */
#define CACHED 16

struct ledger_db {
	MYSQL *m;
	struct {
		const char *sql;
		MYSQL_STMT *stmt;
	} cache[CACHED];
};

static int fail_code(unsigned code, const char *err, struct pc_err *e, const char *what)
{
	pc_fail(e, "%s: %s (error %u)", what, err, code);
	return code == ER_LOCK_DEADLOCK || code == ER_LOCK_WAIT_TIMEOUT ? LEDGER_RETRY : -1;
}

static int fail(struct ledger_db *d, struct pc_err *e, const char *what)
{
	return fail_code(mysql_errno(d->m), mysql_error(d->m), e, what);
}

static int fail_stmt(MYSQL_STMT *s, struct pc_err *e, const char *what)
{
	return fail_code(mysql_stmt_errno(s), mysql_stmt_error(s), e, what);
}

static struct ledger_db *my_open(const struct ledger_url *u, struct pc_err *e)
{
	struct ledger_db *d = calloc(1, sizeof *d);
	unsigned connect = CONNECT_TIMEOUT_S, io = IO_TIMEOUT_S, tcp = MYSQL_PROTOCOL_TCP;

	if (!d || !(d->m = mysql_init(NULL))) {
		free(d);
		pc_fail(e, "cannot connect: out of memory");
		return NULL;
	}
	/* the URL names a host and port: never the local socket "localhost"
	 * would otherwise mean */
	mysql_optionsv(d->m, MYSQL_OPT_PROTOCOL, &tcp);
	mysql_optionsv(d->m, MYSQL_OPT_CONNECT_TIMEOUT, &connect);
	mysql_optionsv(d->m, MYSQL_OPT_READ_TIMEOUT, &io);
	mysql_optionsv(d->m, MYSQL_OPT_WRITE_TIMEOUT, &io);
	mysql_optionsv(d->m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	if (!mysql_real_connect(d->m, u->host, u->user, u->password ? u->password : "", u->database,
				u->port, NULL, 0)) {
		fail(d, e, "cannot connect");
		mysql_close(d->m);
		free(d);
		return NULL;
	}
	/* Two writers deleting and inserting rows of different runs take no
	 * gap locks on each other under READ COMMITTED. */
	if (mysql_query(d->m, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED") != 0) {
		fail(d, e, "cannot set the isolation level");
		mysql_close(d->m);
		free(d);
		return NULL;
	}
	return d;
}

static MYSQL_STMT *prepared(struct ledger_db *d, const char *sql, struct pc_err *e)
{
	MYSQL_STMT *s;
	int slot = -1;

	for (int i = 0; i < CACHED && slot < 0; i++)
		if (d->cache[i].sql == sql || !d->cache[i].sql)
			slot = i;
	if (slot >= 0 && d->cache[slot].sql == sql)
		return d->cache[slot].stmt;
	if (!(s = mysql_stmt_init(d->m))) {
		fail(d, e, "cannot prepare a statement");
		return NULL;
	}
	if (mysql_stmt_prepare(s, sql, strlen(sql)) != 0) {
		fail_stmt(s, e, "cannot prepare a statement");
		mysql_stmt_close(s);
		return NULL;
	}
	if (slot >= 0) {
		d->cache[slot].sql = sql;
		d->cache[slot].stmt = s;
	}
	return s;
}

static void done(struct ledger_db *d, MYSQL_STMT *s)
{
	mysql_stmt_free_result(s);
	for (int i = 0; i < CACHED; i++)
		if (d->cache[i].stmt == s)
			return;
	mysql_stmt_close(s);
}

/* Bind params (borrowed: its strings must outlive the execution) and run s. */
static int execute(MYSQL_STMT *s, jv params, struct pc_err *e)
{
	int n = jv_array_length(jv_copy(params)), rc;
	MYSQL_BIND *b = calloc((size_t)n + 1, sizeof *b);
	long long *ints = calloc((size_t)n + 1, sizeof *ints);
	double *reals = calloc((size_t)n + 1, sizeof *reals);

	if (!b || !ints || !reals) {
		free(b), free(ints), free(reals);
		return pc_fail(e, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		jv p = jv_array_get(jv_copy(params), i);
		double x;
		switch (jv_get_kind(p)) {
		case JV_KIND_STRING:
			b[i].buffer_type = MYSQL_TYPE_STRING;
			b[i].buffer = (void *)jv_string_value(p); /* params still holds it */
			b[i].buffer_length = (unsigned long)jv_string_length_bytes(jv_copy(p));
			break;
		case JV_KIND_NUMBER:
			x = jv_number_value(p);
			/* LIMIT takes an integer only */
			if (x == floor(x) && fabs(x) < 9e15) {
				ints[i] = (long long)x;
				b[i].buffer_type = MYSQL_TYPE_LONGLONG;
				b[i].buffer = &ints[i];
			} else {
				reals[i] = x;
				b[i].buffer_type = MYSQL_TYPE_DOUBLE;
				b[i].buffer = &reals[i];
			}
			break;
		default: b[i].buffer_type = MYSQL_TYPE_NULL;
		}
		jv_free(p);
	}
	if (mysql_stmt_bind_param(s, b) != 0)
		rc = fail_stmt(s, e, "cannot bind the parameters");
	else
		rc = mysql_stmt_execute(s) != 0 ? fail_stmt(s, e, "a statement failed") : 0;
	free(b);
	free(ints);
	free(reals);
	return rc;
}

static int my_exec(struct ledger_db *d, const char *sql, jv params, struct pc_err *e)
{
	MYSQL_STMT *s = prepared(d, sql, e);
	int rc = s ? execute(s, params, e) : -1;

	if (s)
		done(d, s);
	jv_free(params);
	return rc;
}

static int numeric(enum enum_field_types t)
{
	switch (t) {
	case MYSQL_TYPE_TINY:
	case MYSQL_TYPE_SHORT:
	case MYSQL_TYPE_INT24:
	case MYSQL_TYPE_LONG:
	case MYSQL_TYPE_LONGLONG:
	case MYSQL_TYPE_FLOAT:
	case MYSQL_TYPE_DOUBLE:
	case MYSQL_TYPE_DECIMAL:
	case MYSQL_TYPE_NEWDECIMAL: return 1;
	default: return 0;
	}
}

/* The current row: numbers bound as doubles; strings read at their length. */
static int fetch_row(MYSQL_STMT *s, MYSQL_BIND *b, int n, jv *row, struct pc_err *e)
{
	*row = jv_array();
	for (int i = 0; i < n; i++) {
		if (*b[i].is_null) {
			*row = jv_array_append(*row, jv_null());
		} else if (b[i].buffer_type == MYSQL_TYPE_DOUBLE) {
			*row = jv_array_append(*row, jv_number(*(double *)b[i].buffer));
		} else {
			MYSQL_BIND one = { 0 };
			unsigned long len = *b[i].length;
			char *text = malloc(len + 1);
			if (!text)
				return jv_free(*row), pc_fail(e, "out of memory");
			one.buffer_type = MYSQL_TYPE_STRING;
			one.buffer = text;
			one.buffer_length = len + 1;
			if (len && mysql_stmt_fetch_column(s, &one, (unsigned)i, 0) != 0) {
				free(text);
				jv_free(*row);
				return fail_stmt(s, e, "cannot read a column");
			}
			*row = jv_array_append(*row, jv_string_sized(text, (int)len));
			free(text);
		}
	}
	return 0;
}

static jv rows_of(MYSQL_STMT *s, struct pc_err *e)
{
	MYSQL_RES *meta = mysql_stmt_result_metadata(s);
	int n = meta ? (int)mysql_num_fields(meta) : 0, rc = 0, fetched;
	MYSQL_BIND *b = calloc((size_t)n + 1, sizeof *b);
	double *reals = calloc((size_t)n + 1, sizeof *reals);
	unsigned long *lengths = calloc((size_t)n + 1, sizeof *lengths);
	my_bool *nulls = calloc((size_t)n + 1, sizeof *nulls);
	jv rows = jv_array(), row;

	if (!meta || !b || !reals || !lengths || !nulls)
		rc = meta ? pc_fail(e, "out of memory")
			  : fail_stmt(s, e, "a query returned no columns");
	for (int i = 0; rc == 0 && i < n; i++) {
		b[i].buffer_type = numeric(mysql_fetch_field_direct(meta, (unsigned)i)->type)
					   ? MYSQL_TYPE_DOUBLE
					   : MYSQL_TYPE_STRING;
		b[i].buffer = b[i].buffer_type == MYSQL_TYPE_DOUBLE ? &reals[i] : NULL;
		b[i].length = &lengths[i];
		b[i].is_null = &nulls[i];
	}
	if (rc == 0 && mysql_stmt_bind_result(s, b) != 0)
		rc = fail_stmt(s, e, "cannot bind the result");
	while (rc == 0 &&
	       ((fetched = mysql_stmt_fetch(s)) == 0 || fetched == MYSQL_DATA_TRUNCATED)) {
		if ((rc = fetch_row(s, b, n, &row, e)) == 0)
			rows = jv_array_append(rows, row);
	}
	if (rc == 0 && fetched != MYSQL_NO_DATA)
		rc = fail_stmt(s, e, "a query failed");
	if (meta)
		mysql_free_result(meta);
	free(b);
	free(reals);
	free(lengths);
	free(nulls);
	return rc == 0 ? rows : (jv_free(rows), jv_invalid());
}

static jv my_query(struct ledger_db *d, const char *sql, jv params, struct pc_err *e)
{
	MYSQL_STMT *s = prepared(d, sql, e);
	jv rows = jv_invalid();

	if (s && execute(s, params, e) == 0)
		rows = rows_of(s, e);
	if (s)
		done(d, s);
	jv_free(params);
	return rows;
}

static int my_begin(struct ledger_db *d, struct pc_err *e)
{
	return mysql_query(d->m, "START TRANSACTION") == 0
		       ? 0
		       : fail(d, e, "cannot begin a transaction");
}

static int my_commit(struct ledger_db *d, struct pc_err *e)
{
	return mysql_commit(d->m) == 0 ? 0 : fail(d, e, "cannot commit");
}

/* On a lost connection the server has rolled back already. */
static void my_rollback(struct ledger_db *d)
{
	mysql_rollback(d->m);
}

static void my_close(struct ledger_db *d)
{
	for (int i = 0; i < CACHED; i++)
		if (d->cache[i].stmt)
			mysql_stmt_close(d->cache[i].stmt);
	mysql_close(d->m);
	free(d);
}

const struct ledger_backend ledger_mariadb = {
	.id_column = "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY",
	.table_options = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
	.long_text = "MEDIUMTEXT", /* TEXT holds 65,535 bytes */
	.keep_existing = " ON DUPLICATE KEY UPDATE %s = %s",
	.open = my_open,
	.exec = my_exec,
	.query = my_query,
	.begin = my_begin,
	.commit = my_commit,
	.rollback = my_rollback,
	.close = my_close,
};
