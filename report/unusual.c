/* What is unusual about an output's rank directories (see unusual.h). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "unusual.h"

static void
add(struct rankset *s, int rank)
{
	if (rank < 0 || (s->n > 0 && s->v[s->n - 1] == rank))
		return;		/* the directories come by rank */
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = rank;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The sizes: lowest, highest, median, total. */
static void
sizes(const struct outdir *o, struct unusual *u)
{
	int64_t *v = xcalloc(o->ndirs + 1, sizeof(*v));

	for (size_t i = 0; i < o->ndirs; i++) {
		v[i] = o->dirs[i].bytes;
		u->total += v[i];
	}
	qsort(v, o->ndirs, sizeof(*v), cmp64);
	if (o->ndirs > 0) {
		u->lo = v[0];
		u->hi = v[o->ndirs - 1];
		u->median = v[(o->ndirs - 1) / 2];
	}
	free(v);
}

/* The parsed files that more than half the parsed directories have. */
static void
lacking(const struct outdir *o, struct unusual *u)
{
	for (size_t i = 0; i < o->ndirs; i++) {
		if (!o->dirs[i].parsed)
			continue;
		u->parsed++;
		for (int f = 0; f < RANKDIR_NFILES; f++)
			u->have[f] += (o->dirs[i].files >> f) & 1;
	}
	for (int f = 0; f < RANKDIR_NFILES; f++) {
		if (u->parsed < 2 || u->have[f] * 2 <= u->parsed)
			continue;
		for (size_t i = 0; i < o->ndirs; i++)
			if (o->dirs[i].parsed && !((o->dirs[i].files >> f) & 1))
				add(&u->lacking[f], o->dirs[i].rank);
	}
}

void
unusual_find(const struct outdir *o, struct unusual *u)
{
	memset(u, 0, sizeof(*u));
	sizes(o, u);
	for (size_t i = 0; i < o->ndirs; i++) {
		const struct rankdir *r = &o->dirs[i];

		if (r->rank < 0) {
			u->unknown++;
			continue;
		}
		if (u->ranks.n > 0 && u->ranks.v[u->ranks.n - 1] == r->rank)
			add(&u->set[U_DUPLICATE], r->rank);
		add(&u->ranks, r->rank);
		if (r->bytes == 0)
			add(&u->set[U_EMPTY], r->rank);
		if (!r->raw)
			add(&u->set[U_NO_RAW], r->rank);
		if (o->analyse && !r->parsed)
			add(&u->set[U_UNPARSED], r->rank);
		if (o->ndirs >= 3 && u->median > 0 &&
		    r->bytes > OUTSIZED * u->median)
			add(&u->set[U_OUTSIZED], r->rank);
	}
	u->nranks = u->ranks.n;
	lacking(o, u);
}

void
unusual_free(struct unusual *u)
{
	free(u->ranks.v);
	for (int k = 0; k < U_NKINDS; k++)
		free(u->set[k].v);
	for (int f = 0; f < RANKDIR_NFILES; f++)
		free(u->lacking[f].v);
	memset(u, 0, sizeof(*u));
}
