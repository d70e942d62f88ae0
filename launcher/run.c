/*
 * The job: start the command, copy its output, pass signals on to it,
 * wait until every process of it is gone, exit as it did.
 *
 * msprof-exec is the job's subreaper: a process whose parent dies is
 * re-parented to msprof-exec, not to init, so it is still seen and
 * waited for.  Without a controlling terminal (a batch job, a container,
 * a scheduler) the command runs in a process group of its own, and a
 * signal sent to msprof-exec goes to that group, as a terminal's Ctrl-C
 * would.  With a terminal the command shares msprof-exec's group, so
 * that Ctrl-C, job control (fg, bg) and reading the terminal work as
 * without msprof-exec; a signal from the terminal then already reached
 * the job, and one sent to msprof-exec alone goes to the job's processes
 * in the group.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "common/outfile.h"
#include "procs.h"
#include "common/util.h"

#define NFORWARDED	4
static const int forwarded[NFORWARDED] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction saved[NFORWARDED];
static sigset_t saved_mask;

/* Set by the handler: 1 sent by a process, 2 by the terminal. */
static volatile sig_atomic_t pending[NFORWARDED];
static volatile sig_atomic_t last_signal;

static pid_t group = -1;	/* the command's own process group, or -1 */
static int hup_ignored;		/* msprof-exec itself runs under nohup */

/*
 * The processes that ignored SIGHUP when msprof-exec first passed a
 * signal on (nohup'd before it): after that, a process that ignores
 * SIGHUP may only be shutting down (a launcher may ignore further signals
 * while it stops its workers), and it is waited for.
 */
static pid_t *nohup_pids;
static size_t nohup_n;
static int signalled;

static void
note_nohup(void)
{
	struct proc *p;
	size_t n = procs_below(getpid(), &p);

	for (size_t i = 0; i < n; i++)
		if (proc_ignores(p[i].pid, SIGHUP)) {
			nohup_pids = xreallocarray(nohup_pids, nohup_n + 1,
			    sizeof(*nohup_pids));
			nohup_pids[nohup_n++] = p[i].pid;
		}
	free(p);
}

/* Did PID ignore SIGHUP before the job was sent a signal? */
static int
nohup_before(pid_t pid)
{
	if (!signalled)
		return proc_ignores(pid, SIGHUP);
	for (size_t i = 0; i < nohup_n; i++)
		if (nohup_pids[i] == pid)
			return 1;
	return 0;
}

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

/* Only note it: the main loop passes it on (nothing here may allocate). */
static void
note(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	for (int i = 0; i < NFORWARDED; i++)
		if (forwarded[i] == sig)
			pending[i] |= info->si_code == SI_KERNEL ? 2 : 1;
	last_signal = sig;
}

/* Has msprof-exec a controlling terminal (in the foreground or not)? */
static int
has_terminal(void)
{
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);

	if (fd == -1)
		return 0;
	close(fd);
	return 1;
}

