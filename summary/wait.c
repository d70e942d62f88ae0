/*
 * Which rank the collectives wait for, from communication.json (or the db
 * export's CommAnalyzerTime).  Ranks that arrive early at a collective
 * wait, so all its ranks end together and the one with the shortest
 * elapse arrived last.  Per collective that rank gets a vote when it is an
 * outlier: Dixon's Q test at 99.5 % up to 100 ranks, else more than
 * 3 sigma below the mean (msprof-analyze's slow_rank).  Point-to-point
 * operators (send, receive) are left out, and so is a communication group
 * whose collectives were not all seen by the same number of ranks.  Each
 * rank's votes and mean Wait Time Ratio and Synchronization Time Ratio
 * are given by wait_of (read by advice/communication.c).  A collective
 * of two ranks has no outlier: the one with the shorter elapse arrived
 * last, counted apart (wait_pair, read by advice/steps.c).
 */
#include <ctype.h>
#include <err.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "model.h"
#include "strmap.h"
#include "wait.h"

#define DIXON_MAX	100

/* Dixon's one-sided critical values at 99.5 %, n = 3 .. 100. */
static const double dixon995[DIXON_MAX + 1] = {
	[3] = 0.994, 0.920, 0.823, 0.744, 0.680, 0.723, 0.676, 0.638, 0.707,
	0.675, 0.649, 0.672, 0.649, 0.629, 0.611, 0.595, 0.580, 0.568, 0.556,
	0.545, 0.536, 0.526, 0.519, 0.510, 0.503, 0.496, 0.489, 0.484, 0.478,
	0.473, 0.468, 0.463, 0.458, 0.454, 0.450, 0.446, 0.442, 0.439, 0.435,
	0.432, 0.429, 0.425, 0.423, 0.420, 0.417, 0.414, 0.412, 0.409, 0.407,
	0.405, 0.402, 0.400, 0.398, 0.396, 0.394, 0.392, 0.391, 0.388, 0.387,
	0.385, 0.383, 0.382, 0.380, 0.379, 0.377, 0.376, 0.374, 0.372, 0.371,
	0.370, 0.368, 0.368, 0.366, 0.365, 0.364, 0.363, 0.361, 0.360, 0.359,
	0.358, 0.356, 0.356, 0.355, 0.353, 0.352, 0.352, 0.351, 0.350, 0.349,
	0.348, 0.347, 0.346, 0.345, 0.344, 0.344, 0.343, 0.341, 0.341,
};

/*
 * One operator of a group in a step: the ranks that took part, their
 * elapse, Wait Time and transit time.  A send or receive (P2P) casts no
 * vote: its ranks need not arrive together.
 */
struct inst {
	char		*group;
	size_t		 n, cap;
	struct member {
		size_t	 who;		/* index into s->r */
		double	 elapse, wait_ms, xfer_ms;
	}		*m;
	int		 p2p;
	unsigned char	 kind;		/* enum comm_kind */
};

/* A rank's communication by group and kind, ms over its profiled steps. */
struct rank_split {
	struct gpart {
		double	 elapse, wait, xfer;
	}		 part[CG_N][CK_N];
	double		 stage_wait[COMM_STAGES];
	size_t		 steps;
};

const char *const comm_group_names[CG_N] = {
	"dp", "tp", "pp", "cp", "ep", "other", "unnamed",
};
const char *const comm_kind_names[CK_N] = {
	"all-reduce", "reduce-scatter", "all-gather", "all-to-all",
	"send/receive", "broadcast", "other",
};

static void *
wait_init(struct summary *s)
{
	struct wait *w = xcalloc(1, sizeof(*w));

	w->wait_sum = xcalloc(s->nr + 1, sizeof(double));
	w->sync_sum = xcalloc(s->nr + 1, sizeof(double));
	w->nratio = xcalloc(s->nr + 1, sizeof(size_t));
	w->votes = xcalloc(s->nr + 1, sizeof(size_t));
	w->seen = xcalloc(s->nr + 1, sizeof(size_t));
	w->seen2 = xcalloc(s->nr + 1, sizeof(size_t));
	w->last2 = xcalloc(s->nr + 1, sizeof(size_t));
	w->split = xcalloc(s->nr + 1, sizeof(*w->split));
	return w;
}

