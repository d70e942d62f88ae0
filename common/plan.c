/* The plan as JSON (cJSON), shared by msprof-exec and the injector. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonfile.h"
#include "outfile.h"
#include "plan.h"
#include "util.h"

static const char *const existing_names[] = { "ask", "keep", "override" };

const char *
existing_name(enum existing e)
{
	return existing_names[e];
}

void
plan_defaults(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->level = xstrdup("level1");
	p->with_cpu = 1;
	p->export_type = xstrdup("text");
	p->aic_metrics = xstrdup("PipeUtilization");
	p->mode = xstrdup("static");
	p->analyse = 1;
	p->framework = xstrdup("auto");
	p->existing = EXISTING_ASK;
}

void
plan_free(struct plan *p)
{
	free(p->level);
	free(p->ranks);
	free(p->export_type);
	free(p->aic_metrics);
	free(p->mode);
	free(p->dynamic_dir);
	free(p->output);
	free(p->framework);
	free(p->session);
	free(p->shim);
	free(p->launchtab);
	free(p->chip);
	free(p->chip_ini);
	free(p->chip_why);
	strv_free(&p->record_env);
	strv_free(&p->set);
	memset(p, 0, sizeof(*p));
}

void
plan_dup(struct plan *dst, const struct plan *src)
{
	*dst = *src;
	dst->level = xstrdup_null(src->level);
	dst->ranks = NULL;
	if (src->ranks != NULL) {
		dst->ranks = xcalloc(src->nranks + 1, sizeof(*dst->ranks));
		memcpy(dst->ranks, src->ranks, src->nranks * sizeof(*src->ranks));
	}
	dst->export_type = xstrdup_null(src->export_type);
	dst->aic_metrics = xstrdup_null(src->aic_metrics);
	dst->mode = xstrdup_null(src->mode);
	dst->dynamic_dir = xstrdup_null(src->dynamic_dir);
	dst->output = xstrdup_null(src->output);
	dst->framework = xstrdup_null(src->framework);
	dst->session = xstrdup_null(src->session);
	dst->shim = xstrdup_null(src->shim);
	dst->launchtab = xstrdup_null(src->launchtab);
	dst->chip = xstrdup_null(src->chip);
	dst->chip_ini = xstrdup_null(src->chip_ini);
	dst->chip_why = xstrdup_null(src->chip_why);
	memset(&dst->record_env, 0, sizeof(dst->record_env));
	for (size_t i = 0; i < src->record_env.n; i++)
		strv_push(&dst->record_env, src->record_env.v[i]);
	memset(&dst->set, 0, sizeof(dst->set));
	for (size_t i = 0; i < src->set.n; i++)
		strv_push(&dst->set, src->set.v[i]);
}

static void
add_str(cJSON *o, const char *k, const char *v)
{
	if (v != NULL)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

int
plan_write(const struct plan *p, const char *path)
{
	cJSON *o = cJSON_CreateObject(), *r;
	char *text, *line, *why = NULL;
	int rc;

	cJSON_AddNumberToObject(o, "version", 1);
	add_str(o, "level", p->level);
	cJSON_AddNumberToObject(o, "step_start", p->step_start);
	cJSON_AddNumberToObject(o, "step_end", p->step_end);
	if (p->ranks_all)
		cJSON_AddStringToObject(o, "ranks", "all");
	else {
		r = cJSON_AddArrayToObject(o, "ranks");
		for (size_t i = 0; i < p->nranks; i++)
			cJSON_AddItemToArray(r, cJSON_CreateNumber(p->ranks[i]));
	}
	cJSON_AddBoolToObject(o, "with_cpu", p->with_cpu);
	cJSON_AddBoolToObject(o, "with_memory", p->with_memory);
	cJSON_AddBoolToObject(o, "with_stack", p->with_stack);
	cJSON_AddBoolToObject(o, "record_shapes", p->record_shapes);
	cJSON_AddBoolToObject(o, "data_simplification", p->data_simplification);
	add_str(o, "export_type", p->export_type);
	add_str(o, "aic_metrics", p->aic_metrics);
	add_str(o, "mode", p->mode);
	add_str(o, "dynamic_dir", p->dynamic_dir);
	cJSON_AddBoolToObject(o, "analyse", p->analyse);
	cJSON_AddNumberToObject(o, "train_iters", p->train_iters);
	add_str(o, "output", p->output);
	add_str(o, "framework", p->framework);
	add_str(o, "existing", existing_name(p->existing));
	r = cJSON_AddArrayToObject(o, "set");
	for (size_t i = 0; i < p->set.n; i++)
		cJSON_AddItemToArray(r, cJSON_CreateString(p->set.v[i]));
	add_str(o, "session", p->session);
	add_str(o, "shim", p->shim);
	add_str(o, "launchtab", p->launchtab);
	r = cJSON_AddArrayToObject(o, "record_env");
	for (size_t i = 0; i < p->record_env.n; i++)
		cJSON_AddItemToArray(r, cJSON_CreateString(p->record_env.v[i]));
	cJSON_AddNumberToObject(o, "device_mb", p->device_mb);
	add_str(o, "chip", p->chip);
	cJSON_AddNumberToObject(o, "chip_ai_cores", p->chip_cores);
	cJSON_AddNumberToObject(o, "chip_cube_mhz", p->chip_mhz);
	add_str(o, "chip_ini", p->chip_ini);
	add_str(o, "chip_why", p->chip_why);
	text = json_print(o, 1);
	cJSON_Delete(o);
	if (text == NULL)
		return -1;
	line = xasprintf("%s\n", text);
	if ((rc = outfile_put(path, line, strlen(line), &why)) == -1)
		free(why);	/* the caller says what failed, from errno */
	free(line);
	free(text);
	return rc;
}

