/*
 * Compare two runs, each read by the summary: the step time and its
 * breakdown (means over ranks and steps), the operator types (device time
 * and calls per rank and step, so that runs of different sizes or windows
 * compare), and the ranks (matched by rank: those whose change is unlike
 * the others', and those in one run only).  When some rank is in both
 * runs the means are over the ranks in both alone: a mean over other
 * ranks would show a change that is only a difference of ranks.  An
 * operator type is matched by its name whatever core it ran on: one
 * version of CANN runs TransData on AI_CORE, the next on AI_VECTOR_CORE.
 *
 * A change is named only beyond the noise margin: twice the step-to-step
 * variation of the noisier run (a robust standard deviation of a rank's
 * steps, relative to its step, the median over the ranks), at least
 * COMPARE_FLOOR; as a share of the base run's step, so that an operator
 * type or a figure of the breakdown that moves by less than that much of
 * the step is not named either.  Two runs of the same setting differ by
 * less; a change an engineer made on purpose (a flag, a version) by more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "compare_model.h"

const char *const cmp_change_words[] = {
	N_("slower"), N_("faster"), N_("added"), N_("removed"),
	N_("within the margin"),
};
const char *const cmp_change_keys[] = {
	"slower", "faster", "added", "removed", "within_margin",
};

const char *const cmp_noise_keys[] = { "measured", "one_run", "guess" };

const char *const cmp_setting_words[] = {
	N_("command"), N_("flag"), N_("argument"), N_("environment"),
	N_("profiling"),
};
const char *const cmp_setting_keys[] = {
	"command", "flag", "argument", "environment", "profiling",
};

const char *const cmp_part_names[CP_N] = {
	N_("step"), N_("compute"), N_("exposed communication"), N_("free"),
	N_("bubble"),
};

static double
part(const struct step_row *m, int p)
{
	switch (p) {
	case CP_STEP:	return m->step_time;
	case CP_COMP:	return m->comp;
	case CP_COMM:	return m->comm_exposed;
	case CP_FREE:	return m->free;
	default:	return m->bubble;
	}
}

/*
 * A rank's step-to-step variation relative to its step, a robust standard
 * deviation (no weight on an outlier step); NAN below 2 steps.
 */
static double
rank_variation(const struct rank_data *r)
{
	double *v, med, sd;
	size_t i;

	if (r->steps_why != NULL || r->nsteps < 2)
		return NAN;
	v = xcalloc(r->nsteps, sizeof(*v));
	for (i = 0; i < r->nsteps; i++)
		v[i] = r->steps[i].step_time;
	med = median(v, r->nsteps);
	sd = robust_sd(v, r->nsteps, med);
	free(v);
	return med > 0 ? sd / med : NAN;
}

/* The level of every rank, "mixed" when they differ, NULL when unknown. */
static char *
run_level(const struct summary *s)
{
	const char *level = NULL;

	for (size_t i = 0; i < s->nr; i++) {
		const char *l = s->r[i].level;

		if (l == NULL)
			continue;
		if (level != NULL && strcmp(level, l) != 0)
			return xstrdup("mixed");
		level = l;
	}
	return xstrdup_null(level);
}

/* S and ", NAME N" when N is known. */
static char *
add_size(char *s, const char *name, int n)
{
	char *t;

	if (n <= 0)
		return s;
	t = xasprintf("%s, %s %d", s, name, n);
	free(s);
	return t;
}

/*
 * The parallel layout of the first rank that records one, and what a
 * rank holds of the model in it: its sizes but data parallel's.
 */
static void
run_layout(struct cmp_run *run)
{
	const struct summary *s = run->s;

	for (size_t i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];

		if (r->tp <= 0 && r->pp <= 0 && r->dp <= 0)
			continue;
		run->layout = add_size(add_size(xasprintf("tp %d, pp %d, dp %d",
		    r->tp, r->pp, r->dp), "cp", r->cp), "ep", r->ep);
		run->model_part = xasprintf("tp %d, pp %d, cp %d, ep %d",
		    r->tp, r->pp, r->cp > 0 ? r->cp : 1, r->ep > 0 ? r->ep : 1);
		return;
	}
}

