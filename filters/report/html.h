/* html: what pc-report's pages share: one self-contained HTML5 page's
 * head and style, the same for the verdicts' page (html.c) and the paired
 * comparison's (paired_html.c).
 */
#ifndef PC_REPORT_HTML_H
#define PC_REPORT_HTML_H

#include "text.h"

/* The page up to its <h1>title</h1>: the shared style, its colours unless
 * color is 0 (NO_COLOR), then the page's own style (NULL for none). */
void html_open(struct sbuf *b, const char *title, const char *style, int color);

#endif
