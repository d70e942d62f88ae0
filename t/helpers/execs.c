/*
 * execs: call one exec entry point of the C library and say what happened.
 *
 *	execs [-a ARG0] [-e NAME=VAL]... [-E] [-s NAME=VAL]... [-u NAME]...
 *	    FUNCTION FILE [ARG...]
 *
 * FUNCTION is one of execve, execv, execvp, execvpe, execl, execlp, execle,
 * fexecve, posix_spawn, posix_spawnp.  It is called with FILE and the
 * argument vector {ARG0 (default FILE), ARG..., NULL}.  The functions that
 * take an environment get the one built from the -e options (-E: an empty
 * one), or environ when there is none.  -s and -u change environ first, as
 * a program would with setenv and unsetenv.  fexecve runs the descriptor
 * of FILE opened read-only (-1 when it cannot be opened).
 *
 * When an exec returns:	FUNCTION returned R errno=NAME
 * After posix_spawn(p):	FUNCTION returned R[ NAME]
 *				errno=NAME	(EDOM before the call)
 *				child status=N | child signal=N
 * The spawned child's output comes first: the parent reports after waitpid.
 *
 *	execs -b < CASES
 *
 * Many calls from one process: each line of CASES holds the arguments of
 * one run as above (options, FUNCTION, FILE, ARG...), separated by tabs.
 * Each runs in a child of its own (fork, then the same as a separate
 * execs run with that environment); for each, in order, execs prints
 * what the child and the program it ran wrote to stdout, "--stderr--",
 * what they wrote to stderr, and "--status N--" (N as a shell gives it:
 * the exit status, 128 + a signal's number), each part without its
 * trailing newlines, then "--end--".  A test that compares hundreds of
 * calls with and without the shim pays for two processes, not hundreds.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXARGS	32
#define MAXENV	64
#define MAXLINE	65536

/*
 * The execl family gets every slot of a NULL-padded array: the first NULL
 * ends its list (execle then reads the slot after it as the environment).
 */
#define SLOTS(v) v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], \
	v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], \
	v[19], v[20], v[21], v[22], v[23], v[24], v[25], v[26], v[27], \
	v[28], v[29], v[30], v[31], v[32], v[33]

extern char **environ;

