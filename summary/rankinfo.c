/*
 * What a rank directory says of its rank besides the data: the profiler's
 * level and export type (profiler_info), the parallel layout and the
 * environment (profiler_metadata.json, or the META_DATA table of the db
 * export), into its rank_data.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/rankname.h"
#include "common/util.h"
#include "jscan.h"
#include "model.h"
#include "rankinfo.h"

/*
 * After the key K: enter its value when K is WANT and the value an object
 * (1); read past it otherwise (0, also for a null WANT); -1 on an error,
 * a WANT of another type among them.
 */
static int
enter_if(struct jscan *js, const char *k, const char *want)
{
	if (strcmp(k, want) != 0)
		return js_skip(js) < 0 ? -1 : 0;
	return js_object(js, k);
}

/*
 * The export types, a string ("text") in some torch_npu versions and a
 * list (["text", "db"]) in others: into *TO, joined by commas.
 */
static int
export_types(struct jscan *js, const char *k, char **to)
{
	const char *v;
	size_t n;
	int r;

	if (js_peek(js) == '"') {
		if (js_string(js, k, &v, &n) < 0)
			return -1;
		*to = xstrdup(v);
		return 1;
	}
	if ((r = js_array(js, k)) <= 0)
		return r;
	while ((r = js_item(js)) == 1) {
		char *t;

		if (js_peek(js) != '"') {
			if (js_skip(js) < 0)
				return -1;
			continue;
		}
		if (js_string(js, k, &v, &n) < 0)
			return -1;
		t = *to == NULL ? xstrdup(v) : xasprintf("%s,%s", *to, v);
		free(*to);
		*to = t;
	}
	return r;
}

int
rank_exports(const struct rank_data *rd, const char *type)
{
	const char *p = rd->export_type;
	size_t n = strlen(type);

	while (p != NULL && *p != '\0') {
		if (strncasecmp(p, type, n) == 0 && (p[n] == ',' ||
		    p[n] == '\0'))
			return 1;
		if ((p = strchr(p, ',')) != NULL)
			p++;
	}
	return 0;
}

/* {"_profiler_level": "Level1", "_export_type": ["text"], ...} */
static int
experimental_fields(struct jscan *js, struct rank_data *rd)
{
	const char *k, *v;
	size_t n;
	int r;

	while ((r = js_key(js, &k, &n)) == 1) {
		/* any type but those: the level is only shown */
		if (strcmp(k, "_export_type") == 0 && rd->export_type == NULL &&
		    (js_peek(js) == '"' || js_peek(js) == '[')) {
			if (export_types(js, k, &rd->export_type) < 0)
				return -1;
		} else if (strcmp(k, "_profiler_level") == 0 &&
		    rd->level == NULL && js_peek(js) == '"') {
			if (js_string(js, k, &v, &n) < 0)
				return -1;
			rd->level = xstrdup(v);
		} else if (js_skip(js) < 0)
			return -1;
	}
	return r;
}

/* {"config": {"experimental_config": {...}}} */
static int
info_fields(struct jscan *js, struct rank_data *rd)
{
	const char *k;
	size_t n;
	int r;

	if ((r = js_object(js, NULL)) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		if ((r = enter_if(js, k, "config")) <= 0) {
			if (r < 0)
				return -1;
			continue;
		}
		while ((r = js_key(js, &k, &n)) == 1)
			if ((r = enter_if(js, k, "experimental_config")) < 0 ||
			    (r == 1 && experimental_fields(js, rd) < 0))
				return -1;
		if (r < 0)
			return -1;
	}
	return r < 0 ? -1 : js_finish(js);
}

/* distributed_args' sizes and where they go. */
static const struct { const char *key; size_t off; } layout_keys[] = {
	{ "tensor_model_parallel_size", offsetof(struct rank_data, tp) },
	{ "pipeline_model_parallel_size", offsetof(struct rank_data, pp) },
	{ "data_parallel_size", offsetof(struct rank_data, dp) },
	{ "context_parallel_size", offsetof(struct rank_data, cp) },
	{ "expert_model_parallel_size", offsetof(struct rank_data, ep) },
	{ "world_size", offsetof(struct rank_data, world) },
};
#define NLAYOUT	(sizeof(layout_keys) / sizeof(layout_keys[0]))

