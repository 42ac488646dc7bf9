/* hosts: the coding agents a paired OFF/ON comparison can run, one row
 * each (docs/DESIGN.md §11.5).  PowerContext 1.4.1's paired command names
 * six; --host takes any of them, and a host that cannot run on this
 * machine is refused before anything runs, naming what it needs.  A new
 * host is its row here, and the agent resolution and environment its arms
 * need (run/agent.c), or for a command-line host its row of hosts/;
 * HACKING.md lists the files.
 */
#ifndef PC_RUN_BUB_HOSTS_H
#define PC_RUN_BUB_HOSTS_H

#include "text.h"

struct cli_host;

struct host {
	const char *name; /* as --host takes it */
	/* NULL when pc-e2e runs it; else what running it needs that pc-e2e
	 * cannot provide, as one clause */
	const char *needs;
	/* how its arms run when it is its own command-line program
	 * (hosts/cli_host.h); NULL: as an ACP agent */
	const struct cli_host *cli;
};

/* Every host, the default first; a row with a NULL name ends it. */
extern const struct host hosts[];

/* The host --host name selects, or NULL. */
const struct host *host_named(const char *name);

/* The i-th host's name, NULL past the last: the table's choice_name_at
 * (choice.h; table unused). */
const char *host_name_at(const void *table, size_t i);

#endif
