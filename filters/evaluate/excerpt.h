/* excerpt: a text of a replay in a diagnosis (diagnosis.h), bounded
 * whatever the replay holds: at most EXCERPT_MAX bytes of it (a probe's
 * whole prepared context, EXCERPT_CONTEXT_MAX), cut on character boundaries
 * with "…" where it was cut, and redacted before it is cut, so no part of a
 * secret reaches it.
 */
#ifndef PC_EVALUATE_EXCERPT_H
#define PC_EVALUATE_EXCERPT_H

#include <stddef.h>

#include "json_out.h"
#include "redact.h"
#include "view.h"

#define EXCERPT_MAX 240

/* PowerContext 1.4.1 prepares a context of at most 32768 bytes (the
 * ceiling of a prepare request's max_bytes), so a context a Server prepared
 * is kept whole; a larger one can only come from an edited replay. */
#define EXCERPT_CONTEXT_MAX 32768

/* The text (a string, read to its first NUL), from its start; null for
 * anything else. */
void excerpt_clipped(struct json_out *o, const struct redactor *red, struct view text);

/* The text around the first of the count fragments found in it (ASCII case
 * folded), a third of the window before it, else from its start; null for
 * no text. */
void excerpt_around(struct json_out *o, const struct redactor *red, struct view text,
		    const struct view *fragments, size_t count);

/* A probe's prepared context as three members of the object being written:
 * "excerpt", as excerpt_around's but, when no fragment is found, the
 * contents of the items it recalled, a line each, rather than its preamble;
 * "excerpt_of", which of the three it shows ("fragment", "items" or
 * "start"); "context", the whole of it, up to EXCERPT_CONTEXT_MAX bytes.
 * All three null when the context is no text. */
void excerpt_context(struct json_out *o, const struct redactor *red, struct view context,
		     const struct view *fragments, size_t count, int *members);

/* Where needle first is in the n bytes at hay, ASCII case folded; n when
 * it is not there. */
size_t excerpt_find(const char *hay, size_t n, const char *needle);

#endif
