#include "replays.h"

#include <string.h>

#include "accept.h"
#include "docs.h"
#include "json_out.h"
#include "stage.h"

void replays_open(struct replays *r, FILE *in, const char *name, const char *prog,
		  const struct redactor *red)
{
	*r = (struct replays){ .prog = prog, .red = red };
	json_reader_init(&r->reader, in, name);
	typed_compile(&r->replay_type, &doc_replay);
	r->memory = yyjson_alc_dyn_new();
}

void replays_close(struct replays *r)
{
	yyjson_doc_free(r->doc);
	if (r->memory)
		yyjson_alc_dyn_free(r->memory);
	typed_free(&r->replay_type);
	view_index_free(&r->index);
	json_reader_free(&r->reader);
}

/* Whether r->doc is a replay of this schema that shape_normalize accepts
 * (then indexed). */
static int fast_accepts(struct replays *r)
{
	yyjson_val *root = yyjson_doc_get_root(r->doc);
	yyjson_val *schema = yyjson_obj_get(root, "schema");

	return yyjson_is_obj(root) && yyjson_equals_str(schema, SCHEMA_EVIDENCE) &&
	       accept_document(&r->replay_type, r->doc, &r->index);
}

/* The text yyjson read (r->doc, or NULL) taken when it is a replay that
 * shape_normalize accepts: 1; else 0, with nothing taken. */
static int finish_fast(struct replays *r)
{
	if (r->doc && fast_accepts(r)) {
		json_reader_take(&r->reader, yyjson_doc_get_read_size(r->doc));
		return 1;
	}
	yyjson_doc_free(r->doc);
	r->doc = NULL;
	return 0;
}

/* A peek that found no text: a read error (got < 0) is told here, once, as
 * the reader has ended the stream; 0 either way, for read_slow to find the end. */
static int read_failed(struct replays *r, int got, const struct pc_err *e)
{
	if (got < 0)
		r->status = stage_die(r->prog, r->red, EXIT_INVALID, e->msg);
	return 0;
}

/* yyjson's reading of the next text: 1 with r->doc set and the text
 * taken, else 0 with nothing taken: the end of stdin, a read error or a
 * text for libjq to read, which read_slow tells apart. */
static int read_fast(struct replays *r)
{
	struct pc_err e;
	const char *p;
	size_t n;
	long line;
	yyjson_read_err err;

	int got = json_reader_peek(&r->reader, &p, &n, &line, &e);
	if (got <= 0)
		return read_failed(r, got, &e);
	/* yyjson copies all it is given: a stream line first, which is the
	 * whole text of a compact stream */
	const char *eol = memchr(p, '\n', n);
	if (eol) {
		r->doc = yyjson_read_opts((char *)p, (size_t)(eol - p), YYJSON_READ_STOP_WHEN_DONE,
					  r->memory, &err);
		if (r->doc || err.code != YYJSON_READ_ERROR_UNEXPECTED_END)
			return finish_fast(r);
	}
	for (;;) {
		r->doc = yyjson_read_opts((char *)p, n, YYJSON_READ_STOP_WHEN_DONE, r->memory,
					  &err);
		if (r->doc || err.code != YYJSON_READ_ERROR_UNEXPECTED_END)
			break;
		/* a text longer than what is buffered: read on, then again */
		if ((got = json_reader_more(&r->reader, &e)) <= 0 ||
		    (got = json_reader_peek(&r->reader, &p, &n, &line, &e)) <= 0)
			return read_failed(r, got, &e);
	}
	return finish_fast(r);
}

/* libjq's and shape_normalize's reading of the next text: 1 with r->doc
 * set from its normalized form, 0 after a refused text (reported), -1 at
 * the end of stdin. */
static int read_slow(struct replays *r)
{
	struct pc_err e;
	long line;
	jv doc, normalized;
	int got = json_reader_next(&r->reader, &doc, &line, &e);

	if (got == 0)
		return -1;
	if (got < 0 || stage_check_document(&r->reader, line, SCHEMA_EVIDENCE, &doc_replay, doc,
					    &normalized, &e) != 0) {
		r->status = stage_die(r->prog, r->red, EXIT_INVALID, e.msg);
		return r->reader.eof ? -1 : 0;
	}
	struct json_out text = { 0 };
	json_out_value(&text, normalized, JSON_COMPACT);
	jv_free(normalized);
	r->doc = yyjson_read_opts(text.text, text.len, 0, r->memory, NULL);
	json_out_free(&text);
	/* indexed as the fast reading is; one too deep for accept is read
	 * by searching each field by name */
	if (!accept_document(&r->replay_type, r->doc, &r->index))
		view_index_reset(&r->index, NULL);
	return 1;
}

struct view_text replays_text(const struct replays *r)
{
	return (struct view_text){ r->reader.text, r->reader.text_len, r->as_written };
}

int replays_next(struct replays *r, struct view *replay)
{
	int got;

	yyjson_doc_free(r->doc);
	r->doc = NULL;
	do {
		r->as_written = read_fast(r);
		got = r->as_written ? 1 : read_slow(r);
	} while (got == 0);
	if (got < 0)
		return 0;
	r->count++;
	*replay = view_root(r->doc, r->replay_type.root, &r->index);
	return 1;
}
