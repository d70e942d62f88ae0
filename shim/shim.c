/*
 * The LD_PRELOAD shim: the exec entry points of the C library.
 *
 * Each wrapper either hands a training launch to the injector (an ordinary
 * program that rewrites the command and then runs it), or calls the real
 * function unchanged, only putting the shim back into an environment that
 * lost it.  The wrappers run in vfork children (CPython's subprocess) and
 * after fork in threaded programs, on the caller's memory: they use the
 * stack and syscalls only, write no global, take no lock and print
 * nothing.  Everything that needs more is done once, at load time.
 */
#include <errno.h>
#include <limits.h>
#include <sys/mman.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "contract.h"
#include "envfix.h"
#include "match.h"
#include "next.h"
#include "resolve.h"
#include "words.h"

#define EXPORT __attribute__((visibility("default")))

extern char **environ;

typedef int execve_fn(const char *, char *const[], char *const[]);
typedef int fexecve_fn(int, char *const[], char *const[]);
typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
    const posix_spawnattr_t *, char *const[], char *const[]);

/*
 * Written once, by the constructor; only read afterwards.  In .data, not
 * .bss: the fields every exec reads and the start of the arena then share
 * the page the loader writes anyway (the PLT's GOT), one page fault less
 * for every process.  No execv or execvp: glibc's are its execve and
 * execvpe with environ, and the wrappers call those.
 */
static struct {
	int		 loaded;
	int		 active;	/* a session is set up */
	execve_fn	*execve, *execvpe;
	fexecve_fn	*fexecve;
	spawn_fn	*posix_spawn, *posix_spawnp;
	const char	*injector, *session, *table;
	struct launch_filter filter;
	struct shim_env	 env;
	char		 arena[SHIM_SAVED_BYTES];
} S __attribute__((section(".data")));

/* Find the real functions, never ourselves. */
static void
find_real(void)
{
	static const char *const names[] = {
		"execve", "execvpe", "fexecve", "posix_spawn", "posix_spawnp"
	};
	/* next_hash() of each (t/0240-shim-next.t checks them), and size. */
	static const struct next_key keys[] = {
		{ 0xfc2c9fc5, sizeof("execve") },
		{ 0x81c09a35, sizeof("execvpe") },
		{ 0xa3c16d4b, sizeof("fexecve") },
		{ 0x3abbbc60, sizeof("posix_spawn") },
		{ 0x923348d0, sizeof("posix_spawnp") }
	};
	void *self[] = {
		(void *)execve, (void *)execvpe, (void *)fexecve,
		(void *)posix_spawn, (void *)posix_spawnp
	};
	void *fn[sizeof(names) / sizeof(names[0])];

	next_symbols(names, keys, fn, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fn[i] == self[i])
			fn[i] = NULL;
	S.execve = (execve_fn *)fn[0];
	S.execvpe = (execve_fn *)fn[1];
	S.fexecve = (fexecve_fn *)fn[2];
	S.posix_spawn = (spawn_fn *)fn[3];
	S.posix_spawnp = (spawn_fn *)fn[4];
}

/* Point FIELD at the value of V if V is the variable NAME (N bytes). */
static int
take(const char *v, const char *name, size_t n, const char **field)
{
	size_t i;

	for (i = sizeof(MSPROF_ENV_PREFIX) - 1; i < n; i++)	/* known */
		if (v[i] != name[i])
			return 0;
	if (v[n] != '=' || *field != NULL)	/* the first, as getenv */
		return 0;
	*field = v + n + 1;
	return 1;
}

#define TAKE(v, name, field)	take(v, name, sizeof(name) - 1, &(field))

/*
 * Keep a copy of the session variables (the program may change environ)
 * and note the values the shim needs.
 */
