/*
 * Several reports said as one: when they verify so many output
 * directories and ranks (a job's nodes), their rank directories, missing
 * ranks and what is odd are those of one output, under the directory
 * that holds them all.  The text and the JSON say the same.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "common/util.h"
#include "model.h"

#define LIST_OUTPUTS	8	/* more output directories are said together */

static int
many(const struct report_model *m, size_t n)
{
	size_t outs = 0, dirs = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < m[i].verify.nouts; k++) {
			outs++;
			dirs += m[i].verify.outs[k].ndirs;
		}
	return outs > 1 && (outs > LIST_OUTPUTS || dirs > LIST_RANKS);
}

/* The directory holding every output directory of the reports, or NULL. */
static char *
common_parent(const struct report_model *m, size_t n)
{
	char *c = NULL;
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < m[i].verify.nouts; k++) {
			const char *p = m[i].verify.outs[k].path;

			if (c == NULL) {
				c = xstrdup(p);
				len = strlen(c);
				continue;
			}
			while (len > 0 && (strncmp(c, p, len) != 0 ||
			    (p[len] != '/' && p[len] != '\0')))
				while (len > 0 && c[--len] != '/')
					;
		}
	if (c != NULL)
		c[len] = '\0';
	if (c != NULL && *c == '\0') {
		free(c);
		c = NULL;
	}
	return c;
}

int
report_together(const struct report_model *m, size_t n,
    struct report_together *t)
{
	struct outdir *all = &t->all;
	struct report_output *out = &t->out;
	size_t nmiss = 0;

	memset(t, 0, sizeof(*t));
	if (!many(m, n))
		return 0;
	out->dir = all;
	t->parent = common_parent(m, n);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < m[i].verify.nouts; k++) {
			const struct outdir *o = &m[i].verify.outs[k];
			const struct report_output *ro = &m[i].outs[k];

			t->outs++;
			all->analyse |= o->analyse;
			all->dirs = xreallocarray(all->dirs, all->ndirs +
			    o->ndirs + 1, sizeof(*all->dirs));
			if (o->ndirs > 0)	/* o->dirs NULL without any */
				memcpy(all->dirs + all->ndirs, o->dirs,
				    o->ndirs * sizeof(*o->dirs));
			all->ndirs += o->ndirs;
			for (size_t b = 0; b < o->broken.n; b++)
				strv_push(&all->broken, o->broken.v[b]);
			out->missing = xreallocarray(out->missing, nmiss +
			    ro->nmissing + 1, sizeof(*out->missing));
			if (ro->nmissing > 0)
				memcpy(out->missing + nmiss, ro->missing,
				    ro->nmissing * sizeof(*ro->missing));
			nmiss += ro->nmissing;
			out->pending |= ro->pending;
		}
	outdir_sort(all);
	out->nmissing = ranks_count(out->missing, nmiss);
	out->large = 1;
	unusual_find(all, &out->unusual);
	return 1;
}

void
report_together_free(struct report_together *t)
{
	unusual_free(&t->out.unusual);
	free(t->out.missing);
	free(t->all.dirs);	/* the rank directories are the reports' */
	strv_free(&t->all.broken);
	free(t->parent);
	memset(t, 0, sizeof(*t));
}
