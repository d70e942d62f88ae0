/*
 * Finding rank directories: every *_ascend_pt directory under the paths
 * given, one per rank (the rank from profiler_info_{rank}.json's name), the
 * newest by the timestamp torch_npu puts in the name when a rank has
 * several, as msprof-analyze does.  A directory without a rank (a process
 * without torch.distributed writes profiler_info.json) is kept on its own:
 * nothing says two of them are the same process.  Directories are read
 * through symbolic links (a gathered folder of links reads as the
 * directories it links to); a link that leads nowhere or back into the
 * walk is not followed, and named.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/linkwalk.h"
#include "common/parallel.h"
#include "common/rankname.h"
#include "common/util.h"
#include "summary.h"

#define MAX_DEPTH	6

/* A rank directory found, its rank read later (on several threads). */
struct cand {
	char	*path;		/* as found */
	char	*real;		/* where a link leads, else the path */
	int	 rank;
};

struct found {
	struct cand	*c;
	size_t		 nc, capc;
	struct dirstack	 up;		/* the directories the walk is inside */
	char		*top;		/* the real path the walk started at */
	struct strv	*notes;		/* links not followed, or NULL */
	struct strv	*links;		/* and each one's path */
	struct summary_rank *v;
	char		**stamp;
	size_t		 n, cap;
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
	while (rank < 0 && (e = readdir(d)) != NULL)
		rank = rankname_info(e->d_name);
	closedir(d);
	return rank;
}

static void
read_rank(void *arg, size_t i)
{
	struct found *f = arg;

	f->c[i].rank = dir_rank(f->c[i].path);
}

/* The {YYYYMMDDhhmmssmmm} of {host}_{pid}_{stamp}_ascend_pt, or "". */
static char *
dir_stamp(const char *path)
{
	const char *base = strrchr(path, '/'), *end, *p;

	base = base ? base + 1 : path;
	if (!ends_with(base, RANKDIR_SUFFIX))
		return xstrdup("");
	end = base + strlen(base) - strlen(RANKDIR_SUFFIX);
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
add(struct found *f, const struct cand *c)
{
	char *stamp = dir_stamp(c->real);
	size_t i;

	for (i = 0; c->rank >= 0 && i < f->n; i++)
		if (f->v[i].rank == c->rank) {
			if (newer(stamp, c->path, f->stamp[i], f->v[i].path)) {
				free((char *)f->v[i].path);
				free(f->stamp[i]);
				f->v[i].path = xstrdup(c->path);
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
	f->v[f->n].path = xstrdup(c->path);
	f->v[f->n].rank = c->rank;
	f->stamp[f->n++] = stamp;
}

static void
candidate(struct found *f, const char *path, char *real)
{
	if (f->nc == f->capc) {
		f->capc = f->capc ? f->capc * 2 : 64;
		f->c = xreallocarray(f->c, f->capc, sizeof(*f->c));
	}
	f->c[f->nc++] = (struct cand){ xstrdup(path), real, -1 };
}

static void
note(struct found *f, const char *link, const char *why)
{
	if (f->notes != NULL) {
		strv_push(f->notes, why);
		strv_push(f->links, link);
	}
}

/*
 * DIR and what it holds, to MAX_DEPTH, through links: a rank directory
 * is a candidate, any other directory is walked.
 */
static int
walk(struct found *f, const char *dir, int depth, char **why)
{
	DIR *d;
	struct dirent *e;
	struct stat st;
	struct entry en;
	char *sub, *real, *loop = NULL, *here = NULL;

	if ((d = opendir(dir)) == NULL) {
		if (depth == 0) {
			*why = xasprintf("%s: %s", dir, strerror(errno));
			return -1;
		}
		return 0;	/* an unreadable subdirectory holds no data we can use */
	}
	if (fstat(dirfd(d), &st) < 0 || dirstack_push(&f->up, dir, &st,
	    &loop) < 0) {
		if (loop != NULL)
			note(f, dir, loop);
		free(loop);
		closedir(d);
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name,
		    "ASCEND_PROFILER_OUTPUT") == 0)
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		entry_read(dirfd(d), e->d_name, sub, e->d_type, 0, &en);
		if (en.type == ENTRY_BROKEN && rankdir_link(e->d_name, &en))
			note(f, sub, en.why);
		else if (en.type == ENTRY_DIR) {
			real = NULL;
			if (!rankdir_path(sub, en.link, &real)) {
				if (en.link && f->top != NULL &&
				    path_holds(real, f->top)) {
					/* back above the start: not this tree */
					loop = loop_why(sub);
					note(f, sub, loop);
					free(loop);
				} else if (depth + 1 < MAX_DEPTH)
					walk(f, sub, depth + 1, why);
			} else if (en.link && ((here == NULL && (here =
			    realpath(dir, NULL)) == NULL) || path_holds(real,
			    here))) {
				loop = loop_why(sub);
				note(f, sub, loop);
				free(loop);
			} else {
				candidate(f, sub, real);
				real = NULL;
			}
			free(real);
		}
		entry_free(&en);
		free(sub);
	}
	free(here);
	dirstack_pop(&f->up);
	closedir(d);
	return 0;
}

/* PATH as given: a rank directory itself (or a link to one), or a tree. */
static int
start(struct found *f, const char *path, char **why)
{
	struct stat st;
	char *real = NULL;
	int link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode), rc;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	    rankdir_path(path, link, &real)) {
		candidate(f, path, real);
		return 0;
	}
	free(real);
	f->top = realpath(path, NULL);
	rc = walk(f, path, 0, why);
	free(f->top);
	f->top = NULL;
	return rc;
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

static void
found_free(struct found *f)
{
	for (size_t i = 0; i < f->nc; i++) {
		free(f->c[i].path);
		free(f->c[i].real);
	}
	free(f->c);
	for (size_t i = 0; i < f->n; i++)
		free(f->stamp[i]);
	free(f->stamp);
	dirstack_free(&f->up);
}

int
summary_find_ranks_noted(char *const paths[], size_t npaths,
    struct summary_rank **ranks, size_t *nranks, struct strv *notes,
    struct strv *links, char **why)
{
	struct found f = { .notes = notes, .links = links };
	size_t i;

	for (i = 0; i < npaths; i++) {
		char *p = xstrdup(paths[i]);
		size_t n = strlen(p);

		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		if (start(&f, p, why) < 0) {
			free(p);
			found_free(&f);
			summary_ranks_free(f.v, f.n);
			return -1;
		}
		free(p);
	}
	/* each rank directory's rank, on several threads; then in order */
	parallel_for(f.nc, summary_workers(f.nc), read_rank, &f);
	for (i = 0; i < f.nc; i++)
		add(&f, &f.c[i]);
	found_free(&f);
	if (f.n > 0)
		qsort(f.v, f.n, sizeof(*f.v), by_rank);
	*ranks = f.v;
	*nranks = f.n;
	return 0;
}

int
summary_find_ranks(char *const paths[], size_t npaths,
    struct summary_rank **ranks, size_t *nranks, char **why)
{
	return summary_find_ranks_noted(paths, npaths, ranks, nranks, NULL,
	    NULL, why);
}

void
summary_ranks_free(struct summary_rank *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((char *)v[i].path);
	free(v);
}
