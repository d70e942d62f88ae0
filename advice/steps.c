/*
 * Rules of the step breakdown (step_trace_time.csv, per rank the mean of
 * its steps; step = Computing + Communication(Not Overlapped) + Free):
 * exposed communication, the pipeline bubble, host-bound ranks, a slow
 * rank among its peers and pipeline stages out of balance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

#define SLOW_SD		3.0	/* robust standard deviations of a slow rank */
/*
 * Ranks a rank is compared with, itself among them: the median of two is
 * their mean, and of two ranks neither is the one that stands out.
 */
#define MIN_PEERS	3

/* A part of a rank's step, as a share of it. */
typedef double (*part_fn)(const struct step_row *);

static double
exposed(const struct step_row *m)
{
	/* torch_npu's Bubble is the receive time within it */
	return fmax(m->comm_exposed - m->bubble, 0) / m->step_time;
}

static double
bubble(const struct step_row *m)
{
	return m->bubble / m->step_time;
}

static double
free_part(const struct step_row *m)
{
	return m->free / m->step_time;
}

/* The ranks with steps (*WHO, indexes) and PART of each (*V); how many. */
static size_t
shares(const struct summary *s, part_fn part, size_t **who, double **v)
{
	size_t i, n = 0;

	*who = xcalloc(s->nr + 1, sizeof(**who));
	*v = xcalloc(s->nr + 1, sizeof(**v));
	for (i = 0; i < s->nr; i++)
		if (s->r[i].steps_why == NULL && s->r[i].mean.step_time > 0) {
			(*who)[n] = i;
			(*v)[n++] = part(&s->r[i].mean);
		}
	return n;
}

/* The median of V (left unsorted). */
static double
median_of(const double *v, size_t n)
{
	double *c = xcalloc(n + 1, sizeof(*c)), x;

	memcpy(c, v, n * sizeof(*c));
	x = median(c, n);
	free(c);
	return x;
}

/* Name the ranks whose share is above the threshold. */
static void
name_above(struct finding *f, const size_t *who, const double *v, size_t n,
    double threshold)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] > threshold)
			finding_who(f, who[i]);
}

/*
 * The exposed communication of the rank with the most, by parallel group
 * (wait.c): each group's time and its share waiting for another rank.
 * The settings are then each group's own (communication.c's exposed-dp,
 * exposed-tp, ... and waiting-for-stage), not all of them here.
 */
static void
by_group(struct advice *a, struct finding *f, const size_t *who,
    const double *v, size_t n)
{
	static const struct setting *const none[] = { NULL };
	const struct summary *s = a->s;
	size_t i, at = who[0];
	char *t = xstrdup(""), *u, lab[LABEL_MAX];
	double most = v[0];

	for (i = 1; i < n; i++)
		if (v[i] > most) {
			most = v[i];
			at = who[i];
		}
	for (int g = 0; g < CG_N; g++) {
		struct comm_split c = comm_split_of(s, at, g, CK_N);

		if (!(c.exposed >= 0.0005))
			continue;
		u = xasprintf(_("%s%s%s %.3f ms (%.0f %% waiting for other "
		    "ranks)"), t, *t ? ", " : "", comm_group_names[g], c.exposed,
		    100 * c.wait / c.exposed);
		free(t);
		t = u;
	}
	finding_note(f, _("by parallel group, on %s (the most exposed), ms a "
	    "step: %s; each group's settings are with its own finding "
	    "(exposed-dp, exposed-tp, exposed-pp, exposed-cp, exposed-ep), "
	    "waiting for a stage with waiting-for-stage"),
	    rank_label(&s->r[at], lab, sizeof(lab)), t);
	finding_settings(f, none);
	free(t);
}

/*
 * Waiting for a slow peer shows as exposed communication too, on every
 * rank but the slow one, and through the collectives that span the job
 * on nearly all of them (one slow rank of 64 leaves a single rank that
 * does not wait): the rank that waits least decides, so that what fires
 * is the transfer overlap could hide, which every rank has.
 */