/* Rank RANK in S (in rank order, the unknown last), or NULL. */
static const struct rank_data *
partner(const struct summary *s, int rank)
{
	size_t lo = 0, hi = s->nr, mid;

	if (rank < 0)
		return NULL;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->r[mid].rank >= 0 && s->r[mid].rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nr && s->r[lo].rank == rank ? &s->r[lo] : NULL;
}

static int
has(const struct rank_data *r, int ops)
{
	return ops ? r->ops != NULL : r->steps_why == NULL;
}

/* Is any rank in both runs with steps (OPS: operators) in both? */
static void
find_both(struct compare *c)
{
	const struct summary *b = c->run[BASE].s, *n = c->run[NEW].s;

	for (size_t i = 0; i < b->nr; i++) {
		const struct rank_data *p = partner(n, b->r[i].rank);

		if (p == NULL)
			continue;
		c->both_steps |= has(&b->r[i], 0) && has(p, 0);
		c->both_ops |= has(&b->r[i], 1) && has(p, 1);
	}
}

/*
 * Do R's steps (OPS: operators) of run K count in its means?  Only if
 * the other run has them for the same rank, when some rank has them in
 * both; every rank's when none has (the runs compare as a whole).
 */
static int
counts(const struct compare *c, int k, const struct rank_data *r, int ops)
{
	const struct rank_data *p;

	if (!has(r, ops))
		return 0;
	if (!(ops ? c->both_ops : c->both_steps))
		return 1;
	p = partner(c->run[!k].s, r->rank);
	return p != NULL && has(p, ops);
}

/* Add CORE to the cores of a type, "A+B", in order and once. */
static void
add_core(struct strmap *cores, const char *type, const char *core)
{
	char **list = (char **)strmap_slot(cores, type), *t;
	const char *p;
	size_t n = strlen(core);

	for (p = *list; p != NULL; p = strchr(p, '+') ? strchr(p, '+') + 1 :
	    NULL)
		if (strncmp(p, core, n) == 0 && (p[n] == '+' || p[n] == '\0'))
			return;
	if (*list == NULL)
		t = xstrdup(core);
	else if (strcmp(core, *list) < 0)
		t = xasprintf("%s+%s", core, *list);
	else
		t = xasprintf("%s+%s", *list, core);
	free(*list);
	*list = t;
}

/*
 * RUN's operators by type alone (the table keyed by type and core is
 * FULL): the cores a type ran on become its core.
 */
static void
by_type(struct cmp_run *run, const struct optab *full)
{
	struct strmap cores = { 0 };
	size_t i;

	for (i = 0; i < full->cap; i++)
		if (full->slot[i] != NULL)
			add_core(&cores, full->slot[i]->type,
			    full->slot[i]->core);
	for (i = 0; i < full->cap; i++) {
		const struct op *o = full->slot[i];
		struct op *d;

		if (o == NULL)
			continue;
		d = optab_get(run->ops, o->type, strmap_get(&cores, o->type));
		op_add_stat(run->ops, d, o->count, o->total, o->min, o->max);
		*strmap_slot(&run->types, o->type) = d;
	}
	strmap_free(&cores, free);
}

/* What run K holds: the means, its variation, its operators merged. */
static void
read_run(struct compare *c, int k)
{
	struct cmp_run *run = &c->run[k];
	const struct summary *s = run->s;
	struct optab *full = optab_new(0);
	double *var = xcalloc(s->nr + 1, sizeof(*var));
	size_t nvar = 0;

	run->ops = optab_new(0);
	for (size_t i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];

		run->unknown += r->rank < 0;
		if (counts(c, k, r, 0)) {
			double v = rank_variation(r);

			if (!isnan(v))
				var[nvar++] = v;
			for (int p = 0; p < CP_N; p++)
				run->mean[p] += part(&r->mean, p);
			run->nsteps++;
		}
		if (counts(c, k, r, 1)) {
			optab_merge(full, r->ops, NULL);
			run->nops++;
		}
	}
	for (int p = 0; p < CP_N && run->nsteps > 0; p++)
		run->mean[p] /= (double)run->nsteps;
	run->variation = median(var, nvar);
	run->nvar = nvar;
	free(var);
	by_type(run, full);
	optab_free(full);
	run->level = run_level(s);
	run_layout(run);
}

