/*
 * The cluster step table: one row per rank placed in the parallel layout
 * of profiler_metadata.json (Megatron's rank order: tensor parallel
 * fastest, then context, data, pipeline), each column's spread, marked
 * where max - min of a column exceeds 5 % of the mean step time (advisor's
 * spread) at the rank at its extreme: the highest for computing and free,
 * the lowest for exposed communication (it waits least: the others wait
 * for it).  Then the worst pipeline stage, and the operators that differ
 * most between the ranks with the most and the least computing.  Whether
 * a rank or stage is slow is the rules' (advice/steps.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "cluster.h"
#include "model.h"

static void *
cluster_init(struct summary *s)
{
	return xcalloc(1, sizeof(struct cluster));
}

static void
cluster_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
}

double
cluster_col(const struct rank_data *r, int c)
{
	switch (c) {
	case COL_COMP: return r->mean.comp;
	case COL_COMM: return r->mean.comm_exposed;
	case COL_FREE: return r->mean.free;
	default: return r->mean.bubble;
	}
}

void
summary_layout(const struct summary *s, struct layout *l)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];

		if (r->tp > 0 || r->pp > 0 || r->dp > 0) {
			*l = (struct layout){ r->tp, r->pp, r->dp, r->cp, r->ep,
			    1 };
			return;
		}
	}
}

static int
one(int n)
{
	return n > 0 ? n : 1;
}

int
layout_stage(const struct layout *l, int rank)
{
	return rank < 0 ? 0 : rank / (one(l->tp) * one(l->cp) * one(l->dp)) %
	    one(l->pp);
}

static void
layout(struct summary *s, struct cluster *c)
{
	summary_layout(s, &c->job);
	c->tp = one(c->job.tp);
	c->pp = one(c->job.pp);
	c->dp = one(c->job.dp);
	c->cp = one(c->job.cp);
	c->ep = one(c->job.ep);
	c->layout = c->job.known;
}

static void
spread(struct summary *s, struct cluster *c)
{
	size_t i;
	int k;

	for (k = 0; k < NCOLS; k++) {
		c->lo[k] = INFINITY;
		c->hi[k] = -INFINITY;
	}
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];

		if (r->steps_why != NULL)
			continue;
		c->n++;
		c->mean_step += r->mean.step_time;
		for (k = 0; k < NCOLS; k++) {
			if (cluster_col(r, k) < c->lo[k]) {
				c->lo[k] = cluster_col(r, k);
				c->lo_at[k] = i;
			}
			if (cluster_col(r, k) > c->hi[k]) {
				c->hi[k] = cluster_col(r, k);
				c->hi_at[k] = i;
			}
		}
	}
	c->mean_step /= c->n;
	c->slow = c->hi_at[COL_COMP];
	c->fast = c->lo_at[COL_COMP];
}

static void
flag_columns(struct cluster *c)
{
	int k;

	for (k = 0; k < NCOLS; k++)
		c->flagged[k] = c->hi[k] - c->lo[k] > CLUSTER_SPREAD * c->mean_step;
}

/* The pipeline stage with the most computing + free, when pp > 1. */
static void
stages(struct summary *s, struct cluster *c)
{
	size_t *n = xcalloc(c->pp, sizeof(*n)), i;
	double hi = -INFINITY;
	int p;

	c->stage = xcalloc(c->pp, sizeof(*c->stage));
	c->worst_stage = -1;
	for (i = 0; i < s->nr; i++)
		if (s->r[i].steps_why == NULL && s->r[i].rank >= 0) {
			p = layout_stage(&c->job, s->r[i].rank);
			c->stage[p] += s->r[i].mean.comp + s->r[i].mean.free;
			n[p]++;
		}
	for (p = 0; p < c->pp; p++) {
		if (n[p] == 0) {
			c->stage[p] = NAN;
			continue;
		}
		c->stage[p] /= n[p];
		if (c->stage[p] > hi) {
			hi = c->stage[p];
			c->worst_stage = p;
		}
	}
	free(n);
}

static int
by_diff(const void *a, const void *b)
{
	const struct op_diff *x = a, *y = b;
	double dx = fabs(x->slow - x->fast), dy = fabs(y->slow - y->fast);

	return (dy > dx) - (dy < dx);
}

/* The operators whose time differs most between the slow and fast rank. */
static void
op_diff(struct summary *s, struct cluster *c)
{
	const struct optab *a = s->r[c->slow].ops, *b = s->r[c->fast].ops;
	struct op_diff *v;
	size_t i, n = 0;

	if (a == NULL || b == NULL || c->slow == c->fast)
		return;
	v = xcalloc(a->n + b->n + 1, sizeof(*v));
	for (i = 0; i < a->cap; i++)
		if (a->slot[i] != NULL) {
			const struct op *o = optab_find(b, a->slot[i]->type,
			    a->slot[i]->core);

			v[n].type = a->slot[i]->type;
			v[n].slow = a->slot[i]->total;
			v[n++].fast = o != NULL ? o->total : 0;
		}
	for (i = 0; i < b->cap; i++)
		if (b->slot[i] != NULL && optab_find(a, b->slot[i]->type,
		    b->slot[i]->core) == NULL) {
			v[n].type = b->slot[i]->type;
			v[n].slow = 0;
			v[n++].fast = b->slot[i]->total;
		}
	qsort(v, n, sizeof(*v), by_diff);
	for (i = 0; i < n && c->ndiff < CLUSTER_DIFF_OPS; i++)
		if (v[i].slow != v[i].fast) {
			c->diff[c->ndiff] = v[i];
			c->diff[c->ndiff++].type = xstrdup(v[i].type);
		}
	free(v);
}

static char *
cluster_finish(struct summary *s, void *state)
{
	struct cluster *c = state;
	size_t i, with = 0;

	for (i = 0; i < s->nr; i++)
		with += s->r[i].steps_why == NULL;
	if (with < 2)
		return xasprintf(_("needs step data of two ranks or more (%zu "
		    "of %zu ranks have it)"), with, s->nr);
	layout(s, c);
	spread(s, c);
	flag_columns(c);
	stages(s, c);
	op_diff(s, c);
	return NULL;
}

void
cluster_position(const struct cluster *c, int rank, int v[5])
{
	int r = rank < 0 ? 0 : rank;

	v[0] = r / (c->tp * c->cp * c->dp) % c->pp;		/* pp */
	v[1] = r / (c->tp * c->cp) % c->dp;			/* dp */
	v[2] = r / c->tp % c->cp;				/* cp */
	v[3] = r % c->tp;					/* tp */
	v[4] = v[1] % c->ep;					/* ep */
}

int
cluster_extreme(const struct cluster *c, size_t i)
{
	for (int k = 0; k < NCOLS; k++)
		if (c->lo_at[k] == i || c->hi_at[k] == i)
			return 1;
	return 0;
}

size_t
cluster_worst(const struct cluster *c, int k)
{
	return k == COL_COMM ? c->lo_at[k] : c->hi_at[k];
}

static void
cluster_free(void *state)
{
	struct cluster *c = state;
	size_t i;

	for (i = 0; i < c->ndiff; i++)
		free(c->diff[i].type);
	free(c->stage);
	free(c);
}

const struct kind kind_cluster = {
	"cluster", N_("Cluster step table and slow rank (mean per step)"),
	cluster_init, NULL, cluster_rank, cluster_finish, cluster_free,
};