static void
check_exposed(const struct rule *rule, struct advice *a)
{
	size_t *who, n, i;
	double *v, least = INFINITY;

	n = shares(a->s, exposed, &who, &v);
	for (i = 0; i < n; i++)
		least = fmin(least, v[i]);
	if (n > 0 && least > rule->threshold) {
		double med = median_of(v, n);
		struct finding *f = finding_new(a, rule);

		name_above(f, who, v, n, rule->threshold);
		finding_text(f, _("exposed communication (not overlapped, "
		    "receives left out) is %.1f %% of the step (median; %.1f %% "
		    "on the rank that waits least; threshold %.0f %%)"),
		    100 * med, 100 * least, 100 * rule->threshold);
		finding_figure(f, "share_median", med);
		finding_figure(f, "share_least", least);
		if (comm_groups_named(a->s))
			by_group(a, f, who, v, n);
	}
	free(who);
	free(v);
}

/* The micro-batches per step the launch's flags give, or 0. */
static long
micro_batches(const struct advice *a)
{
	char *g = launch_flag(a, "--global-batch-size");
	char *m = launch_flag(a, "--micro-batch-size");
	long gbs = g ? atol(g) : 0, mbs = m ? atol(m) : 0;

	free(g);
	free(m);
	return gbs > 0 && mbs > 0 && a->lay.dp > 0 ? gbs / (mbs * a->lay.dp) : 0;
}

static void
check_bubble(const struct rule *rule, struct advice *a)
{
	size_t *who, n;
	double *v, med;

	n = shares(a->s, bubble, &who, &v);
	med = n > 0 ? median_of(v, n) : NAN;
	if (n > 0 && (!a->lay.known || a->lay.pp > 1) && med > rule->threshold) {
		struct finding *f = finding_new(a, rule);
		long m = micro_batches(a);

		name_above(f, who, v, n, rule->threshold);
		finding_text(f, _("the pipeline bubble (Bubble: waiting to "
		    "receive from the next or previous stage) is %.1f %% of "
		    "the step (median; threshold %.0f %%)"), 100 * med,
		    100 * rule->threshold);
		finding_figure(f, "share_median", med);
		if (m > 0 && a->lay.pp > 1) {
			finding_note(f, _("%ld micro-batches a step with pp %d: "
			    "1F1B idles (pp - 1) / (micro-batches + pp - 1) = "
			    "%.0f %% of the time"), m, a->lay.pp,
			    100.0 * (a->lay.pp - 1) / (double)(m + a->lay.pp - 1));
			finding_figure(f, "micro_batches", (double)m);
		}
	}
	free(who);
	free(v);
}

/* ", rank 3" after a figure, when the finding names more than one rank. */
static const char *
whose(const struct summary *s, const struct finding *f, size_t i, char *buf,
    size_t len)
{
	char lab[LABEL_MAX];

	if (f->nwho <= 1)
		return "";
	snprintf(buf, len, ", %s", rank_label(&s->r[i], lab, sizeof(lab)));
	return buf;
}

static void
check_host_bound(const struct rule *rule, struct advice *a)
{
	size_t *who, n, i, worst = 0, named = 0;
	double *v, *mine;

	n = shares(a->s, free_part, &who, &v);
	mine = xcalloc(n + 1, sizeof(*mine));
	for (i = 0; i < n; i++)
		if (v[i] > rule->threshold) {
			if (named == 0 || v[i] > v[worst])
				worst = i;
			mine[named++] = v[i];
		}
	if (named > 0) {
		struct finding *f = finding_new(a, rule);
		char lab[LABEL_MAX + 2], *lb;

		name_above(f, who, v, n, rule->threshold);
		finding_text(f, _("Free is %.1f %% of the step (median; the most "
		    "%.1f %%%s; threshold %.0f %%): the device waits for the "
		    "host (operator dispatch, data loading, Python)"),
		    100 * median(mine, named), 100 * v[worst],
		    whose(a->s, f, who[worst], lab, sizeof(lab)),
		    100 * rule->threshold);
		finding_figure(f, "share_median", median(mine, named));
		finding_figure(f, "share_max", v[worst]);
		lb = launch_env(a, "ASCEND_LAUNCH_BLOCKING");
		if (lb != NULL && strcmp(lb, "1") == 0)
			finding_note(f, _("ASCEND_LAUNCH_BLOCKING=1 closes the "
			    "dispatch queue: TASK_QUEUE_ENABLE has no effect "
			    "until it is unset (see launch-blocking)"));
		free(lb);
	}
	free(mine);
	free(who);
	free(v);
}

