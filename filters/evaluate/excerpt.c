/* excerpt: bounded, redacted texts of a replay in a diagnosis (excerpt.h). */
#include "excerpt.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <yyjson.h>

#include "err.h"
#include "text.h"

/* Back from i to the start of a UTF-8 character. */
static size_t char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

/* At most max bytes of s from from, as a JSON string with "…" where it was
 * cut, cut on character boundaries. */
static void write_window(struct json_out *o, const char *s, size_t n, size_t from, size_t max)
{
	static const char ellipsis[] = "…";
	size_t to = n - from > max ? from + max : n, len = 0;

	from = char_start(s, from);
	to = to < n ? char_start(s, to) : n;
	char *text = pc_xmalloc(to - from + 2 * sizeof ellipsis);
	if (from > 0)
		memcpy(text, ellipsis, sizeof ellipsis - 1), len += sizeof ellipsis - 1;
	memcpy(text + len, s + from, to - from);
	len += to - from;
	if (to < n)
		memcpy(text + len, ellipsis, sizeof ellipsis - 1), len += sizeof ellipsis - 1;
	json_out_string(o, text, len);
	free(text);
}

void excerpt_clipped(struct json_out *o, const struct redactor *red, struct view text)
{
	const char *s = view_cstr(text);

	if (!s) {
		json_out_bytes(o, "null", 4);
		return;
	}
	char *plain = redact_string(red, s);
	write_window(o, plain, strlen(plain), 0, EXCERPT_MAX);
	free(plain);
}

static int same_folded(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

size_t excerpt_find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; k && i + k <= n; i++) {
		size_t j = 0;
		while (j < k && same_folded(hay[i + j], needle[j]))
			j++;
		if (j == k)
			return i;
	}
	return n;
}

/* Where the first of the count fragments found in the n bytes at s is; n
 * when none is. */
static size_t find_first(const char *s, size_t n, const struct view *fragments, size_t count)
{
	size_t at = n;

	for (size_t i = 0; i < count && at == n; i++)
		if (view_cstr(fragments[i]))
			at = excerpt_find(s, n, view_cstr(fragments[i]));
	return at;
}

/* A third of the window before the fragment at at, so its sentence shows. */
static void write_around(struct json_out *o, const char *s, size_t n, size_t at)
{
	size_t from = at == n || at < EXCERPT_MAX / 3 ? 0 : at - EXCERPT_MAX / 3;

	write_window(o, s, n, from, EXCERPT_MAX);
}

void excerpt_around(struct json_out *o, const struct redactor *red, struct view text,
		    const struct view *fragments, size_t count)
{
	const char *s = view_cstr(text);

	if (!s) {
		json_out_bytes(o, "null", 4);
		return;
	}
	char *plain = redact_string(red, s);
	size_t n = strlen(plain);

	write_around(o, plain, n, find_first(plain, n, fragments, count));
	free(plain);
}

/* PowerContext 1.4.1 writes what it recalled as one JSON object, {"items":
 * [{"content": …}, …]}, between these two lines, after a preamble that is
 * the same in every context and fills a whole excerpt. */
static const char begin_items[] = "BEGIN_POWERCONTEXT_PREPARED_CONTEXT_V1";
static const char end_items[] = "END_POWERCONTEXT_PREPARED_CONTEXT_V1";

/* The content of each item recalled in context s, a line each (malloc'd),
 * or NULL when s holds no such item. */
static char *recalled_items(const char *s)
{
	const char *begin = strstr(s, begin_items), *end;

	if (!begin || !(end = strstr(begin += sizeof begin_items - 1, end_items)))
		return NULL;
	yyjson_doc *doc = yyjson_read(begin, (size_t)(end - begin), 0);
	yyjson_val *items = yyjson_obj_get(yyjson_doc_get_root(doc), "items"), *item;
	yyjson_arr_iter it = yyjson_arr_iter_with(items);
	struct sbuf b = { 0 };

	while ((item = yyjson_arr_iter_next(&it))) {
		yyjson_val *content = yyjson_obj_get(item, "content");
		if (!yyjson_is_str(content))
			continue;
		if (b.len)
			sbuf_add(&b, "\n");
		sbuf_addn(&b, yyjson_get_str(content), yyjson_get_len(content));
	}
	yyjson_doc_free(doc);
	return b.len ? sbuf_take(&b) : NULL;
}

/* The excerpt of a context no fragment was found in: its recalled items
 * (redacted again, as JSON's escapes are undone) or, without any, its start. */
static const char *write_unfound(struct json_out *o, const struct redactor *red,
				 const char *plain)
{
	char *items = recalled_items(plain);

	if (!items) {
		write_window(o, plain, strlen(plain), 0, EXCERPT_MAX);
		return "start";
	}
	char *text = redact_string(red, items);
	write_window(o, text, strlen(text), 0, EXCERPT_MAX);
	free(text);
	free(items);
	return "items";
}

void excerpt_context(struct json_out *o, const struct redactor *red, struct view context,
		     const struct view *fragments, size_t count, int *members)
{
	const char *s = view_cstr(context), *of = "fragment";

	json_out_key(o, "excerpt", members);
	if (!s) {
		json_out_bytes(o, "null", 4);
		json_out_key(o, "excerpt_of", members);
		json_out_bytes(o, "null", 4);
		json_out_key(o, "context", members);
		json_out_bytes(o, "null", 4);
		return;
	}
	char *plain = redact_string(red, s);
	size_t n = strlen(plain), at = find_first(plain, n, fragments, count);

	if (at < n)
		write_around(o, plain, n, at);
	else
		of = write_unfound(o, red, plain);
	json_out_key(o, "excerpt_of", members);
	json_out_cstring(o, of);
	json_out_key(o, "context", members);
	write_window(o, plain, n, 0, EXCERPT_CONTEXT_MAX);
	free(plain);
}
