/*
 * Device memory per rank, from memory_record.csv (written with
 * profile_memory, msprof-exec's --with memory): the peak of its
 * "Total Reserved(MB)".  The APP rows are the whole process's device
 * memory as the driver counts it (torch_npu's NpuMemoryBean keeps only
 * those of the npu_mem data); without them, the PTA rows (torch_npu's
 * caching allocator, GE's in graph mode) are the best there is.  Against
 * the device's capacity, when the session recorded it (npu-smi's HBM).
 * Whether the peak calls for a change is the rules' (advice/memory.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "csv.h"
#include "model.h"

struct memory {
	size_t	 made;
};

/* What the summary keeps of a rank: whose peak it is, or why none. */
struct mem_rank {
	const char	*component;	/* "APP" or "PTA" */
	char		*why;
	double		 peak_mb;	/* NaN when unknown */
};

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

/* The lowest, median and highest peak, and the rank of the highest. */
static void
spread(const struct summary *s, double *lo, double *med, double *hi,
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
			    mem_of(&s->r[i])->why != NULL ?
			    mem_of(&s->r[i])->why : _("no memory_record.csv"));
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
memory_print(const struct summary *s, const void *state, struct out *o)
{
	const struct memory *m = state;
	double lo, med, hi, cap = s->opts.device_mb;
	size_t at;
	char lab[LABEL_MAX];

	spread(s, &lo, &med, &hi, &at);
	fprintf(o->fp, _("  %zu of %zu ranks; peak reserved (%s), MB: lowest "
	    "%.0f, median %.0f, highest %.0f (%s)\n"), m->made, s->nr,
	    mem_of(&s->r[at])->component, lo, med, hi,
	    rank_label(&s->r[at], lab, sizeof(lab)));
	if (cap > 0)
		fprintf(o->fp, _("  device memory %.0f MB (npu-smi): the highest "
		    "peak is %.1f %% of it\n"), cap, 100 * hi / cap);
	else
		fprintf(o->fp, _("  device memory: not known (a run under "
		    "msprof-exec records what npu-smi shows)\n"));
	print_missing(s, m, o);
}

static cJSON *
memory_json(const struct summary *s, const void *state)
{
	cJSON *j = cJSON_CreateObject(), *a;
	size_t i;

	if (s->opts.device_mb > 0)
		cJSON_AddNumberToObject(j, "device_mb", s->opts.device_mb);
	else
		cJSON_AddNullToObject(j, "device_mb");
	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		cJSON *x = cJSON_CreateObject();

		json_rank(x, "rank", r->rank);
		if (isnan(mem_of(r)->peak_mb))
			cJSON_AddStringToObject(x, "why", mem_of(r)->why !=
			    NULL ? mem_of(r)->why : "no memory_record.csv");
		else {
			cJSON_AddNumberToObject(x, "peak_mb", mem_of(r)->peak_mb);
			cJSON_AddStringToObject(x, "component",
			    mem_of(r)->component);
		}
		cJSON_AddItemToArray(a, x);
	}
	return j;
}

static void
memory_html(const struct summary *s, const void *state, FILE *fp)
{
	double lo, med, hi, cap = s->opts.device_mb;
	size_t at;

	spread(s, &lo, &med, &hi, &at);
	fprintf(fp, "<p>Peak reserved (%s), MB: lowest %.0f, median %.0f, "
	    "highest %.0f", mem_of(&s->r[at])->component, lo, med, hi);
	if (cap > 0)
		fprintf(fp, "; device memory %.0f MB (%.1f %%)", cap,
		    100 * hi / cap);
	fputs(".</p>\n", fp);
}

static void
memory_free(void *state)
{
	free(state);
}

const struct kind kind_memory = {
	"memory", N_("Device memory (memory_record.csv)"),
	memory_init, memory_prepare, memory_rank, memory_finish, memory_print,
	memory_json, memory_html, memory_free,
};
