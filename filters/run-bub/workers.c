#include "workers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/proc.h"
#include "text.h"

struct worker {
	pid_t pid;       /* 0: a free slot */
	int fd;          /* the read end of its stdout */
	int owed;        /* the next workload whose record it owes, or n */
	struct sbuf buf; /* the start of a record line */
};

struct pool {
	const struct workers *j;
	struct worker *w; /* j->max slots */
	int running;
	char **lines; /* per workload: its record line, until written */
	int written;  /* the workloads before this one are written (or never will be) */
	int halted;   /* stdout failed: nothing more is written or started */
	int forwarded;
};

/* The next workload of unit after workload i, or n. */
static int next_in_unit(const struct workers *j, int unit, int i)
{
	while (++i < j->n && j->unit_of[i] != unit)
		;
	return i;
}

/* The records of the workloads a worker owed from i on: i failed with why,
 * the rest of its batch skipped, unless a stop means they were never to run. */
static void settle(struct pool *p, int i, const char *why)
{
	const struct workers *j = p->j;
	int unit = j->unit_of[i];

	p->lines[i] = j->unwritten(j->ctx, i, why);
	for (i = next_in_unit(j, unit, i); i < j->n && !proc_stop_signal();
	     i = next_in_unit(j, unit, i))
		p->lines[i] = j->unwritten(j->ctx, i, NULL);
}

/* Every complete line w has written is the record of the workload it owes. */
static void collect(struct pool *p, struct worker *w)
{
	char chunk[65536];
	ssize_t got;

	while ((got = read(w->fd, chunk, sizeof chunk)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		sbuf_addn(&w->buf, chunk, (size_t)got);
	}
	if (!w->buf.len)
		return;
	size_t used = 0;
	for (char *nl; (nl = memchr(w->buf.s + used, '\n', w->buf.len - used));
	     used = (size_t)(nl + 1 - w->buf.s)) {
		if (w->owed >= p->j->n)
			continue;
		size_t len = (size_t)(nl + 1 - w->buf.s) - used;
		char *line = pc_xmalloc(len + 1);
		memcpy(line, w->buf.s + used, len);
		line[len] = '\0';
		p->lines[w->owed] = line;
		w->owed = next_in_unit(p->j, p->j->unit_of[w->owed], w->owed);
	}
	memmove(w->buf.s, w->buf.s + used, w->buf.len - used);
	w->buf.len -= used;
}

/* Whether a worker ended as a stop asked: its workload's record written,
 * the rest of its unit not run.  Its stop may be another than the parent's
 * (SIGINT sent to it, SIGTERM to the parent), and its exit says which. */
static int stopped_cleanly(int status)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

	return proc_stop_signal() &&
	       (code == 0 || code == 128 + SIGINT || code == 128 + SIGTERM || code == 128 + SIGHUP);
}

static void release(struct worker *w)
{
	close(w->fd);
	free(w->buf.s);
	memset(w, 0, sizeof *w);
}

/* A worker that has ended: what it wrote, and the records it still owed.
 * What it started and left behind (all of it, if it was killed) is ended
 * too: its session, with the grace period a child gets after SIGTERM. */
static void reap(struct pool *p, struct worker *w)
{
	int status;

	if (waitpid(w->pid, &status, WNOHANG) != w->pid)
		return;
	proc_end_session(w->pid, 2000);
	collect(p, w);
	int owed = w->owed;
	release(w);
	p->running--;
	if (owed < p->j->n && !p->halted && !stopped_cleanly(status)) {
		char how[64];
		proc_describe(status, how, sizeof how);
		char *why = text_fmt(
			"the %s worker process running this workload ended (%s) before writing its record",
			p->j->prog, how);
		settle(p, owed, why);
		free(why);
	}
}

static void signal_workers(struct pool *p, int sig)
{
	for (int k = 0; k < p->j->max; k++)
		if (p->w[k].pid)
			kill(p->w[k].pid, sig);
}

/* The record lines that are next in selection order; with all, past the
 * gaps a stop leaves too. */
