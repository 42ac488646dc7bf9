/* freshness: a replay against the current catalog (freshness.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "freshness.h"
#include "json.h"
#include "text.h"

int freshness_load(const char *path, const char *root, jv *out, struct pc_err *e)
{
	struct catalog c;

	*out = jv_object();
	if (catalog_load(&c, path, root, stderr) != 0) {
		catalog_free(&c);
		return pc_fail(e, "--catalog %s: the catalog is not valid (above)", path);
	}
	for (int i = 0; i < c.n; i++)
		*out = jv_object_set(*out, json_at(c.items[i].manifest, "id"),
				     jv_copy(c.items[i].manifest));
	catalog_free(&c);
	return 0;
}

/* The dotted fields where was and now (both borrowed) differ, into *changed:
 * objects are compared field by field down to depth levels, anything else
 * (a list of probes, a number) as a whole. */
static void differences(jv was, jv now, const char *at, int depth, jv *changed)
{
	if (jv_get_kind(was) == JV_KIND_OBJECT && jv_get_kind(now) == JV_KIND_OBJECT && depth > 0) {
		jv keys = jv_keys(jv_copy(now)), gone = jv_keys(jv_copy(was));
		jv_array_foreach(gone, i, k) {
			if (!jv_object_has(jv_copy(now), jv_copy(k)))
				keys = jv_array_append(keys, jv_copy(k));
			jv_free(k);
		}
		jv_array_foreach(keys, i, k) {
			char *path = *at ? text_fmt("%s.%s", at, jv_string_value(k))
					 : text_fmt("%s", jv_string_value(k));
			jv a = json_get(was, jv_string_value(k));
			jv b = json_get(now, jv_string_value(k));
			differences(a, b, path, depth - 1, changed);
			jv_free(a);
			jv_free(b);
			free(path);
			jv_free(k);
		}
		jv_free(gone);
		jv_free(keys);
		return;
	}
	if (!jv_equal(jv_copy(was), jv_copy(now)))
		*changed = jv_array_append(*changed, jv_string(at));
}

jv freshness_of(jv task, jv current)
{
	jv now = json_get(current, json_str(task, "id") ? json_str(task, "id") : "");
	jv changed = jv_array();

	if (jv_get_kind(now) != JV_KIND_OBJECT) {
		jv_free(now);
		jv_free(changed);
		return JV_OBJECT(jv_string("removed"), jv_true());
	}
	differences(task, now, "", 3, &changed);
	jv_free(now);
	if (jv_array_length(jv_copy(changed)) == 0) {
		jv_free(changed);
		return jv_null();
	}
	return JV_OBJECT(jv_string("changed"), changed);
}
