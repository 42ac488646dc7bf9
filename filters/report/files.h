/* files: what --output writes beside the report: each case's report.md in
 * its workload's directory (DIR/<id>/, a merged batch's member's under
 * DIR/batch-<name>/tasks/), and each merged batch's report.md once its
 * last member is read, as report_md.h renders them.  Every case name is
 * checked as a directory name in the first pass (cases.h), so a bad one is
 * refused before anything is written.
 */
#ifndef PC_REPORT_FILES_H
#define PC_REPORT_FILES_H

#include "cases.h"
#include "err.h"

/* Every case's and merged batch's report.md under outdir; -1 with e filled
 * when a case name is no directory's, a file cannot be written or the
 * spool cannot be read back. */
int files_write_all(struct cases *cs, const char *outdir, struct pc_err *e);

#endif
