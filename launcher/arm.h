/*
 * Arming torch_npu's PROF_CONFIG_PATH config (the torch engine) while the
 * job runs.  torch_npu acts on a config only when the file was modified
 * after the process started (in whole seconds), so the config the
 * injector writes before the workers start does nothing by itself.  Each
 * process that imports torch_npu with PROF_CONFIG_PATH writes its log
 * log/dp_HOST_PID_rank_RANK.log in the directory: msprof-exec looks for
 * new ones every 100 ms (a stat of log/, a read of it when it changed),
 * and once no new one has come for a second (or five seconds after the
 * first waiting one), rewrites the config atomically, modified five seconds
 * ahead, so that every process that had started by then takes it, also
 * one that takes seconds from its log to its start time (a loaded node).  A
 * process that starts later (the next rank of a per-rank loop, a restart)
 * is armed again the same way; a subprocess of a torch_npu process with
 * its rank (a DataLoader worker) is not waited for.  So is a new monitor
 * (its log log/monitor_dp_...): it passes on only a config modified after
 * it read the config's time, which it did before its log came, possibly
 * after an arming.
 */
#ifndef MSPROF_ARM_H
#define MSPROF_ARM_H

#include <sys/types.h>

#include "common/plan.h"
#include "engines/torch.h"

struct arm_proc;

struct arm {
	char			*session, *dir, *logdir;
	const struct plan	*plan;
	struct arm_proc		*procs;
	size_t			 nprocs;
	struct timespec		 log_mtime;	/* log/ when last read */
	double			 next;		/* next look, monotonic s */
	double			 last_new;	/* a process last came */
	struct torch_arming	 done;		/* for the report */
};

/* Arm SESSION's config for PLAN (nothing to do unless it may use torch). */
void	arm_init(struct arm *, const char *session, const struct plan *);
/* Look and arm if due: run_wait() calls it at least every 100 ms. */
void	arm_tick(void *arm);
/*
 * The command has exited and left PID running: if it is torch_npu's
 * monitor of the session's config, orphaned (its process was killed by
 * a signal, which runs no exit handler), kill it, say so once, and
 * return 1; else 0.  It would poll on for ever, and exists only because
 * msprof-exec set PROF_CONFIG_PATH.
 */
int	arm_stray(void *arm, pid_t pid);
/*
 * The job has ended: a last look (a process may have come and gone since
 * the last one), and what was done, for the report; NULL when there was
 * nothing to arm.
 */
const struct torch_arming *arm_finish(struct arm *);

#endif
