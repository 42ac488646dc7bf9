/* run_account: pc-e2e's own account of a paired run, beside 1.4.1's
 * report (docs/paired.md): from --output DIR, pc-evaluate's
 * DIR/paired-run.json (each errored arm's fault, the faults by class and
 * kind, the spend per arm and role) and the units' DIR/units/units.jsonl
 * (pairs retried and lost) and DIR/units/budget.json (a budget's stop).
 * The text report and run.md say it in the same words; the page in its
 * own tables (paired_html.c).
 */
#ifndef PC_REPORT_RUN_ACCOUNT_H
#define PC_REPORT_RUN_ACCOUNT_H

#include <jv.h>

#include "err.h"
#include "text.h"

/* *account (owned): {"run", "units", "budget"}, each the file's document
 * (units: its lines as an array) or null when the file is not there; null
 * altogether without output or any of them.  -1 with e naming the file
 * and the line of one that cannot be read. */
int run_account_load(const char *output, jv *account, struct pc_err *e);

/* Whether an account (borrowed) has faults to say (an errored arm, or
 * units that could retry one), spend (the arms' accounts, or a budget),
 * or either. */
int run_account_has_faults(jv account);
int run_account_has_spend(jv account);
int run_account_any(jv account);

/* How a format says the account's two sections: its faults (from
 * paired-run.json and units.jsonl, either null) and its spend (from
 * paired-run.json and budget.json, either null), all borrowed. */
struct run_account_view {
	void (*faults)(struct sbuf *b, jv run, jv units);
	void (*spend)(struct sbuf *b, jv run, jv budget);
};

/* Each section of the account (borrowed) that has something to say, in
 * view's words. */
void run_account_render(struct sbuf *b, jv account, const struct run_account_view *view);

/* The account's (borrowed) sections as markdown text: "Faults" (one line
 * per errored arm, the counts by class, pairs retried and lost) and
 * "Spend" (per arm and role, the total, a budget's stop). */
void run_account_add_text(struct sbuf *b, jv account);

/* Pieces the page shows in the same words, without a newline: a fault's
 * (borrowed, null when none was recorded) description "provider
 * rate-limit 429 at capture: \"…\"", the counts "1 error(s): 1 provider
 * (rate-limit)" of faults (borrowed), the units' (borrowed) "pairs retried
 * r, lost l" and a budget's (borrowed) line. */
void run_account_add_fault(struct sbuf *b, jv fault);
void run_account_add_counts(struct sbuf *b, jv faults);
void run_account_add_retries(struct sbuf *b, jv units);
void run_account_add_budget(struct sbuf *b, jv budget);

/* A USD figure (borrowed) as "$0.0123", or "unpriced" for null. */
void run_account_add_usd(struct sbuf *b, jv usd);

#endif
