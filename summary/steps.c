/*
 * Per-rank step breakdown from step_trace_time.csv (or the db export's
 * StepTraceTime): step = Computing + Communication(Not Overlapped) + Free,
 * the shares of compute, exposed communication, free and bubble, and the
 * overlap Overlapped / Communication (steps.h).  What they call for is
 * the rules' (advice/steps.c); the report prints them
 * (report/summary_text.c, summary_json.c, summary_html.c).
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "csv.h"
#include "model.h"
#include "steps.h"

#define MAX_STEPS	4096	/* rows kept per rank; the mean uses all */

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

const char *const step_part_names[STEP_NPARTS] = {
	N_("compute"), N_("exposed communication"), N_("free"),
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

void
steps_by_time(const struct rank_data **v, size_t n)
{
	qsort(v, n, sizeof(*v), by_step_time);
}

static void
steps_free(void *state)
{
	free(state);
}

const struct kind kind_steps = {
	"steps", N_("Step breakdown per rank (step_trace_time.csv; ms, and "
	    "shares of the step)"),
	steps_init, NULL, steps_rank, steps_finish, steps_free,
};
