/*
 * The summary's sections of the report's page (report.c): each kind
 * under its title, or why it was not made.  Each kind's writer is here,
 * reading the finished summary's model (summary/steps.h, ops.h and the
 * others), with its row in the table of writers: a new kind is its
 * writer and its row.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

#define HEAT_SPAN	0.25	/* of the mean step: the darkest cell */

/* --- the step breakdown (summary/steps.h) --- */

/* Bars of the ranks V[0..N): stacked parts, labelled with the step. */
static void
html_bars(FILE *fp, const struct rank_data *const *v, size_t n)
{
	const char **labels = xcalloc(n + 1, sizeof(*labels));
	double *parts = xcalloc(n * STEP_NPARTS + 1, sizeof(*parts));
	char **own = xcalloc(n + 1, sizeof(*own)), lab[LABEL_MAX];
	size_t i;

	for (i = 0; i < n; i++) {
		own[i] = xasprintf("%s  %.3f ms", rank_label(v[i], lab,
		    sizeof(lab)), v[i]->mean.step_time / 1000);
		labels[i] = own[i];
		parts[i * STEP_NPARTS] = v[i]->mean.comp;
		parts[i * STEP_NPARTS + 1] = v[i]->mean.comm_exposed;
		parts[i * STEP_NPARTS + 2] = v[i]->mean.free;
	}
	svg_bars(fp, labels, parts, n, STEP_NPARTS, step_part_names);
	for (i = 0; i < n; i++)
		free(own[i]);
	free(own);
	free(labels);
	free(parts);
}

/* Many ranks: each part of the step across all of them, as a heat map. */
static void
html_heat(FILE *fp, const struct rank_data *const *v, size_t n)
{
	static const char *const rows[] = { N_("step"), N_("compute"),
	    N_("exposed communication"), N_("free"), N_("bubble") };
	int *rank = xcalloc(n + 1, sizeof(*rank));
	double *val = xcalloc(5 * n + 1, sizeof(*val));
	/* darkest: a quarter of the mean step above the row's lowest */
	struct heat h = { rows, 5, n, rank, val, "ms", 0 };
	double mean = 0;

	for (size_t i = 0; i < n; i++) {
		rank[i] = v[i]->rank;
		val[i] = v[i]->mean.step_time / 1000;
		val[n + i] = v[i]->mean.comp / 1000;
		val[2 * n + i] = v[i]->mean.comm_exposed / 1000;
		val[3 * n + i] = v[i]->mean.free / 1000;
		val[4 * n + i] = v[i]->mean.bubble / 1000;
		mean += val[i] / n;
	}
	h.span = HEAT_SPAN * mean;
	fprintf(fp, "<p>%zu ranks in rank order, left to right; white is the "
	    "shortest of its row, the darkest %.0f %% of the mean step "
	    "(%.3f ms) longer or more.</p>\n", n, 100 * HEAT_SPAN, mean);
	svg_heat(fp, &h);
	free(rank);
	free(val);
}

static void
steps_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct rank_data **v = xcalloc(s->nr + 1, sizeof(*v));
	size_t i, n = 0, why = 0, k;
	char lab[LABEL_MAX];

	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];

		if (r->steps_why == NULL) {
			v[n++] = r;
			continue;
		}
		if (why++ >= SLOWEST_SHOWN)
			continue;
		fputs("<p class=\"why\">", fp);
		html_text(fp, rank_label(r, lab, sizeof(lab)));
		fputs(": ", fp);
		html_text(fp, r->steps_why);
		fputs("</p>\n", fp);
	}
	if (why > SLOWEST_SHOWN)
		fprintf(fp, "<p class=\"why\">and %zu more ranks without "
		    "steps (all in --json)</p>\n", why - SLOWEST_SHOWN);
	if (n <= MAX_ROWS_SHOWN) {
		html_bars(fp, v, n);
		free(v);
		return;
	}
	html_heat(fp, v, n);
	/* and the longest, the median and the shortest, as the text has */
	steps_by_time(v, n);
	k = SLOWEST_SHOWN;
	v[k++] = v[n / 2];
	v[k++] = v[n - 1];
	fprintf(fp, "<p>The %d ranks with the longest steps, then the median "
	    "and the shortest:</p>\n", SLOWEST_SHOWN);
	html_bars(fp, v, k);
	free(v);
}

