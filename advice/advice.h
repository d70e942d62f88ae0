/*
 * Advice: the rules that read what the summaries found and say what to
 * change.  Each rule is a row of its family's table (advice/steps.c,
 * operators.c, communication.c, memory.c, environment.c; the row is
 * described in advice/rules.h): its evidence and threshold, the settings
 * that address it, and for each setting whether the profiled launch
 * already has it (its command line, config copies and environment, from
 * the session's journal; not known without a session).
 */
#ifndef MSPROF_ADVICE_H
#define MSPROF_ADVICE_H

#include <stddef.h>

#include "common/util.h"

struct summary;

/*
 * The environment variables the rules consult, appended to OUT once each:
 * msprof-exec puts them in the plan, and the injector records their
 * values in the journal (only these, so the journal stays small and holds
 * nothing else of the environment).
 */
void	 advice_env_names(struct strv *out);

/*
 * The rules run as the summary's last row (kind_findings, declared with
 * the other rows in summary/model.h), so every summary has its findings
 * in its text, JSON and page.  For callers that act on them: how many,
 * and finding I's rule id (as the text and the JSON name it) and text;
 * NULL past the last.
 */
size_t	 advice_nfindings(const struct summary *s);
const char *advice_finding(const struct summary *s, size_t i,
	    const char **text);

#endif
