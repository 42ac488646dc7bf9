#include "io.h"

#include <errno.h>
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
	tn = strlen(path) + 16;
	tmp = pc_xmalloc(tn);
	snprintf(tmp, tn, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		rc = pc_fail_errno(e, "%s: cannot create", tmp);
	else {
		if (write_all(fd, data, len) != 0 || fsync(fd) != 0)
			rc = pc_fail_errno(e, "%s: write error", path);
		if (close(fd) != 0 && rc == 0)
			rc = pc_fail_errno(e, "%s: write error", path);
		if (rc == 0 && chmod(tmp, 0644) != 0)
			rc = pc_fail_errno(e, "%s: cannot set mode", tmp);
		if (rc == 0 && rename(tmp, path) != 0)
			rc = pc_fail_errno(e, "%s: cannot rename into place", path);
		if (rc != 0)
			unlink(tmp);
	}
	free(tmp);
	free(path);
	return rc;
}
