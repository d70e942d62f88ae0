/*
 * The summary: each rank directory read once, rank by rank, by every
 * summary in the table below; then each summary computes its result.  A
 * summary that cannot be made says why instead of showing zeros.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <dirent.h>
#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/util.h"
#include "comm.h"
#include "csv.h"
#include "jscan.h"
#include "model.h"
#include "rankinfo.h"

/*
 * The summaries, in the order they print.  A new one is a file and a row:
 * its state is its init's, what it keeps of each rank is its own
 * (rank_own_set), both freed by its row.
 */
static const struct kind *const kinds[] = {
	&kind_steps, &kind_ops, &kind_cluster, &kind_wait, &kind_links,
	&kind_memory, &kind_mfu, &kind_idle,
};
#define NKINDS		(sizeof(kinds) / sizeof(kinds[0]))

/* The row of K in the table. */
static size_t
row_of(const struct kind *k)
{
	size_t i;

	for (i = 0; i < NKINDS && kinds[i] != k; i++)
		;
	return i;
}

void
rank_own_set(struct rank_data *rd, const struct kind *k, void *p,
    void (*release)(void *))
{
	size_t i = row_of(k);

	if (i < NKINDS)
		rd->own[i] = (struct rank_own){ p, release };
}

void *
rank_own(const struct rank_data *rd, const struct kind *k)
{
	size_t i = row_of(k);

	return i < NKINDS && rd->own != NULL ? rd->own[i].p : NULL;
}

/* Is summary K read?  All are, unless the caller wants steps and operators. */
static int
wanted(const struct summary *s, size_t k)
{
	return !s->opts.steps_ops_only || kinds[k] == &kind_steps ||
	    kinds[k] == &kind_ops;
}

struct rank_files {
	struct rank_data *rd;
	char		*out;		/* ASCEND_PROFILER_OUTPUT */
	struct comm	*comm;
	struct db	*db, *prof;	/* analysis.db, the profiler's */
	int		 db_tried, prof_tried;
};

char *
rank_file(struct rank_files *rf, const char *name)
{
	char *p = xasprintf("%s/%s", rf->out, name), *why = NULL;
	const char *reason = NULL;
	struct stat st;

	if (stat(p, &st) == 0) {
		if (S_ISREG(st.st_mode))
			return p;
		reason = N_("not a regular file");
		why = xasprintf(_("%s: not a regular file"), p);
	} else if (errno != ENOENT && errno != ENOTDIR) {
		reason = N_("cannot be read");
		why = xasprintf("%s: %s", p, i18n_strerror(errno));
	}
	/* there but not read: named; absent: the summaries that need it say */
	if (reason != NULL && rf->rd != NULL)
		rank_left_out(rf->rd, p, reason, why);
	free(why);
	free(p);
	return NULL;
}

const struct comm *
rank_comm(struct rank_files *rf)
{
	if (rf->comm == NULL)
		rf->comm = comm_read(rf->out);
	return rf->comm;
}

/* A database of the rank, opened once: NAME finds its path, or NULL. */
static struct db *
db_once(struct rank_files *rf, struct db **db, int *tried,
    char *(*name)(struct rank_files *))
{
	char *p;

	if (*tried)
		return *db;
	*tried = 1;
	if ((p = name(rf)) != NULL)
		*db = db_open(rf->rd, p);
	free(p);
	return *db;
}

static char *
analysis_db_name(struct rank_files *rf)
{
	return rank_file(rf, "analysis.db");
}

struct db *
rank_db(struct rank_files *rf)
{
	return db_once(rf, &rf->db, &rf->db_tried, analysis_db_name);
}

/*
 * ascend_pytorch_profiler_<rank>.db, else ascend_pytorch_profiler.db;
 * of a rank not known, the only ascend_pytorch_profiler_*.db there is.
 */
static char *
profiler_db_name(struct rank_files *rf)
{
	static const char pre[] = "ascend_pytorch_profiler";
	char *name = NULL, *p;
	struct dirent *e;
	DIR *d;

	if (rf->rd->rank >= 0) {
		name = xasprintf("%s_%d.db", pre, rf->rd->rank);
		p = rank_file(rf, name);
		free(name);
		if (p != NULL)
			return p;
	}
	if ((p = rank_file(rf, "ascend_pytorch_profiler.db")) != NULL ||
	    rf->rd->rank >= 0 || (d = opendir(rf->out)) == NULL)
		return p;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, pre, sizeof(pre) - 1) == 0 &&
		    ends_with(e->d_name, ".db")) {
			if (name != NULL) {	/* two: neither is surely its */
				free(name);
				name = NULL;
				break;
			}
			name = xstrdup(e->d_name);
		}
	closedir(d);
	p = name != NULL ? rank_file(rf, name) : NULL;
	free(name);
	return p;
}

struct db *
rank_profiler_db(struct rank_files *rf)
{
	return db_once(rf, &rf->prof, &rf->prof_tried, profiler_db_name);
}

static void
rank_files_close(struct rank_files *rf)
{
	comm_free(rf->comm);
	db_close(rf->db);
	db_close(rf->prof);
	free(rf->out);
}

