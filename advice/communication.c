/*
 * Rules of the communication (communication.json and
 * communication_matrix.json, or the db export's tables): the rank the
 * collectives wait for, by votes and by msprof's ratios, waiting that
 * points at a link, slow links and small packets.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "rules.h"

#define WAIT_RATIO	0.2	/* waits for another (msprof) */
#define SYNC_RATIO	0.2	/* and synchronises */
#define RATIO_MARGIN	0.1	/* below the others' median by this, at least */
#define OUTLIER_SD	3.0	/* or by this many robust standard deviations */
#define MAX_LINKS	4	/* links named in the text */
/*
 * Ranks a rank is compared with, itself among them: the median of two is
 * their mean, and of two ranks neither is the one that stands out.
 */
#define MIN_PEERS	3

static void
check_waited_for(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	struct finding *f = NULL;
	struct rank_wait r, w = { 0, 0, NAN, NAN };
	size_t i, worst = 0;
	char lab[LABEL_MAX + 32];

	for (i = 0; i < s->nr; i++) {
		r = wait_of(s, i);
		if (r.votes == 0 || r.votes < rule->threshold * r.collectives)
			continue;
		if (f == NULL)
			f = finding_new(a, rule);
		finding_who(f, i);
		if (f->nwho == 1 || r.votes * w.collectives >
		    w.votes * r.collectives) {
			worst = i;
			w = r;
		}
	}
	if (f == NULL)
		return;
	if (f->nwho > 1) {
		char one[LABEL_MAX];

		snprintf(lab, sizeof(lab), _("the most, %s; "),
		    rank_label(&s->r[worst], one, sizeof(one)));
	} else
		*lab = '\0';
	finding_text(f, _("the collectives wait for it: last to arrive, an "
	    "outlier, in %zu of its %zu collectives (%sthreshold %.0f %% of "
	    "them)"), w.votes, w.collectives, lab, 100 * rule->threshold);
	finding_figure(f, "last", (double)w.votes);
	finding_figure(f, "collectives", (double)w.collectives);
}

/*
 * The ranks with ratios, of pipeline stage P when there are STAGES (all
 * of them with one): their indexes and wait ratios; how many.
 */
static size_t
ratios(const struct advice *a, int stages, int p, size_t *who, double *v)
{
	const struct summary *s = a->s;
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++)
		if (!isnan(wait_of(s, i).wait_ratio) &&
		    (stages == 1 || layout_stage(&a->lay, s->r[i].rank) == p)) {
			who[n] = i;
			v[n++] = wait_of(s, i).wait_ratio;
		}
	return n;
}

/*
 * How many of the ranks among WHO have a wait ratio above WAIT_RATIO (and
 * a synchronisation ratio above SYNC_RATIO with SYNC); "ranks 0-2" of them
 * in *LIST when not NULL.
 */
static size_t
waiting(const struct summary *s, const size_t *who, size_t n, int sync,
    char **list)
{
	int *r = xcalloc(n + 1, sizeof(*r));
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		struct rank_wait d = wait_of(s, who[i]);

		if (d.wait_ratio > WAIT_RATIO &&
		    (!sync || d.sync_ratio > SYNC_RATIO))
			r[k++] = s->r[who[i]].rank;
	}
	if (list != NULL)
		*list = k > 0 ? ranks_text(r, k, 6) : NULL;
	free(r);
	return k;
}

/*
 * Does the lowest of the N wait ratios V stand out below their median by
 * the larger of RATIO_MARGIN and 3 robust standard deviations (of three
 * ratios or more)?  Its index in *LOW, the median in *MED.
 */
static int
stands_out(const double *v, size_t n, size_t *low, double *med)
{
	double *c = xcalloc(n + 1, sizeof(*c)), sd;
	size_t i;

	*low = 0;
	for (i = 1; i < n; i++)
		if (v[i] < v[*low])
			*low = i;
	memcpy(c, v, n * sizeof(*c));
	*med = median(c, n);
	free(c);
	sd = n >= 3 ? robust_sd(v, n, *med) : 0;
	return *med - v[*low] > fmax(RATIO_MARGIN, OUTLIER_SD * sd);
}

