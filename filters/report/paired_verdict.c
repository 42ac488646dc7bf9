/* paired_verdict: what an OFF/ON comparison's pairs show, in words
 * (paired_verdict.h). */
#include "paired_verdict.h"
#include "json.h"
#include "sign_power.h"

/* Computed from the test itself, so the figure cannot drift from the rule
 * the verdict reads (p below the level). */
int paired_pairs_needed(void)
{
	int n = 1;

	while (sign_test_p(n, 0) >= SIGN_ALPHA)
		n++;
	return n;
}

/* How many pairs (or workloads) were scored and which way the discordant
 * ones fell. */
static void add_counts(struct sbuf *b, const char *unit, double n, double on, double off)
{
	if (n == 0) {
		sbuf_addf(b, "no scored %s", unit);
		return;
	}
	sbuf_addf(b, "%.0f %s%s", n, unit, n == 1 ? "" : "s");
	if (on + off == 0) {
		sbuf_add(b, ", none discordant");
		return;
	}
	sbuf_addf(b, ", %.0f discordant (", on + off);
	if (on > 0 && off > 0)
		sbuf_addf(b, "ON better in %.0f, OFF better in %.0f)", on, off);
	else
		sbuf_add(b, on > 0 ? "ON better)" : "OFF better)");
}

/* A p-value above the level reads as "no evidence", which a reader takes
 * for a finding; under the least count the test could not have found
 * anything, and the words say so instead. */
static void add_decision(struct sbuf *b, const char *unit, double on, double off)
{
	double p = sign_test_p(on, off);
	int needed = paired_pairs_needed();

	if (p < SIGN_ALPHA) {
		sbuf_addf(b, "; %s better at %g (exact sign test p = %.4g)",
			  on > off ? "ON" : "OFF", SIGN_ALPHA, p);
		return;
	}
	if (on + off < needed)
		sbuf_add(b, "; too few to show anything: ");
	else
		sbuf_addf(b, "; no evidence either way at %g (p = %.4g): ", SIGN_ALPHA, p);
	sbuf_addf(b, "the exact sign test needs at least %d discordant %ss one way at %g", needed,
		  unit, SIGN_ALPHA);
	if (on + off >= needed)
		sbuf_add(b, ", and more when some go the other way");
}

void paired_add_verdict(struct sbuf *b, jv summary, const struct plan_sample *workloads)
{
	double on = json_number_at(summary, "on_better", 0);
	double off = json_number_at(summary, "off_better", 0);

	add_counts(b, "pair", json_number_at(summary, "pairs", 0), on, off);
	if (!workloads) {
		add_decision(b, "pair", on, off);
		return;
	}
	sbuf_add(b, "; by workload: ");
	add_counts(b, "workload", workloads->scored, workloads->helped, workloads->hurt);
	add_decision(b, "workload", workloads->helped, workloads->hurt);
}
