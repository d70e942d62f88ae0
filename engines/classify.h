/*
 * Which engine runs a launch, decided from its real argv and from the
 * entry script itself; shared by the static scan, the dry run and the
 * injector, so that the three always agree.
 *
 * The launch table (launchers.conf) is the override and the fast path: a
 * listed entry is not read.  An entry not listed is read (its first
 * CLASSIFY_READ_MAX bytes) for what it imports and calls: one that imports
 * mindspeed_llm and calls a training loop (pretrain(...), .train(...)) is
 * a MindSpeed-LLM launch, one that imports mindspeed_mm and calls one is a
 * MindSpeed-MM launch.  The mode of an MM launch comes from its arguments:
 * a YAML first argument is a YAML entry (MM_TOOL_PATH in it, or
 * tools.profile for the FSDP2 engine), --mm-tool FILE the tools.json
 * engine.  Inference, evaluation, conversion and preprocessing entries are
 * never touched.  --framework llm|mm forces every entry the launch table
 * does not list to that framework.
 */
#ifndef MSPROF_CLASSIFY_H
#define MSPROF_CLASSIFY_H

#include "shim/match.h"
#include "common/launchtab.h"

#define CLASSIFY_READ_MAX	65536

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
	enum engine	   engine;	/* ENGINE_NONE: left alone */
	enum launch_source source;
	int		   refused;	/* recognised, but cannot be profiled */
	int		   forcible;	/* left alone, --framework would force it */
	char		   why[512];	/* left alone or refused: the reason */
};

/*
 * Classify the exec of PATH with ARGV.  FRAMEWORK is the plan's
 * --framework ("auto", "llm", "mm"; NULL is "auto").  Relative entry and
 * config paths are read from the current directory.
 */
void	launch_classify(const struct launchtab *, const char *framework,
	    const char *path, char *const argv[], struct launch *);

/* The profiling settings the launch already has (engine_ops existing). */
void	launch_existing(const struct launch *, char *const argv[],
	    struct strv *out);

#endif
