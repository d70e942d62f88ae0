/*
 * The dynamic profiling config file: prepared by the injector when the job
 * starts, changed by `msprof-exec trigger` while it runs.  Every write is a
 * temporary file renamed over the old one, so the job never reads half a
 * file.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <fcntl.h>
#include <time.h>

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
	set(o, "warmup", cJSON_CreateNumber(0));
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

/* The directories below DIR (DEPTH levels) that hold the config file. */
static void
configs_below(const char *dir, int depth, struct strv *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *sub, *file;

	while (d != NULL && depth > 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		file = xasprintf("%s/%s", sub, DYNAMIC_CONFIG);
		if (access(file, F_OK) == 0)
			strv_push(out, sub);
		else
			configs_below(sub, depth - 1, out);
		free(file);
		free(sub);
	}
	if (d != NULL)
		closedir(d);
}

/*
 * DIR holds no config file: it is not where a running job looks, and a
 * template written there would never be read.  Name the one below it.
 */
static void __attribute__((noreturn))
not_dynamic(const char *dir)
{
	struct strv found = { 0 };
	char *list;

	configs_below(dir, 2, &found);
	if (found.n > 0) {
		list = strv_join(found.v, ", ");
		errx(EX_NOINPUT, _("%s holds no %s, so no job reads it; the "
		    "dynamic profiling directory is below it: msprof-exec "
		    "trigger %s"), dir, DYNAMIC_CONFIG, list);
	}
	errx(EX_NOINPUT, _("%s holds no %s, so no job reads it; give the "
	    "dynamic profiling directory of the running job (--dynamic-dir, "
	    "or OUTPUT/dynamic_profile); nothing was written"), dir,
	    DYNAMIC_CONFIG);
}

static void __attribute__((noreturn))
trigger_usage(int help)
{
	fprintf(help ? stdout : stderr, _("usage: msprof-exec trigger [--start N "
	    "| --now] [--active K] DIR\n"));
	exit(help ? 0 : EX_USAGE);
}

static int
step_number(const char *opt, const char *v, int min)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (*v == '\0' || *end != '\0' || n < min || n > INT_MAX)
		errx(EX_USAGE, _("%s '%s': give a whole number of %d or more"),
		    opt, v, min);
	return (int)n;
}

int
trigger_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "start", required_argument, NULL, 's' },
		{ "now", no_argument, NULL, 'n' },
		{ "active", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, start = -1, active = 0, have_start = 0;
	char *path, *why = NULL;
	const char *dir;
	cJSON *o, *v;
	struct stat st;
	struct timespec times[2];
	time_t old_mtime;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 's') {
			if (strcmp(optarg, "0") == 0)
				errx(EX_USAGE, _("--start 0 can never fire once "
				    "the job has begun (torch_npu counts steps "
				    "from 1); use --now, or a step still to "
				    "come"));
			start = step_number("--start", optarg, 1);
			have_start = 1;
		} else if (c == 'n') {
			if (have_start)
				errx(EX_USAGE, _("--now and --start exclude each "
				    "other"));
			start = -1;
		} else if (c == 'a')
			active = step_number("--active", optarg, 1);
		else
			trigger_usage(c == 'h');
	}
	if (optind != argc - 1)
		trigger_usage(0);
	dir = argv[optind];
	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		errx(EX_NOINPUT, _("%s: no such directory; give the dynamic "
		    "profiling directory of the running job (--dynamic-dir, or "
		    "OUTPUT/dynamic_profile)"), dir);
	path = xasprintf("%s/%s", dir, DYNAMIC_CONFIG);
	if (access(path, F_OK) == -1) {
		free(path);
		not_dynamic(dir);
	}
	if ((o = load(path, &why)) == NULL || !cJSON_IsObject(o))
		errx(EX_CONFIG, "%s", why ? why : _("not a JSON object"));
	set(o, "start_step", cJSON_CreateNumber(start));
	if (active > 0)
		set(o, "active", cJSON_CreateNumber(active));
	old_mtime = stat(path, &st) == 0 ? st.st_mtime : 0;
	if (json_write(o, path, &why) == -1)
		errx(EX_CANTCREAT, "%s", why);
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
	active = cJSON_IsNumber(v) ? v->valueint : 1;
	v = cJSON_GetObjectItemCaseSensitive(o, "prof_dir");
	if (start == -1)
		printf(_("the job starts collecting at its next step, for %d "
		    "step(s)"), active);
	else
		printf(_("the job starts collecting at step %d, for %d step(s)"),
		    start, active);
	printf(_("; data goes to %s\n"), cJSON_IsString(v) ? v->valuestring :
	    "./");
	cJSON_Delete(o);
	free(path);
	return 0;
}
