/*
 * The summary's sections of the report's page (report.c): each kind
 * under its title, or why it was not made.  The writer of each kind is
 * its row in the table below.
 */
#include "summary/model.h"
#include "summary/summary.h"
#include "summary_writers.h"

typedef void	 html_writer(const struct summary *, const void *, FILE *);

/* The writer of each kind; a kind without a row writes itself. */
static const struct {
	const struct kind	*kind;
	html_writer		*write;
} writers[] = {
	{ NULL, NULL },
};

static html_writer *
writer_of(const struct kind *k)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (writers[i].kind == k)
			return writers[i].write;
	return k->html;
}

static void
part_html(const struct summary *s, size_t k, FILE *fp)
{
	fputs("<h2>", fp);
	html_text(fp, summary_kind(k)->title);
	fputs("</h2>\n", fp);
	if (s->why[k] != NULL) {
		fputs("<p class=\"why\">not made: ", fp);
		html_text(fp, s->why[k]);
		fputs("</p>\n", fp);
	} else
		writer_of(summary_kind(k))(s, s->state[k], fp);
}

void
summary_html_sections(const struct summary *s, FILE *fp)
{
	for (size_t k = 0; summary_kind(k) != NULL; k++)
		part_html(s, k, fp);
}