static void
save_session(void)
{
	char **e, *p = S.arena;
	size_t n;

	for (e = environ; e != NULL && *e != NULL; e++) {
		if ((*e)[0] != MSPROF_ENV_PREFIX[0] ||
		    !WORD_STARTS(*e, MSPROF_ENV_PREFIX) ||
		    S.env.nsaved == SHIM_MAX_SAVED)
			continue;
		n = word_copy_str(p, *e, (size_t)(S.arena + sizeof(S.arena) - p));
		if (n == 0)
			return;		/* the launcher keeps them smaller */
		S.env.savedlen[S.env.nsaved] = n - 1;
		S.env.saved[S.env.nsaved++] = p;
		/* Each is one of them at most: no more tests once it is. */
		if (!TAKE(p, MSPROF_ENV_MATCH, S.table) &&
		    !TAKE(p, MSPROF_ENV_SESSION, S.session) &&
		    !TAKE(p, MSPROF_ENV_INJECTOR, S.injector) &&
		    TAKE(p, MSPROF_ENV_SHIM, S.env.shim))
			S.env.shimlen = n - 1 - sizeof(MSPROF_ENV_SHIM);
		p += n;
	}
}

/*
 * No libc call but dlsym, and that only where next_symbols() cannot read
 * libc's table itself; dlsym leaves errno alone when it finds the symbol
 * (every C library the shim loads into has all five), so a program still
 * sees errno 0 at start, and binding __errno_location would cost every
 * process more than this whole function's own work.
 */
static void
shim_init(void)
{
	find_real();
	save_session();
	S.active = S.env.shim != NULL && *S.env.shim != '\0' &&
	    S.injector != NULL && *S.injector == '/' &&
	    S.session != NULL && *S.session != '\0' && S.table != NULL &&
	    S.execve != NULL && S.posix_spawn != NULL;
	if (S.active)		/* env_measure() was done while copying */
		filter_build(&S.filter, S.table);
	S.loaded = 1;
}

__attribute__((constructor)) static void
shim_load(void)
{
	if (!S.loaded)
		shim_init();
}

/* A wrapper called before our constructor (from another library's). */
#define READY() do { if (!S.loaded) shim_init(); } while (0)

/* Call a real function, or fail as a missing one would. */
#define CALL_REAL(fn, ...) \
	(S.fn != NULL ? S.fn(__VA_ARGS__) : (errno = ENOSYS, -1))

/*
 * glibc declares the path arguments nonnull, and the compiler would drop
 * our NULL checks; callers do pass NULL (the real functions then fail with
 * EFAULT), so hide the pointer's origin from the optimiser.
 */
static const char *
opaque(const char *p)
{
	__asm__("" : "+r"(p));
	return p;
}

static int
has_slash(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '/')
			return 1;
	return 0;
}

/*
 * Is the exec of PATH (a file that exists) with ARGV a training launch?
 * Launchers are matched by their file name; Python by its arguments.
 */
static int
is_launch(const char *path, char *const argv[])
{
	struct launch_match m;

	return S.active && filter_pass(&S.filter, path) &&
	    match_launch(S.table, path, argv, &m) != LAUNCH_NONE &&
	    exec_error(path) == 0;
}

/*
 * The file an execvp-family call would run, if it is a training launch.
 * The name alone must match first, so ordinary commands cost no lookup.
 */
static const char *
searched_launch(const char *file, char *const argv[], char *buf, size_t cap)
{
	struct launch_match m;

	if (!S.active || opaque(file) == NULL || !filter_pass(&S.filter, file))
		return NULL;
	if (has_slash(file))
		return is_launch(file, argv) ? file : NULL;
	if (match_launch(S.table, file, argv, &m) == LAUNCH_NONE)
		return NULL;
	if (resolve_path(file, env_value(environ, "PATH"), buf, cap) == NULL)
		return NULL;
	return is_launch(buf, argv) ? buf : NULL;
}

/*
 * Room for the arrays an exec call builds: STACK, a VLA of the size
 * needed, up to SHIM_STACK_BYTES, else mapped, since a program may exec
 * from a thread with a small stack and a huge environment.  mmap is a
 * system call, safe in a vfork child; errno is kept.  A mapping made in a
 * vfork child whose exec succeeds stays in the parent: the bound keeps
 * that to environments of thousands of variables.
 */
