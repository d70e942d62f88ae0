/*
 * Files msprof-exec writes on the user's behalf (--json, --log, reports,
 * generated configs), written through whatever the user named:
 *
 *  - /dev/stdout, /dev/stderr, /dev/fd/N: msprof-exec's own descriptor;
 *  - a character device, FIFO or socket: opened and written directly;
 *  - a symbolic link: its target is written, never the link replaced;
 *  - a regular file, or none yet (OUTFILE_REPLACE): a temporary file of a
 *    unique name is created exclusively in the target's directory (no
 *    link followed, no collision with another writer on shared storage)
 *    and renamed over the target once complete, so a reader never sees
 *    half a file.  Where the directory is not writable but the file is,
 *    the file is rewritten in place;
 *  - a regular file, or none yet (OUTFILE_STREAM, the log): opened and
 *    truncated like tee(1) does, so it can be followed while it grows.
 */
#ifndef MSPROF_OUTFILE_H
#define MSPROF_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

enum outfile_how { OUTFILE_REPLACE, OUTFILE_STREAM };

struct outfile {
	int	 fd;		/* write here; -1 when closed */
	char	*name;		/* as the user gave it, for messages */
	char	*dest;		/* the file finally written (links followed) */
	char	*tmp;		/* the temporary file, or NULL */
};

/*
 * Could PATH be written the way HOW writes it?  Checked without changing
 * anything the user has; 0, or -1 and *why (naming the path and the fix).
 */
int	outfile_check(const char *path, enum outfile_how, char **why);

/* Open PATH for writing; -1 and *why on failure. */
int	outfile_open(struct outfile *, const char *path, enum outfile_how,
	    char **why);

/* Finish: close, and put a temporary file in place; -1 and *why. */
int	outfile_close(struct outfile *, char **why);

/* Give up: close, and remove the temporary file. */
void	outfile_discard(struct outfile *);

/* Write LEN bytes of DATA as the whole of PATH (OUTFILE_REPLACE). */
int	outfile_put(const char *path, const char *data, size_t len,
	    char **why);

/*
 * Write PATH (OUTFILE_REPLACE) with WRITE(F, ARG), which returns 0, or -1
 * on a write error: the one way a report, a page or a document is
 * written.  0, or -1 and *why (nothing replaced).
 */
int	outfile_write(const char *path, int (*write)(FILE *, void *),
	    void *arg, char **why);

#endif
