/*
 * The MindSpeed-MM FSDP2 engine (mindspeed_mm/fsdp/train/trainer.py
 * CONFIG.yaml [KEY=VALUE ...]): the profiling settings are the YAML's
 * tools.profile mapping, and KEY=VALUE words after it win over the YAML.
 * It profiles statically only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argv.h"
#include "mmconfig.h"
#include "paths.h"

#define ITERS_WORD	"training.train_iters="
#define SAVE_WORD	"tools.profile.static_param.save_path="
#define SAVE_DEFAULT	"./profiling"	/* static_param's default */

static int
is_override(const char *a)
{
	return strncmp(a, "tools.profile.", 14) == 0 && strchr(a, '=') != NULL;
}

static int
drop_override(char *const *a)
{
	return is_override(a[0]);
}

static void
existing(const struct launch *l, char *const argv[], char *const envp[],
    struct strv *out)
{
	const char *cfg = yaml_argument(argv, l->script);
	char *why = NULL;
	struct ydoc y;

	if (cfg != NULL && ydoc_load(&y, cfg, &why) == 0) {
		if (yaml_true(ydoc_scalar(&y, ydoc_get(&y, ydoc_get(&y,
		    ydoc_get(&y, ydoc_root(&y), "tools"), "profile"), "enable"))))
			strv_pushf(out, _("tools.profile.enable: true in %s"), cfg);
		ydoc_free(&y);
	}
	free(why);
	for (int i = l->script + 1; argv[i] != NULL; i++)
		if (is_override(argv[i]))
			strv_push(out, argv[i]);
}

/*
 * Where the launch's own settings save the data: the last
 * tools.profile.static_param.save_path= word after the YAML, else the
 * YAML's, else the default; NULL when the YAML cannot be read.
 */
static char *
own_save_path(const struct launch *l, char *const argv[], char *const envp[])
{
	const char *word = NULL;

	for (int i = l->script + 1; argv[i] != NULL; i++)
		if (strncmp(argv[i], SAVE_WORD, strlen(SAVE_WORD)) == 0)
			word = argv[i] + strlen(SAVE_WORD);
	if (word != NULL && *word != '\0')	/* an empty word is no path */
		return xstrdup(word);
	return yaml_setting(yaml_argument(argv, l->script),
	    "tools.profile.static_param.save_path", SAVE_DEFAULT);
}

/*
 * Set ITEM's key in mapping MAP (FIELD names it, dotted) from its cJSON
 * value; mappings merge.  0, or -1 and *why naming CFG and the field.
 */
static int
yaml_put(struct rewrite_ctx *c, struct ydoc *y, int map, const cJSON *item,
    const char *cfg, const char *field)
{
	const cJSON *e;
	char **items, n[32], *sub_field;
	size_t i = 0;
	int sub, rc = 0;

	if (cJSON_IsObject(item)) {
		if ((sub = ydoc_map(y, map, item->string)) == 0)
			return rewrite_fail(c, xasprintf(_("%s: '%s' must be a "
			    "mapping of settings; fix the file"), cfg, field));
		cJSON_ArrayForEach(e, item) {
			sub_field = xasprintf("%s.%s", field, e->string);
			rc = rc == 0 ? yaml_put(c, y, sub, e, cfg, sub_field) : rc;
			free(sub_field);
		}
		return rc;
	}
	if (cJSON_IsArray(item)) {
		items = xcalloc((size_t)cJSON_GetArraySize(item) + 1,
		    sizeof(*items));
		cJSON_ArrayForEach(e, item)
			items[i++] = xasprintf("%d", e->valueint);
		ydoc_set_list(y, map, item->string, (const char *const *)items, i);
		while (i > 0)
			free(items[--i]);
		free(items);
	} else if (cJSON_IsString(item)) {
		if (mm_yaml_text(c, cfg, field, item->valuestring) == -1)
			return -1;
		ydoc_set_str(y, map, item->string, item->valuestring);
	} else if (cJSON_IsNumber(item)) {
		snprintf(n, sizeof(n), "%d", item->valueint);
		ydoc_set(y, map, item->string, n);
	} else
		ydoc_set(y, map, item->string, cJSON_IsTrue(item) ? "true" :
		    "false");
	return 0;
}

