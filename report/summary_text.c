/*
 * The summary as text: the files left out, then each kind under its
 * title, or why it was not made.  Each kind's writer is here, reading the
 * finished summary's model (summary/steps.h, ops.h and the others), with
 * its row in the table of writers: a new kind is its writer and its row.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "summary/cluster.h"
#include "summary/idle.h"
#include "summary/links.h"
#include "summary/memory.h"
#include "summary/mfu.h"
#include "summary/model.h"
#include "summary/ops.h"
#include "summary/steps.h"
#include "summary/wait.h"
#include "summary/writer.h"
#include "summary/summary.h"
#include "summary_writers.h"

#define MAX_LISTED	5	/* ranks without operators named */
#define LISTED		8	/* files left out named one by one, or groups */

/* --- the step breakdown (summary/steps.h) --- */

static double
share(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : NAN;
}

static void
print_pct(FILE *fp, double v)
{
	if (isnan(v))
		fprintf(fp, " %6s", "-");
	else
		fprintf(fp, " %6.1f", v);
}

/* A step's time in ms and the shares of its parts, the tables' columns. */
static void
print_step_row(FILE *fp, const struct step_row *m)
{
	fprintf(fp, " %10.3f", m->step_time / 1000);
	print_pct(fp, share(m->comp, m->step_time));
	print_pct(fp, share(m->comm_exposed, m->step_time));
	print_pct(fp, share(m->free, m->step_time));
	print_pct(fp, share(m->bubble, m->step_time));
	print_pct(fp, share(m->overlapped, m->comm));
}

/*
 * The lowest and highest step and their iterations, "   4-6       5-7  ",
 * 19 columns whatever is known; "-" without any step number.
 */
static void
print_steps(const struct summary *s, FILE *fp, const struct rank_data *r)
{
	long a = -1, b = -1;
	size_t i;

	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i].step >= 0) {
			if (a < 0 || r->steps[i].step < a)
				a = r->steps[i].step;
			if (r->steps[i].step > b)
				b = r->steps[i].step;
		}
	if (a < 0) {
		fprintf(fp, "%5s%-4s %5s%-4s", "-", "", "-", "");
		return;
	}
	if (step_iteration(s, a) >= 0)
		fprintf(fp, "%4ld-%-4ld %4ld-%-4ld", a, b,
		    step_iteration(s, a), step_iteration(s, b));
	else
		fprintf(fp, "%4ld-%-4ld %9s", a, b, "?");
}

static void
print_rank(const struct summary *s, const struct rank_data *r,
    const struct steps *st, int lw, struct out *o)
{
	const struct step_row *m = &r->mean;
	double parts[STEP_NPARTS] = { m->comp, m->comm_exposed, m->free };
	char lab[LABEL_MAX];

	fprintf(o->fp, "  %-*s ", lw, rank_label(r, lab, sizeof(lab)));
	if (r->steps_why != NULL) {
		fprintf(o->fp, _("no steps: %s\n"), r->steps_why);
		return;
	}
	print_steps(s, o->fp, r);
	print_step_row(o->fp, m);
	fputs("  ", o->fp);
	draw_bar(o, parts, STEP_NPARTS, st->longest, 30);
	fputc('\n', o->fp);
}

/* Each step of a single rank, torch's number and the iteration. */
static void
print_one(const struct summary *s, const struct rank_data *r, struct out *o)
{
	size_t i;

	fprintf(o->fp, _("  %-10s %-9s %10s %6s %6s %6s %6s %6s\n"), _("step"),
	    _("iteration"), _("step ms"), _("comp%"), _("comm%"), _("free%"),
	    _("bubbl%"), _("ovlp%"));
	for (i = 0; i < r->nsteps && i < MAX_ROWS_SHOWN; i++) {
		const struct step_row *m = &r->steps[i];
		long it = step_iteration(s, m->step);

		if (m->step >= 0)
			fprintf(o->fp, "  %-10ld ", m->step);
		else
			fprintf(o->fp, "  %-10s ", "-");
		if (it >= 0)
			fprintf(o->fp, "%-9ld", it);
		else
			fprintf(o->fp, "%-9s", m->step >= 0 ? "?" : "-");
		print_step_row(o->fp, m);
		fputc('\n', o->fp);
	}
	fputc('\n', o->fp);
}

/*
 * Many ranks: the SLOWEST_SHOWN with the longest steps, the median and
 * the shortest of the N with steps, V sorted by step time.
 */
