/* The ledger's schema, write and trend query, over either backend
 * (ledger.h, ledger_record.h). */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "hash.h"
#include "json.h"
#include "json_out.h"
#include "ledger.h"
#include "ledger_db.h"
#include "ledger_record.h"
#include "text.h"

/* A MariaDB deadlock between two writers rolls one back; its whole run is
 * written again, a few times at most. */
#define ATTEMPTS 5

/* ---- the schema ---- */

/* Statements whose text depends on the dialect, composed once per ledger
 * (a backend may cache a statement by its text's address). */
enum {
	SQL_META,
	SQL_KEYS,
	SQL_CASES,
	SQL_VALUES,
	SQL_VERSION_PUT,
	SQL_KEY_PUT,
	SQL_COMPOSED
};

struct ledger {
	const struct ledger_backend *be;
	struct ledger_db *db;
	char *shown;
	char *sql[SQL_COMPOSED];
};

/* VARCHAR(255) for the keys: MariaDB indexes no TEXT without a length
 * (record_case refuses a longer key on either backend).  The trend's index
 * is a UNIQUE constraint (id makes it one) because SQLite's CREATE TABLE has
 * no INDEX clause and MySQL has no CREATE INDEX IF NOT EXISTS.  The two
 * INSERTs keep a row already there, and fail on any other error: MariaDB's
 * INSERT IGNORE would store a too-long value truncated, with a warning. */
static void compose(struct ledger *l)
{
	const struct ledger_backend *be = l->be;
	char *keep_name = text_fmt(be->keep_existing, "name", "name");
	char *keep_key = text_fmt(be->keep_existing, "key_digest", "key_digest");

	l->sql[SQL_META] = text_fmt(
		"CREATE TABLE IF NOT EXISTS pc_e2e_meta (name VARCHAR(64) NOT NULL PRIMARY KEY, value VARCHAR(255) NOT NULL)%s",
		be->table_options);
	l->sql[SQL_KEYS] = text_fmt(
		"CREATE TABLE IF NOT EXISTS pc_e2e_keys (key_digest CHAR(64) NOT NULL PRIMARY KEY, fields %s NOT NULL)%s",
		be->long_text, be->table_options);
	l->sql[SQL_CASES] = text_fmt(
		"CREATE TABLE IF NOT EXISTS pc_e2e_cases (%s, run_id VARCHAR(255) NOT NULL, experiment VARCHAR(255) NOT NULL, workload_id VARCHAR(255) NOT NULL, key_digest CHAR(64) NOT NULL, finished_at VARCHAR(64), recorded_at VARCHAR(64) NOT NULL, powercontext_commit VARCHAR(255), verdict VARCHAR(16) NOT NULL, UNIQUE (run_id, experiment), UNIQUE (workload_id, key_digest, finished_at, id))%s",
		be->id_column, be->table_options);
	l->sql[SQL_VALUES] = text_fmt(
		"CREATE TABLE IF NOT EXISTS pc_e2e_values (run_id VARCHAR(255) NOT NULL, experiment VARCHAR(255) NOT NULL, kind VARCHAR(16) NOT NULL, seq INTEGER NOT NULL, name VARCHAR(255) NOT NULL, value_json %s NOT NULL, value_number DOUBLE, reason %s, PRIMARY KEY (run_id, experiment, kind, seq))%s",
		be->long_text, be->long_text, be->table_options);
	l->sql[SQL_VERSION_PUT] = text_fmt(
		"INSERT INTO pc_e2e_meta (name, value) VALUES ('schema_version', ?)%s", keep_name);
	l->sql[SQL_KEY_PUT] =
		text_fmt("INSERT INTO pc_e2e_keys (key_digest, fields) VALUES (?, ?)%s", keep_key);
	free(keep_name);
	free(keep_key);
}

static const char sql_version_get[] = "SELECT value FROM pc_e2e_meta WHERE name = 'schema_version'";
static const char sql_values_delete[] =
	"DELETE FROM pc_e2e_values WHERE run_id = ? AND experiment = ?";
static const char sql_case_delete[] =
	"DELETE FROM pc_e2e_cases WHERE run_id = ? AND experiment = ?";
static const char sql_case_put[] =
	"INSERT INTO pc_e2e_cases (run_id, experiment, workload_id, key_digest, finished_at, recorded_at, powercontext_commit, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
