/*
 * Slow links from communication_matrix.json (or the db export's
 * CommAnalyzerMatrix): each src -> dst link over all steps and operators,
 * its bandwidth the transit size over the transit time (MB/ms, as GB/s),
 * marked slow below 20 % of the median bandwidth of its transport type
 * (HCCS, RDMA, PCIE, SDMA: msprof's rule, with the median for the mean so
 * that one slow link does not hide another); and each rank's volume per
 * transport with its part in small transfers, from communication.json's
 * Size Distribution (or CommAnalyzerBandwidth): RDMA under 1 MB, SDMA
 * under 16 MB; each rank's transfers by size and its collectives by kind
 * (transfers_of).  What they call for is the rules' (advice/communication.c).
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "links.h"
#include "model.h"
#include "strmap.h"

/* Small packets: RDMA under 1 MB, SDMA under 16 MB. */
const double small_mb[COMM_NTRANS] = { 0, 1, 0, 16 };

static void *
links_init(struct summary *s)
{
	struct links *l = xcalloc(1, sizeof(*l));

	l->per = xcalloc(s->nr + 1, sizeof(*l->per));
	return l;
}

static int
skipped_op(const char *op)
{
	return op == NULL || strncasecmp(op, "total", 5) == 0 ||
	    strcasestr(op, "-total") != NULL;
}

/* The decimal digits of V at P: the byte after them. */
static char *
put_uint(char *p, unsigned v)
{
	char t[12];
	int n = 0;

	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		*p++ = t[--n];
	return p;
}

/* "SRC-DST-TR": a link's key, without printf (a million links a job). */
static void
link_key(char *key, int src, int dst, int tr)
{
	char *p = put_uint(key, (unsigned)src);

	*p++ = '-';
	p = put_uint(p, (unsigned)dst);
	*p++ = '-';
	p = put_uint(p, (unsigned)tr);
	*p = '\0';
}

static void
add_link(struct links *l, int src, int dst, int tr, double size, double time)
{
	char key[40];
	struct link **lp;

	if (tr < 0 || src == dst || src < 0 || dst < 0 || isnan(size) ||
	    isnan(time))
		return;
	link_key(key, src, dst, tr);
	lp = (struct link **)strmap_slot(&l->map, key);
	if (*lp == NULL) {
		*lp = xcalloc(1, sizeof(**lp));
		(*lp)->src = src;
		(*lp)->dst = dst;
		(*lp)->tr = tr;
	}
	(*lp)->size += size;
	(*lp)->time += time;
	if (src > l->maxrank)
		l->maxrank = src;
	if (dst > l->maxrank)
		l->maxrank = dst;
}

/*
 * Is a transfer of MB aligned?  The sizes are printed to the byte in
 * decimal MB (2.064384 is 2064384 bytes); those that may be rounded are
 * not judged (comm.c).
 */
static int
aligned(double mb)
{
	double b = floor(mb * BYTES_PER_MB + 0.5);

	return b <= ALIGN_MIN || fmod(b, ALIGN_BYTES) == 0;
}

/*
 * A rank's operators by what they moved over each transport (comm.c):
 * how many moved less than the small size; its collectives by kind; and
 * its HCCS, PCIE and SDMA transfers by alignment (RDMA's packets are the
 * NIC's).
 */
static void
transfers(struct rank_transfers *t, const struct comm *c)
{
	size_t i;

	for (i = 0; i < c->nxfers; i++) {
		const struct comm_xfer *x = &c->xfers[i];

		if (small_mb[x->tr] == 0)
			continue;
		t->xfer_ops[x->tr]++;
		t->xfer_ms[x->tr] += x->ms;
		if (x->mb < small_mb[x->tr]) {
			t->small_ops[x->tr]++;
			t->small_xfer_ms[x->tr] += x->ms;
		}
	}
	for (i = 0; i < c->nops; i++) {
		const char *op = c->pool + c->ops[i].key + c->ops[i].op;

		t->colls++;
		if (strcasestr(op, "allgather") != NULL ||
		    strcasestr(op, "reducescatter") != NULL ||
		    strcasestr(op, "reduce_scatter") != NULL)
			t->sharded_colls++;
	}
	for (i = 0; i < c->nsizes; i++) {
		const struct comm_size *z = &c->sizes[i];

		if (strcmp(comm_transports[z->tr], "RDMA") == 0 ||
		    !z->exact || z->mb * BYTES_PER_MB <= ALIGN_MIN)
			continue;
		t->align_ms += z->ms;
		if (!aligned(z->mb))
			t->unaligned_ms += z->ms;
	}
}

/* A rank's transfers by size (comm.c): how much of it in small ones. */
static void
sizes(struct links *l, size_t who, const struct comm *c)
{
	for (size_t i = 0; i < c->nsizes; i++) {
		const struct comm_size *z = &c->sizes[i];
		double v = z->mb * z->count;

		if (small_mb[z->tr] == 0)
			continue;
		l->per[who].vol_mb[z->tr] += v;
		if (z->mb < small_mb[z->tr])
			l->per[who].small_mb[z->tr] += v;
	}
}

