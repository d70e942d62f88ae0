/*
 * Finding rank directories: every *_ascend_pt directory under the paths
 * given (the rank from profiler_info_{rank}.json's name), grouped into
 * runs, of which one is read.  A run is the rank directories one launch
 * wrote: torch_npu writes them all in one save path, so they share a
 * directory; in it, from the newest by the timestamp torch_npu puts in
 * their names, a rank seen again, or a gap of RUN_GAP (the ranks of one
 * launch start their profilers within moments of each other), starts an
 * earlier run (a launch before into the same save path).  So the newest
 * run is whole, and no rank of an older one joins it unless it started
 * with it.  Runs in different directories with no rank in common, begun
 * within RUN_GAP of each other, are one run (each node's part of a job,
 * as given or gathered).  The newest run is read, and the others are
 * listed: a report of ranks of different runs would compare figures of
 * different jobs.  A directory
 * without a rank (a process without torch.distributed writes
 * profiler_info.json, and one holding the profiler_info of several ranks
 * cannot be told) joins its directory's run on its own: nothing says two
 * of them are the same process.  Directories are read through symbolic
 * links (a gathered folder of links reads as the directories it links
 * to); a link that leads nowhere or back into the walk is not followed,
 * and named.  What a directory holds comes from the inventory
 * (inventory.h), which lists each directory and reads each rank
 * directory once for the whole report.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/linkwalk.h"
#include "common/rankname.h"
#include "common/util.h"
#include "inventory.h"
#include "summary.h"

#define MAX_DEPTH	6
#define RUN_GAP		(10 * 60 * 1000)	/* ms between two launches */

/* A rank directory found, its rank read later (on several threads). */
struct cand {
	char	*path;		/* as found */
	char	*real;		/* where a link leads, else the path */
	size_t	 rd;		/* in the inventory */
	int	 rank;
	char	*parent;	/* the directory of PATH */
	char	*stamp;		/* of its name, "" without one */
	int64_t	 ms;		/* the same in ms since the epoch; -1 */
	size_t	 run;		/* the run it belongs to */
};

struct found {
	struct inventory *inv;
	struct cand	*c;
	size_t		 nc, capc;
	struct strv	 up;		/* the directories the walk is inside */
	char		*top;		/* the real path the walk started at */
	struct strv	*notes;		/* links not followed, or NULL */
	struct strv	*links;		/* and each one's path */
};

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

/* Stamps compare as numbers: a longer one is later. */
static int
stamp_cmp(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a, b);
}

/* By directory, then the newest first, then by path. */
static int
by_place(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c;

	if ((c = strcmp(x->parent, y->parent)) != 0)
		return c;
	if ((c = stamp_cmp(y->stamp, x->stamp)) != 0)
		return c;
	return strcmp(x->path, y->path);
}

static void
candidate(struct found *f, const char *path, char *real, size_t rd)
{
	if (f->nc == f->capc) {
		f->capc = f->capc ? f->capc * 2 : 64;
		f->c = xreallocarray(f->c, f->capc, sizeof(*f->c));
	}
	f->c[f->nc++] = (struct cand){ xstrdup(path), real, rd, -1, NULL, NULL,
	    -1, 0 };
}

static void
note(struct found *f, const char *link, const char *why)
{
	if (f->notes != NULL) {
		strv_push(f->notes, why);
		strv_push(f->links, link);
	}
}

/* Is the directory REAL one the walk is inside? */
static int
inside(const struct found *f, const char *real)
{
	for (size_t i = 0; i < f->up.n; i++)
		if (strcmp(f->up.v[i], real) == 0)
			return 1;
	return 0;
}

static void	walk_entry(struct found *, const struct inv_listing *, size_t,
		    const char *, int, char **);

/*
 * DIR and what it holds, to MAX_DEPTH, through links, from the
 * inventory's listings: a rank directory is a candidate, any other
 * directory is walked.
 */
static int
walk(struct found *f, const char *dir, int depth, char **why)
{
	const struct inv_listing *l = inventory_list(f->inv, dir);
	char *loop;

	if (l->errnum != 0) {
		if (depth == 0) {
			*why = xasprintf("%s: %s", dir, strerror(l->errnum));
			return -1;
		}
		return 0;	/* an unreadable subdirectory holds no data we can use */
	}
	if (inside(f, l->real)) {
		loop = loop_why(dir);
		note(f, dir, loop);
		free(loop);
		return 0;
	}
	strv_push(&f->up, l->real);
	for (size_t k = 0; k < l->n; k++)
		walk_entry(f, l, k, dir, depth, why);
	free(f->up.v[--f->up.n]);
	return 0;
}

