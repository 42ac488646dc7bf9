/* proc: child processes in their own process group.
 *
 * The agent and the verifier run as process-group leaders so a timeout, a
 * crash or a hang is ended by killing the whole group, never just the shell
 * or launcher at its top.  stdin/stdout are pipes to the caller; stderr goes
 * to a file so a chatty child can never block on a full pipe.
 */
#ifndef PC_PROC_H
#define PC_PROC_H

#include <sys/types.h>

#include "err.h"

struct proc {
	pid_t pid;
	int in_fd;  /* write end of the child's stdin, or -1 */
	int out_fd; /* read end of the child's stdout, or -1 */
	int exited, status;
};

/* Spawn argv[0] (PATH search) with env (NULL = inherit), cwd (NULL = same),
 * stderr appended to stderr_path (NULL = inherit).  pipes: whether to
 * connect stdin/stdout; otherwise stdout also goes to stderr_path. */
int proc_spawn(struct proc *p, char *const argv[], char *const env[],
	       const char *cwd, const char *stderr_path, int pipes,
	       struct pc_err *e);

/* Wait up to timeout_ms (-1 forever) for exit; 1 exited, 0 still running. */
int proc_wait(struct proc *p, long timeout_ms);

/* SIGTERM the group, then SIGKILL after grace_ms; always reaps. */
void proc_kill(struct proc *p, long grace_ms);

/* Close the pipes (idempotent). */
void proc_close(struct proc *p);

/* A wait status as a shell reports it: the exit code, or 128 + signal. */
int proc_exit_code(int status);

/* Human text of a wait status: "exit 3", "signal 9 (Killed)". */
void proc_describe(int status, char *buf, size_t len);

/* Milliseconds on a monotonic clock. */
long long proc_now_ms(void);

#endif
