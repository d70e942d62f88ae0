/*
 * MindSpeed-MM on Megatron with --mm-tool FILE (pretrain_sora.py,
 * pretrain_vlm.py, pretrain_transformers.py with Megatron options, ...):
 * the profiling settings are the "profile" section of that tools.json.
 * The launch gets a copy with the plan's settings instead; MM_TOOL follows
 * it when the launch takes the path from there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim/envfix.h"
#include "common/argv.h"
#include "mmconfig.h"

/* The tools.json of the launch, or NULL. */
static const char *
tools_of(char *const argv[], int script)
{
	const char *tools = NULL;

	if (argv_find(argv, script + 1, "--mm-tool", &tools) < 0)
		return NULL;
	return tools;
}

static void
existing(const struct launch *l, char *const argv[], char *const envp[],
    struct strv *out)
{
	const char *tools = tools_of(argv, l->script);

	if (tools != NULL)
		mm_tools_existing(tools, out);
}

/* The save path of the tools.json --mm-tool names. */
static char *
own_save_path(const struct launch *l, char *const argv[], char *const envp[])
{
	return mm_tools_save_path(tools_of(argv, l->script));
}

static int
rewrite(struct rewrite_ctx *c)
{
	int script = c->launch->script, n;
	const char *tools = tools_of(c->argv, script), *env;
	char *copy, text[16];

	if (tools == NULL)
		return rewrite_fail(c, xasprintf(_("%s has no --mm-tool: "
		    "MindSpeed-MM reads its profiling settings from the "
		    "tools.json it names; add --mm-tool "
		    "./mindspeed_mm/tools/tools.json to the launch"),
		    c->argv[script]));
	rewrite_copy_argv(c);
	if (mm_tools_copy(c, tools, "--mm-tool", &copy) == -1)
		return -1;
	argv_set(&c->out->argv, script + 1, "--mm-tool", copy);
	env = env_value(c->envp, "MM_TOOL");
	if (env != NULL && strcmp(env, tools) == 0)
		strv_pushf(&c->out->env, "MM_TOOL=%s", copy);
	free(copy);
	n = rewrite_train_iters(c, count_option(c->argv, script,
	    "--train-iters"));
	if (n > 0) {
		snprintf(text, sizeof(text), "%d", n);
		argv_set(&c->out->argv, script + 1, "--train-iters", text);
	}
	n = count_option(c->out->argv.v, script, "--train-iters");
	return n < 0 ? 0 : mm_window(c, n, "--train-iters");
}

const struct engine_ops mm_tools_engine = {
	.name = "mm-megatron",
	.label = N_("MindSpeed-MM, Megatron (tools.json)"),
	MM_ENGINE_DEFAULTS,
	.analyse_tool = "mindspeed_mm/tools/profiler.py",
	.existing = existing,
	.own_save_path = own_save_path,
	.rewrite = rewrite,
};
