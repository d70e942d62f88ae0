/*
 * The communication files of one rank (communication.json and
 * communication_matrix.json), read once on a worker thread with jscan.h
 * for the summaries that use them (wait.c, links.c): only the fields they
 * need, into a few arrays, never a node per JSON value.  A file that
 * cannot be read whole is left out whole, with the reason.
 */
#ifndef MSPROF_SUMMARY_COMM_H
#define MSPROF_SUMMARY_COMM_H

#include <stddef.h>

#include "jscan.h"

/* The transport types of the files, in the order links.c counts them. */
#define COMM_NTRANS	4
extern const char *const comm_transports[COMM_NTRANS];
/* The index of transport NAME (any case), or -1. */
int	comm_transport(const char *name);

/* "step4" of communication.json and "4" of a db export are one step. */
const char *comm_step_number(const char *step);

/*
 * An operator of communication.json's "collective" sections, or of its
 * "p2p" sections (P2P set: sends and receives, which have no outlier).
 */
struct comm_op {
	size_t	 key;		/* in the pool: group \037 step \037 operator */
	size_t	 glen;		/* the group's length, at the key's start */
	size_t	 op;		/* where the operator starts in the key */
	double	 elapse, wait_ratio, sync_ratio;	/* NaN: missing */
	double	 wait_ms;	/* Wait Time(ms); NaN: missing */
	double	 xfer_ms;	/* the longest Transit Time(ms) of its transports */
	int	 p2p;
};

/* Bytes sent in transfers of one size, over every operator. */
struct comm_size {
	int	 tr;
	double	 mb, count, ms;	/* ms: their time, 0 when not given */
	int	 exact;		/* MB printed to the byte: six decimals */
};

/* What one operator moved over one transport (Transit Size, Time). */
struct comm_xfer {
	int	 tr;
	double	 mb, ms;
};

/* A link of communication_matrix.json. */
struct comm_link {
	int	 src, dst, tr;	/* tr: -1 when the type is none of ours */
	double	 size, time;	/* MB, ms; NaN: missing */
};

/* One file: read (1), absent (0), or left out (-1) and why. */
struct comm_file {
	int		 state;
	enum js_err	 err;
	char		*why;
};

struct comm {
	struct comm_file	 comm, matrix;
	struct comm_op		*ops;
	size_t			 nops, capops;
	/*
	 * Operators whose Elapse Time or ratios are null (a file damaged or
	 * written by a parse that failed): how many, and the first one's
	 * index in ops.
	 */
	size_t			 nnull, null_first;
	struct comm_size	*sizes;
	size_t			 nsizes, capsizes;
	struct comm_xfer	*xfers;
	size_t			 nxfers, capxfers;
	struct comm_link	*links;
	size_t			 nlinks, caplinks;
	char			*pool;
	size_t			 npool, cappool;
};

/* Read the files in OUT (ASCEND_PROFILER_OUTPUT) that are regular files. */
struct comm	*comm_read(const char *out);
void		 comm_free(struct comm *);

#endif
