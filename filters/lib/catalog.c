#include "catalog.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "docs.h"
#include "io.h"
#include "json.h"
#include "text.h"
#include "yamldoc.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* The manifest files of path, sorted; -1 if there is none. */
static int list_files(const char *path, char ***files, int *n, struct pc_err *e)
{
	struct stat st;
	DIR *dp;
	struct dirent *d;

	*files = NULL;
	*n = 0;
	if (stat(path, &st) != 0)
		return pc_fail_errno(e, "%s: cannot read manifests", path);
	if (!S_ISDIR(st.st_mode)) {
		*files = pc_xmalloc(sizeof **files);
		(*files)[(*n)++] = pc_xstrdup(path);
		return 0;
	}
	dp = opendir(path);
	if (!dp)
		return pc_fail_errno(e, "%s: cannot open directory", path);
	while ((d = readdir(dp))) {
		if (!ends_with(d->d_name, ".yaml") || d->d_name[0] == '.')
			continue;
		*files = pc_xrealloc(*files, (size_t)(*n + 1) * sizeof **files);
		(*files)[(*n)++] = io_join(path, d->d_name);
	}
	closedir(dp);
	if (*n > 1)
		qsort(*files, (size_t)*n, sizeof **files, by_name);
	if (*n == 0)
		return pc_fail(e, "%s: no *.yaml workload manifests", path);
	return 0;
}

/* PurePosixPath-style spelling: no "//", no "." parts, no trailing "/". */
static char *normalize_path(const char *p)
{
	struct sbuf b = { 0 };
	char *copy = pc_xstrdup(p), *save = NULL;

	if (*p == '/')
		sbuf_add(&b, "/");
	for (char *part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		if (b.len && b.s[b.len - 1] != '/')
			sbuf_add(&b, "/");
		sbuf_add(&b, part);
	}
	free(copy);
	if (!b.len)
		sbuf_add(&b, ".");
	return sbuf_take(&b);
}

/* A repository path: relative and never climbing out with "..". */
static int inside_repository(const char *p)
{
	if (*p == '/')
		return 0;
	for (const char *s = p; (s = strstr(s, "..")); s += 2)
		if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			return 0;
	return 1;
}

static void report(FILE *errs, const char *file, const struct yaml_marks *m,
		   const char *path, const char *why)
{
	int line, column;

	yaml_marks_find(m, path, &line, &column);
	fprintf(errs, "%s:%d:%d: %s: %s\n", file, line, column, path, why);
}

static int check_provenance(jv manifest, const char *file, const char *root,
			    const struct yaml_marks *m, FILE *errs)
{
	jv prov = jv_object_get(jv_copy(manifest), jv_string("provenance"));
	char hex[SHA256_HEX_LEN + 1];
	struct pc_err e;
	int rc = 0;

	if (jv_get_kind(prov) == JV_KIND_OBJECT) {
		const char *source = json_str(prov, "source");
		const char *pinned = json_str(prov, "revision");
		char *full = io_join(root, source);
		if (!inside_repository(source)) {
			report(errs, file, m, "provenance.source",
			       "must be a path inside the repository (relative, no \"..\")");
			rc = -1;
		} else if (sha256_file_hex(full, hex, NULL, &e) != 0) {
			char *hint = catalog_root_hint(full, root);
			char *why = text_fmt("%s%s", e.msg, hint);
			report(errs, file, m, "provenance.source", why);
			free(why);
			free(hint);
			rc = -1;
		} else if (strcmp(hex, pinned)) {
			char *why = text_fmt(
				"source %s changed: its sha256 is %s, the manifest pins %s", source,
				hex, pinned);
			report(errs, file, m, "provenance.revision", why);
			free(why);
			rc = -1;
		}
		free(full);
	}
	jv_free(prov);
	return rc;
}

/* What a placeholder dataset.checksum should be (HACKING, "A workload":
 * pin what pc-select computes): "; the task directory DIR hashes to HEX",
 * or why it cannot be hashed; "" without a local task (malloc'd).  raw is
 * borrowed. */
