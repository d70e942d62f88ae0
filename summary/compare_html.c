/*
 * The comparison as one self-contained XHTML page: the result, the step
 * breakdown of both runs as stacked bars, the operator types that changed
 * most as side-by-side bars, and the ranks (SVG inline, nothing loaded).
 */
#include <math.h>
#include <stdlib.h>

#include "common/ranks.h"
#include "compare_model.h"

#define PAGE_OPS	30	/* operator types on the page */
#define PAGE_RANKS	50	/* ranks unlike the others on the page */
#define BAR_W		500
#define BAR_H		9
#define LABEL_W		260

static const char *const fill[2] = { "#7a8fa6", "#e07b39" };
static const char *const run_names[2] = { "base", "new" };

static void
cell(FILE *fp, const char *cls, const char *text)
{
	fprintf(fp, "<td%s>", cls != NULL ? " class=\"l\"" : "");
	html_text(fp, text);
	fputs("</td>", fp);
}

static void
runs_table(const struct compare *c, FILE *fp)
{
	fputs("<table>\n<tr><th></th><th class=\"l\">path</th><th>rank "
	    "directories</th><th class=\"l\">level</th><th class=\"l\">"
	    "layout</th><th>step variation</th></tr>\n", fp);
	for (int k = BASE; k <= NEW; k++) {
		const struct cmp_run *r = &c->run[k];

		fprintf(fp, "<tr><th class=\"l\">%s</th>", run_names[k]);
		cell(fp, "l", r->name);
		fprintf(fp, "<td>%zu</td>", r->s->nr);
		cell(fp, "l", r->level != NULL ? r->level : "");
		cell(fp, "l", r->layout != NULL ? r->layout : "");
		if (isnan(r->variation))
			fputs("<td>-</td></tr>\n", fp);
		else
			fprintf(fp, "<td>%.1f %%</td></tr>\n", 100 * r->variation);
	}
	fputs("</table>\n", fp);
}

