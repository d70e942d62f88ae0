/*
 * The findings' section of the page: a list, an item a finding.
 */
#include <stdlib.h>

#include "advice/advice.h"
#include "summary/model.h"
#include "summary/writer.h"
#include "findings.h"

/* A list, an item a finding with its own list of what to change. */
static void
list(const struct summary *s, const struct findings *fs, FILE *fp)
{
	size_t i, k;
	char *lab, *st;

	fputs("<ul>\n", fp);
	if (fs->n == 0)
		fputs("<li>none</li>\n", fp);
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		char *who = finding_ranks(s, f);

		fputs("<li><span class=\"finding\">", fp);
		html_text(fp, f->rule->id);
		fputs("</span> ", fp);
		if (*who) {
			html_text(fp, who);
			fputs(": ", fp);
		}
		free(who);
		html_text(fp, f->text);
		if (f->rule->fix != NULL || f->note != NULL || f->nset > 0)
			fputs("\n<ul>\n", fp);
		if (f->rule->fix != NULL) {
			fputs("<li>", fp);
			html_text(fp, _(f->rule->fix));
			fputs("</li>\n", fp);
		}
		if (f->note != NULL) {
			fputs("<li>", fp);
			html_text(fp, f->note);
			fputs("</li>\n", fp);
		}
		for (k = 0; k < f->nset; k++) {
			if (f->set[k].setting->kind == SET_CODE) {
				fputs("<li>", fp);
				html_text(fp, f->set[k].setting->scope ==
				    SCOPE_DEEPSPEED ? _("in your DeepSpeed "
				    "config: ") : _("in your code: "));
				fputs("<code>", fp);
				html_text(fp, f->set[k].setting->name);
				fputs("</code></li>\n", fp);
				continue;
			}
			lab = setting_label(f->set[k].setting);
			st = state_text(&f->set[k]);
			fputs("<li><code>", fp);
			html_text(fp, lab);
			fputs("</code>: ", fp);
			html_text(fp, st);
			fputs("</li>\n", fp);
			free(lab);
			free(st);
		}
		if (f->rule->fix != NULL || f->note != NULL || f->nset > 0)
			fputs("</ul>\n", fp);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

void
findings_html(const struct summary *s, const struct findings *fs, FILE *fp)
{
	fputs("<h2>", fp);
	html_text(fp, "Findings");
	fputs("</h2>\n", fp);
	if (fs->why != NULL) {
		fputs("<p class=\"why\">not made: ", fp);
		html_text(fp, fs->why);
		fputs("</p>\n", fp);
	} else
		list(s, fs, fp);
}
