/*
 * Operators in a hash table, with every duration kept for an exact median
 * up to a bound, and a bounded histogram past it.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "optab.h"

#define HIST_LO		(-10)		/* 2^-10 µs */
#define HIST_OCT	40		/* up to 2^30 µs */
#define HIST_SUB	16
#define HIST_BINS	(HIST_OCT * HIST_SUB)
_Static_assert(HIST_SUB == 16, "bin() reads four bits of the mantissa");

struct optab *
optab_new(int with_hist)
{
	struct optab *t = xcalloc(1, sizeof(*t));

	t->cap = 64;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	t->hist = with_hist;
	t->keep = with_hist;
	return t;
}

#define FNV_PRIME	1099511628211ULL

/* The last N (< 8) bytes at S as one word, in at most three loads. */
static inline uint64_t
tail(const char *s, size_t n)
{
	uint32_t a, b;

	if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		return (uint64_t)a << 32 | b;
	}
	if (n > 0)
		return (uint64_t)(unsigned char)s[0] << 16 |
		    (uint64_t)(unsigned char)s[n >> 1] << 8 |
		    (unsigned char)s[n - 1];
	return 0;
}

/*
 * FNV-1a a word at a time (the multiply mixes only upwards, so each step
 * also folds the high half down), with the length mixed in: operator
 * names are short, and this is done for every row.
 */
static uint64_t
hash_bytes(uint64_t h, const char *s, size_t n)
{
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * FNV_PRIME;
		h ^= h >> 32;
	}
	h = (h ^ tail(s, n) ^ (uint64_t)n << 56) * FNV_PRIME;
	return h ^ h >> 32;
}

static uint64_t
hash(const char *a, size_t na, const char *b, size_t nb)
{
	return hash_bytes(hash_bytes(1469598103934665603ULL, a, na), b, nb);
}

/* memcmp's answer for short strings without its call. */
static inline int
equal(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	for (; n >= 8; a += 8, b += 8, n -= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	return tail(a, n) == tail(b, n);
}

static void
grow(struct optab *t)
{
	struct op **old = t->slot;
	size_t i, ocap = t->cap;

	t->cap *= 2;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	for (i = 0; i < ocap; i++) {
		size_t j;

		if (old[i] == NULL)
			continue;
		j = old[i]->hash & (t->cap - 1);
		while (t->slot[j] != NULL)
			j = (j + 1) & (t->cap - 1);
		t->slot[j] = old[i];
	}
	free(old);
}

static inline int
same(const struct op *o, uint64_t h, const char *type, size_t ntype,
    const char *core, size_t ncore)
{
	return o->hash == h && o->ntype == ntype && o->ncore == ncore &&
	    equal(o->type, type, ntype) && equal(o->core, core, ncore);
}

const struct op *
optab_find(const struct optab *t, const char *type, const char *core)
{
	size_t nt = strlen(type), nc = strlen(core);
	uint64_t h = hash(type, nt, core, nc);
	size_t j = h & (t->cap - 1);
	const struct op *o;

	for (; (o = t->slot[j]) != NULL; j = (j + 1) & (t->cap - 1))
		if (same(o, h, type, nt, core, nc))
			return o;
	return NULL;
}

struct op *
optab_getn(struct optab *t, const char *type, size_t ntype, const char *core,
    size_t ncore)
{
	uint64_t h = hash(type, ntype, core, ncore);
	size_t j = h & (t->cap - 1);
	struct op *o;

	for (; (o = t->slot[j]) != NULL; j = (j + 1) & (t->cap - 1))
		if (same(o, h, type, ntype, core, ncore))
			return o;
	o = xcalloc(1, sizeof(*o));
	o->type = xstrndup(type, ntype);
	o->core = xstrndup(core, ncore);
	o->ntype = ntype;
	o->ncore = ncore;
	o->hash = h;
	o->min = INFINITY;
	if (t->hist)
		o->hist = xcalloc(HIST_BINS, sizeof(*o->hist));
	t->slot[j] = o;
	if (++t->n * 2 > t->cap)
		grow(t);
	return o;
}

struct op *
optab_get(struct optab *t, const char *type, const char *core)
{
	return optab_getn(t, type, strlen(type), core, strlen(core));
}

/*
 * The bin of D: its binary exponent and the top four bits of its
 * mantissa, read from the bits of the double (frexp's answer, on every
 * row without its cost; subnormals and the rest go through frexp).
 */
static size_t
bin(double d)
{
	uint64_t u;
	int e;
	double m;
	long b;

	if (!(d > 0))
		return 0;
	memcpy(&u, &d, sizeof(u));
	if ((u >> 52) != 0 && (u >> 52) < 0x7ff) {	/* normal, positive */
		e = (int)(u >> 52) - 1022;
		b = (long)(e - 1 - HIST_LO) * HIST_SUB +
		    (long)((u >> 48) & (HIST_SUB - 1));
	} else {
		m = frexp(d, &e);	/* d = m * 2^e, m in [0.5, 1) */
		b = (long)(e - 1 - HIST_LO) * HIST_SUB +
		    (long)((m - 0.5) * 2 * HIST_SUB);
	}
	return b < 0 ? 0 : b >= HIST_BINS ? HIST_BINS - 1 : (size_t)b;
}

static double
bin_mid(size_t b)
{
	int e = (int)(b / HIST_SUB) + HIST_LO;
	double m = 1.0 + ((double)(b % HIST_SUB) + 0.5) / HIST_SUB;

	return ldexp(m, e);
}

/* Free the durations of every operator of T: no exact median from now. */
static void
drop_durations(struct optab *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slot[i] != NULL) {
			free(t->slot[i]->dur);
			t->slot[i]->dur = NULL;
			t->slot[i]->ndur = t->slot[i]->capdur = 0;
		}
	t->keep = 0;
	t->kept = 0;
}

