/*
 * What the summary's writers share (report/summary_*.c, the findings'
 * and the comparison's): the text's output and its drawing (draw.c), the
 * page's pieces (html.c) and the JSON's rank and number (json.c).  The
 * summaries compute and use none of it.
 */
#ifndef MSPROF_SUMMARY_WRITER_H
#define MSPROF_SUMMARY_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

struct rank_data;

/* The text's stream, and how it may draw (summary.h's SUMMARY_UTF8...). */
struct out {
	FILE		*fp;
	unsigned	 flags;
};

/* KEY: the rank, or null when it is unknown (never -1). */
void	 json_rank(cJSON *, const char *key, int rank);
/* V under KEY in O; null when V is not a finite number. */
void	 json_num(cJSON *, const char *key, double v);

/* Drawing (draw.c). */
void	 draw_bar(struct out *, const double *parts, size_t n, double total,
	    int width);
void	 draw_legend(struct out *, const char *const names[], size_t n);
const char *colour(const struct out *, int part);	/* "" without colour */
const char *colour_off(const struct out *);
/* HTML helpers (html.c). */
void	 html_text(FILE *, const char *);
/*
 * The page every output of msprof-exec WHAT ("summary", "compare") is:
 * its head, with the shared style and STYLE (rules of its own), and its
 * end.
 */
void	 html_page_head(FILE *, const char *what, const char *style);
void	 html_page_end(FILE *);
/* A table cell with the rank, or its label when the rank is unknown. */
void	 html_rank(FILE *, const struct rank_data *);
extern const char *const part_fill[];	/* SVG colours of the bar parts */
void	 svg_bars(FILE *, const char *const labels[], const double *parts,
	    size_t nrows, size_t nparts, const char *const names[]);
/* A heat map of a few rows (named) across N ranks in order. */
struct heat {
	const char *const *rows;
	size_t		 nrows;
	size_t		 n;
	const int	*rank;		/* of each column, -1 unknown */
	const double	*v;		/* row R of rank I at R * N + I */
	const char	*unit;
	double		 span;		/* above a row's lowest: the darkest */
};
void	 svg_heat(FILE *, const struct heat *);

#endif
