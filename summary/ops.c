/*
 * Top operators, like nsys stats' kernel summary: per operator type and
 * accelerator core, the share of device time, total, count, mean, median,
 * max.  Streamed from kernel_details.csv (falls back to op_statistic.csv,
 * which gives no median nor flags).  Communication tasks are left out:
 * the communication summaries cover them.  Flags, as msprof-analyze's
 * advisor marks operators: AI_CPU tasks of 20 µs or more, dynamic-shape
 * operators (OP State dynamic), and operators of at least 5 % of device
 * time whose pipe ratios (the *_ratio columns of PipeUtilization) all
 * average below 0.4, each column over the instances with a value in it,
 * weighted by their durations.  Which of them call for a change is the
 * rules' (advice/operators.c); the report prints them
 * (report/summary_text.c, summary_json.c, summary_html.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "csv.h"
#include "model.h"
#include "ops.h"


static void *
ops_init(struct summary *s)
{
	struct ops *o = xcalloc(1, sizeof(*o));

	o->all = optab_new(1);
	return o;
}

/* S, N bytes long, is the string LIT. */
#define IS(s, n, lit)	((n) == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)

/* Tested on every row: the lengths rule most rows out. */
static int
is_comm(const char *core, size_t ncore, const char *type, size_t ntype)
{
	return IS(core, ncore, "COMMUNICATION") || IS(core, ncore, "HCCL") ||
	    (ntype >= 5 && memcmp(type, "hcom_", 5) == 0);
}

/* Field I without the blanks around it; its length in *N. */
static const char *
span(struct csv *c, int i, size_t *n)
{
	size_t k;
	const char *s = csv_span(c, i, &k);

	while (k > 0 && (*s == ' ' || *s == '\t'))
		s++, k--;
	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		k--;
	*n = k;
	return s;
}

/* The summary's index of pipe-ratio column NAME, added when new. */
static int
ratio_index(struct ops *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->nratio; i++)
		if (strcmp(o->ratio[i], name) == 0)
			return (int)i;
	if (o->nratio == OP_NRATIO)
		return -1;
	o->ratio[o->nratio] = xstrdup(name);
	return (int)o->nratio++;
}

struct kcols {
	int	 type, name, core, dur, state;
	int	 rcol[OP_NRATIO], ridx[OP_NRATIO];
	size_t	 nr;
};

/* A number from field I, NaN when empty or not one. */
static double
field_num(struct csv *c, int i)
{
	size_t n;
	const char *s = csv_span(c, i, &n);

	return csv_numn(s, n);
}

/* One kernel, of kernel_details.csv or of the db: its fields' spans. */
struct kernel {
	const char	*type, *name, *core, *state;
	size_t		 ntype, nname, ncore, nstate;
	double		 dur;
};

/*
 * Count kernel K under its type (its name without one) and core, with its
 * flags; NULL for communication, which the communication summaries cover.
 */
static struct op *
add_kernel(struct optab *t, const struct kernel *k)
{
	const char *type = k->type;
	size_t ntype = k->ntype;
	struct op *op;

	/* Level0 writes N/A, a db may write nothing: the name says the type. */
	if (op_type_unknown(type, ntype) && k->nname > 0)
		type = op_type_of_name(k->name, k->nname, &ntype);

	if (ntype == 0 || is_comm(k->core, k->ncore, type, ntype))
		return NULL;
	op = optab_getn(t, type, ntype, k->core, k->ncore);
	op_add(t, op, k->dur);
	if (k->nstate == 7 && strncasecmp(k->state, "dynamic", 7) == 0)
		op->dynamic++;
	if (k->dur >= AICPU_LONG_US && IS(k->core, k->ncore, "AI_CPU"))
		op->aicpu_long++;
	return op;
}

static void
kernel_row(struct optab *t, const struct kcols *k, struct csv *c,
    struct bad_rows *bad)
{
	struct kernel kn;
	struct op *op;
	double w = 0;
	size_t i;

