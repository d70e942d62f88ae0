/* PATH lookup for the shim's match decision: syscalls and stack only. */
#ifndef MSPROF_RESOLVE_H
#define MSPROF_RESOLVE_H

#include <stddef.h>

/* Is PATH a regular file we may execute? */
int	is_exec_file(const char *path);

/*
 * Where execvp would find FILE (no '/') on PATHLIST (NULL: the C library
 * default): the first candidate that is an executable regular file,
 * written into BUF.  Returns BUF, or NULL when there is none.
 */
const char *resolve_path(const char *file, const char *pathlist, char *buf,
	    size_t cap);

#endif