#define ROOM_STACK(name, size)						\
	char *name[(size) <= SHIM_STACK_BYTES ?				\
	    ((size) + sizeof(char *) - 1) / sizeof(char *) : 1]

struct room {
	char	*p;
	size_t	 size;
};

static int
room_get(struct room *r, char *stack, size_t size)
{
	int saved_errno = errno;
	void *m;

	r->size = size;
	r->p = stack;
	if (size <= SHIM_STACK_BYTES)
		return 0;
	m = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	errno = saved_errno;
	if (m == MAP_FAILED)
		return -1;
	r->p = m;
	return 0;
}

static void
room_put(struct room *r)
{
	int saved_errno = errno;

	if (r->size > SHIM_STACK_BYTES)
		munmap(r->p, r->size);
	errno = saved_errno;
}

/*
 * Build the injector's argv (contract.h) in OUT, which has room for
 * vec_count(argv) + INJECT_ARGV_CMD + 2 pointers.
 */
static void
injector_argv(char **out, const char *mode, const char *path,
    char *const argv[])
{
	size_t i, n = vec_count(argv);

	out[0] = (char *)S.injector;
	out[INJECT_ARGV_MODE] = (char *)mode;
	out[INJECT_ARGV_SESSION] = (char *)S.session;
	out[INJECT_ARGV_PATH] = (char *)path;
	for (i = 0; i < n; i++)
		out[INJECT_ARGV_CMD + i] = argv[i];
	if (n == 0)
		out[INJECT_ARGV_CMD + n++] = (char *)path;
	out[INJECT_ARGV_CMD + n] = NULL;
}

/* Bytes for the injector's argv, its environment and LD_PRELOAD value. */
static size_t
injector_room(size_t n, size_t e, char *const envp[])
{
	return (n + INJECT_ARGV_CMD + 2 + e + 1) * sizeof(char *) +
	    env_preload_size(&S.env, envp);
}

/*
 * Replace the process with the injector; returns only if that failed.  The
 * injector gets the environment meant for the launcher without the shim:
 * it must not load the shim (its own exec of the launcher would come back
 * here), and the launcher and its workers must not carry it.
 */
static void
exec_injector(const char *mode, const char *path, char *const argv[],
    char *const envp[])
{
	size_t n = vec_count(argv), e = vec_count(envp), need;
	char **iargv, **clean;
	struct room r;

	if (n > SHIM_MAX_ARGS || e > SHIM_MAX_ENV)
		return;
	need = injector_room(n, e, envp);
	ROOM_STACK(stack, need);
	if (room_get(&r, (char *)stack, need) == -1)
		return;
	iargv = (char **)r.p;
	clean = iargv + n + INJECT_ARGV_CMD + 2;
	injector_argv(iargv, mode, path, argv);
	env_strip(S.env.shim, envp, clean, (char *)(clean + e + 1));
	S.execve(S.injector, iargv, clean);
	room_put(&r);
}

/*
 * Return CALL_PLAIN, or, when the program dropped the shim from ENVP,
 * CALL_FIXED, which names the repaired copy `fixed`; if the repaired
 * environment is what makes the call fail (E2BIG: FAILED is true of its
 * result R_), the caller's own call is made after all.  The copy lives on
 * this frame's stack, or in a mapping when large (struct room).
 */
#define WITH_ENV(envp, call_fixed, call_plain, failed) do {		\
	if (!S.active || !env_needs_fix(&S.env, (envp)))		\
		return (call_plain);					\
	size_t n_ = vec_count(envp);					\
	if (n_ > SHIM_MAX_ENV)						\
		return (call_plain);					\
	size_t np_ = n_ + (size_t)S.env.nsaved + 2;			\
	size_t need_ = np_ * sizeof(char *) +				\
	    env_preload_size(&S.env, (envp));				\
	ROOM_STACK(stack_, need_);					\
	struct room room_;						\
	if (room_get(&room_, (char *)stack_, need_) == -1)		\
		return (call_plain);					\
	char **fixed = (char **)room_.p;				\
	int saved_ = errno, r_;						\
	env_fix(&S.env, (envp), fixed, (char *)(fixed + np_));		\
	r_ = (call_fixed);						\
	room_put(&room_);						\
	if (!(failed))							\
		return r_;						\
	errno = saved_;							\
	return (call_plain);						\
} while (0)
#define EXEC_E2BIG	(r_ == -1 && errno == E2BIG)
#define SPAWN_E2BIG	(r_ == E2BIG)

