/*
 * The comparison as text, one screen whatever the number of ranks: the
 * runs and the noise margin, the result in a sentence, the step and its
 * breakdown side by side with bars, the operator types that changed most,
 * and the ranks that changed unlike the others (lists of ranks as
 * ranges; everything rank by rank is in --json).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "compare_model.h"

#define BAR_WIDTH	40
#define NAMES_LISTED	5
/* Columns (not bytes: the labels are translated) of the text's tables. */
#define LABEL_COLS	5	/* "base", "new" */
#define PART_COLS	22	/* "exposed communication" */
#define WORD_COLS	8	/* "slower", "removed" */
#define CALLS_COLS	15	/* "6 -> 6" */
#define CORE_COLS	14	/* "AI_VECTOR_CORE" */

/* The heads of the base, new and change columns, right-aligned. */
static void
print_heads(FILE *fp)
{
	fputc(' ', fp);
	fput_cols(fp, _("base ms"), 10);
	fputc(' ', fp);
	fput_cols(fp, _("new ms"), 10);
	fputc(' ', fp);
	fput_cols(fp, _("change ms"), 11);
}

static const char *
arrow(const struct out *o)
{
	return o->flags & SUMMARY_UTF8 ? "\u2192" : "->";
}

/* The known ranks of S as ranges. */
static char *
run_ranks(const struct summary *s)
{
	int *v = xcalloc(s->nr + 1, sizeof(*v));
	char *t;

	for (size_t i = 0; i < s->nr; i++)
		v[i] = s->r[i].rank;
	t = ranks_text(v, s->nr, RANK_ITEMS);
	free(v);
	return t;
}

static void
print_run(const struct cmp_run *run, struct out *o)
{
	char *ranks = run_ranks(run->s);

	fputs("  ", o->fp);
	fput_cols(o->fp, _(run->label), -LABEL_COLS);
	fprintf(o->fp, " %s: ", run->name);
	fprintf(o->fp, run->s->nr == 1 ? _("%zu rank") : _("%zu ranks"),
	    run->s->nr);
	if (*ranks)
		fprintf(o->fp, " (%s)", ranks);
	if (run->level != NULL)
		fprintf(o->fp, ", %s", run->level);
	if (run->layout != NULL)
		fprintf(o->fp, "; %s", run->layout);
	fputc('\n', o->fp);
	free(ranks);
}

static void
print_margin(const struct compare *c, FILE *fp)
{
	char *certainty = cmp_certainty(c);

	fprintf(fp, c->steps_why == NULL ? _("  noise margin: %.1f %% of the "
	    "base step (%.3f ms): ") : _("  noise margin: %.1f %% of the base "
	    "operator time per rank (%.3f ms): "), 100 * c->margin,
	    c->margin * c->scale / 1000);
	fputs(c->from_floor ? _("the floor") :
	    _("twice the larger step-to-step variation"), fp);
	fprintf(fp, _("\n  certainty: %s\n"), certainty);
	free(certainty);
}

/* A longer step in red, a shorter one in green, other changes in yellow. */
static const char *
result_colour(const struct compare *c, struct out *o)
{
	if (!c->changed)
		return "";
	if (!c->sig[CP_STEP] || c->steps_why != NULL)
		return colour(o, 2);
	return colour(o, c->run[NEW].mean[CP_STEP] >
	    c->run[BASE].mean[CP_STEP] ? 1 : 0);
}

/*
 * What differs between the launches: "flag --lr: 1e-4 -> 2e-4", each on
 * its line, or that nothing does, or why it is not known.
 */
static void
print_settings(const struct compare *c, struct out *o)
{
	const struct cmp_setting *s;

	if (!c->settings_set)
		return;
	if (c->settings_why != NULL) {
		fprintf(o->fp, _("  settings: %s\n"), c->settings_why);
		return;
	}
	if (c->nsettings == 0) {
		fprintf(o->fp, "%s\n", _("  settings: the launches' command lines, "
		    "the environment msprof-exec records and the profiling "
		    "settings are the same"));
		return;
	}
	fprintf(o->fp, "%s\n", _("  settings that differ (the launches as "
	    "msprof-exec recorded them):"));
	for (size_t i = 0; i < c->nsettings; i++) {
		s = &c->settings[i];
		fprintf(o->fp, "    %s%s%s: %s %s %s\n",
		    _(cmp_setting_words[s->kind]), *s->name ? " " : "", s->name,
		    cmp_setting_value(s, BASE), arrow(o),
		    cmp_setting_value(s, NEW));
	}
}

