/*
 * The fold of a rank's timeline (timeline.h): the device's idle gaps in
 * each profiled step and what the host was doing in them.
 *
 * One pass, events in any order, memory bounded: the device's tasks are
 * merged into busy spans as they come (a small reorder heap absorbs the
 * files' local disorder; torch_npu writes each track in time order), and
 * the gaps between spans, the host's cause events and the operators
 * whose call stacks name the user's code are each kept in a heap of the
 * longest TL_MAX_* (what falls out is the shortest, and the result says
 * it is approximate).  The steps are cut from the gaps only at the end,
 * so the order of the tracks in the file does not matter.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "strmap.h"
#include "timeline.h"

#define TL_MAX_STEPS	100000
#define TL_REORDER	4096		/* device tasks held to sort */
#define TL_MAX_GAPS	(1 << 18)	/* 4 MB */
#define TL_MAX_CAUSES	(1 << 16)
#define TL_MAX_OPS	(1 << 16)
#define TL_MAX_FRAMES	4096
#define TL_WALK		512	/* enclosing operators looked at */
/* Call stacks remembered with their frame, up to 8 KB each: 2 MB. */
#define TL_MEMO		256
#define TL_MEMO_MAX	8192
/* Host events counted per millisecond, around the first one: 1 MB. */
#define TL_BIN_NS	1000000LL
#define TL_NBINS	(1 << 20)
#define TL_NEG		(INT64_MIN / 4)
#define TL_POS		(INT64_MAX / 4)

const char *const tl_cause_key[TL_NCAUSE] = {
	"sync", "compile", "gc", "dataloader", "graph",
};

struct iv {
	int64_t		 a, b;
	long long	 tid;
	int		 cause;	/* -1: an operator with a stack */
	int		 frame;		/* -1: none */
	int		 to_host;	/* aten::to, _to_copy, copy_ */
};

/* A heap of the longest (min-heap on the length) or the earliest. */
struct heap {
	struct iv	*v;
	size_t		 n, cap;
	int		 by_start;	/* the reorder heap: min on a */
};

struct frame_info {
	char	*where, *path;
	int	 formats;
};

/* A call stack read before and the frame it gave. */
struct memo {
	char		*stack;		/* NULL: none yet */
	size_t		 len;
	uint64_t	 hash;
	int		 frame;
};

struct timeline {
	struct iv	*steps;
	size_t		 nsteps, stepcap;
	struct heap	 reorder, gaps, causes, ops;
	int		 busy;		/* a span is open */
	int64_t		 busy_a, busy_b;
	size_t		 ntasks;
	struct strmap	 fmap;
	struct frame_info *frames;
	size_t		 nframes;
	struct memo	*memo;		/* TL_MEMO of them, by hash */
	unsigned char	*bins;
	int64_t		 bin0;
	int64_t		 cause_longest;	/* of the causes kept, ns */
	int		 stacks, approx;
};

static int64_t
key(const struct heap *h, const struct iv *x)
{
	return h->by_start ? x->a : x->b - x->a;
}

static void
swap(struct iv *x, struct iv *y)
{
	struct iv t = *x;

	*x = *y;
	*y = t;
}

static void
sift_down(struct heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < h->n && key(h, &h->v[l]) < key(h, &h->v[m]))
			m = l;
		if (l + 1 < h->n && key(h, &h->v[l + 1]) < key(h, &h->v[m]))
			m = l + 1;
		if (m == i)
			return;
		swap(&h->v[i], &h->v[m]);
		i = m;
	}
}