	kn.type = span(c, k->type, &kn.ntype);
	kn.name = span(c, k->name, &kn.nname);
	kn.core = span(c, k->core, &kn.ncore);
	kn.state = span(c, k->state, &kn.nstate);
	kn.dur = field_num(c, k->dur);
	if (isnan(kn.dur)) {
		size_t n;
		const char *s = csv_span(c, k->dur, &n);

		bad_row(bad, c, k->dur, s, n);
		return;
	}
	if (odd_time(bad, c, k->dur, kn.dur))
		return;
	if ((op = add_kernel(t, &kn)) == NULL)
		return;
	for (i = 0; i < k->nr; i++) {
		double r = field_num(c, k->rcol[i]);

		if (!isnan(r)) {
			op->ratio[k->ridx[i]] += r * kn.dur;
			op->ratio_dur[k->ridx[i]] += kn.dur;
			w = kn.dur;
		}
	}
	op->ratio_w += w;
}

static char *
read_kernels(struct rank_data *rd, struct optab *t, const char *path)
{
	static const char *const type_names[] = { "Type", "OP Type", NULL };
	static const char *const core_names[] = { "Accelerator Core",
	    "Task Type", NULL };
	static const char *const dur_names[] = { "Duration(us)",
	    "Task Duration(us)", NULL };
	struct kcols k = { 0 };
	struct bad_rows bad = { 0 };
	struct csv *c;
	char **f, *why = NULL;
	size_t nf, i;
	int rc;

	if ((c = csv_open(path, &why)) == NULL) {
		rank_left_out(rd, path, csv_open_reason(path), why);
		return why;
	}
	k.type = csv_col_any(c, type_names);
	k.name = csv_col(c, "Name");
	k.core = csv_col_any(c, core_names);
	k.dur = csv_col_any(c, dur_names);
	k.state = csv_col(c, "OP State");
	if ((k.type < 0 && k.name < 0) || k.dur < 0) {
		why = xasprintf(_("%s: no column %s"), path,
		    k.dur < 0 ? "Duration(us)" : "Type");
		rank_left_out(rd, path, N_("not the CSV expected"), why);
		csv_close(c);
		return why;
	}
	for (i = 0; i < csv_ncols(c) && k.nr < OP_NRATIO; i++)
		if (ends_with(csv_header(c, i), "_ratio")) {
			rd->ratio[rd->nratio] = xstrdup(csv_header(c, i));
			k.rcol[k.nr] = (int)i;
			k.ridx[k.nr++] = (int)rd->nratio++;
		}
	csv_spans(c);
	while ((rc = csv_next(c, &f, &nf, &why)) > 0)
		kernel_row(t, &k, c, &bad);
	csv_left_out(rd, c, path, rc, why, &bad);
	csv_close(c);
	return rc < 0 ? why : NULL;
}

static char *
read_statistic(struct rank_data *rd, struct optab *t, const char *path)
{
	struct csv *c;
	char **f, *why = NULL;
	size_t nf;
	int type, core, count, total, min, max, rc;
	struct bad_rows bad = { 0 };

	if ((c = csv_open(path, &why)) == NULL) {
		rank_left_out(rd, path, csv_open_reason(path), why);
		return why;
	}
	type = csv_col(c, "OP Type");
	core = csv_col(c, "Core Type");
	count = csv_col(c, "Count");
	total = csv_col(c, "Total Time(us)");
	min = csv_col(c, "Min Time(us)");
	max = csv_col(c, "Max Time(us)");
	if (type < 0 || count < 0 || total < 0) {
		csv_close(c);
		why = xasprintf(_("%s: no column OP Type, Count or Total "
		    "Time(us)"), path);
		rank_left_out(rd, path, N_("not the CSV expected"), why);
		return why;
	}
	while ((rc = csv_next(c, &f, &nf, &why)) > 0) {
		char *ty = csv_trim((char *)csv_field(f, nf, type));
		char *co = csv_trim((char *)csv_field(f, nf, core));
		double n = csv_num(csv_field(f, nf, count));
		double tot = csv_num(csv_field(f, nf, total));

		if (*ty == '\0' || is_comm(co, strlen(co), ty, strlen(ty)))
			continue;
		if (isnan(n) || isnan(tot)) {
			int bc = isnan(n) ? count : total;
			const char *bt = csv_field(f, nf, bc);

			bad_row(&bad, c, bc, bt, strlen(bt));
			continue;
		}
		if (odd_time(&bad, c, total, tot / fmax(n, 1)))
			continue;
		op_add_stat(t, optab_get(t, ty, co), (unsigned long)n, tot,
		    csv_num(csv_field(f, nf, min)), csv_num(csv_field(f, nf, max)));
	}
	csv_left_out(rd, c, path, rc, why, &bad);
	csv_close(c);
	return rc < 0 ? why : NULL;
}