static void
print_head(const struct compare *c, struct out *o)
{
	char *result = cmp_result(c, arrow(o));

	fprintf(o->fp, "%s\n", _("Comparison of two runs"));
	print_run(&c->run[BASE], o);
	print_run(&c->run[NEW], o);
	print_margin(c, o->fp);
	print_settings(c, o);
	for (size_t i = 0; i < c->caveats.n; i++)
		fprintf(o->fp, _("  caveat: %s\n"), c->caveats.v[i]);
	fprintf(o->fp, _("\nResult: %s%s%s\n"), result_colour(c, o), result,
	    c->changed ? colour_off(o) : "");
	free(result);
}

/* "longer" in red, "shorter" in green, when beyond the margin. */
static void
verdict(struct out *o, int sig, double delta, const char *more,
    const char *less)
{
	if (sig)
		fprintf(o->fp, "  %s%s%s", colour(o, delta > 0 ? 1 : 0),
		    delta > 0 ? more : less, colour_off(o));
}

static double
share(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

/* V, without the sign of a value that prints as zero ("-0.0"). */
static double
unsigned_zero(double v)
{
	return fabs(v) < 0.05 ? 0 : v;
}

static double
pct(double d, double of)
{
	return of > 0 ? 100 * d / of : 0;
}

static void
print_figure(const struct compare *c, int p, struct out *o)
{
	const double *b = c->run[BASE].mean, *n = c->run[NEW].mean;
	double d = n[p] - b[p];

	fputs("  ", o->fp);
	fput_cols(o->fp, _(cmp_part_names[p]), -PART_COLS);
	fprintf(o->fp, " %10.3f %10.3f %+11.3f  ", b[p] / 1000, n[p] / 1000,
	    d / 1000);
	if (p == CP_STEP)	/* as wide as the shares below */
		fprintf(o->fp, "%+6.1f %%%*s", unsigned_zero(share(d, b[p])),
		    o->flags & SUMMARY_UTF8 ? 9 : 10, "");
	else
		fprintf(o->fp, "%5.1f %% %s %5.1f %%", share(b[p], b[CP_STEP]),
		    arrow(o), share(n[p], n[CP_STEP]));
	verdict(o, c->sig[p], d, _("longer"), _("shorter"));
	fputc('\n', o->fp);
}

static void
print_steps(const struct compare *c, struct out *o)
{
	static const char *const bar_names[] = { N_("compute"),
	    N_("exposed communication"), N_("free") };
	const char *names[3];
	double longest = fmax(c->run[BASE].mean[CP_STEP],
	    c->run[NEW].mean[CP_STEP]);

	fprintf(o->fp, "\n%s\n", _("Step time and breakdown (means per rank "
	    "and step)"));
	if (c->steps_why != NULL) {
		fprintf(o->fp, _("  not compared: %s\n"), c->steps_why);
		return;
	}
	fprintf(o->fp, "  %*s", PART_COLS, "");
	print_heads(o->fp);
	fprintf(o->fp, "  %s\n", _("change, share of the step"));
	for (int p = 0; p < CP_N; p++)
		print_figure(c, p, o);
	for (int k = BASE; k <= NEW; k++) {
		const double *m = c->run[k].mean;
		double parts[3] = { m[CP_COMP], m[CP_COMM], m[CP_FREE] };

		fputs("  ", o->fp);
		fput_cols(o->fp, k == BASE ? _("base") : _("new"), -LABEL_COLS);
		fputc(' ', o->fp);
		draw_bar(o, parts, 3, longest, BAR_WIDTH);
		fprintf(o->fp, " %.3f ms\n", m[CP_STEP] / 1000);
	}
	for (int i = 0; i < 3; i++)
		names[i] = _(bar_names[i]);
	draw_legend(o, names, 3);
}

static const char *
op_word(const struct cmp_op *op)
{
	return _(cmp_change_words[op->change]);
}

/* Where an operator type ran: in new, else in base. */
static const char *
op_core(const struct cmp_op *op)
{
	return op->core[NEW] != NULL ? op->core[NEW] : op->core[BASE];
}

/* Milliseconds, or "-" where the operator is absent. */
static void
print_ms(FILE *fp, double us, int present)
{
	if (present)
		fprintf(fp, " %10.3f", us / 1000);
	else
		fprintf(fp, " %10s", "-");
}

static void
print_op(const struct cmp_op *op, struct out *o)
{
	char calls[64];
	int b = op->change != OP_ADDED, n = op->change != OP_REMOVED;

	if (b && n)
		snprintf(calls, sizeof(calls), "%.4g %s %.4g", op->calls[BASE],
		    arrow(o), op->calls[NEW]);
	else if (b)
		snprintf(calls, sizeof(calls), "%.4g %s -", op->calls[BASE],
		    arrow(o));
	else
		snprintf(calls, sizeof(calls), "- %s %.4g", arrow(o),
		    op->calls[NEW]);
	fprintf(o->fp, "  %s", colour(o, op->delta > 0 ? 1 : 0));
	fput_cols(o->fp, op_word(op), -WORD_COLS);
	fputs(colour_off(o), o->fp);
	print_ms(o->fp, op->us[BASE], b);
	print_ms(o->fp, op->us[NEW], n);
	fprintf(o->fp, " %+11.3f  ", op->delta / 1000);
	fput_cols(o->fp, calls, -CALLS_COLS);
	fprintf(o->fp, " %-*s %s", CORE_COLS, op_core(op), op->type);
	if (op->moved)
		fprintf(o->fp, _(" (on %s in base)"), op->core[BASE]);
	fputc('\n', o->fp);
}

static void
print_op_heads(FILE *fp)
{
	fprintf(fp, "  %*s", WORD_COLS, "");
	print_heads(fp);
	fputs("  ", fp);
	fput_cols(fp, _("calls"), -CALLS_COLS);
	fputc(' ', fp);
	fput_cols(fp, _("core"), -CORE_COLS);
	fprintf(fp, " %s\n", _("type"));
}

/* The operator types in one run only but below the margin, by name. */
static void
print_small(const struct compare *c, enum op_change want, struct out *o)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nops; i++) {
		const struct cmp_op *op = &c->ops[i];

		if (op->change != want || op->significant)
			continue;
		if (n == 0)
			fprintf(o->fp, _("  only in %s, below the margin: "),
			    _(c->run[want == OP_ADDED ? NEW : BASE].label));
		if (n < NAMES_LISTED)
			fprintf(o->fp, "%s%s", n > 0 ? ", " : "", op->type);
		n++;
	}
	if (n > NAMES_LISTED)
		fprintf(o->fp, _(" (and %zu more)"), n - NAMES_LISTED);
	if (n > 0)
		fputc('\n', o->fp);
}

