#include "json.h"
#include "json_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_CHUNK 65536

void json_reader_init(struct json_reader *r, FILE *in, const char *name)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->name = name;
	r->line = 1;
}

void json_reader_free(struct json_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

/* Up to n bytes, what one read(2) gives: a pipe's documents are read as
 * they arrive, where fread would wait for a full buffer (a filter
 * downstream of pc-run-bub would see nothing until the run ended).  A
 * stream without a descriptor (fmemopen) is read with fread.  -1 on error. */
static ssize_t read_some(FILE *in, char *buf, size_t n)
{
	int fd = fileno(in);

	if (fd < 0) {
		size_t got = fread(buf, 1, n, in);
		return got == 0 && ferror(in) ? -1 : (ssize_t)got;
	}
	for (;;) {
		ssize_t got = read(fd, buf, n);
		if (got >= 0 || errno != EINTR)
			return got;
	}
}

/* Drop consumed bytes and read more; returns 0 at end of input. */
static int fill(struct json_reader *r, struct pc_err *e)
{
	ssize_t got;

	if (r->eof)
		return 0;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->cap - r->len < READ_CHUNK) {
		r->cap = r->cap * 2 + READ_CHUNK;
		r->buf = pc_xrealloc(r->buf, r->cap);
	}
	got = read_some(r->in, r->buf + r->len, r->cap - r->len);
	/* a read error is told once and ends the stream: the next read of a
	 * directory or a broken device fails the same way, for ever */
	if (got < 0) {
		r->eof = 1;
		return pc_fail_errno(e, "%s: read error", r->name);
	}
	if (got == 0) {
		r->eof = 1;
		return 0;
	}
	r->len += (size_t)got;
	return 1;
}

int json_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Scanner state carried across refills while one text is being delimited. */
struct scan {
	size_t at; /* offset from r->pos */
	int depth;
	int in_string, escaped, started;
	char first;
};

/* Advance the scan over buffered bytes; 1 when the text is complete.  The
 * state lives in locals for the loop, and the bytes of a string up to its
 * next quote or backslash are passed over at once. */
static int scan_step(struct json_reader *r, struct scan *s)
{
	const char *p = r->buf + r->pos;
	size_t n = r->len - r->pos, at = s->at;
	int depth = s->depth, in_string = s->in_string, escaped = s->escaped, done = 0;

	if (!s->started && at < n) {
		s->started = 1;
		s->first = p[at++];
		if (s->first == '{' || s->first == '[')
			depth = 1;
		else if (s->first == '"')
			in_string = 1;
	}
	int bare = s->first != '{' && s->first != '[' && s->first != '"';
	while (!done && at < n) {
		char c = p[at];

		if (in_string) {
			if (escaped) {
				escaped = 0;
			} else {
				while (c != '"' && c != '\\' && ++at < n)
					c = p[at];
				if (at == n)
					break;
				if (c == '\\') {
					escaped = 1;
				} else {
					in_string = 0;
					done = depth == 0;
				}
			}
		} else if (bare) {
			/* a bare scalar ends at whitespace or a structural char */
			if (json_is_space(c) || strchr("{}[]\",", c))
				break;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && --depth == 0) {
			done = 1;
		}
		at++;
	}
	s->at = at;
	s->depth = depth;
	s->in_string = in_string;
	s->escaped = escaped;
	return done || (bare && s->started && at < n);
}

/* Newlines are rare in a compact stream: memchr finds them. */
static long count_lines(const char *p, size_t n)
{
	long lines = 0;
	const char *end = p + n;

	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		lines++;
		p++;
	}
	return lines;
}

static int skip_ws(struct json_reader *r, struct pc_err *e)
{
	for (;;) {
		while (r->pos < r->len && json_is_space(r->buf[r->pos])) {
			r->line += r->buf[r->pos] == '\n';
			r->pos++;
		}
		if (r->pos < r->len)
			return 1;
		int more = fill(r, e);
		if (more <= 0)
			return more;
	}
}

/* jq says "<what> at line L, column C (while parsing '<the whole text>')",
 * with L counted from the text's start: name the stream line instead and
 * leave the text out (it can be large, and it is the user's data). */
static int parse_error(const struct json_reader *r, long start, const char *msg,
		       struct pc_err *e)
{
	const char *at = strstr(msg, " at line ");
	long line, column;

	if (at && sscanf(at, " at line %ld, column %ld", &line, &column) == 2)
		return pc_fail(
			e, "%s:%ld:%ld: malformed JSON (in the text starting on line %ld): %.*s",
			r->name, start + line - 1, column, start, (int)(at - msg), msg);
	const char *cut = strstr(msg, " (while parsing");
	return pc_fail(e, "%s:%ld: malformed JSON: %.*s", r->name, start,
		       cut ? (int)(cut - msg) : (int)strlen(msg), msg);
}

int json_reader_next(struct json_reader *r, jv *out, long *start_line,
		     struct pc_err *e)
{
	struct scan s = { 0 };
	int more;

