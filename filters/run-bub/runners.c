/* runners: the table of runners (runners.h). */
#include <stddef.h>
#include <string.h>

#include "harbor/harbor_check.h"
#include "harbor/harbor_job.h"
#include "local/local.h"
#include "runners.h"

/* clang-format off */
const struct runner runners[] = {
	{ "local",  0, NULL,                local_runner_run },
	{ "harbor", 1, harbor_runner_check, harbor_runner_run },
	{ NULL,     0, NULL,                NULL },
};
/* clang-format on */

const struct runner *runner_named(const char *name)
{
	for (const struct runner *r = runners; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

const char *runner_name_at(const void *table, size_t i)
{
	(void)table;
	return runners[i].name;
}
