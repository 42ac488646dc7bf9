/* catalog: loading and selecting workload manifests (docs/DESIGN.md §2.1).
 *
 * A catalog is every *.yaml of a directory (sorted by file name) or one file.
 * Loading validates every manifest completely, with errors naming file, line,
 * column, field path and rule; checks that ids are unique and that pinned
 * provenance sources still have their recorded sha256.  Selection is
 * additive over ids and categories, in catalog order.
 */
#ifndef PC_CATALOG_H
#define PC_CATALOG_H

#include <jv.h>
#include <stdio.h>

#include "err.h"
#include "hash.h"

struct workload {
	char *path;                         /* the manifest file */
	char sha256[SHA256_HEX_LEN + 1];    /* of the manifest file */
	jv manifest;                        /* normalized */
	int checksum_line, checksum_column; /* of dataset.checksum, for errors */
	int path_line, path_column;         /* of dataset.path, for errors */
};

struct catalog {
	struct workload *items;
	int n;
};

/* Load the catalog at path; root resolves provenance sources.  Every problem
 * is printed on errs (one line each); returns -1 if there was any. */
int catalog_load(struct catalog *c, const char *path, const char *root,
		 FILE *errs);
void catalog_free(struct catalog *c);

/* Why path, which a manifest names relative to root, is missing: "; …
 * pass --root" naming root in full (malloc'd); "" when it is there or
 * another error stops it. */
char *catalog_root_hint(const char *path, const char *root);

/* Mark selected[i] for each workload named by ids or categories (arrays of
 * strings, both borrowed), or in category "acceptance" when both are
 * empty; -1 naming every unknown id and category. */
int catalog_select(const struct catalog *c, jv ids, jv categories,
		   int *selected, struct pc_err *e);

#endif
