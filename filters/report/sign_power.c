/* sign_power: the exact sign test and its power (sign_power.h). */
#include <math.h>
#include <stdlib.h>

#include "err.h"
#include "sign_power.h"

double sign_test_p(double b, double c)
{
	double n = b + c, k = fmin(b, c), tail = 0;

	if (n == 0)
		return 1;
	for (double i = 0; i <= k; i++)
		tail += exp(lgamma(n + 1) - lgamma(i + 1) - lgamma(n - i + 1) - n * log(2));
	return fmin(1, 2 * tail);
}

/* k(d), searched upward from k, a count known to reject (or -1): the
 * tail only grows with k, so the first k that does not reject ends it. */
static int critical_from(int d, int k)
{
	while (k + 1 <= d / 2 && sign_test_p(k + 1, d - k - 1) < SIGN_ALPHA)
		k++;
	return k;
}

int sign_critical(int d)
{
	return critical_from(d, -1);
}

/* What rejects given d discordant workloads, for d = 0 .. size - 1: the
 * chance it does with ON better (on[d]) and with OFF better (off[d]).  It
 * does not depend on the number of workloads, so a scan over them reads
 * one table.  lf[i] is log(i!), for i = 0 .. size - 1. */
struct rejection {
	int size;
	double *on, *off, *lf;
};

/* log P(X = k) for X ~ Bin(n, p), -INFINITY when it cannot happen. */
static double log_pmf(const struct rejection *r, int n, int k, double p)
{
	if (p <= 0)
		return k == 0 ? 0 : -INFINITY;
	if (p >= 1)
		return k == n ? 0 : -INFINITY;
	return r->lf[n] - r->lf[k] - r->lf[n - k] + k * log(p) + (n - k) * log1p(-p);
}

/* P(X <= k) or, with upper, P(X >= d - k) for X ~ Bin(d, theta).  Summed
 * from the critical count outward: once past the mode, the terms only
 * shrink, and the sum stops where they no longer change it. */
static double tail(const struct rejection *r, int d, int k, double theta, int upper)
{
	double sum = 0;

	for (int i = k; i >= 0; i--) {
		int x = upper ? d - i : i;
		double term = exp(log_pmf(r, d, x, theta));
		sum += term;
		if ((upper ? x > d * theta : x < d * theta) && term <= 1e-17 * sum)
			break;
	}
	return sum;
}

/* The table for d = 0 .. size - 1 at theta, the share of discordant
 * workloads that help.  k(d) is at least k(d - 1) (the tail at k shrinks
 * as d grows), so it is searched from there. */
static struct rejection rejection_table(int size, double theta)
{
	struct rejection r = { size, pc_xmalloc(size * sizeof *r.on),
			       pc_xmalloc(size * sizeof *r.off), pc_xmalloc(size * sizeof *r.lf) };
	int k = -1;

	for (int i = 0; i < size; i++)
		r.lf[i] = lgamma(i + 1.0);
	for (int d = 0; d < size; d++) {
		k = critical_from(d, k);
		r.off[d] = tail(&r, d, k, theta, 0);
		r.on[d] = tail(&r, d, k, theta, 1);
	}
	return r;
}

static void rejection_free(struct rejection *r)
{
	free(r->on);
	free(r->off);
	free(r->lf);
}

/* The power of n <= r->size - 1 workloads with discordance rate p: D's
 * terms summed from its mode outward, each way until they no longer
 * change the sum. */
static double power_from(const struct rejection *r, int n, double p, double *on_better)
{
	int mode = (int)(n * p);
	double on = 0, off = 0, seen = 0;

	for (int step = 1; step >= -1; step -= 2) {
		for (int d = step > 0 ? mode : mode - 1; d >= 0 && d <= n; d += step) {
			double pd = exp(log_pmf(r, n, d, p));
			on += pd * r->on[d];
			off += pd * r->off[d];
			seen += pd;
			if (pd <= 1e-17 * seen)
				break;
		}
	}
	if (on_better)
		*on_better = on;
	return on + off;
}

static double theta_of(double help, double hurt)
{
	return help + hurt > 0 ? help / (help + hurt) : 0.5;
}

double sign_power(int n, double help, double hurt, double *on_better)
{
	struct rejection r = rejection_table(n + 1, theta_of(help, hurt));
	double power = power_from(&r, n, help + hurt, on_better);

	rejection_free(&r);
	return power;
}

int sign_workloads_needed(double help, double hurt, double target, int *first)
{
	double theta = theta_of(help, hurt);
	int from = 0, reached = 0;

	if (help == hurt) { /* nothing to detect, at any size */
		if (first)
			*first = 0;
		return 0;
	}
	/* grown as the scan needs it: most plans stop near a hundred */
	struct rejection r = rejection_table(256, theta);

	/* a run that starts at the cap is still checked as far as any other */
	for (int n = 1; n <= 2 * SIGN_WORKLOADS_CAP; n++) {
		if (n >= r.size) {
			rejection_free(&r);
			r = rejection_table(2 * r.size, theta);
		}
		if (power_from(&r, n, help + hurt, NULL) < target) {
			from = 0;
			if (n >= SIGN_WORKLOADS_CAP)
				break;
			continue;
		}
		if (!reached)
			reached = n;
		if (!from)
			from = n;
		if (n >= 2 * from && n >= from + 100)
			break;
	}
	rejection_free(&r);
	if (first)
		*first = from ? reached : 0;
	return from;
}

double sign_detectable(int n, double discordance, double target)
{
	double lo = 0, hi = discordance;

	if (discordance <= 0 || sign_power(n, discordance, 0, NULL) < target)
		return -1;
	while (hi - lo > 1e-4) {
		double mid = (lo + hi) / 2;
		if (sign_power(n, (discordance + mid) / 2, (discordance - mid) / 2, NULL) >= target)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
