/* docs_paired: the document types of the paired OFF/ON comparison
 * (docs/DESIGN.md §11.1) as shapes: 1.4.1's PairedArmObservation and
 * PairedReport, and the arm a run record names (docs.h's doc_run); and
 * pc-e2e's own account of an arm beside its observation: its fault and
 * what it spent (docs/paired.md).
 */
#ifndef PC_DOCS_PAIRED_H
#define PC_DOCS_PAIRED_H

/* its schemas' names come with it, as with docs.h */
#include "docs_names.h"
#include "shape.h"

extern const struct shape doc_paired_arm;
extern const struct shape doc_paired_report;
extern const struct shape doc_paired_account;
/* Why an arm ended in error: its class, kind and the words behind it
 * (null when it did not). */
extern const struct shape paired_fault;
/* A run record's "arm": null, or which paired arm ran, the session and
 * step that score it and what the Server saw. */
extern const struct shape paired_arm_run;

#endif