static void
settings_table(const struct compare *c, FILE *fp)
{
	if (!c->settings_set)
		return;
	if (c->settings_why != NULL || c->nsettings == 0) {
		fputs("<p>Settings: ", fp);
		html_text(fp, c->settings_why != NULL ? c->settings_why :
		    "the launches' command lines, the environment msprof-exec "
		    "records and the profiling settings are the same");
		fputs("</p>\n", fp);
		return;
	}
	fputs("<p>Settings that differ (the launches as msprof-exec recorded "
	    "them):</p>\n<table>\n<tr><th class=\"l\"></th><th class=\"l\">"
	    "name</th><th class=\"l\">base</th><th class=\"l\">new</th></tr>\n",
	    fp);
	for (size_t i = 0; i < c->nsettings; i++) {
		const struct cmp_setting *s = &c->settings[i];

		fputs("<tr>", fp);
		cell(fp, "l", cmp_setting_words[s->kind]);
		cell(fp, "l", s->name);
		cell(fp, "l", cmp_setting_value(s, BASE));
		cell(fp, "l", cmp_setting_value(s, NEW));
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

static void
head(const struct compare *c, FILE *fp)
{
	char *result = cmp_result(c, "\u2192"), *certainty = cmp_certainty(c);

	html_page_head(fp, "compare", ".changed{color:#a33;font-weight:bold}\n"
	    ".same{color:#2e8b57;font-weight:bold}\n.caveat{color:#a60}\n");
	runs_table(c, fp);
	fprintf(fp, "<p>Noise margin: %.1f %% of the %s (%.3f ms), %s.</p>\n",
	    100 * c->margin, c->steps_why == NULL ? "base step" :
	    "base operator time per rank", c->margin * c->scale / 1000,
	    c->from_floor ? "the floor" :
	    "twice the larger step-to-step variation");
	fputs("<p class=\"caveat\">Certainty: ", fp);
	html_text(fp, certainty);
	fputs("</p>\n", fp);
	free(certainty);
	settings_table(c, fp);
	for (size_t i = 0; i < c->caveats.n; i++) {
		fputs("<p class=\"caveat\">Caveat: ", fp);
		html_text(fp, c->caveats.v[i]);
		fputs("</p>\n", fp);
	}
	fprintf(fp, "<p class=\"%s\">Result: ", c->changed ? "changed" : "same");
	html_text(fp, result);
	fputs("</p>\n", fp);
	free(result);
}

static void
steps_section(const struct compare *c, FILE *fp)
{
	static const char *const names[] = { "compute",
	    "exposed communication", "free" };
	char lab[2][64];
	const char *labels[2] = { lab[0], lab[1] };
	double parts[6];

	fputs("<h2>Step time and breakdown (means per rank and step)</h2>\n",
	    fp);
	if (c->steps_why != NULL) {
		fputs("<p>Not compared: ", fp);
		html_text(fp, c->steps_why);
		fputs("</p>\n", fp);
		return;
	}
	for (int k = BASE; k <= NEW; k++) {
		const double *m = c->run[k].mean;

		snprintf(lab[k], sizeof(lab[k]), "%s  %.3f ms", run_names[k],
		    m[CP_STEP] / 1000);
		parts[k * 3] = m[CP_COMP];
		parts[k * 3 + 1] = m[CP_COMM];
		parts[k * 3 + 2] = m[CP_FREE];
	}
	svg_bars(fp, labels, parts, 2, 3, names);
	fputs("<table>\n<tr><th></th><th>base ms</th><th>new ms</th>"
	    "<th>change ms</th><th>base share</th><th>new share</th>"
	    "<th class=\"l\"></th></tr>\n", fp);
	for (int p = 0; p < CP_N; p++) {
		const double *b = c->run[BASE].mean, *n = c->run[NEW].mean;

		fprintf(fp, "<tr><th class=\"l\">%s</th><td>%.3f</td><td>%.3f"
		    "</td><td>%+.3f</td><td>%.1f %%</td><td>%.1f %%</td>"
		    "<td class=\"l\">%s</td></tr>\n", cmp_part_names[p],
		    b[p] / 1000, n[p] / 1000, (n[p] - b[p]) / 1000,
		    b[CP_STEP] > 0 ? 100 * b[p] / b[CP_STEP] : 0,
		    n[CP_STEP] > 0 ? 100 * n[p] / n[CP_STEP] : 0,
		    !c->sig[p] ? "" : n[p] > b[p] ? "longer" : "shorter");
	}
	fputs("</table>\n", fp);
}

/* Each row's base and new value as two bars, scaled to the largest. */
static void
svg_pairs(FILE *fp, const struct cmp_op *const rows[], size_t n)
{
	double top = 0;
	int h = (int)n * (2 * BAR_H + 8) + 24;

	for (size_t i = 0; i < n; i++)
		top = fmax(top, fmax(rows[i]->us[BASE], rows[i]->us[NEW]));
	if (n == 0 || !(top > 0))
		return;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" font-size=\"11\" font-family=\"sans-serif\">\n",
	    LABEL_W + BAR_W + 10, h);
	for (size_t i = 0; i < n; i++) {
		int y = (int)i * (2 * BAR_H + 8) + 4;

		fprintf(fp, "<text x=\"0\" y=\"%d\">", y + BAR_H + 3);
		html_text(fp, rows[i]->type);
		fputs("</text>\n", fp);
		for (int k = BASE; k <= NEW; k++)
			fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
			    "height=\"%d\" fill=\"%s\"><title>%s %.3f ms</title>"
			    "</rect>\n", LABEL_W, y + k * BAR_H,
			    rows[i]->us[k] / top * BAR_W, BAR_H, fill[k],
			    run_names[k], rows[i]->us[k] / 1000);
	}
	for (int k = BASE; k <= NEW; k++)
		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
		    "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
		    LABEL_W + k * 100, h - 14, fill[k], LABEL_W + k * 100 + 14,
		    h - 5, run_names[k]);
	fputs("</svg>\n", fp);
}

static void
op_row(FILE *fp, const struct cmp_op *op)
{
	fprintf(fp, "<tr><td class=\"l\">%s</td>",
	    cmp_change_words[op->change]);
	cell(fp, "l", op->type);
	if (op->moved) {
		fputs("<td class=\"l\">", fp);
		html_text(fp, op->core[BASE]);
		fputs(" &#8594; ", fp);
		html_text(fp, op->core[NEW]);
		fputs("</td>", fp);
	} else
		cell(fp, "l", op->core[NEW] != NULL ? op->core[NEW] :
		    op->core[BASE]);
	fprintf(fp, "<td>%.3f</td><td>%.3f</td><td>%+.3f</td><td>%.4g</td>"
	    "<td>%.4g</td><td class=\"l\">%s</td></tr>\n", op->us[BASE] / 1000,
	    op->us[NEW] / 1000, op->delta / 1000, op->calls[BASE],
	    op->calls[NEW], op->significant ? "beyond the margin" : "");
}

