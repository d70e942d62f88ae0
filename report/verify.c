/* Find and check the profiling output of a run. */
#include <sys/stat.h>

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/journal.h"
#include "common/linkwalk.h"
#include "common/parallel.h"
#include "common/rankname.h"
#include "common/util.h"
#include "summary/summary.h"
#include "verify.h"

const char *const rankdir_files[RANKDIR_NFILES] = {
	"step_trace_time.csv", "kernel_details.csv", "op_statistic.csv",
	"communication.json", "communication_matrix.json", "analysis.db",
	"trace_view.json", "operator_details.csv", "api_statistic.csv",
	"operator_memory.csv", "memory_record.csv", "npu_module_mem.csv",
};

#define MAX_DEPTH	16

/* Where a directory is in a rank directory: what its entries say. */
enum place {
	IN_RANKDIR,	/* profiler_info_N.json, PROF_*, ASCEND_PROFILER_OUTPUT */
	IN_PROF,	/* PROF_* or ASCEND_PROF_*: device_* */
	IN_DEVICE,	/* device_*: data */
	IN_DATA,	/* any entry: raw data */
	IN_OUTPUT,	/* ASCEND_PROFILER_OUTPUT: the parsed files */
	IN_OTHER,
};

struct scan {
	struct rankdir	*r;
	struct dirstack	 up;	/* the directories the walk is inside */
	char		*top;	/* the rank directory's real path, once needed */
};

static enum place
place_of(enum place in, const char *name)
{
	switch (in) {
	case IN_RANKDIR:
		if (strncmp(name, "PROF_", 5) == 0 ||
		    strncmp(name, "ASCEND_PROF_", 12) == 0)
			return IN_PROF;
		return strcmp(name, "ASCEND_PROFILER_OUTPUT") == 0 ? IN_OUTPUT :
		    IN_OTHER;
	case IN_PROF:
		return strncmp(name, "device_", 7) == 0 ? IN_DEVICE : IN_OTHER;
	case IN_DEVICE:
		return strcmp(name, "data") == 0 ? IN_DATA : IN_OTHER;
	default:
		return IN_OTHER;
	}
}

/* What entry NAME says about the rank directory, from where it is. */
static void
note(struct rankdir *r, enum place in, const char *name)
{
	int rank;

	if (in == IN_RANKDIR && r->rank < 0 && (rank = rankname_info(name)) >= 0)
		r->rank = rank;
	else if (in == IN_DATA)
		r->raw = 1;
	else if (in == IN_OUTPUT) {
		r->parsed = 1;
		for (int i = 0; i < RANKDIR_NFILES; i++)
			if (strcmp(name, rankdir_files[i]) == 0)
				r->files |= 1u << i;
	}
}

/*
 * Does the directory link SUB lead back to the rank directory or above
 * it?  Its files are then another directory's, or these again.
 */
static int
back_above(struct scan *sc, const char *sub)
{
	char *real;
	int yes;

	if (sc->top == NULL && (sc->top = realpath(sc->r->path, NULL)) == NULL)
		return 0;
	if ((real = realpath(sub, NULL)) == NULL)
		return 0;
	yes = path_holds(real, sc->top);
	free(real);
	return yes;
}

/*
 * One walk of a rank directory (through links, none twice): its rank, its
 * raw and parsed data, and the bytes of its files.
 */
static void
walk(struct scan *sc, const char *path, enum place in, int depth)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct entry en;
	struct stat st;
	char *sub;

	if (d == NULL)
		return;
	if (fstat(dirfd(d), &st) < 0 ||
	    dirstack_push(&sc->up, path, &st, NULL) < 0) {
		closedir(d);	/* a loop inside: its bytes are counted once */
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		note(sc->r, in, e->d_name);
		sub = xasprintf("%s/%s", path, e->d_name);
		switch (entry_read(dirfd(d), e->d_name, sub, e->d_type, 1, &en)) {
		case ENTRY_FILE:
			sc->r->bytes += en.st.st_size;
			break;
		case ENTRY_DIR:
			if (depth < MAX_DEPTH &&
			    !(en.link && back_above(sc, sub)))
				walk(sc, sub, place_of(in, e->d_name), depth + 1);
			break;
		default:
			break;
		}
		entry_free(&en);
		free(sub);
	}
	dirstack_pop(&sc->up);
	closedir(d);
}

