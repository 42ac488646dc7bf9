/* The spool file and its encoding of a value (spool.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "spool.h"

/* A spooled case is about the size of stdio's default buffer, which would
 * cost a system call a case on every pass. */
#define SPOOL_BUFFER (1 << 16)

/* Unlinked at once: the file is gone when closed, however pc-report ends. */
int spool_open(struct spool_file *s, struct pc_err *e)
{
	char *path = text_fmt("%s/pc-report-XXXXXX", io_tmpdir());
	int fd = mkstemp(path);

	s->f = NULL;
	s->buffer = NULL;
	if (fd < 0)
		pc_fail_errno(e, "cannot create a spool file in %s", io_tmpdir());
	else {
		unlink(path);
		if (!(s->f = fdopen(fd, "w+")))
			pc_fail_errno(e, "cannot open the spool file"), close(fd);
		else
			setvbuf(s->f, s->buffer = pc_xmalloc(SPOOL_BUFFER), _IOFBF, SPOOL_BUFFER);
	}
	free(path);
	return s->f ? 0 : -1;
}

void spool_close(struct spool_file *s)
{
	if (s->f)
		fclose(s->f);
	free(s->buffer);
	s->f = NULL;
	s->buffer = NULL;
}

/* A string's length is a jv's, an int; an array's or object's, the bytes
 * of its members, may pass 4 GiB (a number takes 9 bytes here, 2 in JSON). */
typedef uint32_t string_length;
typedef uint64_t members_length;

/* The length that follows the kind byte of a string, an array or an
 * object. */
static uint64_t length_at(const char *p)
{
	string_length s;
	members_length m;

	if (*p == JV_KIND_STRING) {
		memcpy(&s, p + 1, sizeof s);
		return s;
	}
	memcpy(&m, p + 1, sizeof m);
	return m;
}

/* Where the string, array or object at p has its bytes or members. */
static const char *body(const char *p)
{
	return p + 1 + (*p == JV_KIND_STRING ? sizeof(string_length) : sizeof(members_length));
}

/* A value's kind byte and what follows it (a length, a double or
 * nothing), in one piece; the offset just after it. */
static size_t add_head(struct sbuf *b, jv_kind kind, const void *what, size_t n)
{
	char head[1 + sizeof(double)] = { (char)kind };

	memcpy(head + 1, what, n);
	sbuf_addn(b, head, 1 + n);
	return b->len;
}

/* An array's or object's length is known once its members are written:
 * the members' bytes since at. */
static void set_length(struct sbuf *b, size_t at)
{
	members_length n = b->len - at;

	memcpy(b->s + at - sizeof n, &n, sizeof n);
}

/* A pass over the cases reads far more than the first writes, but the
 * first writes every value of every case: one kind test a value, one
 * length a string. */
void spool_add(struct sbuf *b, jv v)
{
	jv_kind kind = jv_get_kind(v);
	string_length n;
	members_length m = 0;
	double d;
	size_t at;

	switch (kind) {
	case JV_KIND_NUMBER:
		d = jv_number_value(v);
		add_head(b, kind, &d, sizeof d);
		break;
	case JV_KIND_STRING:
		n = (string_length)jv_string_length_bytes(jv_copy(v));
		add_head(b, kind, &n, sizeof n);
		/* with its NUL: the reader hands out the string where it lies */
		sbuf_addn(b, jv_string_value(v), (size_t)n + 1);
		break;
	case JV_KIND_ARRAY:
		at = add_head(b, kind, &m, sizeof m);
		jv_array_foreach(v, i, item)
			spool_add(b, item);
		set_length(b, at);
		break;
	case JV_KIND_OBJECT:
		at = add_head(b, kind, &m, sizeof m);
		jv_object_foreach(v, key, value) {
			spool_add(b, key);
			spool_add(b, value);
		}
		set_length(b, at);
		break;
	default: add_head(b, kind, &m, 0);
	}
	jv_free(v);
}

size_t spool_size(const char *p)
{
	switch (*p) {
	case JV_KIND_NUMBER: return 1 + sizeof(double);
	case JV_KIND_STRING: return (size_t)(body(p) - p) + length_at(p) + 1;
	case JV_KIND_ARRAY:
	case JV_KIND_OBJECT: return (size_t)(body(p) - p) + length_at(p);
	default: return 1;
	}
}

jv spool_jv(const char *p)
{
	double d;
	jv v;

	if (!p)
		return jv_invalid();
	switch (*p) {
	case JV_KIND_NULL: return jv_null();
	case JV_KIND_FALSE: return jv_false();
	case JV_KIND_TRUE: return jv_true();
	case JV_KIND_NUMBER: memcpy(&d, p + 1, sizeof d); return jv_number(d);
	case JV_KIND_STRING: return jv_string_sized(body(p), (int)length_at(p));
	case JV_KIND_ARRAY: v = jv_array(); break;
	default: v = jv_object();
	}
	for (struct spool_each e = spool_each(p); spool_next(&e);)
		v = e.key ? jv_object_set(v, spool_jv(e.key), spool_jv(e.value))
			  : jv_array_append(v, spool_jv(e.value));
	return v;
}

const char *spool_member(const char *p, const char *key, size_t n)
{
	if (spool_kind(p) != JV_KIND_OBJECT)
		return NULL;
	for (struct spool_each e = spool_each(p); spool_next(&e);)
		if (length_at(e.key) == n && !memcmp(body(e.key), key, n))
			return e.value;
	return NULL;
}

const char *spool_get(const char *p, const char *key)
{
	return spool_member(p, key, strlen(key));
}

const char *spool_str(const char *p)
{
	return p && *p == JV_KIND_STRING ? body(p) : NULL;
}

jv_kind spool_kind(const char *p)
{
	return p ? (jv_kind)*p : JV_KIND_INVALID;
}

struct spool_each spool_each(const char *p)
{
	struct spool_each e = { NULL, NULL, NULL, NULL, 0 };

	if (p && (*p == JV_KIND_ARRAY || *p == JV_KIND_OBJECT)) {
		e.next = body(p);
		e.end = p + spool_size(p);
		e.object = *p == JV_KIND_OBJECT;
	}
	return e;
}

int spool_next(struct spool_each *e)
{
	if (e->next == e->end)
		return 0;
	e->key = e->object ? e->next : NULL;
	e->value = e->object ? e->next + spool_size(e->next) : e->next;
	e->next = e->value + spool_size(e->value);
	return 1;
}