void
rank_left_out(struct rank_data *rd, const char *path, const char *reason,
    const char *why)
{
	struct left_out *l;

	for (size_t i = 0; i < rd->nleft; i++)
		if (strcmp(rd->left[i].path, path) == 0)
			return;
	rd->left = xreallocarray(rd->left, rd->nleft + 1, sizeof(*rd->left));
	l = &rd->left[rd->nleft++];
	l->path = xstrdup(path);
	l->reason = reason;
	l->why = xstrdup(why != NULL ? why : path);
}

void
csv_left_out(struct rank_data *rd, const struct csv *c, const char *path,
    int rc, const char *why, const struct bad_rows *bad)
{
	const char *reason = NULL;
	char *msg = NULL, *all;
	unsigned long line, n;
	size_t nf;

	if (rc < 0) {
		rank_left_out(rd, path, N_("cannot be read"), why);
		return;
	}
	if (csv_cut_short(c))
		clause(&msg, &reason, N_("cut short"), xasprintf(_("cut short: "
		    "its last record (line %lu) is incomplete; the records "
		    "before it are read"), csv_line(c)));
	if (bad != NULL)
		bad_rows_say(bad, NULL, &msg, &reason);
	if ((n = csv_ragged(c, &line, &nf)) > 0)
		clause(&msg, &reason, N_("wrong number of fields"),
		    xasprintf(_("wrong number of fields: line %lu has %zu, the "
		    "header %zu; records skipped: %lu, the others are read"),
		    line, nf, csv_ncols(c), n));
	if (msg == NULL)
		return;
	all = xasprintf("%s: %s", path, msg);
	rank_left_out(rd, path, reason, all);
	free(all);
	free(msg);
}

long
step_iteration(const struct summary *s, long step)
{
	return window_iteration(&s->opts.window, step);
}

const char *
rank_label(const struct rank_data *r, char *buf, size_t len)
{
	if (r->rank >= 0)
		snprintf(buf, len, _("rank %d"), r->rank);
	else
		snprintf(buf, len, _("rank unknown (%s)"), r->name);
	return buf;
}

int
label_width(const struct summary *s, int min)
{
	char lab[LABEL_MAX];
	size_t i;
	int w = min;

	for (i = 0; i < s->nr; i++) {
		int n = (int)strlen(rank_label(&s->r[i], lab, sizeof(lab)));

		if (n > w)
			w = n;
	}
	return w;
}

/*
 * Ranks are read on worker threads (one per CPU, at most MAX_WORKERS): the
 * large files (kernel_details.csv, the communication JSON) while the main
 * thread hands the ranks already read to the summaries in rank order, so
 * the result does not depend on timing.  Workers stay at most WINDOW
 * ranks ahead, which bounds the memory held by ranks read but not yet
 * summarised.
 */
#define MAX_WORKERS	8
#define WINDOW		(2 * MAX_WORKERS)

struct pool {
	struct summary			*s;
	const struct summary_rank	*ranks;
	struct rank_files		*rf;
	unsigned char			*ready;
	size_t				 n, next, merged;
	pthread_mutex_t			 mu;
	pthread_cond_t			 cv;
};

static void
comm_left_out(struct rank_data *rd, const char *out,
    const struct comm_file *f, const char *name)
{
	char *p;

	if (f->state >= 0)
		return;
	p = xasprintf("%s/%s", out, name);
	rank_left_out(rd, p, js_reason(f->err), f->why);
	free(p);
}

/*
 * communication.json read whole but with null figures: those operators
 * are not compared, and the file is named as read in part.
 */
static void
comm_nulls(struct rank_data *rd, const char *out, const struct comm *c)
{
	char *p, *why;

	if (c->comm.state != 1 || c->nnull == 0)
		return;
	p = xasprintf("%s/communication.json", out);
	why = xasprintf(_("%s: null figures: %zu of its %zu operators (the "
	    "first: %s) have a null Elapse Time or ratio; they are left out, "
	    "the others are read"), p, c->nnull, c->nops,
	    c->pool + c->ops[c->null_first].key + c->ops[c->null_first].op);
	rank_left_out(rd, p, N_("null figures"), why);
	free(why);
	free(p);
}

static void
prepare(struct summary *s, size_t i, const struct summary_rank *sr,
    struct rank_files *rf)
{
	struct rank_data *rd = &s->r[i];
	const char *base = strrchr(sr->path, '/');
	size_t k;

	rd->path = xstrdup(sr->path);
	rd->name = xstrdup(base ? base + 1 : sr->path);
	rd->rank = sr->rank;
	rd->inv = sr->inv;
	rd->own = xcalloc(NKINDS, sizeof(*rd->own));
	rf->rd = rd;
	rf->out = xasprintf("%s/ASCEND_PROFILER_OUTPUT", rd->path);
	rankinfo_read(rd, rf);
	for (k = 0; k < NKINDS; k++)
		if (kinds[k]->prepare != NULL && wanted(s, k))
			kinds[k]->prepare(s, rd, rf);
	if (s->opts.steps_ops_only)
		return;
	comm_left_out(rd, rf->out, &rank_comm(rf)->comm, "communication.json");
	comm_nulls(rd, rf->out, rank_comm(rf));
	comm_left_out(rd, rf->out, &rank_comm(rf)->matrix,
	    "communication_matrix.json");
}

