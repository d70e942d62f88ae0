/* The child process: start, output copy, signal forwarding, exit status. */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "common/outfile.h"
#include "common/util.h"

static volatile pid_t child = -1;
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

int
capture_open(struct capture *c, const char *log, const char *log2, char **why)
{
	const char *paths[2] = { log, log2 };
	struct outfile o;

	c->out[0] = c->out[1] = c->err[0] = c->err[1] = -1;
	c->logs[0] = c->logs[1] = -1;
	for (int i = 0; i < 2; i++) {
		if (paths[i] == NULL)
			continue;
		if (outfile_open(&o, paths[i], OUTFILE_STREAM, why) == -1)
			return -1;
		c->logs[i] = o.fd;	/* a stream: nothing to rename later */
		o.fd = -1;
		outfile_discard(&o);
	}
	if (pipe2(c->out, O_CLOEXEC) == -1 || pipe2(c->err, O_CLOEXEC) == -1) {
		*why = xasprintf("pipe: %s", strerror(errno));
		return -1;
	}
	return 0;
}

pid_t
run_start(const char *file, char *const argv[], char *const envp[],
    struct capture *c)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) != 0) {
		if (c != NULL) {
			close(c->out[1]);
			close(c->err[1]);
		}
		return pid;
	}
	if (c != NULL && (dup2(c->out[1], STDOUT_FILENO) == -1 ||
	    dup2(c->err[1], STDERR_FILENO) == -1))
		_exit(126);
	if (file == NULL)
		execvpe(argv[0], argv, envp);
	else
		execve(file, argv, envp);
	fprintf(stderr, "msprof-exec: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

static void
write_all(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (fd >= 0 && n > 0) {
		if ((w = write(fd, buf, n)) == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return;		/* a closed terminal: keep the log going */
		buf += w;
		n -= (size_t)w;
	}
}

/* Copy what is ready on FD to TO and the logs; 0 at end of file. */
static int
pump(struct capture *c, int fd, int to)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	write_all(to, buf, (size_t)n);
	write_all(c->logs[0], buf, (size_t)n);
	write_all(c->logs[1], buf, (size_t)n);
	return 1;
}

/*
 * Pass the output on until both pipes end.  Once the child has exited,
 * give a daemon it left behind with the pipes open a second, not forever.
 */
static void
pump_all(struct capture *c, pid_t pid, int *status)
{
	struct pollfd p[2] = { { c->out[0], POLLIN, 0 }, { c->err[0], POLLIN, 0 } };
	int open_fds = 2, exited = 0, idle = 0, r;

	while (open_fds > 0 && idle < 10) {
		r = poll(p, 2, 100);
		if (!exited && waitpid(pid, status, WNOHANG) == pid) {
			exited = 1;
			child = -1;	/* its pid may be reused now */
		}
		if (r <= 0) {
			idle += exited;
			continue;
		}
		for (int i = 0; i < 2; i++)
			if (p[i].revents != 0 && !pump(c, p[i].fd, i + 1)) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
			}
	}
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	if (!exited)
		while (waitpid(pid, status, 0) == -1 && errno == EINTR)
			;
}

/*
 * A signal from the terminal (si_code SI_KERNEL) went to the whole
 * foreground process group, the training included: passing it on would
 * deliver it twice.  One sent to msprof-exec alone (kill, a scheduler) is
 * passed on.
 */
static void
forward(int sig, siginfo_t *info, void *ctx)
{
	int saved = errno;

	(void)ctx;
	if (child > 0 && info->si_code != SI_KERNEL)
		kill(child, sig);
	errno = saved;
}

int
run_wait(pid_t pid, struct capture *c)
{
	struct sigaction sa, old[sizeof(forwarded) / sizeof(*forwarded)], pipe_old;
	int status = 0;
	size_t i;

	child = pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaction(forwarded[i], &sa, &old[i]);
	/* A closed terminal must not kill us while the log is written. */
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, &pipe_old);
	if (c != NULL)
		pump_all(c, pid, &status);
	else
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
	child = -1;
	for (i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaction(forwarded[i], &old[i], NULL);
	sigaction(SIGPIPE, &pipe_old, NULL);
	return status;
}

void
run_exit_like(int status)
{
	struct rlimit none = { 0, 0 };
	sigset_t set;
	int sig;

	fflush(NULL);
	if (!WIFSIGNALED(status))
		exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	sig = WTERMSIG(status);
	setrlimit(RLIMIT_CORE, &none);	/* the child's core is the one */
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	exit(128 + sig);		/* a signal whose default is ignore */
}
