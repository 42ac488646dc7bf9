/* seconds: a time setting's number of seconds (seconds.h). */
#include "base/seconds.h"

#include <stdlib.h>
#include <string.h>

int seconds_parse(const char *name, const char *text, double *seconds, struct pc_err *e)
{
	char *end = NULL;
	double t = strtod(text, &end);

	if (end == text || *end || strpbrk(text, "xXnNiI") || !(t > 0 && t <= SECONDS_MAX))
		return pc_fail(e, "%s must be a positive number of seconds up to %.0f, not \"%s\"",
			       name, SECONDS_MAX, text);
	*seconds = t;
	return 0;
}
