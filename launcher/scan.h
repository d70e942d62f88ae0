/*
 * A static scan of a training script: what msprof-exec shows the user
 * before anything runs.  The script is read, never executed: shell
 * variables are followed through simple assignments, and whatever would
 * need a command to run stays unknown.
 */
#ifndef MSPROF_SCAN_H
#define MSPROF_SCAN_H

#include "launchtab.h"
#include "util.h"

struct scan {
	char		*model;		/* "qwen3_8b" from pretrain_qwen3_8b_4K_ptd.sh, or NULL */
	int		 npus_per_node;	/* -1: unknown */
	int		 nnodes, node_rank;	/* -1: unknown */
	int		 master_port;	/* -1: unknown */
	enum engine	 engine;	/* of the first training launch found */
	char		*entry;		/* its entry script as written, or NULL */
	char		*launcher;	/* torchrun, msrun, torch.distributed.launch, python... */
	struct strv	 launches;	/* every training launch, expanded, one string each */
	struct strv	 configs;	/* --mm-tool/--mm-data/--mm-model values, YAML arguments, MM_TOOL */
	struct strv	 existing;	/* profiling options already on a launch, with their values */
	int		 train_iters;	/* --train-iters of the first launch; -1: not given */
};

/*
 * Scan the script PATH with the launch table and the environment ENVP
 * (NULL: empty) it will run with.  Returns 0; what cannot be worked out
 * stays -1 or NULL.  Returns -1 with a message in *why only when the
 * script cannot be read.  Call scan_free() in either case.
 */
int	scan_script(const struct launchtab *, const char *path,
	    char *const envp[], struct scan *, char **why);
void	scan_free(struct scan *);

#endif