static const char sql_value_put[] =
	"INSERT INTO pc_e2e_values (run_id, experiment, kind, seq, name, value_json, value_number, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
/* The runs of a case's workload, key and experiment up to the case's own
 * run (an experiment is a series: `make rescore`'s offline evaluations of
 * the same runs are not more runs of e2e's) (the
 * newest first, so LIMIT keeps the last ones), turned oldest first with
 * their scores.  Up to its own run: a rescore of an older run shows the
 * trend as it stood then, and every trend ends with the case it is for. */
static const char sql_trend[] =
	"SELECT c.id, c.run_id, c.finished_at, c.verdict, v.name, v.value_number FROM (SELECT h.id, h.run_id, h.experiment, h.finished_at, h.verdict FROM pc_e2e_cases h JOIN pc_e2e_cases cur ON h.workload_id = cur.workload_id AND h.key_digest = cur.key_digest AND h.experiment = cur.experiment WHERE cur.run_id = ? AND cur.experiment = ? AND (h.finished_at < cur.finished_at OR (h.finished_at IS NULL AND cur.finished_at IS NOT NULL) OR ((h.finished_at = cur.finished_at OR (h.finished_at IS NULL AND cur.finished_at IS NULL)) AND h.id <= cur.id)) ORDER BY h.finished_at DESC, h.id DESC LIMIT ?) c LEFT JOIN pc_e2e_values v ON v.run_id = c.run_id AND v.experiment = c.experiment AND v.kind = 'scores' AND v.value_number IS NOT NULL ORDER BY c.finished_at, c.id, v.seq";

static int failed(struct ledger *l, struct pc_err *e)
{
	return pc_wrap(e, "ledger %s: ", l->shown);
}

/* Create the tables on first use; refuse a ledger of another version
 * before anything is written to it. */
static int schema(struct ledger *l, struct pc_err *e)
{
	const struct ledger_backend *be = l->be;
	jv rows;

	if (be->exec(l->db, l->sql[SQL_META], jv_array(), e) != 0)
		return -1;
	rows = be->query(l->db, sql_version_get, jv_array(), e);
	if (!jv_is_valid(rows))
		return -1;
	if (jv_array_length(jv_copy(rows)) > 0) {
		jv v = jv_array_get(jv_array_get(rows, 0), 0);
		const char *s = jv_get_kind(v) == JV_KIND_STRING ? jv_string_value(v) : "?";
		char *end;
		long n = strtol(s, &end, 10);
		int ours = *s && !*end && n == LEDGER_SCHEMA_VERSION;
		if (!ours)
			pc_fail(e,
				"its schema version is %s; this pc-e2e (%s) writes version %d%s; nothing was written",
				s, PC_VERSION, LEDGER_SCHEMA_VERSION,
				*s && !*end && n > LEDGER_SCHEMA_VERSION
					? ": it was written by a newer pc-e2e"
					: "");
		jv_free(v);
		return ours ? 0 : -1;
	}
	jv_free(rows);
	if (be->exec(l->db, l->sql[SQL_KEYS], jv_array(), e) != 0 ||
	    be->exec(l->db, l->sql[SQL_CASES], jv_array(), e) != 0 ||
	    be->exec(l->db, l->sql[SQL_VALUES], jv_array(), e) != 0)
		return -1;
	return be->exec(l->db, l->sql[SQL_VERSION_PUT],
			JV_ARRAY(jv_string_fmt("%d", LEDGER_SCHEMA_VERSION)), e);
}

void ledger_close(struct ledger *l)
{
	if (!l)
		return;
	if (l->db)
		l->be->close(l->db);
	for (int i = 0; i < SQL_COMPOSED; i++)
		free(l->sql[i]);
	free(l->shown);
	free(l);
}

struct ledger *ledger_open(const struct ledger_url *u, struct pc_err *e)
{
	struct ledger *l = pc_xmalloc(sizeof *l);

	memset(l, 0, sizeof *l);
	l->be = u->kind == LEDGER_SQLITE ? &ledger_sqlite : &ledger_mariadb;
	l->shown = pc_xstrdup(u->shown);
	compose(l);
	if (!(l->db = l->be->open(u, e)) || schema(l, e) != 0) {
		failed(l, e);
		ledger_close(l);
		return NULL;
	}
	return l;
}

/* ---- the write ---- */

/* The comparability key's fields of a case: its attributes' comparability
 * object.  A case without one (PowerContext's own harness, an older
 * pc-e2e) gets a key from the attributes every evaluation has, marked so
 * that it never equals a key of a case that has one. */