static void
sift_up(struct heap *h, size_t i)
{
	while (i > 0 && key(h, &h->v[(i - 1) / 2]) > key(h, &h->v[i])) {
		swap(&h->v[i], &h->v[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

/*
 * Add X; when full, the least (shortest, or earliest) goes: 1 when
 * something went (into *OUT when not NULL).
 */
static int
heap_push(struct heap *h, const struct iv *x, size_t max, struct iv *out)
{
	if (h->n < max) {
		if (h->n == h->cap) {
			h->cap = h->cap ? 2 * h->cap : 256;
			h->v = xreallocarray(h->v, h->cap, sizeof(*h->v));
		}
		h->v[h->n++] = *x;
		sift_up(h, h->n - 1);
		return 0;
	}
	if (h->by_start || key(h, x) > key(h, &h->v[0])) {
		if (out != NULL)
			*out = h->v[0];
		h->v[0] = *x;
		sift_down(h, 0);
	} else if (out != NULL)
		*out = *x;
	return 1;
}

static struct iv
heap_pop(struct heap *h)
{
	struct iv x = h->v[0];

	h->v[0] = h->v[--h->n];
	sift_down(h, 0);
	return x;
}

struct timeline *
tl_new(void)
{
	struct timeline *t = xcalloc(1, sizeof(*t));

	t->reorder.by_start = 1;
	return t;
}

void
tl_step(struct timeline *t, int64_t a, int64_t b)
{
	if (b <= a)
		return;
	if (t->nsteps == TL_MAX_STEPS) {
		t->approx = 1;
		return;
	}
	if (t->nsteps == t->stepcap) {
		t->stepcap = t->stepcap ? 2 * t->stepcap : 16;
		t->steps = xreallocarray(t->steps, t->stepcap,
		    sizeof(*t->steps));
	}
	t->steps[t->nsteps].a = a;
	t->steps[t->nsteps++].b = b;
}

static void
gap(struct timeline *t, int64_t a, int64_t b)
{
	struct iv g = { a, b, 0, -1, -1, 0 };

	if (heap_push(&t->gaps, &g, TL_MAX_GAPS, NULL))
		t->approx = 1;
}

/* The next task in time order: the busy span grows or a gap ends it. */
static void
busy_add(struct timeline *t, const struct iv *x)
{
	if (!t->busy) {
		gap(t, TL_NEG, x->a);
		t->busy = 1;
		t->busy_a = x->a;
		t->busy_b = x->b;
	} else if (x->a > t->busy_b) {
		gap(t, t->busy_b, x->a);
		t->busy_a = x->a;
		t->busy_b = x->b;
	} else if (x->b > t->busy_b)
		t->busy_b = x->b;
}

void
tl_task(struct timeline *t, int64_t a, int64_t b)
{
	struct iv x = { a, b, 0, -1, -1, 0 }, out;

	if (b < a)
		return;
	t->ntasks++;
	if (heap_push(&t->reorder, &x, TL_REORDER, &out))
		busy_add(t, &out);
}

static int
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int
cause_of(const char *name, const char *cat)
{
	const char *acl = name;

	if ((cat[0] == 'g' || cat[0] == 'G') && strcasecmp(cat, "gc") == 0)
		return TL_GC;
	/* CANN's calls: "AscendCL@aclrt..." in the text, "aclrt..." in db */
	if (has_prefix(acl, "AscendCL@"))
		acl += strlen("AscendCL@");
	if (acl[0] == 'a' && acl[1] == 'c' && acl[2] == 'l') {
		if (has_prefix(acl, "aclrtSynchronize"))
			return TL_SYNC;
		if (has_prefix(acl, "aclopCompile"))
			return TL_COMPILE;
		if (has_prefix(acl, "aclmdlRIExecute"))
			return TL_GRAPH;
		return -1;
	}
	if (name[0] == 'a' && (strcmp(name, "aten::item") == 0 ||
	    strcmp(name, "aten::_local_scalar_dense") == 0))
		return TL_SYNC;
	/*
	 * msprof-analyze's advisor: "dataloader" in a framework event's name,
	 * whatever its case
	 */
	if ((strcmp(cat, "python_function") == 0 ||
	    strcmp(cat, "cpu_op") == 0) && strstr(name, "oader") != NULL &&
	    strcasestr(name, "dataloader") != NULL)
		return TL_DATALOADER;
	return -1;
}

/* A frame's path that is not the user's: torch's, a library's, Python's. */
static int
library(const char *path, size_t n)
{
	static const char *const lib[] = {
		"/site-packages/", "/dist-packages/", "/torch/",
		"/torch_npu/",
	};
	char p[1024];
	size_t i;
	const char *s;

	if (n == 0 || path[0] == '<')
		return 1;
	if (n >= sizeof(p))
		n = sizeof(p) - 1;
	memcpy(p, path, n);
	p[n] = '\0';
	for (i = 0; i < sizeof(lib) / sizeof(lib[0]); i++)
		if (strstr(p, lib[i]) != NULL)
			return 1;
	/* the standard library: .../lib/python3.9/... */
	for (s = p; (s = strstr(s, "/lib/python")) != NULL; s++) {
		const char *d = s + strlen("/lib/python");

		while ((*d >= '0' && *d <= '9') || *d == '.')
			d++;
		if (d > s + strlen("/lib/python") && *d == '/')
			return 1;
	}
	return 0;
}

int
tl_user_frames(const char *stack, char *buf, size_t len, char *path,
    size_t plen)
{
	const char *f = stack, *end;
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (; *f != '\0' && n < 3; f = *end ? end + 1 : end) {
		const char *open, *close, *base, *fn;
		size_t flen;

		while (*f == ';' || *f == '\r' || *f == '\n' || *f == ' ')
			f++;
		end = f + strcspn(f, ";\n");
		flen = end - f;
		/* path(line): function */
		for (open = end; open > f && open[-1] != '('; open--)
			;
		if (open == f)
			continue;
		open--;
		close = memchr(open, ')', end - open);
		if (close == NULL || close[1] != ':' || library(f, open - f))
			continue;
		for (base = open; base > f && base[-1] != '/'; base--)
			;
		fn = close + 2;
		while (fn < end && *fn == ' ')
			fn++;
		flen = end - fn;
		while (flen > 0 && (fn[flen - 1] == '\r' || fn[flen - 1] ==
		    ' '))
			flen--;
		if (n == 0 && path != NULL) {
			size_t pl = open - f < (long)plen - 1 ?
			    (size_t)(open - f) : plen - 1;

			memcpy(path, f, pl);
			path[pl] = '\0';
		}
		used += snprintf(buf + used, used < len ? len - used : 0,
		    "%s%.*s:%.*s %.*s", n ? " < " : "", (int)(open - base),
		    base, (int)(close - open - 1), open + 1, (int)flen, fn);
		n++;
		if (used >= len)
			break;
	}
	return n;
}

/* Torch formats a tensor for printing: __format__, __repr__, __str__. */
static int
formats(const char *stack)
{
	const char *s = strstr(stack, "_tensor.py(");

	return s != NULL && (strstr(s, "): __format__") != NULL ||
	    strstr(s, "): __repr__") != NULL || strstr(s, "): __str__") !=
	    NULL);
}

static int
frame_id(struct timeline *t, const char *stack)
{
	char where[512], path[1024];
	void **slot;

	if (tl_user_frames(stack, where, sizeof(where), path,
	    sizeof(path)) == 0)
		return -1;
	if ((slot = strmap_slot(&t->fmap, where)) == NULL)
		return -1;
	if (*slot == NULL) {
		if (t->nframes == TL_MAX_FRAMES) {
			t->approx = 1;
			return -1;
		}
		t->frames = xreallocarray(t->frames, t->nframes + 1,
		    sizeof(*t->frames));
		t->frames[t->nframes].where = xstrdup(where);
		t->frames[t->nframes].path = xstrdup(path);
		t->frames[t->nframes].formats = 0;
		*slot = (void *)(uintptr_t)++t->nframes;
	}
	if (formats(stack))
		t->frames[(uintptr_t)*slot - 1].formats = 1;
	return (int)((uintptr_t)*slot - 1);
}

static uint64_t
stack_hash(const char *s, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15ULL, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = ((h << 5 | h >> 59) ^ w) * 0x9e3779b97f4a7c15ULL;
	}
	for (; n > 0; s++, n--)
		h = ((h << 5 | h >> 59) ^ (unsigned char)*s) *
		    0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

/*
 * frame_id, remembered: a training step runs the same code each time, so
 * the same few stacks come back thousands of times, and finding the
 * user's frames in one costs far more than comparing it.  The answer is
 * the same either way (a stack's frame never changes once found).
 */
static int
frame_memo(struct timeline *t, const char *stack)
{
	size_t n = strlen(stack);
	uint64_t h;
	struct memo *m;

	if (n > TL_MEMO_MAX)
		return frame_id(t, stack);
	if (t->memo == NULL)
		t->memo = xcalloc(TL_MEMO, sizeof(*t->memo));
	h = stack_hash(stack, n);
	m = &t->memo[h % TL_MEMO];
	if (m->stack != NULL && m->hash == h && m->len == n &&
	    memcmp(m->stack, stack, n) == 0)
		return m->frame;
	free(m->stack);
	m->stack = xstrndup(stack, n);
	m->len = n;
	m->hash = h;
	m->frame = frame_id(t, stack);
	return m->frame;
}

/* One more host event at A, in the millisecond bins. */
static void
bin_count(struct timeline *t, int64_t a)
{
	int64_t i;

	if (t->bins == NULL) {
		t->bins = xcalloc(TL_NBINS, 1);
		t->bin0 = a / TL_BIN_NS - TL_NBINS / 2;
	}
	i = a / TL_BIN_NS - t->bin0;
	if (i >= 0 && i < TL_NBINS && t->bins[i] < UCHAR_MAX)
		t->bins[i]++;
}

void
tl_host(struct timeline *t, const struct tl_host *h)
{
	struct iv x = { h->a, h->b, h->tid, -1, -1, 0 };
	const char *stack = h->stack != NULL ? h->stack : "";

	if (h->b < h->a)
		return;
	/* the host's own events: the Python track and CANN's calls */
	if (h->cat != NULL && (*h->cat != '\0' || strchr(h->name, '@')))
		bin_count(t, h->a);
	if (has_prefix(h->name, "ProfilerStep#")) {
		tl_step(t, h->a, h->b);
		return;
	}
	x.cause = cause_of(h->name, h->cat != NULL ? h->cat : "");
	if (*stack != '\0') {
		t->stacks = 1;
		x.frame = frame_memo(t, stack);
	}
	x.to_host = strcmp(h->name, "aten::to") == 0 ||
	    strcmp(h->name, "aten::_to_copy") == 0 ||
	    strcmp(h->name, "aten::copy_") == 0;
	if (x.cause >= 0 && heap_push(&t->causes, &x, TL_MAX_CAUSES, NULL))
		t->approx = 1;
	/*
	 * An operator that falls out is shorter than all those kept: a
	 * synchronisation inside it, shorter still, goes without a call
	 * site, and the figures stay exact
	 */
	if (x.frame >= 0)
		heap_push(&t->ops, &x, TL_MAX_OPS, NULL);
}

static int
by_a(const void *p, const void *q)
{
	const struct iv *x = p, *y = q;

	return x->a < y->a ? -1 : x->a > y->a ? 1 : 0;
}

static int
by_frame(const void *p, const void *q)
{
	const struct iv *x = p, *y = q;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return by_a(p, q);
}

/*
 * A synchronisation without a stack of its own (a CANN call) is the
 * innermost operator's on its thread that holds it: its frame.
 */
static void
resolve(struct timeline *t, struct iv *x)
{
	size_t lo = 0, hi = t->ops.n, k;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->ops.v[mid].a <= x->a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < TL_WALK && lo > k; k++) {
		const struct iv *o = &t->ops.v[lo - 1 - k];

		if (o->tid == x->tid && o->b >= x->b) {
			x->frame = o->frame;
			x->to_host |= o->to_host;
			return;
		}
	}
}

/* The union of sorted V (N) into OUT (capacity N): how many spans. */
static size_t
merge(const struct iv *v, size_t n, struct iv *out)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (m > 0 && v[i].a <= out[m - 1].b) {
			if (v[i].b > out[m - 1].b)
				out[m - 1].b = v[i].b;
		} else
			out[m++] = v[i];
	}
	return m;
}

static int64_t
span_total(const struct iv *v, size_t n)
{
	int64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i].b - v[i].a;
	return s;
}

