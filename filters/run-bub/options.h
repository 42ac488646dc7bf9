/* options: pc-run-bub's command line read into struct run_bub_options
 * (run/run.h), every usage error named before anything runs (docs/DESIGN.md
 * §5.2); man/pc-run-bub.1 describes each option. */
#ifndef PC_RUN_BUB_OPTIONS_H
#define PC_RUN_BUB_OPTIONS_H

#include "run/run.h"

/* o's fields from argv (o holds the defaults and prog, the name its usage
 * errors and --version spell; o->registry becomes owned):
 * 0, or a stage_option result (STAGE_DONE, STAGE_USAGE) after --help,
 * --version or a usage error, which it printed with usage's synopsis. */
int run_bub_options_parse(int argc, char **argv, const char *usage, struct run_bub_options *o);

#endif
