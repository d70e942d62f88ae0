/*
 * The MindSpeed-MM engines (DESIGN section 3, reference section 3): the
 * profiling settings live in a tools.json or a YAML config, so the injector
 * writes copies of them into the session directory with the plan's
 * settings and points the launch at the copies.  The user's files are only
 * read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/envfix.h"
#include "common/argv.h"
#include "dynamic.h"
#include "common/jsonfile.h"
#include "rewrite.h"
#include "common/yamldoc.h"

/* MindSpeed-MM trains 100 iterations under msprof-exec unless told. */
#define MM_TRAIN_ITERS	100
#define DYNAMIC_SUBDIR	"dynamic_profile"

/* Where the copy of ORIGINAL goes: SESSION/<pid>_<name>. */
static char *
copy_path(struct rewrite_ctx *c, const char *original)
{
	return xasprintf("%s/%ld_%s", c->session ? c->session : "SESSION",
	    (long)getpid(), path_base(original));
}

static int
train_iters(const struct plan *p)
{
	return p->train_iters == 0 ? MM_TRAIN_ITERS : p->train_iters;
}

/* The dynamic profiler's directory, created at the launch. */
static char *
dynamic_dir(struct rewrite_ctx *c)
{
	char *dir = c->plan->dynamic_dir != NULL ?
	    xstrdup(c->plan->dynamic_dir) :
	    xasprintf("%s/%s", c->out->save_path, DYNAMIC_SUBDIR);

	if (c->session == NULL)
		return dir;
	if (mkdirs(dir, 0755) == -1) {
		*c->why = xasprintf(_("cannot create the dynamic profiling "
		    "directory %s; choose another with --dynamic-dir"), dir);
		free(dir);
		return NULL;
	}
	if (dynamic_prepare(dir, c->plan, c->out->save_path,
	    c->out->step_end - c->out->step_start, c->why) == -1) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* The "profile" settings of MindSpeed-MM from the plan. */
static cJSON *
mm_profile(struct rewrite_ctx *c, const char *dyn)
{
	const struct plan *p = c->plan;
	cJSON *o = cJSON_CreateObject(), *s, *r;

	cJSON_AddBoolToObject(o, "enable", 1);
	cJSON_AddStringToObject(o, "profile_type", p->mode);
	r = cJSON_AddArrayToObject(o, "ranks");
	if (p->ranks_all || p->nranks == 0)
		cJSON_AddItemToArray(r, cJSON_CreateNumber(p->ranks_all ? -1 : 0));
	for (size_t i = 0; !p->ranks_all && i < p->nranks; i++)
		cJSON_AddItemToArray(r, cJSON_CreateNumber(p->ranks[i]));
	s = cJSON_AddObjectToObject(o, "static_param");
	cJSON_AddStringToObject(s, "level", p->level);
	cJSON_AddBoolToObject(s, "with_stack", p->with_stack);
	cJSON_AddBoolToObject(s, "with_memory", p->with_memory);
	cJSON_AddBoolToObject(s, "record_shapes", p->record_shapes);
	cJSON_AddBoolToObject(s, "with_cpu", p->with_cpu);
	cJSON_AddStringToObject(s, "save_path", c->out->save_path);
	cJSON_AddNumberToObject(s, "start_step", c->out->step_start);
	cJSON_AddNumberToObject(s, "end_step", c->out->step_end);
	cJSON_AddBoolToObject(s, "data_simplification", p->data_simplification);
	cJSON_AddStringToObject(s, "aic_metrics_type", p->aic_metrics);
	cJSON_AddBoolToObject(s, "analyse_flag", p->analyse);
	if (dyn != NULL)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(o,
		    "dynamic_param"), "config_path", dyn);
	return o;
}

static int
fail(struct rewrite_ctx *c, char *why)
{
	*c->why = why;
	return -1;
}

/*
 * Write a copy of the tools.json TOOLS (named by NAMED_BY) with the plan's
 * profile section into *COPY (the caller's to free).  Returns 0; 1 when the
 * existing settings are kept (no copy); -1 with *why (no copy).
 */
