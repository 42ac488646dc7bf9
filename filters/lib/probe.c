#include "probe.h"

#include "json.h"
#include "text.h"

int probe_fragment_in(const char *content, size_t n, const char *fragment, size_t fn)
{
	return text_contains_folded(TEXT_FOLD_NFC, content, n, fragment, fn);
}

int probe_context_forbidden(jv spec, jv content)
{
	jv forbidden = json_at(spec, "forbidden_context");
	int matched = 0;

	const char *text = jv_get_kind(content) == JV_KIND_STRING ? jv_string_value(content) : NULL;
	size_t n = text ? (size_t)jv_string_length_bytes(jv_copy(content)) : 0;

	if (text && jv_get_kind(forbidden) == JV_KIND_ARRAY)
		jv_array_foreach(forbidden, i, frag) {
			matched = matched ||
				  probe_fragment_in(text, n, jv_string_value(frag),
						    (size_t)jv_string_length_bytes(jv_copy(frag)));
			jv_free(frag);
		}
	jv_free(forbidden);
	return matched;
}
