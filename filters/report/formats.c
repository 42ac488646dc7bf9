/* The table of report formats. */
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* Each row is defined in its format's own file; a format is its
 * declaration here and its line in the table. */
extern const struct report_format format_text;
extern const struct report_format format_markdown;
extern const struct report_format format_json;
extern const struct report_format format_junit;
extern const struct report_format format_html;

/* In the order --help lists them. */
static const struct report_format *const formats[] = {
	&format_text,
	&format_markdown,
	&format_json,
	&format_junit,
	&format_html,
	NULL,
};

/* The usage is written for an 80-column terminal. */
enum {
	HELP_WIDTH = 79
};

const struct report_format *report_format_named(const char *name)
{
	for (const struct report_format *const *f = formats; *f; f++)
		if (!strcmp((*f)->name, name))
			return *f;
	return NULL;
}

/* What follows the row at f in a list: sep, last_sep before the last row,
 * nothing after it. */
static const char *separator_after(const struct report_format *const *f, const char *sep,
				   const char *last_sep)
{
	return text_list_separator(!f[1], f[1] && !f[2], sep, last_sep);
}

const char *report_format_name_at(const void *table, size_t i)
{
	(void)table;
	return formats[i] ? formats[i]->name : NULL;
}

/* A format's words are never split across lines. */
void report_formats_add_help(struct sbuf *b, const char *lead)
{
	size_t indent = strlen(lead), column = indent;

	sbuf_add(b, lead);
	for (const struct report_format *const *f = formats; *f; f++) {
		char *item = text_fmt("%s (%s)%s", (*f)->name, (*f)->gist,
				      separator_after(f, ",", " or"));
		size_t len = strlen(item);
		if (column > indent && column + 1 + len > HELP_WIDTH) {
			sbuf_addf(b, "\n%*s", (int)indent, "");
			column = indent;
		} else if (column > indent) {
			sbuf_add(b, " ");
			column++;
		}
		sbuf_add(b, item);
		column += len;
		free(item);
	}
	sbuf_add(b, "\n");
}