/*
 * What the operator times are divided by: the rank-steps of the ranks
 * with operators when every one of them (in both runs) has steps, else
 * the ranks.
 */
static void
op_units(struct compare *c)
{
	double steps[2] = { 0, 0 };

	c->per_step = 1;
	for (int k = BASE; k <= NEW; k++) {
		const struct summary *s = c->run[k].s;

		for (size_t i = 0; i < s->nr; i++)
			if (counts(c, k, &s->r[i], 1)) {
				if (s->r[i].steps_why != NULL)
					c->per_step = 0;
				steps[k] += (double)s->r[i].nsteps;
			}
	}
	for (int k = BASE; k <= NEW; k++) {
		struct cmp_run *run = &c->run[k];

		run->per = c->per_step ? steps[k] : (double)run->nops;
		run->optotal = run->per > 0 ? run->ops->total / run->per : 0;
	}
	if (!c->per_step)
		strv_push(&c->caveats, _("operator times are per rank over the "
		    "whole collection, as some ranks have no step data: a "
		    "window of other steps changes them too"));
}

/* The first reason a rank of S gives for having no steps (no operators). */
static const char *
first_why(const struct summary *s, int ops)
{
	for (size_t i = 0; i < s->nr; i++) {
		const char *why = ops ? s->r[i].ops_why : s->r[i].steps_why;

		if (why != NULL)
			return why;
	}
	return "";
}

/* Why a part is not compared: the first run without it, and its reason. */
static char *
missing(const struct compare *c, int ops)
{
	for (int k = BASE; k <= NEW; k++) {
		const struct cmp_run *run = &c->run[k];

		if ((ops ? run->nops : run->nsteps) == 0)
			return xasprintf(ops ? _("%s has no operator data (%s)") :
			    _("%s has no step data (%s)"), _(run->label),
			    first_why(run->s, ops));
	}
	return NULL;
}

/*
 * The margin: from the runs' variation, at least the floor, of the base
 * step (or, without steps, of the base operator time per rank; so too for
 * the operator types when their times are per rank, not per step).
 */
static void
set_margin(struct compare *c)
{
	double v = 0;

	for (int k = BASE; k <= NEW; k++)
		if (!isnan(c->run[k].variation))
			v = fmax(v, c->run[k].variation);
	c->margin = fmax(COMPARE_FLOOR, 2 * v);
	c->from_floor = c->margin == COMPARE_FLOOR;
	if (c->run[BASE].nvar > 0 && c->run[NEW].nvar > 0)
		c->noise = NOISE_MEASURED;
	else if (c->run[BASE].nvar > 0 || c->run[NEW].nvar > 0)
		c->noise = NOISE_ONE_RUN;
	else
		c->noise = NOISE_GUESS;
	c->scale = c->steps_why == NULL ? c->run[BASE].mean[CP_STEP] :
	    c->run[BASE].optotal;
	/* operator times over the whole collection are no step's share */
	c->op_scale = c->per_step ? c->scale : c->run[BASE].optotal;
}

static int
beyond(const struct compare *c, double delta, double of)
{
	return of > 0 && fabs(delta) >= c->margin * of;
}

static void
compare_steps(struct compare *c)
{
	if (c->steps_why != NULL)
		return;
	for (int p = 0; p < CP_N; p++) {
		c->sig[p] = beyond(c, c->run[NEW].mean[p] - c->run[BASE].mean[p],
		    c->scale);
		c->changed |= c->sig[p];
	}
}

/* Cores that are known: level0 writes N/A. */
static int
moved(const char *a, const char *b)
{
	return strcmp(a, b) != 0 && strstr(a, "N/A") == NULL &&
	    strstr(b, "N/A") == NULL;
}

