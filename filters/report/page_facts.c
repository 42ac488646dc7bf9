/* page_facts: the PowerContext under test and when the run ran, as a page
 * says them (page_facts.h). */
#include <string.h>
#include <time.h>

#include "cases.h"
#include "clock.h"
#include "markup.h"
#include "page_facts.h"

void page_facts_init(struct page_facts *f)
{
	*f = (struct page_facts){ .commits = jv_array() };
}

void page_facts_free(struct page_facts *f)
{
	jv_free(f->commits);
	f->commits = jv_invalid();
}

/* 1 when at is a time, which then widens the window. */
static int widen(struct page_facts *f, const char *at)
{
	long long us;

	if (!at || clock_parse_us(at, &us) != 0)
		return 0;
	if (!f->dated || us < f->first_us)
		f->first_us = us;
	if (!f->dated || us > f->last_us)
		f->last_us = us;
	return 1;
}

void page_facts_add(struct page_facts *f, const char *commit, const char *from, const char *to)
{
	if (commit && *commit && report_name_index(f->commits, commit) < 0)
		f->commits = jv_array_append(f->commits, jv_string(commit));
	int dated = widen(f, from);
	dated = widen(f, to) || dated;
	if (dated)
		f->dated++;
	else
		f->undated++;
}

/* UTC to the second: "2026-12-02 16:57:30". */
static void utc(char out[32], long long us)
{
	time_t t = (time_t)(us / 1000000 - (us % 1000000 < 0));
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Several PowerContexts in one page is a mixed run, and the page says so
 * rather than name the first. */
static void add_commits(struct sbuf *b, jv commits /* borrowed */)
{
	int n = jv_array_length(jv_copy(commits));

	sbuf_add(b, "PowerContext under test: ");
	if (n == 0)
		sbuf_add(b, "not named by the documents");
	else if (n > 1)
		sbuf_addf(b, "%d different ones, the documents do not agree: ", n);
	jv_array_foreach(commits, i, c) {
		sbuf_add(b, i == 0 ? "<code>" : ", <code>");
		markup_add_text(b, jv_string_value(c));
		sbuf_add(b, "</code>");
		jv_free(c);
	}
	sbuf_add(b, ".");
}

static void add_window(struct sbuf *b, const struct page_facts *f, const char *verb)
{
	char first[32], last[32];

	if (!f->dated) {
		sbuf_add(b, " No document says when it ran.");
		return;
	}
	utc(first, f->first_us);
	utc(last, f->last_us);
	sbuf_addf(b, " %s %s", verb, first);
	if (strcmp(first, last) != 0) /* the day once when both ends share it */
		sbuf_addf(b, " to %s", strncmp(first, last, 11) ? last : last + 11);
	sbuf_add(b, " UTC");
	if (f->undated)
		sbuf_addf(b, " (%d without a time)", f->undated);
	sbuf_add(b, ".");
}

void page_facts_html(struct sbuf *b, const struct page_facts *f, const char *verb)
{
	sbuf_add(b, "<p class=\"under-test\">");
	add_commits(b, f->commits);
	add_window(b, f, verb);
	sbuf_add(b, "</p>\n");
}