/* --- the top operators (summary/ops.h) --- */

static void
ops_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct ops *o = state;
	struct op **v = optab_sorted(o->all);
	int i;

	fprintf(fp, "<p>%zu of %zu ranks, from %s</p>\n<table>\n<tr><th>Time "
	    "(%%)</th><th>Total (ms)</th><th>Count</th><th>Mean (us)</th>"
	    "<th>Median (us)</th><th>Max (us)</th><th class=\"l\">Core</th>"
	    "<th class=\"l\">Operator</th><th class=\"l\">Flags</th></tr>\n",
	    o->made, s->nr, o->source);
	for (i = 0; i < s->opts.top_n && v[i] != NULL; i++) {
		double med = op_median(v[i]);
		char fl[64];

		op_flags(s, v[i], fl, sizeof(fl));
		if (isnan(op_share(s, v[i])))
			fputs("<tr><td>-</td>", fp);
		else
			fprintf(fp, "<tr><td>%.1f</td>",
			    100 * op_share(s, v[i]));
		fprintf(fp, "<td>%.3f</td><td>%lu</td><td>%.1f</td>",
		    v[i]->total / 1000, v[i]->count, v[i]->total / v[i]->count);
		if (isnan(med))
			fputs("<td>-</td>", fp);
		else
			fprintf(fp, "<td%s>%s%.1f</td>", op_exact(v[i]) ? "" :
			    " title=\"approximate: a histogram bin's middle\"",
			    op_exact(v[i]) ? "" : "~", med);
		fprintf(fp, "<td>%.1f</td><td class=\"l\">", v[i]->max);
		html_text(fp, v[i]->core);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, v[i]->type);
		fprintf(fp, "</td><td class=\"l\">%s</td></tr>\n", fl);
	}
	fputs("</table>\n", fp);
	free(v);
}

/* --- the device memory (summary/memory.h) --- */

static void
memory_html(const struct summary *s, const void *state, FILE *fp)
{
	double lo, med, hi, cap = s->opts.device_mb;
	size_t at;

	mem_spread(s, &lo, &med, &hi, &at);
	fprintf(fp, "<p>Peak reserved (%s), MB: lowest %.0f, median %.0f, "
	    "highest %.0f", mem_rank_of(s, at)->component, lo, med, hi);
	if (cap > 0)
		fprintf(fp, "; device memory %.0f MB (%.1f %%)", cap,
		    100 * hi / cap);
	fputs(".</p>\n", fp);
}

/* --- the MFU (summary/mfu.h) --- */

static void
mfu_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct mfu *u = state;
	double a = mfu_achieved(u);
	const char *why = mfu_why(u);

	fputs("<p>", fp);
	if (why == NULL) {
		fprintf(fp, "MFU <b>%.1f %%</b>: %.1f TFLOP/s a device of a "
		    "peak of %.1f TFLOP/s (%.0f AI cores x %.0f MHz, ",
		    100 * a / u->peak, a / 1e12, u->peak / 1e12, u->cores,
		    u->mhz);
		if (u->chip != NULL) {
			fputs("from npu-smi's chip ", fp);
			html_text(fp, u->chip);
			fputs(" and CANN's ", fp);
		} else
			fputs("from ", fp);
		html_text(fp, strrchr(u->peak_path, '/') != NULL ?
		    strrchr(u->peak_path, '/') + 1 : u->peak_path);
		fputc(')', fp);
		if (a > u->peak)
			fputs(", above the chip's peak, which no run reaches: "
			    "the launch's arguments are not the model that ran, "
			    "or the profiled steps are not its steps", fp);
	} else {
		fputs("MFU not known: ", fp);
		html_text(fp, why);
	}
	fprintf(fp, "; step %.3f ms", u->step_us / 1000);
	if (!isnan(u->flops))
		fprintf(fp, ", %.4g TFLOP a step (Megatron's count)",
		    u->flops / 1e12);
	if (u->log_n > 0)
		fprintf(fp, "; the training's log: %.1f TFLOP/s/GPU",
		    u->log_tflops);
	fputs(".</p>\n", fp);
}

