/*
 * Find the file an execvp-style call would run, so that the shim can
 * decide whether it is a launcher.  The caller's own search is never
 * replaced: non-targets go to the real function unchanged.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

#include "resolve.h"

/* glibc's own default search list (confstr _CS_PATH). */
#define DEFAULT_PATH "/bin:/usr/bin"

int
is_exec_file(const char *path)
{
	struct stat st;

	/*
	 * The raw syscall: stat() itself is versioned GLIBC_2.33, which
	 * would stop the shim from loading on older systems.
	 */
	if (syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) != 0)
		return 0;
	return S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

const char *
resolve_path(const char *file, const char *pathlist, char *buf, size_t cap)
{
	const char *p, *dir;
	size_t flen = 0, dlen, i;

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
			if (is_exec_file(buf))
				return buf;
		}
		if (*p == '\0')
			return NULL;
	}
}