static void
add_op(struct compare *c, const struct op *b, const struct op *n)
{
	const struct op *any = b != NULL ? b : n;
	struct cmp_op *o;

	if (any == NULL)
		return;

	c->ops = xreallocarray(c->ops, c->nops + 1, sizeof(*c->ops));
	o = &c->ops[c->nops++];
	memset(o, 0, sizeof(*o));
	o->type = any->type;
	o->core[BASE] = b != NULL ? b->core : NULL;
	o->core[NEW] = n != NULL ? n->core : NULL;
	o->moved = b != NULL && n != NULL && moved(b->core, n->core);
	c->nmoved += o->moved;
	if (b != NULL && c->run[BASE].per > 0) {
		o->us[BASE] = b->total / c->run[BASE].per;
		o->calls[BASE] = (double)b->count / c->run[BASE].per;
	}
	if (n != NULL && c->run[NEW].per > 0) {
		o->us[NEW] = n->total / c->run[NEW].per;
		o->calls[NEW] = (double)n->count / c->run[NEW].per;
	}
	o->delta = o->us[NEW] - o->us[BASE];
	o->change = b == NULL ? OP_ADDED : n == NULL ? OP_REMOVED :
	    o->delta > 0 ? OP_SLOWER : OP_FASTER;
	o->significant = beyond(c, o->delta, c->op_scale);
	if (b != NULL && n != NULL && !o->significant)
		o->change = OP_SAME;
	c->nops_sig += o->significant;
}

/* The larger change first; among equals, by type and core. */
static int
by_delta(const void *a, const void *b)
{
	const struct cmp_op *x = a, *y = b;
	int r;

	if (fabs(x->delta) != fabs(y->delta))
		return fabs(x->delta) < fabs(y->delta) ? 1 : -1;
	if ((r = strcmp(x->type, y->type)) != 0)
		return r;
	return (x->core[BASE] == NULL) - (y->core[BASE] == NULL);
}

static void
compare_ops(struct compare *c)
{
	const struct optab *tb = c->run[BASE].ops, *tn = c->run[NEW].ops;
	size_t i;

	if (c->ops_why != NULL)
		return;
	for (i = 0; i < tb->cap; i++)
		if (tb->slot[i] != NULL)
			add_op(c, tb->slot[i], strmap_get(&c->run[NEW].types,
			    tb->slot[i]->type));
	for (i = 0; i < tn->cap; i++)
		if (tn->slot[i] != NULL && strmap_get(&c->run[BASE].types,
		    tn->slot[i]->type) == NULL)
			add_op(c, NULL, tn->slot[i]);
	if (c->nops > 0)
		qsort(c->ops, c->nops, sizeof(*c->ops), by_delta);
	c->changed |= c->nops_sig > 0;
}

static void
only_in(struct compare *c, int k, int rank)
{
	c->only[k] = xreallocarray(c->only[k], c->nonly[k] + 1, sizeof(int));
	c->only[k][c->nonly[k]++] = rank;
}

static void
pair(struct compare *c, const struct rank_data *b, const struct rank_data *n)
{
	struct cmp_rank *r;

	if (b->steps_why != NULL || n->steps_why != NULL) {
		c->half_steps++;
		return;
	}
	c->ranks = xreallocarray(c->ranks, c->nranks + 1, sizeof(*c->ranks));
	r = &c->ranks[c->nranks++];
	memset(r, 0, sizeof(*r));
	r->rank = b->rank;
	r->r[BASE] = b;
	r->r[NEW] = n;
	for (int p = 0; p < CP_N; p++)
		r->d[p] = part(&n->mean, p) - part(&b->mean, p);
}

/* Both summaries are in rank order, the ranks unknown last: merge them. */
static void
match_ranks(struct compare *c)
{
	const struct summary *sb = c->run[BASE].s, *sn = c->run[NEW].s;
	size_t i = 0, j = 0;

	while (i < sb->nr || j < sn->nr) {
		int rb = i < sb->nr ? sb->r[i].rank : -1;
		int rn = j < sn->nr ? sn->r[j].rank : -1;

		if (rb < 0 && rn < 0)
			break;
		if (rn < 0 || (rb >= 0 && rb < rn))
			only_in(c, BASE, sb->r[i++].rank);
		else if (rb < 0 || rn < rb)
			only_in(c, NEW, sn->r[j++].rank);
		else
			pair(c, &sb->r[i++], &sn->r[j++]);
	}
}

