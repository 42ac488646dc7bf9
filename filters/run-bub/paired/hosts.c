/* hosts: the table of paired hosts (hosts.h). */
#include <stddef.h>
#include <string.h>

#include "hosts/cli_host.h"
#include "paired/hosts.h"

/* The npm packages are the ones PowerContext 1.4.1's harness installs in
 * the task's container; npm's registry is out of these machines' reach. */
#define IN_CONTAINER " and Node.js in the task's container"

/* clang-format off */
const struct host hosts[] = {
	{ "bub", NULL, NULL },
	{ "codex", NULL, &cli_codex },
	{ "claude-code", NULL, &cli_claude_code },
	{ "opencode", "OpenCode 1.18.33 (npm: opencode-ai)" IN_CONTAINER, NULL },
	{ "pi", "Pi 0.82.1 (npm: @earendil-works/pi-coding-agent)" IN_CONTAINER, NULL },
	{ "kimi-code", "Kimi Code 2.1.1 (npm: @moonshot-ai/kimi-code)" IN_CONTAINER, NULL },
	{ NULL, NULL, NULL },
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
