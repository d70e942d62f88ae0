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

#include <stdio.h>

#include <cjson/cJSON.h>

#include "common/util.h"

struct summary;
struct out;
struct rule;

/*
 * The environment variables the rules consult, appended to OUT once each:
 * msprof-exec puts them in the plan, and the injector records their
 * values in the journal (only these, so the journal stays small and holds
 * nothing else of the environment).
 */
void	 advice_env_names(struct strv *out);

/* Run every rule over S, whose summaries are finished: its findings. */
void	 advice_run(struct summary *s);
/* The findings as text (a short block each), JSON (a list) and HTML. */
void	 advice_print(const struct summary *s, struct out *o);
cJSON	*advice_json(const struct summary *s);
void	 advice_html(const struct summary *s, FILE *fp);
void	 advice_free(struct summary *s);
/* The id of a rule ("host-bound"), as the text and the JSON name it. */
const char *advice_rule_id(const struct rule *);

#endif