/* A rank's computing and its free time per step, µs. */
static double
col_comp(const struct rank_data *r)
{
	return r->mean.comp;
}

static double
col_free(const struct rank_data *r)
{
	return r->mean.free;
}

/*
 * In each group of peers (the ranks of one pipeline stage: the stages do
 * different work), the ranks above the group's median of COL by more
 * than the margin: the larger of the rule's share of the median step and
 * SLOW_SD robust standard deviations.  A group of fewer than MIN_PEERS
 * ranks names none.  Named in F (made when needed); the largest excess in
 * *WORST (index) and *EXCESS.
 */
static void
slow_in_groups(struct advice *a, const struct rule *rule,
    double (*col)(const struct rank_data *), struct finding **f,
    unsigned char *named, size_t *worst, double *excess)
{
	const struct summary *s = a->s;
	int stages = a->lay.pp > 1 ? a->lay.pp : 1, p;
	double *v = xcalloc(s->nr + 1, sizeof(*v));
	double *st = xcalloc(s->nr + 1, sizeof(*st)), med, sd, margin;
	size_t *who = xcalloc(s->nr + 1, sizeof(*who)), n, i;

	for (p = 0; p < stages; p++) {
		for (n = 0, i = 0; i < s->nr; i++)
			if (s->r[i].steps_why == NULL &&
			    (stages == 1 || layout_stage(&a->lay, s->r[i].rank) == p)) {
				who[n] = i;
				st[n] = s->r[i].mean.step_time;
				v[n++] = col(&s->r[i]);
			}
		if (n < MIN_PEERS)
			continue;
		med = median_of(v, n);
		sd = robust_sd(v, n, med);
		margin = fmax(rule->threshold * median(st, n), SLOW_SD * sd);
		for (i = 0; i < n; i++) {
			if (!(v[i] - med > margin))
				continue;
			if (*f == NULL)
				*f = finding_new(a, rule);
			if (!named[who[i]]++)
				finding_who(*f, who[i]);
			if (v[i] - med > *excess) {
				*excess = v[i] - med;
				*worst = who[i];
			}
		}
	}
	free(v);
	free(st);
	free(who);
}

/*
 * Two peers have no median that tells one from the other, yet the one
 * that computes more is slow when the other waits for it: its exposed
 * communication is larger by half the difference at least (the step
 * table), or in most of their collectives of two it arrived last (the
 * shorter elapse, wait.c).  Either says so and neither says the
 * opposite, or the pair is left alone.
 */
struct pair_slow {
	size_t			 slow, other;
	double			 excess, waited;	/* µs a step */
	struct pair_wait	 pw;			/* a: the slow one */
	int			 found;
};

/* 1: the evidence agrees that SLOW is waited for; 0: not (or it differs). */
static int
pair_agrees(const struct summary *s, struct pair_slow *p)
{
	int tl, wt;

	p->waited = s->r[p->other].mean.comm_exposed -
	    s->r[p->slow].mean.comm_exposed;
	p->pw = wait_pair(s, p->slow, p->other);
	tl = p->waited >= p->excess / 2 ? 1 :
	    p->waited <= -p->excess / 2 ? -1 : 0;
	wt = p->pw.n == 0 ? 0 : 2 * p->pw.a_last > p->pw.n ? 1 :
	    2 * p->pw.b_last > p->pw.n ? -1 : 0;
	return tl >= 0 && wt >= 0 && tl + wt > 0;
}