static void *
worker(void *arg)
{
	struct pool *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t i;

		while (p->next < p->n && p->next >= p->merged + WINDOW)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->next >= p->n)
			break;
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		prepare(p->s, i, &p->ranks[i], &p->rf[i]);
		pthread_mutex_lock(&p->mu);
		p->ready[i] = 1;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

size_t
summary_workers(size_t n)
{
	const char *env = getenv("MSPROF_THREADS");
	long cpus = env != NULL && *env != '\0' ? strtol(env, NULL, 10) :
	    sysconf(_SC_NPROCESSORS_ONLN);
	size_t w = cpus > 0 ? (size_t)cpus : 1;

	if (w > MAX_WORKERS)
		w = MAX_WORKERS;
	if (w <= 1)
		return 0;
	return w < n ? w : n;
}

static void
read_ranks(struct summary *s, const struct summary_rank *ranks, size_t n)
{
	struct pool p = { .s = s, .ranks = ranks, .n = n };
	pthread_t tid[MAX_WORKERS];
	size_t i, k, nw = summary_workers(n), started = 0;

	p.rf = xcalloc(n + 1, sizeof(*p.rf));
	p.ready = xcalloc(n + 1, 1);
	i18n_init();	/* before the workers: their messages are translated */
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (i = 0; i < nw; i++)
		started += pthread_create(&tid[started], NULL, worker, &p) == 0;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&p.mu);
		while (!p.ready[i] && started > 0)
			pthread_cond_wait(&p.cv, &p.mu);
		if (!p.ready[i])	/* no thread could be started */
			p.next = i + 1;
		pthread_mutex_unlock(&p.mu);
		if (!p.ready[i])
			prepare(s, i, &ranks[i], &p.rf[i]);
		for (k = 0; k < NKINDS; k++)
			if (kinds[k]->rank != NULL && wanted(s, k))
				kinds[k]->rank(s, s->state[k], &s->r[i], &p.rf[i]);
		rank_files_close(&p.rf[i]);
		pthread_mutex_lock(&p.mu);
		p.merged = i + 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.rf);
	free(p.ready);
}

struct summary *
summary_build(const struct summary_rank *ranks, size_t n,
    const struct summary_opts *opts)
{
	struct summary *s = xcalloc(1, sizeof(*s));
	size_t k;

	s->opts = *opts;
	if (s->opts.top_n <= 0)
		s->opts.top_n = 10;
	s->r = xcalloc(n + 1, sizeof(*s->r));
	s->nr = n;
	s->state = xcalloc(NKINDS, sizeof(*s->state));
	s->why = xcalloc(NKINDS, sizeof(*s->why));
	for (k = 0; k < NKINDS; k++)
		s->state[k] = kinds[k]->init(s);
	read_ranks(s, ranks, n);
	for (k = 0; k < NKINDS; k++)
		s->why[k] = n == 0 ? xstrdup(_("no *_ascend_pt rank directory")) :
		    !wanted(s, k) ? xstrdup(_("not read (steps and operators "
		    "only)")) : kinds[k]->finish(s, s->state[k]);
	return s;
}

const struct kind *
summary_kind(size_t k)
{
	return k < NKINDS ? kinds[k] : NULL;
}

void *
summary_state(const struct summary *s, const struct kind *kind)
{
	size_t k = row_of(kind);

	return k < NKINDS ? s->state[k] : NULL;
}

unsigned
summary_term_flags(FILE *fp)
{
	const char *cs = nl_langinfo(CODESET), *nc = getenv("NO_COLOR");
	unsigned f = 0;

	if (cs != NULL && strcmp(cs, "UTF-8") == 0)
		f |= SUMMARY_UTF8;
	if (isatty(fileno(fp)) && (nc == NULL || *nc == '\0'))
		f |= SUMMARY_COLOUR;
	return f;
}

void
summary_free(struct summary *s)
{
	size_t i, k;

	if (s == NULL)
		return;
	for (k = 0; k < NKINDS; k++) {
		kinds[k]->free(s->state[k]);
		free(s->why[k]);
	}
	for (i = 0; i < s->nr; i++) {
		struct rank_data *r = &s->r[i];

		free(r->path);
		free(r->name);
		free(r->level);
		free(r->export_type);
		free(r->steps);
		free(r->steps_why);
		optab_free(r->ops);
		free(r->ops_why);
		for (k = 0; k < r->nleft; k++) {
			free(r->left[k].path);
			free(r->left[k].why);
		}
		free(r->left);
		for (k = 0; k < r->nratio; k++)
			free(r->ratio[k]);
		strv_free(&r->env);
		strv_free(&r->groups);
		for (k = 0; r->own != NULL && k < NKINDS; k++)
			if (r->own[k].free != NULL)
				r->own[k].free(r->own[k].p);
		free(r->own);
	}
	free(s->r);
	free(s->state);
	free(s->why);
	free(s);
}
