/* page_facts: what a page for people says it is about, read from the
 * documents it renders and never from the clock, so that rendering the same
 * documents again gives the same page: the PowerContext under test (each
 * replay's environment.commit, a release's version or a checkout's commit)
 * and when the run ran.  The verdicts' page (html.c) gathers them from its
 * cases' attributes, the paired page (paired_html.c) from the arm
 * observations given after the paired report.
 */
#ifndef PC_REPORT_PAGE_FACTS_H
#define PC_REPORT_PAGE_FACTS_H

#include <jv.h>

#include "text.h"

struct page_facts {
	jv commits;                  /* owned: each PowerContext named, first seen first */
	long long first_us, last_us; /* the earliest and latest time seen */
	int dated, undated;          /* documents with a readable time, and without */
};

void page_facts_init(struct page_facts *f);
void page_facts_free(struct page_facts *f);

/* One document's PowerContext (NULL when it names none) and when it ran
 * (RFC 3339; either may be NULL or unreadable). */
void page_facts_add(struct page_facts *f, const char *commit, const char *from, const char *to);

/* The page's line about them: <p class="under-test">…</p>.  verb says what
 * the times are ("Finished", "Ran"). */
void page_facts_html(struct sbuf *b, const struct page_facts *f, const char *verb);

#endif