/* Entry K of DIR's listing L, at DEPTH: a candidate, a note, or a walk. */
static void
walk_entry(struct found *f, const struct inv_listing *l, size_t k,
    const char *dir, int depth, char **why)
{
	const struct inv_entry *e = &l->e[k];
	char *sub, *loop;

	if (strcmp(e->name, "ASCEND_PROFILER_OUTPUT") == 0)
		return;
	sub = inventory_path(l, k, dir);
	if (e->kind == INV_NOTE) {
		loop = inventory_why(l, k, dir);
		note(f, sub, loop);
		free(loop);
	} else if (e->kind == INV_RANKDIR)
		candidate(f, sub, xstrdup(e->link ? e->target : sub), e->rd);
	else if (e->link && f->top != NULL && path_holds(e->target, f->top)) {
		/* back above the start: not this tree */
		loop = loop_why(sub);
		note(f, sub, loop);
		free(loop);
	} else if (depth + 1 < MAX_DEPTH)
		walk(f, sub, depth + 1, why);
	free(sub);
}

/* PATH as given: a rank directory itself (or a link to one), or a tree. */
static int
start(struct found *f, const char *path, char **why)
{
	struct stat st;
	char *real = NULL, *key;
	int link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode), rc;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	    rankdir_path(path, link, &real)) {
		key = realpath(path, NULL);
		candidate(f, path, real, inventory_rankdir(f->inv,
		    key != NULL ? key : path));
		free(key);
		return 0;
	}
	free(real);
	f->top = realpath(path, NULL);
	rc = walk(f, path, 0, why);
	free(f->top);
	f->top = NULL;
	return rc;
}

static int
by_rank(const void *a, const void *b)
{
	const struct summary_rank *x = a, *y = b;

	return rank_order(x->rank, x->path, y->rank, y->path);
}

static void
found_free(struct found *f)
{
	for (size_t i = 0; i < f->nc; i++) {
		free(f->c[i].path);
		free(f->c[i].real);
		free(f->c[i].parent);
		free(f->c[i].stamp);
	}
	free(f->c);
	strv_free(&f->up);
}

/* A run being formed: its ranks (a bitmap grown as needed), its newest. */
struct run {
	unsigned char	*has;
	size_t		 nhas;
	const char	*newest, *parent;
	int64_t		 ms;		/* the newest's time; -1 unknown */
	size_t		 ndirs, merged_into;
};

static int
run_has(const struct run *r, int rank)
{
	return rank >= 0 && (size_t)rank / 8 < r->nhas &&
	    (r->has[rank / 8] >> (rank % 8)) & 1;
}

static void
run_add(struct run *r, int rank)
{
	if (rank < 0)
		return;
	if ((size_t)rank / 8 >= r->nhas) {
		size_t n = (size_t)rank / 8 + 1;

		r->has = xreallocarray(r->has, n, 1);
		memset(r->has + r->nhas, 0, n - r->nhas);
		r->nhas = n;
	}
	r->has[rank / 8] |= 1 << (rank % 8);
}

/*
 * Are A and B, in different directories, parts of one job: ranks and no
 * rank in both, begun within RUN_GAP of each other when that is known?
 * Directories of no known rank are no job's part.
 */
static int
one_job(const struct run *a, const struct run *b)
{
	int ranks = 0;

	if (strcmp(a->parent, b->parent) == 0 ||
	    (a->ms >= 0 && b->ms >= 0 && llabs(a->ms - b->ms) > RUN_GAP))
		return 0;
	for (size_t i = 0; i < a->nhas && i < b->nhas; i++)
		if (a->has[i] & b->has[i])
			return 0;
	for (size_t i = 0; i < a->nhas && !ranks; i++)
		ranks = a->has[i] != 0;
	for (size_t i = 0; i < b->nhas && ranks == 1; i++)
		ranks += b->has[i] != 0;
	return ranks == 2;
}

/* Newest first; without stamps, in the order of their directories. */
static int
by_newest(const void *a, const void *b, void *arg)
{
	const struct run *v = arg;
	const struct run *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
	int c = stamp_cmp(y->newest, x->newest);

	return c != 0 ? c : strcmp(x->parent, y->parent);
}

/*
 * Split the candidates (in by_place order) into runs, merge the runs of
 * different directories that share no rank, newest first; each
 * candidate's run in its RUN, the runs in R (*NR of them), their order
 * in ORDER (the newest first).  Returns the number of runs after merging.
 */
static size_t
group(struct found *f, struct run **rp, size_t *nr, size_t **orderp)
{
	struct run *r = NULL;
	size_t n = 0, i, j, k, *order, nmerged = 0;

	for (i = 0; i < f->nc; i++) {
		struct cand *c = &f->c[i];

		if (n == 0 || strcmp(c->parent, r[n - 1].parent) != 0 ||
		    run_has(&r[n - 1], c->rank) || (c->ms >= 0 &&
		    f->c[i - 1].ms >= 0 && f->c[i - 1].ms - c->ms > RUN_GAP)) {
			r = xreallocarray(r, n + 1, sizeof(*r));
			r[n++] = (struct run){ .parent = c->parent,
			    .newest = c->stamp, .ms = c->ms,
			    .merged_into = (size_t)-1 };
		}
		run_add(&r[n - 1], c->rank);
		r[n - 1].ndirs++;
		c->run = n - 1;
	}
	order = xcalloc(n + 1, sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_newest, r);
	/* each run into the first newer one it can join, else its own */
	for (i = 0; i < n; i++) {
		struct run *x = &r[order[i]];

		for (j = 0; j < nmerged; j++) {
			struct run *y = &r[order[j]];

			if (!one_job(x, y))
				continue;
			x->merged_into = order[j];
			for (k = 0; k < x->nhas * 8; k++)
				if (run_has(x, (int)k))
					run_add(y, (int)k);
			y->ndirs += x->ndirs;
			break;
		}
		if (x->merged_into == (size_t)-1)
			order[nmerged++] = order[i];
	}
	for (i = 0; i < f->nc; i++)
		if (r[f->c[i].run].merged_into != (size_t)-1)
			f->c[i].run = r[f->c[i].run].merged_into;
	*rp = r;
	*nr = n;
	*orderp = order;
	return nmerged;
}

