/* paired: pc-report --paired, the OFF/ON comparison's report for people
 * (docs/DESIGN.md §11).
 *
 * Markdown is PowerContext 1.4.1's report.md, byte for byte (its numbers
 * formatted as Python formats them); text adds pc-e2e's own reading of the
 * pairs, per workload and in total (paired_verdict.h).
 */
#ifndef PC_REPORT_PAIRED_H
#define PC_REPORT_PAIRED_H

#include <jv.h>

#include "text.h"

/* report: a normalized powercontext.e2e-paired-report/v4 (borrowed). */
void paired_add_markdown(struct sbuf *b, jv report);
/* text: report.md, pc-e2e's account of the run (run_account.h, borrowed,
 * null for none), then what the pairs show. */
void paired_add_text(struct sbuf *b, jv report, jv account);

/* Pieces of report.md the other formats say in the same words: a
 * summary's (borrowed) "Scored pairs: …" line and the agent's (borrowed)
 * "Host `…` …." line, neither with a newline. */
void paired_add_pairs(struct sbuf *b, jv summary);
void paired_add_agent(struct sbuf *b, jv agent);

#endif