/* The pipeline stages (the job with one) of two ranks: their slow one. */
static void
slow_pairs(struct advice *a, const struct rule *rule, struct finding **f,
    unsigned char *named, struct pair_slow *best)
{
	const struct summary *s = a->s;
	int stages = a->lay.pp > 1 ? a->lay.pp : 1, p;
	size_t who[2], n, i;
	struct pair_slow c;

	for (p = 0; p < stages; p++) {
		for (n = 0, i = 0; i < s->nr; i++)
			if (s->r[i].steps_why == NULL &&
			    (stages == 1 || layout_stage(&a->lay, s->r[i].rank) == p)) {
				if (n < 2)
					who[n] = i;
				n++;
			}
		if (n != 2)
			continue;
		c.slow = who[s->r[who[0]].mean.comp < s->r[who[1]].mean.comp];
		c.other = who[0] == c.slow ? who[1] : who[0];
		c.excess = s->r[c.slow].mean.comp - s->r[c.other].mean.comp;
		if (!(c.excess > rule->threshold * (s->r[c.slow].mean.step_time +
		    s->r[c.other].mean.step_time) / 2) || !pair_agrees(s, &c))
			continue;
		if (*f == NULL)
			*f = finding_new(a, rule);
		if (!named[c.slow]++)
			finding_who(*f, c.slow);
		if (!best->found || c.excess > best->excess) {
			*best = c;
			best->found = 1;
		}
	}
}

/* The text of a slow rank found in a pair, B. */
static void
pair_text(struct advice *a, const struct rule *rule, struct finding *f,
    const struct pair_slow *b)
{
	const struct summary *s = a->s;
	char lab[LABEL_MAX], why[160] = "";

	if (b->pw.a_last > 0)
		snprintf(why, sizeof(why), _("; it arrived last in %zu of "
		    "their %zu collectives"), b->pw.a_last, b->pw.n);
	finding_text(f, _("Computing is %.3f ms a step above that of its one "
	    "peer, %s (%.1f %% of the step; margin %.0f %% of the step), and "
	    "the peer waits for it: %.3f ms more exposed communication a "
	    "step%s"), b->excess / 1000,
	    rank_label(&s->r[b->other], lab, sizeof(lab)),
	    100 * b->excess / s->r[b->slow].mean.step_time,
	    100 * rule->threshold, b->waited / 1000, why);
}

static void
check_slow_rank(const struct rule *rule, struct advice *a)
{
	struct finding *f = NULL;
	unsigned char *named = xcalloc(a->s->nr + 1, 1);
	size_t wc = 0, wf = 0, nc;
	double ec = 0, ef = 0;
	char lab[LABEL_MAX + 2];
	struct pair_slow pair = { .found = 0 };

	slow_in_groups(a, rule, col_comp, &f, named, &wc, &ec);
	nc = f != NULL ? f->nwho : 0;
	slow_pairs(a, rule, &f, named, &pair);
	slow_in_groups(a, rule, col_free, &f, named, &wf, &ef);
	free(named);
	if (f == NULL)
		return;
	if (nc > 0)
		finding_text(f, _("Computing is %.3f ms a step above the median "
		    "of its peers, the ranks of its pipeline stage (%.1f %% of "
		    "the step%s; margin %.0f %% of the step, or %.0f x 1.4826 x "
		    "MAD when larger)"), ec / 1000,
		    100 * ec / a->s->r[wc].mean.step_time,
		    whose(a->s, f, wc, lab, sizeof(lab)), 100 * rule->threshold,
		    SLOW_SD);
	else if (pair.found) {
		pair_text(a, rule, f, &pair);
		ec = pair.excess;
	} else
		finding_text(f, _("Free is %.3f ms a step above the median of "
		    "its peers, the ranks of its pipeline stage (%.1f %% of the "
		    "step%s; margin %.0f %% of the step, or %.0f x 1.4826 x MAD "
		    "when larger): its host is slow"), ef / 1000,
		    100 * ef / a->s->r[wf].mean.step_time,
		    whose(a->s, f, wf, lab, sizeof(lab)), 100 * rule->threshold,
		    SLOW_SD);
	finding_figure(f, "computing_excess_us", ec);
	finding_figure(f, "free_excess_us", ef);
}

