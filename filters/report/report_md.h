/* report_md: the report.md files --output writes, as PowerContext 1.4.1
 * renders them (docs/DESIGN.md §2.6).
 *
 * A workload's report.md is 1.4.1's render_report: what the replay says of
 * itself (its status and Harbor rewards, which pc-evaluate keeps in the
 * case's own attributes, docs.h) and the evaluation's lines.  A merged
 * batch's report.md is 1.4.1's render_evaluation_summary: every member's
 * lines in one block.  Both go through Marko's Markdown renderer in 1.4.1,
 * whose rewriting of code spans and of line breaks in a fenced block is
 * followed here; pc-e2e's own additions (the diagnosis, freshness) are in
 * pc-report's other formats, not in these files.  The markdown format on
 * stdout shares the summary lines and the evaluation block.
 */
#ifndef PC_REPORT_REPORT_MD_H
#define PC_REPORT_REPORT_MD_H

#include "cases.h"
#include "text.h"

/* The workload's five list lines: its id, execution adapter, Harbor
 * dataset, the replay's status and the task outcome. */
void report_md_add_summary(struct sbuf *b, const struct report_case *c);
/* A line per Harbor reward, names sorted, or the line that says there is
 * none. */
void report_md_add_rewards(struct sbuf *b, const struct report_case *c);
/* The evaluation's lines of c (its name, then each assertion, score and
 * label), each ending in a newline, appended to lines. */
void report_md_add_case_lines(struct sbuf *lines, const struct report_case *c);
/* lines as a ```text block, with Python's line breaks made newlines as
 * Marko writes them. */
void report_md_add_block(struct sbuf *b, const char *lines);

/* A workload's report.md, 1.4.1's render_report of c (malloc'd). */
char *report_md_workload(const struct report_case *c);
/* A merged batch's report.md, 1.4.1's render_evaluation_summary of its
 * members' lines (malloc'd). */
char *report_md_batch(const char *lines);

#endif
