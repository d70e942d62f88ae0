/*
 * Per-rank step breakdown from step_trace_time.csv (or the db export's
 * StepTraceTime): step = Computing + Communication(Not Overlapped) + Free,
 * the shares of compute, exposed communication, free and bubble, and the
 * overlap Overlapped / Communication.  What they call for is the rules'
 * (advice/steps.c).
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "csv.h"
#include "model.h"

#define MAX_STEPS	4096	/* rows kept per rank; the mean uses all */
#define MAX_ROWS_SHOWN	32
#define SLOWEST_SHOWN	5	/* many ranks: the slowest, median, fastest */
#define HEAT_SPAN	0.25	/* of the mean step: the darkest cell */

enum { C_STEP, C_COMP, C_COMM_EXPOSED, C_OVERLAPPED, C_COMM, C_FREE,
    C_BUBBLE, NCOL };

/* The columns by name; guides print a space before "(", files do not. */
static const char *const col_names[NCOL][3] = {
	{ "Step", NULL },
	{ "Computing", NULL },
	{ "Communication(Not Overlapped)", "Communication (Not Overlapped)", NULL },
	{ "Overlapped", NULL },
	{ "Communication", NULL },
	{ "Free", NULL },
	{ "Bubble", NULL },
};

static const char *const part_names[] = {
	N_("compute"), N_("exposed communication"), N_("free"),
};

struct steps {
	size_t	 made;		/* ranks with steps */
	double	 longest;	/* the longest mean step, to scale bars */
};

static void *
steps_init(struct summary *s)
{
	return xcalloc(1, sizeof(struct steps));
}

static void
add_row(struct rank_data *rd, const double v[NCOL], long step,
    struct step_row *sum, size_t *n)
{
	struct step_row r = {
		.step = step, .comp = v[C_COMP],
		.comm_exposed = v[C_COMM_EXPOSED],
		.overlapped = isnan(v[C_OVERLAPPED]) ? 0 : v[C_OVERLAPPED],
		.comm = isnan(v[C_COMM]) ? 0 : v[C_COMM],
		.free = v[C_FREE],
		.bubble = isnan(v[C_BUBBLE]) ? 0 : v[C_BUBBLE],
	};

	r.step_time = r.comp + r.comm_exposed + r.free;
	if (rd->nsteps < MAX_STEPS) {
		rd->steps = reallocarray(rd->steps, rd->nsteps + 1,
		    sizeof(*rd->steps));
		if (rd->steps == NULL)
			err(70, "reallocarray");
		rd->steps[rd->nsteps++] = r;
	}
	sum->comp += r.comp;
	sum->comm_exposed += r.comm_exposed;
	sum->overlapped += r.overlapped;
	sum->comm += r.comm;
	sum->free += r.free;
	sum->bubble += r.bubble;
	sum->step_time += r.step_time;
	(*n)++;
}

static void
finish_mean(struct rank_data *rd, struct step_row *sum, size_t n)
{
	sum->comp /= n;
	sum->comm_exposed /= n;
	sum->overlapped /= n;
	sum->comm /= n;
	sum->free /= n;
	sum->bubble /= n;
	sum->step_time /= n;
	sum->step = -1;
	rd->mean = *sum;
}

/* A record without one of the three figures: blank, a summary line; text, damage. */
static void
skipped(struct bad_rows *b, const struct csv *c, char **f, size_t nf,
    const int col[], const double v[])
{
	static const int need[] = { C_COMP, C_COMM_EXPOSED, C_FREE };
	const char *t;

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		if (!isnan(v[need[i]]))
			continue;
		t = csv_field(f, nf, col[need[i]]);
		if (bad_row(b, c, col[need[i]], t, strlen(t)))
			return;
	}
}

/* A figure of the record no profiler writes (the step not read). */
static int
odd(struct bad_rows *b, const struct csv *c, const int col[],
    const double v[])
{
	for (int i = C_COMP; i < NCOL; i++)
		if (col[i] >= 0 && odd_time(b, c, col[i], v[i]))
			return 1;
	return 0;
}

