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

int
main(int argc, char *argv[])
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
