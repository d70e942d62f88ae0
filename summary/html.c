/* Pieces of the HTML page: escaped text and inline SVG stacked bars. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "model.h"
#include "writer.h"

const char *const part_fill[] = {
	"#2e8b57", "#d2691e", "#b0b0b0", "#8a2be2",
};

void
html_page_head(FILE *fp, const char *what, const char *style)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<!DOCTYPE html>\n"
	    "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	    "<head>\n<meta charset=\"UTF-8\"/>\n"
	    "<title>msprof-exec %s</title>\n"
	    "<style>\n"
	    "body{font-family:sans-serif;margin:2em;color:#222}\n"
	    "table{border-collapse:collapse;margin:0.5em 0}\n"
	    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
	    "td.l,th.l{text-align:left}\n"
	    "%s"
	    "</style>\n</head>\n<body>\n<h1>msprof-exec %s</h1>\n",
	    what, style, what);
}

void
html_page_end(FILE *fp)
{
	fputs("</body>\n</html>\n", fp);
}

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

#define HEAT_W		1024	/* pixels for the ranks */
#define HEAT_COLS	512	/* at most this many columns of ranks */
#define HEAT_ROW	18
#define HEAT_LEVELS	16

/* Level L of HEAT_LEVELS, light to dark blue. */
static void
heat_fill(char *buf, size_t len, int l)
{
	double f = (double)l / (HEAT_LEVELS - 1);

	snprintf(buf, len, "rgb(%d,%d,%d)", (int)lround(247 - f * 239),
	    (int)lround(251 - f * 203), (int)lround(255 - f * 148));
}

/* Columns B to E - 1 of a row: one cell. */
static void
heat_cell(FILE *fp, const struct heat *h, size_t row, size_t b, size_t e,
    size_t nb, int level, double worst, int rank)
{
	double w = (double)HEAT_W / nb;
	size_t first = b * h->n / nb, last = e * h->n / nb - 1;
	char fill[32];

	heat_fill(fill, sizeof(fill), level);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"%d\" "
	    "fill=\"%s\"><title>", LABEL_W + b * w, row * HEAT_ROW + 2,
	    (double)(e - b) * w, HEAT_ROW - 2, fill);
	if (h->rank[first] >= 0 && h->rank[last] >= 0 && first != last)
		fprintf(fp, "ranks %d-%d", h->rank[first], h->rank[last]);
	else if (h->rank[first] >= 0)
		fprintf(fp, "rank %d", h->rank[first]);
	else
		fputs("ranks of unknown number", fp);
	fprintf(fp, ": %s up to %.3f %s", h->rows[row], worst, h->unit);
	if (rank >= 0 && first != last)
		fprintf(fp, " (rank %d)", rank);
	fputs("</title></rect>\n", fp);
}

/*
 * Each row of H across the ranks: columns of ranks in order (several
 * ranks to a column when there are many: the column shows its highest
 * value, so one slow rank stands out among thousands), shaded from the
 * row's lowest value (white) to that plus H->span (the darkest); a run of
 * columns of one shade is one cell.  Its size does not grow with the
 * number of ranks.
 */
void
svg_heat(FILE *fp, const struct heat *h)
{
	size_t nb = h->n < HEAT_COLS ? h->n : HEAT_COLS, r, b, start;
	double *top = xcalloc(nb + 1, sizeof(*top)), lo, worst;
	int *at = xcalloc(nb + 1, sizeof(*at)), *lv = xcalloc(nb + 1,
	    sizeof(*lv)), rank;

	if (h->n == 0)
		goto out;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%zu\" font-size=\"11\" font-family=\"sans-serif\">\n",
	    LABEL_W + HEAT_W + 10, h->nrows * HEAT_ROW + 20);
	for (r = 0; r < h->nrows; r++) {
		lo = INFINITY;
		for (b = 0; b < nb; b++) {
			top[b] = -INFINITY;
			at[b] = -1;
			for (size_t i = b * h->n / nb; i < (b + 1) * h->n / nb; i++)
				if (h->v[r * h->n + i] > top[b]) {
					top[b] = h->v[r * h->n + i];
					at[b] = h->rank[i];
				}
			lo = fmin(lo, top[b]);
		}
		/* the row's lowest is white, its lowest + SPAN the darkest */
		for (b = 0; b < nb; b++)
			lv[b] = h->span > 0 ? (int)lround(fmin((top[b] - lo) /
			    h->span, 1) * (HEAT_LEVELS - 1)) : 0;
		fprintf(fp, "<text x=\"0\" y=\"%zu\">", r * HEAT_ROW + 14);
		html_text(fp, h->rows[r]);
		fputs("</text>\n", fp);
		for (b = 0; b < nb; b = start) {
			worst = top[b];
			rank = at[b];
			for (start = b + 1; start < nb && lv[start] == lv[b];
			    start++)
				if (top[start] > worst) {
					worst = top[start];
					rank = at[start];
				}
			heat_cell(fp, h, r, b, start, nb, lv[b], worst, rank);
		}
	}
	fprintf(fp, "<text x=\"%d\" y=\"%zu\">rank %d</text><text x=\"%d\" "
	    "y=\"%zu\" text-anchor=\"end\">rank %d</text>\n", LABEL_W,
	    h->nrows * HEAT_ROW + 14, h->rank[0], LABEL_W + HEAT_W,
	    h->nrows * HEAT_ROW + 14, h->rank[h->n - 1]);
	fputs("</svg>\n", fp);
out:
	free(top);
	free(at);
	free(lv);
}
