/* seconds: a number of seconds as a time setting gives it, an option's
 * (--agent-timeout) or the environment's (POWERCONTEXT_CLIENT_TIMEOUT):
 * one parser, so no setting accepts what another refuses.
 */
#ifndef PC_RUN_BUB_SECONDS_H
#define PC_RUN_BUB_SECONDS_H

#include "err.h"

/* The longest time a setting may give, in seconds (about 31 years): any
 * longer is a mistake, and every value up to it converts to a long. */
#define SECONDS_MAX 1e9

/* text as a decimal number of seconds, more than 0 and at most
 * SECONDS_MAX, into *seconds; else -1 with e "NAME must be a positive
 * number of seconds up to 1000000000, not \"TEXT\"".  strtod's nan, inf
 * and hexadecimal forms are refused: none is a number of seconds. */
int seconds_parse(const char *name, const char *text, double *seconds, struct pc_err *e);

#endif
