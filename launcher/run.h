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

/* How the job ended. */
struct run_end {
	int	 status;	/* the command's wait status */
	int	 signal;	/* SIGINT, SIGTERM, SIGHUP or SIGQUIT msprof-exec
				   got (and passed on), or 0 */
	int	*running;	/* processes the script detached (setsid, nohup),
				   still running; free() it */
	size_t	 nrunning;
};

/* Work done while the job runs: FN(ARG) at least every 100 ms. */
struct run_tick {
	void	(*fn)(void *);
	void	 *arg;
	/*
	 * Once the command has exited, for each process it left running:
	 * 1 when that process is one msprof-exec brought about and has
	 * ended (not waited for), else 0.  May be NULL.
	 */
	int	(*stray)(void *, pid_t);
};

/*
 * Pass the output through until every process of the job is gone (those
 * the script detached aside), passing SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * sent to msprof-exec on to the job, and calling TICK (NULL: none).
 * Returns the command's wait status.
 */
int	run_wait(pid_t, struct capture *, struct run_end *,
	    const struct run_tick *tick);

/* Exit like the child did: same code, or die of the same signal. */
void	run_exit_like(int status) __attribute__((noreturn));

#endif
