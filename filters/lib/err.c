#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pc_fail(struct pc_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* Truncating concatenation: messages are diagnostics, losing a tail is fine. */
static void join(char *dst, size_t cap, const char *a, const char *b)
{
	size_t na = strnlen(a, cap - 1), nb = strnlen(b, cap - 1 - na);

	memmove(dst + na, b, nb);
	memmove(dst, a, na);
	dst[na + nb] = '\0';
}

int pc_wrap(struct pc_err *e, const char *fmt, ...)
{
	char prefix[PC_ERR_MAX], old[PC_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	join(e->msg, sizeof e->msg, prefix, old);
	return -1;
}

int pc_fail_errno(struct pc_err *e, const char *fmt, ...)
{
	int saved = errno;
	char text[PC_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text - 2, fmt, ap);
	va_end(ap);
	strcat(text, ": ");
	join(e->msg, sizeof e->msg, text, strerror(saved));
	return -1;
}

static void *checked(void *p)
{
	if (!p) {
		fputs("fatal: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *pc_xmalloc(size_t n)
{
	return checked(malloc(n ? n : 1));
}

void *pc_xrealloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1));
}

char *pc_xstrdup(const char *s)
{
	return checked(strdup(s));
}
