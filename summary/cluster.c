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
#include "model.h"

#define SPREAD		0.05
#define MAX_ROWS	32
#define DIFF_OPS	5

enum { COL_COMP, COL_COMM, COL_FREE, COL_BUBBLE, NCOLS };

static const char *const col_name[NCOLS] = {
	"Computing", "Communication(Not Overlapped)", "Free", "Bubble",
};
/* Their JSON keys, as in the step breakdown's. */
static const char *const col_key[NCOLS] = {
	"computing_us", "communication_not_overlapped_us", "free_us",
	"bubble_us",
};

struct cluster {
	struct layout job;
	int	 tp, pp, dp, cp, ep;	/* the job's, 1 when unknown */
	int	 layout;		/* from metadata */
	size_t	 n;			/* ranks with steps */
	double	 mean_step;
	double	 lo[NCOLS], hi[NCOLS];
	size_t	 lo_at[NCOLS], hi_at[NCOLS];	/* indexes into s->r */
	int	 flagged[NCOLS];
	double	*stage;			/* mean computing + free per stage */
	int	 worst_stage;
	size_t	 slow, fast;		/* most and least computing */
	struct op_diff {
		char	*type;
		double	 slow, fast;
	} diff[DIFF_OPS];
	size_t	 ndiff;
};

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

static double
col(const struct rank_data *r, int c)
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
			if (col(r, k) < c->lo[k]) {
				c->lo[k] = col(r, k);
				c->lo_at[k] = i;
			}
			if (col(r, k) > c->hi[k]) {
				c->hi[k] = col(r, k);
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
		c->flagged[k] = c->hi[k] - c->lo[k] > SPREAD * c->mean_step;
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
	for (i = 0; i < n && c->ndiff < DIFF_OPS; i++)
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

static const char *const pos_name[5] = { "pp", "dp", "cp", "tp", "ep" };

static void
position(const struct cluster *c, int rank, int v[5])
{
	int r = rank < 0 ? 0 : rank;

	v[0] = r / (c->tp * c->cp * c->dp) % c->pp;		/* pp */
	v[1] = r / (c->tp * c->cp) % c->dp;			/* dp */
	v[2] = r / c->tp % c->cp;				/* cp */
	v[3] = r % c->tp;					/* tp */
	v[4] = v[1] % c->ep;					/* ep */
}

/* Is rank I the lowest or the highest of a column? */
static int
extreme(const struct cluster *c, size_t i)
{
	for (int k = 0; k < NCOLS; k++)
		if (c->lo_at[k] == i || c->hi_at[k] == i)
			return 1;
	return 0;
}

static void
cluster_print(const struct summary *s, const void *state, struct out *o)
{
	const struct cluster *c = state;
	FILE *fp = o->fp;
	size_t i, shown = 0;
	int k, lw = label_width(s, 6);
	char lab[LABEL_MAX], lab2[LABEL_MAX];

	if (c->layout)
		fprintf(fp, _("  layout: tp %d, pp %d, dp %d, cp %d, ep %d "
		    "(profiler_metadata.json)\n"), c->tp, c->pp, c->dp, c->cp,
		    c->ep);
	else
		fprintf(fp, _("  layout: unknown (no distributed_args in "
		    "profiler_metadata.json)\n"));
	/*
	 * Without a layout every position would print as 0: none, and the
	 * rank column as wide as the spread's label needs.
	 */
	if (!c->layout && lw + 11 < (int)strlen(_("spread (max - min)")))
		lw = (int)strlen(_("spread (max - min)")) - 11;
	fprintf(fp, "  %-*s", lw, _("rank"));
	if (c->layout)
		fprintf(fp, " %3s %3s %3s %3s %3s", "pp", "dp", "cp", "tp", "ep");
	fprintf(fp, " %10s %10s %10s %10s %10s\n", _("step ms"), _("comp ms"),
	    _("comm ms"), _("free ms"), _("bubble ms"));
	for (i = 0; i < s->nr && shown < MAX_ROWS; i++) {
		const struct rank_data *r = &s->r[i];
		int v[5];

		if (r->steps_why != NULL)
			continue;
		/* Many ranks: the extremes of each column only. */
		if (s->nr > MAX_ROWS && !extreme(c, i))
			continue;
		shown++;
		if (r->rank >= 0)
			fprintf(fp, "  %-*d", lw, r->rank);
		else
			fprintf(fp, "  %-*s", lw, rank_label(r, lab, sizeof(lab)));
		if (c->layout && r->rank >= 0) {
			position(c, r->rank, v);
			fprintf(fp, " %3d %3d %3d %3d %3d", v[0], v[1], v[2], v[3],
			    v[4]);
		} else if (c->layout)
			fprintf(fp, " %3s %3s %3s %3s %3s", "-", "-", "-", "-",
			    "-");
		fprintf(fp, " %10.3f", r->mean.step_time / 1000);
		for (k = 0; k < NCOLS; k++) {
			int mark = c->flagged[k] && (k == COL_COMM ?
			    c->lo_at[k] : c->hi_at[k]) == i;

			fprintf(fp, " %s%10.3f%s", mark ? colour(o, 4) : "",
			    col(r, k) / 1000, mark ? colour_off(o) : "");
		}
		fputc('\n', fp);
	}
	if (s->nr > MAX_ROWS)
		fprintf(fp, _("  (the ranks at the extremes of each column; all "
		    "in --json)\n"));
	fprintf(fp, "  %-*s", lw + (c->layout ? 20 : 0) + 11,
	    _("spread (max - min)"));
	for (k = 0; k < NCOLS; k++)
		fprintf(fp, " %10.3f", (c->hi[k] - c->lo[k]) / 1000);
	fputc('\n', fp);
	fprintf(fp, _("  mean step: %.3f ms; a spread above 5 %% of it (%.3f "
	    "ms) names a slow rank\n"), c->mean_step / 1000,
	    SPREAD * c->mean_step / 1000);
	if (c->pp > 1 && c->worst_stage >= 0)
		fprintf(fp, _("  slowest pipeline stage: %d (%.3f ms computing + "
		    "free per rank)\n"), c->worst_stage, c->stage[c->worst_stage] / 1000);
	/*
	 * The operators that tell the rank computing most from the one
	 * computing least, when that spread names a slow rank: below it
	 * they would be the noise of two equal ranks.
	 */
	if (c->ndiff > 0 && c->flagged[COL_COMP]) {
		fprintf(fp, _("  operators differing most between %s (most "
		    "computing) and %s (least), ms:\n"),
		    rank_label(&s->r[c->slow], lab, sizeof(lab)),
		    rank_label(&s->r[c->fast], lab2, sizeof(lab2)));
		for (i = 0; i < c->ndiff; i++)
			fprintf(fp, "    %-32s %10.3f %10.3f %+10.3f\n",
			    c->diff[i].type, c->diff[i].slow / 1000,
			    c->diff[i].fast / 1000,
			    (c->diff[i].slow - c->diff[i].fast) / 1000);
	}
}

static cJSON *
cluster_json(const struct summary *s, const void *state)
{
	const struct cluster *c = state;
	cJSON *j = cJSON_CreateObject(), *a, *x;
	size_t i;
	int k, p;

	if (c->layout) {
		x = cJSON_AddObjectToObject(j, "layout");
		cJSON_AddNumberToObject(x, "tp", c->tp);
		cJSON_AddNumberToObject(x, "pp", c->pp);
		cJSON_AddNumberToObject(x, "dp", c->dp);
		cJSON_AddNumberToObject(x, "cp", c->cp);
		cJSON_AddNumberToObject(x, "ep", c->ep);
	}
	cJSON_AddNumberToObject(j, "mean_step_us", c->mean_step);
	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		int v[5];

		if (r->steps_why != NULL)
			continue;
		position(c, r->rank, v);
		x = cJSON_CreateObject();
		json_rank(x, "rank", r->rank);
		/* null where the layout is unknown, as the text omits them */
		for (p = 0; p < 5; p++)
			json_rank(x, pos_name[p], r->rank >= 0 && c->layout ?
			    v[p] : -1);
		cJSON_AddNumberToObject(x, "step_us", r->mean.step_time);
		for (k = 0; k < NCOLS; k++)
			cJSON_AddNumberToObject(x, col_key[k], col(r, k));
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(j, "spread");
	for (k = 0; k < NCOLS; k++) {
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "column", col_key[k]);
		cJSON_AddNumberToObject(x, "spread_us", c->hi[k] - c->lo[k]);
		json_rank(x, "worst_rank", s->r[k == COL_COMM ?
		    c->lo_at[k] : c->hi_at[k]].rank);
		cJSON_AddBoolToObject(x, "flagged", c->flagged[k]);
		cJSON_AddItemToArray(a, x);
	}
	if (c->pp > 1)
		cJSON_AddNumberToObject(j, "worst_stage", c->worst_stage);
	a = cJSON_AddArrayToObject(j, "operator_difference");
	for (i = 0; i < c->ndiff; i++) {
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "type", c->diff[i].type);
		cJSON_AddNumberToObject(x, "slow_rank_us", c->diff[i].slow);
		cJSON_AddNumberToObject(x, "fast_rank_us", c->diff[i].fast);
		cJSON_AddItemToArray(a, x);
	}
	if (c->ndiff > 0) {
		json_rank(j, "slow_rank", s->r[c->slow].rank);
		json_rank(j, "fast_rank", s->r[c->fast].rank);
	}
	return j;
}

