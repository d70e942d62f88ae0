/*
 * Check what a run collected: the per-rank *_ascend_pt directories under
 * each save path, against the ranks this node was expected to profile.
 */
#ifndef MSPROF_VERIFY_H
#define MSPROF_VERIFY_H

#include <stdint.h>
#include <time.h>

#include "common/journal.h"
#include "summary/inventory.h"
#include "attrib.h"

struct rankdir {
	char	*path;		/* as found: through a link, the link */
	char	*target;	/* where the link leads, or NULL */
	int	 link;
	int	 rank;		/* from profiler_info_<rank>.json; -1 unknown */
	int	 raw;		/* PROF_* / ASCEND_PROF_* with device_* data */
	int	 parsed;	/* ASCEND_PROFILER_OUTPUT with files */
	unsigned files;		/* which of rankdir_files (inventory.h) it holds */
	int64_t	 bytes;		/* of its files (a link's: its target's) */
};

/* What one launch (or, with no launch known, a directory) collected. */
struct outdir {
	char		*path;		/* absolute */
	int		 analyse;	/* parsed output expected */
	int		 known;		/* which ranks run here is known */
	int		*expected;	/* ranks expected on this node */
	size_t		 nexpected;
	int		 first_local, nlocal;	/* this node's ranks */
	struct rankdir	*dirs;		/* by rank, those of no rank last */
	size_t		 ndirs;
	struct strv	 broken;	/* links that lead nowhere or loop */
	const struct launch_record *launch;	/* whose data this is */
	/* Sessions of other jobs that wrote here while this launch ran. */
	struct strv	 mixed;
	size_t		 unclear;	/* rank directories of no one launch */
};

struct verify {
	struct outdir	*outs;
	size_t		 nouts;
	struct claims	 claims;	/* the launches around the session */
};

/*
 * Verify the profiled launches of SESSION's journal, one outdir a launch,
 * each with the rank directories that launch made (attrib.h).  SINCE
 * stands for the start of a launch recorded without one.  The outdirs
 * point into the journal.  What the directories hold comes from INV,
 * which lists and reads what it has not yet.
 */
void	verify_journal(const struct journal *, const char *session,
	    time_t since, struct inventory *inv, struct verify *);
/* Verify a directory on its own (no launch known). */
void	verify_dir(const char *path, struct inventory *inv, struct verify *);
void	verify_free(struct verify *);
/* Keep O's rank directories by rank, those of no rank last. */
void	outdir_sort(struct outdir *);
/* Was rank R found in OUT? */
const struct rankdir *outdir_found(const struct outdir *, int r);

#endif
