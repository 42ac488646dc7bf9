/* Change marks and the compact form of a trend. */
#include <string.h>

#include "json.h"
#include "trend.h"

const char *trend_change(jv trend)
{
	const char *last = NULL, *before_change = NULL;
	int changes = 0;

	if (jv_get_kind(trend) != JV_KIND_ARRAY)
		return NULL;
	if (jv_array_length(jv_copy(trend)) <= 1)
		return "new";
	jv_array_foreach(trend, i, run) {
		const char *v = json_str(run, "verdict");
		/* a skip says nothing about the workload, only about its run */
		if (v && strcmp(v, "skipped")) {
			if (last && strcmp(last, v)) {
				changes++;
				before_change = last;
			}
			last = v; /* stays valid: trend holds the string */
		}
		jv_free(run);
	}
	if (changes == 0)
		return "stable";
	if (changes >= 2)
		return "flaky";
	return !strcmp(before_change, "accepted") && strcmp(last, "accepted") ? "regression"
									      : "recovered";
}

void trend_add_letters(struct sbuf *b, jv trend)
{
	jv_array_foreach(trend, i, run) {
		const char *v = json_str(run, "verdict");
		char letter = v && *v ? (char)(*v - 'a' + 'A') : '?';
		sbuf_addf(b, "%s%c", i ? " " : "", letter);
		jv_free(run);
	}
}
