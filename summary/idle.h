/*
 * The device's idle time and its causes (idle.c) as the floors above
 * read it: each rank's timeline (idle_of, summary/model.h), where it
 * came from or why there is none, and the causes' names.
 */
#ifndef MSPROF_SUMMARY_IDLE_H
#define MSPROF_SUMMARY_IDLE_H

#include <stddef.h>

#include "timeline.h"

struct summary;

/* The state of kind_idle. */
struct idle {
	size_t	 made;		/* ranks with a timeline */
};

/* What the summary keeps of a rank: its timeline, or why none. */
struct idle_rank {
	struct tl_result *r;	/* NULL: no timeline */
	char		*why;	/* NULL: none said */
	const char	*source;	/* the file it was read from */
};

/* The causes' names, to translate (timeline.h's TL_SYNC and others). */
extern const char *const idle_cause_name[TL_NCAUSE];

/* Rank I's (never NULL; its timeline NULL when the summary has none). */
const struct idle_rank *idle_rank_at(const struct summary *, size_t i);

#endif