/* The rank the others of its pipeline stage wait for: the rule's figures. */
struct waited {
	size_t	 who;		/* index of the rank */
	double	 ratio, med;	/* its wait ratio, its stage's median */
	char	*list;		/* the ranks of its stage that wait for it */
};

/*
 * msprof's rule: ranks that wait (Wait Time Ratio above 0.2) and
 * synchronise (Synchronization Time Ratio above 0.2) wait for the rank
 * with the lowest wait ratio; named only when that ratio stands out below
 * the median (eight ranks that all wait alike wait for no one of them).
 * The peers are the ranks of one pipeline stage: at a collective of
 * several stages (the gradient norm's, the embedding's) the stages arrive
 * in their order by construction, those that finish their backward pass
 * first waiting for the first stage, which the rule would name on a
 * healthy job.  The stage whose lowest ratio stands out most is named;
 * a stage of fewer than MIN_PEERS ranks is none.
 */
static void
check_wait_ratio(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	size_t *who = xcalloc(s->nr + 1, sizeof(*who)), low;
	double *v = xcalloc(s->nr + 1, sizeof(*v)), med;
	struct waited w = { 0, 0, 0, NULL };
	int p, stages = a->lay.pp > 1 ? a->lay.pp : 1;
	char *list;

	for (p = 0; p < stages; p++) {
		size_t n = ratios(a, stages, p, who, v);

		if (n < MIN_PEERS || !stands_out(v, n, &low, &med) ||
		    (w.list != NULL && med - v[low] <= w.med - w.ratio))
			continue;
		if (waiting(s, who, n, 1, &list) == 0)
			continue;
		free(w.list);
		w = (struct waited){ who[low], v[low], med, list };
	}
	if (w.list != NULL) {
		struct finding *f = finding_new(a, rule);

		finding_who(f, w.who);
		finding_text(f, _("ranks %s wait and synchronise (Wait and "
		    "Synchronization Time Ratios above %.1f) for it: its wait "
		    "ratio %.3f is below the median %.3f of its peers, the ranks "
		    "of its pipeline stage, by more than %.1f, or %.0f x 1.4826 "
		    "x MAD when larger"), w.list, WAIT_RATIO, w.ratio, w.med,
		    RATIO_MARGIN, OUTLIER_SD);
		finding_figure(f, "wait_ratio", w.ratio);
		finding_figure(f, "median_wait_ratio", w.med);
	}
	free(w.list);
	free(who);
	free(v);
}

/* Ranks wait, none of them synchronises: the transfer is slow, not a rank. */
static void
check_wait_link(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	size_t *who = xcalloc(s->nr + 1, sizeof(*who)), n, k, ks;
	double *v = xcalloc(s->nr + 1, sizeof(*v));
	n = ratios(a, 1, 0, who, v);
	k = waiting(s, who, n, 0, NULL);
	ks = waiting(s, who, n, 1, NULL);
	if (n >= 2 && k > 0 && ks == 0) {
		struct finding *f = finding_new(a, rule);

		for (size_t i = 0; i < n; i++)
			if (v[i] > WAIT_RATIO)
				finding_who(f, who[i]);
		finding_text(f, _("they wait (Wait Time Ratio above %.1f) without "
		    "synchronising: the transfers are slow, not a rank"),
		    rule->threshold);
		finding_figure(f, "ranks", (double)k);
	}
	free(who);
	free(v);
}

/* The index of the rank directory of RANK, or -1. */
static long
index_of(const struct summary *s, int rank)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->r[i].rank == rank)
			return (long)i;
	return -1;
}

