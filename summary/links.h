/*
 * The links (links.c) as the floors above read it: each transport's
 * links, their mean bandwidth, and the links sorted by transport and
 * bandwidth (links_all, link_gb_s and link_slow, summary/model.h).
 */
#ifndef MSPROF_SUMMARY_LINKS_H
#define MSPROF_SUMMARY_LINKS_H

#include <stddef.h>

#include "model.h"
#include "strmap.h"

/* The state of kind_links. */
struct links {
	struct strmap	 map;		/* "src-dst-tr" -> link */
	struct link	**v;		/* sorted after finish */
	size_t		 n, ranks;	/* links; ranks with a matrix */
	double		 mean[COMM_NTRANS], median[COMM_NTRANS];
	size_t		 count[COMM_NTRANS];	/* links with a bandwidth */
	int		 maxrank;	/* the highest src or dst */
	struct rank_transfers *per;	/* each rank's (transfers_of) */
};

#endif