/* Size KEY of distributed_args is V: kept when it is one of ours. */
static void
layout_size(struct rank_data *rd, const char *key, double v)
{
	size_t i;

	for (i = 0; i < NLAYOUT; i++)
		if (strcmp(key, layout_keys[i].key) == 0 && v > 0 && v < 1e9)
			*(int *)((char *)rd + layout_keys[i].off) = (int)v;
}

/* distributed_args: {"tensor_model_parallel_size": 8, ...} */
static int
layout_fields(struct jscan *js, struct rank_data *rd)
{
	const char *k;
	size_t n;
	double v;
	int r;

	while ((r = js_key(js, &k, &n)) == 1) {
		if (js_peek(js) != '0')
			r = js_skip(js);
		else if ((r = js_number(js, k, &v)) == 1)
			layout_size(rd, k, v);
		if (r < 0)
			return -1;
	}
	return r;
}

/*
 * ENV_VARIABLES, the environment torch_npu recorded: {"NAME": "value"},
 * kept as "NAME=value" (torch_npu writes "" for a variable not set).
 */
static int
env_fields(struct jscan *js, struct rank_data *rd)
{
	const char *k, *v;
	size_t n;
	int r;

	while ((r = js_key(js, &k, &n)) == 1) {
		if (js_peek(js) != '"') {
			if (js_skip(js) < 0)
				return -1;
			continue;
		}
		/* the key stays valid: a string has a buffer of its own */
		if (js_string(js, k, &v, &n) < 0)
			return -1;
		strv_pushf(&rd->env, "%s=%s", k, v);
	}
	return r;
}

/*
 * One group of parallel_group_info, KEY: {"group_name": "dp_cp", ...},
 * as "KEY=NAME" (its ranks are not kept).
 */
static int
group_fields(struct jscan *js, struct rank_data *rd, const char *key)
{
	char *k = xstrdup(key);
	const char *f, *v;
	size_t n;
	int r;

	if ((r = js_object(js, k)) == 1)
		while ((r = js_key(js, &f, &n)) == 1) {
			if (strcmp(f, "group_name") == 0 && js_peek(js) == '"') {
				if ((r = js_string(js, f, &v, &n)) == 1)
					strv_pushf(&rd->groups, "%s=%s", k, v);
			} else
				r = js_skip(js);
			if (r < 0)
				break;
		}
	free(k);
	return r;
}

/* parallel_group_info: {"group_name_5": {"group_name": "dp_cp", ...}} */
static int
groups_fields(struct jscan *js, struct rank_data *rd)
{
	const char *k;
	size_t n;
	int r;

	while ((r = js_key(js, &k, &n)) == 1)
		if (group_fields(js, rd, k) < 0)
			return -1;
	return r;
}

/*
 * profiler_metadata.json: the layout (distributed_args), the
 * environment (ENV_VARIABLES) and the names of the rank's communication
 * groups (parallel_group_info, whose ranks are skipped: 180 KB a rank in
 * a job of 8,192).
 */
static int
metadata_fields(struct jscan *js, struct rank_data *rd)
{
	const char *k;
	size_t n;
	int r, seen = 0;

	if ((r = js_object(js, NULL)) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (strcmp(k, "distributed_args") == 0) {
			if ((r = js_object(js, k)) == 1)
				r = layout_fields(js, rd);
			seen |= 1;
		} else if (strcmp(k, "ENV_VARIABLES") == 0) {
			if ((r = js_object(js, k)) == 1)
				r = env_fields(js, rd);
			seen |= 2;
		} else if (strcmp(k, "parallel_group_info") == 0) {
			if ((r = js_object(js, k)) == 1)
				r = groups_fields(js, rd);
			seen |= 4;
		} else
			r = js_skip(js);
		if (r < 0)
			return -1;
		if (seen == 7)
			return 1;
	}
	return r < 0 ? -1 : js_finish(js);
}

/*
 * Read PATH with FN; a file that is there but cannot be read whole is
 * left out (named).
 */