static void
print_many(const struct summary *s, const struct rank_data **v, size_t n,
    const struct steps *st, int lw, struct out *o)
{
	size_t i, shown = SLOWEST_SHOWN;

	if (n == 0)
		return;
	if (n < shown)
		shown = n;
	fprintf(o->fp, _("  (%zu ranks with steps: the %zu with the longest, "
	    "then the median and the shortest; all in --json)\n"), n, shown);
	for (i = 0; i < shown; i++)
		print_rank(s, v[i], st, lw, o);
	if (n / 2 >= shown)
		print_rank(s, v[n / 2], st, lw, o);
	if (n - 1 > n / 2 && n - 1 >= shown)
		print_rank(s, v[n - 1], st, lw, o);
}

static void
steps_text(const struct summary *s, const void *state, struct out *o)
{
	const struct steps *st = state;
	size_t i, n = s->nr;
	const struct rank_data **v = xcalloc(n, sizeof(*v));
	int lw = label_width(s, 10);

	if (s->nr == 1)
		print_one(s, &s->r[0], o);
	fprintf(o->fp, _("  %-*s %-9s %-9s %10s %6s %6s %6s %6s %6s\n"),
	    lw, "", _("steps"), _("iters"), _("step ms"), _("comp%"),
	    _("comm%"), _("free%"), _("bubbl%"), _("ovlp%"));
	for (i = 0; i < n; i++)
		v[i] = &s->r[i];
	if (n > MAX_ROWS_SHOWN) {
		steps_by_time(v, n);
		print_many(s, v, st->made, st, lw, o);
	} else
		for (i = 0; i < n; i++)
			print_rank(s, v[i], st, lw, o);
	draw_legend(o, step_part_names, STEP_NPARTS);
	if (st->made < s->nr)
		fprintf(o->fp, _("  %zu of %zu ranks have no step data\n"),
		    s->nr - st->made, s->nr);
	free(v);
}

/* --- the top operators (summary/ops.h) --- */

static void
num(FILE *fp, double v, int width, int prec)
{
	if (isnan(v))
		fprintf(fp, " %*s", width, "-");
	else
		fprintf(fp, " %*.*f", width, prec, v);
}

/* The median; "~" before it when it is a histogram bin's, not exact. */
static void
median_cell(FILE *fp, const struct op *op)
{
	double med = op_median(op);

	if (isnan(med) || op_exact(op))
		num(fp, med, 10, 1);
	else
		fprintf(fp, " ~%*.1f", 9, med);
}

static void
ops_text(const struct summary *s, const void *state, struct out *out)
{
	const struct ops *o = state;
	struct op **v = optab_sorted(o->all);
	FILE *fp = out->fp;
	size_t missing = 0;
	int i;

	fprintf(fp, _("  %zu of %zu ranks, from %s\n"), o->made, s->nr, o->source);
	fprintf(fp, "  %7s %12s %9s %10s %10s %10s  %-14s %s\n", _("Time(%)"),
	    _("Total(ms)"), _("Count"), _("Mean(us)"), _("Med(us)"),
	    _("Max(us)"), _("Core"), _("Operator"));
	for (i = 0; i < s->opts.top_n && v[i] != NULL; i++) {
		char fl[64];

		op_flags(s, v[i], fl, sizeof(fl));
		fputc(' ', fp);
		num(fp, 100 * op_share(s, v[i]), 7, 1);
		fprintf(fp, " %12.3f %9lu", v[i]->total / 1000, v[i]->count);
		num(fp, v[i]->total / v[i]->count, 10, 1);
		median_cell(fp, v[i]);
		num(fp, v[i]->max, 10, 1);
		fprintf(fp, "  %-14s %s%s%s%s%s\n", v[i]->core, v[i]->type,
		    *fl ? "  " : "", colour(out, 4), fl, colour_off(out));
	}
	if (o->all->n > (size_t)s->opts.top_n)
		fprintf(fp, _("  (%zu operator types in all)\n"), o->all->n);
	for (i = 0; (size_t)i < s->nr; i++)
		if (s->r[i].ops_why != NULL && missing++ < MAX_LISTED) {
			char lab[LABEL_MAX];

			fprintf(fp, _("  %s: no operators: %s\n"),
			    rank_label(&s->r[i], lab, sizeof(lab)), s->r[i].ops_why);
		}
	if (missing > MAX_LISTED)
		fprintf(fp, _("  (and %zu more ranks without operators)\n"),
		    missing - MAX_LISTED);
	free(v);
}

