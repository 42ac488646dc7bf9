/* replays: the replays on a stream (pc-evaluate's stdin), each read once
 * into a view (view.h).
 *
 * yyjson parses each text where it lies in the reader's buffer, and accept
 * (accept.h) checks it against the replay's shape.  A text either cannot
 * judge (malformed, not a replay, invalid, or not sure cheaply) is read
 * again from the same place the way every other filter reads: libjq's
 * parser and shape_normalize, whose messages (file, line, column, field)
 * name what is wrong; a text they accept after all is evaluated from its
 * normalized form.  So the documents accepted and refused, and the
 * messages, are the other filters' own.
 */
#ifndef PC_EVALUATE_REPLAYS_H
#define PC_EVALUATE_REPLAYS_H

#include <stdio.h>
#include <yyjson.h>

#include "json.h"
#include "redact.h"
#include "view.h"

struct replays {
	struct json_reader reader;    /* its text: the current replay as written */
	const char *prog;             /* for messages */
	const struct redactor *red;   /* borrowed */
	struct typed_doc replay_type; /* the replay's shapes, compiled */
	struct view_index index;      /* the current replay's */
	yyjson_alc *memory;           /* owned: yyjson's, reused from document to document
				       * (NULL: malloc's) */
	yyjson_doc *doc;              /* owned: the current replay's */
	int as_written;               /* doc is yyjson's reading of the text itself, not of
				       * the normalized form libjq gave (then its integers
				       * are the text's) */
	int status;                   /* EXIT_OK, or EXIT_INVALID once a text was refused */
	int count;                    /* replays returned */
};

/* The replays of in, named name in messages ("stdin"). */
void replays_open(struct replays *r, FILE *in, const char *name, const char *prog,
		  const struct redactor *red);
/* 1 with *replay set (valid until the next call), 0 at the end of stdin;
 * a refused text is reported on stderr and skipped. */
int replays_next(struct replays *r, struct view *replay);
/* The current replay's text, as it was written. */
struct view_text replays_text(const struct replays *r);
void replays_close(struct replays *r);

#endif
