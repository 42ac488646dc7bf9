/* outdir: where a workload's files live under --output (outdir.h). */
#include "outdir.h"

#include <stdlib.h>

#include "docs_names.h"
#include "json.h"
#include "text.h"

#define BATCH_PREFIX "batch-"
#define MEMBERS_DIR  "tasks"

char *outdir_batch(const char *batch)
{
	return text_fmt(BATCH_PREFIX "%s", batch);
}

char *outdir_workload(const char *id, const char *batch)
{
	return batch ? text_fmt(BATCH_PREFIX "%s/" MEMBERS_DIR "/%s", batch, id)
		     : text_fmt("%s", id);
}

char *outdir_trial(const char *id, int trial)
{
	return text_fmt("%s/trial-%d", id, trial);
}

char *outdir_arm(const char *id, int trial, const char *arm)
{
	char *dir = outdir_trial(id, trial), *path = text_fmt("%s/%s", dir, arm);

	free(dir);
	return path;
}

const char *outdir_batch_of(jv workload)
{
	jv categories = json_get(workload, "categories");
	const char *batch = NULL;

	if (jv_get_kind(categories) == JV_KIND_ARRAY)
		jv_array_foreach(categories, i, c) {
			/* the string lives on in workload */
			if (!batch && jv_get_kind(c) == JV_KIND_STRING)
				batch = docs_batch_name(jv_string_value(c));
			jv_free(c);
		}
	jv_free(categories);
	return batch;
}
