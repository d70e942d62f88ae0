/*
 * Rewrite a classified training launch with the profiling settings of the
 * plan, the way its engine reads them (engine.h, one module per engine).
 */
#ifndef MSPROF_REWRITE_H
#define MSPROF_REWRITE_H

#include "common/plan.h"
#include "classify.h"
#include "engine.h"

/* What a rewrite produced. */
struct rewrite {
	struct strv	 argv;		/* the command to run */
	struct strv	 env;		/* NAME=value to set for it */
	struct strv	 written;	/* config copies: "ORIGINAL -> COPY" */
	struct strv	 existing;	/* profiling settings the launch had */
	struct strv	 notes;		/* settings this engine has no place for */
	struct strv	 set;		/* --set, each with where it went */
	char		*save_path;	/* where the data goes */
	int		 step_start, step_end;
	/* The launch's own train iterations and those it runs; -1: unknown. */
	int		 iters_from, iters;
	/* The iteration it resumes from (0: a fresh start; -1: not read). */
	int		 loaded;
	char		*loaded_from;	/* the file that says so, or NULL */
	int		 kept;		/* existing settings kept as they were */
	char		*prof_config;	/* torch_npu's PROF_CONFIG_PATH, or NULL */
	int		 analyse;	/* parsed online, as it will really run */
	const char	*mode;		/* "static" or "dynamic", as it will run */
};

/*
 * Rewrite a launch into OUT.  Returns 0, or -1 with a message in *why when
 * the plan cannot apply (bad config file, the user must choose, ...).
 * Config copies are written into SESSION; with SESSION NULL (a dry run)
 * nothing is written and the copies are only described in OUT->written.
 */
int	launch_rewrite(const struct plan *, const struct launch *,
	    char *const argv[], char *const envp[], const char *session,
	    struct rewrite *out, char **why);
void	rewrite_free(struct rewrite *);

/* For the engine modules. */

/* Everything a rewrite works from. */
struct rewrite_ctx {
	const struct plan	*plan;
	const struct launch	*launch;
	char *const		*argv;
	char *const		*envp;
	const char		*session;	/* NULL: dry run, write nothing */
	struct rewrite		*out;
	char			**why;
};

/*
 * The iterations to run a launch whose own count is OWN (-1: it sets
 * none): the plan's; else the engine's default, which only shortens a
 * run: OWN when it is at most the default and the window fits in it.
 * -1: leave the count as it is.  Both counts go into the rewrite.
 */
int	rewrite_train_iters(struct rewrite_ctx *, int own);
/* Settings MindSpeed-LLM has no place for (both LLM engines). */
void	mindspeed_llm_notes(const struct plan *, struct strv *out);
/* OUT->argv = the launch as it is. */
void	rewrite_copy_argv(struct rewrite_ctx *);
/*
 * -1 and *why when the window ends after the last step of ITERS iterations
 * (WHAT: where they are set; ITERS 0 or less: not known, no check).
 */
int	rewrite_window_check(struct rewrite_ctx *, int iters, const char *what);
/* -1 with *why = WHY (taken). */
int	rewrite_fail(struct rewrite_ctx *, char *why);
/* The YAML first argument of the entry at SCRIPT in ARGV, or NULL. */
const char *yaml_argument(char *const argv[], int script);
int	yaml_true(const char *);
/* V, or NULL when that YAML scalar is empty or null (~, null, Null, NULL). */
const char *yaml_value(const char *v);
/*
 * The setting at dotted KEY ("a.b.c") of the YAML file CFG, or DFLT when
 * CFG is NULL or the setting is absent, empty or null: a copy to free
 * (NULL when DFLT is).
 * NULL when CFG cannot be read.
 */
char	*yaml_setting(const char *cfg, const char *key, const char *dflt);
/* A whole number of 0 or more, or -1 (also for NULL). */
int	count_value(const char *);
/* The last value of OPT after the entry in ARGV as a count, or -1. */
int	count_option(char *const argv[], int script, const char *opt);
/*
 * The values after the option at A: at most MAX (-1: any number) words
 * that are not options themselves ("-1" is a value); none after --opt=v.
 */
int	option_values(char *const *a, int max);
/*
 * Each profiling setting after the entry, as SPAN finds them (the words an
 * option at A spans with its values; 0: not a profiling option), joined
 * into one text each, into OUT.  SPAN also drives argv_drop.
 */
void	option_settings(char *const argv[], int script,
	    int (*span)(char *const *), struct strv *out);

#endif
