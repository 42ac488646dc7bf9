/* excerpt: bounded, redacted texts of a replay in a diagnosis (excerpt.h). */
#include "excerpt.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Back from i to the start of a UTF-8 character. */
static size_t char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

/* s[from, to) as a JSON string with "…" where it was cut, at most
 * EXCERPT_MAX bytes of s, cut on character boundaries. */
static void write_window(struct json_out *o, const char *s, size_t n, size_t from, size_t to)
{
	static const char ellipsis[] = "…";
	char text[EXCERPT_MAX + 2 * sizeof ellipsis];
	size_t len = 0;

	if (to > n)
		to = n;
	if (to - from > EXCERPT_MAX)
		to = from + EXCERPT_MAX;
	from = char_start(s, from);
	to = to < n ? char_start(s, to) : n;
	if (from > 0)
		memcpy(text, ellipsis, sizeof ellipsis - 1), len += sizeof ellipsis - 1;
	memcpy(text + len, s + from, to - from);
	len += to - from;
	if (to < n)
		memcpy(text + len, ellipsis, sizeof ellipsis - 1), len += sizeof ellipsis - 1;
	json_out_string(o, text, len);
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

void excerpt_around(struct json_out *o, const struct redactor *red, struct view text,
		    const struct view *fragments, size_t count)
{
	const char *s = view_cstr(text);

	if (!s) {
		json_out_bytes(o, "null", 4);
		return;
	}
	char *plain = redact_string(red, s);
	size_t n = strlen(plain), at = n;

	for (size_t i = 0; i < count && at == n; i++)
		if (view_cstr(fragments[i]))
			at = excerpt_find(plain, n, view_cstr(fragments[i]));
	size_t from = at == n || at < EXCERPT_MAX / 3 ? 0 : at - EXCERPT_MAX / 3;
	write_window(o, plain, n, from, from + EXCERPT_MAX);
	free(plain);
}
