/*
 * A rank's timeline, read once (trace_view.c for the text export,
 * timeline_db.c for the db export) and folded as it is read into what
 * the device's idle time in each profiled step was spent on by the host.
 * The readers hand over the events one by one; the fold keeps a bounded
 * number of them (the longest), never the file: its memory does not grow
 * with the trace.
 *
 * Times are nanoseconds since the epoch, as torch_npu's clock gives them
 * (trace_view.json's microseconds with three decimals are exact in it).
 */
#ifndef MSPROF_SUMMARY_TIMELINE_H
#define MSPROF_SUMMARY_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

/* What the host was doing: the causes of idle device time. */
enum tl_cause {
	TL_SYNC,	/* aten::item, _local_scalar_dense, aclrtSynchronize* */
	TL_COMPILE,	/* aclopCompile* */
	TL_GC,		/* Python's garbage collector (torch_npu's) */
	TL_DATALOADER,	/* a "dataloader" Python function or operator */
	TL_GRAPH,	/* aclmdlRIExecute*: a captured graph's replay */
	TL_NCAUSE
};
extern const char *const tl_cause_key[TL_NCAUSE];	/* JSON keys */

/*
 * An idle gap this short, unexplained by the causes above, is the host
 * launching kernels one by one more slowly than the device runs them.
 */
#define TL_SHORT_GAP_NS	100000LL	/* 100 us */
/*
 * msprof-analyze's advisor (conjectured_gc.yaml): free time of 200,000 us
 * or more with almost no host event in it is likely Python's garbage
 * collector (at most one ACL event per 10,000 us: max_acl_event_num_ratio
 * 0.0001 per us).  Only in a step whose host events are ten times as
 * dense: where the timeline shows little of the host anyway (no call
 * stacks, a simulator), a quiet gap is no sign.
 */
#define TL_GC_GAP_NS	200000000LL
#define TL_GC_EVENTS_PER_NS	1e-7

/* One host event as a reader gives it. */
struct tl_host {
	const char	*name;
	const char	*cat;		/* "" when none */
	long long	 tid;
	int64_t		 a, b;		/* ns */
	/* the call stack, innermost frame first ("" none) */
	const char	*stack;
};

/* One call site of the user's code that synchronised (host and idle). */
struct tl_frame {
	/* "main.py:537 accuracy < main.py:358 train" */
	char	*where;
	char	*path;		/* its innermost frame's, as written */
	double	 host_us, idle_us;
	size_t	 n;
	int	 formats;	/* a tensor formatted (__format__) */
	int	 to_host;	/* a copy to the host (aten::to, copy_) */
};

/* What a rank's timeline says, summed over its profiled steps (us). */
struct tl_result {
	size_t		 nsteps, ntasks;
	double		 step_us, idle_us;
	double		 host_us[TL_NCAUSE], idle_by[TL_NCAUSE];
	size_t		 count[TL_NCAUSE];
	double		 explained_us;	/* idle under any cause */
	/* unexplained idle in gaps below TL_SHORT_GAP_NS, and how many */
	double		 short_us;
	size_t		 nshort;
	/* unexplained gaps over TL_GC_GAP_NS with almost no host event */
	double		 gc_gap_us;
	size_t		 ngc_gap;
	struct tl_frame	*frames;	/* the longest host time first */
	size_t		 nframes;
	int		 stacks;	/* a host event had a call stack */
	int		 approx;	/* events past the bounds left out */
};

struct timeline;
struct timeline	*tl_new(void);
void		 tl_step(struct timeline *, int64_t a, int64_t b);
void		 tl_task(struct timeline *, int64_t a, int64_t b);
void		 tl_host(struct timeline *, const struct tl_host *);
/* Fold what was read (and free T): NULL when no step was seen. */
struct tl_result *tl_finish(struct timeline *t);
void		 tl_result_free(struct tl_result *);
/* Free T without a result (a reader's error). */
void		 tl_abort(struct timeline *t);

/*
 * The innermost frames of STACK that are the user's (not torch's,
 * site-packages', dist-packages' nor the standard library's), up to
 * three, as "file:line function < ..." in BUF; 0 when none.  *PATH
 * (LEN bytes) the innermost one's path.
 */
int		 tl_user_frames(const char *stack, char *buf, size_t len,
		    char *path, size_t plen);

/*
 * The readers: fold PATH's events into T.  0, or -1 and *WHY naming the
 * file (the caller's to free) and *REASON (a few words, N_(), to group
 * the files left out by).
 */
int		 trace_view_read(const char *path, struct timeline *t,
		    char **why, const char **reason);
struct db;
int		 timeline_db_read(struct db *db, struct timeline *t,
		    char **why);

#endif