/* The time two sorted, disjoint lists share. */
static int64_t
inter(const struct iv *u, size_t nu, const struct iv *v, size_t nv)
{
	size_t i = 0, j = 0;
	int64_t s = 0;

	while (i < nu && j < nv) {
		int64_t a = u[i].a > v[j].a ? u[i].a : v[j].a;
		int64_t b = u[i].b < v[j].b ? u[i].b : v[j].b;

		if (b > a)
			s += b - a;
		if (u[i].b < v[j].b)
			i++;
		else
			j++;
	}
	return s;
}

/*
 * The causes' events that overlap [A, B], clipped, in time order (the
 * causes are sorted by their start, and none is longer than
 * cause_longest: only those from A less that are looked at).
 */
static size_t
clip_causes(const struct timeline *t, int64_t a, int64_t b, int cause,
    struct iv *out)
{
	size_t lo = 0, hi = t->causes.n, n = 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->causes.v[mid].a < a - t->cause_longest)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->causes.n && t->causes.v[lo].a < b; lo++) {
		struct iv x = t->causes.v[lo];

		if (x.b <= a || (cause >= 0 && x.cause != cause))
			continue;
		if (x.a < a)
			x.a = a;	/* still in order: those before all at A */
		if (x.b > b)
			x.b = b;
		out[n++] = x;
	}
	return n;
}

