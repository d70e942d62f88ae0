/*
 * The cluster step table (cluster.c) as the floors above read it: the
 * layout, each column's spread and the rank at its extreme, the worst
 * pipeline stage and the operators that differ most between the ranks
 * computing most and least.
 */
#ifndef MSPROF_SUMMARY_CLUSTER_H
#define MSPROF_SUMMARY_CLUSTER_H

#include <stddef.h>

#include "model.h"

/* A column's spread above this share of the mean step names a slow rank. */
#define CLUSTER_SPREAD		0.05
#define CLUSTER_DIFF_OPS	5	/* operators differing most, kept */

/* The columns: a step's parts, as the step breakdown's. */
enum { COL_COMP, COL_COMM, COL_FREE, COL_BUBBLE, NCOLS };

/* The state of kind_cluster. */
struct cluster {
	struct layout job;
	int	 tp, pp, dp, cp, ep;	/* the job's, 1 when unknown */
	int	 layout;		/* from metadata */
	size_t	 n;			/* ranks with steps */
	double	 mean_step;
	double	 lo[NCOLS], hi[NCOLS];
	size_t	 lo_at[NCOLS], hi_at[NCOLS];	/* indexes into s->r */
	int	 flagged[NCOLS];
	double	*stage;			/* mean computing + free per stage */
	int	 worst_stage;
	size_t	 slow, fast;		/* most and least computing */
	struct op_diff {
		char	*type;
		double	 slow, fast;
	} diff[CLUSTER_DIFF_OPS];
	size_t	 ndiff;
};

/* Rank R's mean of column C, us. */
double	 cluster_col(const struct rank_data *, int c);
/*
 * The position of RANK in the layout: its pp, dp, cp, tp and ep (0 for
 * each without a layout).
 */
void	 cluster_position(const struct cluster *, int rank, int v[5]);
/* Is rank I (an index into the summary's ranks) at a column's extreme? */
int	 cluster_extreme(const struct cluster *, size_t i);
/*
 * The rank (an index) at column K's worst extreme: the highest, but the
 * lowest for exposed communication (the others wait for it).
 */
size_t	 cluster_worst(const struct cluster *, int k);

#endif
