/* preflight: what pc-run-bub refuses before any workload runs (preflight.h). */
#include <stdlib.h>

#include "base/registry.h"
#include "base/toml.h"
#include "batch/batch.h"
#include "docs.h"
#include "hosts/cli_host.h"
#include "io.h"
#include "json.h"
#include "paired/hosts.h"
#include "paired/paired.h"
#include "preflight.h"
#include "run/workload.h"
#include "runners.h"
#include "server/pcclient.h"
#include "text.h"

/* Paired workloads compare a run without PowerContext with one with it: a
 * single run of each cannot stand for that, so refuse before anything runs. */
static int check_unpaired(jv selections, struct pc_err *e)
{
	struct sbuf names = { 0 };

	jv_array_foreach(selections, i, sel) {
		jv evaluation = json_at(sel, "workload.evaluation"),
		   id = json_at(sel, "workload.id");
		if (docs_evaluation_kind(evaluation) == EVALUATION_PAIRED)
			sbuf_addf(&names, "%s%s", names.len ? ", " : "", jv_string_value(id));
		jv_free(evaluation);
		jv_free(id);
		jv_free(sel);
	}
	char *list = sbuf_take(&names);
	int rc = 0;
	if (*list)
		rc = pc_fail(e,
			     "these workloads are OFF/ON paired comparisons, which run as two arms each (one without PowerContext, one with it) under --paired: %s",
			     list);
	free(list);
	return rc;
}

/* A command-line host runs from its provisioned directory, which the
 * sandbox binds from this machine: never in a --harbor-env one.  A plan
 * (or its unrun records) runs no host: pipelines/paired asks for one
 * before it provisions the host, and each unit's run checks. */
static int check_cli_host(const struct run_bub_options *o, struct pc_err *e)
{
	struct cli_dir d;

	if (o->harbor_env)
		return pc_fail(
			e,
			"--host %s runs the host provisioned on this machine (pipelines/pc-powercontext %s), which a --harbor-env %s sandbox cannot bind",
			o->host->name, o->host->name, o->harbor_env);
	if (o->plan || o->unrun)
		return 0;
	if (cli_dir_load(o->host->cli, &d, e) != 0)
		return -1;
	cli_dir_free(&d);
	return 0;
}

/* Paired workloads run under --paired only, and --paired runs nothing
 * else, on a host that can run here. */
static int check_pairing(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	if (!o->trials)
		return check_unpaired(selections, e);
	if (host_check(o->host, e) != 0)
		return -1;
	if (o->host->cli && check_cli_host(o, e) != 0)
		return -1;
	return paired_check_workloads(selections, e);
}

/* The names a refusal lists of the model-backed workloads it refuses: the
 * first few, when a whole sample lacks its scripts. */
enum {
	MODELS_NAMED = 8
};

/* Model-backed workloads need a model, and the scripted one a script and a
 * loopback endpoint: refuse before anything runs, saying which of the
 * selected workloads have a script, which a run may keep. */
static int check_models(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	struct sbuf unmodelled = { 0 }, scripted = { 0 };
	const char *base = getenv("BUB_API_BASE");
	char *why = NULL;
	int backed = 0, refused = 0, rc = 0;

	if (o->model_scripts && o->harbor_env)
		return pc_fail(
			e,
			"--model-scripts: the scripted model is on this machine's loopback, which a %s sandbox cannot reach",
			o->harbor_env);
	/* a plan's units each start their own scripted model, and each unit's
	 * run makes this check; nothing unrun asks a model */
	if (o->model_scripts && !o->plan && !o->unrun && !(base && pc_url_is_loopback(base)))
		return pc_fail(
			e,
			"--model-scripts: BUB_API_BASE must be the scripted model's loopback URL (http://127.0.0.1:PORT/v1), got %s",
			base && *base ? base : "nothing");
	jv_array_foreach(selections, i, sel) {
		jv w = jv_object_get(sel, jv_string("workload"));
		const char *id = json_str(w, "id");
		char *model;
		if (workload_model(o, w, &model, e) != 0) {
			backed++;
			if (refused++ < MODELS_NAMED)
				sbuf_addf(&unmodelled, "%s%s", unmodelled.len ? ", " : "", id);
			if (!why)
				why = pc_xstrdup(e->msg);
		} else if (model) {
			backed++;
			sbuf_addf(&scripted, "%s%s", scripted.len ? ", " : "", id);
		}
		free(model);
		jv_free(w);
	}
	char *names = sbuf_take(&unmodelled), *kept = sbuf_take(&scripted);
	const char *more = refused > MODELS_NAMED ? ", ..." : "";
	if (refused && !o->model_scripts)
		rc = pc_fail(e, "%s, and these workloads are model-backed: %s%s", why, names, more);
	else if (refused)
		rc = pc_fail(
			e,
			"--model-scripts %s holds no script for %d of the %d model-backed workloads selected (%s): %s%s; %s%s",
			o->model_scripts, refused, backed, why, names, more,
			*kept ? "these have one: " : "none has one", kept);
	free(names);
	free(kept);
	free(why);
	return rc;
}

