/* markup: text made safe to stand in XML and HTML, the one escaping that
 * pc-report's markup (the html pages, their SVG plots, JUnit XML) writes
 * every piece of text through.
 */
#ifndef PC_REPORT_MARKUP_H
#define PC_REPORT_MARKUP_H

#include "text.h"

/* s escaped, as one piece of text or one attribute value (nothing for
 * NULL); the control characters XML 1.0 forbids become '?'. */
void markup_add_text(struct sbuf *b, const char *s);

#endif
