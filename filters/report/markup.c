/* markup: text escaped for XML and HTML (markup.h). */
#include "markup.h"

void markup_add_text(struct sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sbuf_add(b, "&amp;"); break;
		case '<': sbuf_add(b, "&lt;"); break;
		case '>': sbuf_add(b, "&gt;"); break;
		case '"': sbuf_add(b, "&quot;"); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r')
				sbuf_add(b, "?");
			else
				sbuf_addn(b, s, 1);
		}
	}
}
