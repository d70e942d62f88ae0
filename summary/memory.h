/*
 * The device memory (memory.c) as the floors above read it: each rank's
 * peak (mem_peak_of, summary/model.h), whose it is or why there is none,
 * and the spread of the peaks.
 */
#ifndef MSPROF_SUMMARY_MEMORY_H
#define MSPROF_SUMMARY_MEMORY_H

#include <stddef.h>

struct summary;

/* The state of kind_memory. */
struct memory {
	size_t	 made;		/* ranks with a peak */
};

/* What the summary keeps of a rank: whose peak it is, or why none. */
struct mem_rank {
	const char	*component;	/* "APP" or "PTA" */
	char		*why;		/* NULL: no memory_record.csv */
	double		 peak_mb;	/* NaN when unknown */
};

/* Rank I's (never NULL; its peak NaN when the summary has none). */
const struct mem_rank *mem_rank_of(const struct summary *, size_t i);
/*
 * The lowest, median and highest peak, MB, NaN without any, and *AT the
 * rank of the highest.
 */
void	 mem_spread(const struct summary *, double *lo, double *med,
	    double *hi, size_t *at);

#endif