/* --- the cluster step table (summary/cluster.h) --- */

static const char *const col_name[NCOLS] = {
	"Computing", "Communication(Not Overlapped)", "Free", "Bubble",
};

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

		if (r->steps_why != NULL || (s->nr > MAX_ROWS_SHOWN &&
		    !cluster_extreme(c, i)))
			continue;
		cluster_position(c, r->rank, v);
		fputs("<tr>", fp);
		html_rank(fp, r);
		for (p = 0; p < 5 && c->layout; p++)
			if (r->rank >= 0)
				fprintf(fp, "<td>%d</td>", v[p]);
			else
				fputs("<td>-</td>", fp);
		fprintf(fp, "<td>%.3f</td>", r->mean.step_time / 1000);
		for (k = 0; k < NCOLS; k++) {
			int mark = c->flagged[k] && cluster_worst(c, k) == i;

			fprintf(fp, "<td%s>%.3f</td>", mark ?
			    " class=\"finding\"" : "", cluster_col(r, k) / 1000);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
	if (s->nr > MAX_ROWS_SHOWN)
		fputs("<p>The ranks at the extremes of each column; all in "
		    "--json.</p>\n", fp);
}

/* --- which rank the collectives wait for (summary/wait.h) --- */

static void
split_html(const struct summary *s, FILE *fp)
{
	size_t n, most = 0;
	double mean;
	int g, k, head = 0;

	for (g = 0; g < CG_N; g++)
		for (k = 0; k < CK_N; k++) {
			struct comm_split c;

			if ((n = wait_split_most(s, g, k, &most, &mean)) == 0)
				continue;
			if (!head++)
				fputs("<p>Exposed communication by parallel group "
				    "and kind, ms a step: the mean of the ranks, "
				    "and the rank with the most with its shares "
				    "waiting for other ranks and moving data.</p>\n"
				    "<table>\n<tr><th class=\"l\">group</th>"
				    "<th class=\"l\">kind</th><th>ranks</th>"
				    "<th>mean</th><th>most</th><th>ms</th>"
				    "<th>waiting</th><th>moving</th></tr>\n", fp);
			c = comm_split_of(s, most, g, k);
			fprintf(fp, "<tr><td class=\"l\">%s</td><td class=\"l\">"
			    "%s</td><td>%zu</td><td>%.3f</td>",
			    comm_group_names[g], comm_kind_names[k], n, mean);
			html_rank(fp, &s->r[most]);
			fprintf(fp, "<td>%.3f</td><td>%.1f %%</td><td>%.1f %%</td>"
			    "</tr>\n", c.exposed, 100 * c.wait / c.exposed,
			    100 * c.xfer / c.exposed);
		}
	if (head)
		fputs("</table>\n", fp);
}

