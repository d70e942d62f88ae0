/* The config copies of the MindSpeed-MM engines (mmconfig.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/match.h"
#include "common/argv.h"
#include "common/jsonfile.h"
#include "dynamic.h"
#include "mmconfig.h"

#define DYNAMIC_SUBDIR	"dynamic_profile"

char *
mm_copy_path(struct rewrite_ctx *c, const char *original)
{
	return xasprintf("%s/%ld_%s", c->session ? c->session : "SESSION",
	    (long)getpid(), path_base(original));
}

/*
 * MindSpeed-MM's static profiler has no export type; dynamic collection
 * takes it through experimental_config.
 */
void
mindspeed_mm_notes(const struct plan *p, struct strv *out)
{
	if (strcmp(p->export_type, "db") == 0 && strcmp(p->mode, "dynamic") != 0)
		strv_push(out, _("MindSpeed-MM has no export type setting: the "
		    "data is exported as text; run 'msprof-exec analyse "
		    "--export-type db' on it afterwards for .db files"));
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

cJSON *
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

/*
 * The tools.json mm_tools_existing() read, kept for the mm_tools_copy()
 * that follows it in the rewrite of the same launch: a launch parses the
 * file once.
 */
static char *kept_path;
static cJSON *kept_json;

static void
keep(const char *tools, cJSON *j)
{
	free(kept_path);
	cJSON_Delete(kept_json);
	kept_path = tools != NULL ? xstrdup(tools) : NULL;
	kept_json = j;
}

/* The tools.json TOOLS: the one kept if it is that file, else read. */
static cJSON *
tools_read(const char *tools, char **why)
{
	cJSON *j = NULL;

	if (kept_path != NULL && strcmp(kept_path, tools) == 0) {
		j = kept_json;
		kept_json = NULL;
	}
	keep(NULL, NULL);
	return j != NULL ? j : json_read(tools, why);
}

void
mm_tools_existing(const char *tools, struct strv *out)
{
	char *why = NULL;
	cJSON *j = json_read(tools, &why);

	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "profile"), "enable")))
		strv_pushf(out, _("\"profile\": {\"enable\": true} in %s"), tools);
	keep(j != NULL ? tools : NULL, j);
	free(why);
}

char *
mm_tools_save_path(const char *tools)
{
	char *why = NULL, *path = NULL;
	cJSON *j;
	const cJSON *v;

	if (tools == NULL || (j = tools_read(tools, &why)) == NULL) {
		free(why);
		return NULL;
	}
	v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "profile"), "static_param"),
	    "save_path");
	if (cJSON_IsString(v) && *v->valuestring != '\0')
		path = xstrdup(v->valuestring);
	cJSON_Delete(j);
	return path;
}

int
mm_tools_copy(struct rewrite_ctx *c, const char *tools, const char *named_by,
    char **copy)
{
	char *why = NULL, *dyn = NULL;
	cJSON *j = tools_read(tools, &why), *prof, *mine;
	int rc = -1;

	*copy = NULL;
	if (j == NULL) {
		rc = rewrite_fail(c, xasprintf(_("%s (named by %s)"), why,
		    named_by));
		free(why);
		return rc;
	}
	prof = cJSON_GetObjectItemCaseSensitive(j, "profile");
	if (!cJSON_IsObject(j) || (prof != NULL && !cJSON_IsObject(prof))) {
		cJSON_Delete(j);
		return rewrite_fail(c, xasprintf(_("%s: \"profile\" must be an "
		    "object {\"enable\": ..., \"static_param\": {...}} as in "
		    "mindspeed_mm/tools/tools.json; fix the file"), tools));
	}
	if (strcmp(c->plan->mode, "dynamic") == 0 &&
	    (dyn = dynamic_dir(c)) == NULL)
		goto out;
	if (prof == NULL)
		prof = cJSON_AddObjectToObject(j, "profile");
	mine = mm_profile(c, dyn);
	json_merge(prof, mine);
	cJSON_Delete(mine);
	*copy = mm_copy_path(c, tools);
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

int
mm_window(struct rewrite_ctx *c, int iters, const char *what)
{
	char *text = xasprintf("%s %d", what, iters);
	int rc;

	/* Dynamic collection starts when triggered: no window to check. */
	if (strcmp(c->plan->mode, "dynamic") == 0)
		iters = -1;
	rc = rewrite_window_check(c, iters, text);
	free(text);
	return rc;
}

int
mm_load_yaml(struct rewrite_ctx *c, struct ydoc *y, const char **cfg)
{
	if ((*cfg = yaml_argument(c->argv, c->launch->script)) == NULL)
		return rewrite_fail(c, xasprintf(_("%s needs a YAML config as "
		    "its first argument"), c->argv[c->launch->script]));
	if (ydoc_load(y, *cfg, c->why) == -1)
		return -1;
	if (!ydoc_root(y)) {
		ydoc_free(y);
		return rewrite_fail(c, xasprintf(_("%s: the top level must be a "
		    "mapping of settings; fix the file"), *cfg));
	}
	return 0;
}

int
mm_yaml_set_int(struct ydoc *y, const char *section, const char *key, int n)
{
	char text[16];
	int map = ydoc_map(y, ydoc_root(y), section);

	snprintf(text, sizeof(text), "%d", n);
	return map != 0 && ydoc_set(y, map, key, text) != 0;
}

int
mm_yaml_int(struct ydoc *y, const char *section, const char *key)
{
	return count_value(ydoc_scalar(y, ydoc_get(y, ydoc_get(y,
	    ydoc_root(y), section), key)));
}

int
mm_yaml_copy(struct rewrite_ctx *c, struct ydoc *y, const char *cfg)
{
	char *copy = mm_copy_path(c, cfg);
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

int
mm_not_a_map(struct rewrite_ctx *c, struct ydoc *y, const char *cfg,
    const char *key)
{
	ydoc_free(y);
	return rewrite_fail(c, xasprintf(_("%s: '%s' must be a mapping of "
	    "settings; fix the file"), cfg, key));
}

/* YAML holds text only: a path that is not UTF-8 cannot go into a copy. */
int
mm_yaml_text(struct rewrite_ctx *c, const char *cfg, const char *field,
    const char *value)
{
	if (utf8_valid(value))
		return 0;
	return rewrite_fail(c, xasprintf(_("%s: %s cannot hold %s: not UTF-8, "
	    "and YAML holds text only; give -o a directory whose full path is "
	    "UTF-8"), cfg, field, value));
}