static char *
read_csv(struct rank_data *rd, const char *path)
{
	struct csv *c;
	struct step_row sum = { 0 };
	struct bad_rows bad = { 0 };
	int col[NCOL], i, rc;
	char **f, *why = NULL;
	size_t nf, n = 0;

	if ((c = csv_open(path, &why)) == NULL) {
		rank_left_out(rd, path, csv_open_reason(path), why);
		return why;
	}
	for (i = 0; i < NCOL; i++)
		col[i] = csv_col_any(c, col_names[i]);
	if (col[C_COMP] < 0 || col[C_COMM_EXPOSED] < 0 || col[C_FREE] < 0) {
		why = xasprintf(_("%s: no column %s (an older or foreign file?)"),
		    path, col[C_COMP] < 0 ? "Computing" : col[C_FREE] < 0 ?
		    "Free" : "Communication(Not Overlapped)");
		rank_left_out(rd, path, N_("not the CSV expected"), why);
		csv_close(c);
		return why;
	}
	while ((rc = csv_next(c, &f, &nf, &why)) > 0) {
		double v[NCOL];
		const char *st = csv_trim((char *)csv_field(f, nf, col[C_STEP]));
		char *end;
		long step = strtol(st, &end, 10);

		for (i = 0; i < NCOL; i++)
			v[i] = csv_num(csv_field(f, nf, col[i]));
		if (isnan(v[C_COMP]) || isnan(v[C_COMM_EXPOSED]) ||
		    isnan(v[C_FREE])) {
			skipped(&bad, c, f, nf, col, v);
			continue;
		}
		if (odd(&bad, c, col, v))
			continue;
		add_row(rd, v, *st != '\0' && *end == '\0' ? step : -1, &sum, &n);
	}
	csv_left_out(rd, c, path, rc, why, &bad);
	csv_close(c);
	if (rc < 0)
		return why;
	if (n == 0) {
		why = xasprintf(_("%s: no step rows"), path);
		rank_left_out(rd, path, N_("no rows"), why);
		return why;
	}
	finish_mean(rd, &sum, n);
	return NULL;
}

struct db_acc {
	struct rank_data	*rd;
	struct step_row		 sum;
	size_t			 n;
};

static int
db_row(void *arg, int ncol, const char *const col[], const double num[])
{
	struct db_acc *a = arg;
	double v[NCOL];
	char *end;
	long step = strtol(col[0], &end, 10);
	int i;

	for (i = 1; i < NCOL; i++)
		v[i] = num[i];
	if (!isnan(v[C_COMP]) && !isnan(v[C_COMM_EXPOSED]) && !isnan(v[C_FREE]))
		add_row(a->rd, v, *col[0] != '\0' && *end == '\0' ? step : -1,
		    &a->sum, &a->n);
	return 0;
}

/*
 * StepTraceTime's columns, checked as step_trace_time.csv's fields are:
 * the three figures a step is made of are always written, the others may
 * be NULL.
 */
static const struct db_check step_checks[NCOL] = {
	[C_COMP] = { "computing", &bound_time_us, 0 },
	[C_COMM_EXPOSED] = { "communication_not_overlapped", &bound_time_us, 0 },
	[C_OVERLAPPED] = { "overlapped", &bound_time_us, 1 },
	[C_COMM] = { "communication", &bound_time_us, 1 },
	[C_FREE] = { "free", &bound_time_us, 0 },
	[C_BUBBLE] = { "bubble", &bound_time_us, 1 },
};

/* analysis.db has StepTraceTime whenever it is written: none is damage. */
static char *
read_db(struct rank_data *rd, struct db *db)
{
	struct db_acc a = { .rd = rd };
	char *why;
	int skipped;

	if ((why = db_need_table(db, "StepTraceTime")) != NULL)
		return why;
	if ((skipped = db_rows_checked(db, "StepTraceTime", "SELECT rowid, "
	    "step, computing, communication_not_overlapped, overlapped, "
	    "communication, free, bubble FROM StepTraceTime", step_checks,
	    NCOL, db_row, &a, &why)) < 0)
		return why;
	if (a.n == 0 && skipped > 0)
		return xasprintf(_("%s: no step of StepTraceTime could be "
		    "read"), db_path(db));
	if (a.n == 0)
		return xasprintf(_("%s: StepTraceTime is empty"), db_path(db));
	finish_mean(rd, &a.sum, a.n);
	return NULL;
}

static void
steps_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct steps *st = state;
	char *p = rank_file(rf, "step_trace_time.csv");
	struct db *db;

	if (p != NULL)
		rd->steps_why = read_csv(rd, p);
	else if ((db = rank_db(rf)) != NULL)
		rd->steps_why = read_db(rd, db);
	else if ((p = rank_file(rf, "analysis.db")) != NULL)
		rd->steps_why = xasprintf(_("%s is no database it can read"),
		    p);
	else
		rd->steps_why = xstrdup(_("no step_trace_time.csv nor analysis.db "
		    "(a parse that did not finish, or profiler level none?)"));
	free(p);
	if (rd->steps_why != NULL)
		return;
	st->made++;
	st->longest = fmax(st->longest, rd->mean.step_time);
}

static char *
steps_finish(struct summary *s, void *state)
{
	struct steps *st = state;
	size_t i;

	if (st->made > 0)
		return NULL;
	for (i = 0; i < s->nr; i++)
		if (s->r[i].steps_why != NULL)
			return xasprintf(_("no rank has step data (%s: %s)"),
			    s->r[i].name, s->r[i].steps_why);
	return xstrdup(_("no rank has step data"));
}

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
	double parts[3] = { m->comp, m->comm_exposed, m->free };
	char lab[LABEL_MAX];

	fprintf(o->fp, "  %-*s ", lw, rank_label(r, lab, sizeof(lab)));
	if (r->steps_why != NULL) {
		fprintf(o->fp, _("no steps: %s\n"), r->steps_why);
		return;
	}
	print_steps(s, o->fp, r);
	print_step_row(o->fp, m);
	fputs("  ", o->fp);
	draw_bar(o, parts, 3, st->longest, 30);
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

