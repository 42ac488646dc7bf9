#include "redact.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "io.h"
#include "text.h"

static int has_affixes(const char *name, size_t len, const char *prefix, const char *suffix)
{
	size_t pl = strlen(prefix), sl = strlen(suffix);

	return len > pl + sl && !memcmp(name, prefix, pl) && !memcmp(name + len - sl, suffix, sl);
}

/* Whether name (len bytes) ends with suffix, ASCII case ignored. */
static int ends_with_nocase(const char *name, size_t len, const char *suffix)
{
	size_t sl = strlen(suffix);

	return len > sl && !strncasecmp(name + len - sl, suffix, sl);
}

static int contains_nocase(const char *name, size_t len, const char *part)
{
	size_t pl = strlen(part);

	for (size_t i = 0; i + pl <= len; i++)
		if (!strncasecmp(name + i, part, pl))
			return 1;
	return 0;
}

/* PowerContext 1.4.1's harness: a credential's name, unless it names a
 * file, a path or a URL. */
static int credential_name(const char *name, size_t len)
{
	static const char *const suffixes[] = { "_API_KEY", "_AUTHORIZATION", "_TOKEN",
						"_SECRET_ACCESS_KEY" };
	static const char *const exempt[] = { "_FILE", "_PATH", "_URL" };
	int credential = contains_nocase(name, len, "_TOKEN_");

	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
		credential = credential || ends_with_nocase(name, len, suffixes[i]);
	for (size_t i = 0; i < sizeof exempt / sizeof *exempt; i++)
		credential = credential && !ends_with_nocase(name, len, exempt[i]);
	return credential;
}

/* The values 1.4.1 never treats as a secret: what a local model server or
 * a test setup puts where a key would go. */
static int placeholder(const char *value)
{
	static const char *const values[] = { "1", "true", "none", "null",
					      "empty", "dummy", "ollama", "lm-studio" };

	for (size_t i = 0; i < sizeof values / sizeof *values; i++)
		if (!strcasecmp(value, values[i]))
			return 1;
	return 0;
}

/* The shortest value of variable name that is a secret, 0 when the name
 * holds none.  pc-e2e's own settings are secrets at any length.  So are
 * 1.4.1's credential names (a provider's OPENAI_API_KEY, GITHUB_TOKEN,
 * AWS_SECRET_ACCESS_KEY, a sandbox's DAYTONA_API_KEY, …) and the inference
 * headers that carry one, with a floor 1.4.1 does not have: a value under
 * 8 bytes is no credential anyone issues, and replacing it would blank
 * ordinary text ("k" in every word) without protecting anything. */
static size_t secret_min_len(const char *name, size_t len)
{
	static const char *const exact[] = {
		"BUB_API_KEY",
		"POWERCONTEXT_CLIENT_API_TOKEN",
		"POWERCONTEXT_E2E_AGENT_PROXY_URL",
		"PC_E2E_LEDGER_PASSWORD",
	};

	for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
		if (strlen(exact[i]) == len && !memcmp(exact[i], name, len))
			return 1;
	if (has_affixes(name, len, "BUB_", "_API_KEY"))
		return 1;
	if (credential_name(name, len) ||
	    has_affixes(name, len, "POWERCONTEXT_SERVER_INFERENCE_", "_HEADERS"))
		return 8;
	return 0;
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

/* The characters of the base64 encoding of s (alphabet: the 64 symbols)
 * that depend on s alone, when s follows `offset` other bytes (0, 1 or 2):
 * every alignment in a longer encoded text, with or without padding. */
static char *base64_core(const char *s, int offset, const char *alphabet)
{
	size_t n = strlen(s), bits = 8 * ((size_t)offset + n);
	size_t first = (8 * (size_t)offset + 5) / 6, end = bits / 6;
	struct sbuf b = { 0 };

	for (size_t j = first; j < end; j++) {
		unsigned v = 0;
		for (size_t bit = 6 * j; bit < 6 * j + 6; bit++) {
			size_t byte = bit / 8;
			unsigned c =
				byte < (size_t)offset ? 0 : (unsigned char)s[byte - (size_t)offset];
			v = v << 1 | ((c >> (7 - bit % 8)) & 1);
		}
		sbuf_addn(&b, &alphabet[v], 1);
	}
	return sbuf_take(&b);
}

/* s percent-encoded, every byte but RFC 3986's unreserved ones, in upper
 * or lower case hex. */
static char *url_encoded(const char *s, int lower)
{
	struct sbuf b = { 0 };

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p))
			sbuf_addn(&b, (const char *)p, 1);
		else
			sbuf_addf(&b, lower ? "%%%02x" : "%%%02X", *p);
	return sbuf_take(&b);
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

/* What an agent or a verifier might have made of a secret: its base64
 * (standard and URL-safe, at every alignment) and percent-encoded forms.
 * Fragments shorter than this could be anyone's text, so they are left. */
#define MIN_ENCODED_NEEDLE 8

