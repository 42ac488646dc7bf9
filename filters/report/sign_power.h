/* sign_power: the exact two-sided sign test, as a p-value and as a plan
 * (docs/DESIGN.md §11.8).  It owns the test's one definition: the paired
 * verdict (pc-report --paired) reads sign_test_p, and the power a plan
 * prints (pc-report --plan) is the chance that this same test rejects, so
 * the plan and the verdict cannot be two different tests.
 *
 * The unit is the workload: each one helps with probability help, hurts
 * with hurt, and ties otherwise.  D ~ Bin(n, help + hurt) workloads are
 * discordant; given D, the helped count is Bin(D, help / (help + hurt)).
 * The test rejects, either way, when sign_test_p is below SIGN_ALPHA.
 * Binomials are taken in log space (lgamma), so n may reach thousands.
 */
#ifndef PC_SIGN_POWER_H
#define PC_SIGN_POWER_H

/* The level the test is read at, and the power a plan aims for. */
#define SIGN_ALPHA        0.05
#define SIGN_TARGET_POWER 0.8

enum {
	/* the most workloads sign_workloads_needed proposes: past it, the
	 * effect is too small to plan for */
	SIGN_WORKLOADS_CAP = 5000
};

/* The exact two-sided p-value of b outcomes one way and c the other: twice
 * the smaller tail of Binomial(b + c, 1/2), at most 1. */
double sign_test_p(double b, double c);

/* The largest smaller count k with which d discordant outcomes (k one way,
 * d - k the other) reject at SIGN_ALPHA, or -1 when none does. */
int sign_critical(int d);

/* The chance that n workloads reject; *on_better (when not NULL) the
 * chance that they reject with ON better.  help and hurt in [0, 1], their
 * sum at most 1. */
double sign_power(int n, double help, double hurt, double *on_better);

/* The smallest n from which the power stays at least target (checked up to
 * max(2n, n + 100)), and *first (when not NULL) the first n that reaches
 * it; 0 (and *first 0) when none does up to SIGN_WORKLOADS_CAP. */
int sign_workloads_needed(double help, double hurt, double target, int *first);

/* The smallest net gain help - hurt, with help + hurt = discordance, for
 * which n workloads have at least target power (to 1e-4); -1 when even
 * every discordant workload helping falls short (or discordance is 0). */
double sign_detectable(int n, double discordance, double target);

#endif
