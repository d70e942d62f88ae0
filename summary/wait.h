/*
 * Which rank the collectives wait for (wait.c) as the floors above read
 * it: each rank's votes, the collectives it saw and its mean ratios, the
 * collectives of two ranks, and the communication by parallel group and
 * kind (comm_split_of, summary/model.h).
 */
#ifndef MSPROF_SUMMARY_WAIT_H
#define MSPROF_SUMMARY_WAIT_H

#include <stddef.h>

#include "strmap.h"

struct summary;
struct rank_split;

/* The state of kind_wait; each array has a slot for each rank. */
struct wait {
	struct strmap	 inst;		/* "group\037step\037op" -> inst */
	size_t		 ranks;		/* ranks with data */
	double		*wait_sum, *sync_sum;
	size_t		*nratio, *votes, *seen;
	size_t		 voted, counted, dropped_groups;
	/* collectives of two ranks: each rank's, and those it came last to */
	size_t		*seen2, *last2, counted2;
	/* HCCL group (its name and its hash) -> enum comm_group + 1 */
	struct strmap	 gmap;
	struct rank_split *split;	/* each rank's */
	int		 named;
};

/*
 * For qsort_r over indexes of ranks (ARG: the struct wait): voted for
 * most often first, then in rank order.
 */
int	 wait_by_votes(const void *, const void *, void *arg);
/*
 * The rank (*MOST, an index) with the most exposed time of group G, kind
 * K, and the mean over the ranks that have some (*MEAN, ms a step): how
 * many have some.
 */
size_t	 wait_split_most(const struct summary *, int g, int k, size_t *most,
	    double *mean);

#endif
