/*
 * Device memory per rank, from memory_record.csv (written with
 * profile_memory, msprof-exec's --with memory): the peak of its
 * "Total Reserved(MB)".  The APP rows are the whole process's device
 * memory as the driver counts it (torch_npu's NpuMemoryBean keeps only
 * those of the npu_mem data); without them, the PTA rows (torch_npu's
 * caching allocator, GE's in graph mode) are the best there is.  Against
 * the device's capacity, when the session recorded it (npu-smi's HBM).
 * Whether the peak calls for a change is the rules' (advice/memory.c);
 * the report prints it (report/summary_text.c, summary_json.c,
 * summary_html.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "csv.h"
#include "memory.h"
#include "model.h"

static const struct mem_rank none = { NULL, NULL, NAN };

static const struct mem_rank *
mem_of(const struct rank_data *rd)
{
	const struct mem_rank *m = rank_own(rd, &kind_memory);

	return m != NULL ? m : &none;
}

static void
mem_rank_free(void *p)
{
	struct mem_rank *m = p;

	free(m->why);
	free(m);
}

static void *
memory_init(struct summary *s)
{
	return xcalloc(1, sizeof(struct memory));
}

/* The peak reserved of the APP rows, else of the allocator's rows. */
static char *
read_records(struct rank_data *rd, struct mem_rank *m, const char *path)
{
	struct csv *c;
	struct bad_rows bad = { 0 };
	char **f, *why = NULL;
	double app = NAN, pta = NAN;
	size_t nf;
	int comp, res, rc;

	if ((c = csv_open(path, &why)) == NULL) {
		rank_left_out(rd, path, csv_open_reason(path), why);
		return why;
	}
	comp = csv_col(c, "Component");
	res = csv_col(c, "Total Reserved(MB)");
	if (comp < 0 || res < 0) {
		csv_close(c);
		why = xasprintf(_("%s: no column %s"), path,
		    comp < 0 ? "Component" : "Total Reserved(MB)");
		rank_left_out(rd, path, N_("not the CSV expected"), why);
		return why;
	}
	while ((rc = csv_next(c, &f, &nf, &why)) > 0) {
		const char *who = csv_trim((char *)csv_field(f, nf, comp));
		const char *t = csv_field(f, nf, res);
		double v = csv_num(t);

		if (isnan(v)) {
			bad_row(&bad, c, res, t, strlen(t));
			continue;
		}
		if (odd_bound(&bad, c, res, v, &bound_mem_mb))
			continue;	/* not a peak: "inf", a damaged row */
		if (strcmp(who, "APP") == 0)
			app = isnan(app) ? v : fmax(app, v);
		else
			pta = isnan(pta) ? v : fmax(pta, v);
	}
	csv_left_out(rd, c, path, rc, why, &bad);
	csv_close(c);
	if (rc < 0)
		return why;
	m->peak_mb = isnan(app) ? pta : app;
	m->component = isnan(app) ? "PTA" : "APP";
	if (isnan(m->peak_mb))
		return xasprintf(_("%s: no memory rows"), path);
	return NULL;
}

/*
 * The db export: MEMORY_RECORD is memory_record.csv without its APP rows
 * (bytes, components as STRING_IDS); those are NPU_MEM's "app" rows, the
 * driver's count (ddr + hbm, bytes), as memory_record.csv takes them.  No
 * MEMORY_RECORD: collected without profile_memory, as no CSV.
 */
#define MB	(1024.0 * 1024.0)

struct db_peak {
	double	 app, pta;
};

/* component, reserved (bytes) */
static int
db_peak_row(void *arg, int ncol, const char *const col[], const double num[])
{
	struct db_peak *a = arg;
	double v = num[1] / MB;

	if (strcasecmp(col[0], "APP") == 0)
		a->app = isnan(a->app) ? v : fmax(a->app, v);
	else
		a->pta = isnan(a->pta) ? v : fmax(a->pta, v);
	return 0;
}