static double
us(int64_t ns)
{
	return ns / 1e3;
}

/* Host events counted in [A, B): as many as the bins tell. */
static size_t
events_in(const struct timeline *t, int64_t a, int64_t b)
{
	int64_t i, lo, hi;
	size_t n = 0;

	if (t->bins == NULL)
		return 0;
	lo = a / TL_BIN_NS - t->bin0;
	hi = (b - 1) / TL_BIN_NS - t->bin0;
	for (i = lo < 0 ? 0 : lo; i <= hi && i < TL_NBINS; i++)
		n += t->bins[i];
	return n;
}

struct scratch {
	struct iv	*idle, *c, *u, *all;
	int64_t		*gap_len;
};

/* The idle gaps of [A, B], clipped; *LEN each gap's whole length. */
static size_t
step_idle(const struct timeline *t, int64_t a, int64_t b, struct scratch *w)
{
	size_t lo = 0, hi = t->gaps.n, n = 0;

	while (lo < hi) {	/* the first gap ending after A */
		size_t mid = (lo + hi) / 2;

		if (t->gaps.v[mid].b <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->gaps.n && t->gaps.v[lo].a < b; lo++) {
		struct iv g = t->gaps.v[lo];

		w->gap_len[n] = g.b - g.a;
		if (g.a < a)
			g.a = a;
		if (g.b > b)
			g.b = b;
		if (g.b > g.a)
			w->idle[n++] = g;
	}
	return n;
}

static void
fold_step(const struct timeline *t, const struct iv *s, struct tl_result *r,
    struct scratch *w)
{
	size_t ni = step_idle(t, s->a, s->b, w), nc, nu, na, i, j;
	int c, dense;

	r->step_us += us(s->b - s->a);
	r->idle_us += us(span_total(w->idle, ni));
	for (c = 0; c < TL_NCAUSE; c++) {
		nc = clip_causes(t, s->a, s->b, c, w->c);
		nu = merge(w->c, nc, w->u);
		r->host_us[c] += us(span_total(w->u, nu));
		r->idle_by[c] += us(inter(w->u, nu, w->idle, ni));
		r->count[c] += nc;
	}
	/* each call site's synchronisations */
	nc = clip_causes(t, s->a, s->b, TL_SYNC, w->c);
	if (nc > 1)
		qsort(w->c, nc, sizeof(*w->c), by_frame);
	for (i = 0; i < nc; i = j) {
		for (j = i; j < nc && w->c[j].frame == w->c[i].frame; j++)
			if (w->c[j].to_host && w->c[j].frame >= 0)
				r->frames[w->c[j].frame].to_host = 1;
		if (w->c[i].frame < 0)
			continue;
		nu = merge(w->c + i, j - i, w->u);
		r->frames[w->c[i].frame].host_us += us(span_total(w->u, nu));
		r->frames[w->c[i].frame].idle_us += us(inter(w->u, nu,
		    w->idle, ni));
		r->frames[w->c[i].frame].n += j - i;
	}
	/* what no cause explains: launching, or a conjectured collection */
	nc = clip_causes(t, s->a, s->b, -1, w->c);
	na = merge(w->c, nc, w->all);
	r->explained_us += us(inter(w->all, na, w->idle, ni));
	/*
	 * A gap without host events says something only where the host is
	 * otherwise seen: ten times the gap's rate over the step, at least
	 */
	dense = events_in(t, s->a, s->b) >= 10 * TL_GC_EVENTS_PER_NS *
	    (double)(s->b - s->a);
	for (i = 0; i < ni; i++) {
		int64_t len = w->idle[i].b - w->idle[i].a;
		int64_t free = len - inter(&w->idle[i], 1, w->all, na);

		if (free <= 0)
			continue;
		if (w->gap_len[i] < TL_SHORT_GAP_NS) {
			r->short_us += us(free);
			r->nshort++;
		} else if (dense && free >= TL_GC_GAP_NS && events_in(t,
		    w->idle[i].a, w->idle[i].b) <= free * TL_GC_EVENTS_PER_NS) {
			r->gc_gap_us += us(free);
			r->ngc_gap++;
		}
	}
}

static int
by_host(const void *p, const void *q)
{
	const struct tl_frame *x = p, *y = q;

	return x->host_us > y->host_us ? -1 : x->host_us < y->host_us;
}

static void
tl_free(struct timeline *t)
{
	size_t i;

	for (i = 0; i < t->nframes; i++) {
		free(t->frames[i].where);
		free(t->frames[i].path);
	}
	free(t->frames);
	for (i = 0; t->memo != NULL && i < TL_MEMO; i++)
		free(t->memo[i].stack);
	free(t->memo);
	strmap_free(&t->fmap, NULL);
	free(t->steps);
	free(t->reorder.v);
	free(t->gaps.v);
	free(t->causes.v);
	free(t->ops.v);
	free(t->bins);
	free(t);
}

void
tl_abort(struct timeline *t)
{
	if (t != NULL)
		tl_free(t);
}

struct tl_result *
tl_finish(struct timeline *t)
{
	struct tl_result *r;
	struct scratch w;
	size_t i, n;

	while (t->reorder.n > 0) {
		struct iv x = heap_pop(&t->reorder);

		busy_add(t, &x);
	}
	gap(t, t->busy ? t->busy_b : TL_NEG, TL_POS);
	if (t->nsteps == 0) {
		tl_free(t);
		return NULL;
	}
	/* an empty heap has no array: qsort is not given NULL */
	if (t->gaps.n > 1)
		qsort(t->gaps.v, t->gaps.n, sizeof(*t->gaps.v), by_a);
	if (t->ops.n > 1)
		qsort(t->ops.v, t->ops.n, sizeof(*t->ops.v), by_a);
	if (t->causes.n > 1)
		qsort(t->causes.v, t->causes.n, sizeof(*t->causes.v), by_a);
	for (i = 0; i < t->causes.n; i++) {
		struct iv *x = &t->causes.v[i];

		if (x->b - x->a > t->cause_longest)
			t->cause_longest = x->b - x->a;
		if (x->cause == TL_SYNC && x->frame < 0)
			resolve(t, x);
	}
	r = xcalloc(1, sizeof(*r));
	r->nsteps = t->nsteps;
	r->ntasks = t->ntasks;
	r->stacks = t->stacks;
	r->approx = t->approx;
	r->nframes = t->nframes;
	r->frames = xcalloc(t->nframes + 1, sizeof(*r->frames));
	for (i = 0; i < t->nframes; i++) {
		r->frames[i].where = t->frames[i].where;
		r->frames[i].path = t->frames[i].path;
		r->frames[i].formats = t->frames[i].formats;
		t->frames[i].where = t->frames[i].path = NULL;
	}
	n = t->causes.n > t->gaps.n ? t->causes.n : t->gaps.n;
	w.idle = xcalloc(t->gaps.n + 1, sizeof(*w.idle));
	w.gap_len = xcalloc(t->gaps.n + 1, sizeof(*w.gap_len));
	w.c = xcalloc(n + 1, sizeof(*w.c));
	w.u = xcalloc(n + 1, sizeof(*w.u));
	w.all = xcalloc(n + 1, sizeof(*w.all));
	for (i = 0; i < t->nsteps; i++)
		fold_step(t, &t->steps[i], r, &w);
	free(w.idle);
	free(w.gap_len);
	free(w.c);
	free(w.u);
	free(w.all);
	/* the call sites that synchronised, the longest first */
	for (i = n = 0; i < r->nframes; i++)
		if (r->frames[i].n > 0)
			r->frames[n++] = r->frames[i];
		else {
			free(r->frames[i].where);
			free(r->frames[i].path);
		}
	r->nframes = n;
	if (n > 1)
		qsort(r->frames, n, sizeof(*r->frames), by_host);
	tl_free(t);
	return r;
}

void
tl_result_free(struct tl_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nframes; i++) {
		free(r->frames[i].where);
		free(r->frames[i].path);
	}
	free(r->frames);
	free(r);
}
