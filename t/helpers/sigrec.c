/*
 * sigrec FILE: stands in for a training process.  Writes "started" to
 * FILE.started, then records each SIGINT/SIGTERM it receives as a line
 * "SIGNAL SI_CODE" in FILE, and exits 128+signal half a second after the
 * first one (so that a second delivery would be seen too).  Never
 * signalled, it ends after MSPROF_T_WAIT_LIMIT seconds (SIGALRM), so that a
 * test that hangs leaves nothing behind.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static int log_fd = -1;
static volatile sig_atomic_t first;

static void
record(int sig, siginfo_t *info, void *ctx)
{
	char line[64];
	int n;

	(void)ctx;
	n = snprintf(line, sizeof(line), "%s %s\n", sig == SIGINT ? "INT" :
	    "TERM", info->si_code == SI_KERNEL ? "kernel" :
	    info->si_code == SI_USER ? "user" : "other");
	if (write(log_fd, line, (size_t)n) < 0)
		_exit(99);
	if (!first)
		first = sig;
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	struct timespec half = { 0, 500000000 };
	char started[4096];
	const char *limit = getenv("MSPROF_T_WAIT_LIMIT");

	if (argc != 2)
		return 2;
	alarm(limit != NULL ? (unsigned)atoi(limit) : 300);
	log_fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND, 0644);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = record;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	snprintf(started, sizeof(started), "%s.started", argv[1]);
	close(open(started, O_WRONLY | O_CREAT, 0644));
	while (!first)
		pause();
	while (nanosleep(&half, &half) == -1)
		;
	return 128 + first;
}
