/* O_TMPFILE */
#define _GNU_SOURCE
#include "io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *io_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = pc_xmalloc(n);

	snprintf(p, n, "%s/%s", a, b);
	return p;
}

int io_mkdirs(const char *dir, struct pc_err *e)
{
	char *p = pc_xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; rc == 0; s++) {
		int end = *s == '\0';
		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			rc = pc_fail_errno(e, "%s: cannot create directory", p);
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return rc;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The file is written unnamed (O_TMPFILE) and only given a temporary name
 * once complete, just before the rename: a process killed while writing
 * leaves nothing behind.  Where the file system has no O_TMPFILE, a named
 * temporary file is written instead. */
int io_write_artifact(const char *dir, const char *name, const char *data,
		      size_t len, struct pc_err *e)
{
	char *path = io_join(dir, name), *tmp;
	size_t tn;
	int fd, rc = 0;

	if (io_mkdirs(dir, e) != 0) {
		free(path);
		return -1;
	}
	tn = strlen(path) + 32;
	tmp = pc_xmalloc(tn);
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	int unnamed = fd >= 0;
	if (unnamed)
		snprintf(tmp, tn, "%s.tmp.%ld.%d", path, (long)getpid(), fd);
	else {
		snprintf(tmp, tn, "%s.tmp.XXXXXX", path);
		fd = mkstemp(tmp);
	}
	if (fd < 0)
		rc = pc_fail_errno(e, "%s: cannot create", tmp);
	else {
		if (write_all(fd, data, len) != 0 || fsync(fd) != 0)
			rc = pc_fail_errno(e, "%s: write error", path);
		if (rc == 0 && fchmod(fd, 0644) != 0)
			rc = pc_fail_errno(e, "%s: cannot set mode", tmp);
		if (rc == 0 && unnamed) {
			char proc[64];
			snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
			if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) != 0)
				rc = pc_fail_errno(e, "%s: cannot create", tmp);
		}
		if (close(fd) != 0 && rc == 0)
			rc = pc_fail_errno(e, "%s: write error", path);
		if (rc == 0 && rename(tmp, path) != 0)
			rc = pc_fail_errno(e, "%s: cannot rename into place", path);
		if (rc != 0)
			unlink(tmp);
	}
	free(tmp);
	free(path);
	return rc;
}

static int wanted(const char *const *names, const char *name)
{
	if (!names)
		return 1;
	for (; *names; names++)
		if (!strcmp(*names, name))
			return 1;
	return 0;
}

static void walk(const char *root, const char *rel, const char *const *names,
		 int depth, jv *found)
{
	char *dir = *rel ? io_join(root, rel) : pc_xstrdup(root);
	DIR *dp = opendir(dir);
	struct dirent *d;

	while (dp && depth < 64 && (d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		char *child = *rel ? io_join(rel, d->d_name) : pc_xstrdup(d->d_name);
		char *full = io_join(root, child);
		struct stat st;
		if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
			walk(root, child, names, depth + 1, found);
		else if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && wanted(names, d->d_name))
			*found = jv_array_append(*found, jv_string(child));
		free(full);
		free(child);
	}
	if (dp)
		closedir(dp);
	free(dir);
}

/* Path order by parts: '/' sorts before every other character. */
static int path_cmp(const void *a, const void *b)
{
	const unsigned char *x = *(const unsigned char *const *)a;
	const unsigned char *y = *(const unsigned char *const *)b;

	for (; *x && *x == *y; x++, y++)
		;
	int cx = *x == '/' ? 1 : (*x ? *x + 1 : 0);
	int cy = *y == '/' ? 1 : (*y ? *y + 1 : 0);
	return cx - cy;
}

jv io_find_files(const char *root, const char *const *names)
{
	jv found = jv_array(), sorted = jv_array();
	int n;

	walk(root, "", names, 0, &found);
	n = jv_array_length(jv_copy(found));
	const char **v = pc_xmalloc((size_t)n * sizeof *v);
	for (int i = 0; i < n; i++) {
		jv s = jv_array_get(jv_copy(found), i);
		v[i] = jv_string_value(s); /* kept alive by found */
		jv_free(s);
	}
	qsort(v, (size_t)n, sizeof *v, path_cmp);
	for (int i = 0; i < n; i++)
		sorted = jv_array_append(sorted, jv_string(v[i]));
	free(v);
	jv_free(found);
	return sorted;
}

int io_read_text(const char *path, char **out, size_t *len, struct pc_err *e)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 8192, n = 0, got;
	char *buf;

	if (!f)
		return pc_fail_errno(e, "%s: cannot open", path);
	buf = pc_xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0)
		if ((n += got) == cap - 1)
			buf = pc_xrealloc(buf, cap *= 2);
	int failed = ferror(f);
	fclose(f);
	if (failed) {
		free(buf);
		return pc_fail_errno(e, "%s: cannot read", path);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

const char *io_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

static int copy_file(const char *from, const char *to, struct pc_err *e)
{
	struct stat st;
	char *data = NULL;
	size_t len;
	int rc = io_read_text(from, &data, &len, e);

	if (rc == 0 && stat(from, &st) != 0)
		rc = pc_fail_errno(e, "%s", from);
	if (rc == 0) {
		char *dir = pc_xstrdup(to), *slash = strrchr(dir, '/');
		*slash = '\0';
		rc = io_write_artifact(dir, slash + 1, data, len, e);
		if (rc == 0 && chmod(to, st.st_mode & 07777) != 0)
			rc = pc_fail_errno(e, "%s: cannot set its mode", to);
		free(dir);
	}
	free(data);
	return rc;
}

int io_copy_tree(const char *src, const char *dst, struct pc_err *e)
{
	jv files = io_find_files(src, NULL);
	int rc = 0;

	jv_array_foreach(files, i, rel) {
		char *from = io_join(src, jv_string_value(rel));
		char *to = io_join(dst, jv_string_value(rel));
		if (rc == 0)
			rc = copy_file(from, to, e);
		free(from);
		free(to);
		jv_free(rel);
	}
	jv_free(files);
	return rc;
}