/* The runs, newest first, for the caller: their directory and size. */
static void
list_runs(const struct found *f, const struct run *r, const size_t *order,
    size_t nmerged, struct summary_run **runs, size_t *nruns)
{
	struct summary_run *v = xcalloc(nmerged + 1, sizeof(*v));

	for (size_t i = 0; i < nmerged; i++) {
		v[i].path = xstrdup(r[order[i]].parent);
		v[i].ndirs = r[order[i]].ndirs;
		v[i].stamp = xstrdup(r[order[i]].newest);
	}
	/* how many directories a merged run spans */
	for (size_t k = 0; k < nmerged; k++) {
		struct strv seen = { 0 };

		for (size_t i = 0; i < f->nc; i++) {
			size_t j;

			if (f->c[i].run != order[k])
				continue;
			for (j = 0; j < seen.n &&
			    strcmp(seen.v[j], f->c[i].parent) != 0; j++)
				;
			if (j == seen.n)
				strv_push(&seen, f->c[i].parent);
		}
		v[k].nparents = seen.n;
		strv_free(&seen);
	}
	*runs = v;
	*nruns = nmerged;
}

int
summary_find_runs_in(struct inventory *inv, char *const paths[],
    size_t npaths, struct summary_rank **ranks, size_t *nranks,
    struct summary_run **runs, size_t *nruns, struct strv *notes,
    struct strv *links, char **why)
{
	struct found f = { .inv = inv, .notes = notes, .links = links };
	struct summary_rank *v;
	struct rankname rn;
	struct run *r;
	size_t i, n, nr, *order, nmerged;

	for (i = 0; i < npaths; i++) {
		char *p = xstrdup(paths[i]);
		size_t len = strlen(p);

		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		if (start(&f, p, why) < 0) {
			free(p);
			found_free(&f);
			return -1;
		}
		free(p);
	}
	/* the rank directories read (on several threads), then in order */
	inventory_read(inv);
	for (i = 0; i < f.nc; i++) {
		char *slash;

		f.c[i].rank = inventory_get(inv, f.c[i].rd)->rank;

		f.c[i].parent = xstrdup(f.c[i].path);
		if ((slash = strrchr(f.c[i].parent, '/')) != NULL)
			*slash = '\0';
		else
			strlcpy(f.c[i].parent, ".", strlen(f.c[i].parent) + 1);
		f.c[i].stamp = dir_stamp(f.c[i].real);
		f.c[i].ms = -1;
		if ((slash = strrchr(f.c[i].real, '/')) != NULL &&
		    rankname_parse(slash + 1, &rn) == 0)
			f.c[i].ms = rn.ms;
	}
	if (f.nc > 0)
		qsort(f.c, f.nc, sizeof(*f.c), by_place);
	nmerged = group(&f, &r, &nr, &order);
	v = xcalloc(f.nc + 1, sizeof(*v));
	for (i = n = 0; i < f.nc; i++)
		if (nmerged > 0 && f.c[i].run == order[0]) {
			v[n].path = xstrdup(f.c[i].path);
			v[n].inv = inventory_get(inv, f.c[i].rd);
			v[n++].rank = f.c[i].rank;
		}
	if (runs != NULL)
		list_runs(&f, r, order, nmerged, runs, nruns);
	for (i = 0; i < nr; i++)
		free(r[i].has);
	free(r);
	free(order);
	found_free(&f);
	if (n > 0)
		qsort(v, n, sizeof(*v), by_rank);
	*ranks = v;
	*nranks = n;
	return 0;
}

int
summary_find_runs(char *const paths[], size_t npaths,
    struct summary_rank **ranks, size_t *nranks, struct summary_run **runs,
    size_t *nruns, struct strv *notes, struct strv *links, char **why)
{
	struct inventory inv;
	int rc;

	inventory_init(&inv);
	rc = summary_find_runs_in(&inv, paths, npaths, ranks, nranks, runs,
	    nruns, notes, links, why);
	/* what the inventory read goes with it */
	for (size_t i = 0; rc == 0 && i < *nranks; i++)
		(*ranks)[i].inv = NULL;
	inventory_free(&inv);
	return rc;
}

void
summary_runs_free(struct summary_run *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].stamp);
	}
	free(v);
}

int
summary_find_ranks_noted(char *const paths[], size_t npaths,
    struct summary_rank **ranks, size_t *nranks, struct strv *notes,
    struct strv *links, char **why)
{
	return summary_find_runs(paths, npaths, ranks, nranks, NULL, NULL,
	    notes, links, why);
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
