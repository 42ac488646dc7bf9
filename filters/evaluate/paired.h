/* paired: the OFF/ON comparison's report from its arm observations, as
 * PowerContext 1.4.1's summarize computes it (docs/DESIGN.md §11).
 *
 * Per workload and in total: each arm's counts, success rate and Wilson
 * interval, its steps' and the Server's figures over its scored runs, and
 * the ON minus OFF score over the trials where both arms were scored, with
 * its bootstrap interval.  Only the observations are read, so saved ones
 * summarize offline to the same report.
 */
#ifndef PC_EVALUATE_PAIRED_H
#define PC_EVALUATE_PAIRED_H

#include <jv.h>

/* The powercontext.e2e-paired-report/v4 document (owned) of observations
 * (an array of normalized arm observations in run order, consumed), for
 * trials trials per arm, in the experiment "<prefix>:paired:<host>:<ids>";
 * the agent is the first observation's. */
jv paired_summarize(jv observations, int trials, const char *prefix);

#endif
