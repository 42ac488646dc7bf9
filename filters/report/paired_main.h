/* paired_main: pc-report --paired, from stdin to stdout (docs/DESIGN.md
 * §11.3).  Stdin holds one powercontext.e2e-paired-report/v4 and, after
 * it, optionally the arm observations it summarizes: 1.4.1's paired report
 * names neither the PowerContext under test nor when the arms ran, and
 * the html page takes both from them (page_facts.h); then optionally
 * their accounts (pc-e2e.paired-arm-account/v1), which the ledger records
 * with the arms (ledger_paired.h).
 */
#ifndef PC_REPORT_PAIRED_MAIN_H
#define PC_REPORT_PAIRED_MAIN_H

#include "formats.h"
#include "ledger_url.h"
#include "redact.h"

/* The report in format (a row with its paired column) on stdout, with
 * output (or NULL) output/report.md, and with ledger (or NULL) the arms
 * recorded there after the report is printed; the exit status (verdict.h's
 * verdict_paired_exit, or the worst input, output or ledger error), its
 * messages prefixed with prog (main's name). */
int paired_main(const char *prog, const struct report_format *format, const char *output,
		const struct ledger_url *ledger, const struct redactor *red);

#endif