static jv key_fields(const struct report_case *c)
{
	jv attrs = report_section(c, "attributes");
	jv comparability = json_get(attrs, "comparability");

	if (jv_get_kind(comparability) != JV_KIND_OBJECT) {
		jv_free(comparability);
		comparability = JV_OBJECT(
			jv_string("without_comparability"), jv_true(),
			jv_string("database"), json_get(attrs, "database"),
			jv_string("dataset"), json_get(attrs, "dataset"),
			jv_string("execution_adapter"), json_get(attrs, "execution_adapter"));
	}
	jv_free(attrs);
	return comparability;
}

struct key {
	jv fields; /* canonical JSON */
	char digest[SHA256_HEX_LEN + 1];
};

/* The key of fields (consumed): the digest of their canonical JSON, the
 * form pc-evaluate's manifest digest is taken of too. */
static void key_of(jv fields, struct key *k)
{
	struct json_out canonical = { 0 };

	json_out_value(&canonical, fields, JSON_CANONICAL);
	jv_free(fields);
	k->fields = jv_string_sized(canonical.text, (int)canonical.len);
	json_out_free(&canonical);
	sha256_hex(jv_string_value(k->fields), (size_t)jv_string_length_bytes(jv_copy(k->fields)),
		   k->digest);
}

/* The longest time (VARCHAR(64)) the ledger keeps, in bytes; the keys'
 * too (LEDGER_KEY_MAX) are checked here so that both backends refuse the
 * same input alike: MariaDB refuses a longer one, SQLite would store it. */
#define TIME_MAX 64

/* 0, or -1 when s (borrowed; a string or not there) is over max bytes. */
static int fits(jv s, int max, const char *field, struct pc_err *e)
{
	int n = jv_get_kind(s) == JV_KIND_STRING ? jv_string_length_bytes(jv_copy(s)) : 0;

	return n <= max ? 0
			: pc_fail(e, "%s is %d bytes long, over the %d the ledger keeps", field, n,
				  max);
}

/* A value as SQL can compare it: numbers, and booleans as 1 and 0. */
static jv number_of(jv v)
{
	switch (jv_get_kind(v)) {
	case JV_KIND_NUMBER: return v;
	case JV_KIND_TRUE: return jv_free(v), jv_number(1);
	case JV_KIND_FALSE: return jv_free(v), jv_number(0);
	default: return jv_free(v), jv_null();
	}
}

void ledger_put_value(struct ledger_pass *p, jv run_id, jv experiment, const char *kind, int seq,
		      jv name, jv value, jv reason)
{
	if (p->rc == 0)
		p->rc = fits(name, LEDGER_KEY_MAX, "the name of one of its values", p->e);
	if (p->rc == 0)
		p->rc = p->l->be->exec(p->l->db, sql_value_put,
				       JV_ARRAY(jv_copy(run_id), jv_copy(experiment),
						jv_string(kind), jv_number(seq), name,
						jv_dump_string(jv_copy(value), 0),
						number_of(value), reason),
				       p->e);
	else
		jv_free(name), jv_free(value), jv_free(reason);
}

void ledger_put_case(struct ledger_pass *p, struct ledger_case *c)
{
	const struct ledger_backend *be = p->l->be;
	const char *const *named = c->named;
	struct key k;

	if (p->rc == 0)
		p->rc = fits(c->run_id, LEDGER_KEY_MAX, named[0], p->e);
	if (p->rc == 0)
		p->rc = fits(c->experiment, LEDGER_KEY_MAX, named[1], p->e);
	if (p->rc == 0)
		p->rc = fits(c->workload_id, LEDGER_KEY_MAX, named[2], p->e);
	if (p->rc == 0)
		p->rc = fits(c->commit, LEDGER_KEY_MAX, named[3], p->e);
	if (p->rc == 0)
		p->rc = fits(c->finished_at, TIME_MAX, named[4], p->e);
	key_of(c->fields, &k);
	jv pair = JV_ARRAY(jv_copy(c->run_id), jv_copy(c->experiment));
	if (p->rc == 0)
		p->rc = be->exec(p->l->db, p->l->sql[SQL_KEY_PUT],
				 JV_ARRAY(jv_string(k.digest), k.fields), p->e);
	else
		jv_free(k.fields);
	if (p->rc == 0)
		p->rc = be->exec(p->l->db, sql_values_delete, jv_copy(pair), p->e);
	if (p->rc == 0)
		p->rc = be->exec(p->l->db, sql_case_delete, jv_copy(pair), p->e);
	if (p->rc == 0)
		p->rc = be->exec(p->l->db, sql_case_put,
				 JV_ARRAY(c->run_id, c->experiment, c->workload_id,
					  jv_string(k.digest), c->finished_at, jv_string(p->now),
					  c->commit, jv_string(c->verdict)),
				 p->e);
	else
		jv_free(c->run_id), jv_free(c->experiment), jv_free(c->workload_id),
			jv_free(c->finished_at), jv_free(c->commit);
	jv_free(pair);
}

