/*
 * Reading a rank's communication files (see comm.h).  The layout, from
 * torch_npu's parser:
 *
 *   communication.json: {"step<N>": {"collective"|"p2p": {"<op>@<group>": {
 *       "Communication Time Info": {"Elapse Time(ms)": .., "Wait Time
 *       Ratio": .., "Synchronization Time Ratio": .., ...},
 *       "Communication Bandwidth Info": {"RDMA": {"Size Distribution":
 *       {"<MB>": [count, ms]}, ...}, ...}}}}}
 *   communication_matrix.json: {"step<N>": {"collective"|"p2p": {"<op>":
 *       {"<src>-<dst>": {"Transport Type": "HCCS", "Transit Size(MB)": ..,
 *       "Transit Time(ms)": .., ...}}}}}
 *
 * Keys starting with "Total" are sums of the others and left out.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "comm.h"

const char *const comm_transports[COMM_NTRANS] = {
	"HCCS", "RDMA", "PCIE", "SDMA",
};

int
comm_transport(const char *name)
{
	for (int i = 0; i < COMM_NTRANS; i++)
		if (strcasecmp(name, comm_transports[i]) == 0)
			return i;
	return -1;
}

/* Room for one more of *N elements of SIZE in *V (of *CAP). */
static void *
room(void *v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 16;
	return xreallocarray(v, *cap, size);
}

/* Append N bytes of S to the pool (S may be in it): where they start. */
static size_t
pool_put(struct comm *c, const char *s, size_t n)
{
	size_t at = c->npool, from = (size_t)(s - c->pool);
	int inside = c->pool != NULL && s >= c->pool && s < c->pool + c->npool;

	while (c->npool + n + 1 > c->cappool) {
		c->cappool = c->cappool ? c->cappool * 2 : 4096;
		c->pool = xreallocarray(c->pool, c->cappool, 1);
	}
	memmove(c->pool + at, inside ? c->pool + from : s, n);
	c->npool += n;
	c->pool[c->npool] = '\0';
	return at;
}

/* Append S and its NUL: where it starts. */
static size_t
pool_str(struct comm *c, const char *s, size_t n)
{
	size_t at = pool_put(c, s, n);

	c->npool++;
	return at;
}

static int
total(const char *key)
{
	return strncmp(key, "Total", 5) == 0;
}

/* A sum over the operators, not one of them: "Total...", "...-total". */
static int
total_op(const char *op)
{
	return strncasecmp(op, "total", 5) == 0 || strcasestr(op, "-total") !=
	    NULL;
}

const char *
comm_step_number(const char *step)
{
	if (strncasecmp(step, "step", 4) == 0 &&
	    isdigit((unsigned char)step[4]))
		return step + 4;
	return step;
}

/*
 * The key of operator NAME@GROUP in the step at STEP of the pool,
 * "GROUP\037STEP\037NAME": an operation that is one collective on every
 * rank.  Into O, and the pool.
 */
static void
op_key(struct comm *c, struct comm_op *o, size_t step, const char *name)
{
	const char *at = strrchr(name, '@'), *num;
	size_t len = at ? (size_t)(at - name) : strlen(name);

	o->glen = at ? strlen(at + 1) : 0;
	o->key = pool_put(c, at ? at + 1 : "", o->glen);
	pool_put(c, "\037", 1);
	num = comm_step_number(c->pool + step);
	pool_put(c, num, strlen(num));
	pool_put(c, "\037", 1);
	o->op = c->npool - o->key;
	pool_str(c, name, len);
}

/* "Communication Time Info" of the operator of key O. */
static int
time_info(struct jscan *js, struct comm *c, const struct comm_op *key)
{
	const char *k;
	struct comm_op *o;
	size_t n;
	int r, isnull = 0;

	if ((r = js_object(js, "Communication Time Info")) <= 0)
		return r;
	c->ops = room(c->ops, c->nops, &c->capops, sizeof(*c->ops));
	o = &c->ops[c->nops++];
	*o = *key;
	o->elapse = o->wait_ratio = o->sync_ratio = o->wait_ms = NAN;
	o->xfer_ms = 0;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (js_peek(js) == 'n' && !isnull && (strcmp(k,
		    "Elapse Time(ms)") == 0 || strcmp(k, "Wait Time Ratio") == 0 ||
		    strcmp(k, "Synchronization Time Ratio") == 0)) {
			if (c->nnull++ == 0)
				c->null_first = c->nops - 1;
			isnull = 1;
		}
		if (strcmp(k, "Elapse Time(ms)") == 0)
			r = js_number(js, k, &o->elapse);
		else if (strcmp(k, "Wait Time Ratio") == 0)
			r = js_number(js, k, &o->wait_ratio);
		else if (strcmp(k, "Synchronization Time Ratio") == 0)
			r = js_number(js, k, &o->sync_ratio);
		else if (strcmp(k, "Wait Time(ms)") == 0 && js_peek(js) != 'n')
			r = js_number(js, k, &o->wait_ms);
		else
			r = js_skip(js);
		if (r < 0)
			return -1;
	}
	return r;
}

