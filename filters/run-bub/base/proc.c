#include "base/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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
		       const char *stderr_path, int flags, int in[2], int out[2], int err[2])
{
	int pipes = flags & PROC_PIPES;

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
	if (flags & PROC_STDERR_PIPE) {
		dup2(err[1], 2);
		if (!pipes)
			dup2(err[1], 1);
		close(err[0]);
		close(err[1]);
	} else if (stderr_path) {
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

static void close_pipes(int in[2], int out[2], int err[2])
{
	int *fds[] = { in, out, err };

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			if (fds[i][j] >= 0)
				close(fds[i][j]);
}

int proc_spawn(struct proc *p, char *const argv[], char *const env[],
	       const char *cwd, const char *stderr_path, int flags,
	       struct pc_err *e)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int pipes = flags & PROC_PIPES;

	memset(p, 0, sizeof *p);
	p->in_fd = p->out_fd = p->err_fd = -1;
	if ((pipes && (pipe(in) != 0 || pipe(out) != 0)) ||
	    ((flags & PROC_STDERR_PIPE) && pipe(err) != 0)) {
		pc_fail_errno(e, "cannot create pipes for %s", argv[0]);
		close_pipes(in, out, err);
		return -1;
	}
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0) {
		pc_fail_errno(e, "cannot start %s", argv[0]);
		close_pipes(in, out, err);
		return -1;
	}
	if (p->pid == 0)
		exec_child(argv, env, cwd, stderr_path, flags, in, out, err);
	setpgid(p->pid, p->pid); /* also here: no race with an early kill */
	if (pipes) {
		close(in[0]);
		close(out[1]);
		p->in_fd = in[1];
		p->out_fd = out[0];
		fcntl(p->in_fd, F_SETFD, FD_CLOEXEC);
		fcntl(p->out_fd, F_SETFD, FD_CLOEXEC);
	}
	if (flags & PROC_STDERR_PIPE) {
		close(err[1]);
		p->err_fd = err[0];
		fcntl(p->err_fd, F_SETFD, FD_CLOEXEC);
		fcntl(p->err_fd, F_SETFL, O_NONBLOCK);
	}
	return 0;
}

/* Set once, by the handler, to the first stop signal caught. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

void proc_catch_stop(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	/* restarted, so the record being written is not cut short; the waits
	 * that must notice the stop poll, and poll and nanosleep are never
	 * restarted */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}

int proc_stop_signal(void)
{
	return stop_signal;
}

const char *proc_stop_name(void)
{
	switch (stop_signal) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "no signal";
	}
}

/* Polls when it has a deadline or may be stopped, so neither is missed. */
static int wait_exit(struct proc *p, long timeout_ms, int stoppable)
{
	long long deadline = proc_now_ms() + timeout_ms;
	int polling = timeout_ms >= 0 || stoppable;

	while (!p->exited) {
		pid_t r = waitpid(p->pid, &p->status, polling ? WNOHANG : 0);
		if (r == p->pid) {
			p->exited = 1;
			break;
		}
		if (r < 0 && errno != EINTR) {
			p->exited = 1;
			p->status = 0;
			break;
		}
		if ((stoppable && stop_signal) || (timeout_ms >= 0 && proc_now_ms() >= deadline))
			return 0;
		if (polling) {
			struct timespec pause = { 0, 10 * 1000 * 1000 };
			nanosleep(&pause, NULL);
		}
	}
	return 1;
}

int proc_wait(struct proc *p, long timeout_ms)
{
	return wait_exit(p, timeout_ms, 1);
}

/* The grace period is the child's even after a stop request. */
void proc_signal(struct proc *p, int sig, long grace_ms)
{
	if (p->pid <= 0)
		return;
	kill(-p->pid, sig);
	if (!wait_exit(p, grace_ms, 0)) {
		kill(-p->pid, SIGKILL);
		wait_exit(p, -1, 0);
	}
	kill(-p->pid, SIGKILL); /* stragglers that left the leader behind */
}

void proc_kill(struct proc *p, long grace_ms)
{
	proc_signal(p, SIGTERM, grace_ms);
}

/* Sends sig (0: none) to the process group of every live process of session
 * sid, reaping the caller's children among its dead; how many live ones. */
static int signal_session(pid_t sid, int sig)
{
	DIR *d = opendir("/proc");
	int live = 0;

	if (!d)
		return 0;
	for (struct dirent *de; (de = readdir(d));) {
		char path[64], stat[512], state;
		int pid = atoi(de->d_name), ppid, pgrp, session;
		FILE *f;
		if (pid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		if (!(f = fopen(path, "re")))
			continue;
		size_t got = fread(stat, 1, sizeof stat - 1, f);
		fclose(f);
		stat[got] = '\0';
		/* the command name, in parentheses, may hold anything but its end */
		char *end = strrchr(stat, ')');
		if (!end || sscanf(end + 1, " %c %d %d %d", &state, &ppid, &pgrp, &session) != 4 ||
		    session != sid)
			continue;
		if (state == 'Z' || state == 'X') {
			if (ppid == getpid())
				waitpid(pid, NULL, WNOHANG);
			continue;
		}
		live++;
		if (sig)
			kill(-pgrp, sig);
	}
	closedir(d);
	return live;
}

void proc_end_session(pid_t sid, long grace_ms)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	long long deadline = proc_now_ms() + grace_ms;

	if (!signal_session(sid, SIGTERM))
		return;
	while (signal_session(sid, 0) && proc_now_ms() < deadline)
		nanosleep(&pause, NULL);
	while (signal_session(sid, SIGKILL))
		nanosleep(&pause, NULL);
}

void proc_close(struct proc *p)
{
	if (p->in_fd >= 0)
		close(p->in_fd);
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	p->in_fd = p->out_fd = p->err_fd = -1;
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
