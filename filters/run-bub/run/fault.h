/* fault: why a run that ended in error did (docs/DESIGN.md §2.3, the
 * record's `fault`), classified once, when pc-run-bub ends the run.
 *
 * The evidence, read in this order: the run's own errors (the harness's),
 * the trial's and the steps' exceptions in the trial's result.json (as the
 * runner wrote or Harbor wrote them), then the error lines of the failing
 * step's agent log.  The rule table (fault.c) is the one place that says
 * which words, or which HTTP status, make which class and kind, the first
 * rule that matches any evidence winning.
 */
#ifndef PC_RUN_BUB_FAULT_H
#define PC_RUN_BUB_FAULT_H

#include <jv.h>

#include "run/run.h"

/* The fault of r's finished run, {class, kind, transient, step, status,
 * retry_after, words}, words capped and redacted; null when the run did not
 * end in error by 1.4.1's order (no error of the harness's and no
 * exception, or an agent timeout, which is scored). */
jv fault_of(const struct workload_run *r);

/* The fault of a unit that never finished (pc-run-bub --unrun WHY). */
jv fault_unrun(const struct workload_run *r, const char *why);

/* A fault (borrowed) in one line of at most FAULT_LINE_CAP bytes for the
 * console: "provider rate-limit 429 at step capture: <words>" (malloc'd). */
#define FAULT_LINE_CAP 240
char *fault_line(jv fault);

#endif