static char *
get_str(const cJSON *o, const char *k, const char *def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (cJSON_IsString(v))
		return xstrdup(v->valuestring);
	return xstrdup_null(def);
}

static int
get_int(const cJSON *o, const char *k, int def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valueint : cJSON_IsBool(v) ?
	    cJSON_IsTrue(v) : def;
}

int
plan_read(struct plan *p, const char *path, char **why)
{
	char *text = read_file(path, NULL), *s;
	cJSON *o, *r, *e;
	size_t i;

	plan_defaults(p);
	if (text == NULL) {
		*why = xasprintf(_("cannot read the plan %s: %s"), path,
		    read_error(errno));
		return -1;
	}
	o = json_parse(text, NULL);
	free(text);
	if (!cJSON_IsObject(o)) {
		*why = xasprintf(_("%s is not a msprof-exec plan"), path);
		cJSON_Delete(o);
		return -1;
	}
#define STR(field, key) do { s = get_str(o, key, p->field); \
	free(p->field); p->field = s; } while (0)
	STR(level, "level");
	STR(export_type, "export_type");
	STR(aic_metrics, "aic_metrics");
	STR(mode, "mode");
	STR(dynamic_dir, "dynamic_dir");
	STR(output, "output");
	STR(framework, "framework");
	STR(session, "session");
	STR(shim, "shim");
	STR(launchtab, "launchtab");
	STR(chip, "chip");
	STR(chip_ini, "chip_ini");
	STR(chip_why, "chip_why");
#undef STR
	p->step_start = get_int(o, "step_start", 0);
	p->step_end = get_int(o, "step_end", 0);
	p->with_cpu = get_int(o, "with_cpu", 1);
	p->with_memory = get_int(o, "with_memory", 0);
	p->with_stack = get_int(o, "with_stack", 0);
	p->record_shapes = get_int(o, "record_shapes", 0);
	p->data_simplification = get_int(o, "data_simplification", 0);
	p->analyse = get_int(o, "analyse", 1);
	p->train_iters = get_int(o, "train_iters", 0);
	s = get_str(o, "existing", "ask");
	for (i = 0; i < 3; i++)
		if (strcmp(s, existing_names[i]) == 0)
			p->existing = (enum existing)i;
	free(s);
	r = cJSON_GetObjectItemCaseSensitive(o, "ranks");
	if (cJSON_IsString(r) && strcmp(r->valuestring, "all") == 0)
		p->ranks_all = 1;
	else if (cJSON_IsArray(r)) {
		p->nranks = (size_t)cJSON_GetArraySize(r);
		p->ranks = xcalloc(p->nranks, sizeof(*p->ranks));
		for (i = 0; i < p->nranks; i++)
			p->ranks[i] = cJSON_GetArrayItem(r, (int)i)->valueint;
	}
	r = cJSON_GetObjectItemCaseSensitive(o, "record_env");
	cJSON_ArrayForEach(e, r)
		if (cJSON_IsString(e))
			strv_push(&p->record_env, e->valuestring);
	r = cJSON_GetObjectItemCaseSensitive(o, "set");
	cJSON_ArrayForEach(e, r)
		if (cJSON_IsString(e))
			strv_push(&p->set, e->valuestring);
	p->device_mb = get_int(o, "device_mb", 0);
	p->chip_cores = get_int(o, "chip_ai_cores", 0);
	p->chip_mhz = get_int(o, "chip_cube_mhz", 0);
	cJSON_Delete(o);
	return 0;
}