	more = skip_ws(r, e);
	if (more <= 0)
		return more;
	*start_line = r->line;
	while (!scan_step(r, &s)) {
		more = fill(r, e);
		if (more < 0)
			return -1;
		if (more == 0)
			break; /* parse what is there: jq names the truncation */
	}
	jv v = jv_parse_sized(r->buf + r->pos, (int)s.at);
	r->text = r->buf + r->pos;
	r->text_len = s.at;
	r->line += count_lines(r->buf + r->pos, s.at);
	r->pos += s.at;
	if (!jv_is_valid(v)) {
		jv msg = jv_invalid_get_msg(v);
		const char *why =
			jv_get_kind(msg) == JV_KIND_STRING ? jv_string_value(msg) : "unknown error";

		parse_error(r, *start_line, why, e);
		jv_free(msg);
		r->eof = 1; /* cannot resynchronise after a broken text */
		r->pos = r->len;
		return -1;
	}
	*out = v;
	return 1;
}

int json_reader_peek(struct json_reader *r, const char **p, size_t *n, long *start_line,
		     struct pc_err *e)
{
	int more = skip_ws(r, e);

	if (more <= 0)
		return more;
	*start_line = r->line;
	*p = r->buf + r->pos;
	*n = r->len - r->pos;
	return 1;
}

int json_reader_more(struct json_reader *r, struct pc_err *e)
{
	return fill(r, e);
}

void json_reader_take(struct json_reader *r, size_t n)
{
	r->text = r->buf + r->pos;
	r->text_len = n;
	r->line += count_lines(r->buf + r->pos, n);
	r->pos += n;
}

int json_read_file(const char *path, jv *out, struct pc_err *e)
{
	FILE *f = fopen(path, "rb");
	struct json_reader r;
	long line;
	jv extra;
	int rc;

	if (!f)
		return pc_fail_errno(e, "%s: cannot open", path);
	json_reader_init(&r, f, path);
	rc = json_reader_next(&r, out, &line, e);
	if (rc == 0)
		rc = pc_fail(e, "%s: no JSON text", path);
	else if (rc == 1) {
		int more = json_reader_next(&r, &extra, &line, e);
		if (more == 1) {
			jv_free(extra);
			jv_free(*out);
			*out = jv_invalid();
			rc = pc_fail(e, "%s:%ld: more than one JSON text", path, line);
		} else if (more < 0) {
			jv_free(*out);
			*out = jv_invalid();
			rc = -1;
		}
	}
	json_reader_free(&r);
	fclose(f);
	return rc < 0 ? -1 : 0;
}

int json_write_line(FILE *out, jv v, struct pc_err *e)
{
	struct json_out text = { 0 };

	json_out_value(&text, v, JSON_COMPACT);
	json_out_bytes(&text, "\n", 1);
	jv_free(v);
	int short_write = fwrite(text.text, 1, text.len, out) != text.len;
	json_out_free(&text);
	if (short_write || fflush(out) != 0 || ferror(out))
		return pc_fail_errno(e, "write error");
	return 0;
}

char *json_pretty(jv v)
{
	struct json_out text = { 0 };

	json_out_value(&text, v, JSON_INDENTED);
	json_out_bytes(&text, "\n", 2); /* the newline and the string's end */
	jv_free(v);
	return text.text;
}

jv json_get(jv obj, const char *key)
{
	if (jv_get_kind(obj) != JV_KIND_OBJECT)
		return jv_invalid();
	return jv_object_get(jv_copy(obj), jv_string(key));
}

jv json_string_or_null(const char *s)
{
	return s ? jv_string(s) : jv_null();
}

const char *json_str(jv obj, const char *key)
{
	jv v = json_get(obj, key);
	const char *s = NULL;

	/* the string stays alive inside obj, which the caller holds */
	if (jv_get_kind(v) == JV_KIND_STRING)
		s = jv_string_value(v);
	jv_free(v);
	return s;
}

int json_has_true(jv obj, const char *key)
{
	jv v = json_get(obj, key);
	int t = jv_get_kind(v) == JV_KIND_TRUE;

	jv_free(v);
	return t;
}

/* A lookup per part: jv_getpath wants the path as an array of strings
 * and copies it at every step. */
jv json_at(jv obj, const char *dotted)
{
	jv v = jv_copy(obj);

	for (const char *k = dotted; *k;) {
		size_t n = strcspn(k, ".");
		if (n > 0) {
			if (jv_get_kind(v) != JV_KIND_OBJECT) {
				jv_free(v);
				return jv_null();
			}
			v = jv_object_get(v, jv_string_sized(k, (int)n));
		}
		k += n + (k[n] == '.');
	}
	if (!jv_is_valid(v)) {
		jv_free(v);
		return jv_null();
	}
	return v;
}

double json_number_at(jv obj, const char *dotted, double fallback)
{
	jv v = json_at(obj, dotted);
	double x = jv_get_kind(v) == JV_KIND_NUMBER ? jv_number_value(v) : fallback;

	jv_free(v);
	return x;
}