/*
 * Is the size KEY printed to the byte?  torch_npu writes bytes / 10^6
 * with six decimals ("2.064384"); a size of fewer may be rounded.
 */
static int
exact_size(const char *key)
{
	const char *dot = strchr(key, '.');
	size_t n = 0;

	if (dot == NULL)
		return 0;
	while (isdigit((unsigned char)dot[1 + n]))
		n++;
	return n == 6 && dot[1 + n] == '\0';
}

/* Add COUNT transfers of MB of transport TR, MS long together. */
static void
add_size(struct comm *c, int tr, double mb, double count, double ms,
    int exact)
{
	for (size_t i = 0; i < c->nsizes; i++)
		if (c->sizes[i].tr == tr && c->sizes[i].mb == mb &&
		    c->sizes[i].exact == exact) {
			c->sizes[i].count += count;
			c->sizes[i].ms += ms;
			return;
		}
	c->sizes = room(c->sizes, c->nsizes, &c->capsizes, sizeof(*c->sizes));
	c->sizes[c->nsizes++] = (struct comm_size){ tr, mb, count, ms, exact };
}

/* {"<MB>": [count, ms], ...} of transport TR. */
static int
size_distribution(struct jscan *js, struct comm *c, int tr)
{
	const char *k;
	size_t n;
	int r;

	if ((r = js_object(js, "Size Distribution")) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		double mb = strtod(k, NULL), count = NAN, ms = NAN;
		int more = 0, exact = exact_size(k);

		/* [count, ms]: the time when it is a number */
		if ((r = js_array(js, "Size Distribution")) == 1 &&
		    (r = js_item(js)) == 1 &&
		    (r = js_number(js, "Size Distribution", &count)) >= 0 &&
		    (r = js_item(js)) == 1) {
			r = js_peek(js) == '0' ? js_number(js,
			    "Size Distribution", &ms) : js_skip(js);
			more = r >= 0;
		}
		while (more && (r = js_item(js)) == 1 && (r = js_skip(js)) == 1)
			;
		if (r < 0)
			return -1;
		if (!isnan(count) && !isnan(mb))
			add_size(c, tr, mb, count, isfinite(ms) ? ms : 0,
			    exact);
	}
	return r;
}

/* Transit Size(MB) or Transit Time(ms) of an operator's transport: in X. */
static int
number_of(struct jscan *js, const char *key, struct comm_xfer *x)
{
	double v;
	int r;

	if ((r = js_number(js, key, &v)) == 1 && isfinite(v)) {
		if (strcmp(key, "Transit Size(MB)") == 0)
			x->mb = v;
		else
			x->ms = v;
	}
	return r;
}

/*
 * "Communication Bandwidth Info": each transport's size distribution and
 * the operator's transit size.
 */
static int
bandwidth_info(struct jscan *js, struct comm *c)
{
	const char *k;
	size_t n;
	int r;

	if ((r = js_object(js, "Communication Bandwidth Info")) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		int tr = comm_transport(k);

		if (tr < 0) {
			r = js_skip(js);
		} else if ((r = js_object(js, k)) == 1) {
			struct comm_xfer x = { tr, 0, 0 };

			while ((r = js_key(js, &k, &n)) == 1) {
				if (strcmp(k, "Transit Size(MB)") == 0 ||
				    strcmp(k, "Transit Time(ms)") == 0)
					r = js_peek(js) == '0' ? number_of(js, k,
					    &x) : js_skip(js);
				else if (strcmp(k, "Size Distribution") == 0)
					r = size_distribution(js, c, tr);
				else
					r = js_skip(js);
				if (r < 0)
					break;
			}
			if (r >= 0 && x.mb > 0) {
				c->xfers = room(c->xfers, c->nxfers,
				    &c->capxfers, sizeof(*c->xfers));
				c->xfers[c->nxfers++] = x;
			}
		}
		if (r < 0)
			return -1;
	}
	return r;
}

/* One operator of the section at SECTION of the step at STEP (pool). */
/*
 * One operator of the section at SECTION of the step at STEP (pool):
 * collectives and sends and receives alike (P2P tells them apart), each
 * with the longest transit time of its transports.
 */
static int
comm_operator(struct jscan *js, struct comm *c, size_t step,
    size_t section, const char *name)
{
	int p2p = strcmp(c->pool + section, "p2p") == 0;
	int coll = (p2p || strcmp(c->pool + section, "collective") == 0) &&
	    !total(name) && !total_op(name);
	int sizes = !total_op(name), r;
	struct comm_op key = { 0 };
	size_t n, at = c->nops, x0 = c->nxfers;
	const char *k;

	if (!coll && !sizes)
		return js_skip(js);
	if (coll)	/* now: the reader's next key replaces NAME */
		op_key(c, &key, step, name);
	key.p2p = p2p;
	if ((r = js_object(js, name)) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (coll && strcmp(k, "Communication Time Info") == 0)
			r = time_info(js, c, &key);
		else if (sizes && strcmp(k, "Communication Bandwidth Info") == 0)
			r = bandwidth_info(js, c);
		else
			r = js_skip(js);
		if (r < 0)
			return -1;
	}
	if (c->nops == at + 1)
		for (size_t i = x0; i < c->nxfers; i++)
			if (c->xfers[i].ms > c->ops[at].xfer_ms)
				c->ops[at].xfer_ms = c->xfers[i].ms;
	return r;
}

