/* Pieces of the HTML page: escaped text and inline SVG stacked bars. */
#include <math.h>
#include <stdio.h>

#include "model.h"

const char *const part_fill[] = {
	"#2e8b57", "#d2691e", "#b0b0b0", "#8a2be2",
};

void
html_text(FILE *fp, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default:
			/* Control characters are not allowed in XML. */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, fp);
		}
}

void
html_rank(FILE *fp, const struct rank_data *r)
{
	char lab[LABEL_MAX];

	if (r->rank >= 0) {
		fprintf(fp, "<td>%d</td>", r->rank);
		return;
	}
	fputs("<td class=\"l\">", fp);
	html_text(fp, rank_label(r, lab, sizeof(lab)));
	fputs("</td>", fp);
}

#define BAR_W	600
#define BAR_H	14
#define LABEL_W	220

/* One horizontal stacked bar per row, scaled to the longest row. */
void
svg_bars(FILE *fp, const char *const labels[], const double *parts,
    size_t nrows, size_t nparts, const char *const names[])
{
	double longest = 0;
	size_t i, k;
	int h = (int)(nrows + 1) * (BAR_H + 4) + 10;

	for (i = 0; i < nrows; i++) {
		double t = 0;

		for (k = 0; k < nparts; k++)
			t += fmax(parts[i * nparts + k], 0);
		longest = fmax(longest, t);
	}
	if (nrows == 0 || !(longest > 0))
		return;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" font-size=\"11\" font-family=\"sans-serif\">\n",
	    LABEL_W + BAR_W + 10, h);
	for (i = 0; i < nrows; i++) {
		double x = LABEL_W;
		int y = (int)i * (BAR_H + 4) + 4;

		fprintf(fp, "<text x=\"0\" y=\"%d\">", y + BAR_H - 3);
		html_text(fp, labels[i]);
		fputs("</text>\n", fp);
		for (k = 0; k < nparts; k++) {
			double w = fmax(parts[i * nparts + k], 0) / longest * BAR_W;

			fprintf(fp, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
			    "height=\"%d\" fill=\"%s\"><title>%s %.3f ms"
			    "</title></rect>\n", x, y, w, BAR_H, part_fill[k % 4],
			    names[k], parts[i * nparts + k] / 1000);
			x += w;
		}
	}
	for (k = 0; k < nparts; k++) {
		int y = (int)nrows * (BAR_H + 4) + 6;
		int x = LABEL_W + (int)k * 180;

		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
		    "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x, y,
		    part_fill[k % 4], x + 14, y + 9, names[k]);
	}
	fputs("</svg>\n", fp);
}
