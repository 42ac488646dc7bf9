/* hosts: the coding agents a paired OFF/ON comparison can run, one row
 * each (docs/DESIGN.md §11.5).  PowerContext 1.4.1's paired command names
 * six; --host takes any of them.  The PowerContext under test pins each
 * host other than Bub in its own harness: pipelines/pc-powercontext hosts
 * writes the pins, where the release installs each host from and the
 * PyPI wheel pc-e2e installs it from (if any) into hosts.json, which
 * POWERCONTEXT_E2E_HOSTS names.  A host without a wheel is refused before
 * anything runs, naming its pin and its package.  A new host is its row
 * here and the code its arms need: the agent resolution and environment
 * (run/agent.c), or for a command-line host its row of hosts/; HACKING.md
 * lists the files.
 */
#ifndef PC_RUN_BUB_HOSTS_H
#define PC_RUN_BUB_HOSTS_H

#include <jv.h>

#include "err.h"
#include "text.h"

struct cli_host;

struct host {
	const char *name; /* as --host takes it, and hosts.json names it */
	/* 0 for Bub, whose versions pc-powercontext bub records itself; 1 for
	 * a host whose pin comes from hosts.json */
	int pinned;
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

/* h's row of the hosts.json POWERCONTEXT_E2E_HOSTS names into *row (the
 * caller's): {host, version, pinned_by, installed_from, package, wheel,
 * sha256, runs_here, ...}.  -1 with e when the variable is unset, the file
 * cannot be read, or it has no row for h. */
int host_row(const struct host *h, jv *row, struct pc_err *e);

/* 0 when h can run on this machine: Bub, or a pinned host whose row names
 * a wheel; else -1 with e naming the host, its pin and what installing it
 * needs. */
int host_check(const struct host *h, struct pc_err *e);

#endif
