/*
 * The processes of a job, read from /proc: who descends from msprof-exec,
 * in which process group and session, and what they ignore.
 */
#ifndef MSPROF_PROCS_H
#define MSPROF_PROCS_H

#include <sys/types.h>

struct proc {
	pid_t	pid, ppid, pgrp, sid;
};

/*
 * The live processes that descend from ROOT (not ROOT itself, no zombies)
 * into *OUT (free() it); their number.
 */
size_t	procs_below(pid_t root, struct proc **out);

/* Does process PID ignore signal SIG (SigIgn in /proc/PID/status)? */
int	proc_ignores(pid_t pid, int sig);

#endif