static void
wait_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct wait *w = state;
	size_t i, n = 0, most = 1, *v = xcalloc(s->nr + 1, sizeof(*v));
	char lab[LABEL_MAX];

	for (i = 0; i < s->nr; i++) {
		if (w->votes[i] > most)
			most = w->votes[i];
		if (w->votes[i] > 0 || (s->nr <= 16 && (w->seen[i] > 0 ||
		    w->nratio[i] > 0)))
			v[n++] = i;
	}
	if (w->counted == 0) {
		fprintf(fp, "<p>No vote: no collective was seen by three ranks "
		    "or more (%zu ranks with communication data).</p>\n",
		    w->ranks);
		for (i = 0; i < s->nr && w->counted2 > 0; i++)
			if (w->last2[i] > 0) {
				fputs("<p>", fp);
				html_text(fp, rank_label(&s->r[i], lab,
				    sizeof(lab)));
				fprintf(fp, " arrived last (the shorter elapse) "
				    "in %zu of its %zu collectives of two "
				    "ranks.</p>\n", w->last2[i], w->seen2[i]);
			}
		split_html(s, fp);
		free(v);
		return;
	}
	fprintf(fp, "<p>%zu collectives compared; %zu groups left out.</p>\n",
	    w->counted, w->dropped_groups);
	if (n > MAX_WAIT_ROWS) {
		qsort_r(v, n, sizeof(*v), wait_by_votes, (void *)w);
		fprintf(fp, "<p>%zu ranks arrived last as an outlier: the %d most "
		    "often; all in --json.</p>\n", n, MAX_WAIT_ROWS);
		n = MAX_WAIT_ROWS;
	}
	fputs("<table>\n<tr><th>rank</th><th>last</th><th>of</th>"
	    "<th class=\"l\">votes</th><th>wait ratio</th><th>sync ratio</th>"
	    "</tr>\n", fp);
	for (size_t k = 0; k < n; k++) {
		i = v[k];
		fputs("<tr>", fp);
		html_rank(fp, &s->r[i]);
		fprintf(fp, "<td>%zu</td><td>%zu</td><td class=\"l\">"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"204\" "
		    "height=\"12\"><rect x=\"0\" y=\"1\" width=\"%.1f\" "
		    "height=\"10\" fill=\"#c0392b\"/></svg></td>",
		    w->votes[i], w->seen[i], 200.0 * w->votes[i] / most);
		if (w->nratio[i] > 0)
			fprintf(fp, "<td>%.3f</td><td>%.3f</td></tr>\n",
			    w->wait_sum[i] / w->nratio[i],
			    w->sync_sum[i] / w->nratio[i]);
		else
			fputs("<td>-</td><td>-</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	split_html(s, fp);
	free(v);
}

/* --- the links (summary/links.h) --- */

#define HEAT_MAX	128	/* ranks drawn one by one in the heat map */
#define HEAT_BLOCKS	64	/* more: blocks of ranks a side */

/* One cell of the heat map: the slowest link it holds. */
struct cell {
	const struct link	*slowest;
	size_t			 n;
	int			 slow;	/* holds a slow link */
};

/*
 * A src x dst heat map of bandwidth relative to the best link.  With
 * more ranks than HEAT_MAX, a cell holds a block of ranks and shows its
 * slowest link: the map keeps its size, and a slow link still shows.
 */
static void
links_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct links *l = state;
	int n = l->maxrank + 1, g = n <= HEAT_MAX ? n : HEAT_BLOCKS;
	int cell = g <= 32 ? 14 : g <= 64 ? 8 : 4, x, y;
	struct cell *c;
	double best = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!isnan(link_gb_s(l->v[i])))
			best = fmax(best, link_gb_s(l->v[i]));
	if (!(best > 0)) {
		fprintf(fp, "<p>%zu links; no heat map (no bandwidth)</p>\n",
		    l->n);
		return;
	}
	c = xcalloc((size_t)g * g, sizeof(*c));
	for (i = 0; i < l->n; i++) {
		const struct link *k = l->v[i];
		struct cell *e = &c[(size_t)k->src * g / n * g +
		    (size_t)k->dst * g / n];

		if (e->slowest == NULL || (!isnan(link_gb_s(k)) &&
		    (isnan(link_gb_s(e->slowest)) || link_gb_s(k) < link_gb_s(e->slowest))))
			e->slowest = k;
		e->n++;
		e->slow |= link_slow(s, k);
	}
	fprintf(fp, "<p>src (rows) x dst (columns)%s, darker is faster; slow "
	    "links outlined in red. Best link %.2f GB/s.</p>\n<svg xmlns=\""
	    "http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n",
	    g < n ? ", a block of ranks a cell showing its slowest link" : "",
	    best, g * cell + 2, g * cell + 2);
	for (y = 0; y < g; y++)
		for (x = 0; x < g; x++) {
			const struct cell *e = &c[(size_t)y * g + x];
			const struct link *k = e->slowest;
			double f;
			int shade;

			if (k == NULL)
				continue;
			f = isnan(link_gb_s(k)) ? 0 : link_gb_s(k) / best;
			shade = 255 - (int)lround(f * 200);
			fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			    "height=\"%d\" fill=\"rgb(%d,%d,255)\"%s><title>",
			    1 + x * cell, 1 + y * cell, cell, cell, shade, shade,
			    e->slow ? " stroke=\"#d00\" stroke-width=\"2\"" : "");
			if (e->n > 1)
				fprintf(fp, "%zu links, the slowest: ", e->n);
			fprintf(fp, "%d -&gt; %d %s %.2f GB/s</title></rect>\n",
			    k->src, k->dst, comm_transports[k->tr],
			    isnan(link_gb_s(k)) ? 0 : link_gb_s(k));
		}
	fputs("</svg>\n", fp);
	free(c);
}