static int
tools_copy(struct rewrite_ctx *c, const char *tools, const char *named_by,
    char **copy)
{
	char *why = NULL, *dyn = NULL;
	cJSON *j = json_read(tools, &why), *prof, *mine;
	int rc = -1;

	*copy = NULL;
	if (j == NULL) {
		rc = fail(c, xasprintf(_("%s (named by %s)"), why, named_by));
		free(why);
		return rc;
	}
	prof = cJSON_GetObjectItemCaseSensitive(j, "profile");
	if (!cJSON_IsObject(j) || (prof != NULL && !cJSON_IsObject(prof))) {
		cJSON_Delete(j);
		return fail(c, xasprintf(_("%s: \"profile\" must be an object "
		    "{\"enable\": ..., \"static_param\": {...}} as in "
		    "mindspeed_mm/tools/tools.json; fix the file"), tools));
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(prof, "enable")))
		strv_pushf(&c->out->existing, _("\"profile\": {\"enable\": true} "
		    "in %s"), tools);
	if (existing_refused(c) == -1)
		goto out;
	if (c->out->existing.n > 0 && c->plan->existing == EXISTING_KEEP) {
		c->out->kept = 1;
		rc = 1;
		goto out;
	}
	if (strcmp(c->plan->mode, "dynamic") == 0 &&
	    (dyn = dynamic_dir(c)) == NULL)
		goto out;
	if (prof == NULL)
		prof = cJSON_AddObjectToObject(j, "profile");
	mine = mm_profile(c, dyn);
	json_merge(prof, mine);
	cJSON_Delete(mine);
	*copy = copy_path(c, tools);
	if (c->session != NULL && json_write(j, *copy, c->why) == -1) {
		free(*copy);
		*copy = NULL;
		goto out;
	}
	strv_pushf(&c->out->written, "%s -> %s", tools, *copy);
	rc = 0;
out:
	free(dyn);
	cJSON_Delete(j);
	return rc;
}

static void
copy_argv(struct rewrite_ctx *c)
{
	for (char *const *a = c->argv; *a != NULL; a++)
		strv_push(&c->out->argv, *a);
}

static int
window(struct rewrite_ctx *c, int iters, const char *what)
{
	char *text = xasprintf("%s %d", what, iters);
	int rc;

	/*
	 * MindSpeed-MM counts steps from 0: the last is iters - 1.  Dynamic
	 * collection starts when triggered: no window to check.
	 */
	if (strcmp(c->plan->mode, "dynamic") == 0)
		iters = -1;
	rc = window_check(c, iters > 0 ? iters - 1 : -1, text);
	free(text);
	return rc;
}

int
rewrite_mm_megatron(struct rewrite_ctx *c)
{
	int from = c->launch->script + 1, rc;
	const char *tools = NULL, *env;
	char *copy, n[16];

	if (argv_find(c->argv, from, "--mm-tool", &tools) < 0 || tools == NULL)
		return fail(c, xasprintf(_("%s has no --mm-tool: MindSpeed-MM "
		    "reads its profiling settings from the tools.json it names; "
		    "add --mm-tool ./mindspeed_mm/tools/tools.json to the launch"),
		    c->argv[c->launch->script]));
	copy_argv(c);
	if ((rc = tools_copy(c, tools, "--mm-tool", &copy)) != 0)
		return rc < 0 ? -1 : 0;
	argv_set(&c->out->argv, from, "--mm-tool", copy);
	env = env_value(c->envp, "MM_TOOL");
	if (env != NULL && strcmp(env, tools) == 0)
		strv_pushf(&c->out->env, "MM_TOOL=%s", copy);
	free(copy);
	if (c->plan->train_iters >= 0) {
		snprintf(n, sizeof(n), "%d", train_iters(c->plan));
		argv_set(&c->out->argv, from, "--train-iters", n);
	}
	if (argv_find(c->out->argv.v, from, "--train-iters", &env) < 0 ||
	    env == NULL || !is_int_word(env))
		return 0;
	return window(c, atoi(env), "--train-iters");
}