/* Computing + Free of each pipeline stage, averaged over its ranks. */
static void
check_slow_stage(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	double *sum, lo = INFINITY, hi = -INFINITY, step = 0;
	size_t *n, i, ranks = 0;
	int p, worst = 0, best = 0;

	if (!a->lay.known || a->lay.pp <= 1)
		return;
	sum = xcalloc((size_t)a->lay.pp, sizeof(*sum));
	n = xcalloc((size_t)a->lay.pp, sizeof(*n));
	for (i = 0; i < s->nr; i++)
		if (s->r[i].steps_why == NULL && s->r[i].rank >= 0) {
			p = layout_stage(&a->lay, s->r[i].rank);
			sum[p] += s->r[i].mean.comp + s->r[i].mean.free;
			step += s->r[i].mean.step_time;
			n[p]++;
			ranks++;
		}
	for (p = 0; p < a->lay.pp; p++) {
		if (n[p] == 0)
			continue;
		sum[p] /= n[p];
		if (sum[p] > hi) {
			hi = sum[p];
			worst = p;
		}
		if (sum[p] < lo) {
			lo = sum[p];
			best = p;
		}
	}
	step = ranks > 0 ? step / ranks : 0;
	if (ranks > 0 && hi - lo > rule->threshold * step) {
		struct finding *f = finding_new(a, rule);

		for (i = 0; i < s->nr; i++)
			if (s->r[i].steps_why == NULL && s->r[i].rank >= 0 &&
			    layout_stage(&a->lay, s->r[i].rank) == worst)
				finding_who(f, i);
		finding_text(f, _("pipeline stage %d computes %.3f ms a step "
		    "more than stage %d (Computing + Free, %.1f %% of the mean "
		    "step; threshold %.0f %%): move layers off it"), worst,
		    (hi - lo) / 1000, best, 100 * (hi - lo) / step,
		    100 * rule->threshold);
		finding_figure(f, "stage", worst);
		finding_figure(f, "excess_us", hi - lo);
	}
	free(sum);
	free(n);
}

static const struct setting *const exposed_settings[] = {
	&set_overlap_grad_reduce, &set_overlap_param_gather,
	&set_distributed_optimizer, &set_moe_alltoall_overlap,
	&set_cp_send_recv_overlap,
	&set_fsdp_forward_prefetch, &set_fsdp_backward_prefetch,
	&set_torch_bucket_cap, &set_torch_bucket_view, &set_torch_static_graph,
	&set_ds_overlap, &set_ds_reduce_bucket, &set_hccl_buffsize, NULL,
};
static const struct setting *const bubble_settings[] = {
	&set_virtual_pipeline, &set_global_batch, &set_micro_batch, NULL,
};
static const struct setting *const host_settings[] = {
	&set_task_queue, &set_cpu_affinity, &set_num_workers,
	&set_mm_num_workers, NULL,
};
static const struct setting *const stage_settings[] = {
	&set_num_layer_list, &set_first_stage_layers, &set_last_stage_layers,
	NULL,
};

static const struct rule rules[] = {
	{ "exposed-communication",
	    "Communication(Not Overlapped) - Bubble, the rank with the "
	    "least", 0.10, "10 % of the step",
	    NULL, exposed_settings, check_exposed },
	{ "pipeline-bubble", "Bubble, the median of the ranks (pp > 1)",
	    0.10, "10 % of the step", NULL, bubble_settings,
	    check_bubble },
	{ "host-bound", "Free, each rank", 0.10, "10 % of the step",
	    NULL, host_settings, check_host_bound },
	{ "slow-rank", "Computing and Free against the median of the "
	    "rank's pipeline stage; of two ranks, Computing against the "
	    "other's, when it waits for the rank (exposed communication, "
	    "arrivals at their collectives)", 0.05,
	    "5 % of the step, or 3 x 1.4826 x MAD when larger",
	    N_("check these ranks' devices and hosts (npu-smi info: health, "
	    "temperature, AI Core frequency; other load on the host) and "
	    "their share of the work (data, MoE routing)"), NULL,
	    check_slow_rank },
	{ "slow-stage", "Computing + Free of each pipeline stage", 0.05,
	    "5 % of the mean step", NULL, stage_settings,
	    check_slow_stage },
};

const struct family family_steps = {
	"steps", rules, sizeof(rules) / sizeof(rules[0]),
};
