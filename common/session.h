/* Finding the session directory of an earlier run. */
#ifndef MSPROF_SESSION_H
#define MSPROF_SESSION_H

#include <stddef.h>

/*
 * PATH itself when it is a session directory (it has plan.json), else the
 * newest msprof-exec_* session directly under PATH, else NULL.
 */
char	*session_find(const char *path);
/*
 * The same among NAMES, the entries of DIR already listed (in order):
 * the newest msprof-exec_* session of them, DIR/NAME, or NULL.
 */
char	*session_newest(const char *dir, const char *const names[], size_t n);
/* Is PATH itself a session directory (it has plan.json)? */
int	 session_is(const char *path);
/*
 * A run PATH given to `msprof-exec report` or `compare` must be a
 * directory (its output directory, or a session): else exit 66 naming it.
 */
void	 session_input_check(const char *path);

#endif
