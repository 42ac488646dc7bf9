/* io: files written whole or not at all.
 *
 * Artifacts (replay.json, eval-report.json, report.md) are written as an
 * unnamed file in the target directory and linked and renamed into place
 * once complete, so a crash, a kill or a full disk never leaves half a file
 * where a reader would look, nor a temporary file behind.
 */
#ifndef PC_IO_H
#define PC_IO_H

#include <stddef.h>

#include <jv.h>

#include "err.h"

/* mkdir -p */
int io_mkdirs(const char *dir, struct pc_err *e);

/* Write data to dir/name atomically, creating dir. */
int io_write_artifact(const char *dir, const char *name, const char *data,
		      size_t len, struct pc_err *e);

/* Relative paths of the regular files under root whose base name is one of
 * names (NULL-terminated; NULL for every file), sorted part by part like Python's sorted(rglob()):
 * "a/x" before "a-b/x".  Links are followed; a missing root gives []. */
jv io_find_files(const char *root, const char *const *names);

/* Copy every regular file under src (links followed, as io_find_files
 * finds them) to the same path under dst, with its permission bits;
 * directories without files are not made. */
int io_copy_tree(const char *src, const char *dst, struct pc_err *e);

/* The whole of a file (NUL-terminated; *len without the NUL). */
int io_read_text(const char *path, char **out, size_t *len, struct pc_err *e);

/* Malloc'd "a/b" */
char *io_join(const char *a, const char *b);

/* $TMPDIR when set and not empty, else /tmp (borrowed). */
const char *io_tmpdir(void);

#endif
