/*
 * Read a training launch (launcher, options, entry script) and rewrite it
 * with the profiling settings of the plan, per engine (DESIGN section 3).
 */
#ifndef MSPROF_REWRITE_H
#define MSPROF_REWRITE_H

#include "shim/match.h"
#include "common/launchtab.h"
#include "common/plan.h"

struct launch {
	enum launch_kind kind;
	int		 script;	/* argv index of the training script, or -1 */
	enum engine	 engine;
};

/* What a rewrite produced. */
struct rewrite {
	struct strv	 argv;		/* the command to run */
	struct strv	 env;		/* NAME=value to set for it */
	struct strv	 written;	/* config copies: "ORIGINAL -> COPY" */
	struct strv	 existing;	/* profiling settings the launch had */
	struct strv	 notes;		/* settings this engine has no place for */
	char		*save_path;	/* where the data goes */
	int		 step_start, step_end;
	int		 kept;		/* existing settings kept as they were */
};

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

/* Analyse the exec of PATH with ARGV. */
void	launch_analyse(const struct launchtab *, const char *path,
	    char *const argv[], struct launch *);

/*
 * --framework llm|mm: an entry script the launch table does not know is
 * taken as one of that framework (LLM: mcore, or FSDP2 with a YAML first;
 * MM: the Megatron engine with --mm-tool, else a YAML entry).
 */
void	launch_force_framework(struct launch *, const char *framework,
	    char *const argv[]);

/*
 * Rewrite a launch into OUT.  Returns 0, or -1 with a message in *why when
 * the plan cannot apply (bad config file, the user must choose, ...).
 * Config copies are written into SESSION (none when it is NULL).
 */
int	launch_rewrite(const struct plan *, const struct launch *,
	    char *const argv[], char *const envp[], const char *session,
	    struct rewrite *out, char **why);
void	rewrite_free(struct rewrite *);

/* The flags appended to a MindSpeed-LLM mcore launch. */
void	llm_flags(const struct plan *, struct strv *out);

/* Per engine (rewrite.c: LLM; mm.c: MM).  0, or -1 with *ctx->why. */
int	rewrite_llm_mcore(struct rewrite_ctx *);
int	rewrite_llm_fsdp2(struct rewrite_ctx *);
int	rewrite_mm_megatron(struct rewrite_ctx *);
int	rewrite_mm_yaml(struct rewrite_ctx *);
int	rewrite_mm_fsdp2(struct rewrite_ctx *);

/* Shared by the engines. */
int	existing_refused(struct rewrite_ctx *);
int	window_check(struct rewrite_ctx *, int last, const char *what);
int	is_int_word(const char *);
int	yaml_true(const char *);
/* The YAML argument of an entry (the first after it), or NULL. */
const char *yaml_argument(struct rewrite_ctx *);

#endif
