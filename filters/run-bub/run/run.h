/* run: one workload's run from run_begin to run_end, and what its runner
 * may ask of it (docs/DESIGN.md §5).
 *
 * What every workload of an invocation shares is the fleet (fleet.h sets
 * it up and owns it), and with it pc-run-bub's options (main's); a run
 * points at both and owns only what is its own.  A runner
 * (runners.h) reports errors and progress through this module and hands
 * back what it made and saw as one struct runner_result, which the run
 * then owns.
 */
#ifndef PC_RUN_BUB_RUN_H
#define PC_RUN_BUB_RUN_H

#include <jv.h>

#include "clock.h"
#include "redact.h"
#include "server/pcclient.h"

struct agent;
struct cli_host;
struct host;
struct runner;
struct workload_run;

/* pc-run-bub's options, as main parsed them. */
struct run_bub_options {
	const char *prog;            /* main's: the filter's name, which its messages spell */
	const struct runner *runner; /* --runner, a row of runners[] */
	const char *output, *agent, *policy;
	const char *harbor_env;    /* --harbor-env TYPE, or NULL for this machine */
	const char *model_scripts; /* --model-scripts DIR: the scripted model's scripts */
	char *registry;            /* owned by main: --registry FILE made absolute, or NULL */
	double agent_timeout;      /* 0: the task's */
	double client_timeout;     /* the Server client's (pc_client_timeout) */
	int jobs;                  /* --jobs: units of workloads run at once */
	int trials;                /* --paired --trials N: 0 without --paired */
	int trial;                 /* --trial N: only that trial of each workload; 0: all */
	int plan;                  /* --plan: print the units, run nothing */
	/* --prices FILE and --budget X: with a budget, every model the run calls
	 * must have a price (preflight.c); budget_usd < 0: none */
	const char *prices;
	double budget_usd;
	/* --unrun WHY: every record failed with WHY, nothing run (pipelines/units'
	 * record of a unit no attempt finished) */
	const char *unrun;
	const struct host *host; /* --host, a row of hosts[] */
	/* --settle SCOPE --session N [--flush]: settle one session and exit */
	const char *settle_scope;
	int settle_session, settle_flush;
};

/* What every workload of the invocation shares.  fleet_run (fleet.h) owns
 * it and all it points at but the options, the redactor and the
 * selections, which main owns; it is read-only once workloads run (a
 * worker process has its own copy). */
struct fleet {
	const struct run_bub_options *o;
	const struct redactor *red;
	const struct pc_client *client;
	const struct pc_api *api;  /* NULL: the Server could not say what it is */
	const char *api_error;     /* why, when api is NULL */
	const char *project;       /* the repository holding this binary */
	const char *sandbox_binds; /* sandbox_binds() of both arms' agents */
	const char *outdir;        /* --output, absolute */
	const char *commit;        /* the PowerContext under test, as replays name it */
	const struct agent *agent;
	/* the paired OFF arm's agent: the same host without PowerContext's
	 * plugin; NULL without --paired */
	const struct agent *agent_off;
	jv selections; /* every selection, in input order */
	int n;
	int *unit_of; /* per workload: the first workload of its unit (workers.h) */
	int progress; /* progress lines on stderr */
};

/* What a runner hands back; from then on the run owns it. */
struct runner_result {
	char *job_dir;    /* owned: the Harbor job directory it wrote, or NULL */
	char *trial_dir;  /* owned: the trial's directory in it, or NULL */
	char *trial_name; /* owned, or NULL */
	jv rewards;       /* owned: the trial's rewards, or null */
	jv agent_info;    /* owned: agentInfo from the first initialize, or null */
	double protocol;  /* the protocolVersion initialize answered, 0 for none */
};

/* A way to run a workload: a row of the runner table (runners.h). */
struct runner {
	const char *name; /* as --runner takes it; pc-run-bub(1) describes it */
	/* 1: it fetches a registry dataset from Harbor's own registry when no
	 * --registry names one, and runs a task's Docker image given
	 * --harbor-env; 0: it reads registry tasks through --registry only and
	 * runs every task on this machine's system */
	int harbor_environments;
	/* before any workload runs: what the runner needs is there (NULL:
	 * nothing to check); selections borrowed */
	int (*check)(const struct run_bub_options *o, const struct pc_client *c,
		     const char *project, const struct agent *agent, jv selections,
		     struct pc_err *e);
	/* Execute the task in task_dir (NULL: a registry dataset), writing the
	 * job under r->jobs_dir/<run id>; every failure is a run_error. */
	struct runner_result (*execute)(struct workload_run *r, const char *task_dir);
};

/* What paired/ sets on an arm's run (docs/DESIGN.md §11.5); all zero for
 * any other run. */
