/* Find and check the profiling output of a run. */
#include <sys/stat.h>

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/journal.h"
#include "common/rankname.h"
#include "common/util.h"
#include "verify.h"

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int64_t
tree_bytes(const char *path, int depth)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int64_t sum = 0;
	char *sub;

	if (lstat(path, &st) == -1)
		return 0;
	if (!S_ISDIR(st.st_mode) || depth > 16)
		return st.st_size;
	if ((d = opendir(path)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		sub = xasprintf("%s/%s", path, e->d_name);
		sum += tree_bytes(sub, depth + 1);
		free(sub);
	}
	closedir(d);
	return sum;
}

/* Does DIR hold an entry whose name starts with PREFIX and satisfies OK? */
static int
has_entry(const char *dir, const char *prefix, int (*ok)(const char *))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *sub;
	int found = 0;

	if (d == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		found = ok == NULL || ok(sub);
		free(sub);
	}
	closedir(d);
	return found;
}

/* A device_* directory with a non-empty data/ inside. */
static int
device_data(const char *dev)
{
	char *data = xasprintf("%s/data", dev);
	int ok = has_entry(data, "", NULL);

	free(data);
	return ok;
}

static int
prof_dir(const char *prof)
{
	return is_dir(prof) && has_entry(prof, "device_", device_data);
}

/* The rank in profiler_info_<rank>.json, or -1. */
static int
rank_of(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rank = -1;
	char *end;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "profiler_info_", 14) == 0) {
			long r = strtol(e->d_name + 14, &end, 10);

			if (end != e->d_name + 14 && strcmp(end, ".json") == 0)
				rank = (int)r;
		}
	closedir(d);
	return rank;
}

static void
add_rankdir(struct outdir *o, const char *path, int rank)
{
	struct rankdir *r;
	char *out = xasprintf("%s/ASCEND_PROFILER_OUTPUT", path);

	o->dirs = xreallocarray(o->dirs, o->ndirs + 1, sizeof(*o->dirs));
	r = &o->dirs[o->ndirs++];
	r->path = xstrdup(path);
	r->rank = rank;
	r->raw = has_entry(path, "PROF_", prof_dir) ||
	    has_entry(path, "ASCEND_PROF_", prof_dir);
	r->parsed = has_entry(out, "", NULL);
	r->bytes = tree_bytes(path, 0);
	free(out);
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Collect the *_ascend_pt directories of O changed since SINCE. */
static void
scan_outdir(struct outdir *o, time_t since)
{
	struct dirent **names;
	struct stat st;
	char *sub;
	int n = scandir(o->path, &names, NULL, by_name);

	for (int i = 0; i < n; i++) {
		sub = xasprintf("%s/%s", o->path, names[i]->d_name);
		if (ends_with(names[i]->d_name, "_ascend_pt") &&
		    stat(sub, &st) == 0 && S_ISDIR(st.st_mode) &&
		    st.st_mtime >= since)
			add_rankdir(o, sub, rank_of(sub));
		free(sub);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* A launch's save path made absolute with its working directory. */
static char *
launch_save_dir(const struct launch_record *rec)
{
	const char *save = rec->save_path != NULL ? rec->save_path : "";

	return save[0] == '/' || rec->cwd == NULL ? xstrdup(save) :
	    xasprintf("%s/%s", rec->cwd, save);
}

/*
 * Collect the rank directories ME made in O, and note what other jobs
 * wrote there at the same time.
 */
static void
scan_claimed(struct outdir *o, const struct claims *c, const struct claim *me)
{
	struct dirent **names;
	struct rankname rn;
	char *sub;
	int n = scandir(me->dir, &names, NULL, by_name), rank, mixed;

	for (int i = 0; i < n; i++) {
		sub = xasprintf("%s/%s", me->dir, names[i]->d_name);
		if (rankname_parse(names[i]->d_name, &rn) == 0 && is_dir(sub)) {
			rank = rank_of(sub);
			if (claims_owner(c, me->dir, &rn, rank, &mixed) == me)
				add_rankdir(o, sub, rank);
			o->unclear += mixed;
		}
		free(sub);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	for (size_t i = 0; i < c->n; i++) {
		const struct claim *a = &c->v[i];
		int seen = 0;

		if (strcmp(a->dir, me->dir) != 0 || claims_same_job(a, me) ||
		    !claims_overlap(a, me))
			continue;
		for (size_t k = 0; k < o->mixed.n; k++)
			seen |= strcmp(o->mixed.v[k], a->session) == 0;
		if (!seen)
			strv_push(&o->mixed, a->session);
	}
}

/* This node's ranks and the expected ones, from a journal record. */
static void
expect(struct outdir *o, const struct launch_record *rec)
{
	o->nlocal = rec->place.nproc_per_node;
	o->first_local = rec->place.first_rank;
	o->known = rec->expected != NULL;
	o->expected = xcalloc(rec->nexpected + 1, sizeof(*o->expected));
	for (size_t i = 0; i < rec->nexpected; i++)
		o->expected[o->nexpected++] = rec->expected[i];
}

const struct rankdir *
outdir_found(const struct outdir *o, int r)
{
	for (size_t i = 0; i < o->ndirs; i++)
		if (o->dirs[i].rank == r)
			return &o->dirs[i];
	return NULL;
}

static struct outdir *
new_outdir(struct verify *v, const char *path)
{
	struct outdir *o;
	char *abs = realpath(path, NULL);

	v->outs = xreallocarray(v->outs, v->nouts + 1, sizeof(*v->outs));
	o = &v->outs[v->nouts++];
	memset(o, 0, sizeof(*o));
	o->path = abs ? abs : xstrdup(path);
	o->analyse = 1;
	return o;
}

void
verify_journal(const struct journal *j, const char *session, time_t since,
    struct verify *v)
{
	const struct launch_record *rec;
	const struct claim *me;
	struct outdir *o;
	char *path;

	memset(v, 0, sizeof(*v));
	claims_gather(&v->claims, session, j, (int64_t)since * 1000);
	for (size_t i = 0; i < j->n; i++) {
		rec = &j->recs[i];
		if ((rec->status != LAUNCH_INJECTED &&
		    rec->status != LAUNCH_KEPT) || rec->save_path == NULL)
			continue;
		me = claims_of(&v->claims, rec);
		path = launch_save_dir(rec);
		o = new_outdir(v, path);
		free(path);
		o->analyse = rec->analyse != 0;
		o->launch = rec;
		expect(o, rec);
		/* a session outside any output directory: by time changed */
		if (me != NULL)
			scan_claimed(o, &v->claims, me);
		else
			scan_outdir(o, since);
	}
}

void
verify_dir(const char *path, struct verify *v)
{
	struct outdir *o;

	memset(v, 0, sizeof(*v));
	o = new_outdir(v, path);
	scan_outdir(o, 0);
}

void
verify_free(struct verify *v)
{
	for (size_t i = 0; i < v->nouts; i++) {
		for (size_t k = 0; k < v->outs[i].ndirs; k++)
			free(v->outs[i].dirs[k].path);
		free(v->outs[i].dirs);
		free(v->outs[i].expected);
		free(v->outs[i].path);
		strv_free(&v->outs[i].mixed);
	}
	free(v->outs);
	claims_free(&v->claims);
	memset(v, 0, sizeof(*v));
}