/* Longest step first; ranks without steps last; then in rank order. */
static int
by_step_time(const void *a, const void *b)
{
	const struct rank_data *x = *(struct rank_data *const *)a,
	    *y = *(struct rank_data *const *)b;
	int c = (x->steps_why != NULL) - (y->steps_why != NULL);

	if (c == 0)
		c = (y->mean.step_time > x->mean.step_time) -
		    (y->mean.step_time < x->mean.step_time);
	return c != 0 ? c : (x > y) - (x < y);
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
steps_print(const struct summary *s, const void *state, struct out *o)
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
		qsort(v, n, sizeof(*v), by_step_time);
		print_many(s, v, st->made, st, lw, o);
	} else
		for (i = 0; i < n; i++)
			print_rank(s, v[i], st, lw, o);
	draw_legend(o, part_names, 3);
	if (st->made < s->nr)
		fprintf(o->fp, _("  %zu of %zu ranks have no step data\n"),
		    s->nr - st->made, s->nr);
	free(v);
}

static cJSON *
row_json(const struct summary *s, const struct step_row *m)
{
	cJSON *o = cJSON_CreateObject();

	if (m->step >= 0) {
		cJSON_AddNumberToObject(o, "step", m->step);
		if (step_iteration(s, m->step) >= 0)
			cJSON_AddNumberToObject(o, "iteration",
			    step_iteration(s, m->step));
	}
	json_num(o, "step_us", m->step_time);
	json_num(o, "computing_us", m->comp);
	json_num(o, "communication_not_overlapped_us", m->comm_exposed);
	json_num(o, "free_us", m->free);
	json_num(o, "bubble_us", m->bubble);
	json_num(o, "compute_share", m->step_time > 0 ? m->comp / m->step_time : NAN);
	json_num(o, "exposed_communication_share",
	    m->step_time > 0 ? m->comm_exposed / m->step_time : NAN);
	json_num(o, "free_share", m->step_time > 0 ? m->free / m->step_time : NAN);
	json_num(o, "bubble_share", m->step_time > 0 ? m->bubble / m->step_time : NAN);
	json_num(o, "overlap", m->comm > 0 ? m->overlapped / m->comm : NAN);
	return o;
}

static cJSON *
steps_json(const struct summary *s, const void *state)
{
	cJSON *j = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(j, "ranks");
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		cJSON *o;

		if (r->steps_why != NULL) {
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "why", r->steps_why);
		} else {
			cJSON *steps;

			o = row_json(s, &r->mean);
			steps = cJSON_AddArrayToObject(o, "steps");
			for (k = 0; k < r->nsteps; k++)
				cJSON_AddItemToArray(steps,
				    row_json(s, &r->steps[k]));
		}
		json_rank(o, "rank", r->rank);
		cJSON_AddItemToArray(a, o);
	}
	return j;
}

/* Bars of the ranks V[0..N): stacked parts, labelled with the step. */
static void
html_bars(FILE *fp, const struct rank_data *const *v, size_t n)
{
	const char **labels = xcalloc(n + 1, sizeof(*labels));
	double *parts = xcalloc(n * 3 + 1, sizeof(*parts));
	char **own = xcalloc(n + 1, sizeof(*own)), lab[LABEL_MAX];
	size_t i;

	for (i = 0; i < n; i++) {
		own[i] = xasprintf("%s  %.3f ms", rank_label(v[i], lab,
		    sizeof(lab)), v[i]->mean.step_time / 1000);
		labels[i] = own[i];
		parts[i * 3] = v[i]->mean.comp;
		parts[i * 3 + 1] = v[i]->mean.comm_exposed;
		parts[i * 3 + 2] = v[i]->mean.free;
	}
	svg_bars(fp, labels, parts, n, 3, part_names);
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
	qsort(v, n, sizeof(*v), by_step_time);
	k = SLOWEST_SHOWN;
	v[k++] = v[n / 2];
	v[k++] = v[n - 1];
	fprintf(fp, "<p>The %d ranks with the longest steps, then the median "
	    "and the shortest:</p>\n", SLOWEST_SHOWN);
	html_bars(fp, v, k);
	free(v);
}

static void
steps_free(void *state)
{
	free(state);
}

const struct kind kind_steps = {
	"steps", N_("Step breakdown per rank (step_trace_time.csv; ms, and "
	    "shares of the step)"),
	steps_init, NULL, steps_rank, steps_finish, steps_print, steps_json,
	steps_html, steps_free,
};