static void
check_slow_link(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	struct finding *f = NULL;
	struct link *const *links;
	char *list = xstrdup(""), *t;
	size_t i, n = 0, nlinks = links_all(s, &links);
	long at;

	for (i = 0; i < nlinks; i++) {
		const struct link *k = links[i];

		if (!link_slow(s, k))
			continue;
		if (f == NULL)
			f = finding_new(a, rule);
		if ((at = index_of(s, k->src)) >= 0)
			finding_who(f, (size_t)at);
		if (n++ < MAX_LINKS) {
			t = xasprintf(_("%s%s%d -> %d (%s) %.2f GB/s, %.1f %% of "
			    "the %s median %.2f GB/s"), list, *list ? "; " : "",
			    k->src, k->dst, comm_transports[k->tr], link_gb_s(k),
			    100 * link_gb_s(k) / link_median(s, k->tr),
			    comm_transports[k->tr], link_median(s, k->tr));
			free(list);
			list = t;
		}
	}
	if (f != NULL) {
		if (n > MAX_LINKS) {
			t = xasprintf(_("%s (and %zu more)"), list, n - MAX_LINKS);
			free(list);
			list = t;
		}
		finding_text(f, _("slow links, below %.0f %% of their transport's "
		    "median bandwidth: %s"), 100 * rule->threshold, list);
		finding_figure(f, "links", (double)n);
	}
	free(list);
}

/*
 * Two readings of small transfers: msprof's, the share of a transport's
 * volume in packets under its small size (Size Distribution); and
 * msprof-analyze advisor's (packet_checker.py), the share of the
 * operators whose transit over the transport is under it.  Every job has
 * a few small collectives a step that cost nothing (a loss, a gradient
 * norm, an overflow flag), so the operators count here only when theirs
 * is also the threshold's share of the transport's transit time.  Either
 * over the threshold is the finding; the larger share is shown.
 */
static double
small_share(const struct rule *rule, const struct rank_transfers *r, int tr,
    int *ops)
{
	double v = r->vol_mb[tr] > 0 ? r->small_mb[tr] / r->vol_mb[tr] : 0;
	double o = r->xfer_ops[tr] > 0 ? r->small_ops[tr] / r->xfer_ops[tr] : 0;

	if (!(r->xfer_ms[tr] > 0 &&
	    r->small_xfer_ms[tr] >= rule->threshold * r->xfer_ms[tr]))
		o = 0;
	*ops = o > v;
	return fmax(v, o);
}

/* The largest small_share() of R's transports: *TR which, *OPS how. */
static double
small_most(const struct rule *rule, const struct rank_transfers *r, int *tr,
    int *ops)
{
	double most = 0, share;
	int o;

	*tr = *ops = 0;
	for (int t = 0; t < COMM_NTRANS; t++) {
		if (small_mb[t] == 0)
			continue;
		if ((share = small_share(rule, r, t, &o)) > most) {
			most = share;
			*tr = t;
			*ops = o;
		}
	}
	return most;
}

static double
small_rank(const struct rule *rule, const struct summary *s, size_t i)
{
	int tr, ops;

	return small_most(rule, transfers_of(s, i), &tr, &ops);
}

static void
check_small_packets(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	struct finding *f;
	double worst;
	size_t at;
	int wtr, wops;
	char lab[LABEL_MAX];

	if ((f = finding_over(a, rule, small_rank, 1, &worst, &at)) == NULL)
		return;
	small_most(rule, transfers_of(s, at), &wtr, &wops);
	finding_text(f, _("more than %.0f %% of their RDMA transfers under "
	    "%.0f MB, or of their SDMA transfers under %.0f MB, by volume or "
	    "by operator (the most: %s, %.1f %% of its %s %s)"),
	    100 * rule->threshold, small_mb[comm_transport("RDMA")],
	    small_mb[comm_transport("SDMA")],
	    rank_label(&s->r[at], lab, sizeof(lab)),
	    100 * worst, comm_transports[wtr], wops ? _("operators") :
	    _("volume"));
	finding_figure(f, "share_max", worst);
}

/*
 * msprof-analyze advisor's byte alignment (byte_alignment_checker.py):
 * an SDMA transfer over 512 bytes whose size is no multiple of 512 is
 * slow.  Its checker reads each HCCL task; the Size Distribution has the
 * same transfers by size, with their time.  It rates the unaligned part
 * of the time low below 20 %: the finding starts there.
 */
static double
unaligned_share(const struct rule *rule, const struct summary *s, size_t i)
{
	const struct rank_transfers *r = transfers_of(s, i);

	return r->align_ms > 0 ? r->unaligned_ms / r->align_ms : NAN;
}

