/* fleet: every selected workload of one invocation run (fleet.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/sandbox.h"
#include "batch/batch.h"
#include "batch/batch_trial.h"
#include "fleet.h"
#include "io.h"
#include "json.h"
#include "paired/hosts.h"
#include "paired/paired.h"
#include "run/agent.h"
#include "run/workload.h"
#include "runners.h"
#include "server/isolation.h"
#include "server/pcclient.h"
#include "stage.h"
#include "text.h"
#include "workers.h"

extern char **environ;

/* What struct fleet points at, owned here for the whole invocation. */
struct fleet_holdings {
	struct pc_client client;
	struct agent agent, agent_off;
	struct pc_api api;
	char *api_error; /* why api is unknown, or NULL */
	char *project, *outdir, *commit;
	char *sandbox_binds;
};

/* The PowerContext under test as replays name it: what the provisioning
 * said (a release's version, a checkout's commit), else the version the
 * Server reports. */
static char *commit_id(const struct pc_api *api)
{
	const char *set = getenv("POWERCONTEXT_E2E_COMMIT");

	if (set && *set)
		return pc_xstrdup(set);
	return pc_xstrdup(api ? api->version : "unknown");
}

/* The repository holding this binary: its .tools/ holds the provisioned
 * Bub and Python, which the sandbox must see. */
static char *find_project(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n > 0) {
		exe[n] = '\0';
		for (char *slash; (slash = strrchr(exe, '/')) && slash != exe;) {
			*slash = '\0';
			char *probe = text_fmt("%s/pipelines/pc-powercontext", exe);
			int found = access(probe, R_OK) == 0;
			free(probe);
			if (found)
				return pc_xstrdup(exe);
		}
	}
	return getcwd(exe, sizeof exe) ? pc_xstrdup(exe) : pc_xstrdup(".");
}

static char *output_dir(const struct run_bub_options *o, struct pc_err *e)
{
	char real[PATH_MAX];

	/* absolute, so records stay valid wherever pc-normalize runs */
	if (o->output) {
		if (io_mkdirs(o->output, e) != 0)
			return NULL;
		if (!realpath(o->output, real))
			return pc_fail_errno(e, "%s", o->output), NULL;
		return pc_xstrdup(real);
	}
	char *dir = text_fmt("%s/pc-e2e-XXXXXX", io_tmpdir());
	if (!mkdtemp(dir)) {
		pc_fail_errno(e, "cannot create %s", dir);
		free(dir);
		return NULL;
	}
	fprintf(stderr, "%s: writing Harbor job directories under %s\n", o->prog, dir);
	return dir;
}

/* One record out (consumed); a record that cannot be written ends the run. */
static int emit_record(const struct fleet *f, jv record)
{
	struct pc_err e;

	if (stage_emit(f->red, record, &e) != 0)
		return stage_die(f->o->prog, f->red, EXIT_INVALID, e.msg);
	return EXIT_OK;
}

/* The workloads of one unit (-1: every one) in selection order, each record
 * written as soon as it is made; a merged batch's, once its shared trial
 * ended.  After a stop request no workload starts. */
static int run_selections(const struct fleet *f, int unit)
{
	int status = EXIT_OK;

	for (int i = 0; i < f->n && status == EXIT_OK && !proc_stop_signal(); i++) {
		/* a batch's later members run with its first */
		if ((unit >= 0 && f->unit_of[i] != unit) || f->unit_of[i] != i)
			continue;
		jv records, w = jv_getpath(jv_copy(f->selections),
					   JV_ARRAY(jv_number(i), jv_string("workload")));
		if (f->progress)
			fprintf(stderr, "%s: workload %d/%d: %s\n", f->o->prog, i + 1, f->n,
				json_str(w, "id"));
		jv_free(w);
		if (f->o->trials) {
			status = paired_run(f, i, emit_record);
			continue;
		}
		if (batch_size(f, i) > 1)
			records = batch_run(f, i);
		else {
			struct workload_run r;
			run_begin(&r, f, i);
			records = JV_ARRAY(workload_run(&r));
			run_end(&r);
		}
		jv_array_foreach(records, k, record) {
			if (status == EXIT_OK)
				status = emit_record(f, record);
			else
				jv_free(record);
		}
		jv_free(records);
	}
	return status;
}

static int run_unit(void *fleet, int unit)
{
	return run_selections(fleet, unit);
}

/* The record of workload i, which did not run: failed with why, or skipped
 * when why is NULL (owned, not yet redacted). */
static jv unrun_record(const struct fleet *f, int i, const char *why)
{
	struct workload_run r;

	run_begin(&r, f, i);
	jv record = workload_unrun(&r, why);
	run_end(&r);
	return record;
}

static char *unwritten_record(void *fleet, int i, const char *why)
{
	const struct fleet *f = fleet;
	jv text = jv_dump_string(redact_jv(f->red, unrun_record(f, i, why)), 0);
	char *line = text_fmt("%s\n", jv_string_value(text));

	jv_free(text);
	return line;
}

/* --unrun WHY: the records of a unit no attempt finished, as a worker that
 * died leaves its own: each workload failed with why, a batch's later
 * members skipped; each arm of each trial of a paired one failed. */
