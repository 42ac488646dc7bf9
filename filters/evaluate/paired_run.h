/* paired_run: pc-evaluate --paired's pass, and pc-e2e's own summary of a
 * paired run beside 1.4.1's report (docs/paired.md),
 * pc-e2e.paired-run/v1: each errored arm and why, the
 * faults by class and kind per arm, and with the arms' accounts what each
 * arm spent by role (the agent; the Server's extraction), and the totals.
 * The paired report stays 1.4.1's: nothing of this goes into it.
 */
#ifndef PC_EVALUATE_PAIRED_RUN_H
#define PC_EVALUATE_PAIRED_RUN_H

#include "redact.h"

/* The arm observations on stdin, in run order, and after them their
 * accounts: with output, output/paired-run.json first, then the
 * powercontext.e2e-paired-report/v4 (paired.h) to output/paired-report.json
 * and stdout; trials_asked 0 for the highest observed, prefix the
 * experiment's.  The exit status (verdict.h's verdict_paired_exit, or the
 * input's or output's error), its messages prefixed with prog. */
int paired_pass(const char *prog, int trials_asked, const char *prefix, const char *output,
		const struct redactor *red);

#endif