/* --- the device memory (summary/memory.h) --- */

/* The first rank without a peak, and why; how many others have none. */
static void
print_missing(const struct summary *s, const struct memory *m,
    struct out *o)
{
	char lab[LABEL_MAX];
	size_t i;

	for (i = 0; i < s->nr && m->made < s->nr; i++)
		if (isnan(mem_peak_of(s, i))) {
			fprintf(o->fp, _("  no peak for %s: %s"),
			    rank_label(&s->r[i], lab, sizeof(lab)),
			    mem_rank_of(s, i)->why != NULL ?
			    mem_rank_of(s, i)->why : _("no memory_record.csv"));
			if (s->nr - m->made == 2)
				fputs(_(" (and one more rank; both in --json)"),
				    o->fp);
			else if (s->nr - m->made > 2)
				fprintf(o->fp, _(" (and %zu more ranks; all in "
				    "--json)"), s->nr - m->made - 1);
			fputc('\n', o->fp);
			return;
		}
}

static void
memory_text(const struct summary *s, const void *state, struct out *o)
{
	const struct memory *m = state;
	double lo, med, hi, cap = s->opts.device_mb;
	size_t at;
	char lab[LABEL_MAX];

	mem_spread(s, &lo, &med, &hi, &at);
	fprintf(o->fp, _("  %zu of %zu ranks; peak reserved (%s), MB: lowest "
	    "%.0f, median %.0f, highest %.0f (%s)\n"), m->made, s->nr,
	    mem_rank_of(s, at)->component, lo, med, hi,
	    rank_label(&s->r[at], lab, sizeof(lab)));
	if (cap > 0)
		fprintf(o->fp, _("  device memory %.0f MB (npu-smi): the highest "
		    "peak is %.1f %% of it\n"), cap, 100 * hi / cap);
	else
		fprintf(o->fp, _("  device memory: not known (a run under "
		    "msprof-exec records what npu-smi shows)\n"));
	print_missing(s, m, o);
}

/* --- the MFU (summary/mfu.h) --- */

static void
mfu_text(const struct summary *s, const void *state, struct out *o)
{
	const struct mfu *u = state;
	const struct shape *m = &u->m;
	double a = mfu_achieved(u);
	const char *why = mfu_why(u);

	if (!isnan(u->flops)) {
		fprintf(o->fp, _("  model: %.0f layers, hidden %.0f, FFN %.0f%s, "
		    "%.0f heads, %.0f query groups, kv channels %.0f, sequence "
		    "%.0f, global batch %.0f, vocabulary %.0f (%s)"),
		    m->layers, m->hidden, m->ffn, m->swiglu ? " SwiGLU" : "",
		    m->heads, m->groups, m->kv, m->seq, m->batch, m->vocab,
		    _(m->vocab_from));
		if (!isnan(m->experts))
			fprintf(o->fp, _(", %.0f experts (top %.0f, FFN %.0f)"),
			    m->experts, m->topk, m->moe_ffn);
		fprintf(o->fp, _("\n  model FLOPs per step: %.4g TFLOP "
		    "(Megatron's count)\n"), u->flops / 1e12);
	} else
		fprintf(o->fp, _("  model FLOPs: not known: %s\n"), u->flops_why);
	fprintf(o->fp, _("  step time: %.3f ms (mean of the profiled steps "
	    "of %zu %s)"), u->step_us / 1000, u->nranks,
	    u->nranks == 1 ? _("rank") : _("ranks"));
	if (u->world > 0)
		fprintf(o->fp, _("; world size %d (%s)"), u->world,
		    _(u->world_from));
	fputc('\n', o->fp);
	if (!isnan(u->peak) && u->chip != NULL)
		fprintf(o->fp, _("  chip peak: %.1f TFLOP/s a device (fp16/bf16: "
		    "%.0f AI cores x %.0f MHz x %.0f a cycle)\n    from npu-smi's "
		    "chip %s and CANN's %s (the data does not describe its "
		    "chip)\n"), u->peak / 1e12, u->cores, u->mhz, CUBE_OPS,
		    u->chip, u->peak_path);
	else if (!isnan(u->peak))
		fprintf(o->fp, _("  chip peak: %.1f TFLOP/s a device (fp16/bf16: "
		    "%.0f AI cores x %.0f MHz x %.0f a cycle)\n    from %s\n"),
		    u->peak / 1e12, u->cores, u->mhz, CUBE_OPS, u->peak_path);
	else
		fprintf(o->fp, _("  chip peak: not known: %s\n"), u->peak_why);
	if (!isnan(a))
		fprintf(o->fp, _("  achieved: %.1f TFLOP/s a device\n"), a / 1e12);
	if (why == NULL && a > u->peak)
		fprintf(o->fp, _("  MFU: %.1f %%: above the chip's peak, which "
		    "no run reaches: the launch's arguments are not the model "
		    "that ran, or the profiled steps are not its steps\n"),
		    100 * a / u->peak);
	else if (why == NULL)
		fprintf(o->fp, _("  MFU: %.1f %%\n"), 100 * a / u->peak);
	else
		fprintf(o->fp, _("  MFU: not known: %s\n"), why);
	if (u->log_n > 0 && !isnan(a))
		fprintf(o->fp, _("  the training's log: %.1f TFLOP/s/GPU "
		    "(iterations %ld-%ld), %.1f %% %s this figure%s\n"),
		    u->log_tflops, u->log_first, u->log_last,
		    100 * fabs(mfu_log_difference(u)),
		    u->log_tflops * 1e12 >= a ? _("above") : _("below"),
		    fabs(mfu_log_difference(u)) > LOG_AGREE ?
		    _(": they disagree (the log's step time is not the "
		    "profile's, or its arguments are not the launch's)") : "");
	else if (u->log_n > 0)
		fprintf(o->fp, _("  the training's log: %.1f TFLOP/s/GPU "
		    "(iterations %ld-%ld)\n"), u->log_tflops, u->log_first,
		    u->log_last);
}

