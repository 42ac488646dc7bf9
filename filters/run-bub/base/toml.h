/* toml: the subset of TOML that Harbor's task.toml uses, as a jv.
 *
 * Tables ([a.b]), arrays of tables ([[steps]]), key = value with basic and
 * literal strings, integers, floats, booleans and one-line arrays of those,
 * comments.  Anything else (inline tables, multi-line strings, dates) is an
 * error naming the line, so a task the local runner cannot read is refused
 * rather than misread.
 */
#ifndef PC_TOML_H
#define PC_TOML_H

#include <jv.h>

#include "err.h"

int toml_load(const char *path, jv *out, struct pc_err *e);

/* A table toml_load made (borrowed), written back in that subset (owned):
 * scalars and arrays of scalars, then sub-tables, then arrays of tables,
 * each in its keys' order. */
char *toml_dump(jv doc);

#endif
