/* docs_parts: the shapes that more than one document file holds: the leaf
 * kinds both docs.c and docs_paired.c name, and the parts a replay shares
 * with the run record and the paired arm observation (the environment it
 * ran in, Harbor's trial and its rewards, an agent's settings).
 *
 * Private to the document shapes (docs.c, docs_paired.c), as are the short
 * words their tables are written in.
 */
#ifndef PC_DOCS_PARTS_H
#define PC_DOCS_PARTS_H

#include <stddef.h>

#include "shape.h"

/* A field table's end, and a field that may be absent, spelt as the table
 * rows are (clang-format would break the braces over lines). */
/* clang-format off */
#define END { NULL, NULL, 0, NULL }
#define OPT FIELD_OPTIONAL
/* clang-format on */

extern const struct shape part_str;
extern const struct shape part_str_null;
extern const struct shape part_bool;
extern const struct shape part_count; /* an integer, 0 or more */
extern const struct shape part_num;
extern const struct shape part_time; /* shape_strings.h's date-time */
extern const struct shape part_strings;

extern const struct shape part_settings;    /* an agent's, name to string */
extern const struct shape part_environment; /* what the workload ran on and when */
extern const struct shape part_rewards;     /* Harbor's, name to number */
extern const struct shape part_harbor;      /* Harbor's job and trial */
/* why a run ended in error (run-bub/run/fault.h): the run record's fault,
 * which an arm's account copies */
extern const struct shape part_fault;

#endif