/* --- the cluster step table (summary/cluster.h) --- */

static void
cluster_text(const struct summary *s, const void *state, struct out *o)
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
	for (i = 0; i < s->nr && shown < MAX_ROWS_SHOWN; i++) {
		const struct rank_data *r = &s->r[i];
		int v[5];

		if (r->steps_why != NULL)
			continue;
		/* Many ranks: the extremes of each column only. */
		if (s->nr > MAX_ROWS_SHOWN && !cluster_extreme(c, i))
			continue;
		shown++;
		if (r->rank >= 0)
			fprintf(fp, "  %-*d", lw, r->rank);
		else
			fprintf(fp, "  %-*s", lw, rank_label(r, lab, sizeof(lab)));
		if (c->layout && r->rank >= 0) {
			cluster_position(c, r->rank, v);
			fprintf(fp, " %3d %3d %3d %3d %3d", v[0], v[1], v[2], v[3],
			    v[4]);
		} else if (c->layout)
			fprintf(fp, " %3s %3s %3s %3s %3s", "-", "-", "-", "-",
			    "-");
		fprintf(fp, " %10.3f", r->mean.step_time / 1000);
		for (k = 0; k < NCOLS; k++) {
			int mark = c->flagged[k] && cluster_worst(c, k) == i;

			fprintf(fp, " %s%10.3f%s", mark ? colour(o, 4) : "",
			    cluster_col(r, k) / 1000, mark ? colour_off(o) : "");
		}
		fputc('\n', fp);
	}
	if (s->nr > MAX_ROWS_SHOWN)
		fprintf(fp, _("  (the ranks at the extremes of each column; all "
		    "in --json)\n"));
	fprintf(fp, "  %-*s", lw + (c->layout ? 20 : 0) + 11,
	    _("spread (max - min)"));
	for (k = 0; k < NCOLS; k++)
		fprintf(fp, " %10.3f", (c->hi[k] - c->lo[k]) / 1000);
	fputc('\n', fp);
	fprintf(fp, _("  mean step: %.3f ms; a spread above 5 %% of it (%.3f "
	    "ms) names a slow rank\n"), c->mean_step / 1000,
	    CLUSTER_SPREAD * c->mean_step / 1000);
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

/* --- which rank the collectives wait for (summary/wait.h) --- */

static void
wait_row(const struct summary *s, const struct wait *w, size_t i, int lw,
    struct out *o)
{
	char lab[LABEL_MAX];