static void
check_alignment(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	struct finding *f;
	double worst;
	size_t at;
	char lab[LABEL_MAX];

	if ((f = finding_over(a, rule, unaligned_share, 0, &worst,
	    &at)) == NULL)
		return;
	finding_text(f, _("transfers whose size is no multiple of %d bytes "
	    "take %.0f %% or more of their HCCS, PCIE and SDMA transfer time "
	    "(the most: %s, %.1f %%)"), ALIGN_BYTES, 100 * rule->threshold,
	    rank_label(&s->r[at], lab, sizeof(lab)), 100 * worst);
	finding_figure(f, "share_max", worst);
}

/*
 * Exposed communication by parallel group (wait.c's split of
 * communication.json by parallel_group_info): the part of a group's time
 * not spent waiting for another rank, which overlap can hide, is the
 * group's own settings' to address.  The rule's id is exposed-GROUP.
 */
static int
rule_group(const struct rule *rule)
{
	const char *g = rule->id + strlen("exposed-");

	for (int k = 0; k < CG_OTHER; k++)
		if (strcmp(g, comm_group_names[k]) == 0)
			return k;
	return CG_OTHER;
}

/* Rank I's exposed time of RULE's group beyond waiting: a share of its step. */
static double
group_share(const struct rule *rule, const struct summary *s, size_t i)
{
	struct comm_split c = comm_split_of(s, i, rule_group(rule), CK_N);
	double step = s->r[i].steps_why == NULL ? s->r[i].mean.step_time : 0;

	return step > 0 && c.exposed > 0 ? (c.exposed - c.wait) / (step / 1000) :
	    NAN;
}

/* "reduce-scatter 44.912 ms, all-gather 20.533 ms" of group G on rank I. */
static char *
kinds_text(const struct summary *s, size_t i, int g)
{
	char *t = xstrdup(""), *u;

	for (int k = 0; k < CK_N; k++) {
		struct comm_split c = comm_split_of(s, i, g, k);

		if (!(c.exposed - c.wait >= 0.0005))
			continue;
		u = xasprintf("%s%s%s %.3f ms", t, *t ? ", " : "",
		    comm_kind_names[k], c.exposed - c.wait);
		free(t);
		t = u;
	}
	return t;
}

static void
check_exposed_group(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	struct finding *f;
	struct comm_split c;
	double worst;
	size_t at;
	int g = rule_group(rule);
	char lab[LABEL_MAX], *kinds;

	if (!comm_groups_named(s) || (f = finding_over(a, rule, group_share, 1,
	    &worst, &at)) == NULL)
		return;
	c = comm_split_of(s, at, g, CK_N);
	kinds = kinds_text(s, at, g);
	finding_text(f, _("%s communication is exposed, not waiting for another "
	    "rank, %.1f %% of the step (the most: %s, %.3f ms a step: %s; of it "
	    "%.3f ms moving data; threshold %.0f %%)"), comm_group_names[g],
	    100 * worst, rank_label(&s->r[at], lab, sizeof(lab)),
	    c.exposed - c.wait, kinds, c.xfer, 100 * rule->threshold);
	finding_figure(f, "share_max", worst);
	finding_figure(f, "exposed_ms", c.exposed - c.wait);
	finding_figure(f, "moving_ms", c.xfer);
	free(kinds);
}

/*
 * The wait for the ranks of stage P, the mean over the ranks of the other
 * stages with pipeline or data-parallel communication; *N how many.
 */
static double
stage_waited(const struct advice *a, int p, size_t *n)
{
	const struct summary *s = a->s;
	double sum = 0;
	size_t i;

	*n = 0;
	for (i = 0; i < s->nr; i++)
		if (s->r[i].rank >= 0 &&
		    layout_stage(&a->lay, s->r[i].rank) != p &&
		    comm_split_of(s, i, CG_PP, CK_N).exposed +
		    comm_split_of(s, i, CG_DP, CK_N).exposed > 0) {
			sum += comm_wait_for_stage(s, i, p);
			(*n)++;
		}
	return *n > 0 ? sum / *n : 0;
}

/*
 * Is stage T slower than the others: its ranks' Computing + Free, on
 * average, above the other stages' ranks' by RULE's share of the mean
 * step (as slow-stage measures it)?
 */
