/* ledger_url: pc-report's --ledger URL, sqlite:PATH or
 * mysql://user[:password]@host[:port]/database, parsed, with the form
 * every message shows it in (the password masked).
 */
#ifndef PC_REPORT_LEDGER_URL_H
#define PC_REPORT_LEDGER_URL_H

#include "err.h"

/* Where pc-report reads the password when the URL has none: argv is
 * visible to every local user, the environment is not. */
#define LEDGER_PASSWORD_ENV "PC_E2E_LEDGER_PASSWORD"

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

#endif
