/* yamldoc: one YAML document as a jv, with the position of every field.
 *
 * Plain scalars resolve like PyYAML's safe_load (YAML 1.1: yes/no/on/off are
 * booleans, "1.0" is a float, "~" is null); quoted scalars stay strings.
 * Anchors and aliases work; duplicate keys and non-string keys are errors.
 * Every field path ("evaluation.probes[0].id") is mapped to its 1-based line
 * and column so a manifest error can name where it is.
 */
#ifndef PC_YAMLDOC_H
#define PC_YAMLDOC_H

#include <jv.h>

#include "err.h"

struct yaml_marks {
	jv by_path; /* object: path -> [line, column] */
};

/* Load the single document of path. *marks is initialised on success. */
int yamldoc_load(const char *path, jv *out, struct yaml_marks *marks,
		 struct pc_err *e);

/* Line and column of path or of its nearest ancestor (1, 1 if none). */
void yaml_marks_find(const struct yaml_marks *m, const char *path, int *line,
		     int *column);
void yaml_marks_free(struct yaml_marks *m);

#endif
