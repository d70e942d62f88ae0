/* Small helpers shared by msprof-exec and its injector. */
#ifndef MSPROF_UTIL_H
#define MSPROF_UTIL_H

#include <sys/types.h>

#include <stddef.h>
#include <stdio.h>

#include "i18n.h"

/* A growable NULL-terminated vector of strings it owns. */
struct strv {
	char	**v;
	size_t	  n, cap;
};

void	 strv_push(struct strv *, const char *);
void	 strv_pushf(struct strv *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 strv_free(struct strv *);
/* Seconds on a clock that only goes forward. */
double	 monotonic_s(void);
/* Is S one of SV's strings? */
int	 strv_has(const struct strv *, const char *s);

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xstrdup_null(const char *);	/* NULL stays NULL */
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
/*
 * S (a path, a field read from a file) fit to print in a message: each
 * control byte as \t, \n, \r or \xHH, so that a name or a line cannot
 * move the cursor, clear the screen or pass for a message of its own
 * (the result is the caller's).
 */
char	*xescape(const char *s);
/* The first N bytes of S, NULs included, the same way. */
char	*xescapen(const char *s, size_t n);

/*
 * The one guarded open of a file to read: a regular file only (a FIFO
 * would block for ever, /dev/zero never ends; EINVAL for anything else),
 * opened without blocking and without becoming the controlling terminal.
 * A descriptor, or -1 with errno set.
 */
int	 open_regular(const char *path);
/* Why open_regular or read_file failed with E, for a message. */
const char *read_error(int e);
/* The largest file read whole (logs included); EFBIG past it. */
#define READ_FILE_MAX	(1024L * 1024 * 1024)
/*
 * Read a whole regular file (through open_regular, at most READ_FILE_MAX
 * bytes) or descriptor; NULL with errno set on failure.
 */
char	*read_file(const char *path, size_t *len);
char	*read_fd(int fd, size_t *len);
/*
 * PATH with "." and empty parts dropped and "NAME/.." folded, in place,
 * by its text alone (the path may no longer exist); returns PATH.
 */
char	*path_fold(char *path);
/*
 * The first SIZE - 1 bytes of a file at most, NUL-terminated in BUF (a
 * "#!" line): their count, or -1 with errno set.
 */
ssize_t	 read_head(const char *path, char *buf, size_t size);
/* Create a directory and its parents; -1 with errno set on failure. */
int	 mkdirs(const char *path, int mode);
/* Shell-quote one word for display (the result is the caller's). */
char	*shell_quote(const char *word);
/* A whole command, quoted and joined with spaces. */
char	*shell_join(char *const argv[]);
/* The strings of V joined with SEP (the result is the caller's). */
char	*strv_join(char *const v[], const char *sep);
/* Does S end with SUFFIX? */
int	 ends_with(const char *s, const char *suffix);
int	 yaml_key_is_flag(const char *key, const char *name);
/* Length of the valid UTF-8 sequence at S (RFC 3629), or 0 (a bad byte). */
size_t	 utf8_seq(const unsigned char *s);
/* Is S valid UTF-8 as a whole? */
int	 utf8_valid(const char *s);
/* Is NAME PREFIX followed by digits alone ("device_0", not "info.json.0.done")? */
int	 name_numbered(const char *name, const char *prefix);
/*
 * The columns TEXT takes on a terminal, in the locale's encoding (a CJK
 * character two, a combining mark none; a byte one where TEXT is not
 * valid in it): what a column's width is made of, which printf's "%-10s"
 * counts in bytes.
 */
int	 text_width(const char *text);
/*
 * TEXT padded with spaces to |WIDTH| columns, as printf's "%*s" pads to
 * bytes: on the left when WIDTH > 0, on the right when WIDTH < 0.
 */
void	 fput_cols(FILE *, const char *text, int width);

#endif
