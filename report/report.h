/*
 * What msprof-exec tells the user after the command ends (and what
 * `msprof-exec report PATH` tells again): the launches, what was
 * collected against what was expected, why anything is missing, and what
 * to do next; as text, and as JSON with --json.
 */
#ifndef MSPROF_REPORT_H
#define MSPROF_REPORT_H

#include <time.h>

#include "common/journal.h"

struct report_in {
	const char	*session;	/* NULL: a bare output directory */
	const char	*outdir;	/* with no session: the directory to check */
	const struct journal *journal;
	const char	*log;		/* the training output, or NULL */
	int		 status;	/* wait status; -1 unknown */
	int		 interrupted;	/* the signal that interrupted the run
					   (sent to msprof-exec), or 0 */
	const int	*running;	/* processes the script detached that
					   were still running at the end */
	size_t		 nrunning;
	time_t		 since;		/* data older than this is not ours */
	int		 quiet, verbose;
	const char	*json;		/* --json FILE, or NULL */
};

/* What the exit status depends on. */
struct report {
	int	injected, unchanged, refused, missing_paths, failed;
	int	expected, found;
	int	missing;	/* expected ranks without a directory */
};

/* Print the report (and write the JSON); fills OUT for the exit status. */
void	report_run(const struct report_in *, struct report *out);

/* msprof-exec report [--json FILE] PATH */
int	report_main(int argc, char **argv);

#endif
