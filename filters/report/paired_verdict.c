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

/* How many pairs were scored and which way the discordant ones fell. */
static void add_pairs(struct sbuf *b, double pairs, double on, double off)
{
	if (pairs == 0) {
		sbuf_add(b, "no scored pair");
		return;
	}
	sbuf_addf(b, "%.0f pair%s", pairs, pairs == 1 ? "" : "s");
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

static void add_needed(struct sbuf *b, int needed)
{
	sbuf_addf(b, "the exact sign test needs at least %d discordant pairs one way at %g",
		  needed, SIGN_ALPHA);
}

/* A p-value above the level reads as "no evidence", which a reader takes
 * for a finding; under the least count the test could not have found
 * anything, and the words say so instead. */
void paired_add_verdict(struct sbuf *b, jv summary)
{
	double on = json_number_at(summary, "on_better", 0);
	double off = json_number_at(summary, "off_better", 0);
	double p = sign_test_p(on, off);
	int needed = paired_pairs_needed();

	add_pairs(b, json_number_at(summary, "pairs", 0), on, off);
	if (p < SIGN_ALPHA) {
		sbuf_addf(b, "; %s better at %g (exact sign test p = %.4g)",
			  on > off ? "ON" : "OFF", SIGN_ALPHA, p);
	} else if (on + off < needed) {
		sbuf_add(b, "; too few to show anything: ");
		add_needed(b, needed);
	} else {
		sbuf_addf(b, "; no evidence either way at %g (p = %.4g): ", SIGN_ALPHA, p);
		add_needed(b, needed);
		sbuf_add(b, ", and more when some go the other way");
	}
}