/* The YAML config of an entry, loaded, with a root mapping. */
static int
load_yaml(struct rewrite_ctx *c, struct ydoc *y, const char **cfg)
{
	if ((*cfg = yaml_argument(c)) == NULL)
		return fail(c, xasprintf(_("%s needs a YAML config as its first "
		    "argument"), c->argv[c->launch->script]));
	if (ydoc_load(y, *cfg, c->why) == -1)
		return -1;
	if (!ydoc_root(y)) {
		ydoc_free(y);
		return fail(c, xasprintf(_("%s: the top level must be a mapping "
		    "of settings; fix the file"), *cfg));
	}
	return 0;
}

/* Set SECTION.KEY of the YAML to N; 0 and *why when SECTION is no mapping. */
static int
yaml_set_int(struct ydoc *y, const char *section, const char *key, int n)
{
	char text[16];
	int map = ydoc_map(y, ydoc_root(y), section);

	snprintf(text, sizeof(text), "%d", n);
	return map != 0 && ydoc_set(y, map, key, text) != 0;
}

static int
yaml_int(struct ydoc *y, const char *section, const char *key)
{
	const char *v = ydoc_scalar(y, ydoc_get(y, ydoc_get(y, ydoc_root(y),
	    section), key));

	return v != NULL && is_int_word(v) ? atoi(v) : -1;
}

/* Write the YAML copy and point the launch at it. */
static int
yaml_copy(struct rewrite_ctx *c, struct ydoc *y, const char *cfg)
{
	char *copy = copy_path(c, cfg);
	int rc = 0;

	if (c->session != NULL)
		rc = ydoc_write(y, copy, c->why);
	ydoc_free(y);
	if (rc == 0) {
		strv_pushf(&c->out->written, "%s -> %s", cfg, copy);
		argv_replace(&c->out->argv, c->launch->script + 1, copy);
	}
	free(copy);
	return rc;
}

static int
not_a_map(struct rewrite_ctx *c, struct ydoc *y, const char *cfg,
    const char *key)
{
	ydoc_free(y);
	return fail(c, xasprintf(_("%s: '%s' must be a mapping of settings; fix "
	    "the file"), cfg, key));
}

/*
 * YAML holds text only: a path that is not UTF-8 (a byte of -o) cannot be
 * written into a YAML copy.  0, or -1 and *why naming the file and FIELD.
 */
static int
yaml_text(struct rewrite_ctx *c, const char *cfg, const char *field,
    const char *value)
{
	if (utf8_valid(value))
		return 0;
	return fail(c, xasprintf(_("%s: %s cannot hold %s: not UTF-8, and "
	    "YAML holds text only; give -o a directory whose full path is "
	    "UTF-8"),
	    cfg, field, value));
}

int
rewrite_mm_yaml(struct rewrite_ctx *c)
{
	struct ydoc y;
	const char *cfg, *tools;
	char *copy = NULL;
	int rc, iters;

	if (load_yaml(c, &y, &cfg) == -1)
		return -1;
	tools = ydoc_scalar(&y, ydoc_get(&y, ydoc_root(&y), "MM_TOOL_PATH"));
	if (tools == NULL) {
		ydoc_free(&y);
		return fail(c, xasprintf(_("%s has no top-level MM_TOOL_PATH: "
		    "the training would stop with KeyError: \"The required "
		    "keyword 'MM_TOOL_PATH' is missing from the configuration "
		    "file.\"; add MM_TOOL_PATH: ./mindspeed_mm/tools/tools.json"),
		    cfg));
	}
	copy = copy_path(c, tools);	/* checked before anything is written */
	rc = yaml_text(c, cfg, "MM_TOOL_PATH", copy);
	free(copy);
	copy = NULL;
	if (rc == -1) {
		ydoc_free(&y);
		return -1;
	}
	copy_argv(c);
	if ((rc = tools_copy(c, tools, cfg, &copy)) != 0) {
		ydoc_free(&y);
		return rc < 0 ? -1 : 0;
	}
	ydoc_set_str(&y, ydoc_root(&y), "MM_TOOL_PATH", copy);
	free(copy);
	if (c->plan->train_iters >= 0 && !yaml_set_int(&y, "gpt_args",
	    "train_iters", train_iters(c->plan)))
		return not_a_map(c, &y, cfg, "gpt_args");
	iters = yaml_int(&y, "gpt_args", "train_iters");
	if (window(c, iters, "gpt_args.train_iters") == -1) {
		ydoc_free(&y);
		return -1;
	}
	return yaml_copy(c, &y, cfg);
}

