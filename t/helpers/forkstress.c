/*
 * forkstress: many threads, each starting many children at once, every
 * child checked.  For t/0600-stress.t: the shim's exec wrappers run in the
 * children of a multithreaded parent (after fork: one thread, the others'
 * locks frozen) and on the parent's memory (vfork); they must neither
 * deadlock nor mix up what each child runs.
 *
 *	forkstress [-t THREADS] [-n CHILDREN] [-m MODE] [PROGRAM]
 *
 * Each thread starts CHILDREN children one after the other, each running
 * PROGRAM (default /bin/echo) with the single argument "tTT-cCCC-<fill>",
 * and checks that the child exited 0 and wrote exactly that argument and
 * a newline.  MODE says how the child is started:
 *	execve	fork, then execve(PROGRAM) (the default)
 *	execvp	fork, then execvp(basename of PROGRAM) (a PATH search)
 *	vfork	vfork, then execve
 *	spawn	posix_spawn
 *	mixed	each of the above in turn
 * Prints "forkstress: N children, M wrong" and exits 0 when all were
 * right, 1 otherwise (the first wrong ones are described on stderr).
 * First it prints "preloaded: NAME..." (the preloaded libraries mapped
 * in it, by file name) and "session: SESSION" (MSPROF_EXEC_SESSION), so
 * that a test can tell it ran under the shim.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

enum mode { M_EXECVE, M_EXECVP, M_VFORK, M_SPAWN, M_MIXED };

static const char *program = "/bin/echo";
static const char *progname;
static int nchildren = 50;
static enum mode mode = M_EXECVE;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static int wrong, reported;

static void __attribute__((format(printf, 3, 4)))
complain(int thread, int child, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&report_lock);
	wrong++;
	if (reported++ < 10) {
		fprintf(stderr, "forkstress: thread %d child %d: ", thread, child);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	pthread_mutex_unlock(&report_lock);
}

/* Start one child with its stdout on FD; its pid or -1. */
static pid_t
start(enum mode m, char *const argv[], int fd)
{
	pid_t pid;
	posix_spawn_file_actions_t fa;

	switch (m) {
	case M_SPAWN:
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
		errno = posix_spawn(&pid, program, &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
		return errno == 0 ? pid : -1;
	case M_VFORK:
		if ((pid = vfork()) == 0) {
			if (dup2(fd, STDOUT_FILENO) != -1)
				execve(program, argv, environ);
			_exit(127);
		}
		return pid;
	default:
		if ((pid = fork()) == 0) {
			if (dup2(fd, STDOUT_FILENO) != -1) {
				if (m == M_EXECVP)
					execvp(progname, argv);
				else
					execve(program, argv, environ);
			}
			_exit(127);
		}
		return pid;
	}
}

static void *
worker(void *arg)
{
	int thread = (int)(long)arg, p[2], status;
	char word[96], want[100], got[256];
	char *argv[] = { (char *)progname, word, NULL };
	size_t len;
	ssize_t n;
	pid_t pid;

	for (int c = 0; c < nchildren; c++) {
		enum mode m = mode == M_MIXED ? (enum mode)((thread + c) % 4) :
		    mode;

		snprintf(word, sizeof(word), "t%02d-c%03d-%0*d", thread, c,
		    (thread * 7 + c) % 40 + 1, 0);
		snprintf(want, sizeof(want), "%s\n", word);
		if (pipe2(p, O_CLOEXEC) == -1) {
			complain(thread, c, "pipe: %s", strerror(errno));
			continue;
		}
		pid = start(m, argv, p[1]);
		close(p[1]);
		if (pid == -1) {
			complain(thread, c, "cannot start: %s", strerror(errno));
			close(p[0]);
			continue;
		}
		for (len = 0; len < sizeof(got) - 1; len += (size_t)n) {
			n = read(p[0], got + len, sizeof(got) - 1 - len);
			if (n == -1 && errno == EINTR)
				n = 0;
			else if (n <= 0)
				break;
		}
		got[len] = '\0';
		close(p[0]);
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			complain(thread, c, "status %s", WIFSIGNALED(status) ?
			    strsignal(WTERMSIG(status)) : "not 0");
		else if (strcmp(got, want) != 0)
			complain(thread, c, "wrote '%s'", got);
	}
	return NULL;
}

/* The names of the LD_PRELOAD entries mapped in this process. */
static void
print_preloaded(void)
{
	char line[4096], *ld = getenv("LD_PRELOAD"), *copy, *tok, *save, *base;
	FILE *maps;
	int found;

	printf("preloaded:");
	if (ld != NULL && (copy = strdup(ld)) != NULL) {
		for (tok = strtok_r(copy, " :", &save); tok != NULL;
		    tok = strtok_r(NULL, " :", &save)) {
			found = 0;
			if ((maps = fopen("/proc/self/maps", "r")) == NULL)
				break;
			while (!found && fgets(line, sizeof(line), maps) != NULL) {
				line[strcspn(line, "\n")] = '\0';
				found = strlen(line) >= strlen(tok) &&
				    strcmp(line + strlen(line) - strlen(tok),
				    tok) == 0;
			}
			fclose(maps);
			base = strrchr(tok, '/') != NULL ? strrchr(tok, '/') + 1 :
			    tok;
			if (found)
				printf(" %s", base);
		}
		free(copy);
	}
	printf("\nsession: %s\n", getenv("MSPROF_EXEC_SESSION") != NULL ?
	    getenv("MSPROF_EXEC_SESSION") : "");
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static const char *const modes[] = { "execve", "execvp", "vfork",
	    "spawn", "mixed", NULL };
	int nthreads = 16, opt, i;
	pthread_t *t;

	while ((opt = getopt(argc, argv, "t:n:m:")) != -1) {
		switch (opt) {
		case 't':
			nthreads = atoi(optarg);
			break;
		case 'n':
			nchildren = atoi(optarg);
			break;
		case 'm':
			for (i = 0; modes[i] != NULL &&
			    strcmp(modes[i], optarg) != 0; i++)
				;
			if (modes[i] == NULL) {
				fprintf(stderr, "forkstress: unknown mode %s\n",
				    optarg);
				return 2;
			}
			mode = (enum mode)i;
			break;
		default:
			fprintf(stderr, "usage: forkstress [-t THREADS] "
			    "[-n CHILDREN] [-m MODE] [PROGRAM]\n");
			return 2;
		}
	}
	if (optind < argc)
		program = argv[optind];
	progname = strrchr(program, '/') != NULL ?
	    strrchr(program, '/') + 1 : program;
	if (nthreads < 1 || nthreads > 256 || nchildren < 1)
		return 2;
	print_preloaded();
	t = calloc((size_t)nthreads, sizeof(*t));
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i) != 0) {
			perror("pthread_create");
			return 2;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	printf("forkstress: %d children, %d wrong\n", nthreads * nchildren,
	    wrong);
	free(t);
	return wrong == 0 ? 0 : 1;
}
