/* cli_host: what every command-line host shares (cli_host.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/harbor.h"
#include "hosts/cli_host.h"
#include "io.h"
#include "json.h"
#include "text.h"

/* host.json's path field (NULL when absent and optional): absolute, or
 * relative to the host's directory. */
static int dir_path(const struct cli_dir *d, jv doc, const char *field, int required,
		    char **out, struct pc_err *e)
{
	const char *v = json_str(doc, field);

	*out = NULL;
	if (!v || !*v)
		return required ? pc_fail(e, "%s=%s: host.json names no \"%s\"",
					  CLI_HOST_DIR_SETTING, d->dir, field)
				: 0;
	*out = v[0] == '/' ? pc_xstrdup(v) : io_join(d->dir, v);
	return 0;
}

static int read_host_json(const struct cli_host *host, struct cli_dir *d, jv doc,
			  struct pc_err *e)
{
	const char *name = json_str(doc, "host"), *version = json_str(doc, "version");

	if (!name || strcmp(name, host->name))
		return pc_fail(e, "%s=%s: host.json is for host %s, not %s", CLI_HOST_DIR_SETTING,
			       d->dir, name ? name : "(none)", host->name);
	d->host = pc_xstrdup(name);
	d->version = pc_xstrdup(version ? version : "unknown");
	if (dir_path(d, doc, "bin", 1, &d->bin, e) != 0 ||
	    dir_path(d, doc, "source", 1, &d->source, e) != 0 ||
	    dir_path(d, doc, "uv", host->plugin_uv, &d->uv, e) != 0 ||
	    dir_path(d, doc, "uv_cache", host->plugin_uv, &d->uv_cache, e) != 0)
		return -1;
	if (access(d->bin, X_OK) != 0)
		return pc_fail_errno(e, "%s=%s: the host's executable %s", CLI_HOST_DIR_SETTING,
				     d->dir, d->bin);
	return 0;
}

int cli_dir_load(const struct cli_host *host, struct cli_dir *d, struct pc_err *e)
{
	const char *dir = getenv(CLI_HOST_DIR_SETTING);
	jv doc = jv_null();

	memset(d, 0, sizeof *d);
	if (!dir || !*dir)
		return pc_fail(
			e,
			"--host %s needs %s: the directory holding host.json that pipelines/pc-powercontext %s prints",
			host->name, CLI_HOST_DIR_SETTING, host->name);
	d->dir = pc_xstrdup(dir);
	char *path = io_join(dir, "host.json");
	int rc = json_read_file(path, &doc, e);
	if (rc != 0)
		pc_wrap(e, "%s=%s: ", CLI_HOST_DIR_SETTING, dir);
	else
		rc = read_host_json(host, d, doc, e);
	free(path);
	jv_free(doc);
	if (rc != 0)
		cli_dir_free(d);
	return rc;
}

void cli_dir_free(struct cli_dir *d)
{
	free(d->dir);
	free(d->host);
	free(d->version);
	free(d->bin);
	free(d->source);
	free(d->uv);
	free(d->uv_cache);
	memset(d, 0, sizeof *d);
}

/* The length of path's first part, before its last up+1 components. */
static size_t leading(const char *path, int up)
{
	size_t n = strlen(path);

	for (int i = 0; i <= up && n > 0; i++)
		while (n > 0 && path[--n] != '/')
			;
	return n;
}

char *cli_path(const struct cli_host *host, const struct cli_dir *d)
{
	size_t root = leading(d->bin, host->bin_depth), dir = leading(d->bin, 0);

	return text_fmt("%s/%s%.*s:%s/uv/bin:%s", CLI_HOST_MOUNT, host->name, (int)(dir - root),
			d->bin + root, CLI_HOST_MOUNT, SANDBOX_PATH);
}

int cli_mounts(const struct cli_host *host, const struct cli_dir *d, int on,
	       struct cli_mount m[CLI_MOUNTS_MAX])
{
	int n = 0;

	m[n].from = text_fmt("%.*s", (int)leading(d->bin, host->bin_depth), d->bin);
	m[n++].to = text_fmt("%s/%s", CLI_HOST_MOUNT, host->name);
	for (const char *const *p = host->plugin_paths; on && *p && n < CLI_MOUNTS_MAX - 2; p++) {
		m[n].from = io_join(d->source, *p);
		m[n++].to = io_join(CLI_PLUGIN_SOURCE, *p);
	}
	if (on && host->plugin_uv) {
		m[n].from = pc_xstrdup(d->uv);
		m[n++].to = pc_xstrdup(CLI_UV);
		m[n].from = pc_xstrdup(d->uv_cache);
		m[n++].to = pc_xstrdup(CLI_UV_CACHE);
	}
	return n;
}

