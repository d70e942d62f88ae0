/*
 * Find the file an execvp-style call would run, so that the shim can
 * decide whether it is a launcher.  The caller's own search is never
 * replaced: non-targets go to the real function unchanged, and a target is
 * only taken over when its exec would succeed, since the injector cannot
 * hand an exec error back to the caller.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

#include "resolve.h"

/* glibc's own default search list (confstr _CS_PATH). */
#define DEFAULT_PATH "/bin:/usr/bin"

/*
 * The raw syscall: stat() itself is versioned GLIBC_2.33, which would
 * stop the shim from loading on older systems.
 */
static int
stat_error(const char *path, struct stat *st)
{
	return syscall(SYS_newfstatat, AT_FDCWD, path, st, 0) == 0 ? 0 : errno;
}

/* The interpreter of a #! script must exist, or the exec fails. */
static int
interpreter_error(const char *path)
{
	char buf[256], *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd == -1)
		return 0;	/* execute-only: the kernel can still run it */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return 0;
	buf[n] = '\0';
	for (p = buf + 2; *p == ' ' || *p == '\t'; p++)
		;
	for (end = p; *end != '\0' && *end != ' ' && *end != '\t' &&
	    *end != '\n'; end++)
		;
	if (*end == '\0' && n == (ssize_t)sizeof(buf) - 1)
		return 0;	/* a line too long to judge here */
	*end = '\0';
	if (*p == '\0')
		return ENOEXEC;
	return stat_error(p, &st);
}

int
exec_error(const char *path)
{
	struct stat st;
	int e = stat_error(path, &st);

	if (e != 0)
		return e;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return EACCES;
	return interpreter_error(path);
}

/* The errors on which glibc's execvp tries the next candidate. */
static int
search_goes_on(int e)
{
	return e == EACCES || e == ENOENT || e == ESTALE || e == ENOTDIR ||
	    e == ENODEV || e == ETIMEDOUT;
}

const char *
resolve_path(const char *file, const char *pathlist, char *buf, size_t cap)
{
	const char *p, *dir;
	size_t flen = 0, dlen, i;
	int e;

	while (file[flen] != '\0')
		flen++;
	if (flen == 0)
		return NULL;
	for (p = pathlist != NULL ? pathlist : DEFAULT_PATH; ; p++) {
		dir = p;
		while (*p != '\0' && *p != ':')
			p++;
		dlen = (size_t)(p - dir);
		if (dlen + 1 + flen < cap) {
			for (i = 0; i < dlen; i++)
				buf[i] = dir[i];
			if (dlen > 0)		/* empty entry: current directory */
				buf[dlen++] = '/';
			for (i = 0; i <= flen; i++)
				buf[dlen + i] = file[i];
			if ((e = exec_error(buf)) == 0)
				return buf;
			if (!search_goes_on(e))
				return NULL;
		}
		if (*p == '\0')
			return NULL;
	}
}
