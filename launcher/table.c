/* Print the plan as a two-column table, aligned in any language. */
#include <stdlib.h>
#include <string.h>

#include "engines/apply.h"
#include "engines/rewrite.h"
#include "table.h"
#include "common/util.h"

#define LABEL_WIDTH	24

/* Print LABEL padded to LABEL_WIDTH columns (CJK counts double). */
static void
row(FILE *f, const char *label, const char *value)
{
	fputs("  ", f);
	fput_cols(f, label, -LABEL_WIDTH);
	fprintf(f, " %s\n", value);
}

static const char *
on_off(int v)
{
	return v ? _("on") : _("off");
}

/*
 * The first launch rewritten as it will be (nothing written): 0, or -1
 * when there is none or the plan does not apply to it yet (the launch, or
 * the dry run, says why).
 */
static int
preview(const struct plan *p, const struct facts *x, struct rewrite *rw)
{
	char *why = NULL;

	if (x->launch == NULL)
		return -1;
	if (launch_rewrite(p, x->launch, x->argv, x->envp, NULL, rw,
	    &why) == 0)
		return 0;
	free(why);
	rewrite_free(rw);
	return -1;
}

/* The steps, and where they moved to when the launch resumes. */
static char *
steps_text(const struct plan *p, const struct facts *x,
    const struct rewrite *rw, int start, int end)
{
	char *window = engine_window_text(x->engine, p, start, end), *s;

	if (rw == NULL || rw->loaded <= 0 || p->step_start || p->step_end)
		return window;
	s = xasprintf(_("%s (after iteration %d, which the launch resumes "
	    "from)"), window, rw->loaded);
	free(window);
	return s;
}

/* The train iterations: the launch's own and what it runs with. */
static char *
iters_text(const struct plan *p, const struct engine_ops *e,
    const struct rewrite *rw)
{
	if (rw == NULL) {
		if (p->train_iters > 0 || (p->train_iters == 0 &&
		    e->train_iters > 0))
			return xasprintf("%d", p->train_iters > 0 ?
			    p->train_iters : e->train_iters);
		return xstrdup(_("as the script sets"));
	}
	if (rw->iters < 0)
		return xstrdup(_("as the script sets"));
	if (rw->iters == rw->iters_from)
		return xasprintf(_("as the script sets: %d"), rw->iters);
	if (rw->iters_from < 0)
		return xasprintf("%d", rw->iters);
	return xasprintf("%d -> %d", rw->iters_from, rw->iters);
}

/*
 * The settings of --set: where the first launch gets each, or (without
 * one to preview) what kind each is; a name the settings table does not
 * know is said to be unchecked.
 */
static void
set_rows(FILE *f, const struct plan *p, const struct rewrite *rw)
{
	struct set_item s;
	char *why = NULL, *note = NULL, *text;

	for (size_t i = 0; i < p->set.n; i++) {
		if (set_check(p->set.v[i], &note, &why) == -1 ||
		    set_parse(p->set.v[i], &s, &why) == -1) {
			free(why);	/* options_parse() refused it already */
			continue;
		}
		if (rw != NULL && i < rw->set.n)
			text = xstrdup(rw->set.v[i]);
		else
			text = xasprintf("%s (%s)", p->set.v[i],
			    set_kind_text(s.kind));
		if (note != NULL) {
			char *t = xasprintf(_("%s; not in msprof-exec's settings "
			    "table: passed unchecked"), text);

			free(text);
			text = t;
		}
		row(f, _("Setting (--set)"), text);
		free(text);
		free(note);
		set_item_free(&s);
	}
}

void
table_print(FILE *f, const struct plan *p, const struct facts *x)
{
	const struct engine_ops *e = engine_ops(x->engine);
	struct rewrite rw, *r = NULL;
	int start, end;
	char *s;

	plan_steps(p, x->engine, &start, &end);
	if (preview(p, x, &rw) == 0) {
		r = &rw;
		start = rw.step_start;
		end = rw.step_end;
	}
	row(f, _("Model"), x->model ? x->model : _("unknown"));
	row(f, _("Script"), x->script ? x->script : "-");
	if (x->npus > 0 && p->npus_listed > 0 && x->npus > p->npus_listed)
		s = xasprintf(_("%d, more than the %d npu-smi info lists here"),
		    x->npus, p->npus_listed);
	else
		s = x->npus > 0 ? xasprintf("%d", x->npus) :
		    xstrdup(_("unknown"));
	row(f, _("NPUs per node"), s);
	free(s);
	row(f, _("Framework and engine"), _(e->label));
	if (x->launch != NULL && x->launch->because[0] != '\0')
		row(f, _("Taken for training"), x->launch->because);
	row(f, _("Config file"), x->config ? x->config : "-");
	row(f, _("Collection type"), p->mode);
	row(f, _("Level"), p->level);
	s = steps_text(p, x, r, start, end);
	row(f, _("Steps"), s);
	free(s);
	if (e->limits != NULL)
		row(f, _("Limits"), _(e->limits));
	if (p->ranks_all)
		s = xstrdup(_("all (large data volume)"));
	else if (p->nranks == 0)
		s = xstrdup("0");
	else {
		s = xstrdup("");
		for (size_t i = 0; i < p->nranks; i++) {
			char *t = xasprintf("%s%s%d", s, i ? "," : "", p->ranks[i]);

			free(s);
			s = t;
		}
	}
	row(f, _("Ranks"), s);
	free(s);
	s = xasprintf("%s / %s / %s / %s / %s", on_off(p->with_cpu),
	    on_off(p->with_memory), on_off(p->with_stack),
	    on_off(p->record_shapes), on_off(p->data_simplification));
	row(f, _("CPU/memory/stack/shapes/simplification"), s);
	free(s);
	row(f, _("AI Core metrics"), p->aic_metrics);
	row(f, _("Online parse"), on_off(p->analyse));
	s = iters_text(p, e, r);
	row(f, _("Train iterations"), s);
	free(s);
	row(f, _("Output directory"), plan_output(p, x->engine));
	set_rows(f, p, r);
	for (size_t i = 0; x->left_alone != NULL && i < x->left_alone->n; i++)
		row(f, _("Left alone"), x->left_alone->v[i]);
	if (x->unchecked != NULL && p->existing == EXISTING_ASK)
		fprintf(f, _("Profiling settings already in the launches could "
		    "not be checked before the run: %s; with --existing ask a "
		    "launch that has them is refused at its start. Choose "
		    "--existing keep or --existing override now (e, then "
		    "existing keep).\n"), x->unchecked);
	if (r != NULL)
		rewrite_free(r);
}