static int
point_to_point(const char *op)
{
	char low[256];
	size_t i;

	for (i = 0; op[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)op[i]);
	low[i] = '\0';
	return strstr(low, "send") != NULL || strstr(low, "receive") != NULL ||
	    strstr(low, "recv") != NULL;
}

/* The kind of operator OP ("hcom_reduceScatter__097_4_1"). */
static int
op_kind(const char *op, int p2p)
{
	static const struct {
		const char	*part;
		int		 kind;
	} kinds[] = {
		{ "allreduce", CK_ALLREDUCE }, { "reducescatter", CK_REDUCESCATTER },
		{ "allgather", CK_ALLGATHER }, { "alltoall", CK_ALLTOALL },
		{ "send", CK_SENDRECV }, { "recv", CK_SENDRECV },
		{ "receive", CK_SENDRECV }, { "broadcast", CK_BROADCAST },
	};
	char low[256];
	size_t i, k = 0;

	for (i = 0; op[i] && k < sizeof(low) - 1; i++)
		if (op[i] != '_' && op[i] != '-')
			low[k++] = (char)tolower((unsigned char)op[i]);
	low[k] = '\0';
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strstr(low, kinds[i].part) != NULL)
			return kinds[i].kind;
	return p2p ? CK_SENDRECV : CK_OTHER;
}

/* An operator's figures as one rank saw it. */
struct seen {
	double	 elapse, wait_ratio, sync_ratio, wait_ms, xfer_ms;
	int	 p2p;
};

/*
 * One rank's part in the operator KEY (group, step and operator joined
 * by \037, the group its first GLEN bytes), operator OP: 1 when it is a
 * collective compared.
 */
static int
add_op(struct wait *w, size_t who, const char *key, size_t glen,
    const char *op, const struct seen *v)
{
	struct inst **ip, *in;
	int p2p = v->p2p || point_to_point(op);

	if (isnan(v->elapse))
		return 0;
	ip = (struct inst **)strmap_slot(&w->inst, key);
	if ((in = *ip) == NULL) {
		in = *ip = xcalloc(1, sizeof(*in));
		in->group = xstrndup(key, glen);
		in->p2p = p2p;
		in->kind = (unsigned char)op_kind(op, p2p);
	}
	if (in->n == in->cap) {
		/* a send's or receive's ranks are two: room for them first */
		in->cap = in->cap ? in->cap * 2 : 2;
		in->m = xreallocarray(in->m, in->cap, sizeof(*in->m));
	}
	in->m[in->n++] = (struct member){ who, v->elapse, v->wait_ms,
	    v->xfer_ms };
	if (in->p2p)
		return 0;
	if (!isnan(v->wait_ratio) && !isnan(v->sync_ratio)) {
		w->wait_sum[who] += v->wait_ratio;
		w->sync_sum[who] += v->sync_ratio;
		w->nratio[who]++;
	}
	return 1;
}

/* Count the step of KEY ("group\037step\037op") in STEPS. */
static void
count_step(struct strmap *steps, const char *key, size_t glen)
{
	const char *st = key + glen + 1, *end = strchr(st, '\037');
	char *one = end != NULL ? xstrndup(st, (size_t)(end - st)) :
	    xstrdup(st);

	*strmap_slot(steps, one) = (void *)1;
	free(one);
}

static void
count_one(const char *key, void *val, void *arg)
{
	(*(size_t *)arg)++;
}

/*
 * The collectives of communication.json, read by comm.c: how many were
 * added (not those with a null elapse, nor send and receive).
 */