/* A rank directory found in a listing, to be read. */
struct cand {
	char	*path;		/* as found (through the link) */
	char	*real;		/* where a link leads, else the path */
	int	 link;
	int	 rank;
};

struct cands {
	struct cand	*v;
	size_t		 n;
	struct rankdir	*dirs;	/* what each holds, filled in parallel */
};

static void
scan_one(void *arg, size_t i)
{
	struct cands *c = arg;
	struct rankdir *r = &c->dirs[i];
	struct scan sc = { .r = r };

	r->path = xstrdup(c->v[i].path);
	r->rank = -1;
	r->link = c->v[i].link;
	r->target = c->v[i].link ? xstrdup(c->v[i].real) : NULL;
	walk(&sc, r->path, IN_RANKDIR, 0);
	dirstack_free(&sc.up);
	free(sc.top);
	c->v[i].rank = r->rank;
}

/* Read every candidate's directory, on as many threads as there are CPUs. */
static void
scan_cands(struct cands *c)
{
	c->dirs = xcalloc(c->n + 1, sizeof(*c->dirs));
	i18n_init();	/* before the threads: their messages are translated */
	parallel_for(c->n, summary_workers(c->n), scan_one, c);
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

/* By rank, those without one last, then by path. */
static int
by_rank(const void *a, const void *b)
{
	const struct rankdir *x = a, *y = b;

	if ((x->rank < 0) != (y->rank < 0))
		return x->rank < 0 ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->path, y->path);
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
 * nowhere or loops is named in O->broken), changed since SINCE.
 */
static void
list_rankdirs(struct outdir *o, const char *dir, time_t since,
    struct cands *c)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct entry en;
	char *sub, *real, *top = realpath(dir, NULL);
	size_t cap = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || (!ends_with(e->d_name,
		    RANKDIR_SUFFIX) && e->d_type != DT_LNK &&
		    e->d_type != DT_UNKNOWN))
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		entry_read(dirfd(d), e->d_name, sub, e->d_type, 1, &en);
		real = NULL;
		if (en.type == ENTRY_BROKEN && rankdir_link(e->d_name, &en))
			strv_push(&o->broken, en.why);
		else if (en.type == ENTRY_DIR && rankdir_path(sub, en.link, &real) &&
		    en.st.st_mtime >= since) {
			if (en.link && top != NULL && path_holds(real, top)) {
				char *why = loop_why(sub);

				strv_push(&o->broken, why);
				free(why);
			} else {
				if (c->n == cap) {
					cap = cap ? cap * 2 : 64;
					c->v = xreallocarray(c->v, cap, sizeof(*c->v));
				}
				c->v[c->n++] = (struct cand){ sub, real, en.link, -1 };
				sub = real = NULL;
			}
		}
		free(real);
		free(sub);
		entry_free(&en);
	}
	if (d != NULL)
		closedir(d);
	free(top);
}

/* Collect the *_ascend_pt directories of O changed since SINCE. */
static void
scan_outdir(struct outdir *o, time_t since)
{
	struct cands c = { 0 };

	list_rankdirs(o, o->path, since, &c);
	scan_cands(&c);
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
    const char *dir)
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
	list_rankdirs(o, dir, 0, &d->cs);	/* links not followed: O's */
	scan_cands(&d->cs);
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
    struct scans *ss)
{
	/* read once, its links not followed named in the first launch's O */
	struct dirscan *d = scan_of(ss, o, c, me->dir);
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
    struct verify *v)
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
			scan_claimed(o, &v->claims, me, &ss);
		else
			scan_outdir(o, since);
	}
	scans_free(&ss);
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
