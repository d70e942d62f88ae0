/* Find and check the profiling output of a run. */
#include <sys/stat.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/journal.h"
#include "common/linkwalk.h"
#include "common/rankname.h"
#include "common/util.h"
#include "summary/summary.h"
#include "verify.h"

/* A rank directory found in a listing, to be read. */
struct cand {
	char	*path;		/* as found (through the link) */
	char	*real;		/* where a link leads, else the path */
	int	 link;
	int	 rank;
	size_t	 rd;		/* in the inventory */
};

struct cands {
	struct cand	*v;
	size_t		 n;
	struct rankdir	*dirs;	/* what each holds */
};

/*
 * What each candidate holds, from the inventory (which reads those it has
 * not read yet on as many threads as there are CPUs); those changed
 * before SINCE are left out.
 */
static void
scan_cands(struct cands *c, struct inventory *inv, time_t since)
{
	const struct inv_rankdir *d;
	size_t n = 0;

	c->dirs = xcalloc(c->n + 1, sizeof(*c->dirs));
	inventory_read(inv);
	for (size_t i = 0; i < c->n; i++) {
		struct rankdir *r = &c->dirs[n];

		d = inventory_get(inv, c->v[i].rd);
		if (d->opened && d->mtime < since) {
			free(c->v[i].path);
			free(c->v[i].real);
			continue;
		}
		r->path = xstrdup(c->v[i].path);
		r->link = c->v[i].link;
		r->target = c->v[i].link ? xstrdup(c->v[i].real) : NULL;
		r->rank = d->rank;
		r->raw = d->raw;
		r->parsed = d->parsed;
		r->files = d->files;
		r->bytes = d->bytes;
		c->v[i].rank = r->rank;
		c->v[n++] = c->v[i];
	}
	c->n = n;
}

static void
cands_free(struct cands *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].real);
	}
	free(c->v);
	free(c->dirs);	/* what was not moved into an outdir is freed there */
	memset(c, 0, sizeof(*c));
}

static void
rankdir_free(struct rankdir *r)
{
	free(r->path);
	free(r->target);
}

static int
by_rank(const void *a, const void *b)
{
	const struct rankdir *x = a, *y = b;

	return rank_order(x->rank, x->path, y->rank, y->path);
}

static void
keep(struct outdir *o, struct rankdir *r)
{
	o->dirs = xreallocarray(o->dirs, o->ndirs + 1, sizeof(*o->dirs));
	o->dirs[o->ndirs++] = *r;
	memset(r, 0, sizeof(*r));
}

void
outdir_sort(struct outdir *o)
{
	if (o->ndirs > 1)
		qsort(o->dirs, o->ndirs, sizeof(*o->dirs), by_rank);
}

/*
 * The rank directories listed in DIR, through links (a link that leads
 * nowhere or loops is named in O->broken).
 */
static void
list_rankdirs(struct outdir *o, const char *dir, struct inventory *inv,
    struct cands *c)
{
	const struct inv_listing *l = inventory_list(inv, dir);
	const struct inv_entry *e;
	size_t cap = 0;
	char *sub;

	for (size_t k = 0; k < l->n; k++) {
		e = &l->e[k];
		if (e->kind == INV_NOTE) {
			sub = inventory_why(l, k, dir);
			strv_push(&o->broken, sub);
			free(sub);
		}
		if (e->kind != INV_RANKDIR)
			continue;
		if (c->n == cap) {
			cap = cap ? cap * 2 : 64;
			c->v = xreallocarray(c->v, cap, sizeof(*c->v));
		}
		sub = inventory_path(l, k, dir);
		c->v[c->n++] = (struct cand){ sub, xstrdup(e->link ? e->target :
		    sub), e->link, -1, e->rd };
	}
}

