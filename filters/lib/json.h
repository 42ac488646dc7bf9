/* json: reading and writing JSON texts as libjq jv values.
 *
 * The reader accepts any whitespace-separated stream of JSON texts (compact
 * lines or pretty-printed files concatenated), keeps only one text in memory
 * at a time, and reports the line on which each text starts, so errors can
 * name "stdin:12".  The writers emit compact lines (pipes) or indented files.
 */
#ifndef PC_JSON_H
#define PC_JSON_H

#include <jv.h>
#include <stdio.h>

#include "err.h"

struct json_reader {
	FILE *in;
	const char *name; /* for messages: a path or "stdin" */
	char *buf;
	size_t len, cap, pos;
	long line; /* line of buf[pos] */
	int eof;
	const char *text; /* the last text returned, until the next call */
	size_t text_len;
};

void json_reader_init(struct json_reader *r, FILE *in, const char *name);
void json_reader_free(struct json_reader *r);

/* Next JSON text: 1 and *out set, 0 at end of stream, -1 on a malformed text
 * ("name:line: ..."); *start_line is the line the text begins on. */
int json_reader_next(struct json_reader *r, jv *out, long *start_line,
		     struct pc_err *e);

/* For a filter that parses the texts itself (pc-evaluate, with yyjson):
 * json_reader_peek gives the buffered bytes from the next text on,
 * whitespace skipped (1, 0 at the end of the stream, -1 on a read error),
 * json_reader_more reads more into the buffer, which may move (peek again;
 * 0 at the end), and json_reader_take says that the first n bytes peeked
 * were one text, which becomes the reader's text.  json_reader_next reads
 * from the same place when the filter cannot parse the text itself. */
int json_reader_peek(struct json_reader *r, const char **p, size_t *n, long *start_line,
		     struct pc_err *e);
int json_reader_more(struct json_reader *r, struct pc_err *e);
void json_reader_take(struct json_reader *r, size_t n);

/* Whitespace between JSON tokens (RFC 8259): space, tab, LF, CR. */
int json_is_space(char c);

/* Parse one whole file holding exactly one JSON text. */
int json_read_file(const char *path, jv *out, struct pc_err *e);

/* Write v (consumed) as one compact line; -1 on a write error. */
int json_write_line(FILE *out, jv v, struct pc_err *e);

/* Serialize v (consumed) indented by two spaces, with a final newline. */
char *json_pretty(jv v);

/* Object/array helpers that never consume their arguments. */
const char *json_str(jv obj, const char *key); /* NULL unless a string */
int json_has_true(jv obj, const char *key);
jv json_get(jv obj, const char *key); /* borrowed copy, caller frees */
/* A JSON string of s, or null when s is NULL. */
jv json_string_or_null(const char *s);

/* The value at a dotted path ("task.dataset.id") of obj (borrowed); null
 * where the path does not lead, never invalid. */
jv json_at(jv obj, const char *dotted);

/* The number at a dotted path of obj (borrowed), or fallback when it is
 * not a number. */
double json_number_at(jv obj, const char *dotted, double fallback);

#endif
