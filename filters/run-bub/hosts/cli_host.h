/* cli_host: a coding agent that runs as its own command-line program
 * (Codex, Claude Code) rather than over ACP, one Harbor step at a time
 * (docs/DESIGN.md §5.5).  A host is a row of struct cli_host: the commands
 * Harbor's installed agent and PowerContext 1.4.1's agent class run for a
 * step, the environment they give it, what its plugin needs bound in the ON
 * arm, and how Harbor reads its token figures afterwards.  What is common to
 * every such host is here: where the provisioned host lies (host.json), the
 * arm's PowerContext settings, shell quoting, and Harbor's reading of a
 * failed command.
 */
#ifndef PC_RUN_BUB_CLI_HOST_H
#define PC_RUN_BUB_CLI_HOST_H

#include <jv.h>

#include "err.h"
#include "run/agent.h"
#include "run/run.h"

/* The setting naming the provisioned host's directory, which holds
 * host.json (pipelines/pc-powercontext codex|claude-code). */
#define CLI_HOST_DIR_SETTING "POWERCONTEXT_E2E_HOST_DIR"
/* Where the sandbox shows the host's directory, then its name; and the
 * ON arm's uv and its cache of the plugin's dependencies. */
#define CLI_HOST_MOUNT "/opt/pc-e2e-host"
#define CLI_UV         CLI_HOST_MOUNT "/uv/bin/uv"
#define CLI_UV_CACHE   CLI_HOST_MOUNT "/uv-cache"
/* Where 1.4.1 mounts the release's plugin sources, and keeps what an
 * agent's install leaves for later steps. */
#define CLI_PLUGIN_SOURCE   "/opt/powercontext/source"
#define CLI_INSTALLED_AGENT "/installed-agent"

/* What the provisioning recorded in host.json, each path absolute (owned). */
struct cli_dir {
	char *dir;      /* the directory holding host.json */
	char *host;     /* "codex", "claude-code" */
	char *version;  /* the host's pin, as --version checked it */
	char *bin;      /* the host's executable */
	char *source;   /* the release's source tree: its plugins */
	char *uv;       /* uv for the plugin's hooks, or NULL */
	char *uv_cache; /* the plugin's dependencies, cached by uv, or NULL */
};

/* One step of one arm, as a host's scripts need it (all borrowed). */
struct cli_step {
	const struct cli_dir *d;
	int on;                  /* the ON arm: the plugin is installed */
	const char *server_url;  /* the Server as the plugin reaches it (ON) */
	const char *model;       /* the workload's model, its Bub provider prefix dropped */
	const char *instruction; /* the step's instruction */
};

/* A step's commands, each run as Harbor runs one exec (`set -o pipefail;
 * CMD`), in this order; the run only after the setup succeeded, finally
 * always (owned; install NULL but for the trial's first ON step of a host
 * that installs its plugin's runtime). */
struct cli_commands {
	char *install, *setup, *run, *finally;
};

struct cli_host {
	const char *name;          /* as --host takes it */
	const char *plugin_prefix; /* the plugin's settings: POWERCONTEXT_CODEX_ */
	/* 1.4.1's harness settings for the host: POWERCONTEXT_E2E_CODEX_ */
	const char *settings_prefix;
	const char *output_file; /* what the run tees into /logs/agent/ */
	/* the directories from the host's mounted root down to its executable
	 * (Codex's needs the resources beside its bin/) */
	int bin_depth;
	/* what the ON arm binds of the release's source, each relative to its
	 * root and mounted under CLI_PLUGIN_SOURCE; NULL-terminated */
	const char *const *plugin_paths;
	int plugin_uv; /* the ON arm binds uv and its cache (CLI_UV, CLI_UV_CACHE) */
	/* PowerContext 1.4.1's agent class for Harbor, with pc-e2e's install
	 * (python/pc_e2e_harbor/hosts.py) */
	const char *harbor_agent;
	/* what Harbor's agent reads for the model from Harbor's own
	 * environment; NULL-terminated */
	const char *const *model_env;
	void (*commands)(const struct cli_step *s, int first, struct cli_commands *out);
	/* the host's own environment for a step, after the base and the arm's */
	void (*env)(const struct cli_step *s, struct envv *e);
	/* the step's {n_input_tokens, n_cache_tokens, n_output_tokens,
	 * cost_usd} as Harbor reads them from the step's agent/ (owned; each
	 * null when the host left none) */
	jv (*usage)(const char *agent_dir);
};

extern const struct cli_host cli_codex, cli_claude_code;

/* The provisioned host's directory ($POWERCONTEXT_E2E_HOST_DIR) read, and
 * checked to be host's; -1 with e naming the setting. */
int cli_dir_load(const struct cli_host *host, struct cli_dir *d, struct pc_err *e);
void cli_dir_free(struct cli_dir *d);

/* The sandbox's PATH: the executable's directory there first, then uv's
 * (malloc'd). */
char *cli_path(const struct cli_host *host, const struct cli_dir *d);

/* The binds of a step of an arm, each of this machine's path from to the
 * sandbox's to, read-only (owned; cli_mounts_free): the host's directory,
 * and ON only the release's plugin paths and, for a plugin on uv, uv and
 * its cache.  Returns how many. */
enum {
	CLI_MOUNTS_MAX = 6
};
struct cli_mount {
	char *from, *to;
};
int cli_mounts(const struct cli_host *host, const struct cli_dir *d, int on,
	       struct cli_mount m[CLI_MOUNTS_MAX]);
void cli_mounts_free(struct cli_mount *m, int n);

/* The Server as the plugin reaches it: PREFIXSERVER_URL when set, else
 * the client's (borrowed). */
const char *cli_server_url(const struct cli_host *host, const struct pc_client *client);

/* The arm's PowerContext settings as 1.4.1 passes them to a plugin host:
 * every non-empty PREFIX* of this process, PREFIXSERVER_URL (the Server,
 * unless set), PREFIXSCOPE_ID and PREFIXAUTHORIZATION "Bearer <token>".
 * Only for the ON arm. */
void cli_plugin_env(const struct cli_host *host, const struct workload_run *r, struct envv *e);

/* The reasoning effort 1.4.1 passes the host (its agent_settings):
 * <settings_prefix>REASONING_EFFORT, else "medium" (borrowed). */
const char *cli_reasoning_effort(const struct cli_host *host);

/* s quoted for the shell as Python's shlex.quote quotes it (malloc'd). */
char *cli_quote(const char *s);

/* The exception Harbor raises for a command that exited with code: its
 * type by the output's words (rate limit, usage limit, else a non-zero
 * exit) and its message, the command and both outputs cut at 1000
 * characters (owned). */
jv cli_exception(const char *command, int code, const char *out, const char *err);

#endif
