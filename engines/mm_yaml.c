/*
 * MindSpeed-MM entries driven by a YAML config (pretrain_transformers.py
 * CONFIG.yaml, pretrain_qwen3_5.py): the YAML's top-level MM_TOOL_PATH
 * names the tools.json, and gpt_args.train_iters the iterations.  The
 * launch gets a copy of both: the YAML copy names the tools.json copy.
 */
#include <stdlib.h>

#include "mmconfig.h"

/* MM_TOOL_PATH of the launch's YAML (a copy), or NULL. */
static char *
tools_of(char *const argv[], int script)
{
	const char *cfg = yaml_argument(argv, script);
	char *why = NULL, *tools = NULL;
	struct ydoc y;

	if (cfg == NULL || ydoc_load(&y, cfg, &why) == -1) {
		free(why);
		return NULL;
	}
	tools = xstrdup_null(ydoc_scalar(&y, ydoc_get(&y, ydoc_root(&y),
	    "MM_TOOL_PATH")));
	ydoc_free(&y);
	return tools;
}

static void
existing(const struct launch *l, char *const argv[], char *const envp[],
    struct strv *out)
{
	char *tools = tools_of(argv, l->script);

	if (tools != NULL)
		mm_tools_existing(tools, out);
	free(tools);
}

/* The save path of the tools.json MM_TOOL_PATH names. */
static char *
own_save_path(const struct launch *l, char *const argv[], char *const envp[])
{
	char *tools = tools_of(argv, l->script), *path;

	path = mm_tools_save_path(tools);
	free(tools);
	return path;
}

static int
rewrite(struct rewrite_ctx *c)
{
	struct ydoc y;
	const char *cfg, *tools;
	char *copy = NULL;
	int rc, n;

	if (mm_load_yaml(c, &y, &cfg) == -1)
		return -1;
	tools = ydoc_scalar(&y, ydoc_get(&y, ydoc_root(&y), "MM_TOOL_PATH"));
	if (tools == NULL) {
		ydoc_free(&y);
		return rewrite_fail(c, xasprintf(_("%s has no top-level "
		    "MM_TOOL_PATH: the training would stop with KeyError: \"The "
		    "required keyword 'MM_TOOL_PATH' is missing from the "
		    "configuration file.\"; add MM_TOOL_PATH: "
		    "./mindspeed_mm/tools/tools.json"), cfg));
	}
	copy = mm_copy_path(c, tools);	/* checked before anything is written */
	rc = mm_yaml_text(c, cfg, "MM_TOOL_PATH", copy);
	free(copy);
	copy = NULL;
	if (rc == -1) {
		ydoc_free(&y);
		return -1;
	}
	rewrite_copy_argv(c);
	if (mm_tools_copy(c, tools, cfg, &copy) == -1) {
		ydoc_free(&y);
		return -1;
	}
	ydoc_set_str(&y, ydoc_root(&y), "MM_TOOL_PATH", copy);
	free(copy);
	n = rewrite_train_iters(c, mm_yaml_int(&y, "gpt_args", "train_iters"));
	if (n > 0 &&
	    !mm_yaml_set_int(&y, "gpt_args", "train_iters", n))
		return mm_not_a_map(c, &y, cfg, "gpt_args");
	n = mm_yaml_int(&y, "gpt_args", "train_iters");
	if (mm_window(c, n, "gpt_args.train_iters") == -1) {
		ydoc_free(&y);
		return -1;
	}
	return mm_yaml_copy(c, &y, cfg);
}

const struct engine_ops mm_yaml_engine = {
	.name = "mm-yaml",
	.label = N_("MindSpeed-MM, YAML config (MM_TOOL_PATH)"),
	MM_ENGINE_DEFAULTS,
	.yaml_first = 1,
	.analyse_tool = "mindspeed_mm/tools/profiler.py",
	.existing = existing,
	.own_save_path = own_save_path,
	.rewrite = rewrite,
};