static void record_values(struct ledger_pass *p, const struct report_case *c, jv run_id,
			  jv experiment, const char *kind)
{
	jv section = report_section(c, kind);
	int seq = 0;

	jv_object_foreach(section, name, entry) {
		/* metrics are bare numbers; the others {value, reason} */
		int bare = jv_get_kind(entry) != JV_KIND_OBJECT;
		jv value =
			bare ? jv_copy(entry) : jv_object_get(jv_copy(entry), jv_string("value"));
		jv reason = bare ? jv_null() : jv_object_get(jv_copy(entry), jv_string("reason"));
		if (!jv_is_valid(reason))
			reason = jv_null();
		ledger_put_value(p, run_id, experiment, kind, seq++, name, value, reason);
		jv_free(entry);
	}
	jv_free(section);
}

/* The columns of a case as its errors name them. */
static const char *const case_named[] = { "its attributes.run_id", "its experiment",
					  "its name (the workload id)", "its attributes.commit",
					  "its attributes.finished_at" };

static void record_case(void *ctx, const struct report_case *c)
{
	struct ledger_pass *p = ctx;

	if (p->rc != 0)
		return;
	jv attrs = report_section(c, "attributes");
	struct ledger_case row = { json_get(attrs, "run_id"),
				   jv_string(c->experiment),
				   jv_string(report_case_name(c)),
				   json_get(attrs, "finished_at"),
				   json_get(attrs, "commit"),
				   key_fields(c),
				   verdict_name(c->verdict),
				   case_named };

	jv_free(attrs);
	if (jv_get_kind(row.run_id) != JV_KIND_STRING)
		p->rc = pc_fail(
			p->e,
			"case %s of %s has no attributes.run_id, which the ledger keys a run by",
			report_case_name(c), c->experiment);
	if (jv_get_kind(row.commit) != JV_KIND_STRING)
		row.commit = (jv_free(row.commit), jv_null());
	if (jv_get_kind(row.finished_at) != JV_KIND_STRING)
		row.finished_at = (jv_free(row.finished_at), jv_null());
	jv run_id = jv_copy(row.run_id), experiment = jv_copy(row.experiment);
	int had_failed = p->rc != 0; /* its own words */
	ledger_put_case(p, &row);
	static const char *const kinds[] = { "assertions", "scores", "labels", "metrics" };
	for (int i = 0; i < 4; i++)
		record_values(p, c, run_id, experiment, kinds[i]);
	if (p->rc != 0 && !had_failed)
		pc_wrap(p->e, "case %s of %s: ", report_case_name(c), c->experiment);
	jv_free(run_id);
	jv_free(experiment);
}

/* ledger_record's fill for the verdicts: every spooled case of cs. */
static void record_cases(struct ledger_pass *p, void *ctx)
{
	struct cases *cs = ctx;

	report_each_case(cs, record_case, p);
	if (p->rc == 0 && cs->read_failed)
		p->rc = pc_fail(p->e, "cannot read back the spool file");
}

int ledger_record(struct ledger *l, void (*fill)(struct ledger_pass *p, void *ctx), void *ctx,
		  struct pc_err *e)
{
	struct ledger_pass p = { l, { 0 }, e, LEDGER_RETRY };

	clock_utc_now(p.now);
	for (int attempt = 0; attempt < ATTEMPTS && p.rc == LEDGER_RETRY; attempt++) {
		p.rc = l->be->begin(l->db, e);
		if (p.rc == 0)
			fill(&p, ctx);
		if (p.rc == 0)
			p.rc = l->be->commit(l->db, e);
		if (p.rc != 0)
			l->be->rollback(l->db);
	}
	if (p.rc != 0)
		pc_wrap(e, "ledger %s: nothing of this run was recorded: ", l->shown);
	return p.rc ? -1 : 0;
}

