/*
 * Where a MindSpeed-LLM (Megatron) launch resumes: the iteration it loads
 * from its --load directory.  Megatron reads the iteration from
 * latest_checkpointed_iteration.txt there ("release" or a number), starts
 * at 0 with --finetune or a "release" checkpoint, and starts from scratch
 * (with a warning) when the file is not there; --ckpt-step N loads
 * iteration N instead of the latest.  Its profiler then asserts that
 * profile_step_start is greater than the loaded iteration.
 */
#ifndef MSPROF_RESUME_H
#define MSPROF_RESUME_H

struct resume {
	int	 iteration;	/* 0: a fresh start */
	char	*tracker;	/* the file it came from, or NULL */
	int	 load_is_save;	/* --load and --save name one directory */
};

/*
 * Read the training arguments ARGV[FROM..] of a launch run in CWD (NULL:
 * the current directory).  Returns 0, or -1 with a message in *why when the
 * tracker file exists but does not hold an iteration.
 */
int	resume_read(char *const argv[], int from, const char *cwd,
	    struct resume *, char **why);
void	resume_free(struct resume *);

#endif
