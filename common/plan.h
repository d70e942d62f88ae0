/*
 * The profiling plan: what the user asked for, written by msprof-exec to
 * the session directory and read by the injector at every launch.
 */
#ifndef MSPROF_PLAN_H
#define MSPROF_PLAN_H

#include <stddef.h>

#include "util.h"

enum existing { EXISTING_ASK, EXISTING_KEEP, EXISTING_OVERRIDE };

#define PLAN_MAX_RANKS	4096

struct plan {
	char		*level;			/* level_none .. level2 */
	int		 step_start, step_end;	/* 0: the engine's default */
	int		 ranks_all;
	int		*ranks;			/* none given: rank 0 */
	size_t		 nranks;
	int		 with_cpu, with_memory, with_stack, record_shapes;
	int		 data_simplification;
	char		*export_type;		/* text | db */
	char		*aic_metrics;
	char		*mode;			/* static | dynamic */
	char		*dynamic_dir;		/* NULL: inside the output */
	int		 analyse;
	int		 train_iters;		/* -1 keep, 0 default */
	char		*output;		/* NULL: the engine's default */
	char		*framework;		/* auto | llm | mm | torch */
	enum existing	 existing;
	/* --set: "NAME" or "NAME=VALUE" of the training, in order. */
	struct strv	 set;

	/* Filled in by msprof-exec for the injector. */
	char		*session, *shim, *launchtab;
	/* The environment variables to record of each launch (advice). */
	struct strv	 record_env;
	/* For the report: the device memory npu-smi showed, MB; 0 unknown. */
	int		 device_mb;
	/* The NPUs npu-smi info listed on this node; 0 not asked. */
	int		 npus_listed;
	/*
	 * For the MFU when the data does not describe its chip: the chip
	 * npu-smi names ("910B3"; NULL not asked), and the AI cores and
	 * cube clock (MHz) CANN's platform_config gives for it, from
	 * CHIP_INI; 0 when not known, and CHIP_WHY says why.
	 */
	char		*chip, *chip_ini, *chip_why;
	int		 chip_cores, chip_mhz;
};

void	plan_defaults(struct plan *);
void	plan_free(struct plan *);
/* A copy of SRC in DST that owns its own strings. */
void	plan_dup(struct plan *dst, const struct plan *src);
/* Write atomically; -1 with errno set on failure. */
int	plan_write(const struct plan *, const char *path);
/* -1 and a message in *why on failure. */
int	plan_read(struct plan *, const char *path, char **why);

const char *existing_name(enum existing);

#endif
