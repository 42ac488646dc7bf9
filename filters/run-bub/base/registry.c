/* registry: a local Harbor registry (registry.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/harbor.h"
#include "base/registry.h"
#include "io.h"
#include "json.h"
#include "text.h"

/* A task entry (consumed) with its local path made absolute against the
 * registry's directory dir; a git task is Harbor's to fetch. */
static jv resolve_task(jv task, const char *dir)
{
	const char *p = json_str(task, "path");
	jv git = json_get(task, "git_url");

	if (p && *p != '/' && jv_get_kind(git) != JV_KIND_STRING) {
		char *abs = io_join(dir, p);
		task = jv_object_set(task, jv_string("path"), jv_string(abs));
		free(abs);
	}
	jv_free(git);
	return task;
}

/* The registry's datasets (owned), every local task's path absolute. */
static int load(const char *path, jv *datasets, struct pc_err *e)
{
	char *dir = pc_xstrdup(path), *slash = strrchr(dir, '/');
	jv doc;

	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	if (json_read_file(path, &doc, e) != 0) {
		free(dir);
		return -1;
	}
	if (jv_get_kind(doc) != JV_KIND_ARRAY) {
		jv_free(doc);
		free(dir);
		return pc_fail(e, "%s: a Harbor registry is a JSON list of datasets", path);
	}
	jv out = jv_array();
	jv_array_foreach(doc, i, dataset) {
		jv tasks = json_get(dataset, "tasks"), resolved = jv_array();
		if (jv_get_kind(tasks) == JV_KIND_ARRAY)
			jv_array_foreach(tasks, j, task) {
				resolved = jv_array_append(resolved, resolve_task(task, dir));
			}
		jv_free(tasks);
		out = jv_array_append(out, jv_object_set(dataset, jv_string("tasks"), resolved));
	}
	jv_free(doc);
	free(dir);
	*datasets = out;
	return 0;
}

static jv find_dataset(jv datasets, const char *name, const char *version)
{
	jv found = jv_invalid();

	jv_array_foreach(datasets, i, d) {
		const char *n = json_str(d, "name"), *v = json_str(d, "version");
		int version_matches = !version || (v && !strcmp(v, version));
		if (!jv_is_valid(found) && n && !strcmp(n, name) && version_matches)
			found = jv_copy(d);
		jv_free(d);
	}
	return found;
}

/* Harbor picks a task by its directory's base name, not the name the
 * registry lists it under. */
static char *find_task(jv dataset, const char *task_id)
{
	jv tasks = json_get(dataset, "tasks");
	char *found = NULL;

	if (jv_get_kind(tasks) == JV_KIND_ARRAY)
		jv_array_foreach(tasks, i, task) {
			const char *p = json_str(task, "path");
			const char *base = p ? strrchr(p, '/') : NULL;
			if (!found && p && !strcmp(base ? base + 1 : p, task_id))
				found = pc_xstrdup(p);
			jv_free(task);
		}
	jv_free(tasks);
	return found;
}

int registry_task_dir(const char *path, jv dataset, char **task_dir, struct pc_err *e)
{
	const char *name = json_str(dataset, "name"), *version = json_str(dataset, "version");
	const char *task_id = json_str(dataset, "task_id");
	jv datasets;
	struct stat st;

	*task_dir = NULL;
	if (load(path, &datasets, e) != 0)
		return pc_wrap(e, "registry for dataset %s %s: ", name,
			       version ? version : "(any version)");
	jv found = find_dataset(datasets, name, version);
	jv_free(datasets);
	if (!jv_is_valid(found)) {
		jv_free(found);
		return pc_fail(e, "registry %s has no dataset %s %s", path, name,
			       version ? version : "(any version)");
	}
	*task_dir = find_task(found, task_id);
	jv_free(found);
	if (!*task_dir)
		return pc_fail(e, "registry %s: dataset %s %s has no task %s", path, name,
			       version ? version : "", task_id);
	char *toml = io_join(*task_dir, "task.toml");
	int rc = 0;
	if (stat(toml, &st) != 0)
		rc = pc_fail_errno(e, "registry %s: dataset %s: %s", path, name, toml);
	free(toml);
	if (rc != 0) {
		free(*task_dir);
		*task_dir = NULL;
	}
	return rc;
}

int registry_write_resolved(const char *path, const char *dir, const char *name,
			    struct pc_err *e)
{
	jv datasets;

	if (load(path, &datasets, e) != 0)
		return pc_wrap(e, "registry: ");
	return harbor_write_json(dir, name, datasets, e);
}
