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
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "model.h"
#include "strmap.h"

#define DIXON_MAX	100
#define MAX_WAIT_ROWS	8	/* rows of the text table */

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

/* One collective: the ranks that took part and their elapse. */
struct inst {
	char	*group;
	size_t	 n, cap;
	size_t	*who;		/* index into s->r */
	double	*elapse;
};

struct wait {
	struct strmap	 inst;		/* "group\037step\037op" -> inst */
	size_t		 ranks;		/* ranks with data */
	double		*wait_sum, *sync_sum;
	size_t		*nratio, *votes, *seen;
	size_t		 voted, counted, dropped_groups;
	/* collectives of two ranks: each rank's, and those it came last to */
	size_t		*seen2, *last2, counted2;
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

/*
 * One rank's part in the collective KEY (group, step and operator joined
 * by \037, the group its first GLEN bytes), operator OP.
 */
static int
add_op(struct wait *w, size_t who, const char *key, size_t glen,
    const char *op, double elapse, double wait_ratio, double sync_ratio)
{
	struct inst **ip, *in;

	if (isnan(elapse) || point_to_point(op))
		return 0;
	ip = (struct inst **)strmap_slot(&w->inst, key);
	if ((in = *ip) == NULL) {
		in = *ip = xcalloc(1, sizeof(*in));
		in->group = xstrndup(key, glen);
	}
	if (in->n == in->cap) {
		in->cap = in->cap ? in->cap * 2 : 8;
		in->who = xreallocarray(in->who, in->cap, sizeof(*in->who));
		in->elapse = xreallocarray(in->elapse, in->cap, sizeof(double));
	}
	in->who[in->n] = who;
	in->elapse[in->n++] = elapse;
	if (!isnan(wait_ratio) && !isnan(sync_ratio)) {
		w->wait_sum[who] += wait_ratio;
		w->sync_sum[who] += sync_ratio;
		w->nratio[who]++;
	}
	return 1;
}

/*
 * The collectives of communication.json, read by comm.c: how many were
 * added (not those with a null elapse, nor send and receive).
 */
static size_t
from_comm(struct wait *w, size_t who, const struct comm *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nops; i++) {
		const struct comm_op *o = &c->ops[i];
		const char *key = c->pool + o->key;

		n += add_op(w, who, key, o->glen, key + o->op, o->elapse,
		    o->wait_ratio, o->sync_ratio);
	}
	return n;
}

struct db_arg {
	struct wait	*w;
	size_t		 who;
	int		 n;
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

	/* hccl_op_name, group_name, step, elapse, transit, wait, sync */
	char *key = xasprintf("%s\037%s\037%s", col[1],
	    comm_step_number(col[2]), col[0]);

	add_op(a->w, a->who, key, strlen(col[1]), col[0], num[3],
	    ratio(num[5], num[4]), ratio(num[6], num[4]));
	free(key);
	a->n++;
	return 0;
}

