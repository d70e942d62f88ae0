/*
 * Whose data is a rank directory?  A save path may be written by several
 * launches: two launches of one script, a run an hour earlier, the other
 * nodes of one job on shared storage, or another job at the same time.
 * Each rank directory's name carries the host that wrote it and when its
 * profiler started (common/rankname.h); each launch's journal record has
 * its host and start.  A directory belongs to the launch that was running
 * on its host into its save path when it was made.
 */
#ifndef MSPROF_ATTRIB_H
#define MSPROF_ATTRIB_H

#include <stdint.h>

#include "common/journal.h"
#include "common/rankname.h"

/* A profiled launch of some session, with what attribution needs of it. */
struct claim {
	const struct launch_record *rec;
	char		*dir;		/* its save path, absolute */
	const char	*session;	/* its session directory */
	int64_t		 start_ms;
	int64_t		 end_ms;	/* its session's end (INT64_MAX: unknown) */
	/*
	 * Added to a rank directory's time as read here: the launch's
	 * processes may keep another time zone (TZ) than msprof-exec.
	 */
	int64_t		 tz_fix_ms;
};

/* The profiled launches of every session that may have written there. */
struct claims {
	struct claim	*v;
	size_t		 n;
	struct journal	*journals;	/* of the sessions read */
	char		**sessions;
	size_t		 nsessions;
	int		 borrowed;	/* journals[0] is the caller's */
};

/*
 * The launches of the sessions beside SESSION (in its output directory)
 * and in the save paths of JOURNAL's launches, SESSION's own included.
 * SINCE stands for the start of a launch recorded without one.  Unless
 * JOURNAL is merged (other sessions' records added), it is SESSION's
 * journal as read, and the claims point into it: it outlives them.
 */
void	claims_gather(struct claims *, const char *session,
	    const struct journal *, int64_t since_ms);
void	claims_free(struct claims *);

/* The claim of REC (the same launch, read from its own session), or NULL. */
const struct claim *claims_of(const struct claims *,
	    const struct launch_record *);

/*
 * The launch whose rank directory NAME (of RANK, -1 unknown) in the
 * absolute directory DIR is, or NULL: not one of these launches', or
 * written while launches of different jobs ran there (then *MIXED is 1).
 */
const struct claim *claims_owner(const struct claims *, const char *dir,
	    const struct rankname *, int rank, int *mixed);

/*
 * The other sessions of SESSION's job that ran with it (the other nodes
 * of a multi-node job sharing the output directory), into OUT.
 */
void	claims_job_sessions(const struct claims *, const char *session,
	    struct strv *out);

/* Are A and B launches of one job (one session, or one master address)? */
int	claims_same_job(const struct claim *a, const struct claim *b);
/* Did A and B run at the same time (each to its session's end)? */
int	claims_overlap(const struct claim *a, const struct claim *b);

#endif
