/* Start the user's command and wait for it, passing signals on. */
#ifndef MSPROF_RUN_H
#define MSPROF_RUN_H

#include <sys/types.h>

/*
 * Start ARGV with ENVP in a child; SEARCH: look ARGV[0] up on PATH.
 * A failed exec makes the child exit 127 (not found) or 126.
 */
pid_t	run_start(char *const argv[], char *const envp[], int search);

/*
 * Wait for the child.  SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to
 * msprof-exec are passed on to it; the terminal's own already reach it.
 * Returns the wait status.
 */
int	run_wait(pid_t);

/* Exit like the child did: same code, or die of the same signal. */
void	run_exit_like(int status) __attribute__((noreturn));

#endif