/* "SRC-DST", two ranks (as sscanf's "%d-%d" reads them): 1, or 0. */
static int
link_ends(const char *name, int *src, int *dst)
{
	char *end;
	long a = strtol(name, &end, 10), b;

	if (end == name || *end != '-' || a < INT_MIN || a > INT_MAX)
		return 0;
	name = end + 1;
	b = strtol(name, &end, 10);
	if (end == name || b < INT_MIN || b > INT_MAX)
		return 0;
	*src = (int)a;
	*dst = (int)b;
	return 1;
}

/* The link "SRC-DST" of a matrix operator. */
static int
matrix_link(struct jscan *js, struct comm *c, const char *name)
{
	struct comm_link l = { .tr = -1, .size = NAN, .time = NAN };
	const char *k, *s;
	size_t n;
	int r, link = link_ends(name, &l.src, &l.dst), type = 0;

	if ((r = js_object(js, name)) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (strcmp(k, "Transport Type") == 0) {
			if ((r = js_string(js, k, &s, &n)) == 1) {
				l.tr = comm_transport(s);
				type = 1;
			}
		} else if (strcmp(k, "Transit Size(MB)") == 0)
			r = js_number(js, k, &l.size);
		else if (strcmp(k, "Transit Time(ms)") == 0)
			r = js_number(js, k, &l.time);
		else
			r = js_skip(js);
		if (r < 0)
			return -1;
	}
	if (link && type) {
		c->links = room(c->links, c->nlinks, &c->caplinks,
		    sizeof(*c->links));
		c->links[c->nlinks++] = l;
	}
	return r;
}

/*
 * Each operator of each section of each step of a file: FN on it, with
 * the names of the step and the section kept in the pool (the reader's
 * key is the operator's).
 */
static int
steps(struct jscan *js, struct comm *c, int (*fn)(struct jscan *,
    struct comm *, size_t, size_t, const char *))
{
	const char *k;
	size_t n, step, sec;
	int r;

	if ((r = js_object(js, NULL)) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (total(k)) {
			r = js_skip(js);
		} else if ((r = js_object(js, k)) == 1) {
			step = pool_str(c, k, n);
			while ((r = js_key(js, &k, &n)) == 1) {
				sec = pool_str(c, k, n);
				if ((r = js_object(js, k)) == 1)
					while ((r = js_key(js, &k, &n)) == 1 &&
					    (r = fn(js, c, step, sec, k)) >= 0)
						;
				if (r < 0)
					break;
			}
		}
		if (r < 0)
			return -1;
	}
	return r < 0 ? -1 : js_finish(js);
}

static int
matrix_operator(struct jscan *js, struct comm *c, size_t step,
    size_t section, const char *name)
{
	const char *k;
	size_t n;
	int r;

	if (total_op(name))
		return js_skip(js);
	if ((r = js_object(js, name)) <= 0)
		return r;
	while ((r = js_key(js, &k, &n)) == 1)
		if (matrix_link(js, c, k) < 0)
			return -1;
	return r;
}

/* Read DIR/NAME with FN into C; its state. */
static void
read_one(struct comm *c, struct comm_file *f, const char *dir,
    const char *name, int (*fn)(struct jscan *, struct comm *, size_t,
    size_t, const char *))
{
	char *path = xasprintf("%s/%s", dir, name);
	struct jscan js;

	if (js_open(&js, path) == 0 && steps(&js, c, fn) >= 0)
		f->state = 1;
	else if (js_error(&js) == JS_UNREADABLE && js.errnum == ENOENT)
		f->state = 0;
	else {
		f->state = -1;
		f->err = js_error(&js);
		f->why = xstrdup(js_why(&js));
	}
	js_close(&js);
	free(path);
}

struct comm *
comm_read(const char *out)
{
	struct comm *c = xcalloc(1, sizeof(*c));

	read_one(c, &c->comm, out, "communication.json", comm_operator);
	if (c->comm.state < 0) {	/* nothing of a file left out */
		c->nops = c->nsizes = c->npool = 0;
	}
	read_one(c, &c->matrix, out, "communication_matrix.json",
	    matrix_operator);
	if (c->matrix.state < 0)
		c->nlinks = 0;
	return c;
}

void
comm_free(struct comm *c)
{
	if (c == NULL)
		return;
	free(c->comm.why);
	free(c->matrix.why);
	free(c->ops);
	free(c->sizes);
	free(c->xfers);
	free(c->links);
	free(c->pool);
	free(c);
}