/* The operator types that ran on other cores in new. */
static void
print_moved(const struct compare *c, struct out *o)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nops; i++) {
		const struct cmp_op *op = &c->ops[i];

		if (!op->moved)
			continue;
		if (n == 0)
			fprintf(o->fp, _("  on other cores in %s: "),
			    _(c->run[NEW].label));
		if (n < NAMES_LISTED)
			fprintf(o->fp, "%s%s (%s %s %s)", n > 0 ? ", " : "",
			    op->type, op->core[BASE], arrow(o), op->core[NEW]);
		n++;
	}
	if (n > NAMES_LISTED)
		fprintf(o->fp, _(" (and %zu more)"), n - NAMES_LISTED);
	if (n > 0)
		fputc('\n', o->fp);
}

static void
print_ops(const struct compare *c, struct out *o)
{
	size_t shown = 0;

	fprintf(o->fp, "\n%s\n", c->per_step ? _("Operator types (device time "
	    "per rank and step; the largest changes beyond the margin)") :
	    _("Operator types (device time per rank; the largest changes "
	    "beyond the margin)"));
	if (c->ops_why != NULL) {
		fprintf(o->fp, _("  not compared: %s\n"), c->ops_why);
		return;
	}
	if (c->op_scale != c->scale)
		fprintf(o->fp, _("  noise margin: %.1f %% of the base operator "
		    "time per rank (%.3f ms)\n"), 100 * c->margin,
		    c->margin * c->op_scale / 1000);
	if (c->nops_sig == 0)
		fprintf(o->fp, _("  no operator type changed beyond the margin "
		    "(%zu types; the largest change: %s %+.3f ms)\n"), c->nops,
		    c->nops > 0 ? c->ops[0].type : "-",
		    c->nops > 0 ? c->ops[0].delta / 1000 : 0.0);
	else
		print_op_heads(o->fp);
	for (size_t i = 0; i < c->nops && shown < TOP_OPS; i++)
		if (c->ops[i].significant) {
			print_op(&c->ops[i], o);
			shown++;
		}
	if (c->nops_sig > 0)
		fprintf(o->fp, _("  %zu of %zu operator types changed beyond the "
		    "margin; all in --json\n"), c->nops_sig, c->nops);
	print_small(c, OP_ADDED, o);
	print_small(c, OP_REMOVED, o);
	print_moved(c, o);
}