void cli_mounts_free(struct cli_mount *m, int n)
{
	for (int i = 0; i < n; i++) {
		free(m[i].from);
		free(m[i].to);
	}
}

const char *cli_server_url(const struct cli_host *host, const struct pc_client *client)
{
	char *name = text_fmt("%sSERVER_URL", host->plugin_prefix);
	const char *set = getenv(name);

	free(name);
	return set && *set ? set : client->base_url;
}

void cli_plugin_env(const struct cli_host *host, const struct workload_run *r, struct envv *e)
{
	const struct pc_client *client = r->fleet->client;
	char *name = text_fmt("%sSERVER_URL", host->plugin_prefix);

	env_forward_prefix(e, host->plugin_prefix);
	env_set(e, name, cli_server_url(host, client));
	free(name);
	name = text_fmt("%sSCOPE_ID", host->plugin_prefix);
	env_set(e, name, r->scope);
	free(name);
	if (client->token) {
		char *bearer = text_fmt("Bearer %s", client->token);
		name = text_fmt("%sAUTHORIZATION", host->plugin_prefix);
		env_set(e, name, bearer);
		free(name);
		free(bearer);
	}
}

/* The harness setting <settings_prefix><name>, or fallback when unset or
 * empty (borrowed from the environment). */
static const char *cli_setting(const struct cli_host *host, const char *name,
			       const char *fallback)
{
	char *full = text_fmt("%s%s", host->settings_prefix, name);
	const char *v = getenv(full);

	free(full);
	return v && *v ? v : fallback;
}

const char *cli_reasoning_effort(const struct cli_host *host)
{
	return cli_setting(host, "REASONING_EFFORT", "medium");
}

char *cli_quote(const char *s)
{
	struct sbuf b = { 0 };

	static const char safe[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-";

	if (*s && !s[strspn(s, safe)])
		return pc_xstrdup(s);
	sbuf_add(&b, "'");
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			sbuf_add(&b, "'\"'\"'");
		else
			sbuf_addf(&b, "%c", *p);
	sbuf_add(&b, "'");
	return sbuf_take(&b);
}

/* Harbor's _truncate_output: "None" for nothing, else the first 1000
 * characters (code points) and a mark. */
static char *truncated(const char *text)
{
	size_t chars = 0, i = 0;

	if (!text || !*text)
		return pc_xstrdup("None");
	for (; text[i] && chars <= 1000; i++)
		if (((unsigned char)text[i] & 0xC0) != 0x80 && ++chars > 1000)
			break;
	if (!text[i])
		return pc_xstrdup(text);
	return text_fmt("%.*s ... [truncated]", (int)i, text);
}

/* Whether "rate", any one character or none, then "limit" stands in the
 * lower-cased text: Harbor's pattern rate.?limit. */
static int has_rate_limit(const char *lower)
{
	for (const char *p = strstr(lower, "rate"); p; p = strstr(p + 1, "rate"))
		if (!strncmp(p + 4, "limit", 5) || (p[4] && !strncmp(p + 5, "limit", 5)))
			return 1;
	return 0;
}

/* Harbor's ERROR_PATTERNS, searched case-insensitively in the output.
 * Matched by hand: glibc's regexec hung on its own lock under
 * AddressSanitizer on a Claude Code output (tests/hosts-local.bats). */
static const char *error_type(const char *output)
{
	char *lower = pc_xstrdup(output);
	const char *type = "NonZeroAgentExitCodeError";

	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (has_rate_limit(lower) || strstr(lower, "too many requests"))
		type = "ApiRateLimitError";
	else if (strstr(lower, "specified api usage limits"))
		type = "ApiUsageLimitError";
	free(lower);
	return type;
}

jv cli_exception(const char *command, int code, const char *out, const char *err)
{
	char *both = text_fmt("%s\n%s", out ? out : "", err ? err : "");
	char *o = truncated(out), *x = truncated(err);
	char *msg = text_fmt("Command failed (exit %d): %s\nstdout: %s\nstderr: %s", code, command,
			     o, x);
	jv exception = harbor_exception(error_type(both), msg);

	free(both);
	free(o);
	free(x);
	free(msg);
	return exception;
}
