/* clock: the one timestamp format of pc-e2e's documents.
 *
 * Evidence (Harbor's job and trial files, run records) and the ledger's
 * recorded_at all write UTC as RFC 3339 with microseconds and "Z", the form
 * Harbor itself writes, so a reader compares them as strings.
 */
#ifndef PC_CLOCK_H
#define PC_CLOCK_H

enum {
	CLOCK_UTC_LEN = 40
};

/* UTC now, e.g. "2026-12-02T06:36:57.123456Z". */
void clock_utc_now(char out[CLOCK_UTC_LEN]);

/* An RFC 3339 time with "Z" or a numeric offset, as microseconds since the
 * epoch; -1 for anything else.  Differences of two are exact, as Python's
 * datetime subtraction is. */
int clock_parse_us(const char *s, long long *us);

#endif
