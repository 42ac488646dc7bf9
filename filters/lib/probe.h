/* probe: what a probe's spec forbids in a prepared context.
 *
 * The runner blanks a context that holds a forbidden fragment (the wrong
 * answer is the finding; its text would only spread it), and the evaluator
 * scores forbidden_context_absent on replays that did not record the match:
 * both decide "forbidden" with this one rule, as 1.4.1's evaluator does.
 */
#ifndef PC_PROBE_H
#define PC_PROBE_H

#include <jv.h>
#include <stddef.h>

/* Whether content (borrowed; a JSON string, else never forbidden) holds one
 * of the fragments of spec's forbidden_context (borrowed), both NFC-folded. */
int probe_context_forbidden(jv spec, jv content);

/* The rule's test of one fragment: whether the content's n bytes hold the
 * fragment's fn bytes, both NFC-folded (pc-evaluate, which reads replays
 * without jv, applies it to each fragment itself). */
int probe_fragment_in(const char *content, size_t n, const char *fragment, size_t fn);

#endif
