/* The child process: start, signal forwarding, exit status. */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "util.h"

static volatile pid_t child = -1;
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

pid_t
run_start(char *const argv[], char *const envp[], int search)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) != 0)
		return pid;
	if (search)
		execvpe(argv[0], argv, envp);
	else
		execve(argv[0], argv, envp);
	fprintf(stderr, "msprof-exec: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
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
run_wait(pid_t pid)
{
	struct sigaction sa, old[sizeof(forwarded) / sizeof(*forwarded)];
	int status = 0;
	size_t i;

	child = pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaction(forwarded[i], &sa, &old[i]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	child = -1;
	for (i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaction(forwarded[i], &old[i], NULL);
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
