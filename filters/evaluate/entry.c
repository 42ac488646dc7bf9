#include "entry.h"

#include <stdlib.h>

#include "err.h"

static void reason_of(struct json_out *o, char *reason)
{
	int members = 1;

	json_out_key(o, "reason", &members);
	json_out_cstring(o, reason);
	json_out_bytes(o, "}", 1);
	free(reason);
}

void entry_bool(struct json_out *o, int value, char *reason)
{
	if (value)
		json_out_bytes(o, "{\"value\":true", 13);
	else
		json_out_bytes(o, "{\"value\":false", 14);
	reason_of(o, reason);
}

void entry_number(struct json_out *o, double value)
{
	json_out_bytes(o, "{\"value\":", 9);
	json_out_number(o, value);
	reason_of(o, NULL);
}

void entry_label(struct json_out *o, const char *value)
{
	json_out_bytes(o, "{\"value\":", 9);
	json_out_cstring(o, value);
	reason_of(o, NULL);
}

void repr_string(struct sbuf *b, struct view v)
{
	size_t n;
	const char *t = view_str(v, &n);

	text_py_repr(b, t, t ? n : 0);
}

void repr_list(struct sbuf *b, const struct view *items, size_t n)
{
	sbuf_add(b, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			sbuf_add(b, ", ");
		repr_string(b, items[i]);
	}
	sbuf_add(b, "]");
}

struct view *entry_items(struct view arr, size_t *n)
{
	struct view_items items = view_items(arr);
	struct view *out = pc_xmalloc((items.n + 1) * sizeof *out);

	*n = 0;
	while (view_next(&items, &out[*n]))
		(*n)++;
	return out;
}
