/* Operators in a hash table, with a bounded histogram for the median. */
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
	return t;
}

static uint64_t
hash(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 1099511628211ULL;
	return h;
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
		j = hash(old[i]->type, old[i]->core) & (t->cap - 1);
		while (t->slot[j] != NULL)
			j = (j + 1) & (t->cap - 1);
		t->slot[j] = old[i];
	}
	free(old);
}

const struct op *
optab_find(const struct optab *t, const char *type, const char *core)
{
	size_t j = hash(type, core) & (t->cap - 1);
	const struct op *o;

	for (; (o = t->slot[j]) != NULL; j = (j + 1) & (t->cap - 1))
		if (strcmp(o->type, type) == 0 && strcmp(o->core, core) == 0)
			return o;
	return NULL;
}

struct op *
optab_get(struct optab *t, const char *type, const char *core)
{
	size_t j = hash(type, core) & (t->cap - 1);
	struct op *o;

	for (; (o = t->slot[j]) != NULL; j = (j + 1) & (t->cap - 1))
		if (strcmp(o->type, type) == 0 && strcmp(o->core, core) == 0)
			return o;
	o = xcalloc(1, sizeof(*o));
	o->type = xstrdup(type);
	o->core = xstrdup(core);
	o->min = INFINITY;
	if (t->hist)
		o->hist = xcalloc(HIST_BINS, sizeof(*o->hist));
	t->slot[j] = o;
	if (++t->n * 2 > t->cap)
		grow(t);
	return o;
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

void
op_add(struct optab *t, struct op *o, double dur)
{
	if (o->count < OP_EXACT)
		o->exact[o->count] = (float)dur;
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
		for (k = 0; k < OP_EXACT && k < s->count &&
		    d->count + k < OP_EXACT; k++)
			d->exact[d->count + k] = s->exact[k];
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

static int
cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

double
op_median(const struct op *o)
{
	unsigned long seen = 0, half;
	size_t b;

	if (o->count == 0 || o->nhist != o->count)
		return NAN;
	if (o->count <= OP_EXACT) {
		float v[OP_EXACT];

		memcpy(v, o->exact, o->count * sizeof(*v));
		qsort(v, o->count, sizeof(*v), cmp_float);
		return o->count % 2 ? v[o->count / 2] :
		    ((double)v[o->count / 2 - 1] + v[o->count / 2]) / 2;
	}
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
			free(t->slot[i]);
		}
	free(t->slot);
	free(t);
}
