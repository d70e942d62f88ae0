/*
 * Before and after: what changed between the summaries of two runs (the
 * step time and its breakdown, the operator types, the ranks), judged
 * against a noise margin taken from the runs themselves, so that two runs
 * of one setting name nothing.
 */
#ifndef MSPROF_COMPARE_H
#define MSPROF_COMPARE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "summary.h"

/*
 * The noise margin, as a share of the base run's step: twice the larger
 * step-to-step variation of the two runs, and never below the floor.
 */
#define COMPARE_FLOOR	0.02

struct compare;

/*
 * Compare NEW against BASE (each the summary of one run, NAME as the user
 * gave it); both stay the caller's and must outlive the comparison.  NULL
 * and *why when there is nothing to compare: a run without any rank
 * directory, or without step and operator data (the message names the
 * run and what was looked for).
 */
struct compare	*compare_build(const struct summary *base, const char *base_name,
		    const struct summary *new, const char *new_name, char **why);
/* Add a caveat (said first in every format), e.g. how a run was chosen. */
void		 compare_caveat(struct compare *, const char *text);
/*
 * Name the settings that differ between the launches of the two runs,
 * from their sessions' journals (BASE and NEW: the msprof-exec_*
 * directories; NULL for a run without one, whose settings are then not
 * known, and said so).
 */
void		 compare_settings(struct compare *, const char *base_session,
		    const char *new_session);
/* Did anything change beyond the noise margin? */
int		 compare_changed(const struct compare *);
/* The text (FLAGS as summary_print's), the JSON, the XHTML page. */
void		 compare_print(const struct compare *, FILE *, unsigned flags);
cJSON		*compare_json(const struct compare *);
int		 compare_html(const struct compare *, FILE *);	/* -1: write error */
void		 compare_free(struct compare *);

#endif
