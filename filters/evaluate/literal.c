#include "literal.h"

#include <string.h>

#include "json.h"
#include "text.h"

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

/* The value of key's last member in the object at p, or NULL when p is no
 * object or has no such member: duplicate keys, the last one holds, as for
 * every JSON reader here. */
static const char *member_value(const char *p, const char *end, const char *key)
{
	const char *found = NULL;

	if (p >= end || *p != '{')
		return NULL;
	for (p = skip_space(p + 1, end); p < end && *p == '"';) {
		const char *kend = skip_value(p, end);
		const char *value = skip_space(skip_space(kend, end) + 1, end);
		if (key_is(p, kend, key))
			found = value;
		p = skip_space(skip_value(value, end), end);
		if (p < end && *p == ',')
			p = skip_space(p + 1, end);
	}
	return found;
}

int literal_at(const char *text, size_t len, const char *dotted,
	       const char **lit, size_t *lit_len)
{
	const char *p = skip_space(text, text + len), *end = text + len;
	const char *key = dotted;
	char part[256];

	while (*key) {
		size_t n = strcspn(key, ".");
		if (n >= sizeof part)
			return 0;
		memcpy(part, key, n);
		part[n] = '\0';
		key += n + (key[n] == '.');
		if (!(p = member_value(p, end, part)))
			return 0;
	}
	*lit = p;
	*lit_len = (size_t)(skip_value(p, end) - p);
	return 1;
}

int literal_member(const char *object, size_t len, const char *key, const char **lit,
		   size_t *lit_len)
{
	const char *end = object + len, *p = member_value(skip_space(object, end), end, key);

	if (!p)
		return 0;
	*lit = p;
	*lit_len = (size_t)(skip_value(p, end) - p);
	return 1;
}

int literal_is_int(const char *lit, size_t lit_len)
{
	int integral = lit && lit_len > 0;

	for (size_t i = 0; integral && i < lit_len; i++)
		integral = lit[i] == '-' || (lit[i] >= '0' && lit[i] <= '9');
	return integral;
}

void literal_add_repr(struct sbuf *b, double x, const char *lit, size_t lit_len)
{
	int integral = literal_is_int(lit, lit_len);

	if (integral && !(lit_len == 2 && !strncmp(lit, "-0", 2)))
		sbuf_addn(b, lit, lit_len);
	else if (integral)
		sbuf_add(b, "0");
	else
		text_py_float(b, x);
}
