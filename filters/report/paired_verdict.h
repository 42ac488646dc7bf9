/* paired_verdict: pc-e2e's reading of an OFF/ON comparison's pairs, in
 * words (docs/DESIGN.md §11.3).  The exact two-sided sign test (McNemar's
 * exact test) over the discordant pairs, and what it lets a reader say at
 * 0.05: which arm is better, no evidence either way, or that the sample is
 * too small for the test to show anything.  Across workloads the test
 * counts workloads, not pairs: a workload's trials are not independent of
 * each other, so the workload is the unit (docs/DESIGN.md §12).  The test itself is
 * sign_power.h's, which the plan (pc-report --plan) reads too.  The text report, the html page
 * and make paired's last lines all say it through paired_add_verdict.
 */
#ifndef PC_REPORT_PAIRED_VERDICT_H
#define PC_REPORT_PAIRED_VERDICT_H

#include <jv.h>

#include "plan.h"
#include "text.h"

/* The least number of discordant pairs, all one way, with which the exact
 * sign test can read a verdict at SIGN_ALPHA (6). */
int paired_pairs_needed(void);

/* What a summary's (borrowed) pairs show, without a newline, e.g. "1 pair,
 * 1 discordant (ON better); too few to show anything: the exact sign test
 * needs at least 6 discordant pairs one way at 0.05".  With workloads (the
 * report's whole sample), the counts of pairs are followed by those of
 * workloads, and the test reads the workloads. */
void paired_add_verdict(struct sbuf *b, jv summary, const struct plan_sample *workloads);

#endif
