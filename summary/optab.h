/*
 * Operators by type and accelerator core in an open-addressing hash table.
 * The median is exact: a table keeps every instance's duration (a float)
 * while it holds at most OPTAB_KEEP of them, so memory grows with the
 * rows up to that bound only.  Past it the table drops them and the
 * median comes from a fixed histogram per operator (16 linear bins per
 * power of two from 2^-10 to 2^30 µs, so within 3 %), which op_exact
 * says, for the writers to label it approximate.
 */
#ifndef MSPROF_SUMMARY_OPTAB_H
#define MSPROF_SUMMARY_OPTAB_H

#include <stddef.h>
#include <stdint.h>

/* Durations a table keeps for exact medians: 16 MiB of floats. */
#define OPTAB_KEEP	((size_t)1 << 22)
#define OP_NRATIO	16	/* pipe-ratio columns kept */

struct op {
	char		*type, *core;
	size_t		 ntype, ncore;	/* their lengths */
	uint64_t	 hash;		/* of both */
	unsigned long	 count, nhist;	/* nhist: instances seen one by one */
	double		 total, min, max;
	unsigned long	 dynamic, aicpu_long;	/* OP State dynamic, AI_CPU >= 20 µs */
	/*
	 * Duration-weighted sums of the pipe ratios, the durations of the
	 * instances with any ratio, and per column the durations of the
	 * instances with a value in it (its weight; ops.c merges these).
	 */
	double		 ratio[OP_NRATIO], ratio_w, ratio_dur[OP_NRATIO];
	uint32_t	*hist;			/* NULL in per-rank tables */
	float		*dur;			/* every instance's, while kept */
	size_t		 ndur, capdur;
};

struct optab {
	struct op	**slot;
	size_t		  cap, n;
	int		  hist;
	int		  keep;			/* durations kept (below OPTAB_KEEP) */
	size_t		  kept;			/* how many */
	double		  total;		/* all durations */
};

struct optab	*optab_new(int with_hist);
struct op	*optab_get(struct optab *, const char *type, const char *core);
/* The same with the lengths known: TYPE and CORE need no terminator. */
struct op	*optab_getn(struct optab *, const char *type, size_t ntype,
		    const char *core, size_t ncore);
/* The operator, or NULL when the table has none of that type and core. */
const struct op	*optab_find(const struct optab *, const char *type,
		    const char *core);
/* Count one instance of DUR µs. */
void		 op_add(struct optab *, struct op *, double dur);
/* Add a line of op_statistic.csv: no median for this operator then. */
void		 op_add_stat(struct optab *, struct op *, unsigned long count,
		    double total, double min, double max);
/* Drop the histograms and durations (after merging into a table that keeps
 * them). */
void		 optab_drop_hist(struct optab *);
/*
 * Merge every operator of SRC into DST (counts, totals, min, max, flags);
 * SRC's pipe ratio K is DST's RATIO_MAP[K] (NULL: the same).
 */
void		 optab_merge(struct optab *dst, const struct optab *src,
		    const int *ratio_map);
/* The median, exact or from the histogram (op_exact); NaN: none. */
double		 op_median(const struct op *);
/* Is op_median exact (every instance's duration kept)? */
int		 op_exact(const struct op *);
/*
 * The operator type that kernel NAME (N bytes) stands for, where the
 * Type column holds none (level0 writes N/A): a span of NAME, or a
 * static string; its length in *LEN.  NAME itself when nothing is known.
 */
const char	*op_type_of_name(const char *name, size_t n, size_t *len);
/* TYPE (N bytes) holds no operator type: empty or N/A. */
int		 op_type_unknown(const char *type, size_t n);
/* The operators sorted by total time, descending (free the array). */
struct op	**optab_sorted(const struct optab *);
void		 optab_free(struct optab *);

#endif
