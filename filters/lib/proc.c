#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

long long proc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* In the child: never returns. */
static void exec_child(char *const argv[], char *const env[], const char *cwd,
		       const char *stderr_path, int pipes, int in[2], int out[2])
{
	setpgid(0, 0);
	if (pipes) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
	} else {
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
	}
	if (stderr_path) {
		int fd = open(stderr_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 2);
			if (!pipes)
				dup2(fd, 1);
			close(fd);
		}
	}
	if (cwd && chdir(cwd) != 0) {
		fprintf(stderr, "cannot enter %s: %s\n", cwd, strerror(errno));
		_exit(127);
	}
	signal(SIGPIPE, SIG_DFL);
	if (env)
		environ = (char **)env;
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int proc_spawn(struct proc *p, char *const argv[], char *const env[],
	       const char *cwd, const char *stderr_path, int pipes,
	       struct pc_err *e)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };

	memset(p, 0, sizeof *p);
	p->in_fd = p->out_fd = -1;
	if (pipes && (pipe(in) != 0 || pipe(out) != 0))
		return pc_fail_errno(e, "cannot create pipes for %s", argv[0]);
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0)
		return pc_fail_errno(e, "cannot start %s", argv[0]);
	if (p->pid == 0)
		exec_child(argv, env, cwd, stderr_path, pipes, in, out);
	setpgid(p->pid, p->pid); /* also here: no race with an early kill */
	if (pipes) {
		close(in[0]);
		close(out[1]);
		p->in_fd = in[1];
		p->out_fd = out[0];
		fcntl(p->in_fd, F_SETFD, FD_CLOEXEC);
		fcntl(p->out_fd, F_SETFD, FD_CLOEXEC);
	}
	return 0;
}

int proc_wait(struct proc *p, long timeout_ms)
{
	long long deadline = proc_now_ms() + timeout_ms;

	while (!p->exited) {
		pid_t r = waitpid(p->pid, &p->status, timeout_ms < 0 ? 0 : WNOHANG);
		if (r == p->pid) {
			p->exited = 1;
			break;
		}
		if (r < 0 && errno != EINTR) {
			p->exited = 1;
			p->status = 0;
			break;
		}
		if (timeout_ms >= 0 && proc_now_ms() >= deadline)
			return 0;
		if (timeout_ms >= 0) {
			struct timespec pause = { 0, 10 * 1000 * 1000 };
			nanosleep(&pause, NULL);
		}
	}
	return 1;
}

void proc_kill(struct proc *p, long grace_ms)
{
	if (p->pid <= 0)
		return;
	kill(-p->pid, SIGTERM);
	if (!proc_wait(p, grace_ms)) {
		kill(-p->pid, SIGKILL);
		proc_wait(p, -1);
	}
	kill(-p->pid, SIGKILL); /* stragglers that left the leader behind */
}

void proc_close(struct proc *p)
{
	if (p->in_fd >= 0)
		close(p->in_fd);
	if (p->out_fd >= 0)
		close(p->out_fd);
	p->in_fd = p->out_fd = -1;
}

void proc_describe(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "status %d", status);
}

int proc_exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