static int
stage_slower(const struct advice *a, const struct rule *rule, int t)
{
	const struct summary *s = a->s;
	double in = 0, out = 0, step = 0;
	size_t i, nin = 0, nout = 0;

	for (i = 0; i < s->nr; i++) {
		const struct step_row *m = &s->r[i].mean;

		if (s->r[i].steps_why != NULL || s->r[i].rank < 0)
			continue;
		if (layout_stage(&a->lay, s->r[i].rank) == t) {
			in += m->comp + m->free;
			nin++;
		} else {
			out += m->comp + m->free;
			nout++;
		}
		step += m->step_time;
	}
	return nin > 0 && nout > 0 && in / nin - out / nout >
	    rule->threshold * step / (nin + nout);
}

/*
 * Waiting for a slower pipeline stage: the ranks of the other stages wait
 * for it in their sends and receives (and at the collectives the stages
 * share), which no overlap hides; the remedy is that stage's work.  The
 * stage waited for most, on average over the other stages' ranks, is
 * named (the fill and drain of the pipeline make every stage wait for its
 * neighbours some), and those of its waiters above the threshold.
 */
static void
check_waiting_stage(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	int stages = a->lay.pp < COMM_STAGES ? a->lay.pp : COMM_STAGES, p, t = 0;
	double best = 0, other = 0, v, worst = 0, step;
	struct finding *f = NULL;
	size_t i, n, at = 0;
	char lab[LABEL_MAX];

	if (!a->lay.known || a->lay.pp <= 1 || !comm_groups_named(s))
		return;
	for (p = 0; p < stages; p++)
		if ((v = stage_waited(a, p, &n)) > best) {
			other = best;
			best = v;
			t = p;
		} else if (v > other)
			other = v;
	/* a slow rank makes its pipeline peers wait too: the stage must be */
	if (!stage_slower(a, rule, t))
		return;
	for (i = 0; i < s->nr && best > 0; i++) {
		step = s->r[i].steps_why == NULL ? s->r[i].mean.step_time / 1000 : 0;
		if (!(step > 0) || layout_stage(&a->lay, s->r[i].rank) == t ||
		    !((v = comm_wait_for_stage(s, i, t) / step) > rule->threshold))
			continue;
		if (f == NULL)
			f = finding_new(a, rule);
		finding_who(f, i);
		if (v > worst) {
			worst = v;
			at = i;
		}
	}
	if (f == NULL)
		return;
	step = s->r[at].mean.step_time / 1000;
	finding_text(f, _("their pipeline communication (sends, receives, the "
	    "embedding's all-reduce) waits for stage %d, which is slower: "
	    "%.1f %% of the step (the most: %s, %.3f ms a step; the other "
	    "stages' ranks wait %.3f ms a step for it on average, %.3f ms for "
	    "the stage waited for next; threshold %.0f %%): not an overlap "
	    "to turn on, but stage %d's work to lighten (see slow-stage)"), t,
	    100 * worst, rank_label(&s->r[at], lab, sizeof(lab)),
	    worst * step, best, other, 100 * rule->threshold, t);
	finding_figure(f, "stage", t);
	finding_figure(f, "share_max", worst);
	finding_figure(f, "waiting_ms", worst * step);
}

static const struct setting *const dp_settings[] = {
	&set_overlap_grad_reduce, &set_overlap_param_gather,
	&set_distributed_optimizer, &set_fsdp_forward_prefetch,
	&set_fsdp_backward_prefetch, &set_torch_bucket_cap,
	&set_torch_bucket_view, &set_torch_static_graph, &set_ds_overlap,
	&set_ds_reduce_bucket, &set_hccl_buffsize, NULL,
};
static const struct setting *const tp_settings[] = {
	&set_sequence_parallel, &set_ascend_mc2, NULL,
};
static const struct setting *const pp_settings[] = {
	&set_virtual_pipeline, &set_global_batch, NULL,
};
static const struct setting *const cp_settings[] = {
	&set_cp_send_recv_overlap, NULL,
};
static const struct setting *const ep_settings[] = {
	&set_moe_alltoall_overlap, NULL,
};
static const struct setting *const waiting_settings[] = {
	&set_num_layer_list, &set_first_stage_layers, &set_last_stage_layers,
	&set_virtual_pipeline, NULL,
};

