/* formats: pc-report's report formats, one row each in a table.
 *
 * A format is a const struct report_format defined in its own file
 * (format_<name>.c; html.c for html) and listed once in formats.c.  The
 * option parser, the usage and the dispatch all read that table, so a
 * format is added there and nowhere else in pc-report.c.
 */
#ifndef PC_REPORT_FORMATS_H
#define PC_REPORT_FORMATS_H

#include "cases.h"
#include "err.h"
#include "text.h"

struct page_facts;

/* What the command line and the run decide for every format; a format
 * reads the fields it needs. */
struct report_settings {
	int verbose;  /* -v */
	int color;    /* NO_COLOR is unset or empty (no-color.org) */
	int terminal; /* stdout is a terminal */
	int trends;   /* every spooled case carries its trend */
	int live;     /* every case was written by the format's live as it came */
};

struct report_format {
	const char *name; /* as --format takes it */
	/* With --ledger, read the trends even without --trend: the format
	 * needs them (the html page plots every score over its runs). */
	int needs_trends;
	/* The whole report for cs, written to o a case at a time; o, cs and
	 * s are borrowed.  It may walk the spool as often as it needs. */
	void (*render)(struct report_out *o, struct cases *cs, const struct report_settings *s);
	/* NULL, or one case's part of the report, written as soon as the case
	 * is read (when no trend is asked for, which needs every case first);
	 * render then writes what follows the cases (s->live). */
	void (*live)(struct report_out *o, const struct report_case *c,
		     const struct report_settings *s);
	/* NULL, or --paired's report (borrowed) in this format, with what
	 * the arm observations tell of the run (facts, borrowed), pc-e2e's
	 * own account of it (run_account.h, borrowed; null for none) and
	 * whether it may use colour: the formats --paired takes are these
	 * rows. */
	void (*paired)(struct sbuf *b, jv report, jv account, const struct page_facts *facts,
		       int color);
};

/* The format called name, or NULL. */
const struct report_format *report_format_named(const char *name);

/* The i-th format's name in the usage's order, NULL past the last: the
 * table's choice_name_at (choice.h; table unused). */
const char *report_format_name_at(const void *table, size_t i);

/* The i-th format --paired takes (its paired column set), as
 * report_format_name_at. */
const char *report_paired_format_name_at(const void *table, size_t i);

/* The report for cs in format f on stdout (cs and s borrowed); -1 with e
 * filled when it is not there whole. */
int report_format_write(const struct report_format *f, struct cases *cs,
			const struct report_settings *s, struct pc_err *e);

#endif