/*
 * The db export's kernels: COMPUTE_TASK_INFO (names, types and cores as
 * STRING_IDS) timed by TASK, as kernel_details.csv lists them, a row per
 * kernel and pipe ratio (TASK_PMU_INFO's *_ratio metrics, when collected),
 * in task order so that a kernel's rows come together.  The db records no
 * OP State: no operator is flagged dynamic from it.
 */
static const char kernels_sql[] =
    "SELECT t.rowid, c.globalTaskId, o.value, n.value, k.value, t.startNs, "
    "t.endNs, t.endNs - t.startNs%s FROM COMPUTE_TASK_INFO c "
    "JOIN TASK t ON t.globalTaskId = c.globalTaskId "
    "LEFT JOIN STRING_IDS o ON o.id = c.opType "
    "LEFT JOIN STRING_IDS n ON n.id = c.name "
    "LEFT JOIN STRING_IDS k ON k.id = c.taskType%s "
    "ORDER BY c.globalTaskId";
static const char ratios_sql[] =
    " LEFT JOIN (SELECT p.globalTaskId AS g, s.value AS rn, p.value AS rv "
    "FROM TASK_PMU_INFO p JOIN STRING_IDS s ON s.id = p.name "
    "WHERE s.value LIKE '%\\_ratio' ESCAPE '\\') m ON m.g = c.globalTaskId";

struct db_kernels {
	struct rank_data	*rd;
	struct optab		*t;
	struct op		*op;	/* the kernel's, NULL: not counted */
	double			 id, dur;
	int			 ratio;	/* the kernel has a ratio */
};

/* The rank's index of pipe-ratio metric NAME, added when new; -1: full. */
static int
db_ratio(struct rank_data *rd, const char *name)
{
	size_t i;

	for (i = 0; i < rd->nratio; i++)
		if (strcmp(rd->ratio[i], name) == 0)
			return (int)i;
	if (rd->nratio == OP_NRATIO)
		return -1;
	rd->ratio[rd->nratio] = xstrdup(name);
	return (int)rd->nratio++;
}

static void
db_kernel_done(struct db_kernels *a)
{
	if (a->op != NULL && a->ratio)
		a->op->ratio_w += a->dur;
	a->op = NULL;
	a->ratio = 0;
}

/*
 * TASK's times, checked as kernel_details.csv's Duration(us) is: a task
 * of a kernel has both, and does not end before it starts.
 */
enum { K_ID, K_TYPE, K_NAME, K_CORE, K_START, K_END, K_DUR, K_RNAME,
    K_RATIO, K_NCOL };
static const struct db_check kernel_checks[] = {
	[K_START] = { "TASK.startNs", NULL, 0 },
	[K_END] = { "TASK.endNs", NULL, 0 },
	[K_DUR] = { "TASK.endNs - TASK.startNs", &bound_time_ns, 0 },
};

/* id, type, name, core, start, end, duration (ns)[, ratio name, ratio] */
static int
db_kernel(void *arg, int ncol, const char *const col[], const double num[])
{
	struct db_kernels *a = arg;
	struct kernel k;
	int r;

	if (num[K_ID] != a->id) {
		db_kernel_done(a);
		a->id = num[K_ID];
		a->dur = num[K_DUR] / 1000;
		k = (struct kernel){ col[K_TYPE], col[K_NAME], col[K_CORE], "",
		    strlen(col[K_TYPE]), strlen(col[K_NAME]),
		    strlen(col[K_CORE]), 0, a->dur };
		a->op = add_kernel(a->t, &k);
	}
	if (a->op == NULL || ncol < K_NCOL || *col[K_RNAME] == '\0' ||
	    isnan(num[K_RATIO]) || (r = db_ratio(a->rd, col[K_RNAME])) < 0)
		return 0;
	a->op->ratio[r] += num[K_RATIO] * a->dur;
	a->op->ratio_dur[r] += a->dur;
	a->ratio = 1;
	return 0;
}

/*
 * No COMPUTE_TASK_INFO: no kernel was recorded (the table is written with
 * rows only); with it but without TASK or STRING_IDS, the file is damaged.
 */
