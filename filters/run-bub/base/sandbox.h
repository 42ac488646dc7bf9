/* sandbox: the bubblewrap command line that gives task scripts Harbor's paths.
 *
 * The root is a fresh tmpfs (bubblewrap cannot create /logs under a read-only
 * bind of /); the system directories, the agents' venvs and the step's
 * directories are bound into it: /logs/agent, /logs/verifier, /tests,
 * /workspace and /run/acp (the FIFOs the agent speaks ACP over).  Never the
 * project: it holds the catalogs' tests, the release's sources and other
 * runs' output, which no agent session may read (docs/DESIGN.md §11.6).  It has its own PID
 * namespace, so nothing it starts outlives it; the network namespace stays
 * shared so the agent reaches the Server on loopback.
 */
#ifndef PC_SANDBOX_H
#define PC_SANDBOX_H

#include <stddef.h>

/* A path of this machine bound at another path in the sandbox. */
struct sandbox_mount {
	const char *from, *to;
	int writable;
};

struct sandbox {
	const char *binds;        /* sandbox_binds(): read-only at the same paths */
	const char *agent_dir;    /* /logs/agent */
	const char *verifier_dir; /* /logs/verifier */
	const char *tests_dir;    /* /tests (read-only), or NULL */
	const char *workspace;    /* /workspace, the working directory */
	const char *acp_dir;      /* /run/acp, the agent's FIFOs, or NULL */
	/* more binds, after the step's (a CLI host's directory, its plugin's
	 * source, /installed-agent), ending at a NULL from; NULL for none */
	const struct sandbox_mount *mounts;
};

/* What a sandbox binds from this machine besides the system directories,
 * colon-separated (malloc'd): each of the n venvs (NULL entries skipped)
 * with the interpreter its pyvenv.cfg names as home, then the paths of
 * more (colon-separated, or NULL). */
char *sandbox_binds(const char *const venvs[], size_t n, const char *more);

/* What every sandbox binds from this machine, the local runner's and the
 * Harbor environment's alike, as a JSON array of bubblewrap's arguments
 * (without "bwrap"; malloc'd): the Harbor environment
 * (python/pc_e2e_harbor/environment.py) reads it from PC_E2E_SANDBOX_BASE. */
char *sandbox_base_json(const char *binds);

/* argv running cmd (NULL-terminated) inside the sandbox; free with
 * sandbox_argv_free. */
char **sandbox_argv(const struct sandbox *sb, char *const cmd[]);
void sandbox_argv_free(char **argv);

#endif
