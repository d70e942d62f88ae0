/*
 * bench/recognise: read an entry N times as the injector does at each
 * python exec of a job (content.h), and print the mean wall-clock and
 * CPU microseconds of one reading, with what it found:
 *
 *	recognise N TABLE ENTRY
 *
 * (RECOGNISE_LAUNCHER set: as for an entry a launcher starts, whose
 * reading stops once it is known to train; else as for a python ENTRY
 * started directly, read on for whether it starts its ranks itself)
 *
 * or run a command N times the same way, for comparison: the mean
 * wall-clock and CPU microseconds (its own and its children's) of one
 * run:
 *
 *	recognise -x N COMMAND [ARG...]
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/content.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double
cpu(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

/* Run ARGV N times, its output to /dev/null. */
static int
execs(int n, char **argv)
{
	double t = now(), c = cpu(RUSAGE_CHILDREN);
	int status, fd;
	pid_t pid;

	for (int i = 0; i < n; i++) {
		if ((pid = fork()) == -1)
			return 71;
		if (pid == 0) {
			if ((fd = open("/dev/null", O_WRONLY)) != -1)
				dup2(fd, 1);
			execvp(argv[0], argv);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) == -1 || status != 0)
			return 70;
	}
	printf("%.1f %.1f\n", (now() - t) / n, (cpu(RUSAGE_CHILDREN) - c) / n);
	return 0;
}

int
main(int argc, char **argv)
{
	struct entry_facts f;
	char *why = NULL;
	double t, c;
	int n, spawn = getenv("RECOGNISE_LAUNCHER") == NULL;

	if (argc > 3 && strcmp(argv[1], "-x") == 0 && (n = atoi(argv[2])) > 0)
		return execs(n, argv + 3);
	if (argc != 4 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: recognise N TABLE ENTRY\n");
		return 64;
	}
	if (trainings_load(argv[2], 1, &why) == -1) {
		fprintf(stderr, "recognise: %s\n", why);
		return 78;
	}
	t = now();
	c = cpu(RUSAGE_SELF);
	for (int i = 0; i < n; i++)
		if (entry_facts_read(argv[3], getenv("RECOGNISE_PYTHON"), spawn,
		    &f) == -1) {
			perror(argv[3]);
			return 66;
		}
	printf("%.1f %.1f %d %d %s\n", (now() - t) / n, (cpu(RUSAGE_SELF) - c) / n,
	    f.followed, entry_trains_torch(&f), f.because[0] != '\0' ?
	    f.because : "-");
	return 0;
}