static int
by_unlike(const void *a, const void *b, void *arg)
{
	const struct cmp_rank *v = arg;
	const struct cmp_rank *x = &v[*(const size_t *)a],
	    *y = &v[*(const size_t *)b];

	if (x->unlike != y->unlike)
		return x->unlike < y->unlike ? 1 : -1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * The ranks whose change is unlike the others': a figure of the step
 * that moved, beyond the margin of the rank's step, away from the median
 * move of all ranks (a slow rank computes longer while the others wait
 * longer for it).  It takes three ranks: the median of two is halfway
 * between them, and each would be unlike the other by the same amount.
 */
static void
compare_ranks(struct compare *c)
{
	double *v;
	size_t i;

	match_ranks(c);
	v = xcalloc(c->nranks + 1, sizeof(*v));
	for (int p = 0; p < CP_N; p++) {
		for (i = 0; i < c->nranks; i++)
			v[i] = c->ranks[i].d[p];
		c->median[p] = median(v, c->nranks);
	}
	free(v);
	c->named = xcalloc(c->nranks + 1, sizeof(*c->named));
	for (i = 0; i < c->nranks; i++) {
		struct cmp_rank *r = &c->ranks[i];

		for (int p = 0; p < CP_N; p++)
			if (fabs(r->d[p] - c->median[p]) > r->unlike) {
				r->unlike = fabs(r->d[p] - c->median[p]);
				r->part = p;
			}
		r->named = c->nranks >= 3 &&
		    beyond(c, r->unlike, r->r[BASE]->mean.step_time);
		if (r->named)
			c->named[c->nnamed++] = i;
	}
	qsort_r(c->named, c->nnamed, sizeof(*c->named), by_unlike, c->ranks);
	c->changed |= c->nnamed > 0;
}

/* Do both runs read the same rank directories (one run given twice)? */
static int
same_data(const struct summary *a, const struct summary *b)
{
	char *x, *y;
	int same;

	if (a->nr == 0 || a->nr != b->nr)
		return 0;
	x = realpath(a->r[0].path, NULL);
	y = realpath(b->r[0].path, NULL);
	same = x != NULL && y != NULL && strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

static void
caveats(struct compare *c)
{
	const struct cmp_run *b = &c->run[BASE], *n = &c->run[NEW];

	if (same_data(b->s, n->s))
		strv_push(&c->caveats, _("base and new are the same rank "
		    "directories: when both runs wrote to one output directory, "
		    "give their session directories (msprof-exec_*)"));
	if (b->level != NULL && n->level != NULL &&
	    strcmp(b->level, n->level) != 0)
		strv_pushf(&c->caveats, _("the runs were profiled at different "
		    "levels (base %s, new %s): what one level does not collect "
		    "is compared where both have it"), b->level, n->level);
	if (b->model_part != NULL && n->model_part != NULL &&
	    strcmp(b->model_part, n->model_part) != 0)
		strv_pushf(&c->caveats, _("the parallel layouts differ (base %s; "
		    "new %s): a rank does not hold the same part of the model "
		    "in both"), b->layout, n->layout);
	for (int k = BASE; k <= NEW; k++)
		if (c->run[k].unknown > 0 && !c->both_steps && !c->both_ops)
			strv_pushf(&c->caveats, _("%zu rank directories of %s "
			    "have no rank (no profiler_info_<rank>.json): they "
			    "count in the means, not rank by rank"),
			    c->run[k].unknown, _(c->run[k].label));
		else if (c->run[k].unknown > 0)
			strv_pushf(&c->caveats, _("%zu rank directories of %s "
			    "have no rank (no profiler_info_<rank>.json): they "
			    "are left out, as the means are over the ranks in "
			    "both runs"), c->run[k].unknown, _(c->run[k].label));
	if (c->both_steps && (c->nonly[BASE] > 0 || c->nonly[NEW] > 0 ||
	    c->half_steps > 0))
		strv_pushf(&c->caveats, _("the runs hold different ranks: the "
		    "means are over the %zu ranks with step data in both; the "
		    "others (below) are left out"), c->run[BASE].nsteps);
	if (c->nranks == 0 && c->half_steps == 0 && b->s->nr > b->unknown &&
	    n->s->nr > n->unknown)
		strv_push(&c->caveats, _("no rank is in both runs: they are "
		    "compared as a whole only"));
}

/* A run that cannot be compared at all: why, naming it. */
static char *
unusable(const struct summary *s, const char *name)
{
	size_t i;

	if (s->nr == 0)
		return xasprintf(_("%s: no rank data: no *_ascend_pt directory "
		    "under it"), name);
	for (i = 0; i < s->nr; i++)
		if (s->r[i].steps_why == NULL || s->r[i].ops != NULL)
			return NULL;
	return xasprintf(_("%s: no rank data: none of its *_ascend_pt "
	    "directories (%zu) has step data (ASCEND_PROFILER_OUTPUT/"
	    "step_trace_time.csv or analysis.db) or operator data "
	    "(kernel_details.csv or op_statistic.csv); was it parsed? "
	    "(msprof-exec analyse %s)"), name, s->nr, name);
}

struct compare *
compare_build(const struct summary *base, const char *base_name,
    const struct summary *after, const char *after_name, char **why)
{
	struct compare *c;

	if ((*why = unusable(base, base_name)) != NULL ||
	    (*why = unusable(after, after_name)) != NULL)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->run[BASE] = (struct cmp_run){ .name = base_name,
	    .label = N_("base"), .s = base };
	c->run[NEW] = (struct cmp_run){ .name = after_name,
	    .label = N_("new"), .s = after };
	find_both(c);
	read_run(c, BASE);
	read_run(c, NEW);
	c->steps_why = missing(c, 0);
	if ((c->ops_why = missing(c, 1)) == NULL)
		op_units(c);	/* before the margin: it may be of them */
	set_margin(c);
	compare_steps(c);
	compare_ops(c);
	if (c->steps_why == NULL)
		compare_ranks(c);
	else
		match_ranks(c);
	caveats(c);
	return c;
}

/* S and ", ITEM" (ITEM alone when S is empty); S freed. */
static char *
join(char *s, char *item)
{
	char *t = xasprintf("%s%s%s", s, *s ? ", " : "", item);

	free(s);
	free(item);
	return t;
}

/*
 * What moved beyond the margin: "exposed communication +1.234 ms, free
 * -0.500 ms", and with ALL the operator types and ranks too.
 */
static char *
named(const struct compare *c, int all)
{
	char *s = xstrdup("");

	for (int p = CP_COMP; p < CP_N; p++)
		if (c->sig[p])
			s = join(s, xasprintf("%s %+.3f ms", _(cmp_part_names[p]),
			    (c->run[NEW].mean[p] - c->run[BASE].mean[p]) / 1000));
	if (all && c->nops_sig > 0)
		s = join(s, xasprintf(_("%zu operator types"), c->nops_sig));
	if (all && c->nnamed > 0)
		s = join(s, xasprintf(_("%zu ranks"), c->nnamed));
	return s;
}

/* S and the ranks unlike the others, if any: "...; ranks 2, 5 unlike". */
static char *
ranks_named(const struct compare *c, char *s)
{
	int *v;
	char *t, *u;

	if (c->nnamed == 0)
		return s;
	v = xcalloc(c->nnamed, sizeof(*v));
	for (size_t i = 0; i < c->nnamed; i++)
		v[i] = c->ranks[c->named[i]].rank;
	t = ranks_text(v, c->nnamed, 4);
	u = xasprintf(c->nnamed == 1 ? _("%s; rank %s changed unlike the "
	    "others") : _("%s; ranks %s changed unlike the others"), s, t);
	free(t);
	free(v);
	free(s);
	return u;
}

static char *
result(const struct compare *c, const char *arrow)
{
	const double *b = c->run[BASE].mean, *n = c->run[NEW].mean;
	double pct = b[CP_STEP] > 0 ? 100 * (n[CP_STEP] - b[CP_STEP]) /
	    b[CP_STEP] : 0;
	char *what, *s;

	if (fabs(pct) < 0.05)
		pct = 0;	/* no "-0.0 %" */

	if (c->steps_why != NULL)
		return c->changed ? xasprintf(_("%zu operator types changed "
		    "beyond the noise margin (the steps are not compared)"),
		    c->nops_sig) : xasprintf(_("no significant change: no "
		    "operator type changed beyond the noise margin of %.1f %% "
		    "(the steps are not compared)"), 100 * c->margin);
	if (!c->changed)
		return xasprintf(_("no significant change: the step is %+.1f %% "
		    "(%.3f %s %.3f ms), within the noise margin of %.1f %%"),
		    pct, b[CP_STEP] / 1000, arrow, n[CP_STEP] / 1000,
		    100 * c->margin);
	if (!c->sig[CP_STEP]) {
		what = named(c, 1);
		s = xasprintf(_("the step did not change beyond the noise "
		    "margin (%+.1f %%), but %s did (below)"), pct, what);
		free(what);
		return s;
	}
	what = named(c, 0);
	s = xasprintf(pct > 0 ? _("the step is %.1f %% longer in %s (%.3f %s "
	    "%.3f ms)%s%s") : _("the step is %.1f %% shorter in %s (%.3f %s "
	    "%.3f ms)%s%s"), fabs(pct), _("new"), b[CP_STEP] / 1000,
	    arrow, n[CP_STEP] / 1000, *what ? ": " : "", what);
	free(what);
	return ranks_named(c, s);
}

/*
 * The sentence of the result, and when the noise was not measured in
 * both runs, that its margin is not: a change of a few per cent within a
 * noise nobody measured is no finding.
 */
char *
cmp_result(const struct compare *c, const char *arrow)
{
	char *s = result(c, arrow), *t;

	if (c->noise == NOISE_MEASURED)
		return s;
	if (c->noise == NOISE_GUESS)
		t = xasprintf(c->steps_why != NULL ? _("%s; no steps to "
		    "measure the noise by: the margin is a guess") : _("%s; "
		    "one step per run: the margin is a guess"), s);
	else
		t = xasprintf(_("%s; the noise measured in %s only"), s,
		    _(c->run[c->run[BASE].nvar > 0 ? BASE : NEW].label));
	free(s);
	return t;
}

char *
cmp_certainty(const struct compare *c)
{
	const struct cmp_run *b = &c->run[BASE], *n = &c->run[NEW];
	const struct cmp_run *m = b->nvar > 0 ? b : n, *u = b->nvar > 0 ? n : b;

	switch (c->noise) {
	case NOISE_MEASURED:
		return xasprintf(_("the noise measured: step-to-step variation "
		    "%.1f %% in %s (%zu ranks with two steps or more), %.1f %% "
		    "in %s (%zu)"), 100 * b->variation, _(b->label), b->nvar,
		    100 * n->variation, _(n->label), n->nvar);
	case NOISE_ONE_RUN:
		return xasprintf(_("the noise measured in %s only (step-to-step "
		    "variation %.1f %%); %s has one step per rank, its noise "
		    "is taken to be no larger"), _(m->label), 100 * m->variation,
		    _(u->label));
	default:
		return xstrdup(c->steps_why != NULL ? _("no steps to measure "
		    "the noise by: the margin is a guess (the floor); collect "
		    "several steps in each run to measure it") : _("one step "
		    "per run: the margin is a guess (the floor, not a measured "
		    "noise); collect several steps in each run (--steps S:E) "
		    "to measure it"));
	}
}

void
compare_caveat(struct compare *c, const char *text)
{
	strv_push(&c->caveats, text);
}

int
compare_changed(const struct compare *c)
{
	return c->changed;
}

void
compare_free(struct compare *c)
{
	if (c == NULL)
		return;
	for (int k = BASE; k <= NEW; k++) {
		free(c->run[k].level);
		free(c->run[k].layout);
		free(c->run[k].model_part);
		optab_free(c->run[k].ops);
		strmap_free(&c->run[k].types, NULL);
		free(c->only[k]);
	}
	free(c->steps_why);
	free(c->ops_why);
	free(c->ops);
	free(c->ranks);
	free(c->named);
	strv_free(&c->caveats);
	cmp_settings_free(c);
	free(c);
}