static int
is_profile_override(const char *a)
{
	return strncmp(a, "tools.profile.", 14) == 0 && strchr(a, '=') != NULL;
}

static int
drop_profile_override(char *const *a)
{
	return is_profile_override(a[0]);
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
			return fail(c, xasprintf(_("%s: '%s' must be a mapping of "
			    "settings; fix the file"), cfg, field));
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
		if (yaml_text(c, cfg, field, item->valuestring) == -1)
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

/* The FSDP2 engine's tools.profile mapping with the plan's settings. */
static int
fsdp2_profile(struct rewrite_ctx *c, struct ydoc *y, int profile,
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

int
rewrite_mm_fsdp2(struct rewrite_ctx *c)
{
	struct ydoc y;
	const char *cfg, *v;
	int tools, profile, from = c->launch->script + 1, iters;
	char n[32];

	if (strcmp(c->plan->mode, "dynamic") == 0)
		return fail(c, xstrdup(_("the MindSpeed-MM FSDP2 engine profiles "
		    "statically only (profile_type only supports static); drop "
		    "--mode dynamic")));
	if (load_yaml(c, &y, &cfg) == -1)
		return -1;
	if ((tools = ydoc_map(&y, ydoc_root(&y), "tools")) == 0)
		return not_a_map(c, &y, cfg, "tools");
	if ((profile = ydoc_map(&y, tools, "profile")) == 0)
		return not_a_map(c, &y, cfg, "tools.profile");
	if (yaml_true(ydoc_scalar(&y, ydoc_get(&y, profile, "enable"))))
		strv_pushf(&c->out->existing, _("tools.profile.enable: true in %s"),
		    cfg);
	for (int i = from; c->argv[i] != NULL; i++)
		if (is_profile_override(c->argv[i]))
			strv_push(&c->out->existing, c->argv[i]);
	if (existing_refused(c) == -1) {
		ydoc_free(&y);
		return -1;
	}
	copy_argv(c);
	if (c->out->existing.n > 0 && c->plan->existing == EXISTING_KEEP) {
		ydoc_free(&y);
		c->out->kept = 1;
		return 0;
	}
	argv_drop(&c->out->argv, from, drop_profile_override);
	if (fsdp2_profile(c, &y, profile, cfg) == -1) {
		ydoc_free(&y);
		return -1;
	}
	/* key=value on the command line wins over the YAML. */
	if (c->plan->train_iters >= 0) {
		snprintf(n, sizeof(n), "training.train_iters=%d",
		    train_iters(c->plan));
		for (size_t i = (size_t)from; i < c->out->argv.n; i++)
			if (strncmp(c->out->argv.v[i], "training.train_iters=",
			    21) == 0)
				argv_replace(&c->out->argv, (int)i, n);
		if (!yaml_set_int(&y, "training", "train_iters",
		    train_iters(c->plan)))
			return not_a_map(c, &y, cfg, "training");
	}
	iters = yaml_int(&y, "training", "train_iters");
	for (size_t i = (size_t)from; i < c->out->argv.n; i++)
		if (strncmp(v = c->out->argv.v[i], "training.train_iters=", 21) == 0)
			iters = is_int_word(v + 21) ? atoi(v + 21) : iters;
	if (window(c, iters, "training.train_iters") == -1) {
		ydoc_free(&y);
		return -1;
	}
	return yaml_copy(c, &y, cfg);
}