	fprintf(o->fp, "  %-*s %8zu %8zu %7.1f%%", lw,
	    rank_label(&s->r[i], lab, sizeof(lab)), w->votes[i],
	    w->seen[i], w->seen[i] ? 100.0 * w->votes[i] / w->seen[i] : 0);
	if (w->nratio[i] > 0)
		fprintf(o->fp, " %10.3f %10.3f\n", w->wait_sum[i] /
		    w->nratio[i], w->sync_sum[i] / w->nratio[i]);
	else
		fprintf(o->fp, " %10s %10s\n", "-", "-");
}

/*
 * The collectives of two ranks: each rank that arrived last (the shorter
 * elapse) in some, in how many of its own.
 */
static void
pairs_text(const struct summary *s, const struct wait *w, int lw,
    struct out *o)
{
	char lab[LABEL_MAX];
	size_t i, n = 0;

	if (w->counted2 == 0)
		return;
	fprintf(o->fp, _("  %zu collectives of two ranks; the rank that "
	    "arrived last (shorter elapse: the other waited for it):\n"),
	    w->counted2);
	for (i = 0; i < s->nr && n < MAX_WAIT_ROWS; i++)
		if (w->last2[i] > 0) {
			fprintf(o->fp, _("  %-*s last in %zu of its %zu\n"), lw,
			    rank_label(&s->r[i], lab, sizeof(lab)),
			    w->last2[i], w->seen2[i]);
			n++;
		}
}

/*
 * The communication by parallel group and kind: over the ranks that have
 * it, the mean exposed ms a step, and the rank with the most with its
 * shares waiting for another rank and moving data.
 */
static void
split_text(const struct summary *s, int lw, struct out *o)
{
	char lab[LABEL_MAX];
	size_t n, most = 0;
	double mean;
	int g, k, head = 0;

	for (g = 0; g < CG_N; g++)
		for (k = 0; k < CK_N; k++) {
			struct comm_split c;

			if ((n = wait_split_most(s, g, k, &most, &mean)) == 0)
				continue;
			if (!head++)
				fprintf(o->fp, _("  exposed communication by "
				    "parallel group and kind, ms a step (mean of "
				    "the ranks; the rank with the most, and its "
				    "shares waiting for other ranks and moving "
				    "data):\n  %-7s %-14s %5s %10s  %-*s %10s "
				    "%8s %8s\n"), _("group"), _("kind"),
				    _("ranks"), _("mean"), lw, _("most"), _("ms"),
				    _("waiting"), _("moving"));
			c = comm_split_of(s, most, g, k);
			fprintf(o->fp, "  %-7s %-14s %5zu %10.3f  %-*s %10.3f "
			    "%7.1f%% %7.1f%%\n", comm_group_names[g],
			    comm_kind_names[k], n, mean, lw,
			    rank_label(&s->r[most], lab, sizeof(lab)), c.exposed,
			    100 * c.wait / c.exposed, 100 * c.xfer / c.exposed);
		}
}

static void
wait_text(const struct summary *s, const void *state, struct out *o)
{
	const struct wait *w = state;
	size_t i, n = 0, *v = xcalloc(s->nr + 1, sizeof(*v));
	int lw = label_width(s, 10);

	/* a vote takes three ranks: below, a table of nothing */
	if (w->counted == 0) {
		fprintf(o->fp, _("  no vote: no collective was seen by three "
		    "ranks or more (%zu ranks with communication data)\n"),
		    w->ranks);
		pairs_text(s, w, lw, o);
		split_text(s, lw, o);
		free(v);
		return;
	}
	fprintf(o->fp, _("  %zu ranks with communication data, %zu collectives "
	    "compared, %zu groups left out (operator counts differ)\n"),
	    w->ranks, w->counted, w->dropped_groups);
	fprintf(o->fp, "  %-*s %8s %8s %8s %10s %10s\n", lw, "", _("last"),
	    _("of"), _("share"), _("wait ratio"), _("sync ratio"));
	for (i = 0; i < s->nr; i++)
		if (w->votes[i] > 0 || (s->nr <= 16 && w->nratio[i] > 0))
			v[n++] = i;
	if (n > MAX_WAIT_ROWS) {
		/* many: those voted for most often */
		qsort_r(v, n, sizeof(*v), wait_by_votes, (void *)w);
		fprintf(o->fp, _("  (%zu ranks arrived last as an outlier: the %d "
		    "most often; all in --json)\n"), n, MAX_WAIT_ROWS);
	}
	for (i = 0; i < n && i < MAX_WAIT_ROWS; i++)
		wait_row(s, w, v[i], lw, o);
	if (n == 0)
		fprintf(o->fp, _("  no rank arrived last as an outlier\n"));
	split_text(s, lw, o);
	free(v);
}

