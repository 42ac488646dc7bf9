/* paired_html: pc-report --paired --format html, the OFF/ON comparison as
 * one self-contained page.  Per workload and in total: a plot of each
 * arm's success rate with its Wilson interval, the ON minus OFF score with
 * its interval, and what the pairs show in words (paired_verdict.h).
 * Every mark is also a word: colour only adds.
 */
#ifndef PC_REPORT_PAIRED_HTML_H
#define PC_REPORT_PAIRED_HTML_H

#include <jv.h>

#include "page_facts.h"
#include "text.h"

/* The page for report, a normalized powercontext.e2e-paired-report/v4
 * (borrowed): the PowerContext under test and when the arms ran (facts,
 * from the observations), then per workload and in total each arm's
 * success rate and Wilson interval as a plot, the ON minus OFF score and
 * what the pairs show; then pc-e2e's account of the run (run_account.h,
 * borrowed, null for none): its faults, retries and spend (NO_COLOR:
 * color 0). */
void paired_add_html(struct sbuf *b, jv report, jv account, const struct page_facts *facts,
		     int color);

#endif