static void
read_json(struct rank_data *rd, const char *path,
    int (*fn)(struct jscan *, struct rank_data *))
{
	struct jscan js;

	if (js_open(&js, path) == 0 && fn(&js, rd) >= 0) {
		js_close(&js);
		return;
	}
	if (!(js_error(&js) == JS_UNREADABLE && js.errnum == ENOENT))
		rank_left_out(rd, path, js_reason(js_error(&js)), js_why(&js));
	js_close(&js);
}

/*
 * A directory of no known rank that holds the profiler_info of several
 * ranks (another rank's copied in): named, as its rank cannot be told
 * and it is read as a rank of its own.
 */
static void
several_infos(struct rank_data *rd)
{
	DIR *d = opendir(rd->path);
	struct dirent *e;
	char *list = NULL, *t, *p;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (rankname_info(e->d_name) < 0)
			continue;
		t = list == NULL ? xstrdup(e->d_name) :
		    xasprintf("%s, %s", list, e->d_name);
		free(list);
		list = t;
		n++;
	}
	if (d != NULL)
		closedir(d);
	if (n >= 2) {
		p = xasprintf("%s/profiler_info_*.json", rd->path);
		t = xasprintf(_("%s holds the profiler_info of %d ranks (%s): "
		    "one is another rank's, and which rank the directory is "
		    "cannot be told; it is read as a rank of its own"),
		    rd->path, n, list);
		rank_left_out(rd, p, N_("profiler_info of several ranks"), t);
		free(t);
		free(p);
	}
	free(list);
}

/*
 * profiler_info_{rank}.json: level and export type; metadata: layout and
 * the environment.
 */
static void
read_meta(struct rank_data *rd)
{
	char *p = rd->rank >= 0 ?
	    xasprintf("%s/profiler_info_%d.json", rd->path, rd->rank) :
	    xasprintf("%s/profiler_info.json", rd->path);

	read_json(rd, p, info_fields);
	free(p);
	if (rd->rank < 0)
		several_infos(rd);
	p = xasprintf("%s/profiler_metadata.json", rd->path);
	read_json(rd, p, metadata_fields);
	free(p);
}

/* META_DATA's name and JSON value (db export). */
static int
db_meta_row(void *arg, int ncol, const char *const col[], const double num[])
{
	struct rank_data *rd = arg;
	cJSON *j = cJSON_Parse(col[1]), *e;

	if (!cJSON_IsObject(j)) {	/* damaged text: no figure from it */
		cJSON_Delete(j);
		return 0;
	}
	cJSON_ArrayForEach(e, j) {
		if (strcmp(col[0], "ENV_VARIABLES") == 0 && cJSON_IsString(e))
			strv_pushf(&rd->env, "%s=%s", e->string, e->valuestring);
		else if (strcmp(col[0], "distributed_args") == 0 &&
		    cJSON_IsNumber(e))
			layout_size(rd, e->string, e->valuedouble);
		else if (strcmp(col[0], "parallel_group_info") == 0 &&
		    cJSON_IsString(cJSON_GetObjectItem(e, "group_name")))
			strv_pushf(&rd->groups, "%s=%s", e->string,
			    cJSON_GetObjectItem(e, "group_name")->valuestring);
	}
	cJSON_Delete(j);
	return 0;
}

/*
 * The db export keeps profiler_metadata.json's objects in the META_DATA
 * table of ascend_pytorch_profiler_<rank>.db, each as its JSON text: read
 * when the rank has no profiler_metadata.json.
 */
static void
read_db_meta(struct rank_data *rd, struct rank_files *rf)
{
	char *p = xasprintf("%s/profiler_metadata.json", rd->path), *why = NULL;
	struct db *db;

	if (access(p, F_OK) != 0 && errno == ENOENT &&
	    (db = rank_profiler_db(rf)) != NULL && db_has_table(db, "META_DATA"))
		db_rows(db, "SELECT name, value FROM META_DATA WHERE name IN "
		    "('ENV_VARIABLES', 'distributed_args', "
		    "'parallel_group_info')", db_meta_row, rd, &why);
	free(why);
	free(p);
}

void
rankinfo_read(struct rank_data *rd, struct rank_files *rf)
{
	read_meta(rd);
	read_db_meta(rd, rf);
}