static char *
read_db(struct rank_data *rd, struct optab *t, struct db *db)
{
	struct db_kernels a = { rd, t, NULL, NAN, 0, 0 };
	char *sql, *why = NULL;
	int pmu;

	if (!db_has_table(db, "COMPUTE_TASK_INFO"))
		return xasprintf(_("%s: no COMPUTE_TASK_INFO (no device kernel "
		    "recorded)"), db_path(db));
	if ((why = db_need_table(db, "TASK")) != NULL ||
	    (why = db_need_table(db, "STRING_IDS")) != NULL)
		return why;
	pmu = db_has_table(db, "TASK_PMU_INFO");
	sql = xasprintf(kernels_sql, pmu ? ", m.rn, m.rv" : "",
	    pmu ? ratios_sql : "");
	if (db_rows_checked(db, "TASK", sql, kernel_checks,
	    sizeof(kernel_checks) / sizeof(kernel_checks[0]), db_kernel, &a,
	    &why) >= 0)
		db_kernel_done(&a);
	free(sql);
	return why;
}

/*
 * The rank's time compiling operators while the job ran, from
 * api_statistic.csv: its opCompile and (explicit) aclopCompile rows, µs;
 * NaN without the file or those rows.  Read as the other files are: a
 * file there but not readable, of other columns or with damaged records
 * is named as left out.
 */
static double
read_compile(struct rank_data *rd, const char *path)
{
	struct bad_rows bad = { 0 };
	struct csv *c;
	char **f, *why = NULL;
	double t = NAN, v;
	size_t nf;
	int name, time, rc;

	if ((c = csv_open(path, &why)) == NULL) {
		rank_left_out(rd, path, csv_open_reason(path), why);
		free(why);
		return NAN;
	}
	name = csv_col(c, "API Name");
	time = csv_col(c, "Time(us)");
	if (name < 0 || time < 0) {
		why = xasprintf(_("%s: no column %s"), path,
		    name < 0 ? "API Name" : "Time(us)");
		rank_left_out(rd, path, N_("not the CSV expected"), why);
		free(why);
		csv_close(c);
		return NAN;
	}
	while ((rc = csv_next(c, &f, &nf, &why)) > 0) {
		const char *n = csv_trim((char *)csv_field(f, nf, name));
		const char *tt = csv_field(f, nf, time);

		if (strcmp(n, "opCompile") != 0 &&
		    strcmp(n, "aclopCompile") != 0)
			continue;
		if (isnan(v = csv_num(tt)))
			bad_row(&bad, c, time, tt, strlen(tt));
		else if (!odd_time(&bad, c, time, v))
			t = (isnan(t) ? 0 : t) + v;
	}
	csv_left_out(rd, c, path, rc, why, &bad);
	free(why);
	csv_close(c);
	return t;
}

/* What the operators' summary keeps of a rank beside its table. */
struct ops_own {
	double	 compile_us;
};

static void
read_compile_of(struct rank_data *rd, struct rank_files *rf)
{
	struct ops_own *o = xcalloc(1, sizeof(*o));
	char *p = rank_file(rf, "api_statistic.csv");

	o->compile_us = p != NULL ? read_compile(rd, p) : NAN;
	free(p);
	rank_own_set(rd, &kind_ops, o, free);
}

double
ops_compile_us(const struct summary *s, size_t i)
{
	const struct ops_own *o = i < s->nr ? rank_own(&s->r[i], &kind_ops) :
	    NULL;

	return o != NULL ? o->compile_us : NAN;
}

/* On a worker thread: the rank's operators into its own table. */
static void
ops_prepare(const struct summary *s, struct rank_data *rd,
    struct rank_files *rf)
{
	struct db *db;
	char *p;

	read_compile_of(rd, rf);
	rd->ops = optab_new(1);
	if ((p = rank_file(rf, "kernel_details.csv")) != NULL) {
		rd->ops_why = read_kernels(rd, rd->ops, p);
		rd->ops_source = "kernel_details.csv";
	} else if ((p = rank_file(rf, "op_statistic.csv")) != NULL) {
		rd->ops_why = read_statistic(rd, rd->ops, p);
		rd->ops_source = "op_statistic.csv";
	} else if ((db = rank_profiler_db(rf)) != NULL) {
		rd->ops_why = read_db(rd, rd->ops, db);
		rd->ops_source = "ascend_pytorch_profiler_*.db";
	} else if (rank_exports(rd, "db"))
		rd->ops_why = xstrdup(_("db export: no "
		    "ascend_pytorch_profiler_<rank>.db, nor kernel_details.csv "
		    "or op_statistic.csv"));
	else
		rd->ops_why = xstrdup(_("no kernel_details.csv nor "
		    "op_statistic.csv"));
	free(p);
	if (rd->ops_why == NULL && rd->ops->n == 0)
		rd->ops_why = xasprintf(_("%s has no computing operator"),
		    rd->ops_source);
	if (rd->ops_why != NULL) {
		optab_free(rd->ops);
		rd->ops = NULL;
	}
}

