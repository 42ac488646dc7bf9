/* The table of report formats. */
#include <string.h>

#include "formats.h"

/* Each row is defined in its format's own file. */
extern const struct report_format format_text, format_markdown, format_json, format_junit, format_html;

/* In the order --help lists them. */
static const struct report_format *const formats[] = {
	&format_text,
	&format_markdown,
	&format_json,
	&format_junit,
	&format_html,
	NULL,
};

const struct report_format *report_format_named(const char *name)
{
	for (const struct report_format *const *f = formats; *f; f++)
		if (!strcmp((*f)->name, name))
			return *f;
	return NULL;
}