pid_t
run_start(const char *file, char *const argv[], char *const envp[],
    struct capture *c)
{
	struct sigaction sa;
	sigset_t block;
	int own = !has_terminal();
	pid_t pid;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* no signal may fall between the fork and the handlers */
	sigemptyset(&block);
	for (int i = 0; i < NFORWARDED; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &saved_mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = note;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NFORWARDED; i++) {
		sigaction(forwarded[i], NULL, &saved[i]);
		/* one ignored (nohup, a background job of a script) stays so,
		 * for msprof-exec and the job, as without msprof-exec */
		if (saved[i].sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
		else if (forwarded[i] == SIGHUP)
			hup_ignored = 1;
	}
	fflush(NULL);
	if ((pid = fork()) != 0) {
		/* both set the group: whichever runs first (the child may
		 * have exec'd already, and then the parent cannot) */
		if (pid > 0 && own) {
			setpgid(pid, pid);
			group = pid;
		}
		if (c != NULL) {
			close(c->out[1]);
			close(c->err[1]);
		}
		sigprocmask(SIG_SETMASK, &saved_mask, NULL);
		return pid;
	}
	for (int i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &saved[i], NULL);
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
	if (own)
		setpgid(0, 0);
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

/* Copy whatever is ready; the number of pipes still open. */
static int
pump_ready(struct capture *c, struct pollfd p[2])
{
	int open_fds = 0;

	for (int i = 0; i < 2; i++) {
		if (p[i].fd >= 0 && p[i].revents != 0 &&
		    !pump(c, p[i].fd, i + 1)) {
			close(p[i].fd);
			p[i].fd = -1;
		}
		open_fds += p[i].fd >= 0;
	}
	return open_fds;
}

/*
 * Pass SIG on as it would reach the job without msprof-exec: to the
 * command's process group; with a terminal (the group is msprof-exec's),
 * a signal from the terminal reached it already, one sent to msprof-exec
 * alone goes to each process of the job in the group.
 */
static void
pass_on(int sig, int from_terminal)
{
	struct proc *p;
	size_t n;

	if (group > 0) {
		kill(-group, sig);
		return;
	}
	if (from_terminal)
		return;
	n = procs_below(getpid(), &p);
	for (size_t i = 0; i < n; i++)
		if (p[i].pgrp == getpgrp())
			kill(p[i].pid, sig);
	free(p);
}

static void
pass_pending(void)
{
	int how;

	for (int i = 0; i < NFORWARDED; i++)
		if ((how = pending[i]) != 0) {
			pending[i] = 0;
			if (!signalled && !hup_ignored)
				note_nohup();
			signalled = 1;
			pass_on(forwarded[i], how == 2);
		}
}

/*
 * The processes of the job still running after the command exited: the
 * orphans re-parented to msprof-exec and what descends from them.  One
 * the script detached on purpose (a session of its own: setsid, a daemon;
 * SIGHUP ignored before any signal was passed on: nohup) is not waited
 * for: it goes into END.  One TICK ends (even detached: it inherited
 * that from its process) is not counted, but waited for in *ENDING until
 * it is gone.
 */
static size_t
left_running(struct run_end *end, const struct run_tick *tick,
    size_t *ending)
{
	struct proc *p;
	size_t n = procs_below(getpid(), &p), left = 0;

	*ending = 0;
	end->nrunning = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i].ppid != getpid())
			continue;
		if (tick != NULL && tick->stray != NULL &&
		    tick->stray(tick->arg, p[i].pid))
			(*ending)++;
		else if (p[i].sid != getsid(0) ||
		    (!hup_ignored && nohup_before(p[i].pid))) {
			end->running = xreallocarray(end->running,
			    end->nrunning + 1, sizeof(*end->running));
			end->running[end->nrunning++] = p[i].pid;
		} else
			left++;
	}
	free(p);
	return left;
}

/*
 * Detached processes still hold the output pipes: a process of its own
 * goes on copying their output, so that they never write into a closed
 * pipe (SIGPIPE would kill them) once msprof-exec has exited.
 */
static void
hand_over(struct capture *c, struct pollfd p[2])
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) != 0)
		return;
	setsid();
	for (int i = 0; i < NFORWARDED; i++)
		signal(forwarded[i], SIG_IGN);
	while (poll(p, 2, -1) >= 0 && pump_ready(c, p) > 0)
		;
	_exit(0);
}

int
run_wait(pid_t pid, struct capture *c, struct run_end *end,
    const struct run_tick *tick)
{
	struct pollfd p[2] = { { c->out[0], POLLIN, 0 }, { c->err[0], POLLIN, 0 } };
	struct sigaction sa, pipe_old;
	int open_fds = 2, exited = 0, told = 0, after = 0, r, st;
	double exit_time = 0;
	size_t left, ending;
	pid_t w;

	memset(end, 0, sizeof(*end));
	/* A closed terminal must not kill us while the log is written. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &pipe_old);
	for (;;) {
		r = poll(p, 2, 100);
		pass_pending();
		if (tick != NULL)
			tick->fn(tick->arg);
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == pid) {
				end->status = st;
				exited = 1;
				exit_time = monotonic_s();
			}
		if (r > 0)
			open_fds = pump_ready(c, p);
		if (!exited)
			continue;
		if ((left = left_running(end, tick, &ending)) + ending > 0) {
			if (!told && left > 0 && monotonic_s() - exit_time > 2) {
				told = 1;
				fprintf(stderr, _("msprof-exec: the command has "
				    "exited; waiting for the %zu process(es) it "
				    "left running (stop them, or press Ctrl-C)\n"),
				    left);
			}
			continue;
		}
		/*
		 * The job is gone: what it wrote is in the pipes, up to their
		 * end; only detached processes keep them open longer.
		 */
		if (open_fds == 0 || ++after >= 3)
			break;
	}
	/* a process ended above may have died since the last wait */
	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	if (open_fds > 0)
		hand_over(c, p);
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	end->signal = last_signal;
	free(nohup_pids);
	nohup_pids = NULL;
	nohup_n = 0;
	for (int i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &saved[i], NULL);
	sigaction(SIGPIPE, &pipe_old, NULL);
	return end->status;
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