static const struct setting *const packet_settings[] = {
	&set_ddp_bucket_size, &set_global_batch, &set_torch_bucket_cap,
	&set_ds_reduce_bucket, &set_ds_allgather_bucket, NULL,
};

static const struct rule rules[] = {
	{ "waited-for", "collectives in which the rank arrived last, an "
	    "outlier (Dixon's Q at 99.5 %; 3 standard deviations over 100 "
	    "ranks)", 0.10, "10 % of its collectives",
	    N_("check this rank's device and host (npu-smi info: health, "
	    "temperature, AI Core frequency; other load on the host) and its "
	    "share of the work"), NULL, check_waited_for },
	{ "wait-ratio", "Wait Time Ratio and Synchronization Time Ratio of "
	    "each rank, against the ranks of its pipeline stage", WAIT_RATIO,
	    "ratios above 0.2; the lowest wait ratio below its stage's median "
	    "by 0.1 or 3 x 1.4826 x MAD",
	    N_("check the named rank's device and host, as for waited-for"),
	    NULL, check_wait_ratio },
	{ "wait-link", "Wait Time Ratio without Synchronization Time "
	    "Ratio", WAIT_RATIO, "wait ratio above 0.2, no sync ratio "
	    "above 0.2",
	    N_("check the links (see slow-link): the HCCS or RoCE port and its "
	    "switch; keep tensor parallel inside a node"), NULL,
	    check_wait_link },
	{ "slow-link", "bandwidth of each link against the median of its "
	    "transport", SLOW_LINK, "20 % of the median",
	    N_("check the link's hardware: the HCCS or RoCE port and its "
	    "switch, and whether tensor parallel crosses nodes"), NULL,
	    check_slow_link },
	{ "small-packets", "Size Distribution of each rank's RDMA and SDMA "
	    "volume (msprof); the Transit Size of each operator's RDMA and "
	    "SDMA transfer (msprof-analyze advisor, packet.yaml)", 0.20,
	    "20 % of the volume, or of the operators and of their transit "
	    "time; RDMA 1 MB, SDMA 16 MB",
	    N_("send fewer, larger transfers: larger gradient buckets, more "
	    "micro-batches per step (gradient accumulation)"), packet_settings,
	    check_small_packets },
	{ "byte-alignment", "Size Distribution of each rank's HCCS, PCIE "
	    "and SDMA transfers over 512 bytes: the time of those whose size "
	    "is no multiple of 512 bytes (msprof-analyze advisor, "
	    "byte_alignment.yaml)", 0.20,
	    "20 % of the transfer time (the advisor's low-priority bound)",
	    N_("make the sizes communicated multiples of 512 bytes: pad the "
	    "tensors (or the gradient buckets) to it"), NULL,
	    check_alignment },
	{ "waiting-for-stage", "time each rank waits in its pipeline "
	    "communication for the ranks of another stage (its elapse above "
	    "the shortest of the operator's ranks), when that stage computes "
	    "more", 0.05, "5 % of the step",
	    N_("give the stage waited for fewer layers, or the others more"),
	    waiting_settings, check_waiting_stage },
	{ "exposed-dp", "exposed data-parallel communication (gradient "
	    "reduce, parameter gather) not waiting for another rank, each "
	    "rank", 0.05, "5 % of the step", NULL, dp_settings,
	    check_exposed_group },
	{ "exposed-tp", "exposed tensor-parallel communication not waiting "
	    "for another rank, each rank", 0.05, "5 % of the step", NULL,
	    tp_settings, check_exposed_group },
	{ "exposed-pp", "exposed pipeline sends and receives not waiting for "
	    "another stage, each rank", 0.05, "5 % of the step", NULL,
	    pp_settings, check_exposed_group },
	{ "exposed-cp", "exposed context-parallel communication not waiting "
	    "for another rank, each rank", 0.05, "5 % of the step", NULL,
	    cp_settings, check_exposed_group },
	{ "exposed-ep", "exposed expert-parallel (MoE all-to-all) "
	    "communication not waiting for another rank, each rank", 0.05,
	    "5 % of the step", NULL, ep_settings, check_exposed_group },
};

const struct family family_communication = {
	"communication", rules, sizeof(rules) / sizeof(rules[0]),
};
