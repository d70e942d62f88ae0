/*
 * Start the user's command, pass its output through while keeping a copy,
 * wait for it, passing signals on.
 */
#ifndef MSPROF_RUN_H
#define MSPROF_RUN_H

#include <sys/types.h>

/* The command's stdout and stderr, copied to log files as they pass. */
struct capture {
	int	out[2], err[2];	/* pipes; -1 when not capturing */
	int	logs[2];	/* files that get a copy, or -1 */
};

/*
 * Open the pipes and the logs (either path may be NULL, each is written
 * as a stream, see common/outfile.h); -1 and *why on failure.
 */
int	capture_open(struct capture *, const char *log, const char *log2,
	    char **why);

/*
 * Start ARGV with ENVP in a child: FILE, or ARGV[0] looked up on PATH when
 * FILE is NULL.  A failed exec makes the child exit 127 (not found) or 126.
 */
pid_t	run_start(const char *file, char *const argv[], char *const envp[],
	    struct capture *);

/*
 * Pass the output through until the child exits, and wait for it.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to msprof-exec are passed on
 * to it; the terminal's own already reach it.  Returns the wait status.
 */
int	run_wait(pid_t, struct capture *);

/* Exit like the child did: same code, or die of the same signal. */
void	run_exit_like(int status) __attribute__((noreturn));

#endif