/* --- the device idle and its causes (summary/idle.h) --- */

static void
idle_html(const struct summary *s, const void *state, FILE *fp)
{
	double most, all;
	size_t at, i;
	int c;

	fputs("<table><tr><th>host doing</th><th>share of the step "
	    "(most)</th><th>rank</th><th>all ranks</th></tr>\n", fp);
	for (c = 0; c < TL_NCAUSE; c++) {
		at = idle_most(s, c, &most, &all);
		if (!(most > 0))
			continue;
		fputs("<tr><td>", fp);
		html_text(fp, idle_cause_name[c]);
		fprintf(fp, "</td><td>%.1f %%</td>", 100 * most);
		html_rank(fp, &s->r[at]);
		fprintf(fp, "<td>%.1f %%</td></tr>\n", 100 * all);
	}
	fputs("</table>\n", fp);
	at = idle_most(s, TL_SYNC, &most, &all);
	if (!(most > 0) || idle_of(s, at)->nframes == 0)
		return;
	fputs("<p>Synchronised from the user's code:</p>\n<ul>\n", fp);
	for (i = 0; i < idle_of(s, at)->nframes && i < IDLE_FRAMES; i++) {
		const struct tl_frame *f = &idle_of(s, at)->frames[i];

		fputs("<li><code>", fp);
		html_text(fp, f->where);
		fprintf(fp, "</code>: %.1f ms</li>\n", f->host_us / 1e3);
	}
	fputs("</ul>\n", fp);
}

/* --- the table of writers, and the sections of a summary --- */

typedef void	 html_writer(const struct summary *, const void *, FILE *);

/* The writer of each kind: every kind has its row. */
static const struct {
	const struct kind	*kind;
	html_writer		*write;
} writers[] = {
	{ &kind_steps, steps_html },
	{ &kind_ops, ops_html },
	{ &kind_cluster, cluster_html },
	{ &kind_wait, wait_html },
	{ &kind_links, links_html },
	{ &kind_memory, memory_html },
	{ &kind_mfu, mfu_html },
	{ &kind_idle, idle_html },
};

static html_writer *
writer_of(const struct kind *k)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (writers[i].kind == k)
			return writers[i].write;
	errx(1, "no HTML writer for the summary kind %s", k->name);
}

static void
part_html(const struct summary *s, size_t k, FILE *fp)
{
	fputs("<h2>", fp);
	html_text(fp, summary_kind(k)->title);
	fputs("</h2>\n", fp);
	if (s->why[k] != NULL) {
		fputs("<p class=\"why\">not made: ", fp);
		html_text(fp, s->why[k]);
		fputs("</p>\n", fp);
	} else
		writer_of(summary_kind(k))(s, s->state[k], fp);
}

void
summary_html_sections(const struct summary *s, FILE *fp)
{
	for (size_t k = 0; summary_kind(k) != NULL; k++)
		part_html(s, k, fp);
}
