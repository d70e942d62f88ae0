/*
 * execloop: start a program N times, one after the other, and time it.
 *
 *	execloop [-n N] [-w W] [-p] [-x] [-o FILE] [-c ROUNDS -R IN -S OUT]
 *	    PROGRAM [ARG...]
 *
 * Each iteration is fork, then execve(PROGRAM, {PROGRAM, ARG...}, environ)
 * in the child (execvp with -p: PROGRAM is looked up on PATH, as a shell
 * script or CPython's subprocess would start a launcher), then wait4.
 * W untimed iterations (default 5) warm the caches first.  Every child
 * must exit with status 0.
 *
 * It writes to FILE (default standard output) one line per timed batch of
 * N iterations, "N WALL_US WALL_PER_ITERATION_US CPU_US FAULTS": the
 * wall-clock time of the batch (CLOCK_MONOTONIC), its mean per iteration,
 * the CPU time of the batch and its page faults.  CPU time and faults are
 * execloop's own (fork, wait) plus those of the children (wait4): they
 * leave out the time spent waiting for a CPU taken by other work on the
 * machine, and also the work of any process that is not a child (a
 * tracer).  Writing to a file keeps the figures apart from what a
 * tracer around execloop prints.
 *
 * Taking turns (-c, -R, -S): several execloops, each started under its
 * own condition (no preload, a preload, a tracer), run one batch at a time
 * when told to.  Each waits for a byte on the FIFO IN, runs one batch of N
 * and writes a byte to the FIFO OUT, ROUNDS times; whoever feeds the
 * FIFOs (bench/run) decides the order.  The conditions are so interleaved
 * batch by batch, and a disturbance of the machine hits them alike.  The
 * warm-up runs in the first turn.  From a failed iteration on, execloop
 * still takes its turns, so as not to stop the others, but runs nothing:
 * those batches are reported as "N -1 -1 -1 -1", and the status at the end is
 * 1.  A token that does not come within 120 s ends execloop with status 1.
 *
 * With -x there is no fork: execloop itself calls execve (execvp with -p)
 * N times, each of which must fail (give it a PROGRAM that does not
 * exist).  Under valgrind --tool=callgrind this counts the instructions an
 * exec wrapper of a preload adds to one call, free of timing noise.
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOKEN_WAIT_MS	120000

extern char **environ;

static void
usage(void)
{
	fprintf(stderr, "usage: execloop [-n N] [-w W] [-p] [-x] [-o FILE] "
	    "[-c ROUNDS -R IN -S OUT] PROGRAM [ARG...]\n");
	exit(2);
}

static long
number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0)
		usage();
	return v;
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One exec in this process, which must fail. */
static int
exec_here(char **argv, int search)
{
	if (search)
		execvp(argv[0], argv);
	else
		execve(argv[0], argv, environ);
	if (errno != ENOENT) {
		perror(argv[0]);
		return -1;
	}
	return 0;
}

static double
cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* CPU time (microseconds) and page faults of the children waited for. */
static double children_cpu;
static long children_faults;

static long
own_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* One fork + exec + wait; 0 when the child exited with status 0. */
static int
one(char **argv, int search, int here)
{
	pid_t pid, w;
	int status;
	struct rusage ru;

	if (here)
		return exec_here(argv, search);
	pid = fork();
	if (pid == -1) {
		perror("execloop: fork");
		return -1;
	}
	if (pid == 0) {
		if (search)
			execvp(argv[0], argv);
		else
			execve(argv[0], argv, environ);
		_exit(127);
	}
	while ((w = wait4(pid, &status, 0, &ru)) == -1 && errno == EINTR)
		;
	if (w == -1) {
		perror("execloop: wait4");
		return -1;
	}
	children_cpu += ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec +
	    ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec;
	children_faults += ru.ru_minflt + ru.ru_majflt;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "execloop: %s: child status 0x%x\n", argv[0],
		    status);
		return -1;
	}
	return 0;
}

static int
open_fifo(const char *path)
{
	/* Read-write: the open does not wait for the other end. */
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd == -1) {
		perror(path);
		exit(1);
	}
	return fd;
}

static int
take_token(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;
	int r;

	while ((r = poll(&p, 1, TOKEN_WAIT_MS)) == -1 && errno == EINTR)
		;
	if (r != 1) {
		fprintf(stderr, "execloop: no token within %d s\n",
		    TOKEN_WAIT_MS / 1000);
		return -1;
	}
	while ((r = (int)read(fd, &c, 1)) == -1 && errno == EINTR)
		;
	return r == 1 ? 0 : -1;
}

static void
pass_token(int fd)
{
	while (write(fd, "t", 1) == -1 && errno == EINTR)
		;
}

int
main(int argc, char **argv)
{
	long n = 1000, warm = 5, rounds = 1, i, r;
	int c, search = 0, here = 0, in = -1, out = -1, failed = 0, bad;
	const char *file = NULL, *in_path = NULL, *out_path = NULL;
	double t0, c0, *total, *cpu;
	long f0, *faults;
	FILE *f = stdout;

	while ((c = getopt(argc, argv, "+n:w:pxo:c:R:S:")) != -1) {
		switch (c) {
		case 'n':
			n = number(optarg);
			break;
		case 'w':
			warm = number(optarg);
			break;
		case 'p':
			search = 1;
			break;
		case 'x':
			here = 1;
			break;
		case 'o':
			file = optarg;
			break;
		case 'c':
			rounds = number(optarg);
			break;
		case 'R':
			in_path = optarg;
			break;
		case 'S':
			out_path = optarg;
			break;
		default:
			usage();
		}
	}
	argv += optind;
	if (argv[0] == NULL || n == 0 || rounds == 0 ||
	    (in_path == NULL) != (out_path == NULL))
		usage();
	if (in_path != NULL) {
		in = open_fifo(in_path);
		out = open_fifo(out_path);
	}
	total = calloc((size_t)rounds, sizeof(*total));
	cpu = calloc((size_t)rounds, sizeof(*cpu));
	faults = calloc((size_t)rounds, sizeof(*faults));
	if (total == NULL || cpu == NULL || faults == NULL) {
		perror("execloop");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		if (in != -1 && take_token(in) == -1)
			return 1;
		bad = failed;
		for (i = 0; !bad && r == 0 && i < warm; i++)
			bad = one(argv, search, here) == -1;
		t0 = now_us();
		c0 = cpu_us() + children_cpu;
		f0 = own_faults() + children_faults;
		for (i = 0; !bad && i < n; i++)
			bad = one(argv, search, here) == -1;
		total[r] = bad ? -1 : now_us() - t0;
		cpu[r] = cpu_us() + children_cpu - c0;
		faults[r] = own_faults() + children_faults - f0;
		failed |= bad;
		if (out != -1)
			pass_token(out);
	}
	if (file != NULL && (f = fopen(file, "w")) == NULL) {
		perror(file);
		return 1;
	}
	for (r = 0; r < rounds; r++)
		if (total[r] < 0)
			fprintf(f, "%ld -1 -1 -1 -1\n", n);
		else
			fprintf(f, "%ld %.0f %.2f %.0f %ld\n", n, total[r],
			    total[r] / n, cpu[r], faults[r]);
	return fclose(f) == 0 && !failed ? 0 : 1;
}
