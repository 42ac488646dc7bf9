/* pc-select: the workload catalog in, selection lines out (docs/DESIGN.md §2.2).
 *
 * Nothing is emitted unless every manifest is valid and every selected local
 * task still has its pinned Harbor checksum: a selection is all or nothing.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "docs_names.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "stage.h"

extern char **environ;

/* The filter's name, spelled here only: every message of its own, --help
 * and --version. */
#define PROG "pc-select"

static const char usage[] =
	"usage: " PROG " [--manifests PATH] [--root DIR] [--id ID]... [--category NAME]...\n"
	"Validates the workload catalog and writes one powercontext.e2e-selection/v1\n"
	"line per selected workload.\n"
	"  --manifests PATH  a directory of *.yaml manifests or one file (default manifests)\n"
	"  --root DIR        where dataset.path and provenance.source resolve (default .)\n"
	"  --id ID           select this workload (repeatable)\n"
	"  --category NAME   select every workload in this category (repeatable)\n"
	"With no --id and no --category, the acceptance category is selected.\n";

struct select_options {
	const char *manifests, *root;
	jv ids, categories;
};

static int parse_args(int argc, char **argv, struct select_options *o)
{
	static const struct option longs[] = {
		{ "manifests", required_argument, NULL, 'm' },
		{ "root", required_argument, NULL, 'r' },
		{ "id", required_argument, NULL, 'i' },
		{ "category", required_argument, NULL, 'c' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI(PROG, usage, "", longs, argc, argv);
	int c;

	cli.repeatable = "ic";

	while ((c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'm': o->manifests = optarg; break;
		case 'r': o->root = optarg; break;
		case 'i': o->ids = jv_array_append(o->ids, jv_string(optarg)); break;
		default: o->categories = jv_array_append(o->categories, jv_string(optarg));
		}
	}
	return c == STAGE_END ? 0 : c;
}

/* Whether the resolved path real lies in the directory root, itself resolved. */
static int inside(const char *real, const char *root)
{
	char top[PATH_MAX];
	size_t n;

	if (!realpath(root, top))
		return 0;
	n = strlen(top);
	return !strncmp(real, top, n) &&
	       (real[n] == '/' || real[n] == '\0' || (n == 1 && top[0] == '/'));
}

/* The error of w's task directory dir (under root) that cannot be
 * resolved, with the hint to pass --root when it is missing. */
static int missing_task(const struct workload *w, const char *dir, const char *root,
			struct pc_err *e)
{
	pc_fail_errno(e, "%s:%d:%d: dataset.path: task directory %s", w->path, w->path_line,
		      w->path_column, dir);
	/* after the message: the hint's look-up would change errno */
	char *hint = catalog_root_hint(dir, root);
	size_t n = strlen(e->msg);

	snprintf(e->msg + n, sizeof e->msg - n, "%s", hint);
	free(hint);
	return -1;
}

/* The selection line of w; for a local task, after checking its checksum. */
static int selection(const struct workload *w, const char *root, jv *out,
		     struct pc_err *e)
{
	jv dataset = jv_object_get(jv_copy(w->manifest), jv_string("dataset"));
	const char *path = json_str(dataset, "path");
	const char *pinned = json_str(dataset, "checksum");
	jv task;
	int rc = 0;

	if (!path)
		task = JV_OBJECT(jv_string("kind"), jv_string("registry"),
				 jv_string("dir"), jv_null(), jv_string("checksum"), jv_null());
	else {
		char *rel = io_join(path, json_str(dataset, "task_id"));
		char *dir = io_join(root, rel), real[PATH_MAX], hex[SHA256_HEX_LEN + 1];

		if (!realpath(dir, real))
			rc = missing_task(w, dir, root, e);
		else if (!inside(real, root))
			rc = pc_fail(e,
				     "%s: dataset task %s resolves to %s, outside the repository %s (a symbolic link?)",
				     w->path, rel, real, root);
		else if (harbor_task_checksum(real, hex, e) != 0)
			rc = pc_wrap(e, "%s: ", w->path);
		else if (strcmp(hex, pinned))
			rc = pc_fail(e,
				     "%s:%d:%d: dataset.checksum: task %s changed: the manifest pins %s, the task directory hashes to %s",
				     w->path, w->checksum_line, w->checksum_column, rel, pinned,
				     hex);
		task = JV_OBJECT(jv_string("kind"), jv_string("local"),
				 jv_string("dir"), jv_string(real),
				 jv_string("checksum"), jv_string(hex));
		free(rel);
		free(dir);
	}
	jv_free(dataset);
	*out = JV_OBJECT(jv_string("schema"), jv_string(SCHEMA_SELECTION),
			 jv_string("workload"), jv_copy(w->manifest),
			 jv_string("manifest"),
			 JV_OBJECT(jv_string("path"), jv_string(w->path),
				   jv_string("sha256"), jv_string(w->sha256)),
			 jv_string("task"), task);
	if (rc != 0)
		jv_free(*out);
	return rc;
}

static int select_workloads(const struct select_options *o, const struct redactor *red)
{
	struct catalog cat;
	struct pc_err e;
	int *selected, status = EXIT_OK;
	jv lines = jv_array();

	if (catalog_load(&cat, o->manifests, o->root, stderr) != 0) {
		catalog_free(&cat);
		jv_free(lines);
		return stage_die(PROG, red, EXIT_INVALID,
				 "invalid workload catalog; nothing selected");
	}
	selected = pc_xmalloc((size_t)cat.n * sizeof *selected);
	if (catalog_select(&cat, o->ids, o->categories, selected, &e) != 0)
		status = stage_die(PROG, red, EXIT_INVALID, e.msg);
	for (int i = 0; status == EXIT_OK && i < cat.n; i++) {
		jv line;
		if (!selected[i])
			continue;
		if (selection(&cat.items[i], o->root, &line, &e) != 0)
			status = stage_die(PROG, red, EXIT_INVALID, e.msg);
		else
			lines = jv_array_append(lines, line);
	}
	if (status == EXIT_OK && jv_array_length(jv_copy(lines)) == 0)
		status = stage_die(
			PROG, red, EXIT_INVALID,
			"no workload selected: no workload is in the category \"acceptance\"");
	jv_array_foreach(lines, i, line) {
		if (status == EXIT_OK && stage_emit(red, line, &e) != 0)
			status = stage_die(PROG, red, EXIT_INVALID, e.msg);
		else if (status != EXIT_OK)
			jv_free(line);
	}
	jv_free(lines);
	free(selected);
	catalog_free(&cat);
	return status;
}

int main(int argc, char **argv)
{
	struct select_options o = { "manifests", ".", jv_array(), jv_array() };
	struct redactor red;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		rc = stage_option_exit(rc);
	else if ((rc = stage_open_streams(PROG, 0)) == 0) {
		redactor_init(&red, environ);
		rc = select_workloads(&o, &red);
		redactor_free(&red);
	}
	jv_free(o.ids);
	jv_free(o.categories);
	return rc;
}