struct db_ln {
	struct links	*l;
	int		 n;
};

static int
db_link(void *arg, int ncol, const char *const col[], const double num[])
{
	struct db_ln *a = arg;

	/* src_rank, dst_rank, transport_type, size, time, hccl_op_name */
	if (skipped_op(col[5]) || isnan(num[0]) || isnan(num[1]))
		return 0;
	add_link(a->l, (int)num[0], (int)num[1], comm_transport(col[2]), num[3],
	    num[4]);
	a->n++;
	return 0;
}

struct db_pk {
	struct links	*l;
	size_t		 who;
};

static int
db_packet(void *arg, int ncol, const char *const col[], const double num[])
{
	struct db_pk *a = arg;
	int tr = comm_transport(col[0]);

	/* transport_type, package_size (MB), count, hccl_op_name */
	if (tr < 0 || small_mb[tr] == 0 || skipped_op(col[3]) ||
	    isnan(num[1]) || isnan(num[2]))
		return 0;
	a->l->per[a->who].vol_mb[tr] += num[1] * num[2];
	if (num[1] < small_mb[tr])
		a->l->per[a->who].small_mb[tr] += num[1] * num[2];
	return 0;
}

/* A rank's collectives by kind, as transfers() counts communication.json's. */
static int
db_coll(void *arg, int ncol, const char *const col[], const double num[])
{
	struct rank_transfers *t = arg;

	/* hccl_op_name, one row per collective */
	if (skipped_op(col[0]))
		return 0;
	t->colls++;
	if (strcasestr(col[0], "allgather") != NULL ||
	    strcasestr(col[0], "reducescatter") != NULL ||
	    strcasestr(col[0], "reduce_scatter") != NULL)
		t->sharded_colls++;
	return 0;
}

/* What one operator moved over one transport, as transfers() counts it. */
static int
db_xfer(void *arg, int ncol, const char *const col[], const double num[])
{
	struct rank_transfers *t = arg;
	int tr = comm_transport(col[0]);

	/* transport_type, transit_size (MB), transit_time (ms), hccl_op_name */
	if (tr < 0 || small_mb[tr] == 0 || skipped_op(col[3]) ||
	    isnan(num[1]) || isnan(num[2]))
		return 0;
	t->xfer_ops[tr]++;
	t->xfer_ms[tr] += num[2];
	if (num[1] < small_mb[tr]) {
		t->small_ops[tr]++;
		t->small_xfer_ms[tr] += num[2];
	}
	return 0;
}

/*
 * The transfers by size and their time, as transfers() judges the
 * alignment of communication.json's: the db keeps the size as a number,
 * to the byte, so every size is exact.
 */
static int
db_align(void *arg, int ncol, const char *const col[], const double num[])
{
	struct rank_transfers *t = arg;
	int tr = comm_transport(col[0]);

	/* transport_type, package_size (MB), total_duration (ms), hccl_op_name */
	if (tr < 0 || strcmp(comm_transports[tr], "RDMA") == 0 ||
	    skipped_op(col[3]) || isnan(num[1]) || isnan(num[2]) ||
	    num[1] * BYTES_PER_MB <= ALIGN_MIN)
		return 0;
	t->align_ms += num[2];
	if (!aligned(num[1]))
		t->unaligned_ms += num[2];
	return 0;
}

/* A rank's transfers, as transfers() counts them, from analysis.db. */
static void
transfers_db(struct rank_transfers *t, struct db *db)
{
	char *why = NULL;

	if (db_has_table(db, "CommAnalyzerTime"))
		db_rows(db, "SELECT DISTINCT hccl_op_name FROM CommAnalyzerTime",
		    db_coll, t, &why);
	free(why);
	why = NULL;
	if (!db_has_table(db, "CommAnalyzerBandwidth"))
		return;
	db_rows(db, "SELECT DISTINCT transport_type, transit_size, "
	    "transit_time, hccl_op_name FROM CommAnalyzerBandwidth",
	    db_xfer, t, &why);
	free(why);
	why = NULL;
	db_rows(db, "SELECT transport_type, package_size, total_duration, "
	    "hccl_op_name FROM CommAnalyzerBandwidth WHERE count > 0",
	    db_align, t, &why);
	free(why);
}

/* A link's size and time, checked as the text export's figures are. */
static const struct db_check matrix_checks[] = {
	{ NULL }, { NULL }, { NULL }, { "transit_size", &bound_size_mb, 0 },
	{ "transit_time", &bound_time_ms, 0 },
};