static int flush(struct pool *p, int all, struct pc_err *e)
{
	for (; p->written < p->j->n; p->written++) {
		char *line = p->lines[p->written];
		if (!line && !all)
			break;
		if (!line)
			continue;
		fputs(line, stdout);
		free(line);
		p->lines[p->written] = NULL;
		if (fflush(stdout) != 0 || ferror(stdout))
			return pc_fail_errno(e, "write error");
	}
	return 0;
}

/* Frees what the pool holds: the parent's at the end, a new worker's copy
 * at its start. */
static void pool_free(struct pool *p)
{
	for (int k = 0; k < p->j->max; k++)
		if (p->w[k].pid)
			release(&p->w[k]);
	for (int i = 0; i < p->j->n; i++)
		free(p->lines[i]);
	free(p->lines);
	free(p->w);
}

/* Forks the worker of unit into w: 1 in the worker, 0 in the parent. */
static int start(struct pool *p, struct worker *w, int unit)
{
	int fds[2];
	pid_t pid = -1;
	struct pc_err e;

	fflush(NULL);
	if (pipe(fds) != 0)
		pc_fail_errno(&e,
			      "%s cannot make the pipe of a worker process for this workload",
			      p->j->prog);
	else if ((pid = fork()) < 0) {
		pc_fail_errno(&e, "%s cannot start a worker process for this workload",
			      p->j->prog);
		close(fds[0]);
		close(fds[1]);
	}
	if (pid < 0) {
		settle(p, unit, e.msg);
		return 0;
	}
	if (pid == 0) {
		/* its session holds all it starts, for the parent to end if it dies */
		setsid();
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[1]);
		pool_free(p);
		return 1;
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	*w = (struct worker){ .pid = pid, .fd = fds[0], .owed = unit };
	p->running++;
	return 0;
}

/* Until a worker writes or ends, a stop request comes, or a moment passes
 * (a worker's end is seen by waitpid, not by its pipe, which what it
 * started may still hold open). */
static void wait_workers(struct pool *p)
{
	struct pollfd fds[p->j->max];
	int n = 0;

	for (int k = 0; k < p->j->max; k++)
		if (p->w[k].pid)
			fds[n++] = (struct pollfd){ .fd = p->w[k].fd, .events = POLLIN };
	poll(fds, (nfds_t)n, 100);
}

int workers_run(const struct workers *j, int *worker, struct pc_err *e)
{
	struct pool p = { .j = j };
	int next = 0, rc = 0;

	*worker = 0;
	/* a reader gone is a write error to stop the workers on, not a death
	 * that would leave them running */
	signal(SIGPIPE, SIG_IGN);
	/* a dead worker's orphans come here, to be ended and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	p.w = pc_xmalloc((size_t)j->max * sizeof *p.w);
	memset(p.w, 0, (size_t)j->max * sizeof *p.w);
	p.lines = pc_xmalloc((size_t)j->n * sizeof *p.lines);
	memset(p.lines, 0, (size_t)j->n * sizeof *p.lines);
	for (;;) {
		for (int k = 0; k < j->max && next < j->n && !p.halted && !proc_stop_signal();
		     k++) {
			if (p.w[k].pid)
				continue;
			while (next < j->n && j->unit_of[next] != next)
				next++;
			if (next < j->n && start(&p, &p.w[k], next++)) {
				*worker = 1;
				return j->run_unit(j->ctx, next - 1);
			}
		}
		if (!p.running)
			break;
		if (proc_stop_signal() && !p.forwarded) {
			signal_workers(&p, proc_stop_signal());
			p.forwarded = 1;
		}
		wait_workers(&p);
		for (int k = 0; k < j->max; k++)
			if (p.w[k].pid) {
				collect(&p, &p.w[k]);
				reap(&p, &p.w[k]);
			}
		if (!p.halted && flush(&p, 0, e) != 0) {
			/* nobody reads the records: end the workers' runs as a stop does */
			p.halted = 1;
			rc = -1;
			signal_workers(&p, SIGTERM);
		}
	}
	if (!p.halted && flush(&p, 1, e) != 0)
		rc = -1;
	pool_free(&p);
	return rc;
}
