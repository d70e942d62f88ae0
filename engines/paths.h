/*
 * The input paths a training launch names (checkpoint, data, tokenizer,
 * MindSpeed-MM configs): checked when the launch starts, so that a wrong
 * path costs seconds, not a cluster allocation.
 */
#ifndef MSPROF_PATHS_H
#define MSPROF_PATHS_H

#include "classify.h"

/* Append "OPTION PATH" for each path ARGV names that does not exist. */
void	launch_missing_paths(const struct launch *, char *const argv[],
	    struct strv *missing);

#endif
