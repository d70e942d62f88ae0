/*
 * Dynamic profiling (torch_npu dynamic_profile): the job polls
 * DIR/profiler_config.json and starts collecting when the file changes and
 * its start_step comes (-1: at once).
 */
#ifndef MSPROF_DYNAMIC_H
#define MSPROF_DYNAMIC_H

#include "common/plan.h"

#define DYNAMIC_CONFIG	"profiler_config.json"

/*
 * Write DIR/profiler_config.json with the plan's settings and a start step
 * that does not fire (the job arms nothing until `msprof-exec trigger`).
 */
int	dynamic_prepare(const char *dir, const struct plan *, const char *save,
	    int steps, char **why);

/* msprof-exec trigger [--start N | --now] [--active K] DIR */
int	trigger_main(int argc, char **argv);

#endif