/*
 * The exec path.  A program that is not a launch costs the filter and one
 * pass over its environment: no call into the C library, errno untouched
 * (it is saved only where something may change it), and no large frame,
 * since in a child after fork every page touched is a page fault.
 */
#define HOT __attribute__((hot))
#define COLD __attribute__((cold, noinline))

/* Run the injector instead, if PATH is a launch; else return. */
COLD static void
try_launch(const char *path, char *const argv[], char *const envp[],
    const char *mode)
{
	int saved_errno = errno;

	if (is_launch(path, argv))
		exec_injector(mode, path, argv, envp);
	errno = saved_errno;
}

/* The same for FILE to be searched on PATH. */
COLD static void
try_searched_launch(const char *file, char *const argv[], char *const envp[])
{
	int saved_errno = errno;
	char buf[PATH_MAX];
	const char *path = searched_launch(file, argv, buf, sizeof(buf));

	if (path != NULL)
		exec_injector(INJECT_MODE_SEARCH, path, argv, envp);
	errno = saved_errno;
}

HOT static int
do_execve(const char *path, char *const argv[], char *const envp[],
    const char *mode)
{
	if (S.active && opaque(path) != NULL && filter_pass(&S.filter, path))
		try_launch(path, argv, envp, mode);
	WITH_ENV(envp, CALL_REAL(execve, path, argv, fixed),
	    CALL_REAL(execve, path, argv, envp), EXEC_E2BIG);
}

HOT static int
do_execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (S.active && opaque(file) != NULL && filter_pass(&S.filter, file))
		try_searched_launch(file, argv, envp);
	WITH_ENV(envp, CALL_REAL(execvpe, file, argv, fixed),
	    CALL_REAL(execvpe, file, argv, envp), EXEC_E2BIG);
}

HOT EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	READY();
	return do_execve(path, argv, envp, INJECT_MODE_EXEC);
}

/* glibc's execv is execve with environ; so is this one. */
HOT EXPORT int
execv(const char *path, char *const argv[])
{
	READY();
	return do_execve(path, argv, environ, INJECT_MODE_EXEC);
}

/* glibc's execvp is execvpe with environ. */
HOT EXPORT int
execvp(const char *file, char *const argv[])
{
	READY();
	return do_execvpe(file, argv, environ);
}

HOT EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	READY();
	return do_execvpe(file, argv, envp);
}

EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	int saved_errno = errno;
	char proc[64], path[PATH_MAX];
	ssize_t n;
	char *p = proc + sizeof(proc);

	READY();
	/* glibc's own EINVAL checks come first */
	if (fd < 0 || opaque((const char *)argv) == NULL ||
	    opaque((const char *)envp) == NULL)
		return CALL_REAL(fexecve, fd, argv, envp);
	if (S.active) {
		/* Match by the file the descriptor was opened from. */
		*--p = '\0';
		for (int v = fd; ; v /= 10) {
			*--p = (char)('0' + v % 10);
			if (v < 10)
				break;
		}
		p -= sizeof("/proc/self/fd/") - 1;
		for (size_t i = 0; i < sizeof("/proc/self/fd/") - 1; i++)
			p[i] = "/proc/self/fd/"[i];
		n = readlink(p, path, sizeof(path) - 1);
		if (n > 0) {
			path[n] = '\0';
			if (is_launch(path, argv))
				exec_injector(INJECT_MODE_EXEC, path, argv,
				    envp);
		}
	}
	errno = saved_errno;
	WITH_ENV(envp, CALL_REAL(fexecve, fd, argv, fixed),
	    CALL_REAL(fexecve, fd, argv, envp), EXEC_E2BIG);
}

