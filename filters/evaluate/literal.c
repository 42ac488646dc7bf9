#include "literal.h"

#include <string.h>

#include "json.h"

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && json_is_space(*p))
		p++;
	return p;
}

/* The end of the (valid) value at p. */
static const char *skip_value(const char *p, const char *end)
{
	int depth = 0, in_string = 0;

	for (; p < end; p++) {
		if (in_string) {
			if (*p == '\\')
				p++;
			else if (*p == '"') {
				in_string = 0;
				if (depth == 0)
					return p + 1;
			}
		} else if (*p == '"')
			in_string = 1;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
			if (depth < 0)
				return p;
		} else if (depth == 0 && (*p == ',' || json_is_space(*p)))
			return p;
	}
	return p;
}

/* Whether the JSON string token [p, end) decodes to key. */
static int key_is(const char *p, const char *end, const char *key)
{
	size_t n = (size_t)(end - p), plain = 1;

	/* the common token, without escapes, is its own bytes */
	for (size_t i = 1; i + 1 < n && plain; i++)
		plain = p[i] != '\\' && (unsigned char)p[i] >= 0x20;
	if (plain && n >= 2)
		return n - 2 == strlen(key) && !memcmp(p + 1, key, n - 2);
	jv k = jv_parse_sized(p, (int)(end - p));
	int same = jv_get_kind(k) == JV_KIND_STRING && !strcmp(jv_string_value(k), key);

	jv_free(k);
	return same;
}

int literal_at(const char *text, size_t len, const char *dotted,
	       const char **lit, size_t *lit_len)
{
	const char *p = skip_space(text, text + len), *end = text + len;
	const char *key = dotted;
	char part[256];

	while (*key) {
		size_t n = strcspn(key, ".");
		if (n >= sizeof part || p >= end || *p != '{')
			return 0;
		memcpy(part, key, n);
		part[n] = '\0';
		key += n + (key[n] == '.');
		/* duplicate keys: the last one holds, as for every JSON reader here */
		const char *found = NULL;
		for (p = skip_space(p + 1, end); p < end && *p == '"';) {
			const char *kend = skip_value(p, end);
			const char *value = skip_space(skip_space(kend, end) + 1, end);
			if (key_is(p, kend, part))
				found = value;
			p = skip_space(skip_value(value, end), end);
			if (p < end && *p == ',')
				p = skip_space(p + 1, end);
		}
		if (!found)
			return 0;
		p = found;
	}
	*lit = p;
	*lit_len = (size_t)(skip_value(p, end) - p);
	return 1;
}