/* Room for N more durations in O of T: 0 when T stops keeping them. */
static int
room_for(struct optab *t, struct op *o, size_t n)
{
	if (!t->keep)
		return 0;
	if (t->kept + n > OPTAB_KEEP) {
		drop_durations(t);
		return 0;
	}
	if (o->ndur + n > o->capdur) {
		size_t cap = o->capdur ? o->capdur : 8;

		while (cap < o->ndur + n)
			cap *= 2;
		o->dur = xreallocarray(o->dur, cap, sizeof(*o->dur));
		o->capdur = cap;
	}
	t->kept += n;
	return 1;
}

void
op_add(struct optab *t, struct op *o, double dur)
{
	if (room_for(t, o, 1))
		o->dur[o->ndur++] = (float)dur;
	o->count++;
	o->nhist++;
	o->total += dur;
	t->total += dur;
	if (dur < o->min)
		o->min = dur;
	if (dur > o->max)
		o->max = dur;
	if (o->hist != NULL)
		o->hist[bin(dur)]++;
}

void
op_add_stat(struct optab *t, struct op *o, unsigned long count, double total,
    double min, double max)
{
	o->count += count;
	o->total += total;
	t->total += total;
	o->min = fmin(o->min, min);
	o->max = fmax(o->max, max);
}

void
optab_drop_hist(struct optab *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slot[i] != NULL) {
			free(t->slot[i]->hist);
			t->slot[i]->hist = NULL;
		}
	t->hist = 0;
	drop_durations(t);
}

void
optab_merge(struct optab *dst, const struct optab *src, const int *ratio_map)
{
	size_t i, k;

	for (i = 0; i < src->cap; i++) {
		const struct op *s = src->slot[i];
		struct op *d;

		if (s == NULL)
			continue;
		d = optab_get(dst, s->type, s->core);
		/* a source without all its durations: no exact median */
		if (dst->keep && s->ndur != s->nhist)
			drop_durations(dst);
		if (s->ndur > 0 && room_for(dst, d, s->ndur)) {
			memcpy(d->dur + d->ndur, s->dur, s->ndur *
			    sizeof(*d->dur));
			d->ndur += s->ndur;
		}
		d->count += s->count;
		d->nhist += s->nhist;
		d->total += s->total;
		d->min = fmin(d->min, s->min);
		d->max = fmax(d->max, s->max);
		d->dynamic += s->dynamic;
		d->aicpu_long += s->aicpu_long;
		d->ratio_w += s->ratio_w;
		for (k = 0; k < OP_NRATIO; k++)
			if (ratio_map == NULL)
				d->ratio[k] += s->ratio[k];
			else if (ratio_map[k] >= 0)
				d->ratio[ratio_map[k]] += s->ratio[k];
		if (d->hist != NULL && s->hist != NULL)
			for (k = 0; k < HIST_BINS; k++)
				d->hist[k] += s->hist[k];
	}
	dst->total += src->total;
}

/*
 * The K-th smallest of the N values V (K < N), Hoare's selection: V is
 * reordered so that none before the K-th is larger than it.
 */
