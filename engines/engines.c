/*
 * The table of engines, and what is worked out from it: names, the window
 * and save path of a plan, the window as the user reads it.  What a
 * window's steps are is window.c's.
 */
#include <string.h>

#include "common/plan.h"
#include "engine.h"

/* Before a launch is classified: the MindSpeed-LLM defaults, no engine. */
static const struct engine_ops no_engine = {
	.name = "none",
	.framework = "none",
	.label = N_("not found in the script; decided at launch"),
	.step_start = 2, .step_end = 4,
	.output = "./profiling_output",
};

static const struct engine_ops *const engines[ENGINE_COUNT] = {
	[ENGINE_NONE] = &no_engine,
	[ENGINE_LLM_MCORE] = &llm_mcore_engine,
	[ENGINE_LLM_FSDP2] = &llm_fsdp2_engine,
	[ENGINE_MM_MEGATRON] = &mm_tools_engine,
	[ENGINE_MM_YAML] = &mm_yaml_engine,
	[ENGINE_MM_FSDP2] = &mm_fsdp2_engine,
	[ENGINE_TORCH] = &torch_engine,
};

const struct engine_ops *
engine_ops(enum engine e)
{
	return (unsigned)e < ENGINE_COUNT ? engines[e] : &no_engine;
}

enum engine
engine_parse(const char *name)
{
	for (int e = ENGINE_NONE + 1; e < ENGINE_COUNT; e++)
		if (strcmp(engines[e]->name, name) == 0)
			return (enum engine)e;
	return ENGINE_NONE;
}

const char *const *
engine_names(void)
{
	static const char *names[ENGINE_COUNT];

	for (int e = ENGINE_NONE + 1; e < ENGINE_COUNT; e++)
		names[e - 1] = engines[e]->name;
	names[ENGINE_COUNT - 1] = NULL;
	return names;
}

const char *
engine_name(enum engine e)
{
	return engine_ops(e)->name;
}

const char *
engine_framework(enum engine e)
{
	return engine_ops(e)->framework;
}

int
engine_is_mm(enum engine e)
{
	return strcmp(engine_ops(e)->framework, "mm") == 0;
}

char *
engine_window_text(enum engine e, const struct plan *p, int start, int end)
{
	if (strcmp(p->mode, "dynamic") == 0 && !engine_ops(e)->window_only)
		return xstrdup(_("when triggered (msprof-exec trigger)"));
	return xasprintf(_("%d to %d, excluding %d"), start, end, end);
}

/* An engine's default window, and a window of two steps from --step-start. */
void
plan_steps(const struct plan *p, enum engine e, int *start, int *end)
{
	const struct engine_ops *o = engine_ops(e);

	*start = p->step_start ? p->step_start : o->step_start;
	*end = p->step_end ? p->step_end :
	    p->step_start ? *start + 2 : o->step_end;
}

int
plan_window(const struct plan *p, enum engine e, int *start, int *end,
    char **why)
{
	plan_steps(p, e, start, end);
	if (*end > *start)
		return 0;
	*why = xasprintf(_("--step-end %d is not after the start step %d of "
	    "this engine; give both with --steps S:E"), *end, *start);
	return -1;
}

const char *
plan_output(const struct plan *p, enum engine e)
{
	return p->output != NULL ? p->output : engine_ops(e)->output;
}
