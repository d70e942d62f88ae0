/* PATH lookup for the shim's match decision: syscalls and stack only. */
#ifndef MSPROF_RESOLVE_H
#define MSPROF_RESOLVE_H

#include <stddef.h>

/*
 * Would execve(PATH) get as far as running it?  0 if so, else the errno
 * the exec would fail with (ENOENT also for a #! interpreter that is
 * missing).  Errors it cannot foresee (ENOEXEC, E2BIG) are left to the
 * exec itself.
 */
int	exec_error(const char *path);

/*
 * Where execvp would run FILE (no '/') from PATHLIST (NULL: the C library
 * default): the first candidate whose exec would not fail with an error
 * that makes execvp go on (EACCES, ENOENT, ESTALE, ENOTDIR, ENODEV,
 * ETIMEDOUT), written into BUF.  Returns BUF, or NULL when the search
 * would fail.
 */
const char *resolve_path(const char *file, const char *pathlist, char *buf,
	    size_t cap);

#endif