struct run_arm {
	/* a paired arm: its errors are the harness's own (run_step_exception),
	 * the plugin captures its events, its record names the host by bare
	 * versions */
	int paired;
	int plugin_off;     /* the OFF arm: its agent gets nothing of PowerContext's */
	int settles;        /* the ON arm: its Scope is settled after each agent session */
	int scored_session; /* 0-based: the session whose reward decides the arm */
	/* the host as its own command-line program (hosts/cli_host.h), in
	 * place of the ACP agent; NULL: the agent */
	const struct cli_host *cli;
	/* with cli, how the record names the host, as 1.4.1's observation
	 * environment does: its name (--host) and the reasoning effort of its
	 * agent_settings (borrowed) */
	const char *host, *reasoning_effort;
	/* the agent's log in a step's agent/ directory, as the host names it
	 * (with cli); NULL: the ACP agent's stderr */
	const char *agent_log;
};

/* One workload's run. */
struct workload_run {
	const struct fleet *fleet; /* borrowed from main */
	jv selection;              /* owned */
	jv workload;               /* owned: the selection's */
	const struct agent *agent; /* borrowed from the fleet: the agent it runs */
	struct run_arm arm;
	/* what follows each agent session (run_session_ended), called with
	 * session_arg; NULL: nothing.  A paired arm sets it (paired/paired.c): an ON
	 * arm settles its Scope then */
	void (*session_hook)(struct workload_run *r, void *session_arg);
	void *session_arg;
	char run_id[128];
	/* owned: its name, until the Server gives the scope an id; NULL for a
	 * paired OFF arm, which has none */
	char *scope;
	char *jobs_dir;    /* owned: DIR/<its directory>/harbor-jobs (run_place_jobs) */
	char *agent_model; /* owned: BUB_MODEL for this workload; NULL when model-free */
	/* owned: a registry dataset's task directory, found through
	 * --registry; NULL for a local task or without a registry */
	char *registry_task;
	/* owned: for the shared trial of a merged batch, each agent
	 * invocation's {scope, model} in order (run_bind_invocation); else null */
	jv invocations;
	/* owned: what progress lines name the run by ("batch-<name>" for a
	 * merged batch's trial), NULL for the workload's id */
	char *label;
	/* owned: for a member of a merged batch, its record's batch block
	 * ({name, steps, source_task_checksum}); else null */
	jv batch;
	char started[CLOCK_UTC_LEN];
	long long started_ms;
	jv errors;                   /* owned: the run's errors, strings */
	struct runner_result result; /* owned: empty until a runner ran */
};

/* Begin the run of workload i of f: a fresh run id and scope name, no
 * errors, and the time it started.  Every begun run is ended by run_end,
 * which frees what it owns. */
void run_begin(struct workload_run *r, const struct fleet *f, int i);
void run_end(struct workload_run *r);

/* Put r's Harbor job directories under DIR/<dir>/harbor-jobs/ (dir
 * relative to --output: outdir.h says where a workload's, a merged batch's
 * or a paired arm's files go). */
void run_place_jobs(struct workload_run *r, const char *dir);

/* Make r (just begun) a part of the merged batch's run run_id: its job
 * directories under DIR/batch-<batch>/, its scope named for its workload. */
void run_join_batch(struct workload_run *r, const char *run_id, const char *batch);

/* Bind the agent's next invocation, the i-th of the trial, to its member's
 * scope and model; nothing to do outside a merged batch's trial, -1 (an
 * error of r) when the trial has no invocation i. */
int run_bind_invocation(struct workload_run *r, int i);

/* Each runner calls this after every agent session of r ends, before
 * the next starts: r's session_hook runs then. */
void run_session_ended(struct workload_run *r);

/* Nothing made or seen yet: what a runner starts its result from. */
struct runner_result runner_result_none(void);

/* Progress on stderr when asked for, and an error of the run (both printf). */
void run_progress(const struct workload_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void run_error(struct workload_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The Harbor exception a step or trial recorded as the run error
 * "step <s>: <type>: <message>" (borrowed).  A merged batch's trial
 * leaves its steps' exceptions to the members that own the steps; the
 * trial's own (step RUN_TRIAL_STEP) is its error.  A paired arm's errors
 * are the harness's own: its steps' exceptions stay in Harbor's results. */
#define RUN_TRIAL_STEP "(trial)"
void run_step_exception(struct workload_run *r, const char *step, jv exception);

/* A step's deadlines in seconds as Harbor reads task.toml (both borrowed):
 * the agent's (--agent-timeout, else [steps.agent], else [agent]
 * timeout_sec; 0 for none) and the verifier's ([steps.verifier], else
 * [verifier], else 600). */
double run_agent_timeout(const struct workload_run *r, jv task_toml, jv step);
double run_verifier_timeout(jv task_toml, jv step);

#endif
