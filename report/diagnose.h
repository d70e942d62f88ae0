/*
 * Read the training log for the failures engineers hit when profiling,
 * and say what to do about each.
 */
#ifndef MSPROF_DIAGNOSE_H
#define MSPROF_DIAGNOSE_H

#include <stddef.h>

#include "common/util.h"

/* What the log shows: one text a rule that applies, and the rule's name. */
struct diagnosis {
	struct strv	 texts;		/* "what happened: what to do" */
	struct strv	 rules;		/* parallel: the rules' names */
};

/*
 * Add to OUT each known failure LOG (text, or NULL) shows; MM selects the
 * advice for MindSpeed-MM where it differs.  T (or NULL): the torch_npu
 * processes as their own logs tell, so that the warning of one that
 * collected its window is not taken for a failure.
 */
struct torchnpu;
void	diagnose_log(const char *log, int mm, const struct torchnpu *t,
	    struct diagnosis *out);
void	diagnosis_free(struct diagnosis *);
/* The rules, by name, in the order they are tried. */
size_t	diagnose_nrules(void);
const char *diagnose_rule(size_t);

/* The highest Megatron iteration the log shows ("iteration N/ M"), or -1. */
int	log_last_iteration(const char *log);
/*
 * The error a Python traceback in LOG ends with ("RuntimeError: ..."),
 * the first one that is not a launcher's report of its workers, or NULL.
 */
char	*log_error(const char *log);
/*
 * The highest step a training's log counts ("step 23", "Step [23/24]",
 * "iteration 23/ 24"), or -1; *LINE (or NULL): the line that says it.
 */
int	log_last_step(const char *log, char **line);
/*
 * The exit status a launcher's report in LOG gives its failed worker
 * (torchrun's "exitcode: 1"), or 1 when it gives none.
 */
int	log_exit_code(const char *log);
/* Does the log show that a worker failed (a launcher's own report)? */
int	log_shows_failure(const char *log);

#endif
