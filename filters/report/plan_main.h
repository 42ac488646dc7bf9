/* plan_main: pc-report --plan (docs/DESIGN.md §11.8), its command line,
 * its input (given rates, or a pilot's paired report on stdin) and its
 * output (plan.h's text or JSON on stdout).
 */
#ifndef PC_REPORT_PLAN_MAIN_H
#define PC_REPORT_PLAN_MAIN_H

#include "redact.h"

/* The plan for argv (argv[0] is --plan), its messages prefixed with prog
 * and usage (pc-report's --help text); the exit status. */
int plan_main(const char *prog, const char *usage, int argc, char **argv,
	      const struct redactor *red);

#endif
