/* run_account_html: pc-e2e's account of a paired run (run_account.h) on
 * the paired page: a table of the errored arms and why, the counts by
 * class, pairs retried and lost, a table of the spend per arm and role,
 * and a budget's line, in the text report's words.
 */
#ifndef PC_REPORT_RUN_ACCOUNT_HTML_H
#define PC_REPORT_RUN_ACCOUNT_HTML_H

#include <jv.h>

#include "text.h"

/* The account's (borrowed; null: nothing) sections. */
void run_account_add_html(struct sbuf *b, jv account);

#endif
