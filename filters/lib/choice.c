/* choice: the words of a list of names (choice.h). */
#include "choice.h"

const char *choice_string_at(const void *table, size_t i)
{
	return ((const char *const *)table)[i];
}

void choice_add_names(struct sbuf *b, choice_name_at *name_at, const void *table,
		      const char *sep, const char *last_sep)
{
	for (size_t i = 0; name_at(table, i); i++) {
		int last = !name_at(table, i + 1), next_last = !last && !name_at(table, i + 2);
		sbuf_add(b, name_at(table, i));
		sbuf_add(b, text_list_separator(last, next_last, sep, last_sep));
	}
}

char *choice_refusal(const char *what, choice_name_at *name_at, const void *table)
{
	struct sbuf b = { 0 };

	sbuf_addf(&b, "%s must be ", what);
	choice_add_names(&b, name_at, table, ", ", " or ");
	return sbuf_take(&b);
}