/* The tools.profile mapping with the plan's settings. */
static int
profile_settings(struct rewrite_ctx *c, struct ydoc *y, int profile,
    const char *cfg)
{
	cJSON *mine = mm_profile(c, NULL);
	const cJSON *item;
	char *field;
	int rc = 0;

	cJSON_ArrayForEach(item, mine) {
		field = xasprintf("tools.profile.%s", item->string);
		rc = rc == 0 ? yaml_put(c, y, profile, item, cfg, field) : rc;
		free(field);
	}
	cJSON_Delete(mine);
	return rc;
}

/* The last training.train_iters=N word after the entry, or -1. */
static int
iters_word(const struct strv *argv, size_t from)
{
	const char *v;
	int n = -1;

	for (size_t i = from; i < argv->n; i++)
		if (strncmp(v = argv->v[i], ITERS_WORD, strlen(ITERS_WORD)) == 0 &&
		    count_value(v + strlen(ITERS_WORD)) >= 0)
			n = count_value(v + strlen(ITERS_WORD));
	return n;
}

/* training.train_iters=N on the command line wins over the YAML. */
static int
train_iters(struct rewrite_ctx *c, struct ydoc *y, const char *cfg)
{
	size_t from = (size_t)c->launch->script + 1;
	char word[48];
	int n, iters;

	iters = iters_word(&c->out->argv, from);
	n = rewrite_train_iters(c, iters >= 0 ? iters :
	    mm_yaml_int(y, "training", "train_iters"));
	if (n > 0) {
		snprintf(word, sizeof(word), ITERS_WORD "%d", n);
		for (size_t i = from; i < c->out->argv.n; i++)
			if (strncmp(c->out->argv.v[i], ITERS_WORD,
			    strlen(ITERS_WORD)) == 0)
				argv_replace(&c->out->argv, (int)i, word);
		if (!mm_yaml_set_int(y, "training", "train_iters", n))
			return mm_not_a_map(c, y, cfg, "training");
	}
	iters = iters_word(&c->out->argv, from);
	if (iters < 0)
		iters = mm_yaml_int(y, "training", "train_iters");
	if (mm_window(c, iters, "training.train_iters") == -1) {
		ydoc_free(y);
		return -1;
	}
	return 0;
}

static int
rewrite(struct rewrite_ctx *c)
{
	struct ydoc y;
	const char *cfg;
	int tools, profile;

	if (strcmp(c->plan->mode, "dynamic") == 0)
		return rewrite_fail(c, xstrdup(_("the MindSpeed-MM FSDP2 engine "
		    "profiles statically only (profile_type only supports "
		    "static); drop --mode dynamic")));
	if (mm_load_yaml(c, &y, &cfg) == -1)
		return -1;
	if ((tools = ydoc_map(&y, ydoc_root(&y), "tools")) == 0)
		return mm_not_a_map(c, &y, cfg, "tools");
	if ((profile = ydoc_map(&y, tools, "profile")) == 0)
		return mm_not_a_map(c, &y, cfg, "tools.profile");
	rewrite_copy_argv(c);
	argv_drop(&c->out->argv, c->launch->script + 1, drop_override);
	if (profile_settings(c, &y, profile, cfg) == -1) {
		ydoc_free(&y);
		return -1;
	}
	if (train_iters(c, &y, cfg) == -1)
		return -1;
	return mm_yaml_copy(c, &y, cfg);
}

/*
 * The model and data the training loads before its first step (KEY=VALUE
 * words win over its YAML).
 */
static void
input_paths(const struct launch *l, char *const argv[], struct strv *missing)
{
	static const char *const keys[] = { "model.model_name_or_path",
	    "data.dataset_param.preprocess_parameters.model_name_or_path",
	    "data.dataset_param.basic_parameters.dataset",
	    "data.dataset_param.basic_parameters.dataset_dir", NULL };

	paths_check_settings(l, argv, keys, 0, missing);
}

const struct engine_ops mm_fsdp2_engine = {
	.name = "mm-fsdp2",
	.label = N_("MindSpeed-MM, FSDP2 (tools.profile)"),
	MM_ENGINE_DEFAULTS,
	.yaml_first = 1,
	.analyse_tool = "mindspeed_mm/fsdp/tools/profiler.py",
	.existing = existing,
	.own_save_path = own_save_path,
	.rewrite = rewrite,
	.input_paths = input_paths,
};
