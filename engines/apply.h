/*
 * --set NAME[=VALUE]: a setting of the training given to the profiled
 * launch the way its engine reads it: a flag on its command line, a
 * variable in its environment, or a key of its YAML config (in the copy
 * the engine writes).  The user's files are only read.
 */
#ifndef MSPROF_APPLY_H
#define MSPROF_APPLY_H

#include "common/util.h"

enum set_kind { SETTING_FLAG, SETTING_ENV, SETTING_YAML };

struct set_item {
	enum set_kind	 kind;
	char		*name;	/* "--num-workers", "TASK_QUEUE_ENABLE", "a.b" */
	char		*value;	/* NULL: a flag without a value */
};

/* WORD ("NAME" or "NAME=VALUE") read: 0, or -1 with *why to free. */
int	set_parse(const char *word, struct set_item *, char **why);
void	set_item_free(struct set_item *);
/*
 * WORD checked against the settings table (its value; the scope is the
 * rewrite's, which knows the engine): 0, or -1 with *why.  *NOTE (to
 * free, or NULL) says when the table does not know the name.
 */
int	set_check(const char *word, char **note, char **why);
/* "flag", "environment variable", "YAML key" (translated). */
const char *set_kind_text(enum set_kind);

struct rewrite_ctx;
/* Give the rewritten launch the plan's settings: 0, or -1 with *why. */
int	rewrite_settings(struct rewrite_ctx *);

#endif
