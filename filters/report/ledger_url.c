/* The ledger's URL: parsed from --ledger, and shown with its password masked. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_url.h"
#include "text.h"

static const char url_forms[] =
	"expected sqlite:PATH or mysql://user[:password]@host[:port]/database";

/* url as a message may print it.  A password may hold a raw '/', ':',
 * '?', '#' or '@', so the user part ends at the last '@' (as parse_mysql
 * reads it) and the password runs from the first ':' after "://" to there.
 * A URL that cannot be split so is shown by its scheme alone: text the
 * parser did not understand may be a password. */
static char *masked(const char *url)
{
	size_t scheme = strspn(url, "abcdefghijklmnopqrstuvwxyz0123456789+.-");
	const char *auth = url + scheme, *at, *colon;

	if (!strncmp(url, "sqlite:", strlen("sqlite:")))
		return pc_xstrdup(url); /* a path, which holds no password */
	if (scheme == 0 || strncmp(auth, "://", 3))
		return text_fmt("%.*s***", scheme && *auth == ':' ? (int)scheme + 1 : 0, url);
	auth += 3;
	if (!(at = strrchr(auth, '@')))
		return text_fmt("%.*s***", (int)(auth - url), url);
	if (!(colon = memchr(auth, ':', (size_t)(at - auth))))
		return pc_xstrdup(url);
	return text_fmt("%.*s***%s", (int)(colon + 1 - url), url, at);
}

static int hex(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* The percent-decoded n bytes at s, or NULL when an escape is malformed
 * or decodes to NUL. */
static char *decoded(const char *s, size_t n)
{
	char *out = pc_xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			*o++ = s[i];
			continue;
		}
		if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) ||
		    !isxdigit((unsigned char)s[i + 2]) || (s[i + 1] == '0' && s[i + 2] == '0')) {
			free(out);
			return NULL;
		}
		*o++ = (char)(hex((unsigned char)s[i + 1]) * 16 + hex((unsigned char)s[i + 2]));
		i += 2;
	}
	*o = '\0';
	return out;
}

static int bad_url(struct ledger_url *u, struct pc_err *e, const char *why)
{
	pc_fail(e, "--ledger %s: %s; %s", u->shown, why, url_forms);
	ledger_url_free(u);
	return -1;
}

static int parse_port(const char *s, size_t n, unsigned *port)
{
	unsigned long v = 0;

	if (n == 0 || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*port = (unsigned)v;
	return v >= 1 && v <= 65535 ? 0 : -1;
}

/* The user part ends at the URL's last '@' and the database starts at the
 * first '/' after it: a password may hold any character raw but NUL. */
static int parse_mysql(const char *url, const char *env_password, struct ledger_url *u,
		       struct pc_err *e)
{
	const char *auth = url + strlen("mysql://"), *at = strrchr(auth, '@');
	const char *host = at ? at + 1 : auth, *slash = strchr(host, '/'), *colon, *port;

	if (!slash || !slash[1])
		return bad_url(u, e, "no database after the host");
	if (strpbrk(slash + 1, "/?#"))
		return bad_url(
			u, e,
			"the database name holds '/', '?' or '#' (no options are read from the URL)");
	if (!at || at == auth)
		return bad_url(u, e, "no user before the host");
	colon = memchr(auth, ':', (size_t)(at - auth));
	u->user = decoded(auth, (size_t)((colon ? colon : at) - auth));
	if (colon && !(u->password = decoded(colon + 1, (size_t)(at - colon - 1))))
		return bad_url(u, e, "the password has a malformed %-escape");
	if (!u->user || !*u->user)
		return bad_url(u, e, "the user is empty or has a malformed %-escape");
	port = memchr(host, ':', (size_t)(slash - host));
	if (port == host || host == slash)
		return bad_url(u, e, "no host");
	u->host = text_fmt("%.*s", (int)((port ? port : slash) - host), host);
	u->port = 3306;
	if (port && parse_port(port + 1, (size_t)(slash - port - 1), &u->port) != 0)
		return bad_url(u, e, "the port must be a number from 1 to 65535");
	u->database = pc_xstrdup(slash + 1);
	if (!u->password && env_password)
		u->password = pc_xstrdup(env_password);
	return 0;
}

int ledger_url_parse(const char *url, const char *env_password, struct ledger_url *u,
		     struct pc_err *e)
{
	memset(u, 0, sizeof *u);
	u->shown = masked(url);
	if (!strncmp(url, "sqlite:", strlen("sqlite:"))) {
		u->kind = LEDGER_SQLITE;
		if (!url[strlen("sqlite:")])
			return bad_url(u, e, "no path after sqlite:");
		u->path = pc_xstrdup(url + strlen("sqlite:"));
		return 0;
	}
	if (!strncmp(url, "mysql://", strlen("mysql://"))) {
		u->kind = LEDGER_MYSQL;
		return parse_mysql(url, env_password, u, e);
	}
	return bad_url(u, e, "unknown scheme");
}

void ledger_url_free(struct ledger_url *u)
{
	free(u->path);
	free(u->user);
	free(u->password);
	free(u->host);
	free(u->database);
	free(u->shown);
	memset(u, 0, sizeof *u);
}
