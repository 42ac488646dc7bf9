/* hosts: the table of paired hosts (hosts.h). */
#include <stddef.h>
#include <string.h>

#include "paired/hosts.h"

/* The npm packages are the ones PowerContext 1.4.1's harness installs in
 * the task's container; npm's registry is out of these machines' reach. */
#define IN_CONTAINER " and Node.js in the task's container"

/* clang-format off */
const struct host hosts[] = {
	{ "bub", NULL },
	{ "codex", "the Codex CLI 0.153.4 (npm: @openai/codex)" IN_CONTAINER },
	{ "claude-code", "Claude Code 2.1.284 (npm: @anthropic-ai/claude-code)" IN_CONTAINER },
	{ "opencode", "OpenCode 1.18.33 (npm: opencode-ai)" IN_CONTAINER },
	{ "pi", "Pi 0.82.1 (npm: @earendil-works/pi-coding-agent)" IN_CONTAINER },
	{ "kimi-code", "Kimi Code 2.1.1 (npm: @moonshot-ai/kimi-code)" IN_CONTAINER },
	{ NULL, NULL },
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
