#include "redact.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "text.h"

static int is_secret_name(const char *name, size_t len)
{
	static const char *const exact[] = {
		"BUB_API_KEY", "POWERCONTEXT_CLIENT_API_TOKEN",
		"POWERCONTEXT_E2E_AGENT_PROXY_URL",
	};
	const char *suffix = "_API_KEY";
	size_t sl = strlen(suffix);

	for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
		if (strlen(exact[i]) == len && !memcmp(exact[i], name, len))
			return 1;
	return len > 4 + sl && !memcmp(name, "BUB_", 4) &&
	       !memcmp(name + len - sl, suffix, sl);
}

/* The body of json.dumps(s, ensure_ascii=False) without its quotes. */
static char *json_escaped(const char *s)
{
	jv d = jv_dump_string(jv_string(s), 0);
	const char *t = jv_string_value(d);
	size_t n = strlen(t);
	char *out = pc_xmalloc(n);

	memcpy(out, t + 1, n - 2);
	out[n - 2] = '\0';
	jv_free(d);
	return out;
}

static void add_needle(struct redactor *r, char *s)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->needles[i], s)) {
			free(s);
			return;
		}
	r->needles = pc_xrealloc(r->needles, (size_t)(r->n + 1) * sizeof *r->needles);
	r->needles[r->n++] = s;
}

static int longest_first(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return (x < y) - (x > y);
}

void redactor_init(struct redactor *r, char *const *env)
{
	r->needles = NULL;
	r->n = 0;
	for (; env && *env; env++) {
		const char *eq = strchr(*env, '=');
		if (!eq || !eq[1] || !is_secret_name(*env, (size_t)(eq - *env)))
			continue;
		add_needle(r, pc_xstrdup(eq + 1));
		add_needle(r, json_escaped(eq + 1));
	}
	if (r->n > 1)
		qsort(r->needles, (size_t)r->n, sizeof *r->needles, longest_first);
}

void redactor_free(struct redactor *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->needles[i]);
	free(r->needles);
	r->needles = NULL;
	r->n = 0;
}

static char *replace_all(const char *s, const char *needle)
{
	struct sbuf b = {0};
	size_t nl = strlen(needle);
	const char *hit;

	while ((hit = strstr(s, needle))) {
		sbuf_addn(&b, s, (size_t)(hit - s));
		sbuf_add(&b, REDACTED);
		s = hit + nl;
	}
	sbuf_add(&b, s);
	return sbuf_take(&b);
}

char *redact_string(const struct redactor *r, const char *s)
{
	char *cur = pc_xstrdup(s);

	for (int i = 0; i < r->n; i++) {
		if (!strstr(cur, r->needles[i]))
			continue;
		char *next = replace_all(cur, r->needles[i]);
		free(cur);
		cur = next;
	}
	return cur;
}

static jv redact_str_jv(const struct redactor *r, jv s)
{
	char *t = redact_string(r, jv_string_value(s));
	jv out = jv_string(t);

	free(t);
	jv_free(s);
	return out;
}

jv redact_jv(const struct redactor *r, jv v)
{
	if (r->n == 0)
		return v;
	switch (jv_get_kind(v)) {
	case JV_KIND_STRING:
		return redact_str_jv(r, v);
	case JV_KIND_ARRAY: {
		jv out = jv_array();
		jv_array_foreach(v, i, item)
			out = jv_array_append(out, redact_jv(r, item));
		jv_free(v);
		return out;
	}
	case JV_KIND_OBJECT: {
		jv out = jv_object();
		jv_object_foreach(v, key, val)
			out = jv_object_set(out, redact_str_jv(r, key), redact_jv(r, val));
		jv_free(v);
		return out;
	}
	default:
		return v;
	}
}
