/*
 * What is wrong or unusual about the rank directories of one output
 * directory, so that a report of thousands of ranks lists only that: the
 * range of their sizes, and the ranks (as ranges) that are empty, have no
 * raw data, were not parsed, lack a parsed file most others have, are far
 * larger than the others, or have several directories.
 */
#ifndef MSPROF_REPORT_UNUSUAL_H
#define MSPROF_REPORT_UNUSUAL_H

#include <stddef.h>
#include <stdint.h>

#include "verify.h"

/* A rank directory more than OUTSIZED times the median size is named. */
#define OUTSIZED	2

struct rankset {
	int	*v;		/* ranks, in order, each once */
	size_t	 n;
};

enum unusual_kind {
	U_EMPTY,	/* nothing in it */
	U_NO_RAW,	/* no raw data in PROF_* (device_N/data) */
	U_UNPARSED,	/* no ASCEND_PROFILER_OUTPUT (when parsing was on) */
	U_OUTSIZED,	/* more than OUTSIZED times the median */
	U_DUPLICATE,	/* two directories or more: the newest is read */
	U_NKINDS
};

struct unusual {
	size_t		 nranks;	/* distinct known ranks */
	struct rankset	 ranks;		/* all of them */
	int64_t		 lo, hi, median, total;	/* bytes of the directories */
	struct rankset	 set[U_NKINDS];
	/* Per parsed file most ranks have: the ranks without it. */
	struct rankset	 lacking[RANKDIR_NFILES];
	size_t		 have[RANKDIR_NFILES];
	size_t		 parsed;	/* directories with parsed output */
	size_t		 unknown;	/* directories of no known rank */
};

void	unusual_find(const struct outdir *, struct unusual *);
void	unusual_free(struct unusual *);

#endif
