/* memory: what a Memory workload's run captured, wrote to Memory and
 * recalled: the counts of docs/DESIGN.md §3 over its capture records,
 * Memory snapshots and probes.
 */
#ifndef PC_EVALUATE_MEMORY_H
#define PC_EVALUATE_MEMORY_H

#include <jv.h>

#include "facts.h"

/* Fill *c, *m and *p from replay (borrowed), whose counts start at 0; the
 * jv fields filled are owned by the caller and freed by facts_free. */
void memory_count(jv replay, struct capture_facts *c, struct memory_facts *m,
		  struct probe_facts *p);

/* The rules behind those counts, which the diagnosis (diagnosis.h) reads
 * the evidence by, so that it lists what the counts counted. */

/* Whether a capture record (borrowed) is an event capture must take: a
 * user prompt, an LLM result or a tool result. */
int memory_record_eligible(jv rec);

/* The counts of the replay's capture records into *c, and the set of the
 * source ids they captured, which decide whether new Memory is grounded,
 * into *captured_ids (owned). */
void memory_count_captures(jv replay, struct capture_facts *c, jv *captured_ids);

/* The entries of memory_after that memory_before does not hold (owned). */
jv memory_created_entries(jv replay);

/* The Sources an entry (borrowed) cites, owned: an atomic entry's sources,
 * a legacy one's source_refs. */
jv memory_entry_sources(jv entry);

/* Grounded: the entry (borrowed) cites a Source, and every Source it cites
 * is in captured_ids (borrowed). */
int memory_entry_grounded(jv entry, jv captured_ids);

/* The observed probe with this id (both borrowed; owned, invalid when
 * none); the last one wins, like a dict. */
jv memory_find_probe(jv observed, jv id);

#endif