static float
select_nth(float *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, i, j, at = (long)k;
	float pivot, x;

	while (lo < hi) {
		pivot = v[lo + (hi - lo) / 2];
		for (i = lo, j = hi; i <= j;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				x = v[i];
				v[i++] = v[j];
				v[j--] = x;
			}
		}
		if (at <= j)
			hi = j;
		else if (at >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

int
op_exact(const struct op *o)
{
	return o->count > 0 && o->nhist == o->count && o->ndur == o->count;
}

/* The median of the N (> 0) durations kept in O. */
static double
exact_median(const struct op *o, size_t n)
{
	float *v = xcalloc(n, sizeof(*v)), hi, lo;
	size_t i;

	memcpy(v, o->dur, n * sizeof(*v));
	hi = select_nth(v, n, n / 2);
	if (n % 2) {
		free(v);
		return hi;
	}
	/* the other middle one: the largest below the upper half */
	lo = v[0];
	for (i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	free(v);
	return ((double)lo + hi) / 2;
}

double
op_median(const struct op *o)
{
	unsigned long seen = 0, half;
	size_t b;

	if (o->count == 0 || o->nhist != o->count)
		return NAN;
	if (op_exact(o))
		return exact_median(o, o->ndur);
	if (o->hist == NULL)
		return NAN;
	half = (o->count + 1) / 2;
	for (b = 0; b < HIST_BINS; b++)
		if ((seen += o->hist[b]) >= half)
			return fmin(fmax(bin_mid(b), o->min), o->max);
	return o->max;
}

static int
by_total(const void *a, const void *b)
{
	const struct op *x = *(struct op *const *)a, *y = *(struct op *const *)b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->type, y->type);
}

struct op **
optab_sorted(const struct optab *t)
{
	struct op **v = xcalloc(t->n + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < t->cap; i++)
		if (t->slot[i] != NULL)
			v[n++] = t->slot[i];
	qsort(v, n, sizeof(*v), by_total);
	return v;
}

void
optab_free(struct optab *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->cap; i++)
		if (t->slot[i] != NULL) {
			free(t->slot[i]->type);
			free(t->slot[i]->core);
			free(t->slot[i]->hist);
			free(t->slot[i]->dur);
			free(t->slot[i]);
		}
	free(t->slot);
	free(t);
}

int
op_type_unknown(const char *type, size_t n)
{
	return n == 0 || (n == 3 && memcmp(type, "N/A", 3) == 0);
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * torch_npu names a kernel after its operator in three ways, and level1
 * writes that operator in Type, so each rule below is the one that gives
 * level1's Type for the same kernel name:
 * - aclnn kernels, "aclnnMm_MatMulCommon_MatMulV2": the API, the tiling
 *   and the kernel's type, the last part ("MatMulV2"; "..._MemSet" is a
 *   MemSet).  Digits there belong to the type (V2, Pool3d).
 * - kernels GE inserts, "trans_TransData_17", and communication tasks,
 *   "hcom_allReduce__868_0_1": numbered with "_<n>" parts.  Without them
 *   the former's type is the last part ("TransData"), the latter's the
 *   whole stem ("hcom_allReduce_", which is what Type holds for them).
 * - graph nodes, "Conv2D1", "ReduceSum7", "AxpyV2102": the type and the
 *   node's index, run together.  The trailing digits are the index,
 *   except that a type's version is a "V" and one digit (MaxPoolWithArg-
 *   maxV1, LogSoftmaxV2), which stays.
 * Atomic memsets, "atomic_memset-1_271", are MemSet.  What no name says
 * stays unknown: level1 calls some graph nodes by the variant that ran
 * (ReduceSum7 is a ReduceSumD there) and fused nodes by their kernel.
 */
const char *
op_type_of_name(const char *name, size_t n, size_t *len)
{
	size_t end = n, k, start;

	*len = n;
	if (n >= 13 && memcmp(name, "atomic_memset", 13) == 0) {
		*len = 6;
		return "MemSet";
	}
	/* The "_<n>" numbers at the end. */
	for (;;) {
		k = end;
		while (k > 0 && is_digit(name[k - 1]))
			k--;
		if (k == end || k < 2 || name[k - 1] != '_')
			break;
		end = k - 1;
	}
	if (end == 0)
		return name;
	if (n >= 5 && memcmp(name, "hcom_", 5) == 0) {
		*len = end;
		return name;
	}
	for (start = end; start > 0 && name[start - 1] != '_'; start--)
		continue;
	if (start > 0) {
		if (start == end)
			return name;
		*len = end - start;
		return name + start;
	}
	/* A graph node: its index dropped, a version digit kept. */
	k = end;
	while (k > 0 && is_digit(name[k - 1]))
		k--;
	if (k == 0)
		return name;
	if (k < end && name[k - 1] == 'V')
		k++;
	*len = k;
	return name;
}
