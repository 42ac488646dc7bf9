/* The table of report formats, and the dispatch to them (formats.h). */
#include <string.h>

#include "formats.h"

/* Each row is defined in its format's own file; a format is its
 * declaration here and its line in the table. */
extern const struct report_format format_text;
extern const struct report_format format_markdown;
extern const struct report_format format_json;
extern const struct report_format format_junit;
extern const struct report_format format_html;

/* In the order the usage lists them. */
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

const char *report_format_name_at(const void *table, size_t i)
{
	(void)table;
	return formats[i] ? formats[i]->name : NULL;
}

const char *report_paired_format_name_at(const void *table, size_t i)
{
	(void)table;
	for (const struct report_format *const *f = formats; *f; f++)
		if ((*f)->paired && i-- == 0)
			return (*f)->name;
	return NULL;
}

int report_format_write(const struct report_format *f, struct cases *cs,
			const struct report_settings *s, struct pc_err *e)
{
	struct report_out out = { { 0 }, 0 };

	f->render(&out, cs, s);
	if (report_out_sync(&out) != 0)
		return pc_fail(e, "write error: %s", strerror(out.failed));
	if (cs->read_failed)
		return pc_fail(e, "cannot read back the spool file");
	return 0;
}