static const struct {
	int		 num;
	const char	*name;
} errnames[] = {
	{ 0, "0" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
	{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" },
	{ ENOEXEC, "ENOEXEC" }, { EBADF, "EBADF" }, { ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { ENOTDIR, "ENOTDIR" },
	{ EISDIR, "EISDIR" }, { EINVAL, "EINVAL" }, { ETXTBSY, "ETXTBSY" },
	{ EDOM, "EDOM" }, { ENAMETOOLONG, "ENAMETOOLONG" },
	{ ENOSYS, "ENOSYS" }, { ELOOP, "ELOOP" }, { ELIBBAD, "ELIBBAD" },
};

static const char *
errname(int e)
{
	static char buf[32];
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].num == e)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

static void
usage(void)
{
	fprintf(stderr, "usage: execs [-a arg0] [-e name=val]... [-E] "
	    "[-s name=val]... [-u name]...\n"
	    "             function file [arg...]\n");
	exit(2);
}

/* Call an exec function; returns only when it failed. */
static int
call_exec(const char *fn, const char *file, char **argv, char **envp)
{
	char *v[MAXARGS + 2] = { NULL };
	size_t n;

	for (n = 0; argv[n] != NULL; n++)
		v[n] = argv[n];
	fflush(NULL);
	if (strcmp(fn, "execve") == 0)
		return execve(file, argv, envp);
	if (strcmp(fn, "execv") == 0)
		return execv(file, argv);
	if (strcmp(fn, "execvp") == 0)
		return execvp(file, argv);
	if (strcmp(fn, "execvpe") == 0)
		return execvpe(file, argv, envp);
	if (strcmp(fn, "execl") == 0)
		return execl(file, SLOTS(v), (char *)NULL);
	if (strcmp(fn, "execlp") == 0)
		return execlp(file, SLOTS(v), (char *)NULL);
	if (strcmp(fn, "execle") == 0) {
		v[n + 1] = (char *)envp;
		return execle(file, SLOTS(v), (char *)NULL, envp);
	}
	if (strcmp(fn, "fexecve") == 0)
		return fexecve(open(file, O_RDONLY), argv, envp);
	usage();
	return -1;
}

static int
call_spawn(const char *fn, const char *file, char **argv, char **envp)
{
	pid_t pid;
	int r, e, status;

	fflush(NULL);
	errno = EDOM;
	if (strcmp(fn, "posix_spawn") == 0)
		r = posix_spawn(&pid, file, NULL, NULL, argv, envp);
	else
		r = posix_spawnp(&pid, file, NULL, NULL, argv, envp);
	e = errno;
	if (r == 0 && waitpid(pid, &status, 0) == -1) {
		perror("waitpid");
		return 1;
	}
	if (r != 0)
		printf("%s returned %d %s\n", fn, r, errname(r));
	else
		printf("%s returned 0\n", fn);
	printf("errno=%s\n", errname(e));
	if (r == 0 && WIFSIGNALED(status))
		printf("child signal=%d\n", WTERMSIG(status));
	else if (r == 0)
		printf("child status=%d\n", WEXITSTATUS(status));
	return 0;
}

static int
run(int argc, char *argv[])
{
	char *args[MAXARGS + 2], *env[MAXENV + 1], **envp = NULL, *eq;
	const char *arg0 = NULL, *fn, *file;
	int c, n = 0, r;

	while ((c = getopt(argc, argv, "+a:e:Es:u:")) != -1) {
		switch (c) {
		case 'a':
			arg0 = optarg;
			break;
		case 'e':
			if (n == MAXENV)
				usage();
			env[n++] = optarg;
			/* FALLTHROUGH */
		case 'E':
			env[n] = NULL;
			envp = env;
			break;
		case 's':
			if ((eq = strchr(optarg, '=')) == NULL)
				usage();
			*eq = '\0';
			setenv(optarg, eq + 1, 1);
			break;
		case 'u':
			unsetenv(optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || argc - 1 > MAXARGS)
		usage();
	if (envp == NULL)
		envp = environ;
	fn = argv[0];
	file = argv[1];
	args[0] = (char *)(arg0 != NULL ? arg0 : file);
	for (c = 2; c < argc; c++)
		args[c - 1] = argv[c];
	args[argc - 1] = NULL;

	if (strcmp(fn, "posix_spawn") == 0 || strcmp(fn, "posix_spawnp") == 0)
		return call_spawn(fn, file, args, envp);
	r = call_exec(fn, file, args, envp);
	printf("%s returned %d errno=%s\n", fn, r, errname(errno));
	return 0;
}

/* Copy F (rewound) to stdout without its trailing newlines. */
static void
put_part(FILE *f)
{
	size_t newlines = 0;
	int c;

	rewind(f);
	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			newlines++;
			continue;
		}
		for (; newlines > 0; newlines--)
			putchar('\n');
		putchar(c);
	}
	putchar('\n');
}

/* One line of -b: its run in a child, then what it wrote and its status. */
static int
run_line(char *line)
{
	static char name[] = "execs";
	char *argv[MAXARGS + MAXENV + 16], *p;
	FILE *out, *err;
	pid_t pid;
	int argc = 0, status;

	argv[argc++] = name;
	for (p = line; p != NULL; ) {
		if (argc == (int)(sizeof(argv) / sizeof(argv[0])) - 1)
			usage();
		argv[argc++] = strsep(&p, "\t");
	}
	argv[argc] = NULL;
	if ((out = tmpfile()) == NULL || (err = tmpfile()) == NULL) {
		perror("execs: tmpfile");
		return 1;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		perror("execs: fork");
		return 1;
	}
	if (pid == 0) {
		if (dup2(fileno(out), 1) == -1 || dup2(fileno(err), 2) == -1)
			_exit(127);
		exit(run(argc, argv));
	}
	if (waitpid(pid, &status, 0) == -1) {
		perror("execs: waitpid");
		return 1;
	}
	put_part(out);
	printf("--stderr--\n");
	put_part(err);
	printf("--status %d--\n--end--\n", WIFSIGNALED(status) ?
	    128 + WTERMSIG(status) : WEXITSTATUS(status));
	fclose(out);
	fclose(err);
	return 0;
}

int
main(int argc, char *argv[])
{
	static char line[MAXLINE];
	size_t len;

	if (argc != 2 || strcmp(argv[1], "-b") != 0)
		return run(argc, argv);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (run_line(line) != 0)
			return 1;
	}
	return 0;
}
