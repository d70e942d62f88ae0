/*
 * Which engine runs a launch, decided from its real argv and from the
 * entry script itself; shared by the static scan, the dry run and the
 * injector, so that the three always agree.
 *
 * The launch table (launchers.conf) is the override and the fast path: a
 * listed entry is not read.  An entry not listed (or listed "auto") is
 * read (content.h) for what it imports and calls: one that imports
 * mindspeed_llm and calls a training loop (pretrain(...), .train(...)) is
 * a MindSpeed-LLM launch, one that imports mindspeed_mm and calls one is a
 * MindSpeed-MM launch, and one built on torch (torch, transformers,
 * accelerate, deepspeed: on an Ascend node they load torch_npu) that
 * trains (a backward pass and an optimizer step, Trainer(...).train(),
 * deepspeed.initialize(...)) is a torch_npu launch.  The mode of an MM
 * launch comes from its arguments: a YAML first argument is a YAML entry
 * (MM_TOOL_PATH in it, or tools.profile for the FSDP2 engine), --mm-tool
 * FILE the tools.json engine.  Inference, evaluation, conversion and
 * preprocessing entries are never touched.  --framework llm|mm|torch
 * forces every launcher-started entry the launch table does not list to
 * that framework; a script started directly (python X.py) is a launch
 * only when its content makes it one (--framework torch: when it is built
 * on torch).
 */
#ifndef MSPROF_CLASSIFY_H
#define MSPROF_CLASSIFY_H

#include "shim/match.h"
#include "common/launchtab.h"
#include "engine.h"

/* How the engine of a launch was decided. */
enum launch_source {
	SOURCE_NONE = 0,	/* left alone: see why */
	SOURCE_TABLE,		/* the entry is listed in launchers.conf */
	SOURCE_CONTENT,		/* what the entry imports and calls */
	SOURCE_FORCED		/* --framework */
};

struct launch {
	enum launch_kind   kind;
	int		   script;	/* argv index of the entry, or -1 */
	int		   direct;	/* a script started by python itself */
	enum engine	   engine;	/* ENGINE_NONE: left alone */
	enum launch_source source;
	int		   refused;	/* recognised, but cannot be profiled */
	int		   forcible;	/* left alone, --framework would force it */
	int		   torch;	/* the entry is built on torch (or
					   MindSpeed, which is) */
	int		   quiet;	/* left alone and not worth a word: a
					   script started directly that is no
					   torch or MindSpeed program */
	int		   module;	/* the entry is a module (-m NAME) */
	int		   console;	/* the entry is the console script
					   executed (fairseq-train), argv[0] */
	int		   spawns;	/* the entry starts its ranks itself
					   (mp.spawn, detectron2's launch) */
	char		   why[512];	/* left alone or refused: the reason */
	char		   because[512];	/* taken by its content: the
					   call that makes it a training */
};

/*
 * Classify the exec of PATH with ARGV.  FRAMEWORK is the plan's
 * --framework ("auto", "llm", "mm", "torch"; NULL is "auto").  Relative
 * entry and config paths are read from the current directory.
 */
void	launch_classify(const struct launchtab *, const char *framework,
	    const char *path, char *const argv[], struct launch *);

/*
 * Is a script started directly (python X.py) that only an "auto" entry
 * matches read under FRAMEWORK (NULL: "auto")?  Not under llm or mm: the
 * shim is then not to hand it over (launchtab_shim_match).
 */
int	launch_reads_direct(const char *framework);

/*
 * The profiling settings the launch already has (engine_ops existing),
 * with the environment ENVP it runs with.
 */
void	launch_existing(const struct launch *, char *const argv[],
	    char *const envp[], struct strv *out);

#endif
