/* docs: the document types of docs/DESIGN.md §2 as shapes (the paired
 * OFF/ON comparison's, §11.1, are docs_paired.h's).
 *
 * Each filter validates what it reads against one of these before using it,
 * and writes its own documents in the same canonical field order.
 */
#ifndef PC_DOCS_H
#define PC_DOCS_H

/* A document's shape and its schema's name go together (a filter checks
 * what it reads against both), so its names come with it. */
#include "docs_names.h"
#include "shape.h"

extern const struct shape doc_manifest; /* manifest, defaults filled */
extern const struct shape doc_selection;
extern const struct shape doc_run;
extern const struct shape doc_replay;
extern const struct shape *const doc_capture; /* one capture record */
extern const struct shape doc_evaluation;

/* The kind of a normalized manifest's evaluation (borrowed): Memory,
 * outcome, or one of the OFF/ON paired kinds (continuation, task-outcome
 * comparison), which only a paired run can execute or judge. */
enum evaluation_kind {
	EVALUATION_MEMORY,
	EVALUATION_OUTCOME,
	EVALUATION_PAIRED
};
enum evaluation_kind docs_evaluation_kind(jv evaluation);

#endif
