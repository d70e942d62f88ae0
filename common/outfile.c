/* Writing the files the user names: see outfile.h for the rules. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

/* More links in a row than this is a loop (the kernel's own limit). */
#define MAX_LINKS	40

/* The descriptor a name such as /dev/stdout stands for, or -1. */
static int
fd_name(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/", NULL };
	char *end;
	long n;

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (int i = 0; dirs[i] != NULL; i++) {
		size_t len = strlen(dirs[i]);

		if (strncmp(path, dirs[i], len) != 0 || path[len] == '\0')
			continue;
		n = strtol(path + len, &end, 10);
		if (*end == '\0' && n >= 0 && n <= INT_MAX)
			return (int)n;
	}
	return -1;
}

/* The directory part of PATH ("." when none), a copy. */
static char *
dir_of(const char *path)
{
	char *d = xstrdup(path), *slash = strrchr(d, '/');

	if (slash == NULL) {
		free(d);
		return xstrdup(".");
	}
	slash[slash == d] = '\0';
	return d;
}

/*
 * PATH with the links of its last component followed, as far as they go
 * (the final target need not exist yet).  Links under /proc are the
 * kernel's own (a pipe has no path): they are opened, not followed.
 */
static char *
follow(const char *path)
{
	char *p = xstrdup(path), *dir, *next, target[PATH_MAX];
	struct stat st;
	ssize_t n;

	for (int hops = 0; strncmp(p, "/proc/", 6) != 0 &&
	    lstat(p, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		if (hops == MAX_LINKS ||
		    (n = readlink(p, target, sizeof(target) - 1)) == -1) {
			if (hops == MAX_LINKS)
				errno = ELOOP;
			free(p);
			return NULL;
		}
		target[n] = '\0';
		dir = dir_of(p);
		next = target[0] == '/' ? xstrdup(target) :
		    xasprintf("%s/%s", dir, target);
		free(dir);
		free(p);
		p = next;
	}
	return p;
}

/* The mode a new file gets: the old file's, or what umask allows. */
static mode_t
new_mode(const char *dest)
{
	struct stat st;
	mode_t mask;

	if (stat(dest, &st) == 0)
		return st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/*
 * A temporary file next to O->dest, created exclusively (O_EXCL: never
 * through a link) under a name no other process or host uses.
 */
static int
make_temp(struct outfile *o)
{
	char host[64] = "", *dir = dir_of(o->dest);
	const char *base = strrchr(o->dest, '/');
	int fd, saved;

	base = base != NULL ? base + 1 : o->dest;
	gethostname(host, sizeof(host) - 1);
	o->tmp = xasprintf("%s/.%.100s.%.63s.%ld.XXXXXX", dir, base, host,
	    (long)getpid());
	free(dir);
	if ((fd = mkostemp(o->tmp, O_CLOEXEC)) == -1 ||
	    fchmod(fd, new_mode(o->dest)) == -1) {
		saved = errno;
		if (fd != -1) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		errno = saved;
		return -1;
	}
	return fd;
}

static int
failed(struct outfile *o, const char *path, char **why)
{
	int saved = errno;

	*why = xasprintf(_("cannot write %s: %s"), o->name != NULL ? o->name :
	    path, i18n_strerror(saved));
	outfile_discard(o);
	errno = saved;
	return -1;
}

int
outfile_open(struct outfile *o, const char *path, enum outfile_how how,
    char **why)
{
	struct stat st;
	int n, saved;

	o->fd = -1;
	o->tmp = o->dest = NULL;
	o->name = xstrdup(path);
	if ((n = fd_name(path)) != -1) {
		if ((o->fd = fcntl(n, F_DUPFD_CLOEXEC, 3)) == -1)
			return failed(o, path, why);
		return 0;
	}
	if ((o->dest = follow(path)) == NULL)
		return failed(o, path, why);
	if (stat(o->dest, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return failed(o, path, why);
	}
	if (stat(o->dest, &st) == 0 && !S_ISREG(st.st_mode))
		o->fd = open(o->dest, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	else if (how == OUTFILE_STREAM)
		o->fd = open(o->dest, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY |
		    O_CLOEXEC, 0666);
	else if ((o->fd = make_temp(o)) == -1) {
		/* no room for a temporary file: an existing file in place */
		saved = errno;
		o->fd = open(o->dest, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
		if (o->fd == -1)
			errno = saved;
	}
	return o->fd == -1 ? failed(o, path, why) : 0;
}

int
outfile_close(struct outfile *o, char **why)
{
	int rc = 0;

	/* the data before the name: a crash never leaves an empty file */
	if (o->tmp != NULL && fdatasync(o->fd) == -1)
		rc = -1;
	if (close(o->fd) == -1 && errno != EINTR)
		rc = -1;
	o->fd = -1;
	if (rc == 0 && o->tmp != NULL && rename(o->tmp, o->dest) == -1)
		rc = -1;
	if (rc == 0) {
		free(o->tmp);
		o->tmp = NULL;
	}
	if (rc == -1)
		return failed(o, o->name, why);
	outfile_discard(o);	/* nothing left to remove: frees the names */
	return 0;
}

void
outfile_discard(struct outfile *o)
{
	int saved = errno;

	if (o->fd != -1)
		close(o->fd);
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	free(o->dest);
	free(o->name);
	o->fd = -1;
	o->tmp = o->dest = o->name = NULL;
	errno = saved;
}

int
outfile_check(const char *path, enum outfile_how how, char **why)
{
	struct outfile o = { -1, NULL, NULL, NULL };
	struct stat st;
	int n, flags, fd;

	if ((n = fd_name(path)) != -1) {
		if ((flags = fcntl(n, F_GETFL)) == -1)
			return failed(&o, path, why);
		if ((flags & O_ACCMODE) == O_RDONLY) {
			errno = EBADF;
			return failed(&o, path, why);
		}
		return 0;
	}
	if ((o.dest = follow(path)) == NULL)
		return failed(&o, path, why);
	if (stat(o.dest, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return failed(&o, path, why);
		}
		/* a FIFO without a reader would block: permission is enough */
		if (!S_ISREG(st.st_mode) || how == OUTFILE_STREAM)
			fd = access(o.dest, W_OK) == 0 ? 0 : -1;
		else if ((fd = make_temp(&o)) == -1)
			fd = access(o.dest, W_OK);
	} else if (errno != ENOENT)
		fd = -1;
	else
		fd = make_temp(&o);
	if (fd == -1)
		return failed(&o, path, why);
	if (o.tmp != NULL)
		close(fd);
	outfile_discard(&o);	/* removes the trial temporary file */
	return 0;
}

int
outfile_write(const char *path, int (*write)(FILE *, void *), void *arg,
    char **why)
{
	struct outfile o;
	FILE *f;
	int ok;

	if (outfile_open(&o, path, OUTFILE_REPLACE, why) == -1)
		return -1;
	if ((f = fdopen(dup(o.fd), "w")) == NULL)
		return failed(&o, path, why);
	errno = 0;
	ok = write(f, arg) == 0;
	ok = fflush(f) == 0 && !ferror(f) && ok;
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		if (errno == 0)
			errno = EIO;
		return failed(&o, path, why);
	}
	return outfile_close(&o, why);
}

int
outfile_put(const char *path, const char *data, size_t len, char **why)
{
	struct outfile o;
	ssize_t w;

	if (outfile_open(&o, path, OUTFILE_REPLACE, why) == -1)
		return -1;
	while (len > 0) {
		if ((w = write(o.fd, data, len)) == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return failed(&o, path, why);
		}
		data += w;
		len -= (size_t)w;
	}
	return outfile_close(&o, why);
}