static size_t
from_comm(struct wait *w, size_t who, const struct comm *c)
{
	struct strmap steps = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < c->nops; i++) {
		const struct comm_op *o = &c->ops[i];
		const char *key = c->pool + o->key;
		struct seen v = { o->elapse, o->wait_ratio, o->sync_ratio,
		    o->wait_ms, o->xfer_ms, o->p2p };

		n += add_op(w, who, key, o->glen, key + o->op, &v);
		count_step(&steps, key, o->glen);
	}
	strmap_each(&steps, count_one, &w->split[who].steps);
	strmap_free(&steps, NULL);
	return n;
}

struct db_arg {
	struct wait	*w;
	size_t		 who;
	int		 n;
	struct strmap	 steps;
};

static double
ratio(double part, double transit)
{
	return part + transit > 0 ? part / (part + transit) : NAN;
}

static int
db_row(void *arg, int ncol, const char *const col[], const double num[])
{
	struct db_arg *a = arg;

	/* hccl_op_name, group_name, step, elapse, transit, wait, sync, type */
	char *key = xasprintf("%s\037%s\037%s", col[1],
	    comm_step_number(col[2]), col[0]);
	struct seen v = { num[3], ratio(num[5], num[4]), ratio(num[6], num[4]),
	    num[5], isfinite(num[4]) ? num[4] : 0,
	    col[7] != NULL && strcmp(col[7], "p2p") == 0 };

	a->n += add_op(a->w, a->who, key, strlen(col[1]), col[0], &v);
	count_step(&a->steps, key, strlen(col[1]));
	free(key);
	return 0;
}

/*
 * The kind of a Megatron group name of parallel_group_info.  The
 * embedding's group joins the first and the last pipeline stage: its
 * waiting is the pipeline's.
 */
static int
group_kind(const char *name)
{
	static const struct {
		const char	*name;
		int		 kind;
	} names[] = {
		{ "dp", CG_DP }, { "dp_cp", CG_DP }, { "intra_dp_cp", CG_DP },
		{ "edp", CG_DP }, { "exp_dp", CG_DP }, { "dp_modulo_exp", CG_DP },
		{ "tp", CG_TP }, { "pp", CG_PP }, { "embd", CG_PP },
		{ "pos_embd", CG_PP }, { "cp", CG_CP }, { "ep", CG_EP },
		{ "exp", CG_EP }, { "tp_ep", CG_EP },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i].name) == 0)
			return names[i].kind;
	return CG_OTHER;
}

/*
 * torch_npu's communication files name a group by a hash of its HCCL
 * name: two 32-bit polynomial hashes (primes 29 and 131) side by side,
 * as msprof-analyze's double_hash matches them.
 */
static uint64_t
double_hash(const char *s)
{
	uint32_t a = 0, b = 0;

	for (; *s; s++) {
		a = a * 29 + (unsigned char)*s;
		b = b * 131 + (unsigned char)*s;
	}
	return (uint64_t)a << 32 | b;
}

/* The rank's groups into the map: by HCCL name and by its hash. */
static void
group_names(struct wait *w, const struct rank_data *rd)
{
	char num[32];

	for (size_t i = 0; i < rd->groups.n; i++) {
		const char *e = rd->groups.v[i], *eq = strchr(e, '=');
		char *key;
		void **slot;

		if (eq == NULL)
			continue;
		key = xstrndup(e, (size_t)(eq - e));
		snprintf(num, sizeof(num), "%" PRIu64, double_hash(key));
		if (*(slot = strmap_slot(&w->gmap, key)) == NULL)
			*slot = (void *)(uintptr_t)(group_kind(eq + 1) + 1);
		if (*(slot = strmap_slot(&w->gmap, num)) == NULL)
			*slot = (void *)(uintptr_t)(group_kind(eq + 1) + 1);
		free(key);
		w->named = 1;
	}
}

