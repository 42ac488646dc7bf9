/* html: pc-report's --format html, one self-contained HTML5 page.
 *
 * The page fetches nothing (inline style, inline SVG, no script, a data:
 * icon so a browser does not ask for /favicon.ico) and reads the same with
 * colour or without: every mark is a word or a symbol, colour only adds.
 */
#ifndef PC_REPORT_HTML_H
#define PC_REPORT_HTML_H

#include "report.h"

/* The page for cs, written to o one case at a time; color 0 (NO_COLOR)
 * leaves every colour out of it. */
void render_html(struct report_out *o, struct cases *cs, int color);

#endif
