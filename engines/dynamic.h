/*
 * Dynamic profiling (torch_npu dynamic_profile): the job polls
 * DIR/profiler_config.json and starts collecting when the file changes and
 * its start_step comes (-1: at once).
 */
#ifndef MSPROF_DYNAMIC_H
#define MSPROF_DYNAMIC_H

#include <stddef.h>
#include <time.h>

#include "common/plan.h"

#define DYNAMIC_CONFIG	"profiler_config.json"
/* The steps the config warms up on before those it collects: none. */
#define DYNAMIC_WARMUP	0

/* What the config asks of the job besides the plan's settings. */
struct dynamic_window {
	int		 start;		/* start_step: after that step()... */
	int		 active;	/* ... this many steps are collected */
	int		 is_rank;	/* only the ranks of RANKS collect */
	const int	*ranks;
	size_t		 nranks;
	time_t		 mtime;		/* the file's time to set; 0: now */
};

/*
 * Write DIR/profiler_config.json atomically with the plan's settings and
 * W, keeping the other fields of the file already there (else torch_npu's
 * template).  SAVE is prof_dir.
 */
int	dynamic_write(const char *dir, const struct plan *, const char *save,
	    const struct dynamic_window *w, char **why);

/*
 * dynamic_write() with a start step that does not fire (the job arms
 * nothing until `msprof-exec trigger`) and every rank.
 */
int	dynamic_prepare(const char *dir, const struct plan *, const char *save,
	    int steps, char **why);

/* What the config asks of the job after dynamic_trigger(). */
struct dynamic_trigger {
	int		 active;	/* steps collected */
	char		*prof_dir;	/* where the data goes; free() it */
};

/*
 * Ask the job that polls PATH (DIR/profiler_config.json, which exists) to
 * collect from step START (-1: its next step), ACTIVE steps (0: as the
 * file says), keeping the rest of the file, and date it so that
 * torch_npu sees the change.  0, or the exit status (78, 73) with *why.
 */
int	dynamic_trigger(const char *path, int start, int active,
	    struct dynamic_trigger *, char **why);

#endif