static void add_encoded_needles(struct redactor *r, const char *secret)
{
	static const char *const alphabets[] = {
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
	};
	char *forms[8];
	int n = 0;

	for (int a = 0; a < 2; a++)
		for (int offset = 0; offset < 3; offset++)
			forms[n++] = base64_core(secret, offset, alphabets[a]);
	forms[n++] = url_encoded(secret, 0);
	forms[n++] = url_encoded(secret, 1);
	for (int i = 0; i < n; i++)
		if (strlen(forms[i]) >= MIN_ENCODED_NEEDLE)
			add_needle(r, forms[i]);
		else
			free(forms[i]);
}

/* The value of the environment entry NAME=VALUE when it is a secret, else
 * NULL. */
static const char *secret_value(const char *entry)
{
	const char *eq = strchr(entry, '=');
	size_t min = eq ? secret_min_len(entry, (size_t)(eq - entry)) : 0;

	if (!min || strlen(eq + 1) < min || (min > 1 && placeholder(eq + 1)))
		return NULL;
	return eq + 1;
}

void redactor_init(struct redactor *r, char *const *env)
{
	r->needles = NULL;
	r->n = 0;
	for (; env && *env; env++) {
		const char *value = secret_value(*env);
		if (!value)
			continue;
		add_needle(r, pc_xstrdup(value));
		add_needle(r, json_escaped(value));
		add_encoded_needles(r, value);
	}
	if (r->n > 1)
		qsort(r->needles, (size_t)r->n, sizeof *r->needles, longest_first);
}

jv redact_secret_names(char *const *env)
{
	jv names = jv_array();

	for (; env && *env; env++)
		if (secret_value(*env))
			names = jv_array_append(
				names, jv_string_sized(*env, (int)(strchr(*env, '=') - *env)));
	return names;
}

void redactor_free(struct redactor *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->needles[i]);
	free(r->needles);
	r->needles = NULL;
	r->n = 0;
}

static const char *find(const char *s, size_t n, const char *needle, size_t nl)
{
	for (size_t i = 0; i + nl <= n; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, nl))
			return s + i;
	return NULL;
}

int redact_text_may_change(const struct redactor *r, const char *text, size_t n)
{
	static const char nul[] = "\\u0000";

	if (r->n == 0)
		return 0;
	if (find(text, n, nul, sizeof nul - 1))
		return 1;
	for (int i = 0; i < r->n; i++)
		if (find(text, n, r->needles[i], strlen(r->needles[i])))
			return 1;
	return 0;
}

/* Every secret replaced in the bytes (s, *n); NULL when none occurs. */
static char *redact_bytes(const struct redactor *r, const char *s, size_t *n)
{
	char *cur = NULL;

	for (int i = 0; i < r->n; i++) {
		const char *text = cur ? cur : s, *hit, *p = text;
		size_t nl = strlen(r->needles[i]), left = *n;
		struct sbuf b = { 0 };
		if (!find(text, *n, r->needles[i], nl))
			continue;
		while ((hit = find(p, left, r->needles[i], nl))) {
			sbuf_addn(&b, p, (size_t)(hit - p));
			sbuf_add(&b, REDACTED);
			left -= (size_t)(hit - p) + nl;
			p = hit + nl;
		}
		sbuf_addn(&b, p, left);
		*n = b.len;
		free(cur);
		cur = sbuf_take(&b);
	}
	return cur;
}

char *redact_string(const struct redactor *r, const char *s)
{
	size_t n = strlen(s);
	char *out = redact_bytes(r, s, &n);

	return out ? out : pc_xstrdup(s);
}

int redact_file(const struct redactor *r, const char *path, struct pc_err *e)
{
	char *text;
	size_t n;

	if (r->n == 0)
		return 0;
	if (io_read_text(path, &text, &n, e) != 0)
		return -1;
	char *clean = redact_bytes(r, text, &n);
	int rc = 0;
	if (clean) {
		char *dir = pc_xstrdup(path), *slash = strrchr(dir, '/');
		*slash = '\0';
		rc = io_write_artifact(dir, slash + 1, clean, n, e);
		free(dir);
	}
	free(clean);
	free(text);
	return rc;
}

static jv redact_str_jv(const struct redactor *r, jv s)
{
	char *t = redact_string(r, jv_string_value(s));
	jv out = jv_string(t);

	free(t);
	jv_free(s);
	return out;
}

/* Whether a string or key of v (borrowed) would change.  Most documents
 * hold no secret and are then written as they are, not copied.  The copy
 * works on C strings, so a string holding a NUL byte changes too (it is
 * cut there). */
static int would_change(const struct redactor *r, jv v)
{
	int found = 0;

	switch (jv_get_kind(v)) {
	case JV_KIND_STRING: {
		const char *s = jv_string_value(v);
		size_t n = strlen(s);
		found = n != (size_t)jv_string_length_bytes(jv_copy(v));
		for (int i = 0; i < r->n && !found; i++)
			found = find(s, n, r->needles[i], strlen(r->needles[i])) != NULL;
		return found;
	}
	case JV_KIND_ARRAY:
		jv_array_foreach(v, i, item) {
			found = found || would_change(r, item);
			jv_free(item);
		}
		return found;
	case JV_KIND_OBJECT:
		jv_object_foreach(v, key, val) {
			found = found || would_change(r, key) || would_change(r, val);
			jv_free(key);
			jv_free(val);
		}
		return found;
	default:
		return 0;
	}
}

jv redact_jv(const struct redactor *r, jv v)
{
	if (r->n == 0 || !would_change(r, v))
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