static void
cluster_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct cluster *c = state;
	size_t i;
	int k, p;

	fputs("<table>\n<tr><th>rank</th>", fp);
	if (c->layout)
		fputs("<th>pp</th><th>dp</th><th>cp</th><th>tp</th><th>ep</th>",
		    fp);
	fputs("<th>step (ms)</th>", fp);
	for (k = 0; k < NCOLS; k++)
		fprintf(fp, "<th>%s (ms)</th>", col_name[k]);
	fputs("</tr>\n", fp);
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		int v[5];

		if (r->steps_why != NULL || (s->nr > MAX_ROWS && !extreme(c, i)))
			continue;
		position(c, r->rank, v);
		fputs("<tr>", fp);
		html_rank(fp, r);
		for (p = 0; p < 5 && c->layout; p++)
			if (r->rank >= 0)
				fprintf(fp, "<td>%d</td>", v[p]);
			else
				fputs("<td>-</td>", fp);
		fprintf(fp, "<td>%.3f</td>", r->mean.step_time / 1000);
		for (k = 0; k < NCOLS; k++) {
			int mark = c->flagged[k] && (k == COL_COMM ?
			    c->lo_at[k] : c->hi_at[k]) == i;

			fprintf(fp, "<td%s>%.3f</td>", mark ?
			    " class=\"finding\"" : "", col(r, k) / 1000);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
	if (s->nr > MAX_ROWS)
		fputs("<p>The ranks at the extremes of each column; all in "
		    "--json.</p>\n", fp);
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
	cluster_init, NULL, cluster_rank, cluster_finish, cluster_print,
	cluster_json, cluster_html, cluster_free,
};
