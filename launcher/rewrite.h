/*
 * Read a training launch (launcher, options, entry script) and rewrite it
 * with the profiling settings of the plan.
 */
#ifndef MSPROF_REWRITE_H
#define MSPROF_REWRITE_H

#include "../shim/match.h"
#include "launchtab.h"
#include "plan.h"

struct launch {
	enum launch_kind kind;
	int		 script;	/* argv index of the training script, or -1 */
	enum engine	 engine;
};

/* Analyse the exec of PATH with ARGV. */
void	launch_analyse(const struct launchtab *, const char *path,
	    char *const argv[], struct launch *);

/* Profiling options already on the command line (after the script). */
int	launch_existing(const struct launch *, char *const argv[],
	    struct strv *found);

/* The flags appended to a MindSpeed-LLM mcore launch. */
void	llm_flags(const struct plan *, struct strv *out);

/*
 * The rewritten argv of a launch into OUT.  Returns 0, or -1 with a
 * message in *why when the plan cannot apply to it.
 */
int	launch_rewrite(const struct plan *, const struct launch *,
	    char *const argv[], struct strv *out, char **why);

#endif