/* ---- the trend ---- */

/* v (a verdict column) if it is a verdict's name, else "unknown": whoever
 * can write to a shared ledger writes that column, and every format prints
 * the trend's verdicts, the HTML page into attributes. */
static jv known_verdict(jv v)
{
	for (int i = 0; i < VERDICTS; i++)
		if (jv_get_kind(v) == JV_KIND_STRING &&
		    !strcmp(jv_string_value(v), verdict_name((enum verdict)i)))
			return v;
	jv_free(v);
	return jv_string("unknown");
}

/* The trend of c, once recorded; jv_invalid() with e filled on error. */
static jv ledger_trend(struct ledger *l, const struct report_case *c, int runs, struct pc_err *e)
{
	jv attrs = report_section(c, "attributes");
	jv rows = l->be->query(
		l->db, sql_trend,
		JV_ARRAY(json_get(attrs, "run_id"), jv_string(c->experiment), jv_number(runs)), e);
	jv trend = jv_array(), run = jv_invalid();
	double id = -1;

	jv_free(attrs);
	if (!jv_is_valid(rows)) {
		failed(l, e);
		jv_free(trend);
		return rows;
	}
	/* one row per (run, score): a run's rows are adjacent */
	jv_array_foreach(rows, i, row) {
		if (jv_number_value(jv_array_get(jv_copy(row), 0)) != id) {
			if (jv_is_valid(run))
				trend = jv_array_append(trend, run);
			id = jv_number_value(jv_array_get(jv_copy(row), 0));
			run = JV_OBJECT(
				jv_string("run_id"), jv_array_get(jv_copy(row), 1),
				jv_string("finished_at"), jv_array_get(jv_copy(row), 2),
				jv_string("verdict"), known_verdict(jv_array_get(jv_copy(row), 3)),
				jv_string("scores"), jv_object());
		}
		jv name = jv_array_get(jv_copy(row), 4);
		if (jv_get_kind(name) == JV_KIND_STRING)
			run = jv_setpath(run, JV_ARRAY(jv_string("scores"), name),
					 jv_array_get(jv_copy(row), 5));
		else
			jv_free(name);
		jv_free(row);
	}
	jv_free(rows);
	if (jv_is_valid(run))
		trend = jv_array_append(trend, run);
	return trend;
}

/* ---- the pass that writes the ledger ---- */

/* The second spool, each case with its trend: spool is the pass's own until
 * it replaces cs's; l and e are borrowed. */
struct trend_pass {
	struct ledger *l;
	int runs;
	struct spool_file spool;
	struct pc_err *e;
	int failed;
};

static void trend_case(void *ctx, const struct report_case *c)
{
	struct trend_pass *t = ctx;
	jv trend;

	if (t->failed)
		return;
	trend = ledger_trend(t->l, c, t->runs, t->e);
	if (!jv_is_valid(trend)) {
		t->failed = 1;
		jv_free(trend);
		return;
	}
	struct report_case with_trend = *c;
	with_trend.trend = trend;
	report_spool(t->spool.f, &with_trend);
	jv_free(trend);
}

/* Spool cs again with its trends, in place of its spool once every trend
 * was read; -1 when one was not. */
static int spool_trends(struct trend_pass *t, struct cases *cs)
{
	if (spool_open(&t->spool, t->e) != 0)
		return -1;
	report_each_case(cs, trend_case, t);
	if (!t->failed && (cs->read_failed || fflush(t->spool.f) != 0 || ferror(t->spool.f)))
		t->failed = pc_fail(t->e,
				    "cannot write the trends to the spool file (is TMPDIR full?)");
	if (t->failed) {
		spool_close(&t->spool);
		return -1;
	}
	spool_close(&cs->spool);
	cs->spool = t->spool;
	return 0;
}

int ledger_write(const struct ledger_url *u, struct cases *cs, int trend_runs, struct pc_err *e)
{
	struct trend_pass t = { ledger_open(u, e), trend_runs, { NULL, NULL }, e, 0 };
	int rc = !t.l || ledger_record(t.l, record_cases, cs, e) != 0 ? -1 : 0;

	if (rc == 0 && trend_runs > 0)
		rc = spool_trends(&t, cs);
	ledger_close(t.l);
	return rc;
}