/* Each pipe-ratio column's weight, which optab_merge does not add. */
static void
merge_ratio_dur(struct optab *all, const struct optab *t, const int map[])
{
	size_t i, k;

	for (i = 0; i < t->cap; i++) {
		const struct op *src = t->slot[i];
		struct op *dst;

		if (src == NULL)
			continue;
		dst = optab_get(all, src->type, src->core);
		for (k = 0; k < OP_NRATIO; k++)
			if (map[k] >= 0)
				dst->ratio_dur[map[k]] += src->ratio_dur[k];
	}
}

/* In rank order: into the summary's table, the histograms dropped. */
static void
ops_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct ops *o = state;
	int map[OP_NRATIO];
	size_t k;

	if (rd->ops == NULL)
		return;
	for (k = 0; k < OP_NRATIO; k++)
		map[k] = k < rd->nratio ? ratio_index(o, rd->ratio[k]) : -1;
	optab_merge(o->all, rd->ops, map);
	merge_ratio_dur(o->all, rd->ops, map);
	optab_drop_hist(rd->ops);
	if (o->source == NULL || strcmp(o->source, rd->ops_source) == 0)
		o->source = rd->ops_source;
	else
		o->source = strstr(o->source, ".db") == NULL &&
		    strstr(rd->ops_source, ".db") == NULL ?
		    "kernel_details.csv, op_statistic.csv" :
		    "the text and the db export";
	o->made++;
}

int
op_aicpu(const struct op *op)
{
	return op->aicpu_long > 0;
}

int
op_dynamic(const struct op *op)
{
	return op->dynamic > 0;
}

/*
 * Each ratio column averaged over the instances with a value in it: a
 * column left empty by some instances or ranks is not pulled toward 0,
 * and one the operator never fills is no evidence either way.
 */
int
op_low_pipe(const struct summary *s, const struct op *op)
{
	const struct optab *all = ops_all(s, NULL);
	size_t k, filled = 0;

	if (all == NULL || op->total < LOW_PIPE_SHARE * all->total)
		return 0;
	for (k = 0; k < OP_NRATIO; k++) {
		if (!(op->ratio_dur[k] > 0))
			continue;
		filled++;
		if (op->ratio[k] / op->ratio_dur[k] >= LOW_PIPE)
			return 0;
	}
	return filled > 0;
}

static char *
ops_finish(struct summary *s, void *state)
{
	struct ops *o = state;
	size_t i;

	if (o->made == 0) {
		for (i = 0; i < s->nr; i++)
			if (s->r[i].ops_why != NULL)
				return xasprintf(_("no rank has operator data "
				    "(%s: %s)"), s->r[i].name, s->r[i].ops_why);
		return xstrdup(_("no rank has operator data"));
	}
	for (i = 0; i < s->nr; i++)
		if (s->r[i].ops != NULL)
			o->steps += s->r[i].nsteps > 0 ? s->r[i].nsteps : 1;
	return NULL;
}

const struct optab *
ops_all(const struct summary *s, size_t *steps)
{
	const struct ops *o = summary_state(s, &kind_ops);

	if (steps != NULL)
		*steps = o->steps;
	return o->made > 0 ? o->all : NULL;
}

void
op_flags(const struct summary *s, const struct op *op, char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%s%s%s", op_aicpu(op) ? "aicpu " : "",
	    op_dynamic(op) ? "dynamic " : "",
	    op_low_pipe(s, op) ? "low-pipe " : "");
	if ((n = strlen(buf)) > 0)
		buf[n - 1] = '\0';
}

double
op_share(const struct summary *s, const struct op *op)
{
	const struct optab *all = ops_all(s, NULL);

	return all != NULL && all->total > 0 ? op->total / all->total : NAN;
}

static void
ops_free(void *state)
{
	struct ops *o = state;
	size_t i;

	optab_free(o->all);
	for (i = 0; i < o->nratio; i++)
		free(o->ratio[i]);
	free(o);
}

const struct kind kind_ops = {
	"operators", N_("Top operators by device time (all ranks)"),
	ops_init, ops_prepare, ops_rank, ops_finish, ops_free,
};
