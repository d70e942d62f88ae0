/*
 * Finding rank directories: every *_ascend_pt directory under the paths
 * given, one per rank (the rank from profiler_info_{rank}.json's name), the
 * newest by the timestamp torch_npu puts in the name when a rank has
 * several, as msprof-analyze does.  A directory without a rank (a process
 * without torch.distributed writes profiler_info.json) is kept on its own:
 * nothing says two of them are the same process.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "summary.h"

#define MAX_DEPTH	6

struct found {
	struct summary_rank	*v;
	char			**stamp;
	size_t			 n, cap;
};

/* The rank in DIR's profiler_info_{rank}.json; -1 when there is none. */
static int
dir_rank(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rank = -1;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long r;

		if (strncmp(e->d_name, "profiler_info_", 14) != 0 ||
		    !ends_with(e->d_name, ".json"))
			continue;
		r = strtol(e->d_name + 14, &end, 10);
		if (end != e->d_name + 14 && strcmp(end, ".json") == 0 &&
		    r >= 0 && r < 1000000) {
			rank = (int)r;
			break;
		}
	}
	closedir(d);
	return rank;
}

/* The {YYYYMMDDhhmmssmmm} of {host}_{pid}_{stamp}_ascend_pt, or "". */
static char *
dir_stamp(const char *path)
{
	const char *base = strrchr(path, '/'), *end, *p;

	base = base ? base + 1 : path;
	end = base + strlen(base) - strlen("_ascend_pt");
	for (p = end; p > base && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	return xasprintf("%.*s", (int)(end - p), p);
}

/* Newer: a longer (then greater) timestamp, or the later modification. */
static int
newer(const char *stamp_a, const char *a, const char *stamp_b, const char *b)
{
	struct stat sa, sb;
	size_t la = strlen(stamp_a), lb = strlen(stamp_b);

	if (la > 0 && lb > 0 && (la != lb || strcmp(stamp_a, stamp_b) != 0))
		return la != lb ? la > lb : strcmp(stamp_a, stamp_b) > 0;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_mtime > sb.st_mtime;
	return 0;
}

static void
add(struct found *f, const char *path)
{
	int rank = dir_rank(path);
	char *stamp = dir_stamp(path);
	size_t i;

	for (i = 0; rank >= 0 && i < f->n; i++)
		if (f->v[i].rank == rank) {
			if (newer(stamp, path, f->stamp[i], f->v[i].path)) {
				free((char *)f->v[i].path);
				free(f->stamp[i]);
				f->v[i].path = xstrdup(path);
				f->stamp[i] = stamp;
			} else
				free(stamp);
			return;
		}
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->v = reallocarray(f->v, f->cap, sizeof(*f->v));
		f->stamp = reallocarray(f->stamp, f->cap, sizeof(*f->stamp));
		if (f->v == NULL || f->stamp == NULL)
			err(70, "reallocarray");
	}
	f->v[f->n].path = xstrdup(path);
	f->v[f->n].rank = rank;
	f->stamp[f->n++] = stamp;
}

static int
walk(struct found *f, const char *dir, int depth, char **why)
{
	DIR *d;
	struct dirent *e;

	if (ends_with(dir, "_ascend_pt")) {
		add(f, dir);
		return 0;
	}
	if (depth >= MAX_DEPTH)
		return 0;
	if ((d = opendir(dir)) == NULL) {
		if (depth == 0) {
			*why = xasprintf("%s: %s", dir, strerror(errno));
			return -1;
		}
		return 0;	/* an unreadable subdirectory holds no data we can use */
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		char *sub;

		if (e->d_name[0] == '.' || strcmp(e->d_name,
		    "ASCEND_PROFILER_OUTPUT") == 0)
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		if ((e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN &&
		    stat(sub, &st) == 0 && S_ISDIR(st.st_mode))))
			walk(f, sub, depth + 1, why);
		free(sub);
	}
	closedir(d);
	return 0;
}

/* By rank, the directories without one last, by path. */
static int
by_rank(const void *a, const void *b)
{
	const struct summary_rank *x = a, *y = b;

	if ((x->rank < 0) != (y->rank < 0))
		return x->rank < 0 ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->path, y->path);
}

int
summary_find_ranks(char *const paths[], size_t npaths,
    struct summary_rank **ranks, size_t *nranks, char **why)
{
	struct found f = { 0 };
	size_t i;

	for (i = 0; i < npaths; i++) {
		char *p = xstrdup(paths[i]);
		size_t n = strlen(p);

		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		if (walk(&f, p, 0, why) < 0) {
			free(p);
			for (i = 0; i < f.n; i++)
				free(f.stamp[i]);
			free(f.stamp);
			summary_ranks_free(f.v, f.n);
			return -1;
		}
		free(p);
	}
	for (i = 0; i < f.n; i++)
		free(f.stamp[i]);
	free(f.stamp);
	if (f.n > 0)
		qsort(f.v, f.n, sizeof(*f.v), by_rank);
	*ranks = f.v;
	*nranks = f.n;
	return 0;
}

void
summary_ranks_free(struct summary_rank *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((char *)v[i].path);
	free(v);
}