static void
wait_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct wait *w = state;
	size_t who = rd - s->r;
	const struct comm *c = rank_comm(rf);
	struct db *db;

	group_names(w, rd);
	/* a rank counts when some collective of it is compared */
	if (c->comm.state == 1) {
		if (from_comm(w, who, c) > 0)
			w->ranks++;
		return;
	}
	if ((db = rank_db(rf)) != NULL && db_has_table(db, "CommAnalyzerTime")) {
		struct db_arg a = { w, who, 0, { 0 } };
		char *dwhy = NULL;

		if (db_rows(db, "SELECT hccl_op_name, group_name, step, "
		    "elapse_time, transit_time, wait_time, synchronization_time, "
		    "type FROM CommAnalyzerTime WHERE type IN ('collective', "
		    "'p2p')", db_row, &a, &dwhy) == 0 && a.n > 0)
			w->ranks++;
		strmap_each(&a.steps, count_one, &w->split[who].steps);
		strmap_free(&a.steps, NULL);
		free(dwhy);
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The index of the rank others waited for in IN, or -1. */
static long
dixon(const struct inst *in)
{
	double *x = xcalloc(in->n, sizeof(*x)), q = 0, num, den;
	size_t n = in->n, i;
	long at = -1;

	for (i = 0; i < n; i++)
		x[i] = in->m[i].elapse;
	qsort(x, n, sizeof(*x), cmp_double);
	if (n <= 7) {
		num = x[1] - x[0];
		den = x[n - 1] - x[0];
	} else if (n <= 10) {
		num = x[1] - x[0];
		den = x[n - 2] - x[0];
	} else if (n <= 13) {
		num = x[2] - x[0];
		den = x[n - 2] - x[0];
	} else {
		num = x[2] - x[0];
		den = x[n - 3] - x[0];
	}
	if (den > 0)
		q = num / den;
	if (q > dixon995[n])
		for (i = 0; i < n; i++)
			if (in->m[i].elapse == x[0]) {
				at = (long)i;
				break;
			}
	free(x);
	return at;
}

/*
 * Over 100 ranks: the shortest when it is more than 3 sigma below the
 * mean.  A long elapse far above the mean is a rank that waited, not one
 * that was waited for: it casts no vote.
 */
static long
three_sigma(const struct inst *in)
{
	double mean = 0, var = 0, sd, lo = INFINITY;
	size_t i;
	long at = -1;

	for (i = 0; i < in->n; i++)
		mean += in->m[i].elapse;
	mean /= in->n;
	for (i = 0; i < in->n; i++) {
		var += (in->m[i].elapse - mean) * (in->m[i].elapse - mean);
		if (in->m[i].elapse < lo) {
			lo = in->m[i].elapse;
			at = (long)i;
		}
	}
	sd = sqrt(var / in->n);
	return sd > 0 && lo < mean - 3 * sd ? at : -1;
}

struct group_check {
	struct strmap	 size;		/* group -> first instance's rank count */
	struct strmap	 bad;		/* group -> non-NULL when counts differ */
};

static void
check_group(const char *key, void *val, void *arg)
{
	struct group_check *g = arg;
	struct inst *in = val;
	void **first;

	if (in->p2p)
		return;
	first = strmap_slot(&g->size, in->group);

	if (*first == NULL)
		*first = (void *)(uintptr_t)in->n;
	else if ((size_t)(uintptr_t)*first != in->n)
		*strmap_slot(&g->bad, in->group) = (void *)1;
}

struct vote_arg {
	struct wait		*w;
	struct group_check	*g;
};

static void
vote(const char *key, void *val, void *arg)
{
	struct vote_arg *a = arg;
	struct inst *in = val;
	size_t i;
	long at;

	if (in->p2p)
		return;
	if (in->n == 2 && in->m[0].who != in->m[1].who &&
	    in->m[0].elapse != in->m[1].elapse) {
		a->w->counted2++;
		a->w->seen2[in->m[0].who]++;
		a->w->seen2[in->m[1].who]++;
		a->w->last2[in->m[in->m[1].elapse < in->m[0].elapse].who]++;
	}
	if (in->n < 3 || strmap_get(&a->g->bad, in->group) != NULL)
		return;
	a->w->counted++;
	for (i = 0; i < in->n; i++)
		a->w->seen[in->m[i].who]++;
	at = in->n <= DIXON_MAX ? dixon(in) : three_sigma(in);
	if (at >= 0) {
		a->w->votes[in->m[at].who]++;
		a->w->voted++;
	}
}

static void
count_bad(const char *key, void *val, void *arg)
{
	(*(size_t *)arg)++;
}

struct rank_wait
wait_of(const struct summary *s, size_t i)
{
	const struct wait *w = summary_state(s, &kind_wait);
	struct rank_wait r = { w->votes[i], w->seen[i], NAN, NAN };

	if (w->nratio[i] > 0) {
		r.wait_ratio = w->wait_sum[i] / w->nratio[i];
		r.sync_ratio = w->sync_sum[i] / w->nratio[i];
	}
	return r;
}

struct pair_arg {
	size_t			 a, b;
	struct pair_wait	 p;
};

static void
pair_one(const char *key, void *val, void *arg)
{
	struct pair_arg *pa = arg;
	struct inst *in = val;
	int first_a;

	if (in->p2p || in->n != 2 || in->m[0].elapse == in->m[1].elapse)
		return;
	if (in->m[0].who == pa->a && in->m[1].who == pa->b)
		first_a = 1;
	else if (in->m[0].who == pa->b && in->m[1].who == pa->a)
		first_a = 0;
	else
		return;
	pa->p.n++;
	/* the shorter elapse arrived last */
	if ((in->m[0].elapse < in->m[1].elapse) == first_a)
		pa->p.a_last++;
	else
		pa->p.b_last++;
}

struct pair_wait
wait_pair(const struct summary *s, size_t a, size_t b)
{
	const struct wait *w = summary_state(s, &kind_wait);
	struct pair_arg pa = { a, b, { 0, 0, 0 } };

	if (w != NULL)
		strmap_each(&w->inst, pair_one, &pa);
	return pa.p;
}

struct split_arg {
	struct wait		*w;
	const struct summary	*s;
	struct layout		 lay;
};

/*
 * An operator's time on each of its ranks: the part above the shortest
 * elapse of its ranks waited for the rank that arrived last (that one
 * with the file's Wait Time when no other rank of it was read), and its
 * transit time, within the rest.
 */
static void
split_one(const char *key, void *val, void *arg)
{
	struct split_arg *a = arg;
	struct inst *in = val;
	void *gk = strmap_get(&a->w->gmap, in->group);
	int g = gk != NULL ? (int)(uintptr_t)gk - 1 : CG_UNNAMED, st;
	double lo = INFINITY, e, wt;
	size_t i, last = 0;

	for (i = 0; i < in->n; i++)
		if (in->m[i].elapse < lo) {
			lo = in->m[i].elapse;
			last = i;
		}
	for (i = 0; i < in->n; i++) {
		struct rank_split *sp = &a->w->split[in->m[i].who];
		struct gpart *p = &sp->part[g][in->kind];

		e = fmax(in->m[i].elapse, 0);
		if (in->n >= 2)
			wt = fmax(e - lo, 0);
		else
			wt = isnan(in->m[i].wait_ms) ? 0 :
			    fmin(fmax(in->m[i].wait_ms, 0), e);
		p->elapse += e;
		p->wait += wt;
		p->xfer += fmin(fmax(in->m[i].xfer_ms, 0), e - wt);
		/* the pipeline's groups: a stage waits for another there */
		if (in->n >= 2 && wt > 0 && g == CG_PP) {
			st = layout_stage(&a->lay,
			    a->s->r[in->m[last].who].rank);
			sp->stage_wait[st < COMM_STAGES ? st : COMM_STAGES - 1] +=
			    wt;
		}
	}
}

/* Communication(Not Overlapped) / Communication: 1 without a breakdown. */
static double
exposed_share(const struct rank_data *r)
{
	if (r->steps_why != NULL || !(r->mean.comm > 0))
		return 1;
	return fmin(fmax(r->mean.comm_exposed / r->mean.comm, 0), 1);
}

struct comm_split
comm_split_of(const struct summary *s, size_t i, int g, int k)
{
	const struct wait *w = summary_state(s, &kind_wait);
	struct comm_split c = { 0, 0, 0 };
	const struct rank_split *sp;
	int k0 = k == CK_N ? 0 : k, k1 = k == CK_N ? CK_N : k + 1;
	double f;

	if (w == NULL || i >= s->nr || g < 0 || g >= CG_N || k0 < 0 ||
	    k1 > CK_N || (sp = &w->split[i])->steps == 0)
		return c;
	f = exposed_share(&s->r[i]) / (double)sp->steps;
	for (k = k0; k < k1; k++) {
		c.exposed += sp->part[g][k].elapse * f;
		c.wait += sp->part[g][k].wait * f;
		c.xfer += sp->part[g][k].xfer * f;
	}
	return c;
}

double
comm_wait_for_stage(const struct summary *s, size_t i, int p)
{
	const struct wait *w = summary_state(s, &kind_wait);
	const struct rank_split *sp;

	if (w == NULL || i >= s->nr || p < 0 || p >= COMM_STAGES ||
	    (sp = &w->split[i])->steps == 0)
		return 0;
	return sp->stage_wait[p] * exposed_share(&s->r[i]) / (double)sp->steps;
}

int
comm_groups_named(const struct summary *s)
{
	const struct wait *w = summary_state(s, &kind_wait);

	return w != NULL && w->named;
}

static char *
wait_finish(struct summary *s, void *state)
{
	struct wait *w = state;
	struct group_check g = { { 0 }, { 0 } };
	struct vote_arg a = { w, &g };
	struct split_arg sa = { w, s, { 0 } };

	summary_layout(s, &sa.lay);
	strmap_each(&w->inst, split_one, &sa);

	if (w->ranks == 0)
		return xstrdup(_("no rank has communication.json nor "
		    "CommAnalyzerTime (profiler level0 writes none; a single "
		    "rank has no collectives)"));
	strmap_each(&w->inst, check_group, &g);
	strmap_each(&g.bad, count_bad, &w->dropped_groups);
	strmap_each(&w->inst, vote, &a);
	strmap_free(&g.size, NULL);
	strmap_free(&g.bad, NULL);
	return NULL;
}

int
wait_by_votes(const void *a, const void *b, void *arg)
{
	const struct wait *w = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t vx = w->votes[x], vy = w->votes[y];

	return vx != vy ? (vy > vx) - (vy < vx) : (x > y) - (x < y);
}

size_t
wait_split_most(const struct summary *s, int g, int k, size_t *most,
    double *mean)
{
	size_t i, n = 0;
	double sum = 0, best = 0;
	struct comm_split c;

	for (i = 0; i < s->nr; i++) {
		c = comm_split_of(s, i, g, k);
		if (!(c.exposed > 0))
			continue;
		n++;
		sum += c.exposed;
		if (c.exposed > best) {
			best = c.exposed;
			*most = i;
		}
	}
	*mean = n > 0 ? sum / n : 0;
	return n;
}

static void
free_inst(void *v)
{
	struct inst *in = v;

	free(in->group);
	free(in->m);
	free(in);
}

static void
wait_free(void *state)
{
	struct wait *w = state;

	strmap_free(&w->inst, free_inst);
	strmap_free(&w->gmap, NULL);
	free(w->split);
	free(w->wait_sum);
	free(w->sync_sum);
	free(w->nratio);
	free(w->votes);
	free(w->seen);
	free(w->seen2);
	free(w->last2);
	free(w);
}

const struct kind kind_wait = {
	"wait", N_("Which rank the collectives wait for (communication.json)"),
	wait_init, NULL, wait_rank, wait_finish, wait_free,
};