static char *checksum_hint(jv raw, const char *root)
{
	jv dataset = json_get(raw, "dataset");
	const char *path = json_str(dataset, "path"), *task = json_str(dataset, "task_id");
	char hex[SHA256_HEX_LEN + 1], *hint;
	struct pc_err e;

	if (!path || !task) {
		jv_free(dataset);
		return pc_xstrdup("");
	}
	char *rel = io_join(path, task), *dir = io_join(root, rel);
	if (harbor_task_checksum(dir, hex, &e) == 0)
		hint = text_fmt("; the task directory %s hashes to %s: pin that", rel, hex);
	else
		hint = text_fmt("; the task directory cannot be hashed: %s", e.msg);
	free(rel);
	free(dir);
	jv_free(dataset);
	return hint;
}

/* The shape's error of raw (borrowed); one of dataset.checksum with the
 * checksum to pin. */
static void report_shape(FILE *errs, const char *file, const struct yaml_marks *m,
			 const struct shape_error *se, jv raw, const char *root)
{
	const char *path = se->path[0] ? se->path : "document";
	char *hint = strcmp(path, "dataset.checksum") ? pc_xstrdup("") : checksum_hint(raw, root);
	char *why = text_fmt("%s%s", se->why, hint);

	report(errs, file, m, path, why);
	free(why);
	free(hint);
}

/* Validate and normalize one manifest file into w. */
static int load_one(struct workload *w, const char *file, const char *root,
		    FILE *errs)
{
	struct yaml_marks marks;
	struct shape_error se = { { 0 }, { 0 } };
	struct pc_err e;
	jv raw;
	int rc;

	w->path = pc_xstrdup(file);
	w->manifest = jv_null();
	if (sha256_file_hex(file, w->sha256, NULL, &e) != 0 ||
	    yamldoc_load(file, &raw, &marks, &e) != 0) {
		fprintf(errs, "%s\n", e.msg);
		return -1;
	}
	yaml_marks_find(&marks, "dataset.checksum", &w->checksum_line, &w->checksum_column);
	yaml_marks_find(&marks, "dataset.path", &w->path_line, &w->path_column);
	rc = shape_normalize(&doc_manifest, raw, &w->manifest, &se);
	if (rc != 0)
		report_shape(errs, file, &marks, &se, raw, root);
	jv_free(raw);
	if (rc == 0) {
		jv dpath = jv_getpath(jv_copy(w->manifest),
				      JV_ARRAY(jv_string("dataset"), jv_string("path")));
		if (jv_get_kind(dpath) == JV_KIND_STRING) {
			if (!inside_repository(jv_string_value(dpath))) {
				report(errs, file, &marks, "dataset.path",
				       "must be a path inside the repository (relative, no \"..\")");
				rc = -1;
			}
			char *norm = normalize_path(jv_string_value(dpath));
			w->manifest = jv_setpath(w->manifest,
						 JV_ARRAY(jv_string("dataset"), jv_string("path")),
						 jv_string(norm));
			free(norm);
		}
		jv_free(dpath);
		if (check_provenance(w->manifest, file, root, &marks, errs) != 0)
			rc = -1;
	}
	yaml_marks_free(&marks);
	return rc;
}

static int check_unique_ids(const struct catalog *c, FILE *errs)
{
	int rc = 0;

	for (int i = 0; i < c->n; i++) {
		const char *id = json_str(c->items[i].manifest, "id");
		for (int j = 0; id && j < i; j++) {
			const char *other = json_str(c->items[j].manifest, "id");
			if (other && !strcmp(id, other)) {
				fprintf(errs,
					"%s: id: \"%s\" is already the id of %s; ids must be unique\n",
					c->items[i].path, id, c->items[j].path);
				rc = -1;
			}
		}
	}
	return rc;
}