/* The reserved memory, checked as memory_record.csv's Total Reserved(MB). */
static const struct db_check record_checks[] = {
	{ NULL }, { "totalReserved", &bound_mem_bytes, 0 },
};
static const struct db_check npu_checks[] = {
	{ NULL }, { "ddr + hbm", &bound_mem_bytes, 0 },
};

static char *
read_db(struct rank_data *rd, struct mem_rank *m, struct db *db)
{
	struct db_peak a = { NAN, NAN };
	char *why = NULL;

	if (!db_has_table(db, "MEMORY_RECORD"))
		return NULL;
	if ((why = db_need_table(db, "STRING_IDS")) != NULL ||
	    db_rows_checked(db, "MEMORY_RECORD", "SELECT m.rowid, s.value, "
	    "m.totalReserved FROM MEMORY_RECORD m LEFT JOIN STRING_IDS s ON "
	    "s.id = m.component", record_checks, 2, db_peak_row, &a,
	    &why) < 0 || (db_has_table(db, "NPU_MEM") &&
	    db_rows_checked(db, "NPU_MEM", "SELECT n.rowid, s.value, "
	    "n.ddr + n.hbm FROM NPU_MEM n JOIN STRING_IDS s ON s.id = n.type "
	    "WHERE s.value = 'app'", npu_checks, 2, db_peak_row, &a,
	    &why) < 0))
		return why;
	m->peak_mb = isnan(a.app) ? a.pta : a.app;
	m->component = isnan(a.app) ? "PTA" : "APP";
	if (isnan(m->peak_mb))
		return xasprintf(_("%s: no memory rows"), db_path(db));
	return NULL;
}

static void
memory_prepare(const struct summary *s, struct rank_data *rd,
    struct rank_files *rf)
{
	char *p = rank_file(rf, "memory_record.csv");
	struct mem_rank *m = xcalloc(1, sizeof(*m));
	struct db *db;

	m->peak_mb = NAN;
	rank_own_set(rd, &kind_memory, m, mem_rank_free);
	if (p != NULL)
		m->why = read_records(rd, m, p);	/* none: no why */
	else if ((db = rank_profiler_db(rf)) != NULL)
		m->why = read_db(rd, m, db);
	free(p);
}

static void
memory_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct memory *m = state;

	m->made += !isnan(mem_of(rd)->peak_mb);
}

static char *
memory_finish(struct summary *s, void *state)
{
	struct memory *m = state;
	size_t i;

	if (m->made > 0)
		return NULL;
	for (i = 0; i < s->nr; i++)
		if (mem_of(&s->r[i])->why != NULL)
			return xasprintf(_("no rank has memory data (%s: %s)"),
			    s->r[i].name, mem_of(&s->r[i])->why);
	return xstrdup(_("no memory_record.csv nor MEMORY_RECORD in the db: "
	    "collected without --with memory"));
}

double
mem_peak_of(const struct summary *s, size_t i)
{
	return mem_of(&s->r[i])->peak_mb;
}

const struct mem_rank *
mem_rank_of(const struct summary *s, size_t i)
{
	return mem_of(&s->r[i]);
}

void
mem_spread(const struct summary *s, double *lo, double *med, double *hi,
    size_t *at)
{
	double *v = xcalloc(s->nr + 1, sizeof(*v));
	size_t i, n = 0;

	*at = 0;
	for (i = 0; i < s->nr; i++)
		if (!isnan(mem_peak_of(s, i))) {
			if (n == 0 || mem_peak_of(s, i) > mem_peak_of(s, *at))
				*at = i;
			v[n++] = mem_peak_of(s, i);
		}
	*med = median(v, n);	/* sorts V */
	*lo = n > 0 ? v[0] : NAN;
	*hi = n > 0 ? v[n - 1] : NAN;
	free(v);
}

static void
memory_free(void *state)
{
	free(state);
}

const struct kind kind_memory = {
	"memory", N_("Device memory (memory_record.csv)"),
	memory_init, memory_prepare, memory_rank, memory_finish, memory_free,
};
