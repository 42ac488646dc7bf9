#include "entry.h"

#include <stdlib.h>

#include "json.h"

jv entry(jv value, char *reason)
{
	jv out = JV_OBJECT(jv_string("value"), value,
			   jv_string("reason"), json_string_or_null(reason));

	free(reason);
	return out;
}

const char *string_bytes(jv s, size_t *n)
{
	*n = (size_t)jv_string_length_bytes(jv_copy(s));
	return jv_string_value(s);
}

void repr_string(struct sbuf *b, jv v)
{
	size_t n;

	if (jv_get_kind(v) == JV_KIND_STRING) {
		const char *t = string_bytes(v, &n);
		text_py_repr(b, t, n);
	} else
		text_py_repr(b, NULL, 0);
}

char *repr_list(jv list)
{
	struct sbuf b = { 0 };

	sbuf_add(&b, "[");
	jv_array_foreach(list, i, item) {
		if (i)
			sbuf_add(&b, ", ");
		repr_string(&b, item);
		jv_free(item);
	}
	jv_free(list);
	sbuf_add(&b, "]");
	return sbuf_take(&b);
}