/* --- the links (summary/links.h) --- */

static void
links_text(const struct summary *s, const void *state, struct out *o)
{
	const struct links *l = state;
	size_t i;
	int tr;

	fprintf(o->fp, "  %-6s %7s %12s %12s %12s\n", _("type"), _("links"),
	    _("mean GB/s"), _("min GB/s"), _("max GB/s"));
	for (tr = 0; tr < COMM_NTRANS; tr++) {
		double lo = INFINITY, hi = -INFINITY;

		if (l->count[tr] == 0)
			continue;
		for (i = 0; i < l->n; i++)
			if (l->v[i]->tr == tr && !isnan(link_gb_s(l->v[i]))) {
				lo = fmin(lo, link_gb_s(l->v[i]));
				hi = fmax(hi, link_gb_s(l->v[i]));
			}
		fprintf(o->fp, "  %-6s %7zu %12.2f %12.2f %12.2f\n",
		    comm_transports[tr], l->count[tr], l->mean[tr], lo, hi);
	}
	for (i = 0; i < l->n; i++)
		if (link_slow(s, l->v[i]))
			fprintf(o->fp, _("  %sslow%s %d -> %d %s %.2f GB/s\n"),
			    colour(o, 4), colour_off(o), l->v[i]->src,
			    l->v[i]->dst, comm_transports[l->v[i]->tr], link_gb_s(l->v[i]));
}

/* --- the device idle and its causes (summary/idle.h) --- */

static void
print_frames(const struct tl_result *r, struct out *o)
{
	const struct tl_frame *f = r->frames;
	size_t i;

	for (i = 0; i < r->nframes && i < IDLE_FRAMES; i++)
		fprintf(o->fp, _("      %s: %.1f ms (%.1f %% of the step), %zu "
		    "calls%s\n"), f[i].where, f[i].host_us / 1e3,
		    100 * idle_share(r, f[i].host_us), f[i].n, f[i].formats ?
		    _(", formats a tensor") : f[i].to_host ?
		    _(", copies to the host") : "");
}

static void
idle_text(const struct summary *s, const void *state, struct out *o)
{
	const struct idle *m = state;
	char lab[LABEL_MAX];
	size_t i, at, stacks = 0;
	double most, all;
	int c;

	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r == NULL)
			continue;
		stacks += r->stacks;
		fprintf(o->fp, _("  %s (%s): %zu steps, %.1f ms; device idle "
		    "%.1f ms (%.1f %%)%s\n"), rank_label(&s->r[i], lab,
		    sizeof(lab)), idle_rank_at(s, i)->source, r->nsteps,
		    r->step_us / 1e3, r->idle_us / 1e3,
		    100 * idle_share(r, r->idle_us),
		    r->approx ? _(", approximate: more events than kept") : "");
	}
	fprintf(o->fp, _("  %-22s %28s %18s %16s\n"), _("host doing"),
	    _("share of the step (most)"), _("all ranks"),
	    _("device idle"));
	for (c = 0; c < TL_NCAUSE; c++) {
		const struct tl_result *r;

		at = idle_most(s, c, &most, &all);
		if (!(most > 0))
			continue;
		r = idle_of(s, at);
		fprintf(o->fp, "  %-22s %8.1f ms %5.1f %% %-10s %9.1f %% "
		    "%9.1f ms\n", _(idle_cause_name[c]), r->host_us[c] / 1e3,
		    100 * most, rank_label(&s->r[at], lab, sizeof(lab)),
		    100 * all, r->idle_by[c] / 1e3);
		if (c == TL_SYNC && r->nframes > 0) {
			fprintf(o->fp, _("    from the user's code (%s):\n"),
			    rank_label(&s->r[at], lab, sizeof(lab)));
			print_frames(r, o);
		}
	}
	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r == NULL || (r->short_us <= 0 && r->gc_gap_us <= 0))
			continue;
		fprintf(o->fp, _("  %s: idle with no cause: %.1f ms in %zu "
		    "gaps below %.0f us (launching), %.1f ms in %zu long "
		    "gaps without host events\n"), rank_label(&s->r[i], lab,
		    sizeof(lab)), r->short_us / 1e3, r->nshort,
		    TL_SHORT_GAP_NS / 1e3, r->gc_gap_us / 1e3, r->ngc_gap);
	}
	if (m->made > 0 && stacks == 0)
		fputs(_("  no call stacks in the timeline: msprof-exec --with "
		    "stack collects them, to name the lines\n"), o->fp);
}

