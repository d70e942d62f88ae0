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

/*
 * VALUE of setting NAME (read from config CFG, or NULL: the command
 * line): each of its comma-separated parts that is a local path (from /,
 * ./ or ../) and does not exist is appended to MISSING.  Any other value
 * (a hub model id, a dataset's name) may be found elsewhere: not checked.
 */
void	paths_check_local(const char *name, const char *value, const char *cfg,
	    struct strv *missing);
/*
 * The settings KEYS (dotted, NULL-ended) of the launch: the last
 * "--KEY V" (DASHES) or "KEY=V" (!DASHES) word after its YAML config, else
 * the YAML's; each checked as paths_check_local does.
 */
void	paths_check_settings(const struct launch *, char *const argv[],
	    const char *const keys[], int dashes, struct strv *missing);

#endif
