/* html_plot: a workload's score plots on the verdicts' page (html.c): one
 * inline SVG per score over its trend's runs, oldest first, each point's
 * shape its run's verdict, and the list of the runs the plots number.
 */
#ifndef PC_REPORT_HTML_PLOT_H
#define PC_REPORT_HTML_PLOT_H

#include "cases.h"

/* c's plots, or without a trend (no ledger) a line saying they need one. */
void html_add_plots(struct sbuf *b, const struct report_case *c);

#endif
