/*
 * torch_npu's non-intrusive mode, which the torch engine (torch.c) uses:
 * at import torch_npu reads PROF_CONFIG_PATH, a directory, and watches
 * the profiler_config.json in it; the last optimizer's step() counts the
 * steps.  Shared by the engine (the injector), the launcher (which arms
 * the config once the workers have started) and the report.
 */
#ifndef MSPROF_TORCH_H
#define MSPROF_TORCH_H

#include <time.h>

#include "common/plan.h"

#define TORCH_ENV	"PROF_CONFIG_PATH"

/* What msprof-exec did to arm a session's config (launcher/arm.c). */
struct torch_arming {
	int		 processes;	/* torch_npu processes seen starting */
	int		 armings;	/* times the config was armed */
	int		 unarmed;	/* processes never armed: the job, or
					   they, ended first */
	time_t		 mtime;		/* the config's time at the last one */
	char		*error;		/* the config could not be written */
};

/*
 * Does torch_npu take PATH for PROF_CONFIG_PATH or a save path?  Its rule
 * (PathManager): at most 4096 bytes, 255 a component, and only letters,
 * digits, white space, "_ . / ~ -" and the CJK ideographs U+4E00 to
 * U+9FA5.  0, or -1 with *BAD at the first byte it refuses.
 */
int	torch_path_check(const char *path, const char **bad);

/*
 * A file of torch_npu's log directory: "dp_HOST_PID_rank_RANK.log" (its
 * init_logger), or with "monitor_" first the log of a monitor (*MONITOR):
 * 0 and its pid and rank, or -1.
 */
int	torch_log_name(const char *name, long *pid, int *rank, int *monitor);

/*
 * Write DIR/profiler_config.json (atomically, modified at MTIME; 0: now)
 * with the plan's window, ranks and settings.  ONE: the job is a single
 * process, which torch_npu gives no rank (-1), so that profiling "rank 0"
 * means profiling every process; else only the plan's ranks collect.
 */
int	torch_config_write(const char *dir, const struct plan *, int one,
	    time_t mtime, char **why);

#endif