int catalog_load(struct catalog *c, const char *path, const char *root,
		 FILE *errs)
{
	struct pc_err e;
	char **files;
	int n, rc = 0;

	c->items = NULL;
	c->n = 0;
	if (list_files(path, &files, &n, &e) != 0) {
		fprintf(errs, "%s\n", e.msg);
		for (int i = 0; i < n; i++)
			free(files[i]);
		free(files);
		return -1;
	}
	c->items = pc_xmalloc((size_t)n * sizeof *c->items);
	for (int i = 0; i < n; i++) {
		if (load_one(&c->items[c->n++], files[i], root, errs) != 0)
			rc = -1;
		free(files[i]);
	}
	free(files);
	if (check_unique_ids(c, errs) != 0)
		rc = -1;
	return rc;
}

char *catalog_root_hint(const char *path, const char *root)
{
	char top[PATH_MAX];

	if (access(path, F_OK) == 0 || errno != ENOENT)
		return pc_xstrdup("");
	return text_fmt(
		"; looked for under --root %s: pass --root DIR, where the manifest's paths start",
		realpath(root, top) ? top : root);
}

void catalog_free(struct catalog *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->items[i].path);
		jv_free(c->items[i].manifest);
	}
	free(c->items);
	c->items = NULL;
	c->n = 0;
}

/* Whether list (consumed) holds the string s. */
static int list_has(jv list, const char *s)
{
	int found = 0;

	jv_array_foreach(list, i, item) {
		found = found || !strcmp(jv_string_value(item), s);
		jv_free(item);
	}
	jv_free(list);
	return found;
}

/* ids and categories are borrowed. */
static int workload_in(const struct workload *w, jv ids, jv categories)
{
	jv cats = jv_object_get(jv_copy(w->manifest), jv_string("categories"));
	int hit = list_has(jv_copy(ids), json_str(w->manifest, "id"));

	jv_array_foreach(cats, i, cat) {
		hit = hit || list_has(jv_copy(categories), jv_string_value(cat));
		jv_free(cat);
	}
	jv_free(cats);
	return hit;
}

/* Names of wanted that match no workload (by id, or by category). */
static jv unknown(const struct catalog *c, jv wanted, int by_category)
{
	jv missing = jv_array();

	jv_array_foreach(wanted, i, name) {
		int found = 0;
		jv one = JV_ARRAY(jv_copy(name)), none = jv_array();
		for (int k = 0; k < c->n && !found; k++)
			found = by_category ? workload_in(&c->items[k], none, one)
					    : workload_in(&c->items[k], one, none);
		jv_free(one);
		jv_free(none);
		if (!found && !list_has(jv_copy(missing), jv_string_value(name)))
			missing = jv_array_append(missing, jv_copy(name));
		jv_free(name);
	}
	jv_free(wanted);
	return missing;
}

static void append_names(struct sbuf *b, const char *what, jv names)
{
	if (jv_array_length(jv_copy(names)) == 0) {
		jv_free(names);
		return;
	}
	if (b->len)
		sbuf_add(b, "; ");
	sbuf_addf(b, "unknown %s:", what);
	jv_array_foreach(names, i, name) {
		sbuf_addf(b, "%s \"%s\"", i ? "," : "", jv_string_value(name));
		jv_free(name);
	}
	jv_free(names);
}

int catalog_select(const struct catalog *c, jv ids, jv categories,
		   int *selected, struct pc_err *e)
{
	struct sbuf b = { 0 };
	jv cats = jv_copy(categories);

	append_names(&b, "workload ids", unknown(c, jv_copy(ids), 0));
	append_names(&b, "categories", unknown(c, jv_copy(categories), 1));
	if (b.len) {
		char *msg = sbuf_take(&b);
		pc_fail(e, "%s", msg);
		free(msg);
		jv_free(cats);
		return -1;
	}
	if (jv_array_length(jv_copy(ids)) == 0 && jv_array_length(jv_copy(cats)) == 0)
		cats = jv_array_append(cats, jv_string("acceptance"));
	for (int i = 0; i < c->n; i++)
		selected[i] = workload_in(&c->items[i], ids, cats);
	jv_free(cats);
	return 0;
}
