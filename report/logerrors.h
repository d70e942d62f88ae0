/*
 * The errors a failed training's log gives, in its own words and where
 * (logerrors.c): the cause the report puts first, before any guess.
 */
#ifndef MSPROF_LOGERRORS_H
#define MSPROF_LOGERRORS_H

#include <stddef.h>

#include "common/util.h"

/* The kinds, as the JSON report names them. */
#define LOG_ERROR_CANN		"cann"		/* "EE1001: Invalid device ID ..." */
#define LOG_ERROR_PYTHON	"python"	/* a traceback's last line */
#define LOG_ERROR_CHILD		"child_failed"	/* torchrun's Root Cause */

struct log_error {
	const char	*kind;		/* LOG_ERROR_* */
	char		*text;		/* the log's words */
	int		 line;		/* where, counted from 1 */
	int		 more;		/* other lines (ranks) with the same */
};

/* In this order: CANN's code, the Python error, torchrun's report. */
struct log_errors {
	struct log_error *v;
	size_t		 n;
};

/* The errors LOG (or NULL) gives, each the first of its kind. */
void	log_errors_find(const char *log, struct log_errors *);
void	log_errors_free(struct log_errors *);

#endif