/* The Docker image the task of a registry dataset that --registry lists
 * runs in, malloc'd into *image: its task.toml's environment.docker_image,
 * "" for none (it runs on this machine's system, as a path dataset's task
 * does).  -1 with e when --registry cannot find the task or its task.toml
 * cannot be read. */
static int task_image(const char *registry, jv dataset, char **image, struct pc_err *e)
{
	char *dir = NULL;
	jv doc = jv_null();

	*image = NULL;
	if (registry_task_dir(registry, dataset, &dir, e) != 0)
		return -1;
	char *path = io_join(dir, "task.toml");
	int rc = toml_load(path, &doc, e);
	if (rc == 0) {
		jv name = json_at(doc, "environment.docker_image");
		int named = jv_get_kind(name) == JV_KIND_STRING;
		*image = pc_xstrdup(named ? jv_string_value(name) : "");
		jv_free(name);
	}
	jv_free(doc);
	free(path);
	free(dir);
	return rc;
}

/* "id (name@version" of a registry dataset's workload added to list (just
 * the name when it pins no version), left open for the caller's ")". */
static void add_dataset(struct sbuf *list, const char *id, jv dataset)
{
	const char *version = json_str(dataset, "version");

	sbuf_addf(list, "%s%s (%s%s%s", list->len ? ", " : "", id, json_str(dataset, "name"),
		  version ? "@" : "", version ? version : "");
}

/* When the task of workload id (a registry dataset's) runs in a Docker
 * image, "id (name@version[, image I])" added to list.  Every task of
 * Harbor's own registry does: it is defined by its image, and cannot be
 * read before a run fetches it.  A task whose image cannot be known
 * (--registry cannot find it, or its task.toml cannot be read) is left to
 * its run, whose record names the registry, the dataset and what failed, as
 * every such failure does. */
static void note_image(const struct run_bub_options *o, jv dataset, const char *id,
		       struct sbuf *list)
{
	char *image = NULL;
	struct pc_err e;

	if (!o->registry) {
		add_dataset(list, id, dataset);
		sbuf_add(list, ")");
	} else if (task_image(o->registry, dataset, &image, &e) == 0 && *image) {
		add_dataset(list, id, dataset);
		sbuf_addf(list, ", image %s)", image);
	}
	free(image);
}

/* A registry dataset's task runs where its image is: the local runner reads
 * one only through --registry, and a task that runs in a Docker image needs
 * an environment that runs images (Harbor's, --harbor-env), never the
 * bubblewrap sandbox on this machine's system. */
static int check_registry_tasks(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	struct sbuf unfetched = { 0 }, imaged = { 0 };
	int rc = 0;

	jv_array_foreach(selections, i, sel) {
		jv dataset = json_at(sel, "workload.dataset"), id = json_at(sel, "workload.id");
		const char *name = json_str(dataset, "name");
		if (name && !o->registry && !o->runner->harbor_environments) {
			add_dataset(&unfetched, jv_string_value(id), dataset);
			sbuf_add(&unfetched, ")");
		} else if (name && !o->harbor_env) /* --harbor-env needs the harbor runner */
			note_image(o, dataset, jv_string_value(id), &imaged);
		jv_free(dataset);
		jv_free(id);
		jv_free(sel);
	}
	char *fetch = sbuf_take(&unfetched), *images = sbuf_take(&imaged);
	if (*fetch)
		rc = pc_fail(
			e,
			"these workloads pin a dataset of Harbor's registry, which the %s runner reads only through --registry FILE: %s; give --registry FILE listing it, or --runner harbor to fetch it",
			o->runner->name, fetch);
	else if (*images)
		rc = pc_fail(
			e,
			"these workloads' tasks run in a Docker image (each task of Harbor's registry is defined by one; through --registry, its task.toml's docker_image names it), which the bubblewrap sandbox on this machine's system cannot run: %s; give --runner harbor --harbor-env docker (a Docker daemon) or a remote environment (--harbor-env daytona, e2b, modal, ...)",
			images);
	free(fetch);
	free(images);
	return rc;
}

int preflight_check(const struct run_bub_options *o, jv selections, struct pc_err *e)
{
	if (check_pairing(o, selections, e) != 0 || check_models(o, selections, e) != 0)
		return -1;
	/* a plan runs nothing, and an unrun record needs no task */
	if (!o->plan && !o->unrun && check_registry_tasks(o, selections, e) != 0)
		return -1;
	return batch_check(selections, e);
}
