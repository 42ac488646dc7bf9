/* format_markdown: pc-report --format markdown, whose per-workload section
 * is also the report.md --output writes for each workload. */
#ifndef PC_REPORT_FORMAT_MARKDOWN_H
#define PC_REPORT_FORMAT_MARKDOWN_H

#include "report.h"
#include "text.h"

/* c as a markdown document of its own: the layout of the reference
 * harness's report.md. */
void markdown_add_workload_file(struct sbuf *b, const struct report_case *c);
/* A member of a merged batch in the batch's report.md (b empty: the first,
 * after the batch's heading). */
void markdown_add_batch_member(struct sbuf *b, const struct report_case *c, const char *batch);

#endif
