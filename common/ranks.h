/*
 * A list of ranks as people read it: in rank order, runs as ranges
 * ("0-7, 12, 16-23"), and at most a few items on one line with the rest
 * counted, so that the list of a job of thousands of ranks stays one line.
 * The report, the summary and compare all say ranks this way.
 */
#ifndef MSPROF_RANKS_H
#define MSPROF_RANKS_H

#include <stddef.h>

/*
 * RANKS (any order, duplicates allowed; negative values are left out) as
 * ranges joined with ", ".  With MAX_ITEMS > 0, at most that many items
 * (a range or a single rank) are written, followed by " and N more"
 * (N ranks).  The result is the caller's to free; "" for no rank.
 */
char	*ranks_text(const int *ranks, size_t n, size_t max_items);
/* How many distinct non-negative ranks RANKS holds. */
size_t	 ranks_count(const int *ranks, size_t n);

#endif