static void
print_named(const struct cmp_rank *r, const struct compare *c, struct out *o)
{
	char lab[LABEL_MAX];
	double b = r->r[BASE]->mean.step_time, n = r->r[NEW]->mean.step_time;

	fprintf(o->fp, "    %s%-10s%s %s %.3f %s %.3f ms %+6.1f %%   %s %+.3f ms",
	    colour(o, 1), rank_label(r->r[BASE], lab, sizeof(lab)),
	    colour_off(o), _("step"), b / 1000, arrow(o), n / 1000,
	    pct(n - b, b), _(cmp_part_names[r->part]), r->d[r->part] / 1000);
	fprintf(o->fp, _(" (the median of the ranks: %+.3f ms)\n"),
	    c->median[r->part] / 1000);
}

/* The step change of the ranks not named: the range and who holds it. */
static void
print_rest(const struct compare *c, struct out *o)
{
	const struct cmp_rank *lo = NULL, *hi = NULL;
	double a, b;
	size_t n = 0;

	for (size_t i = 0; i < c->nranks; i++) {
		const struct cmp_rank *r = &c->ranks[i];
		double v = pct(r->d[CP_STEP], r->r[BASE]->mean.step_time);

		if (r->named)
			continue;
		if (lo == NULL || v < pct(lo->d[CP_STEP],
		    lo->r[BASE]->mean.step_time))
			lo = r;
		if (hi == NULL || v > pct(hi->d[CP_STEP],
		    hi->r[BASE]->mean.step_time))
			hi = r;
		n++;
	}
	if (n == 0)
		return;
	if (c->nranks == 1)
		fprintf(o->fp, _("  rank %d, the one rank in both: "), lo->rank);
	else if (c->nranks == 2)
		fprintf(o->fp, _("  the two ranks in both (too few to tell one "
		    "unlike the others): "));
	else
		fprintf(o->fp, c->nnamed > 0 ? _("  the other %zu ranks: ") :
		    _("  all %zu ranks changed alike (none unlike the others "
		    "beyond the margin): "), n);
	a = pct(lo->d[CP_STEP], lo->r[BASE]->mean.step_time);
	b = pct(hi->d[CP_STEP], hi->r[BASE]->mean.step_time);
	if (round(a * 10) == round(b * 10))
		fprintf(o->fp, _("step %+.1f %%\n"), unsigned_zero(a));
	else
		fprintf(o->fp, _("step %+.1f %% (rank %d) to %+.1f %% (rank "
		    "%d)\n"), a, lo->rank, b, hi->rank);
}

static void
print_named_ranks(const struct compare *c, struct out *o)
{
	size_t i, more = c->nnamed > TOP_RANKS ? c->nnamed - TOP_RANKS : 0;
	int *v;
	char *t;

	if (c->nnamed == 0)
		return;
	fprintf(o->fp, "%s\n", _("  unlike the others, beyond the margin:"));
	for (i = 0; i < c->nnamed && i < TOP_RANKS; i++)
		print_named(&c->ranks[c->named[i]], c, o);
	if (more == 0)
		return;
	v = xcalloc(more, sizeof(*v));
	for (i = 0; i < more; i++)
		v[i] = c->ranks[c->named[TOP_RANKS + i]].rank;
	t = ranks_text(v, more, RANK_ITEMS);
	fprintf(o->fp, _("    and %zu more: %s (all in --json)\n"), more, t);
	free(t);
	free(v);
}

static void
print_ranks(const struct compare *c, struct out *o)
{
	int *v = xcalloc(c->nranks + 1, sizeof(*v));
	char *t;

	fprintf(o->fp, "\n%s\n", _("Ranks (matched by rank)"));
	for (size_t i = 0; i < c->nranks; i++)
		v[i] = c->ranks[i].rank;
	t = ranks_text(v, c->nranks, RANK_ITEMS);
	if (c->nranks > 0)
		fprintf(o->fp, _("  %zu in both runs with step data: %s\n"),
		    c->nranks, t);
	free(t);
	free(v);
	if (c->half_steps > 0)
		fprintf(o->fp, _("  %zu in both runs, without step data in one "
		    "of them or both\n"), c->half_steps);
	for (int k = BASE; k <= NEW; k++)
		if (c->nonly[k] > 0) {
			t = ranks_text(c->only[k], c->nonly[k], RANK_ITEMS);
			fprintf(o->fp, _("  only in %s: %s\n"), _(c->run[k].label),
			    t);
			free(t);
		}
	if (c->steps_why != NULL) {
		fprintf(o->fp, _("  not compared rank by rank: %s\n"),
		    c->steps_why);
		return;
	}
	print_named_ranks(c, o);
	print_rest(c, o);
}

void
compare_print(const struct compare *c, FILE *fp, unsigned flags)
{
	struct out o = { fp, flags };

	print_head(c, &o);
	print_steps(c, &o);
	print_ops(c, &o);
	print_ranks(c, &o);
}