static void
wait_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct wait *w = state;
	size_t who = rd - s->r;
	const struct comm *c = rank_comm(rf);
	struct db *db;

	/* a rank counts when some collective of it is compared */
	if (c->comm.state == 1) {
		if (from_comm(w, who, c) > 0)
			w->ranks++;
		return;
	}
	if ((db = rank_db(rf)) != NULL && db_has_table(db, "CommAnalyzerTime")) {
		struct db_arg a = { w, who, 0 };
		char *dwhy = NULL;

		if (db_rows(db, "SELECT hccl_op_name, group_name, step, "
		    "elapse_time, transit_time, wait_time, synchronization_time "
		    "FROM CommAnalyzerTime WHERE type = 'collective'", db_row, &a,
		    &dwhy) == 0 && a.n > 0)
			w->ranks++;
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

	memcpy(x, in->elapse, n * sizeof(*x));
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
			if (in->elapse[i] == x[0]) {
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
		mean += in->elapse[i];
	mean /= in->n;
	for (i = 0; i < in->n; i++) {
		var += (in->elapse[i] - mean) * (in->elapse[i] - mean);
		if (in->elapse[i] < lo) {
			lo = in->elapse[i];
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
	void **first = strmap_slot(&g->size, in->group);

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

	if (in->n == 2 && in->who[0] != in->who[1] &&
	    in->elapse[0] != in->elapse[1]) {
		a->w->counted2++;
		a->w->seen2[in->who[0]]++;
		a->w->seen2[in->who[1]]++;
		a->w->last2[in->who[in->elapse[1] < in->elapse[0]]]++;
	}
	if (in->n < 3 || strmap_get(&a->g->bad, in->group) != NULL)
		return;
	a->w->counted++;
	for (i = 0; i < in->n; i++)
		a->w->seen[in->who[i]]++;
	at = in->n <= DIXON_MAX ? dixon(in) : three_sigma(in);
	if (at >= 0) {
		a->w->votes[in->who[at]]++;
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

	if (in->n != 2 || in->elapse[0] == in->elapse[1])
		return;
	if (in->who[0] == pa->a && in->who[1] == pa->b)
		first_a = 1;
	else if (in->who[0] == pa->b && in->who[1] == pa->a)
		first_a = 0;
	else
		return;
	pa->p.n++;
	/* the shorter elapse arrived last */
	if ((in->elapse[0] < in->elapse[1]) == first_a)
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

static char *
wait_finish(struct summary *s, void *state)
{
	struct wait *w = state;
	struct group_check g = { { 0 }, { 0 } };
	struct vote_arg a = { w, &g };

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

/* Voted for most often first, then in rank order. */
static int
by_votes(const void *a, const void *b, void *arg)
{
	const struct wait *w = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t vx = w->votes[x], vy = w->votes[y];

	return vx != vy ? (vy > vx) - (vy < vx) : (x > y) - (x < y);
}

static void
wait_row(const struct summary *s, const struct wait *w, size_t i, int lw,
    struct out *o)
{
	char lab[LABEL_MAX];

	fprintf(o->fp, "  %-*s %8zu %8zu %7.1f%%", lw,
	    rank_label(&s->r[i], lab, sizeof(lab)), w->votes[i],
	    w->seen[i], w->seen[i] ? 100.0 * w->votes[i] / w->seen[i] : 0);
	if (w->nratio[i] > 0)
		fprintf(o->fp, " %10.3f %10.3f\n", w->wait_sum[i] /
		    w->nratio[i], w->sync_sum[i] / w->nratio[i]);
	else
		fprintf(o->fp, " %10s %10s\n", "-", "-");
}

/*
 * The collectives of two ranks: each rank that arrived last (the shorter
 * elapse) in some, in how many of its own.
 */
static void
pairs_print(const struct summary *s, const struct wait *w, int lw,
    struct out *o)
{
	char lab[LABEL_MAX];
	size_t i, n = 0;

	if (w->counted2 == 0)
		return;
	fprintf(o->fp, _("  %zu collectives of two ranks; the rank that "
	    "arrived last (shorter elapse: the other waited for it):\n"),
	    w->counted2);
	for (i = 0; i < s->nr && n < MAX_WAIT_ROWS; i++)
		if (w->last2[i] > 0) {
			fprintf(o->fp, _("  %-*s last in %zu of its %zu\n"), lw,
			    rank_label(&s->r[i], lab, sizeof(lab)),
			    w->last2[i], w->seen2[i]);
			n++;
		}
}

static void
wait_print(const struct summary *s, const void *state, struct out *o)
{
	const struct wait *w = state;
	size_t i, n = 0, *v = xcalloc(s->nr + 1, sizeof(*v));
	int lw = label_width(s, 10);

	/* a vote takes three ranks: below, a table of nothing */
	if (w->counted == 0) {
		fprintf(o->fp, _("  no vote: no collective was seen by three "
		    "ranks or more (%zu ranks with communication data)\n"),
		    w->ranks);
		pairs_print(s, w, lw, o);
		free(v);
		return;
	}
	fprintf(o->fp, _("  %zu ranks with communication data, %zu collectives "
	    "compared, %zu groups left out (operator counts differ)\n"),
	    w->ranks, w->counted, w->dropped_groups);
	fprintf(o->fp, "  %-*s %8s %8s %8s %10s %10s\n", lw, "", _("last"),
	    _("of"), _("share"), _("wait ratio"), _("sync ratio"));
	for (i = 0; i < s->nr; i++)
		if (w->votes[i] > 0 || (s->nr <= 16 && w->nratio[i] > 0))
			v[n++] = i;
	if (n > MAX_WAIT_ROWS) {
		/* many: those voted for most often */
		qsort_r(v, n, sizeof(*v), by_votes, (void *)w);
		fprintf(o->fp, _("  (%zu ranks arrived last as an outlier: the %d "
		    "most often; all in --json)\n"), n, MAX_WAIT_ROWS);
	}
	for (i = 0; i < n && i < MAX_WAIT_ROWS; i++)
		wait_row(s, w, v[i], lw, o);
	if (n == 0)
		fprintf(o->fp, _("  no rank arrived last as an outlier\n"));
	free(v);
}

static cJSON *
wait_json(const struct summary *s, const void *state)
{
	const struct wait *w = state;
	cJSON *j = cJSON_CreateObject(), *a;
	size_t i;

	cJSON_AddNumberToObject(j, "ranks", w->ranks);
	cJSON_AddNumberToObject(j, "collectives", w->counted);
	cJSON_AddNumberToObject(j, "dropped_groups", w->dropped_groups);
	cJSON_AddNumberToObject(j, "collectives_of_two", w->counted2);
	a = cJSON_AddArrayToObject(j, "votes");
	for (i = 0; i < s->nr; i++) {
		cJSON *x;

		if (w->seen[i] == 0 && w->nratio[i] == 0 && w->seen2[i] == 0)
			continue;
		x = cJSON_CreateObject();
		json_rank(x, "rank", s->r[i].rank);
		cJSON_AddNumberToObject(x, "last", w->votes[i]);
		cJSON_AddNumberToObject(x, "collectives", w->seen[i]);
		if (w->seen2[i] > 0) {
			cJSON_AddNumberToObject(x, "last_of_two", w->last2[i]);
			cJSON_AddNumberToObject(x, "collectives_of_two",
			    w->seen2[i]);
		}
		if (w->nratio[i] > 0) {
			cJSON_AddNumberToObject(x, "wait_ratio",
			    w->wait_sum[i] / w->nratio[i]);
			cJSON_AddNumberToObject(x, "sync_ratio",
			    w->sync_sum[i] / w->nratio[i]);
		}
		cJSON_AddItemToArray(a, x);
	}
	return j;
}

static void
wait_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct wait *w = state;
	size_t i, n = 0, most = 1, *v = xcalloc(s->nr + 1, sizeof(*v));
	char lab[LABEL_MAX];

	for (i = 0; i < s->nr; i++) {
		if (w->votes[i] > most)
			most = w->votes[i];
		if (w->votes[i] > 0 || (s->nr <= 16 && (w->seen[i] > 0 ||
		    w->nratio[i] > 0)))
			v[n++] = i;
	}
	if (w->counted == 0) {
		fprintf(fp, "<p>No vote: no collective was seen by three ranks "
		    "or more (%zu ranks with communication data).</p>\n",
		    w->ranks);
		for (i = 0; i < s->nr && w->counted2 > 0; i++)
			if (w->last2[i] > 0) {
				fputs("<p>", fp);
				html_text(fp, rank_label(&s->r[i], lab,
				    sizeof(lab)));
				fprintf(fp, " arrived last (the shorter elapse) "
				    "in %zu of its %zu collectives of two "
				    "ranks.</p>\n", w->last2[i], w->seen2[i]);
			}
		free(v);
		return;
	}
	fprintf(fp, "<p>%zu collectives compared; %zu groups left out.</p>\n",
	    w->counted, w->dropped_groups);
	if (n > MAX_WAIT_ROWS) {
		qsort_r(v, n, sizeof(*v), by_votes, (void *)w);
		fprintf(fp, "<p>%zu ranks arrived last as an outlier: the %d most "
		    "often; all in --json.</p>\n", n, MAX_WAIT_ROWS);
		n = MAX_WAIT_ROWS;
	}
	fputs("<table>\n<tr><th>rank</th><th>last</th><th>of</th>"
	    "<th class=\"l\">votes</th><th>wait ratio</th><th>sync ratio</th>"
	    "</tr>\n", fp);
	for (size_t k = 0; k < n; k++) {
		i = v[k];
		fputs("<tr>", fp);
		html_rank(fp, &s->r[i]);
		fprintf(fp, "<td>%zu</td><td>%zu</td><td class=\"l\">"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"204\" "
		    "height=\"12\"><rect x=\"0\" y=\"1\" width=\"%.1f\" "
		    "height=\"10\" fill=\"#c0392b\"/></svg></td>",
		    w->votes[i], w->seen[i], 200.0 * w->votes[i] / most);
		if (w->nratio[i] > 0)
			fprintf(fp, "<td>%.3f</td><td>%.3f</td></tr>\n",
			    w->wait_sum[i] / w->nratio[i],
			    w->sync_sum[i] / w->nratio[i]);
		else
			fputs("<td>-</td><td>-</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	free(v);
}

static void
free_inst(void *v)
{
	struct inst *in = v;

	free(in->group);
	free(in->who);
	free(in->elapse);
	free(in);
}

static void
wait_free(void *state)
{
	struct wait *w = state;

	strmap_free(&w->inst, free_inst);
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
	wait_init, NULL, wait_rank, wait_finish, wait_print, wait_json, wait_html,
	wait_free,
};
