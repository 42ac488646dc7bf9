/* hosts: the table of paired hosts (hosts.h). */
#include <stdlib.h>
#include <string.h>

#include "hosts/cli_host.h"
#include "json.h"
#include "paired/hosts.h"

/* clang-format off */
const struct host hosts[] = {
	{ "bub", 0, NULL },
	{ "codex", 1, &cli_codex },
	{ "claude-code", 1, &cli_claude_code },
	{ "opencode", 1, NULL },
	{ "pi", 1, NULL },
	{ "kimi-code", 1, NULL },
	{ NULL, 0, NULL },
};
/* clang-format on */

const struct host *host_named(const char *name)
{
	for (const struct host *h = hosts; h->name; h++)
		if (!strcmp(h->name, name))
			return h;
	return NULL;
}

const char *host_name_at(const void *table, size_t i)
{
	(void)table;
	return hosts[i].name;
}

int host_row(const struct host *h, jv *row, struct pc_err *e)
{
	const char *path = getenv("POWERCONTEXT_E2E_HOSTS");
	jv doc;

	*row = jv_null();
	if (!path || !*path)
		return pc_fail(
			e,
			"--host %s is pinned by the PowerContext under test: POWERCONTEXT_E2E_HOSTS must name the hosts.json that pipelines/pc-powercontext hosts writes (pipelines/paired sets it)",
			h->name);
	if (json_read_file(path, &doc, e) != 0)
		return -1;
	jv list = json_get(doc, "hosts");
	if (jv_get_kind(list) == JV_KIND_ARRAY)
		jv_array_foreach(list, i, r) {
			const char *name = json_str(r, "host");
			if (jv_get_kind(*row) == JV_KIND_NULL && name && !strcmp(name, h->name)) {
				jv_free(*row);
				*row = r;
			} else
				jv_free(r);
		}
	jv_free(list);
	jv_free(doc);
	if (jv_get_kind(*row) == JV_KIND_OBJECT && json_str(*row, "version"))
		return 0;
	jv_free(*row);
	*row = jv_null();
	return pc_fail(e, "--host %s: %s (POWERCONTEXT_E2E_HOSTS) has no row for it with a version",
		       h->name, path);
}

int host_check(const struct host *h, struct pc_err *e)
{
	jv row;

	if (!h->pinned)
		return 0;
	if (host_row(h, &row, e) != 0)
		return -1;
	int rc = 0;
	if (!json_str(row, "wheel")) {
		const char *version = json_str(row, "version"), *package = json_str(row, "package");
		const char *from = json_str(row, "installed_from");
		const char *by = json_str(row, "pinned_by");
		rc = pc_fail(
			e,
			"--host %s cannot run on this machine: %s %s (%s) needs Node.js and %s's %s@%s, which this machine cannot reach, and pipelines/host-wheels names no PyPI wheel for that pin",
			h->name, h->name, version, by ? by : "its pin", from ? from : "npm",
			package ? package : h->name, version);
	}
	jv_free(row);
	return rc;
}
