/* paired: pc-report --paired, the OFF/ON comparison's report for people
 * (docs/DESIGN.md §11).
 *
 * Markdown is PowerContext 1.4.1's report.md, byte for byte (its numbers
 * formatted as Python formats them); text adds pc-e2e's own reading of the
 * discordant pairs: the exact two-sided sign test (McNemar) and its verdict.
 */
#ifndef PC_REPORT_PAIRED_H
#define PC_REPORT_PAIRED_H

#include <jv.h>

#include "text.h"

/* report: a normalized powercontext.e2e-paired-report/v4 (borrowed). */
void paired_add_markdown(struct sbuf *b, jv report);
void paired_add_text(struct sbuf *b, jv report);

#endif
