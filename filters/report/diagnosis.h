/* diagnosis: a case's diagnosis (pc-evaluate's "diagnosis" attribute,
 * filters/evaluate/diagnosis.h) for people: EXPECTED → ACTUAL of an
 * assertion, the evidence that decides it, and the identities behind the
 * result.  Text and markdown-free plain lines; the HTML page escapes the
 * same lines.  An evaluation without a diagnosis (an older pc-evaluate's,
 * or the reference harness's) shows none.
 */
#ifndef PC_REPORT_DIAGNOSIS_H
#define PC_REPORT_DIAGNOSIS_H

#include <jv.h>

#include "cases.h"

/* The diagnosis of assertion name of c (a new reference), or null. */
jv diagnosis_of(const struct report_case *c, const char *name);

/* An assertion's EXPECTED and ACTUAL lines, then its evidence, each line
 * starting with indent (d borrowed); with whole, each probe's whole
 * prepared context too (pc-report -vv). */
void diagnosis_add_lines(struct sbuf *b, jv d, const char *indent, int whole);

/* "EXPECTED … → ACTUAL …" on one line (d borrowed). */
void diagnosis_add_summary(struct sbuf *b, jv d);

/* An assertion's ACTUAL values on one line, "coverage 0.5, supported 1"
 * (d borrowed; nothing when it has none). */
void diagnosis_add_actual(struct sbuf *b, jv d);

/* The identities behind c's result, one "name: value" line each. */
void diagnosis_add_identity(struct sbuf *b, const struct report_case *c, const char *indent);

#endif
