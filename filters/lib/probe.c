#include "probe.h"

#include "json.h"
#include "text.h"

int probe_context_forbidden(jv spec, jv content)
{
	jv forbidden = json_at(spec, "forbidden_context");
	int matched = jv_get_kind(content) == JV_KIND_STRING &&
		      jv_get_kind(forbidden) == JV_KIND_ARRAY &&
		      text_fragments_found(TEXT_FOLD_NFC, content, forbidden) > 0;

	jv_free(forbidden);
	return matched;
}