static int unrun_selections(const struct fleet *f)
{
	const char *why = f->o->unrun;
	int status = EXIT_OK;

	for (int i = 0; i < f->n && status == EXIT_OK; i++) {
		const char *own = f->unit_of[i] == i ? why : NULL;
		status = f->o->trials ? paired_unrun(f, i, why, emit_record)
				      : emit_record(f, unrun_record(f, i, own));
	}
	return status;
}

/* Every workload: one after another in this process, or with --jobs N in
 * worker processes, N at once (*worker set in a worker, whose status this is). */
static int run_units(const struct fleet *f, int *worker)
{
	struct workers j = { .n = f->n,
			     .unit_of = f->unit_of,
			     .max = f->o->jobs,
			     .prog = f->o->prog,
			     .ctx = (void *)f,
			     .run_unit = run_unit,
			     .unwritten = unwritten_record };
	struct pc_err e;

	*worker = 0;
	if (f->o->unrun)
		return unrun_selections(f);
	if (f->o->jobs == 1)
		return run_selections(f, -1);
	int rc = workers_run(&j, worker, &e);
	if (*worker || rc == 0)
		return rc;
	return stage_die(f->o->prog, f->red, EXIT_INVALID, e.msg);
}

/* What every workload needs before the first runs, after the Server's
 * client: the paired Server's checks and the OFF arm's agent, the agent,
 * what the runner checks, and the output directory; -1 with e.  Workloads
 * --unrun records need neither the Server nor the runner. */
static int prepare(struct fleet_holdings *h, const struct run_bub_options *o, jv selections,
		   struct pc_err *e)
{
	const struct runner *runner = o->runner;
	int runs = !o->unrun;

	h->project = find_project();
	/* a command-line host is its own agent in both arms (local/local_cli.c) */
	int cli = o->trials && o->host->cli;
	if (cli) {
		h->agent.command = pc_xstrdup(o->host->name);
		h->agent_off.command = pc_xstrdup(o->host->name);
	}
	if ((o->trials && ((runs && isolation_check(&h->client, e) != 0) ||
			   (!cli && agent_resolve_off(o->agent, &h->agent_off, e) != 0))) ||
	    (!cli && agent_resolve(o->agent, &h->agent, e) != 0) ||
	    (runs && runner->check &&
	     runner->check(o, &h->client, h->project, &h->agent, selections, e) != 0) ||
	    !(h->outdir = output_dir(o, e)))
		return -1;
	/* once per run: a Server that cannot say what it is fails every Memory workload */
	if (runs && pc_api_detect(&h->client, &h->api, e) != 0)
		h->api_error = pc_xstrdup(e->msg);
	const char *venvs[] = { h->agent.bub_dir, o->trials ? h->agent_off.bub_dir : NULL };
	h->sandbox_binds = sandbox_binds(venvs, sizeof venvs / sizeof *venvs,
					 getenv("PC_E2E_SANDBOX_BINDS"));
	return 0;
}

/* The fleet over what h holds, run; a stop ends it with 128 + its signal. */
static int run_prepared(struct fleet_holdings *h, const struct run_bub_options *o,
			const struct redactor *red, jv selections)
{
	const struct pc_api *known = h->api.version ? &h->api : NULL;
	int n = jv_array_length(jv_copy(selections)), worker;

	/* from here on a stop finishes the workload it interrupts: its record
	 * and evidence are written, then pc-run-bub exits with 128 + signal */
	proc_catch_stop();
	h->commit = commit_id(known);
	struct fleet fleet = {
		.o = o,
		.red = red,
		.client = &h->client,
		.api = known,
		.api_error = h->api_error,
		.project = h->project,
		.sandbox_binds = h->sandbox_binds,
		.outdir = h->outdir,
		.commit = h->commit,
		.agent = &h->agent,
		.agent_off = o->trials ? &h->agent_off : NULL,
		.selections = selections,
		.n = n,
		.unit_of = batch_units(selections, n),
		.progress = isatty(STDERR_FILENO) || getenv("PC_E2E_PROGRESS"),
	};
	int status = run_units(&fleet, &worker);
	if (status == EXIT_OK && proc_stop_signal()) {
		if (!worker)
			fprintf(stderr,
				"%s: stopped by %s; the workloads after the %s it interrupted were not run\n",
				o->prog, proc_stop_name(), o->jobs > 1 ? "ones" : "one");
		status = 128 + proc_stop_signal();
	}
	free(fleet.unit_of);
	return status;
}

int fleet_run(const struct run_bub_options *o, const struct redactor *red, jv selections)
{
	struct fleet_holdings h = { .agent = { NULL, NULL, jv_null() },
				    .agent_off = { NULL, NULL, jv_null() },
				    .api = { NULL, 0 } };
	struct pc_err e;

	if (pc_client_init(&h.client, environ, o->client_timeout, &e) != 0)
		return stage_die(o->prog, red, EXIT_INVALID, e.msg);
	int status = prepare(&h, o, selections, &e) == 0
			     ? run_prepared(&h, o, red, selections)
			     : stage_die(o->prog, red, EXIT_INVALID, e.msg);
	pc_client_free(&h.client);
	pc_api_free(&h.api);
	free(h.api_error);
	free(h.project);
	free(h.sandbox_binds);
	agent_free(&h.agent);
	agent_free(&h.agent_off);
	free(h.outdir);
	free(h.commit);
	return status;
}
