/* agent: which ACP agent runs, and the environment it runs in
 * (docs/DESIGN.md §5.3).  Both runners start the agent with this
 * environment and nothing else of pc-run-bub's.
 */
#ifndef PC_RUN_BUB_AGENT_H
#define PC_RUN_BUB_AGENT_H

#include <jv.h>

#include "err.h"
#include "run/run.h"

/* A NULL-terminated environment array, each entry owned. */
struct envv {
	char **v;
	int n;
};

void env_set(struct envv *e, const char *name, const char *value);
void env_free(struct envv *e);
/* This process's NAME, or every variable whose name starts with PREFIX,
 * when not empty. */
void env_forward(struct envv *e, const char *name);
void env_forward_prefix(struct envv *e, const char *prefix);

/* The sandbox's system directories, the PATH of every process there. */
#define SANDBOX_PATH "/usr/local/bin:/usr/bin:/bin"

/* What every process in a sandbox gets: PATH, HOME and TMPDIR inside it,
 * and this process's LANG and LC_ALL.  The verifier gets nothing more. */
void sandbox_base_env(struct envv *e);

/* The agent's whole environment for run r: the base, and what it needs. */
void agent_env(const struct workload_run *r, struct envv *e);

/* The agent to run and, for a provisioned Bub, its directory and the
 * adapter identity its provisioning recorded (pipelines/pc-powercontext bub). */
struct agent {
	char *command;
	char *bub_dir; /* NULL unless the agent is a provisioned Bub */
	jv adapter;    /* {adapter_version, adapter_protocol_version, …} or null */
};

/* --agent (option, or NULL), $PC_E2E_AGENT, the Bub in
 * $POWERCONTEXT_E2E_BUB, else bub-acp-server on PATH. */
int agent_resolve(const char *option, struct agent *a, struct pc_err *e);
/* The paired OFF arm's agent: --agent or $PC_E2E_AGENT when given (the
 * caller's agent for both arms), else the plugin-free Bub in
 * $POWERCONTEXT_E2E_BUB_OFF (pipelines/pc-powercontext bub-off). */
int agent_resolve_off(const char *option, struct agent *a, struct pc_err *e);
void agent_free(struct agent *a);

#endif
