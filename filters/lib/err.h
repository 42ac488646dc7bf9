/* err: errors as values.
 *
 * A failing function fills a struct pc_err and returns -1; each caller on the
 * way up may prefix context ("file:line: ", "workload x: ").  Only main turns
 * an error into a message and an exit code.
 */
#ifndef PC_ERR_H
#define PC_ERR_H

#include <stddef.h>

#define PC_ERR_MAX 4096

struct pc_err {
	char msg[PC_ERR_MAX];
};

/* Set the message (printf format); always returns -1. */
int pc_fail(struct pc_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix the existing message with context; always returns -1. */
int pc_wrap(struct pc_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like pc_fail, with ": strerror(errno)" appended. */
int pc_fail_errno(struct pc_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Allocation that cannot fail silently: aborts the process on exhaustion. */
void *pc_xmalloc(size_t n);
void *pc_xrealloc(void *p, size_t n);
char *pc_xstrdup(const char *s);

#endif
