/* memory: what a Memory workload's run captured, wrote to Memory and
 * recalled: the counts of docs/DESIGN.md §3 over its capture records,
 * Memory snapshots and probes.
 */
#ifndef PC_EVALUATE_MEMORY_H
#define PC_EVALUATE_MEMORY_H

#include "facts.h"
#include "text.h"
#include "view.h"

/* Fill *c, *m and *p from the replay of f, whose counts start at 0; p's
 * list of matched ids is owned by the facts (facts_free). */
void memory_count(const struct facts *f, struct capture_facts *c, struct memory_facts *m,
		  struct probe_facts *p);

/* The rules behind those counts, which the diagnosis (diagnosis.h) reads
 * the evidence by, so that it lists what the counts counted. */

/* Whether a capture record is an event capture must take: a user prompt,
 * an LLM result or a tool result. */
int memory_record_eligible(struct view rec);

/* The source ids the captured records hold (C strings borrowed from the
 * replay), which decide whether new Memory is grounded. */
struct source_ids {
	const char **ids; /* owned array */
	size_t n;
};
void source_ids_free(struct source_ids *s);

/* The counts of the replay's capture records into *c, and the source ids
 * they captured into *captured (owned). */
void memory_count_captures(struct view replay, struct capture_facts *c,
			   struct source_ids *captured);

/* Whether captured holds the source id. */
int memory_captured(const struct source_ids *captured, const char *id);

/* The entries of memory_after that memory_before does not hold: an owned
 * array of *n views. */
struct view *memory_created_entries(struct view replay, size_t *n);

/* The Sources an entry cites: an atomic entry's sources, a legacy one's
 * source_refs. */
struct view memory_entry_sources(struct view entry);

/* Grounded: the entry cites a Source, and every Source it cites is in
 * captured. */
int memory_entry_grounded(struct view entry, const struct source_ids *captured);

/* The observed probe with this id (the last one wins, like a dict), or a
 * null view when there is none. */
struct view memory_find_probe(struct view observed, struct view id);

/* Whether the text (a view of a string) holds the fragment, or every
 * fragment of the array fragments, compared as how folds them. */
int memory_holds(enum text_fold how, struct view text, struct view fragment);
int memory_holds_all(enum text_fold how, struct view text, struct view fragments);

#endif
