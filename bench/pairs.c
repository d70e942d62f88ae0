/*
 * pairs: the shim against an empty preload, exec by exec.
 *
 *	pairs [-n N] [-f] SHIM EMPTY PROGRAM [ARG...]
 *
 * Run with the session variables of msprof-exec in the environment
 * (MSPROF_EXEC_SHIM naming SHIM) but without LD_PRELOAD.  pairs loads
 * SHIM itself (dlopen: its constructor sees the session), and then forks
 * N pairs of children, in the order AB, BA, AB...:
 *
 *	A: execve(PROGRAM) with LD_PRELOAD=EMPTY, called directly;
 *	B: the shim's execve wrapper, with LD_PRELOAD=SHIM,
 *
 * both with the same environment otherwise.  So B pays what a process
 * under the shim pays for one fork + exec (the wrapper in the child, the
 * shim's loading and constructor in the new program) and A what it would
 * pay with a preload that does nothing.  One line per pair:
 * "WALL_A CPU_A WALL_B CPU_B" in microseconds: the wall-clock time from
 * fork to the end of wait4, and the child's CPU time (user + system).
 *
 * With -f the children do not exec a program: each counts the page faults
 * of one exec call that fails (PROGRAM should not exist), from a fork of a
 * process that made the same call before, and reports them as its exit
 * status; a line per pair is "FAULTS_A FAULTS_B".
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef int execve_fn(const char *, char *const[], char *const[]);

static void
die(const char *what)
{
	fprintf(stderr, "pairs: %s\n", what);
	exit(1);
}

/* environ and LD_PRELOAD=SO. */
static char **
with_preload(const char *so)
{
	size_t n = 0;
	char **env, *ld;

	while (environ[n] != NULL)
		n++;
	env = calloc(n + 2, sizeof(*env));
	ld = malloc(strlen(so) + sizeof("LD_PRELOAD="));
	if (env == NULL || ld == NULL)
		die("out of memory");
	sprintf(ld, "LD_PRELOAD=%s", so);
	memcpy(env, environ, n * sizeof(*env));
	env[n] = ld;
	return env;
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static long
faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* One fork + exec + wait: wall and child CPU time, or the faults (-f). */
static void
one(execve_fn *fn, char **argv, char **env, int count, double *wall,
    double *cpu)
{
	struct rusage ru;
	double t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid == -1)
		die("fork failed");
	if (pid == 0) {
		long f0 = faults(), f;

		fn(argv[0], argv, env);
		if (!count)
			_exit(127);
		f = faults() - f0;
		_exit(f > 250 ? 250 : (int)f);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status))
		die("a child failed");
	*wall = now_us() - t0;
	*cpu = ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec +
	    ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec;
	if (count)
		*wall = WEXITSTATUS(status);
	else if (WEXITSTATUS(status) != 0)
		die("a child exited with a status other than 0");
}

int
main(int argc, char **argv)
{
	long n = 500, i;
	int c, count = 0;
	void *h;
	execve_fn *shim_execve;
	char **env_a, **env_b;
	double wa, ca, wb, cb;

	while ((c = getopt(argc, argv, "+n:f")) != -1) {
		if (c == 'n')
			n = atol(optarg);
		else if (c == 'f')
			count = 1;
		else
			die("usage: pairs [-n N] [-f] SHIM EMPTY PROGRAM [ARG...]");
	}
	argv += optind;
	if (argc - optind < 3 || n <= 0)
		die("usage: pairs [-n N] [-f] SHIM EMPTY PROGRAM [ARG...]");
	if ((h = dlopen(argv[0], RTLD_NOW | RTLD_LOCAL)) == NULL)
		die(dlerror());
	if ((shim_execve = (execve_fn *)dlsym(h, "execve")) == NULL)
		die("the shim has no execve");
	env_b = with_preload(argv[0]);
	env_a = with_preload(argv[1]);
	argv += 2;
	/* The calls a child makes, made once here first (warm). */
	if (count) {
		execve(argv[0], argv, env_a);
		shim_execve(argv[0], argv, env_b);
	}
	for (i = 0; i < n; i++) {
		if (i % 2 == 0) {
			one(execve, argv, env_a, count, &wa, &ca);
			one(shim_execve, argv, env_b, count, &wb, &cb);
		} else {
			one(shim_execve, argv, env_b, count, &wb, &cb);
			one(execve, argv, env_a, count, &wa, &ca);
		}
		if (count)
			printf("%.0f %.0f\n", wa, wb);
		else
			printf("%.0f %.0f %.0f %.0f\n", wa, ca, wb, cb);
	}
	return 0;
}
