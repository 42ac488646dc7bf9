/* source: a workload's own Harbor task (source.h). */
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "base/toml.h"
#include "io.h"
#include "json.h"
#include "text.h"

void source_free(struct source *s)
{
	jv_free(s->workload);
	jv_free(s->toml);
	free(s->dir);
}

jv source_steps(const struct source *s)
{
	jv steps = json_get(s->toml, "steps");

	if (jv_get_kind(steps) == JV_KIND_ARRAY)
		return steps;
	jv_free(steps);
	return jv_array();
}

/* Harbor names a step's directory after it: one plain path component. */
static int plain_name(const char *name)
{
	return name && *name && !strchr(name, '/') && !strchr(name, '\\') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

static int check_step_names(const struct source *s, struct pc_err *e)
{
	jv steps = source_steps(s), seen = jv_object();
	int rc = 0;

	jv_array_foreach(steps, i, step) {
		const char *name = json_str(step, "name");
		int taken = name && jv_object_has(jv_copy(seen), jv_string(name));
		if (rc == 0 && (!plain_name(name) || taken))
			rc = pc_fail(e,
				     "workload %s: step names must be distinct single path components, got '%s'",
				     json_str(s->workload, "id"), name ? name : "(none)");
		if (rc == 0)
			seen = jv_object_set(seen, jv_string(name), jv_true());
		jv_free(step);
	}
	jv_free(steps);
	jv_free(seen);
	return rc;
}

int source_load(struct source *s, jv selection, struct pc_err *e)
{
	jv task = json_get(selection, "task");
	const char *dir = json_str(task, "dir"), *id;

	*s = (struct source){ .workload = json_get(selection, "workload"), .toml = jv_null() };
	s->dir = dir ? pc_xstrdup(dir) : NULL;
	jv_free(task);
	id = json_str(s->workload, "id");
	jv pinned = json_at(s->workload, "dataset.checksum");
	int rc = 0;
	if (!s->dir)
		rc = pc_fail(e, "workload %s pins a registry dataset, not a local Harbor task", id);
	else if (harbor_task_checksum(s->dir, s->checksum, e) != 0)
		rc = -1;
	else if (jv_get_kind(pinned) == JV_KIND_STRING &&
		 strcmp(s->checksum, jv_string_value(pinned)))
		rc = pc_fail(e, "workload %s: its task %s has checksum %s, not the pinned %s", id,
			     s->dir, s->checksum, jv_string_value(pinned));
	jv_free(pinned);
	if (rc == 0) {
		char *path = io_join(s->dir, "task.toml");
		rc = toml_load(path, &s->toml, e);
		free(path);
	}
	return rc == 0 ? check_step_names(s, e) : rc;
}
