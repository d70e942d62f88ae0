/*
 * The dynamic profiling config file: prepared by the injector when the job
 * starts, changed by `msprof-exec trigger` (launcher/trigger.c) while it
 * runs.  Every write is a temporary file renamed over the old one, so the
 * job never reads half a file.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "dynamic.h"
#include "common/jsonfile.h"
#include "common/util.h"

/* torch_npu's template (_dynamic_profiler_monitor_shm.py JSON_DATA). */
static cJSON *
template(void)
{
	static const char text[] = "{\"activities\": [\"CPU\", \"NPU\"], "
	    "\"prof_dir\": \"./\", \"analyse\": false, \"async_mode\": false, "
	    "\"record_shapes\": false, \"profile_memory\": false, "
	    "\"with_stack\": false, \"with_flops\": false, "
	    "\"with_modules\": false, \"active\": 1, \"warmup\": 0, "
	    "\"start_step\": 0, \"is_rank\": false, \"rank_list\": [], "
	    "\"experimental_config\": {\"profiler_level\": \"Level0\", "
	    "\"aic_metrics\": \"AiCoreNone\", \"l2_cache\": false, "
	    "\"op_attr\": false, \"gc_detect_threshold\": null, "
	    "\"data_simplification\": true, \"record_op_args\": false, "
	    "\"export_type\": [\"text\"], \"msprof_tx\": false, "
	    "\"mstx\": false, \"host_sys\": [], \"mstx_domain_include\": [], "
	    "\"mstx_domain_exclude\": [], \"sys_io\": false, "
	    "\"sys_interconnection\": false}}";

	return cJSON_Parse(text);
}

/* The file as it is, or the template when there is none yet. */
static cJSON *
load(const char *path, char **why)
{
	if (access(path, F_OK) == -1 && errno == ENOENT)
		return template();
	return json_read(path, why);
}

static void
set(cJSON *o, const char *key, cJSON *value)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(o, key, value);
	else
		cJSON_AddItemToObject(o, key, value);
}

/* "Level1" from "level1", as torch_npu's dynamic config spells it. */
static char *
level_name(const char *level)
{
	char *s = xstrdup(level);

	s[0] = 'L';
	return s;
}

/* The plan's settings in O, torch_npu's dynamic config. */
static void
settings(cJSON *o, const struct plan *p, const char *save,
    const struct dynamic_window *w)
{
	cJSON *a, *x;
	char *lvl;

	a = cJSON_CreateArray();
	if (p->with_cpu)
		cJSON_AddItemToArray(a, cJSON_CreateString("CPU"));
	cJSON_AddItemToArray(a, cJSON_CreateString("NPU"));
	set(o, "activities", a);
	set(o, "prof_dir", cJSON_CreateString(save));
	set(o, "analyse", cJSON_CreateBool(p->analyse));
	/*
	 * On the ranks of rank_list torch_npu parses online only in the
	 * background (torch_npu 2.7.1-7.3.0 on; before, never).
	 */
	set(o, "async_mode", cJSON_CreateBool(p->analyse && w->is_rank));
	set(o, "record_shapes", cJSON_CreateBool(p->record_shapes));
	set(o, "profile_memory", cJSON_CreateBool(p->with_memory));
	set(o, "with_stack", cJSON_CreateBool(p->with_stack));
	set(o, "active", cJSON_CreateNumber(w->active));
	set(o, "warmup", cJSON_CreateNumber(DYNAMIC_WARMUP));
	set(o, "start_step", cJSON_CreateNumber(w->start));
	set(o, "is_rank", cJSON_CreateBool(w->is_rank));
	set(o, "rank_list", json_ints(w->ranks, w->is_rank ? w->nranks : 0));
	if (!cJSON_IsObject(x = cJSON_GetObjectItemCaseSensitive(o,
	    "experimental_config"))) {
		x = cJSON_CreateObject();
		set(o, "experimental_config", x);
	}
	lvl = level_name(p->level);
	set(x, "profiler_level", cJSON_CreateString(lvl));
	free(lvl);
	set(x, "aic_metrics", cJSON_CreateString(p->aic_metrics));
	set(x, "data_simplification", cJSON_CreateBool(p->data_simplification));
	a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, cJSON_CreateString(p->export_type));
	set(x, "export_type", a);
}

int
dynamic_write(const char *dir, const struct plan *p, const char *save,
    const struct dynamic_window *w, char **why)
{
	char *path = xasprintf("%s/%s", dir, DYNAMIC_CONFIG);
	cJSON *o = load(path, why);
	int rc = -1;

	if (o != NULL && cJSON_IsObject(o)) {
		settings(o, p, save, w);
		rc = json_write_dated(o, path, w->mtime, why);
	} else if (o != NULL)
		*why = xasprintf(_("%s is not a JSON object; remove it or fix "
		    "it"), path);
	cJSON_Delete(o);
	free(path);
	return rc;
}

int
dynamic_prepare(const char *dir, const struct plan *p, const char *save,
    int steps, char **why)
{
	/*
	 * MindSpeed-MM starts the dynamic profiler on profile.ranks only;
	 * is_rank true would also turn online analysis off on those ranks
	 * (torch_npu dynamic_profile.py).  start_step 0 never fires: the job
	 * waits for msprof-exec trigger.
	 */
	struct dynamic_window w = { .start = 0, .active = steps };

	return dynamic_write(dir, p, save, &w, why);
}

int
dynamic_trigger(const char *path, int start, int active,
    struct dynamic_trigger *t, char **why)
{
	cJSON *o, *v;
	struct stat st;
	struct timespec times[2];
	time_t old_mtime;

	if ((o = load(path, why)) == NULL || !cJSON_IsObject(o)) {
		if (*why == NULL)
			*why = xstrdup(_("not a JSON object"));
		cJSON_Delete(o);
		return EX_CONFIG;
	}
	set(o, "start_step", cJSON_CreateNumber(start));
	if (active > 0)
		set(o, "active", cJSON_CreateNumber(active));
	old_mtime = stat(path, &st) == 0 ? st.st_mtime : 0;
	if (json_write(o, path, why) == -1) {
		cJSON_Delete(o);
		return EX_CANTCREAT;
	}
	/*
	 * torch_npu compares the file's mtime in whole seconds with the last
	 * it saw: a change within the same second would go unnoticed.  Move
	 * it a second past both now and the old file.
	 */
	times[0].tv_sec = times[1].tv_sec = (old_mtime > time(NULL) ?
	    old_mtime : time(NULL)) + 1;
	times[0].tv_nsec = times[1].tv_nsec = 0;
	utimensat(AT_FDCWD, path, times, 0);
	v = cJSON_GetObjectItemCaseSensitive(o, "active");
	t->active = cJSON_IsNumber(v) ? v->valueint : 1;
	v = cJSON_GetObjectItemCaseSensitive(o, "prof_dir");
	t->prof_dir = xstrdup(cJSON_IsString(v) ? v->valuestring : "./");
	cJSON_Delete(o);
	return 0;
}
