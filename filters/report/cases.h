/* cases: what pc-report's parts share about the cases of one report.
 *
 * A first pass reads, validates, judges and spools every case (redacted),
 * one evaluation document at a time (report_spool_document); each
 * renderer then walks the spool one case at a time (report_each_case), so
 * memory does not grow with the number of cases.  A case is spooled in
 * spool.h's encoding, so a pass reads it back without parsing and builds a
 * jv only of the parts it prints.  This module owns the first pass, the
 * spooled case, the walk, the report's output buffer and the small readers
 * every format uses.
 */
#ifndef PC_REPORT_CASES_H
#define PC_REPORT_CASES_H

#include <stdio.h>

#include <jv.h>

#include "redact.h"
#include "spool.h"
#include "text.h"
#include "verdict.h"

/* One spooled case, as a renderer sees it (everything borrowed). */
struct report_case {
	const char *kase; /* one case of an evaluation document, redacted (spool.h) */
	const char *experiment;
	const char *dir; /* its directory under --output (outdir.h), or NULL */
	enum verdict verdict;
	jv trend; /* its comparable runs from the ledger, oldest first, or null */
};

/* The cases read so far; every field is owned here. */
struct cases {
	struct spool_file spool; /* one record per case (report_spool) */
	int n;
	int count[VERDICTS];
	int passing, evaluated; /* assertions holding, and judged, over every case */
	int status;             /* the cases' exit codes folded with stage_worst */
	char *bad_name;         /* with --output: the first case name that is no workload id */
	int read_failed;        /* the spool could not be read back */
};

/* What the first pass hands each case to as it is spooled (c borrowed):
 * nonzero once nothing more should be read, such as a live report that
 * can no longer be written (formats.h). */
typedef int report_seen_fn(void *ctx, const struct report_case *c);

/* The first pass over one evaluation document (borrowed): each case
 * judged, counted, redacted (red) and spooled, and handed to seen (NULL
 * for none).  With check_names (--output), a case name or batch that
 * cannot be a directory is noted in bad_name.  Nonzero when seen said to
 * stop. */
int report_spool_document(struct cases *cs, jv doc, const struct redactor *red, int check_names,
			  report_seen_fn *seen, void *ctx);

/* Spool c as report_each_case hands it back. */
void report_spool(FILE *spool, const struct report_case *c);

/* One pass over the spooled cases, in input order: fn gets each (borrowed). */
void report_each_case(struct cases *cs, void (*fn)(void *ctx, const struct report_case *c),
		      void *ctx);

/* The report as it is written: each piece goes to stdout once rendered. */
struct report_out {
	struct sbuf b;
	int failed; /* a write to stdout failed: its errno, the first one */
};

void report_flush(struct report_out *o);
/* Flush stdout, noting its failure in o; 0 when both went out. */
int report_out_sync(struct report_out *o);

const char *report_case_name(const struct report_case *c);

/* The place of name in an array of names (borrowed), or -1: the few names
 * a page lists once each (assertions, scores, commits). */
int report_name_index(jv names, const char *name);

/* c's assertions, scores, labels, metrics or attributes (a new reference). */
jv report_section(const struct report_case *c, const char *name);

/* A string attribute ("unknown" when absent) and a label's value ("unscored"). */
const char *report_attribute(const struct report_case *c, const char *name);
const char *report_label(const struct report_case *c, const char *name);

/* [{name, reason}] of c's false assertions, in order. */
jv report_false_assertions(const struct report_case *c);

/* Whether a spooled assertion ({value, reason}, or NULL) holds. */
int report_holds(const char *assertion);

/* "stale: the catalog changed evaluation.probes, dataset.checksum since
 * it ran" or "stale: the catalog no longer has it", from c's stale
 * attribute (nothing when it has none). */
void stale_add_reason(struct sbuf *b, const struct report_case *c);
/* That reason as a line after prefix, when c is stale. */
void stale_add_line(struct sbuf *b, const struct report_case *c, const char *prefix);

/* Python's str() of an evaluation value (borrowed): True, 1.0, None, the
 * string. */
void report_add_value(struct sbuf *b, jv v);

/* "3 workloads: 1 accepted, 1 failed, 0 inconclusive[, 1 skipped]". */
void report_add_counts(struct sbuf *b, const struct cases *cs);

#endif