/* --- the table of writers, and the text of a summary --- */

typedef void	 text_writer(const struct summary *, const void *,
		    struct out *);

/* The writer of each kind: every kind has its row. */
static const struct {
	const struct kind	*kind;
	text_writer		*write;
} writers[] = {
	{ &kind_steps, steps_text },
	{ &kind_ops, ops_text },
	{ &kind_cluster, cluster_text },
	{ &kind_wait, wait_text },
	{ &kind_links, links_text },
	{ &kind_memory, memory_text },
	{ &kind_mfu, mfu_text },
	{ &kind_idle, idle_text },
};

static text_writer *
writer_of(const struct kind *k)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (writers[i].kind == k)
			return writers[i].write;
	errx(1, "no text writer for the summary kind %s", k->name);
}

/* --- the files left out --- */

static const char *
base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

struct item {
	const struct rank_data	*r;
	const struct left_out	*l;
	size_t			 at;	/* in rank order */
};

/* By file name and reason, then in rank order: a group is a run. */
static int
by_group(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(base(x->l->path), base(y->l->path));

	if (c == 0)
		c = strcmp(x->l->reason, y->l->reason);
	return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/* The group of V[0..N): its file, reason, ranks and first message. */
static void
print_group(FILE *fp, const struct item *v, size_t n)
{
	int *ranks = xcalloc(n + 1, sizeof(*ranks));
	size_t k = 0, unknown = 0;
	char *list, *why, *name;

	for (size_t i = 0; i < n; i++)
		if (v[i].r->rank < 0)
			unknown++;
		else
			ranks[k++] = v[i].r->rank;
	list = ranks_text(ranks, k, 6);
	why = xescape(v[0].l->why);
	name = xescape(base(v[0].l->path));
	fprintf(fp, "  %s, %s: ", name, _(v[0].l->reason));
	if (k > 0)
		fprintf(fp, k == 1 ? _("rank %s") : _("ranks %s"), list);
	if (unknown > 0)
		fprintf(fp, _("%s%zu of unknown rank"), k > 0 ? ", " : "",
		    unknown);
	fprintf(fp, _(" (the first: %s)\n"), why);
	free(why);
	free(name);
	free(list);
	free(ranks);
}

void
left_out_print(const struct summary *s, FILE *fp)
{
	size_t n = summary_nleft_out(s), groups = 0, i, j;
	struct item *v;

	if (n == 0)
		return;
	fprintf(fp, "\n%s\n", _("Files left out of the summary"));
	v = xcalloc(n, sizeof(*v));
	for (i = 0, n = 0; i < s->nr; i++)
		for (size_t k = 0; k < s->r[i].nleft; k++, n++)
			v[n] = (struct item){ &s->r[i], &s->r[i].left[k], n };
	if (n <= LISTED) {
		for (i = 0; i < n; i++) {
			char lab[LABEL_MAX], *why = xescape(v[i].l->why);
			char *label = xescape(rank_label(v[i].r, lab,
			    sizeof(lab)));

			fprintf(fp, "  %s: %s\n", label, why);
			free(label);
			free(why);
		}
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), by_group);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n &&
		    strcmp(base(v[i].l->path), base(v[j].l->path)) == 0 &&
		    strcmp(v[i].l->reason, v[j].l->reason) == 0; j++)
			;
		if (groups++ < LISTED)
			print_group(fp, v + i, j - i);
	}
	if (groups > LISTED)
		fprintf(fp, _("  and %zu more kinds of file and reason\n"),
		    groups - LISTED);
	fprintf(fp, _("  (%zu files; each in --json)\n"), n);
	free(v);
}

void
summary_print(const struct summary *s, FILE *fp, unsigned flags)
{
	struct out o = { fp, flags };
	const struct kind *k;

	left_out_print(s, fp);
	for (size_t i = 0; (k = summary_kind(i)) != NULL; i++) {
		fprintf(fp, "\n%s\n", _(k->title));
		if (s->why[i] != NULL)
			fprintf(fp, _("  not made: %s\n"), s->why[i]);
		else
			writer_of(k)(s, s->state[i], &o);
	}
}
