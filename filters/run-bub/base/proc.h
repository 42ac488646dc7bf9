/* proc: child processes in their own process group.
 *
 * The agent and the verifier run as process-group leaders so a timeout, a
 * crash or a hang is ended by killing the whole group, never just the shell
 * or launcher at its top.  stdin/stdout are pipes to the caller; stderr goes
 * to a file, or to a pipe the caller drains (PROC_STDERR_PIPE).  A stop
 * request (SIGINT, SIGTERM, SIGHUP, once caught) ends every wait early.
 */
#ifndef PC_PROC_H
#define PC_PROC_H

#include <sys/types.h>

#include "err.h"

struct proc {
	pid_t pid;
	int in_fd;  /* write end of the child's stdin, or -1 */
	int out_fd; /* read end of the child's stdout, or -1 */
	int err_fd; /* read end of the child's stderr (PROC_STDERR_PIPE), or -1 */
	int exited, status;
};

/* proc_spawn's flags. */
enum {
	PROC_PIPES = 1,       /* stdin and stdout are pipes to the caller */
	PROC_STDERR_PIPE = 2, /* stderr is a pipe (err_fd) for the caller to drain */
};

/* Spawn argv[0] (PATH search) with env (NULL = inherit), cwd (NULL = same),
 * stderr appended to stderr_path (NULL = inherit) unless PROC_STDERR_PIPE;
 * without PROC_PIPES stdin is /dev/null and stdout goes where stderr goes. */
int proc_spawn(struct proc *p, char *const argv[], char *const env[],
	       const char *cwd, const char *stderr_path, int flags,
	       struct pc_err *e);

/* Wait up to timeout_ms (-1 forever) for exit; 1 exited, 0 still running
 * (also returned at once after a stop request, see proc_catch_stop). */
int proc_wait(struct proc *p, long timeout_ms);

/* Stop requests for a filter that finishes what it is doing before it
 * exits: proc_catch_stop() catches SIGINT, SIGTERM and SIGHUP (no
 * SA_RESTART, but every wait here polls), proc_stop_signal() is the first one
 * caught, or 0.  The only
 * state this module keeps is that signal number. */
void proc_catch_stop(void);
int proc_stop_signal(void);
const char *proc_stop_name(void); /* "SIGTERM", …: the one caught */

/* SIGTERM the group, then SIGKILL after grace_ms; always reaps. */
void proc_kill(struct proc *p, long grace_ms);
/* The same with another first signal (SIGINT: a Python child's cancellation). */
void proc_signal(struct proc *p, int sig, long grace_ms);

/* End what is left of session sid (a process that called setsid, since
 * ended): SIGTERM its process groups, SIGKILL after grace_ms, and return
 * once none of its processes runs; the caller's children among them (a
 * child subreaper's orphans) are reaped. */
void proc_end_session(pid_t sid, long grace_ms);

/* Close the pipes (idempotent). */
void proc_close(struct proc *p);

/* A wait status as a shell reports it: the exit code, or 128 + signal. */
int proc_exit_code(int status);

/* Human text of a wait status: "exit 3", "signal 9 (Killed)". */
void proc_describe(int status, char *buf, size_t len);

/* Milliseconds on a monotonic clock. */
long long proc_now_ms(void);

#endif
