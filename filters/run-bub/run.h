/* run: what pc-run-bub's stages share about one workload's run, and the
 * interface of its runners (docs/DESIGN.md §5).
 *
 * pc-run-bub.c owns the options, the run identity, the Server's answers and
 * the record; a runner executes the workload's Harbor task and leaves a
 * Harbor job directory behind, reporting what it saw into struct run.
 */
#ifndef PC_RUN_BUB_RUN_H
#define PC_RUN_BUB_RUN_H

#include <jv.h>

#include "pcclient.h"
#include "redact.h"

struct agent;

struct options {
	const char *runner, *output, *agent, *policy;
	const char *harbor_env;    /* --harbor-env TYPE, or NULL for this machine */
	const char *model_scripts; /* --model-scripts DIR: the scripted model's scripts */
	double agent_timeout;      /* 0: the task's */
	int jobs;                  /* --jobs: units of workloads run at once */
};

/* What one run needs and gathers. */
struct run {
	const struct options *opt;
	const struct redactor *red;
	const struct pc_client *client;
	const struct pc_api *api; /* NULL: the Server could not say what it is */
	const char *api_error;
	const char *project;
	const char *agent_cmd;
	const char *bub_dir; /* the provisioned Bub ($POWERCONTEXT_E2E_BUB), or NULL */
	jv agent_adapter;    /* recorded identity of the agent, or null */
	char *agent_model;   /* BUB_MODEL for this workload; NULL when model-free */
	jv selection, workload;
	char run_id[128];
	char *scope;
	char *jobs_dir; /* DIR/<workload id>/harbor-jobs */
	char *job_dir, *trial_dir, *trial_name;
	jv errors;
	jv agent_info; /* from the first initialize, or null */
	jv rewards;    /* the trial's rewards, or null */
	double protocol;
	int progress;
	int gated;       /* a step below 1 stops the trial (fail-fast batch) */
	int gate_closed; /* and one did */
	long long started_ms;
};

/* Progress on stderr when asked for, and an error of the run (both printf). */
void run_progress(const struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void run_error(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A runner executes the task in task_dir (NULL: a registry dataset) and
 * writes the job under r->jobs_dir/<run id>, setting r->job_dir,
 * r->trial_dir and r->trial_name to what it wrote, and r->rewards,
 * r->agent_info, r->protocol and r->gate_closed to what it saw; every
 * failure is a run_error. */
struct runner {
	/* before any workload runs: what the runner needs is there (or NULL) */
	int (*check)(const struct options *o, const struct pc_client *c, const char *project,
		     const struct agent *agent, struct pc_err *e);
	void (*run_task)(struct run *r, const char *task_dir);
};

extern const struct runner local_runner, harbor_runner;

/* Shared by both runners: the Harbor exception a step or trial recorded as
 * the run error "step <s>: <type>: <message>" (borrowed). */
void run_step_exception(struct run *r, const char *step, jv exception);

/* A step's deadlines in seconds as Harbor reads task.toml (both borrowed):
 * the agent's (--agent-timeout, else [steps.agent], else [agent]
 * timeout_sec; 0 for none) and the verifier's ([steps.verifier], else
 * [verifier], else 600). */
double run_agent_timeout(const struct run *r, jv task_toml, jv step);
double run_verifier_timeout(jv task_toml, jv step);

#endif
