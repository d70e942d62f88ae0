/*
 * The summary (summary/) as the report gives it: its text
 * (summary_text.c), its JSON (summary_json.c) and the sections of its
 * page (summary_html.c).  Each of those files holds, for its format, the
 * writer of every summary kind and a table from kind to writer: a new
 * kind is its writer and its row in each.  The summaries compute and
 * print nothing; these only print.
 */
#ifndef MSPROF_REPORT_SUMMARY_WRITERS_H
#define MSPROF_REPORT_SUMMARY_WRITERS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "summary/writer.h"

struct summary;
struct jsonw;

/*
 * The summary as text, each kind under its title (FLAGS: SUMMARY_UTF8,
 * SUMMARY_COLOUR of summary/summary.h).
 */
void	 summary_print(const struct summary *, FILE *, unsigned flags);
/*
 * The summary as JSON, written as it is made (KEY: its key in the object
 * being written, or NULL), in the memory of its largest summary: its
 * "ranks", "left_out" and "summaries".  summary_json_members writes them
 * into an object the caller opened (and may add to).
 */
void	 summary_json_write(const struct summary *, struct jsonw *,
	    const char *key);
void	 summary_json_members(const struct summary *, struct jsonw *);
/* The same document parsed back, as a reader of the file gets it. */
cJSON	*summary_json(const struct summary *);
/*
 * Each summary's section of an XHTML page with inline SVG (the page is
 * html_page_head's, summary/model.h).
 */
void	 summary_html_sections(const struct summary *, FILE *);

/*
 * What the text and the page show of the steps: every rank up to
 * MAX_ROWS_SHOWN, else the SLOWEST_SHOWN with the longest steps, the
 * median and the shortest.
 */
#define MAX_ROWS_SHOWN	32
#define SLOWEST_SHOWN	5

/* The ranks the collectives wait for, named one by one. */
#define MAX_WAIT_ROWS	8

/* The user's lines that synchronised most, named by the text and the page. */
#define IDLE_FRAMES	5

/*
 * The files the summary left out: a line each when few, else grouped by
 * file name and reason (text); every one (JSON).
 */
void	 left_out_print(const struct summary *, FILE *);
cJSON	*left_out_json(const struct summary *);

#endif
