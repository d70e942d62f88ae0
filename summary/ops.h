/*
 * The top operators (ops.c) as the floors above read them: every rank's
 * operators together (ops_all, summary/model.h), where they came from,
 * and each operator's share and flags.
 */
#ifndef MSPROF_SUMMARY_OPS_H
#define MSPROF_SUMMARY_OPS_H

#include <stddef.h>

#include "optab.h"

struct summary;

/* The state of kind_ops. */
struct ops {
	struct optab	*all;		/* every rank, with histograms */
	char		*ratio[OP_NRATIO];	/* pipe-ratio column names */
	size_t		 nratio;
	size_t		 made;		/* ranks with operators */
	size_t		 steps;		/* rank-steps of ALL, once finished */
	const char	*source;	/* the files read, as said */
};

/* OP's share of every rank's device time; NaN when there is none. */
double	 op_share(const struct summary *, const struct op *);
/*
 * OP's flags as words ("aicpu dynamic low-pipe", those it has), in BUF
 * of LEN bytes; "" for none.
 */
void	 op_flags(const struct summary *, const struct op *, char *buf,
	    size_t len);

#endif