/*
 * The execl family: copy the arguments into an array on this frame.
 * A macro, not a function: a va_list handed to a helper is a copy on some
 * ABIs (i686, aarch64) and would not advance here.
 */
#define COLLECT_ARGS(arg0, argv, ap)					\
	size_t n_ = 1;							\
	va_start(ap, arg0);						\
	while (va_arg(ap, char *) != NULL)				\
		n_++;							\
	va_end(ap);							\
	if (n_ >= INT_MAX) {	/* glibc's limit; stack as it uses */	\
		errno = E2BIG;						\
		return -1;						\
	}								\
	char *argv[n_ + 1];						\
	va_start(ap, arg0);						\
	argv[0] = (char *)(arg0);					\
	for (size_t i_ = 1; i_ <= n_; i_++)				\
		argv[i_] = va_arg(ap, char *)

EXPORT int
execl(const char *path, const char *arg, ...)
{
	va_list ap;

	READY();
	COLLECT_ARGS(arg, argv, ap);
	va_end(ap);
	return do_execve(path, argv, environ, INJECT_MODE_EXEC);
}

EXPORT int
execle(const char *path, const char *arg, ...)
{
	va_list ap;
	char **envp;

	READY();
	COLLECT_ARGS(arg, argv, ap);
	envp = va_arg(ap, char **);
	va_end(ap);
	return do_execve(path, argv, envp, INJECT_MODE_EXEC);
}

EXPORT int
execlp(const char *file, const char *arg, ...)
{
	va_list ap;

	READY();
	COLLECT_ARGS(arg, argv, ap);
	va_end(ap);
	return do_execvpe(file, argv, environ);
}

/*
 * posix_spawn runs the child on the caller's side of a CLONE_VM, through
 * glibc's internal exec: the only place to act is here, in the parent.
 * It returns an error number, not -1.
 */
static int
spawn_injector(pid_t *pid, const char *path,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	size_t n = vec_count(argv), e = vec_count(envp), need;
	char **iargv, **clean;
	struct room r;
	int rc;

	if (n > SHIM_MAX_ARGS || e > SHIM_MAX_ENV)
		return -1;
	need = injector_room(n, e, envp);
	ROOM_STACK(stack, need);
	if (room_get(&r, (char *)stack, need) == -1)
		return -1;
	iargv = (char **)r.p;
	clean = iargv + n + INJECT_ARGV_CMD + 2;
	injector_argv(iargv, INJECT_MODE_SPAWN, path, argv);
	env_strip(S.env.shim, envp, clean, (char *)(clean + e + 1));
	rc = S.posix_spawn(pid, S.injector, fa, attr, iargv, clean);
	room_put(&r);
	return rc;
}

EXPORT int
posix_spawn(pid_t *pid, const char *path,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	int saved_errno = errno;

	READY();
	if (opaque(path) != NULL && is_launch(path, argv) &&
	    spawn_injector(pid, path, fa, attr, argv, envp) == 0)
		return errno = saved_errno, 0;
	errno = saved_errno;
	if (S.posix_spawn == NULL)
		return ENOSYS;
	WITH_ENV(envp, S.posix_spawn(pid, path, fa, attr, argv, fixed),
	    S.posix_spawn(pid, path, fa, attr, argv, envp), SPAWN_E2BIG);
}

EXPORT int
posix_spawnp(pid_t *pid, const char *file,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	int saved_errno = errno;
	char buf[PATH_MAX];
	const char *path;

	READY();
	path = searched_launch(file, argv, buf, sizeof(buf));
	if (path != NULL && spawn_injector(pid, path, fa, attr, argv, envp) == 0)
		return errno = saved_errno, 0;
	errno = saved_errno;
	if (S.posix_spawnp == NULL)
		return ENOSYS;
	WITH_ENV(envp, S.posix_spawnp(pid, file, fa, attr, argv, fixed),
	    S.posix_spawnp(pid, file, fa, attr, argv, envp), SPAWN_E2BIG);
}
