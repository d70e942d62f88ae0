/*
 * The files the summary left out, whole or in part, each with its rank,
 * the reason and the message naming it: a line each when few, else a line
 * per file name and reason with the ranks as ranges (every file in
 * --json).  Paths and the fields quoted from the files are printed with
 * their control bytes escaped.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "common/util.h"
#include "model.h"

#define LISTED	8	/* files named one by one, or groups of them */

static const char *
base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

size_t
summary_nleft_out(const struct summary *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++)
		n += s->r[i].nleft;
	return n;
}

struct item {
	const struct rank_data	*r;
	const struct left_out	*l;
	size_t			 at;	/* in rank order */
};

/* By file name and reason, then in rank order: a group is a run. */
static int
by_group(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(base(x->l->path), base(y->l->path));

	if (c == 0)
		c = strcmp(x->l->reason, y->l->reason);
	return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/* The group of V[0..N): its file, reason, ranks and first message. */
static void
print_group(FILE *fp, const struct item *v, size_t n)
{
	int *ranks = xcalloc(n + 1, sizeof(*ranks));
	size_t k = 0, unknown = 0;
	char *list, *why, *name;

	for (size_t i = 0; i < n; i++)
		if (v[i].r->rank < 0)
			unknown++;
		else
			ranks[k++] = v[i].r->rank;
	list = ranks_text(ranks, k, 6);
	why = xescape(v[0].l->why);
	name = xescape(base(v[0].l->path));
	fprintf(fp, "  %s, %s: ", name, _(v[0].l->reason));
	if (k > 0)
		fprintf(fp, k == 1 ? _("rank %s") : _("ranks %s"), list);
	if (unknown > 0)
		fprintf(fp, _("%s%zu of unknown rank"), k > 0 ? ", " : "",
		    unknown);
	fprintf(fp, _(" (the first: %s)\n"), why);
	free(why);
	free(name);
	free(list);
	free(ranks);
}

void
left_out_print(const struct summary *s, FILE *fp)
{
	size_t n = summary_nleft_out(s), groups = 0, i, j;
	struct item *v;

	if (n == 0)
		return;
	fprintf(fp, "\n%s\n", _("Files left out of the summary"));
	v = xcalloc(n, sizeof(*v));
	for (i = 0, n = 0; i < s->nr; i++)
		for (size_t k = 0; k < s->r[i].nleft; k++, n++)
			v[n] = (struct item){ &s->r[i], &s->r[i].left[k], n };
	if (n <= LISTED) {
		for (i = 0; i < n; i++) {
			char lab[LABEL_MAX], *why = xescape(v[i].l->why);
			char *label = xescape(rank_label(v[i].r, lab,
			    sizeof(lab)));

			fprintf(fp, "  %s: %s\n", label, why);
			free(label);
			free(why);
		}
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), by_group);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n &&
		    strcmp(base(v[i].l->path), base(v[j].l->path)) == 0 &&
		    strcmp(v[i].l->reason, v[j].l->reason) == 0; j++)
			;
		if (groups++ < LISTED)
			print_group(fp, v + i, j - i);
	}
	if (groups > LISTED)
		fprintf(fp, _("  and %zu more kinds of file and reason\n"),
		    groups - LISTED);
	fprintf(fp, _("  (%zu files; each in --json)\n"), n);
	free(v);
}

cJSON *
left_out_json(const struct summary *s)
{
	cJSON *a = cJSON_CreateArray(), *o;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t k = 0; k < s->r[i].nleft; k++) {
			o = cJSON_CreateObject();
			json_rank(o, "rank", s->r[i].rank);
			cJSON_AddStringToObject(o, "path", s->r[i].left[k].path);
			cJSON_AddStringToObject(o, "reason",
			    s->r[i].left[k].reason);
			cJSON_AddStringToObject(o, "why", s->r[i].left[k].why);
			cJSON_AddItemToArray(a, o);
		}
	return a;
}