/* The operator types beyond the margin, or the largest changes if none. */
static void
ops_section(const struct compare *c, FILE *fp)
{
	const struct cmp_op **rows;
	size_t n = 0;

	fprintf(fp, "<h2>Operator types (device time per %s, ms)</h2>\n",
	    c->per_step ? "rank and step" : "rank");
	if (c->ops_why != NULL) {
		fputs("<p>Not compared: ", fp);
		html_text(fp, c->ops_why);
		fputs("</p>\n", fp);
		return;
	}
	fprintf(fp, "<p>%zu of %zu operator types changed beyond the margin"
	    "%s.", c->nops_sig, c->nops, c->nops_sig == 0 ?
	    "; the largest changes" : "");
	if (c->op_scale != c->scale)
		fprintf(fp, " Their margin: %.1f %% of the base operator time "
		    "per rank (%.3f ms).", 100 * c->margin,
		    c->margin * c->op_scale / 1000);
	fputs("</p>\n", fp);
	rows = xcalloc(PAGE_OPS, sizeof(*rows));
	for (size_t i = 0; i < c->nops && n < PAGE_OPS; i++)
		if (c->ops[i].significant || (c->nops_sig == 0 && n < TOP_OPS))
			rows[n++] = &c->ops[i];
	svg_pairs(fp, rows, n);
	fputs("<table>\n<tr><th class=\"l\"></th><th class=\"l\">type</th>"
	    "<th class=\"l\">core</th><th>base ms</th><th>new ms</th>"
	    "<th>change ms</th><th>base calls</th><th>new calls</th>"
	    "<th class=\"l\"></th></tr>\n", fp);
	for (size_t i = 0; i < n; i++)
		op_row(fp, rows[i]);
	fputs("</table>\n", fp);
	free(rows);
}

static void
rank_list(FILE *fp, const char *what, const int *v, size_t n)
{
	char *t;

	if (n == 0)
		return;
	t = ranks_text(v, n, RANK_ITEMS);
	fprintf(fp, "<p>%s (%zu): ", what, n);
	html_text(fp, t);
	fputs("</p>\n", fp);
	free(t);
}

static void
ranks_section(const struct compare *c, FILE *fp)
{
	int *v = xcalloc(c->nranks + 1, sizeof(*v));

	fputs("<h2>Ranks (matched by rank)</h2>\n", fp);
	for (size_t i = 0; i < c->nranks; i++)
		v[i] = c->ranks[i].rank;
	rank_list(fp, "In both runs with step data", v, c->nranks);
	free(v);
	rank_list(fp, "Only in base", c->only[BASE], c->nonly[BASE]);
	rank_list(fp, "Only in new", c->only[NEW], c->nonly[NEW]);
	if (c->steps_why != NULL)
		return;
	if (c->nranks < 3) {
		fprintf(fp, "<p>%s</p>\n", c->nranks == 2 ? "Two ranks are "
		    "too few to tell one unlike the others." : "One rank is "
		    "in both.");
		return;
	}
	fprintf(fp, "<p>%zu ranks changed unlike the others beyond the margin"
	    "%s</p>\n", c->nnamed, c->nnamed > 0 ? ":" : ".");
	if (c->nnamed == 0)
		return;
	fputs("<table>\n<tr><th>rank</th><th>base step ms</th><th>new step "
	    "ms</th><th>change</th><th class=\"l\">most unlike</th>"
	    "<th>its change ms</th><th>median of the ranks ms</th></tr>\n", fp);
	for (size_t i = 0; i < c->nnamed && i < PAGE_RANKS; i++) {
		const struct cmp_rank *r = &c->ranks[c->named[i]];
		double b = r->r[BASE]->mean.step_time;
		double n = r->r[NEW]->mean.step_time;

		fprintf(fp, "<tr><td>%d</td><td>%.3f</td><td>%.3f</td>"
		    "<td>%+.1f %%</td><td class=\"l\">%s</td><td>%+.3f</td>"
		    "<td>%+.3f</td></tr>\n", r->rank, b / 1000, n / 1000,
		    b > 0 ? 100 * (n - b) / b : 0, cmp_part_names[r->part],
		    r->d[r->part] / 1000, c->median[r->part] / 1000);
	}
	fputs("</table>\n", fp);
	if (c->nnamed > PAGE_RANKS)
		fprintf(fp, "<p>and %zu more (all in --json)</p>\n",
		    c->nnamed - PAGE_RANKS);
}

int
compare_html(const struct compare *c, FILE *fp)
{
	head(c, fp);
	steps_section(c, fp);
	ops_section(c, fp);
	ranks_section(c, fp);
	html_page_end(fp);
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}