static void
links_db(struct links *l, size_t who, struct db *db)
{
	struct db_ln a = { l, 0 };
	struct db_pk pk = { l, who };
	char *why = NULL;

	if (db_has_table(db, "CommAnalyzerMatrix") &&
	    db_rows_checked(db, "CommAnalyzerMatrix", "SELECT rowid, src_rank, "
	    "dst_rank, transport_type, transit_size, transit_time, hccl_op_name "
	    "FROM CommAnalyzerMatrix", matrix_checks, 5, db_link, &a, &why) >= 0 &&
	    a.n > 0)
		l->ranks++;
	free(why);
	why = NULL;
	if (db_has_table(db, "CommAnalyzerBandwidth"))
		db_rows(db, "SELECT transport_type, package_size, count, "
		    "hccl_op_name FROM CommAnalyzerBandwidth", db_packet, &pk, &why);
	free(why);
}

static void
links_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct links *l = state;
	size_t who = rd - s->r;
	const struct comm *c = rank_comm(rf);
	struct db *db;

	if (c->matrix.state == 1) {
		for (size_t i = 0; i < c->nlinks; i++)
			add_link(l, c->links[i].src, c->links[i].dst,
			    c->links[i].tr, c->links[i].size, c->links[i].time);
		if (c->nlinks > 0)
			l->ranks++;
	}
	if (c->comm.state == 1) {
		sizes(l, who, c);
		transfers(&l->per[who], c);
	}
	if (c->matrix.state != 1 && c->comm.state != 1 &&
	    (db = rank_db(rf)) != NULL) {
		links_db(l, who, db);
		transfers_db(&l->per[who], db);
	}
}

static void
collect(const char *key, void *val, void *arg)
{
	struct links *l = arg;

	l->v[l->n++] = val;
}

double
link_gb_s(const struct link *k)
{
	return k->time > 0 ? k->size / k->time : NAN;
}

static double
bw(const struct link *k)
{
	return link_gb_s(k);
}

static int
by_bw(const void *a, const void *b)
{
	const struct link *x = *(struct link *const *)a,
	    *y = *(struct link *const *)b;
	double bx = bw(x), by = bw(y);

	if (x->tr != y->tr)
		return x->tr - y->tr;
	if (isnan(bx) || isnan(by))
		return isnan(bx) - isnan(by);
	return (bx > by) - (bx < by);
}

int
link_slow(const struct summary *s, const struct link *k)
{
	const struct links *l = summary_state(s, &kind_links);

	return l->count[k->tr] >= 2 && !isnan(bw(k)) &&
	    bw(k) < SLOW_LINK * l->median[k->tr];
}

size_t
links_all(const struct summary *s, struct link *const **v)
{
	const struct links *l = summary_state(s, &kind_links);

	*v = l->v;
	return l->v != NULL ? l->n : 0;
}

double
link_median(const struct summary *s, int tr)
{
	const struct links *l = summary_state(s, &kind_links);

	return l->median[tr];
}

const struct rank_transfers *
transfers_of(const struct summary *s, size_t i)
{
	const struct links *l = summary_state(s, &kind_links);

	return &l->per[i];
}

/* The median bandwidth of each transport's links (L->v sorted by it). */
static void
medians(struct links *l)
{
	size_t i, k, seen[COMM_NTRANS] = { 0 };
	int tr;

	for (i = 0; i < l->n; i++) {
		tr = l->v[i]->tr;
		if (isnan(bw(l->v[i])))
			continue;
		k = seen[tr]++;
		if (k == (l->count[tr] - 1) / 2)
			l->median[tr] = bw(l->v[i]);
		if (k == l->count[tr] / 2)
			l->median[tr] = (l->median[tr] + bw(l->v[i])) / 2;
	}
}

static char *
links_finish(struct summary *s, void *state)
{
	struct links *l = state;
	size_t i;
	int tr;

	if (l->ranks == 0)
		return xstrdup(_("no rank has communication_matrix.json nor "
		    "CommAnalyzerMatrix (profiler level0 writes none; a single "
		    "rank has no links)"));
	l->v = xcalloc(l->map.n + 1, sizeof(*l->v));
	strmap_each(&l->map, collect, l);
	for (i = 0; i < l->n; i++)
		if (!isnan(bw(l->v[i]))) {
			l->mean[l->v[i]->tr] += bw(l->v[i]);
			l->count[l->v[i]->tr]++;
		}
	for (tr = 0; tr < COMM_NTRANS; tr++)
		if (l->count[tr] > 0)
			l->mean[tr] /= l->count[tr];
	qsort(l->v, l->n, sizeof(*l->v), by_bw);
	medians(l);
	return NULL;
}

static void
links_free(void *state)
{
	struct links *l = state;

	strmap_free(&l->map, free);
	free(l->v);
	free(l->per);
	free(l);
}

const struct kind kind_links = {
	"links", N_("Slow links (communication_matrix.json)"),
	links_init, NULL, links_rank, links_finish, links_free,
};