/* Collect the *_ascend_pt directories of O changed since SINCE. */
static void
scan_outdir(struct outdir *o, time_t since, struct inventory *inv)
{
	struct cands c = { 0 };

	list_rankdirs(o, o->path, inv, &c);
	scan_cands(&c, inv, since);
	for (size_t i = 0; i < c.n; i++)
		keep(o, &c.dirs[i]);
	cands_free(&c);
	outdir_sort(o);
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
 * A save path's rank directories, read and attributed once for all the
 * launches that saved there: whose each is does not depend on who asks.
 */
struct dirscan {
	char			*dir;
	struct cands		 cs;
	const struct claim	**owner;
	int			*mixed;	/* of two jobs at once: no one's */
};

struct scans {
	struct dirscan	*v;
	size_t		 n;
};

static struct dirscan *
scan_of(struct scans *ss, struct outdir *o, const struct claims *c,
    const char *dir, struct inventory *inv)
{
	struct dirscan *d;
	struct rankname rn;

	for (size_t i = 0; i < ss->n; i++)
		if (strcmp(ss->v[i].dir, dir) == 0)
			return &ss->v[i];
	ss->v = xreallocarray(ss->v, ss->n + 1, sizeof(*ss->v));
	d = &ss->v[ss->n++];
	memset(d, 0, sizeof(*d));
	d->dir = xstrdup(dir);
	list_rankdirs(o, dir, inv, &d->cs);	/* links not followed: O's */
	scan_cands(&d->cs, inv, 0);
	d->owner = xcalloc(d->cs.n + 1, sizeof(*d->owner));
	d->mixed = xcalloc(d->cs.n + 1, sizeof(*d->mixed));
	for (size_t i = 0; i < d->cs.n; i++) {
		const char *base = strrchr(d->cs.v[i].real, '/');

		d->mixed[i] = -1;	/* not a rank directory's name */
		if (rankname_parse(base ? base + 1 : d->cs.v[i].real, &rn) == 0)
			d->owner[i] = claims_owner(c, dir, &rn, d->cs.v[i].rank,
			    &d->mixed[i]);
	}
	return d;
}

static void
scans_free(struct scans *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		for (size_t k = 0; k < ss->v[i].cs.n; k++)
			rankdir_free(&ss->v[i].cs.dirs[k]);
		cands_free(&ss->v[i].cs);
		free(ss->v[i].owner);
		free(ss->v[i].mixed);
		free(ss->v[i].dir);
	}
	free(ss->v);
}

/*
 * Collect the rank directories ME made in O, and note what other jobs
 * wrote there at the same time.
 */
static void
scan_claimed(struct outdir *o, const struct claims *c, const struct claim *me,
    struct scans *ss, struct inventory *inv)
{
	/* read once, its links not followed named in the first launch's O */
	struct dirscan *d = scan_of(ss, o, c, me->dir, inv);
	struct rankdir r;

	for (size_t i = 0; i < d->cs.n; i++) {
		if (d->mixed[i] < 0)
			continue;
		if (d->owner[i] == me) {
			r = d->cs.dirs[i];
			r.path = xstrdup(r.path);
			r.target = xstrdup_null(r.target);
			keep(o, &r);
		}
		o->unclear += d->mixed[i];
	}
	outdir_sort(o);
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
	size_t lo = 0, hi = o->ndirs;

	/* sorted by rank, the unknown (-1) last */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int m = o->dirs[mid].rank;

		if (m >= 0 && m < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->ndirs && o->dirs[lo].rank == r && r >= 0 ?
	    &o->dirs[lo] : NULL;
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
    struct inventory *inv, struct verify *v)
{
	const struct launch_record *rec;
	const struct claim *me;
	struct scans ss = { 0 };
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
			scan_claimed(o, &v->claims, me, &ss, inv);
		else
			scan_outdir(o, since, inv);
	}
	scans_free(&ss);
}

void
verify_dir(const char *path, struct inventory *inv, struct verify *v)
{
	struct outdir *o;

	memset(v, 0, sizeof(*v));
	o = new_outdir(v, path);
	scan_outdir(o, 0, inv);
}

void
verify_free(struct verify *v)
{
	for (size_t i = 0; i < v->nouts; i++) {
		for (size_t k = 0; k < v->outs[i].ndirs; k++)
			rankdir_free(&v->outs[i].dirs[k]);
		free(v->outs[i].dirs);
		strv_free(&v->outs[i].broken);
		free(v->outs[i].expected);
		free(v->outs[i].path);
		strv_free(&v->outs[i].mixed);
	}
	free(v->outs);
	claims_free(&v->claims);
	memset(v, 0, sizeof(*v));
}
