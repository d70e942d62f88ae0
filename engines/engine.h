/*
 * The engines msprof-exec knows, as one table of operations: what
 * an engine is (name, framework, defaults, step convention), how it finds
 * profiling settings a launch already has, how it rewrites a launch, and
 * what the report and the offline parser need to know of it.  Adding an
 * engine is one file with its operations and one row in engines.c.
 */
#ifndef MSPROF_ENGINE_H
#define MSPROF_ENGINE_H

#include "common/util.h"

enum engine {
	ENGINE_NONE = 0,
	ENGINE_LLM_MCORE,
	ENGINE_LLM_FSDP2,
	ENGINE_MM_MEGATRON,
	ENGINE_MM_YAML,
	ENGINE_MM_FSDP2,
	ENGINE_TORCH,
	ENGINE_COUNT
};

/*
 * How an engine counts training steps.  STEPS_FROM_1: steps are the
 * iterations the log prints (1, 2, ...) and a window [S, E) ends before
 * step E.  STEPS_FROM_0: the first step is 0, so step E - 1 is iteration E.
 */
enum step_base { STEPS_FROM_1, STEPS_FROM_0 };

/*
 * How the training makes torch_npu's schedule of the window [S, E): what
 * it skips and warms up before the first ProfilerStep torch_npu keeps.
 * window.h works out the rest; an engine that states none (the default)
 * has its steps shown as torch_npu numbers them, with no iteration.
 */
enum step_schedule {
	SCHEDULE_UNKNOWN,
	/* MindSpeed-LLM: skip_first S - loaded - 2, one warm-up step
	   (none when S is the first iteration after the loaded one) */
	SCHEDULE_MEGATRON,
	/* skip_first S - 1, one warm-up step (none when S is 0) */
	SCHEDULE_WARM_ONE,
	/* skip_first S, no warm-up (MindSpeed-MM) */
	SCHEDULE_SKIP_START,
	/* torch_npu's dynamic profiling, started at step S with
	   msprof-exec's config (dynamic.h) */
	SCHEDULE_DYNAMIC,
};

struct plan;
struct launch;
struct rewrite_ctx;

struct engine_ops {
	const char	*name;		/* launchers.conf and the journal */
	const char	*framework;	/* "llm", "mm", "torch"; "none" */
	const char	*label;		/* N_(): how the table names it */
	int		 step_start, step_end;	/* the default window */
	const char	*output;	/* the default save path */
	int		 train_iters;	/* set unless told; 0: as launched */
	enum step_base	 base;
	enum step_schedule schedule;
	int		 yaml_first;	/* its config is the first argument */
	int		 window_only;	/* a step window only: no dynamic mode */
	int		 always_parses;	/* online parsing cannot be turned off */
	/* N_(): what it cannot do, said before the run; or NULL. */
	const char	*limits;
	/* The offline parser, relative to the job's directory, or NULL. */
	const char	*analyse_tool;
	/*
	 * Profiling settings the launch ARGV (with the environment ENVP,
	 * NULL: empty) already has (its options, its config files, its
	 * variables), one text each, appended to OUT.  The only rule for
	 * them: the scan, the confirmation, the injector and the report all
	 * see what this finds.  Unreadable files add nothing here; the
	 * rewrite reports them.
	 */
	void		(*existing)(const struct launch *, char *const argv[],
			    char *const envp[], struct strv *out);
	/*
	 * Where the launch's own settings save the data, when they are kept
	 * (--existing keep): a string to free, or NULL when this engine cannot
	 * tell (the report then says so).  May be NULL.
	 */
	char		*(*own_save_path)(const struct launch *,
			    char *const argv[], char *const envp[]);
	/* Rewrite the launch: 0, or -1 with *ctx->why. */
	int		(*rewrite)(struct rewrite_ctx *);
	/* Settings of the plan this engine has no place for, said. */
	void		(*notes)(const struct plan *, struct strv *out);
	/*
	 * The model, tokenizer and data paths the launch's config and
	 * options name that do not exist, appended to MISSING as
	 * launch_missing_paths (paths.h) says them.  May be NULL.
	 */
	void		(*input_paths)(const struct launch *,
			    char *const argv[], struct strv *missing);
};

/* The engine modules, one file each (llm_mcore.c, ...). */
extern const struct engine_ops llm_mcore_engine, llm_fsdp2_engine,
    mm_tools_engine, mm_yaml_engine, mm_fsdp2_engine, torch_engine;

/* The operations of an engine (ENGINE_NONE has a row too: no operations). */
const struct engine_ops *engine_ops(enum engine);
/* The engine named NAME, or ENGINE_NONE. */
enum engine engine_parse(const char *name);
/* The names of the engines, NULL-terminated (for launchtab_load). */
const char *const *engine_names(void);

const char *engine_name(enum engine);
/* "llm", "mm", "torch", or "none". */
const char *engine_framework(enum engine);
int	 engine_is_mm(enum engine);

/* The step window and save path of a plan for an engine, defaults applied. */
void	plan_steps(const struct plan *, enum engine, int *start, int *end);
/*
 * plan_steps(), and -1 with *why when the window is empty: only
 * --step-end was given, at or before the engine's default start.
 */
int	plan_window(const struct plan *, enum engine, int *start, int *end,
	    char **why);
const char *plan_output(const struct plan *, enum engine);

/* "S to E, excluding E" (or the trigger, when dynamic): the caller frees. */
char	*engine_window_text(enum engine, const struct plan *, int start,
	    int end);

#endif
